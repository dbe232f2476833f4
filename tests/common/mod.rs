//! Shared by the integration tests: the lessons they read and course
//! folders built around them (in `fixtures`), a small driver that runs
//! the reader's state the way the runtime does, and checkers for what may
//! reach a terminal.
#![allow(dead_code)]

use lectern::loader;
use lectern::state::{self, Action, Effect, Mode, Opened, State, keymap};
use lectern::store::LessonProgress;
use std::collections::{HashMap, VecDeque};
use std::path::Path;

pub mod fixtures;
// Not every test binary reads a lesson.
#[allow(unused_imports)]
pub use fixtures::*;

/// The reader's state driven as the runtime drives it.
pub struct Reader {
    pub s: State,
    /// Text to hide from screens (temporary paths).
    pub redact: Vec<(String, String)>,
    pub saved: HashMap<String, LessonProgress>,
    pub effects: Vec<Effect>,
    /// The course index, in memory, as the runtime keeps it on disk.
    pub index: lectern::index::Index,
}

impl Reader {
    pub fn new(courses: Vec<lectern::model::Course>, width: u16, height: u16) -> Reader {
        let mut s = State::new(courses, width, height);
        s.dark = true;
        Reader {
            s,
            redact: Vec::new(),
            saved: HashMap::new(),
            effects: Vec::new(),
            index: lectern::index::Index::in_memory(),
        }
    }

    /// The course folder `dir`, as `lectern DIR` opens it.
    pub fn folder(dir: &Path, width: u16, height: u16) -> Reader {
        let lib = loader::open_paths(&[dir.to_path_buf()]).unwrap();
        let mut r = Reader::new(lib.courses, width, height);
        let shown = dir.display().to_string();
        r.redact.push((shown, "<course>".into()));
        if let Ok(c) = dir.canonicalize() {
            r.redact.push((c.display().to_string(), "<course>".into()));
        }
        r
    }

    pub fn builtin(width: u16, height: u16) -> Reader {
        Reader::new(vec![loader::builtin_course()], width, height)
    }

    pub fn index_of(&self, slug: &str) -> usize {
        self.s.course().index_of(slug).expect("lesson in course")
    }

    /// Opens lesson `index` as the runtime does at start-up.
    pub fn open(&mut self, index: usize) -> &mut Self {
        let mut fx = Vec::new();
        state::open_lesson(&mut self.s, index, &mut fx);
        self.settle(fx);
        self
    }

    fn redact_state(&mut self) {
        if let Some(b) = &mut self.s.broken {
            for (from, to) in &self.redact {
                *b = b.replace(from.as_str(), to);
            }
        }
    }

    /// Carries out effects until none are left, as the runtime would:
    /// loads, highlighting and the course index in place; the rest kept.
    pub fn settle(&mut self, fx: Vec<Effect>) {
        let mut queue: VecDeque<Effect> = fx.into();
        while let Some(e) = queue.pop_front() {
            let reply = match &e {
                Effect::Load { origin, lesson } => {
                    let result = loader::load_lesson(origin);
                    let progress = result
                        .as_ref()
                        .ok()
                        .and_then(|l| self.saved.get(&l.meta.slug).cloned())
                        .unwrap_or_default();
                    Some(Action::Loaded(Box::new(Opened {
                        index: *lesson,
                        lesson: result,
                        progress,
                    })))
                }
                Effect::Highlight => self.s.doc.as_ref().map(|d| {
                    let code = lectern::highlight::highlight_lesson(&d.lesson, self.s.dark);
                    Action::Highlighted(d.lesson.meta.slug.clone(), code)
                }),
                Effect::BuildIndex => {
                    let origins = self.s.course().origins();
                    self.index.fill_text(&origins).unwrap();
                    Some(Action::Indexed)
                }
                Effect::CourseSearch(q) => {
                    let origins = self.s.course().origins();
                    let texts = self.index.search(&origins, q, 200);
                    Some(Action::CourseResults(
                        q.clone(),
                        state::course_hits(texts, q),
                    ))
                }
                _ => None,
            };
            if let Some(a) = reply {
                queue.extend(state::update(&mut self.s, a));
            }
            self.effects.push(e);
        }
        // As the runtime does once the frame is drawn.
        self.s.finish_layout();
        self.redact_state();
    }

    pub fn act(&mut self, a: Action) -> &mut Self {
        let fx = state::update(&mut self.s, a);
        self.settle(fx);
        self
    }

    /// Keys through the key table, as typed. `\n` Enter, `\x1b` Esc,
    /// `\t` Tab, `\x7f` Backspace.
    pub fn keys(&mut self, keys: &str) -> &mut Self {
        for c in keys.chars() {
            let ev = keymap::typed(c);
            if let Some(a) = keymap::lookup(self.s.mode, &ev) {
                // The runtime clears a notice on every command key.
                if !matches!(self.s.mode, Mode::Search | Mode::CourseSearch) {
                    self.s.notice = None;
                }
                self.act(a);
            }
        }
        self
    }

    pub fn resize(&mut self, width: u16, height: u16) -> &mut Self {
        self.act(Action::Resize(width, height))
    }

    pub fn title(&self) -> String {
        self.s
            .doc
            .as_ref()
            .map(|d| d.lesson.meta.title.clone())
            .unwrap_or_default()
    }
}

// ---- render and CLI checks ----

use lectern::layout::wrap::width;

/// Whitespace collapsed to single spaces, so wrapped text compares with
/// the text it came from.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A character that must never reach the terminal as content: C0 controls
/// (tab included: the layout must expand or collapse it), DEL, C1
/// controls, and bidi embeddings, overrides and isolates.
pub fn is_forbidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{80}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Checks plain output: no forbidden characters on any line, and every
/// line at most `max` columns wide. Returns the first problem found.
pub fn check_plain(out: &str, max: usize) -> Result<(), String> {
    for (i, line) in out.split('\n').enumerate() {
        if let Some(c) = line.chars().find(|&c| is_forbidden(c)) {
            return Err(format!("line {}: forbidden {c:?} in {line:?}", i + 1));
        }
        let w = width(line);
        if w > max {
            return Err(format!("line {}: {w} columns, over {max}: {line:?}", i + 1));
        }
    }
    Ok(())
}

/// Removes SGR sequences (`ESC [ params m`), failing on any other escape
/// sequence or stray ESC.
pub fn strip_sgr(out: &str) -> Result<String, String> {
    let mut plain = String::with_capacity(out.len());
    let mut rest = out;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        let seq = &rest[at + 1..];
        let Some(params) = seq.strip_prefix('[') else {
            return Err(format!(
                "ESC not followed by '[' at byte {}: {:?}",
                out.len() - rest.len() + at,
                &seq[..seq.len().min(12)]
            ));
        };
        let end = params
            .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
            .ok_or("unterminated CSI sequence")?;
        if !params[end..].starts_with('m') {
            return Err(format!(
                "CSI sequence that is not SGR: ESC[{}",
                &params[..(end + 1).min(params.len())]
            ));
        }
        rest = &params[end + 1..];
    }
    plain.push_str(rest);
    Ok(plain)
}

/// Checks coloured output: the only escape sequences are SGR, and once
/// they are removed the text passes [`check_plain`].
pub fn check_styled(out: &str, max: usize) -> Result<(), String> {
    check_plain(&strip_sgr(out)?, max)
}
