//! Keys to actions: a table per screen over shared layers (see
//! `tables`). The same tables drive key handling, the footer's hints
//! and the help screen, so neither can drift from what the keys do.

mod key;
mod tables;

pub use key::{Key, typed};

use crate::state::{Action, Screen};
use ratatui::crossterm::event::KeyEvent;

/// One line of a key table: these keys ask for that action.
pub struct Binding {
    pub keys: &'static [Key],
    /// What the keys ask for. A key that stands for many characters (a
    /// digit, any text) puts the one pressed into it: see `pressed`.
    pub action: Action,
    /// Shown in the footer, after the first key's label.
    pub hint: Option<&'static str>,
}

impl Binding {
    /// The binding with a footer hint.
    const fn hint(self, hint: &'static str) -> Binding {
        Binding {
            hint: Some(hint),
            ..self
        }
    }

    /// Every key of the binding, as the help shows them: "j ↓ Enter".
    pub fn label(&self) -> String {
        let labels: Vec<String> = self.keys.iter().map(Key::label).collect();
        labels.join(" ")
    }

    /// The action when `key` of the binding is pressed as `c`: a digit
    /// picks the option (1 the first) or goes into the count, a printable
    /// character is typed; any other key asks for the action as written.
    fn pressed(&self, key: Key, c: char) -> Action {
        let digit = c.to_digit(10).unwrap_or(0);
        match (key, &self.action) {
            (Key::Digit, Action::Answer(_)) => Action::Answer((digit as usize).saturating_sub(1)),
            (Key::Digit, Action::Count(_)) => Action::Count(digit),
            (Key::Printable, Action::Input(_)) => Action::Input(c),
            _ => self.action.clone(),
        }
    }
}

/// The bindings of `screen`, most specific first.
pub fn bindings(screen: Screen) -> impl Iterator<Item = &'static Binding> {
    tables::layers(screen).iter().flat_map(|t| t.iter())
}

/// The action a key asks for on `screen`, if any.
pub fn lookup(screen: Screen, ev: &KeyEvent) -> Option<Action> {
    bindings(screen).find_map(|b| {
        b.keys
            .iter()
            .find_map(|k| k.matches(ev).map(|c| b.pressed(*k, c)))
    })
}

/// Every key bound on `screen`, by the label the help shows ("j",
/// "Ctrl-D", "1-9" for the digits): what a text naming keys, such as the
/// built-in guide, is held to.
pub fn key_labels(screen: Screen) -> Vec<String> {
    bindings(screen)
        .flat_map(|b| b.keys.iter().map(Key::label))
        .collect()
}

/// Footer hints for a screen: (first key, what). The last layer (how to
/// quit and get help, where a screen has it) first, then the screen's own.
pub fn hints(screen: Screen) -> Vec<(String, &'static str)> {
    let layers = tables::layers(screen);
    let (last, rest) = layers.split_last().expect("every screen has a table");
    std::iter::once(last)
        .chain(rest)
        .flat_map(|t| t.iter())
        .filter_map(|b| Some((b.keys.first()?.label(), b.hint?)))
        .collect()
}

/// Help screen rows, grouped by screen in [`Screen::ALL`]'s order: each
/// binding's keys and what its action does there. A row already listed
/// under an earlier screen is not repeated.
pub fn help() -> Vec<(Screen, Vec<(String, &'static str)>)> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    Screen::ALL
        .into_iter()
        .map(|screen| {
            let mut rows = Vec::new();
            for b in bindings(screen).filter(|b| !b.keys.contains(&Key::Printable)) {
                let row = (b.label(), b.action.description_on(screen));
                if !seen.contains(&row) && !rows.contains(&row) {
                    rows.push(row);
                }
            }
            seen.extend(rows.iter().cloned());
            (screen, rows)
        })
        .collect()
}

#[cfg(test)]
mod tests;
