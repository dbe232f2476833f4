//! The linear reader, for screen readers and braille displays (`--linear`,
//! `linear = true`, and what `TERM=dumb` gets interactively): no alternate
//! screen, no cursor moved, no box drawing; text written once, in reading
//! order, a section at a time; one prompt line; every feature a typed
//! command. What gemini-cli's screen-reader mode learned from its users:
//! nothing redrawn, nothing animated, nothing said twice.
//!
//! It is the same reader underneath: the state, its update and the effect
//! runner, driven by the same key tables (a command is the keys it
//! stands for), so an answer counts by the same rules as on the full
//! screen. The "screen" is what was last written: a section, or a check,
//! is on screen once it is printed (the state's window is sized to it),
//! so a check takes an answer only once it has been read out, and a
//! lesson is read once its last section has been.

mod commands;
mod text;

use super::boot::Boot;
use crate::cli::Common;
use crate::config::Settings;
use crate::effects::{Runner, Work};
use crate::index::Index;
use crate::state::{self, Action, Effect, Msg, Prefs, Size, State};
use crate::store::Store;
use crate::theme::{Theme, ThemeKind};
use commands::Command;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::io::{BufRead, Write};
use std::path::PathBuf;

type Res = Result<(), Box<dyn std::error::Error>>;

/// Height of the off-screen drawing of overlays (contents, results…).
const SCREEN_ROWS: u16 = 200;

struct Linear {
    s: State,
    runner: Runner,
    theme: Theme,
    width: u16,
    /// The section of the open lesson written last (0: its top).
    section: usize,
    /// The lesson whose sections `section` counts.
    lesson: usize,
    out: std::io::Stdout,
}

/// The linear reader on `paths` (the course `course` of them).
pub fn run(
    paths: &[PathBuf],
    common: &Common,
    settings: &Settings,
    course: Option<&str>,
    notice: Option<String>,
) -> Res {
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    let mut runner = Runner::new(None, Index::in_memory(), Work::Inline);
    let none = crate::loader::Progress::none();
    let mut boot = Boot::prepare(paths, data_dir, false, course, &mut runner, &none)?;
    runner.days = settings.days();
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<u16>().ok())
        .filter(|w| *w >= 20)
        .unwrap_or(80)
        .min(200);
    let prefs = Prefs {
        mouse: false,
        dark: true,
        // Read aloud: a picture is its words.
        pictures: false,
        drawing: crate::state::pictures::Drawing::Cells,
        stuck_after: settings.stuck_after.value,
    };
    let size = Size { width, height: 40 };
    let (s, fx) = boot.first_state(size, prefs, &mut runner)?;
    let mut me = Linear {
        s,
        runner,
        theme: Theme::for_depth(ThemeKind::Dark, crate::theme::Depth::None),
        width,
        section: 0,
        lesson: usize::MAX,
        out: std::io::stdout(),
    };
    me.apply(fx);
    for msg in boot.after_first_frame(&mut me.runner)? {
        me.receive(msg);
    }
    let slug = me.s.course().slug.clone();
    if let Some(msg) = boot.settle_store(&mut me.runner, &slug) {
        me.receive(msg);
    }
    me.runner.start_sync(settings.sync_dir.value.as_deref());
    for p in &settings.problems {
        me.say(&format!("config: {p}"));
    }
    if let Some(n) = notice {
        me.say(&n);
    }
    me.say("Linear reading. Enter reads on; help lists the commands.");
    me.show_section(me.section_at_top());
    me.repl();
    me.finish();
    Ok(())
}

impl Linear {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
    }

    fn apply(&mut self, fx: Vec<Effect>) {
        for effect in crate::app::apply(&mut self.s, &mut self.runner, fx) {
            match effect {
                Effect::Clipboard(text) => {
                    let lines = text.lines().count();
                    self.say(&format!(
                        "(copied {lines} lines: in linear mode, here they are)"
                    ));
                    self.say(&text);
                }
                Effect::OpenUrl(url) => self.say(&format!("Address: {url}")),
                _ => {}
            }
        }
        // A page first laid out only as far as a screen: the rest now.
        while self.s.reader.partial() {
            let fx = state::receive(&mut self.s, Msg::Drawn);
            self.apply(fx);
        }
        // What the full screen does between frames (writes, the index,
        // colours): here, after every step, since nothing waits on a frame.
        if self.runner.has_held() {
            crate::app::flush(&mut self.s, &mut self.runner);
        }
    }

    fn receive(&mut self, msg: Msg) {
        let fx = state::receive(&mut self.s, msg);
        self.apply(fx);
    }

    fn update(&mut self, a: Action) {
        let fx = state::update(&mut self.s, a);
        self.apply(fx);
    }

    /// The key `code` as the screen now takes it, through its key table.
    fn key(&mut self, code: KeyCode) {
        let mods = match code {
            KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
            _ => KeyModifiers::NONE,
        };
        let ev = KeyEvent::new(code, mods);
        if let Some(a) = crate::keymap::lookup(self.s.screen(), &ev) {
            self.update(a);
        }
    }

    fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    /// The state's window set to doc lines `from..to`: what was just
    /// written is what is "on screen".
    fn window(&mut self, from: usize, to: usize) {
        let rows = u16::try_from(to.saturating_sub(from).max(1)).unwrap_or(u16::MAX - 2);
        self.update(Action::Resize(self.width, rows.saturating_add(2)));
        // One move, straight there: a check given the focus keeps it only
        // while it stays on screen, as on the full screen.
        let by =
            i64::try_from(from).unwrap_or(i64::MAX) - i64::try_from(self.s.reader.top).unwrap_or(0);
        if by != 0 {
            self.update(Action::Scroll(i32::try_from(by).unwrap_or(i32::MAX)));
        }
    }

    /// Where each section of the open lesson starts (doc lines): the top,
    /// then each heading.
    fn sections(&self) -> Vec<usize> {
        let Some(doc) = self.s.reader.doc() else {
            return vec![0];
        };
        let mut starts = vec![0];
        starts.extend(doc.heading_lines().into_iter().filter(|&l| l > 0));
        starts.dedup();
        starts
    }

    fn section_at_top(&self) -> usize {
        let top = self.s.reader.top;
        self.sections().iter().rposition(|&l| l <= top).unwrap_or(0)
    }

    /// Writes section `k` of the open lesson (its header first, when the
    /// lesson is new here).
    fn show_section(&mut self, k: usize) {
        if self.lesson != self.s.reader.lesson {
            self.lesson = self.s.reader.lesson;
            let head = self.header();
            self.say(&head);
        }
        let Some(total) = self.s.reader.doc().map(|d| d.total()) else {
            let why = self.s.reader.page.broken().map_or_else(
                || "The lesson is not ready.".to_string(),
                |d| format!("This lesson cannot be shown: {d}"),
            );
            self.say(&why);
            return;
        };
        let starts = self.sections();
        let k = k.min(starts.len() - 1);
        let (from, to) = (starts[k], starts.get(k + 1).copied().unwrap_or(total));
        self.section = k;
        self.window(from, to);
        for line in text::lesson_lines(&self.s, from, to) {
            self.say(&line);
        }
        let last = k + 1 == starts.len();
        self.say(&if last {
            "(end of the lesson: next lesson goes on, check for its questions)".to_string()
        } else {
            format!("(section {} of {})", k + 1, starts.len())
        });
    }

    fn header(&self) -> String {
        let c = self.s.course();
        let n = c.lessons.len();
        let i = self.s.reader.lesson;
        let title = c.lessons.get(i).map_or("", |e| e.title.as_str());
        format!("{} · Lesson {} of {n}: {title}", c.title, i + 1)
    }

    /// Writes the check that has the focus, as it now stands.
    fn show_check(&mut self) {
        let k = self.s.reader.current;
        let Some((from, len)) = self
            .s
            .reader
            .doc()
            .and_then(|d| Some((d.check_start(k)?, d.check_layout(k)?.lines.len())))
        else {
            self.say("This lesson has no check question.");
            return;
        };
        self.window(from, from + len);
        for line in text::lesson_lines(&self.s, from, from + len) {
            self.say(&line);
        }
    }

    /// Writes what an overlay or another screen shows.
    fn show_screen(&mut self) {
        for line in text::screen_lines(&self.s, &self.theme, self.width, SCREEN_ROWS) {
            self.say(&line);
        }
        if let Some(n) = self.s.notice.take() {
            self.say(&n);
        }
    }

    fn repl(&mut self) {
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        while !self.s.quit {
            let _ = write!(self.out, "lectern> ");
            let _ = self.out.flush();
            let Some(Ok(line)) = lines.next() else { break };
            let line = crate::model::sanitize::clean_owned(&line);
            match Command::parse(&line) {
                Ok(c) => self.run(c),
                Err(why) => self.say(&why),
            }
        }
    }

    fn finish(mut self) {
        self.update(Action::Quit);
        crate::app::flush(&mut self.s, &mut self.runner);
        if let Some(store) = self.runner.store.as_mut() {
            for line in [store.take_warning(), store.close()].into_iter().flatten() {
                crate::out::stderr(&format!("lectern: {line}"));
            }
        }
    }
}
