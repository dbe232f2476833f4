//! The one table of key bindings. It drives key handling, the footer
//! hints and the help screen, so help cannot drift from behaviour.

use super::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Reading,
    Toc,
    /// Typing a search in the lesson.
    Search,
    CourseSearch,
    Quiz,
    Help,
    Stats,
    Review,
    /// Choosing a course of the library.
    Courses,
}

impl Mode {
    pub fn title(self) -> &'static str {
        match self {
            Mode::Reading => "Reading",
            Mode::Toc => "Table of contents",
            Mode::Search => "Search in lesson",
            Mode::CourseSearch => "Search the course",
            Mode::Quiz => "Check question",
            Mode::Help => "Help",
            Mode::Stats => "Stats",
            Mode::Review => "Review",
            Mode::Courses => "Courses",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Code(KeyCode),
    /// Any digit 1-9: answers the option of that number.
    Digit,
    /// Any printable character (prompts).
    Printable,
}

pub struct Binding {
    pub modes: &'static [Mode],
    pub keys: &'static [Key],
    /// Shown in the help screen, e.g. "j ↓".
    pub label: &'static str,
    pub action: fn(char) -> Action,
    pub help: &'static str,
    /// Shown in the footer of these modes.
    pub hint: Option<&'static str>,
}

use Key::*;
use Mode::*;

const READ: &[Mode] = &[Reading];
const READ_QUIZ: &[Mode] = &[Reading, Quiz];
const ALL_VIEWS: &[Mode] = &[Reading, Quiz, Toc];

pub static BINDINGS: &[Binding] = &[
    Binding {
        modes: &[Reading, Toc, Quiz, Help, Stats, Review, Courses],
        keys: &[Char('q'), Ctrl('c')],
        label: "q Ctrl-C",
        action: |_| Action::Quit,
        help: "quit",
        hint: Some("quit"),
    },
    Binding {
        modes: &[Search, CourseSearch],
        keys: &[Ctrl('c')],
        label: "Ctrl-C",
        action: |_| Action::Quit,
        help: "quit",
        hint: None,
    },
    Binding {
        modes: &[Reading, Toc, Quiz, Stats, Review],
        keys: &[Char('?')],
        label: "?",
        action: |_| Action::Help,
        help: "show this help",
        hint: Some("help"),
    },
    Binding {
        modes: &[
            Reading,
            Toc,
            Quiz,
            Help,
            Stats,
            Search,
            CourseSearch,
            Review,
        ],
        keys: &[Code(KeyCode::Esc)],
        label: "Esc",
        action: |_| Action::Back,
        help: "close an overlay, leave the check, clear the search",
        hint: None,
    },
    Binding {
        modes: ALL_VIEWS,
        keys: &[Ctrl('z')],
        label: "Ctrl-Z",
        action: |_| Action::Suspend,
        help: "suspend to the shell",
        hint: None,
    },
    Binding {
        modes: &[Reading, Help],
        keys: &[Char('j'), Code(KeyCode::Down), Code(KeyCode::Enter)],
        label: "j ↓",
        action: |_| Action::LineDown,
        help: "down one line",
        hint: None,
    },
    Binding {
        modes: &[Reading, Help],
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        action: |_| Action::LineUp,
        help: "up one line",
        hint: None,
    },
    Binding {
        modes: &[Reading, Quiz, Help],
        keys: &[Char(' '), Code(KeyCode::PageDown), Ctrl('d'), Ctrl('f')],
        label: "Space PgDn Ctrl-D",
        action: |_| Action::PageDown,
        help: "down one page",
        hint: Some("page"),
    },
    Binding {
        modes: &[Reading, Quiz, Help],
        keys: &[Char('b'), Code(KeyCode::PageUp), Ctrl('u'), Ctrl('b')],
        label: "b PgUp Ctrl-U",
        action: |_| Action::PageUp,
        help: "up one page",
        hint: None,
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('g'), Code(KeyCode::Home)],
        label: "g Home",
        action: |_| Action::Top,
        help: "top of the lesson",
        hint: None,
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('G'), Code(KeyCode::End)],
        label: "G End",
        action: |_| Action::Bottom,
        help: "end of the lesson (the check question)",
        hint: None,
    },
    Binding {
        modes: READ,
        keys: &[Char('}')],
        label: "}",
        action: |_| Action::NextHeading,
        help: "next heading",
        hint: None,
    },
    Binding {
        modes: READ,
        keys: &[Char('{')],
        label: "{",
        action: |_| Action::PrevHeading,
        help: "previous heading",
        hint: None,
    },
    Binding {
        modes: ALL_VIEWS,
        keys: &[Char(']')],
        label: "]",
        action: |_| Action::NextLesson,
        help: "next lesson (course order)",
        hint: Some("next lesson"),
    },
    Binding {
        modes: ALL_VIEWS,
        keys: &[Char('[')],
        label: "[",
        action: |_| Action::PrevLesson,
        help: "previous lesson",
        hint: None,
    },
    Binding {
        modes: &[Reading, Quiz, Toc],
        keys: &[Code(KeyCode::Tab)],
        label: "Tab",
        action: |_| Action::ToggleToc,
        help: "show or hide the table of contents",
        hint: Some("contents"),
    },
    Binding {
        modes: &[Toc],
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        action: |_| Action::TocDown,
        help: "next entry",
        hint: Some("move"),
    },
    Binding {
        modes: &[Toc],
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        action: |_| Action::TocUp,
        help: "previous entry",
        hint: None,
    },
    Binding {
        modes: &[Toc],
        keys: &[Code(KeyCode::Enter), Char('l')],
        label: "Enter",
        action: |_| Action::TocOpen,
        help: "open the lesson",
        hint: Some("open"),
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('/')],
        label: "/",
        action: |_| Action::SearchStart,
        help: "search this lesson",
        hint: Some("search"),
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('n')],
        label: "n",
        action: |_| Action::SearchNext,
        help: "next match",
        hint: None,
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('N')],
        label: "N",
        action: |_| Action::SearchPrev,
        help: "previous match",
        hint: None,
    },
    Binding {
        modes: &[Reading, Quiz, Toc],
        keys: &[Char('s')],
        label: "s",
        action: |_| Action::CourseSearchStart,
        help: "search the whole course",
        hint: None,
    },
    Binding {
        modes: READ,
        keys: &[Char('c')],
        label: "c",
        action: |_| Action::JumpToCheck,
        help: "go to the check question",
        hint: Some("check"),
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Digit],
        label: "1-9",
        action: |c| Action::Answer(c.to_digit(10).unwrap_or(1) as usize - 1),
        help: "answer the check with that option",
        hint: None,
    },
    Binding {
        modes: &[Quiz],
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        action: |_| Action::OptionDown,
        help: "next option",
        hint: Some("choose"),
    },
    Binding {
        modes: &[Quiz],
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        action: |_| Action::OptionUp,
        help: "previous option",
        hint: None,
    },
    Binding {
        modes: &[Quiz],
        keys: &[Code(KeyCode::Enter)],
        label: "Enter",
        action: |_| Action::AnswerSelected,
        help: "answer with the selected option",
        hint: Some("answer"),
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('r')],
        label: "r",
        action: |_| Action::Retry,
        help: "retry the check",
        hint: None,
    },
    Binding {
        modes: READ_QUIZ,
        keys: &[Char('a')],
        label: "a",
        action: |_| Action::Reveal,
        help: "reveal the answer and every explanation",
        hint: None,
    },
    Binding {
        modes: ALL_VIEWS,
        keys: &[Char('R')],
        label: "R",
        action: |_| Action::Review,
        help: "review due check questions",
        hint: None,
    },
    Binding {
        modes: &[Reading, Quiz, Toc, Stats],
        keys: &[Char('S')],
        label: "S",
        action: |_| Action::Stats,
        help: "progress and stats",
        hint: None,
    },
    Binding {
        modes: ALL_VIEWS,
        keys: &[Char('m')],
        label: "m",
        action: |_| Action::ToggleMouse,
        help: "mouse on/off (off lets the terminal select text)",
        hint: None,
    },
    Binding {
        modes: &[Review],
        keys: &[Digit],
        label: "1-9",
        action: |c| Action::Answer(c.to_digit(10).unwrap_or(1) as usize - 1),
        help: "answer with that option",
        hint: Some("answer"),
    },
    Binding {
        modes: &[Review],
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        action: |_| Action::OptionDown,
        help: "next option",
        hint: None,
    },
    Binding {
        modes: &[Review],
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        action: |_| Action::OptionUp,
        help: "previous option",
        hint: None,
    },
    Binding {
        modes: &[Review],
        keys: &[Code(KeyCode::Enter), Char(' '), Char('n')],
        label: "Enter Space",
        action: |_| Action::ReviewNext,
        help: "answer the selected option, or go to the next card",
        hint: Some("next"),
    },
    Binding {
        modes: &[Review],
        keys: &[Char('o')],
        label: "o",
        action: |_| Action::ReviewReread,
        help: "re-read this card's lesson (R comes back)",
        hint: Some("re-read"),
    },
    Binding {
        modes: &[Reading, Toc, Quiz],
        keys: &[Char('C')],
        label: "C",
        action: |_| Action::CoursesOpen,
        help: "choose another course of the library",
        hint: None,
    },
    Binding {
        modes: &[Courses],
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        action: |_| Action::ResultDown,
        help: "next course",
        hint: Some("move"),
    },
    Binding {
        modes: &[Courses],
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        action: |_| Action::ResultUp,
        help: "previous course",
        hint: None,
    },
    Binding {
        modes: &[Courses],
        keys: &[Code(KeyCode::Enter)],
        label: "Enter",
        action: |_| Action::InputEnter,
        help: "open the course where you left off",
        hint: Some("open"),
    },
    Binding {
        modes: &[Search, CourseSearch],
        keys: &[Code(KeyCode::Enter)],
        label: "Enter",
        action: |_| Action::InputEnter,
        help: "accept",
        hint: Some("accept"),
    },
    Binding {
        modes: &[Search, CourseSearch],
        keys: &[Code(KeyCode::Backspace)],
        label: "Backspace",
        action: |_| Action::InputBackspace,
        help: "delete a character",
        hint: None,
    },
    Binding {
        modes: &[CourseSearch],
        keys: &[Code(KeyCode::Down), Ctrl('n')],
        label: "↓ Ctrl-N",
        action: |_| Action::ResultDown,
        help: "next result",
        hint: None,
    },
    Binding {
        modes: &[CourseSearch],
        keys: &[Code(KeyCode::Up), Ctrl('p')],
        label: "↑ Ctrl-P",
        action: |_| Action::ResultUp,
        help: "previous result",
        hint: None,
    },
    Binding {
        modes: &[Search, CourseSearch],
        keys: &[Printable],
        label: "text",
        action: Action::Input,
        help: "type the search",
        hint: None,
    },
];

fn matches(key: &Key, ev: &KeyEvent) -> Option<char> {
    let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
    match (key, ev.code) {
        (Ctrl(c), KeyCode::Char(x)) if ctrl && x.eq_ignore_ascii_case(c) => Some(x),
        (Char(c), KeyCode::Char(x)) if !ctrl && x == *c => Some(x),
        (Digit, KeyCode::Char(x @ '1'..='9')) if !ctrl => Some(x),
        (Printable, KeyCode::Char(x)) if !ctrl && !x.is_control() => Some(x),
        (Code(c), code) if *c == code && !ctrl => Some(' '),
        _ => None,
    }
}

/// A key as written in a script of keys (the tests', the benchmarks'):
/// `\n` Enter, `\x1b` Esc, `\t` Tab, `\x7f` Backspace, else the character.
pub fn typed(c: char) -> KeyEvent {
    let code = match c {
        '\n' => KeyCode::Enter,
        '\x1b' => KeyCode::Esc,
        '\t' => KeyCode::Tab,
        '\x7f' => KeyCode::Backspace,
        c => KeyCode::Char(c),
    };
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// The action a key asks for in `mode`, if any.
pub fn lookup(mode: Mode, ev: &KeyEvent) -> Option<Action> {
    BINDINGS
        .iter()
        .filter(|b| b.modes.contains(&mode))
        .find_map(|b| {
            b.keys
                .iter()
                .find_map(|k| matches(k, ev))
                .map(|c| (b.action)(c))
        })
}

/// Footer hints for a mode: (keys, what), in table order.
pub fn hints(mode: Mode) -> Vec<(&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.modes.contains(&mode))
        .filter_map(|b| {
            b.hint
                .map(|h| (b.label.split(' ').next().unwrap_or(b.label), h))
        })
        .collect()
}

/// Help screen rows, grouped by mode; a binding already listed under an
/// earlier mode is not repeated.
pub fn help() -> Vec<(Mode, Vec<(&'static str, &'static str)>)> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    [Reading, Quiz, Review, Toc, Search, CourseSearch, Courses]
        .into_iter()
        .map(|m| {
            let rows: Vec<_> = BINDINGS
                .iter()
                .filter(|b| b.modes.contains(&m) && b.label != "text")
                .map(|b| (b.label, b.help))
                .filter(|row| !seen.contains(row))
                .collect();
            seen.extend(rows.iter().copied());
            (m, rows)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn less_keys_work_in_reading_mode() {
        assert_eq!(lookup(Reading, &key('j')), Some(Action::LineDown));
        assert_eq!(lookup(Reading, &key(' ')), Some(Action::PageDown));
        assert_eq!(lookup(Reading, &key('G')), Some(Action::Bottom));
        assert_eq!(lookup(Reading, &key('3')), Some(Action::Answer(2)));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(Reading, &ctrl_c), Some(Action::Quit));
        assert_eq!(lookup(Search, &ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn prompts_take_text_not_commands() {
        assert_eq!(lookup(Search, &key('q')), Some(Action::Input('q')));
        assert_eq!(lookup(Search, &key('j')), Some(Action::Input('j')));
        assert_eq!(lookup(CourseSearch, &key('G')), Some(Action::Input('G')));
    }

    #[test]
    fn every_mode_can_be_left() {
        let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
        for m in [
            Reading,
            Toc,
            Search,
            CourseSearch,
            Quiz,
            Help,
            Stats,
            Review,
        ] {
            assert!(lookup(m, &esc).is_some(), "{m:?}");
        }
    }

    #[test]
    fn help_lists_every_binding_of_reading_mode() {
        let help = help();
        let reading = &help.iter().find(|(m, _)| *m == Reading).unwrap().1;
        for b in BINDINGS.iter().filter(|b| b.modes.contains(&Reading)) {
            assert!(
                reading.iter().any(|(l, _)| *l == b.label),
                "{} missing",
                b.label
            );
        }
    }
}
