//! Keys to actions: a table per screen over shared layers (see
//! `tables`). The same tables drive key handling, the footer's hints
//! and the help screen, so neither can drift from what the keys do.

mod key;
mod tables;
mod tools;

pub use key::{Key, typed};

use crate::state::{Action, Screen};
use ratatui::crossterm::event::KeyEvent;

pub struct Binding {
    pub keys: &'static [Key],
    pub action: fn(char) -> Action,
    /// Shown in the help screen.
    pub help: &'static str,
    /// Shown in the footer, after the first key's label.
    pub hint: Option<&'static str>,
}

impl Binding {
    /// Every key of the binding, as the help shows them: "j ↓ Enter".
    pub fn label(&self) -> String {
        let labels: Vec<String> = self.keys.iter().map(Key::label).collect();
        labels.join(" ")
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
            .find_map(|k| k.matches(ev))
            .map(|c| (b.action)(c))
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

/// The screens in the order the help lists them.
pub const HELP_ORDER: [Screen; 13] = [
    Screen::Reading,
    Screen::Check,
    Screen::Choices,
    Screen::Review,
    Screen::Stats,
    Screen::Contents,
    Screen::Search,
    Screen::CourseSearch,
    Screen::Answer,
    Screen::Courses,
    Screen::Copy,
    Screen::Links,
    Screen::Help,
];

/// Help screen rows, grouped by screen; a row already listed under an
/// earlier screen is not repeated.
pub fn help() -> Vec<(Screen, Vec<(String, &'static str)>)> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    HELP_ORDER
        .into_iter()
        .map(|screen| {
            let mut rows = Vec::new();
            for b in bindings(screen).filter(|b| !b.keys.contains(&Key::Printable)) {
                let row = (b.label(), b.help);
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
