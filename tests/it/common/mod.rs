//! Shared by the integration tests: the lessons they read and course
//! folders built around them (in `fixtures`), the reader driven through
//! the runtime's own loop, and checkers for what may reach a terminal.
#![allow(dead_code)]

use lectern::app::{Incoming, Script, Session, TestHost};
use lectern::effects::{Reply, Runner};
use lectern::keymap;
use lectern::loader;
use lectern::state::{self, Action, Effect, Msg, State};
use lectern::store::LessonProgress;
use lectern::theme::{Theme, ThemeKind};
use ratatui::crossterm::event::Event;
use std::collections::HashMap;
use std::path::Path;

pub mod fixtures;
pub mod lesson;
pub mod pty;
// Not every test binary reads a lesson.
#[allow(unused_imports)]
pub use fixtures::*;
pub use lesson::{CheckJson, LessonJson};

/// The reader driven through the runtime's own loop ([`Session::run`]):
/// keys and messages as scripted events, effects through the real effect
/// runner (its store and index in memory, its background work done
/// inline), each frame drawn on a `TestBackend` and the held work done
/// after it, as in the terminal.
pub struct Reader {
    pub session: Session<TestHost>,
    /// Text to hide from screens (temporary paths).
    pub redact: Vec<(String, String)>,
}

impl std::ops::Deref for Reader {
    type Target = Session<TestHost>;
    fn deref(&self) -> &Session<TestHost> {
        &self.session
    }
}

impl std::ops::DerefMut for Reader {
    fn deref_mut(&mut self) -> &mut Session<TestHost> {
        &mut self.session
    }
}

impl Reader {
    pub fn new(courses: Vec<lectern::model::Course>, width: u16, height: u16) -> Reader {
        let mut s = State::new(courses, width, height);
        s.prefs.dark = true;
        let theme = Theme::new(ThemeKind::Dark);
        let mut session = Session::new(s, Runner::inline(), TestHost::new(width, height), theme);
        session.seen = Some(Vec::new());
        Reader {
            session,
            redact: Vec::new(),
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

    /// Every effect the state asked for, in order.
    pub fn effects(&self) -> &[Effect] {
        self.session.seen.as_deref().unwrap_or_default()
    }

    /// Progress the store holds for the open course, as the runtime hands
    /// it over when the course opens.
    pub fn with_progress(&mut self, progress: HashMap<String, LessonProgress>) -> &mut Self {
        self.receive(Msg::ProgressRead(progress))
    }

    /// Opens lesson `index` as the runtime does at start-up.
    pub fn open(&mut self, index: usize) -> &mut Self {
        let mut fx = Vec::new();
        state::open_lesson(&mut self.session.s, index, &mut fx);
        self.settle(fx)
    }

    /// The open lesson's diagnostic, as the page shows it, paths redacted.
    pub fn broken(&self) -> Option<String> {
        Some(self.s.reader.page.broken()?.to_string())
    }

    /// Carries out effects as the runtime would, then runs the loop: the
    /// frame drawn (the rest of the page laid out), the held work done.
    pub fn settle(&mut self, fx: Vec<Effect>) -> &mut Self {
        self.session.apply(fx);
        self.run(Vec::new())
    }

    /// The loop over `events`, until they are all handled.
    pub fn run(&mut self, events: Vec<Incoming>) -> &mut Self {
        let mut script = Script(events.into());
        self.session
            .run(&mut script, false)
            .expect("a TestBackend draws");
        if self.s.quit {
            self.session.finish();
        }
        self.redact_state();
        self
    }

    /// Temporary paths out of what the page shows of a broken lesson.
    fn redact_state(&mut self) {
        if let lectern::state::Page::Broken(d) = &mut self.session.s.reader.page {
            for (from, to) in &self.redact {
                d.file = d.file.replace(from.as_str(), to);
                d.message = d.message.replace(from.as_str(), to);
            }
        }
    }

    pub fn act(&mut self, a: Action) -> &mut Self {
        self.run(vec![Incoming::Act(a)])
    }

    pub fn receive(&mut self, m: Msg) -> &mut Self {
        self.run(vec![Incoming::Reply(Reply::Msg(m))])
    }

    /// Keys as typed, each an event of the loop. `\n` Enter, `\x1b` Esc,
    /// `\t` Tab, `\x7f` Backspace.
    pub fn keys(&mut self, keys: &str) -> &mut Self {
        let events = keys
            .chars()
            .map(|c| Incoming::Term(Event::Key(keymap::typed(c))));
        self.run(events.collect())
    }

    /// The open lesson again with `checks` in place of its own, as a
    /// format with several checks per lesson (an mdBook's quizzes) would
    /// load it; the store's progress for it handed over with it.
    pub fn with_checks(&mut self, checks: Vec<lectern::model::Check>) -> &mut Self {
        let doc = self.s.reader.doc().expect("a lesson is open");
        let mut lesson = (*doc.lesson).clone();
        lesson.checks = checks;
        let index = self.s.reader.lesson;
        let course = self.s.course().slug.clone();
        let progress = self
            .runner
            .store
            .as_ref()
            .map(|st| st.progress(&course, &self.s.course().lessons[index].slug))
            .unwrap_or_default();
        let slug = lesson.meta.slug.clone();
        self.s.library.progress.insert(slug, progress);
        let opened = lectern::state::Opened {
            index,
            origin: self.s.course().lessons[index].origin.clone(),
            lesson: Ok(lesson),
            read: None,
        };
        self.receive(Msg::Loaded(Box::new(opened)))
    }

    pub fn resize(&mut self, width: u16, height: u16) -> &mut Self {
        self.act(Action::Resize(width, height))
    }

    pub fn title(&self) -> String {
        self.s
            .reader
            .doc()
            .map(|d| d.lesson.meta.title.clone())
            .unwrap_or_default()
    }
}

// ---- render and CLI checks ----

/// `lectern ARGS PATH` run to its end, with a data and cache folder of
/// its own and colour not turned off by the environment.
pub fn lectern(args: &[&str], path: &Path) -> std::process::Output {
    let data = tempfile::tempdir().unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(args)
        .arg(path)
        .env_remove("NO_COLOR")
        .env("LECTERN_DATA_DIR", data.path())
        .env("LECTERN_CACHE_DIR", data.path().join("cache"))
        .output()
        .expect("lectern runs")
}

/// `lectern ARGS` on the data folder `data`, which must succeed: its
/// standard output.
pub fn run_in(data: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(args)
        .env("LECTERN_DATA_DIR", data)
        .output()
        .expect("lectern runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("lectern writes UTF-8")
}

/// [`run_in`]'s output read as JSON (`Null` when it is not).
pub fn json_of(args: &[&str], data: &Path) -> serde_json::Value {
    serde_json::from_str(&run_in(data, args)).unwrap_or(serde_json::Value::Null)
}

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

/// Removes SGR sequences (`ESC [ params m`) and OSC 8 hyperlinks to a
/// printable target, failing on any other escape
/// sequence or stray ESC.
pub fn strip_sgr(out: &str) -> Result<String, String> {
    let mut plain = String::with_capacity(out.len());
    let mut rest = out;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        let seq = &rest[at + 1..];
        // An OSC 8 hyperlink (or its end): a printable ASCII target only.
        if let Some(link) = seq.strip_prefix("]8;;") {
            let end = link
                .find("\u{1b}\\")
                .ok_or("unterminated OSC 8 hyperlink")?;
            if !link[..end].bytes().all(|b| b.is_ascii_graphic()) {
                return Err(format!(
                    "OSC 8 target with unsafe bytes: {:?}",
                    &link[..end]
                ));
            }
            rest = &link[end + 2..];
            continue;
        }
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
