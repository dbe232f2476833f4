//! The linear reader's typed commands: each one the keys or the action it
//! stands for on the full screen, then what it leads to written out.

use super::Linear;
use crate::state::{Action, Overlay, Screen};
use ratatui::crossterm::event::KeyCode;

/// One typed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Next,
    Previous,
    Again,
    Top,
    NextLesson,
    PreviousLesson,
    Contents,
    Open(usize),
    Check,
    Answer(String),
    Submit,
    Type(String),
    Retry,
    Reveal,
    Search(String),
    Find(String),
    Review,
    Stats,
    Links,
    Folds,
    Key(KeyCode),
    Close,
    Help,
    Quit,
}

/// The commands as `help` lists them.
const HELP: &[(&str, &str)] = &[
    (
        "Enter, next, n",
        "read the next section (on a review card: the next card)",
    ),
    ("previous, p", "the section before"),
    ("again", "the same section again"),
    ("top", "the lesson from its top"),
    ("next lesson, ]", "the next lesson in course order"),
    ("previous lesson, [", "the lesson before"),
    ("contents", "every lesson of the course, numbered"),
    (
        "open N",
        "lesson N of the contents, or result N of a search",
    ),
    ("check, c", "the next check question of the lesson"),
    (
        "answer N, N",
        "answer with option N (several answers: tick N)",
    ),
    ("submit", "submit the options ticked"),
    ("type TEXT", "a typed answer (short answers, tracing)"),
    (
        "retry",
        "answer the check again (practice: the first try stays)",
    ),
    ("reveal", "show the answer and every explanation"),
    ("search WORDS", "the course's lessons holding every word"),
    ("find WORDS", "the next place in this lesson holding them"),
    ("review", "the check questions due for review"),
    ("stats", "what you have read and answered"),
    ("links", "the page's links, with their addresses"),
    ("folds", "open or close the lesson's folded notes and hints"),
    (
        "key K",
        "press key K as on the full screen (Enter, Esc, Tab, Space, a letter)",
    ),
    (
        "close",
        "close what is open (a list, the review), back to the lesson",
    ),
    ("help", "this list"),
    ("quit, q", "quit (end of input too)"),
];

impl Command {
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim().to_string();
        let number = |what: &str| {
            rest.parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{what} takes a number: {what} 2"))
        };
        Ok(match (word.to_lowercase().as_str(), rest.as_str()) {
            ("" | "n" | "next", "") => Command::Next,
            ("next", "lesson") | ("]", "") => Command::NextLesson,
            ("previous" | "prev", "lesson") | ("[", "") => Command::PreviousLesson,
            ("p" | "previous" | "prev" | "back", "") => Command::Previous,
            ("again" | "repeat", "") => Command::Again,
            ("top", "") => Command::Top,
            ("contents" | "toc" | "lessons", "") => Command::Contents,
            ("open", _) => Command::Open(number("open")?),
            ("check" | "c", "") => Command::Check,
            ("answer" | "tick", _) if !rest.is_empty() => Command::Answer(rest),
            (w, "") if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
                Command::Answer(w.to_string())
            }
            ("submit", "") => Command::Submit,
            ("type", _) if !rest.is_empty() => Command::Type(rest),
            ("retry", "") => Command::Retry,
            ("reveal", "") => Command::Reveal,
            ("search", _) if !rest.is_empty() => Command::Search(rest),
            ("find", _) if !rest.is_empty() => Command::Find(rest),
            ("review", "") => Command::Review,
            ("stats", "") => Command::Stats,
            ("links", "") => Command::Links,
            ("folds" | "fold" | "z", "") => Command::Folds,
            ("key", k) => Command::Key(key_named(k)?),
            ("close" | "esc", "") => Command::Close,
            ("help" | "?", "") => Command::Help,
            ("quit" | "q" | "exit", "") => Command::Quit,
            _ => return Err(format!("Not a command: {line} (help lists them)")),
        })
    }
}

fn key_named(name: &str) -> Result<KeyCode, String> {
    Ok(match name.to_lowercase().as_str() {
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "space" => KeyCode::Char(' '),
        "backspace" => KeyCode::Backspace,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        _ => match name.chars().collect::<Vec<_>>()[..] {
            [c] => KeyCode::Char(c),
            _ => {
                return Err(format!(
                    "Not a key: {name} (a letter, Enter, Esc, Tab, Space, Up, Down)"
                ));
            }
        },
    })
}

impl Linear {
    pub(super) fn run(&mut self, c: Command) {
        let on_card = self.s.screen() == Screen::Review;
        match c {
            Command::Next if on_card => self.press_and_show(KeyCode::Enter),
            Command::Next => {
                if self.section + 1 < self.sections().len() {
                    self.show_section(self.section + 1);
                } else {
                    self.say("(end of the lesson: next lesson goes on)");
                }
            }
            Command::Previous => self.show_section(self.section.saturating_sub(1)),
            Command::Again => self.show_section(self.section),
            Command::Top => self.show_section(0),
            Command::NextLesson => self.move_lesson(Action::NextLesson),
            Command::PreviousLesson => self.move_lesson(Action::PrevLesson),
            Command::Contents => self.contents(),
            Command::Open(n) => self.open(n),
            Command::Check => {
                self.update(Action::JumpToCheck);
                self.show_check();
            }
            Command::Answer(what) => self.answer(&what),
            Command::Submit => self.on_check(|me| me.key(KeyCode::Enter)),
            Command::Type(text) => self.on_check(|me| {
                me.key(KeyCode::Char('i'));
                me.keys(&text);
                me.key(KeyCode::Enter);
            }),
            Command::Retry => self.on_check(|me| me.update(Action::Retry)),
            Command::Reveal => self.on_check(|me| me.update(Action::Reveal)),
            Command::Search(words) => {
                self.update(Action::CourseSearchStart);
                self.keys(&words);
                // Every hit is written out, so every snippet is read.
                let mut fx = Vec::new();
                if let Some(Overlay::CourseSearch(cs)) = &mut self.s.overlay {
                    cs.want(0..cs.results.len(), self.s.library.course(), &mut fx);
                }
                self.apply(fx);
                self.show_screen();
            }
            Command::Find(words) => {
                self.update(Action::SearchStart);
                self.keys(&words);
                self.key(KeyCode::Enter);
                let k = self.section_at_top();
                self.show_section(k);
            }
            Command::Review => {
                self.update(Action::Review);
                self.show_screen();
            }
            Command::Stats => {
                self.update(Action::Stats);
                self.show_screen();
            }
            Command::Links => {
                self.update(Action::Links);
                self.show_screen();
            }
            Command::Folds => {
                self.update(Action::ToggleFolds);
                let k = self.section_at_top();
                self.show_section(k);
            }
            Command::Key(k) => self.press_and_show(k),
            Command::Close => {
                self.key(KeyCode::Esc);
                self.after_screen();
            }
            Command::Help => {
                for (cmd, what) in HELP {
                    self.say(&format!("{cmd}: {what}"));
                }
            }
            Command::Quit => self.update(Action::Quit),
        }
    }

    fn move_lesson(&mut self, a: Action) {
        let before = self.s.reader.lesson;
        self.update(a);
        if self.s.reader.lesson == before {
            self.say("(no lesson that way)");
        } else {
            let k = self.section_at_top();
            self.show_section(k);
        }
    }

    fn contents(&mut self) {
        let c = self.s.course();
        let rows: Vec<String> = c
            .lessons
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let here = if i == self.s.reader.lesson {
                    " (open)"
                } else {
                    ""
                };
                format!("{}. {}{here}", i + 1, e.title)
            })
            .collect();
        for r in rows {
            self.say(&r);
        }
    }

    /// Result `n` of the search on screen, else lesson `n` of the course.
    fn open(&mut self, n: usize) {
        if let Some(Overlay::CourseSearch(cs)) = &mut self.s.overlay {
            let found = cs.results.len();
            if n > found {
                self.say(&format!("There are {found} results."));
                return;
            }
            cs.cursor = n - 1;
            self.update(Action::Open);
        } else if n <= self.s.course().lessons.len() {
            let mut fx = Vec::new();
            crate::state::open_lesson(&mut self.s, n - 1, &mut fx);
            self.apply(fx);
        } else {
            self.say(&format!(
                "The course has {} lessons.",
                self.s.course().lessons.len()
            ));
            return;
        }
        self.lesson = usize::MAX;
        let k = self.section_at_top();
        self.show_section(k);
    }

    fn answer(&mut self, what: &str) {
        match self.s.screen() {
            Screen::Review | Screen::Check | Screen::Choices => self.on_check(|me| me.keys(what)),
            _ => self.say("No check question is open: check goes to the next one."),
        }
    }

    /// `act` on the check (or review card) open now, then it written out.
    fn on_check(&mut self, act: impl FnOnce(&mut Linear)) {
        act(self);
        if self.s.screen() == Screen::Review || self.s.overlay.is_some() {
            self.show_screen();
        } else {
            self.show_check();
        }
    }

    fn press_and_show(&mut self, k: KeyCode) {
        self.key(k);
        self.after_screen();
    }

    /// What a key led to: the screen it opened, or the page where it is.
    fn after_screen(&mut self) {
        if self.s.overlay.is_some() || self.s.screen() == Screen::Review {
            self.show_screen();
        } else {
            self.lesson = usize::MAX;
            let k = self.section_at_top();
            self.show_section(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_a_person_types_them() {
        assert_eq!(Command::parse(""), Ok(Command::Next));
        assert_eq!(Command::parse("next lesson"), Ok(Command::NextLesson));
        assert_eq!(Command::parse("Answer 2"), Ok(Command::Answer("2".into())));
        assert_eq!(Command::parse("3"), Ok(Command::Answer("3".into())));
        assert_eq!(Command::parse("open 12"), Ok(Command::Open(12)));
        assert!(Command::parse("open x").unwrap_err().contains("number"));
        assert_eq!(
            Command::parse("search kv cache"),
            Ok(Command::Search("kv cache".into()))
        );
        assert_eq!(
            Command::parse("key Enter"),
            Ok(Command::Key(KeyCode::Enter))
        );
        assert!(
            Command::parse("dance")
                .unwrap_err()
                .contains("help lists them")
        );
    }
}
