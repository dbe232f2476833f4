//! A key as the tables write it, how it matches a terminal key event, and
//! its label (the help and the footer show labels made from the keys, so
//! they cannot disagree with what the keys do).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Code(KeyCode),
    /// Any digit 1-9.
    Digit,
    /// Any printable character (prompts).
    Printable,
}

impl Key {
    /// The character the event carries when it is this key.
    pub fn matches(&self, ev: &KeyEvent) -> Option<char> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match (self, ev.code) {
            (Key::Ctrl(c), KeyCode::Char(x)) if ctrl && x.eq_ignore_ascii_case(c) => Some(x),
            (Key::Char(c), KeyCode::Char(x)) if !ctrl && x == *c => Some(x),
            (Key::Digit, KeyCode::Char(x @ '1'..='9')) if !ctrl => Some(x),
            (Key::Printable, KeyCode::Char(x)) if !ctrl && !x.is_control() => Some(x),
            (Key::Code(c), code) if *c == code && !ctrl => Some(' '),
            _ => None,
        }
    }

    pub fn label(&self) -> String {
        match self {
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Code(code) => code_label(*code).into(),
            Key::Digit => "1-9".into(),
            Key::Printable => "text".into(),
        }
    }
}

fn code_label(code: KeyCode) -> &'static str {
    match code {
        KeyCode::Down => "↓",
        KeyCode::Up => "↑",
        KeyCode::Left => "←",
        KeyCode::Right => "→",
        KeyCode::PageDown => "PgDn",
        KeyCode::PageUp => "PgUp",
        KeyCode::Home => "Home",
        KeyCode::End => "End",
        KeyCode::Enter => "Enter",
        KeyCode::Esc => "Esc",
        KeyCode::Tab => "Tab",
        KeyCode::Backspace => "Backspace",
        _ => "?",
    }
}

/// A key as written in a script of keys (the tests', the benchmarks'):
/// `\n` Enter, `\x1b` Esc, `\t` Tab, `\x7f` Backspace, another control
/// character its Ctrl key (`\x05` Ctrl-E), else the character.
pub fn typed(c: char) -> KeyEvent {
    let code = match c {
        '\n' => KeyCode::Enter,
        '\x1b' => KeyCode::Esc,
        '\t' => KeyCode::Tab,
        '\x7f' => KeyCode::Backspace,
        '\x01'..='\x1a' => {
            let letter = char::from(b'a' + (c as u8) - 1);
            return KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL);
        }
        c => KeyCode::Char(c),
    };
    KeyEvent::new(code, KeyModifiers::NONE)
}
