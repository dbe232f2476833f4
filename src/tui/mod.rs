//! The interactive reader's runtime: sets up the terminal, feeds events
//! through the key tables into `state::update`, hands the effects to the
//! effect runner, and draws.

mod background;
mod boot;
mod events;
mod input;
mod late_reply;
mod linear;
mod outside;
mod startup;
mod terminal;

use crate::cli::Common;
use crate::config::Settings;
use crate::effects::{Runner, Work};
use crate::index::Index;
use crate::state::{self, Action, Effect, Msg, Prefs, Size, State};
use crate::store::Store;
use crate::theme::Theme;
use boot::Boot;
use events::Incoming;
use ratatui::crossterm::event::Event;
use std::path::PathBuf;

type Res = Result<(), Box<dyn std::error::Error>>;

/// A lone lesson file under this size is read before signals are acted
/// on (the thread that acts on them starts after the first frame, see
/// [`events::Watch`]); a larger one starts it first. The largest lesson a
/// person writes is well under it (the benchmarks' are 10-30 KB); a
/// crafted one of 800 KB took 1.4 s of a debug build to reach its first
/// frame, a SIGTERM waiting all that time at 1 MiB.
const QUICK_FILE: u64 = 256 << 10;

pub use events::signal_status;
pub use startup::BUILTIN;

/// The reader. With no paths, it opens the course read last (any course
/// of the library), where the learner left it; else the built-in course.
pub fn read(paths: &[PathBuf], common: &Common, settings: &Settings, linear: bool) -> Res {
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    let last = paths
        .is_empty()
        .then(|| Store::last_course(data_dir.as_deref()?))
        .flatten();
    // Said, not silent: the learner expected their course.
    let fell_back = last.as_ref().filter(|c| c.is_gone()).map(|c| {
        let root = c.root.as_deref().map(crate::loader::walk::shown).unwrap_or_default();
        format!(
            "The course read last, {}, is no longer at {root}: here is the guide (C lists your other courses).",
            c.title
        )
    });
    let (paths, course) = match last.filter(|c| !c.is_gone()) {
        Some(c) => (c.root.into_iter().collect::<Vec<PathBuf>>(), Some(c.slug)),
        None => (paths.to_vec(), None),
    };
    if linear {
        return linear::run(&paths, common, settings, course.as_deref(), fell_back);
    }
    run(
        &paths,
        common,
        settings,
        (false, course.as_deref()),
        fell_back,
    )
}

/// A review of the cards due in the courses at `paths` (which may hold
/// [`BUILTIN`]).
pub fn review(paths: &[PathBuf], common: &Common, settings: &Settings) -> Res {
    run(paths, common, settings, (true, None), None)
}

/// `start`: whether to start with a review, and the course of `paths` to
/// open; `notice`: a word for the footer of the first screen.
fn run(
    paths: &[PathBuf],
    common: &Common,
    settings: &Settings,
    start: (bool, Option<&str>),
    notice: Option<String>,
) -> Res {
    let (start_review, course) = start;
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    // Signals first: one that comes while a large folder is read still
    // ends the process in order.
    let (tx, rx, mut watch) = events::channel();
    // A lesson named alone is parsed before the first frame; a large one
    // can take a while, and signals must end it meanwhile.
    let alone =
        matches!(paths, [p] if p.metadata().is_ok_and(|m| m.is_file() && m.len() < QUICK_FILE));
    // Asked before the watch starts, which takes what it was given: asked
    // after, a folder's reader took Ctrl-Z for uncaught and took the
    // terminal again at once, racing the signal thread's stop.
    let caught = watch.caught();
    if !alone {
        watch.start();
    }
    // A folder read for the first time can take seconds: its count shows
    // on the shell's screen until the reader takes it.
    let counting = crate::loader::progress::on_stderr("reading the course");
    let mut boot = Boot::prepare(paths, data_dir.clone(), start_review, course, &counting)?;
    drop(counting);
    let (mut theme, ask) = background::first_guess(settings);
    theme.hyperlinks = true;
    let mouse = settings.mouse.value;
    let term = terminal::Term::enter(mouse)?;
    let area = term.area();
    let mut runner = Runner::new(None, Index::in_memory(), Work::Threads(events::sink(&tx)));
    let place = rescue_on_forced_exit(&runner, data_dir.clone());
    boot.equip(&mut runner);
    runner.days = settings.days();
    let prefs = Prefs {
        mouse,
        dark: theme.kind.is_dark(),
    };
    let size = Size {
        width: area.width,
        height: area.height,
    };
    let (s, fx) = boot.first_state(size, prefs, &mut runner)?;
    let mut r = Reader {
        s,
        runner,
        term,
        theme,
        caught,
        typed_ahead: Default::default(),
        place,
    };
    r.apply(fx);
    // The config file's problems, where the learner looks (also on stderr).
    if let Some(p) = settings.problems.first() {
        r.receive(Msg::Notice(format!("config: {p}")));
    }
    if let Some(n) = notice {
        r.receive(Msg::Notice(n));
    }
    for action in boot.first_actions(&r.s) {
        r.update(action);
    }
    r.term
        .terminal
        .draw(|f| crate::ui::draw(f, &r.s, &r.theme))?;
    terminal::let_frame_show();
    let mut drawn = r.after_first_frame(&mut boot)?;
    // From here on a lesson is read off this loop: keys and signals go on.
    r.runner.loads_inline = false;
    // Asked before the key reader starts, which would take the answer for
    // keys; the first frame was drawn with the guess.
    // Not from the background (`lectern &`): the answer would land in the
    // shell's input.
    if ask && terminal::foreground() && r.ask_background(&tx) {
        drawn = false;
    }
    events::listen(&tx);
    watch.start();
    // A resize before the key reader started was not reported.
    if let Some(action) = resized(&mut r.term, None) {
        r.update(action);
        drawn = false;
    }
    let stale = std::mem::take(&mut boot.stale);
    r.event_loop(&rx, &tx, stale, drawn)?;
    r.finish();
    Ok(())
}

/// What a forced end of the process (its loop stuck) keeps aside: the
/// writes still held, and the reading place as of the last event handled,
/// kept in the slot returned, since only the orderly quit saves it.
fn rescue_on_forced_exit(
    runner: &Runner,
    dir: Option<PathBuf>,
) -> std::sync::Arc<std::sync::Mutex<Option<crate::model::Change>>> {
    let unwritten = runner.unwritten();
    let place = std::sync::Arc::new(std::sync::Mutex::new(None));
    let last_place = place.clone();
    events::on_forced_exit(move || {
        let place = last_place.lock().ok().and_then(|mut p| p.take());
        unwritten.rescue(dir.as_deref(), place)
    });
    place
}

/// The running reader: its state, the effect runner and the terminal.
struct Reader {
    s: State,
    runner: Runner,
    term: terminal::Term,
    theme: Theme,
    /// Signals are caught on their own thread (Ctrl-Z goes through it).
    caught: bool,
    /// Keys typed while a lesson is read off the loop, for the page it
    /// brings: `]]` then `}` moves on the third lesson, not the first.
    typed_ahead: std::collections::VecDeque<Event>,
    /// Where the reading place goes for a forced end (see `run`).
    place: std::sync::Arc<std::sync::Mutex<Option<crate::model::Change>>>,
}

impl Reader {
    /// Draws, does the held-back work, and waits for the next event, until
    /// the state says quit.
    fn event_loop(
        &mut self,
        rx: &std::sync::mpsc::Receiver<Incoming>,
        tx: &std::sync::mpsc::Sender<Incoming>,
        mut stale: Vec<PathBuf>,
        mut drawn: bool,
    ) -> std::io::Result<()> {
        while !self.s.quit {
            if !std::mem::take(&mut drawn) {
                self.draw()?;
            }
            if !stale.is_empty() {
                let sink = events::sink(tx);
                startup::revalidate(std::mem::take(&mut stale), sink);
            }
            // What the held-back work found (the cards due, a store fault)
            // is news worth a redraw.
            if self.runner.has_held() && crate::app::flush(&mut self.s, &mut self.runner) {
                self.draw()?;
            }
            events::busy(false, self.q_quits());
            let Ok(incoming) = rx.recv() else { break };
            events::busy(true, self.q_quits());
            self.handle(incoming);
            if let Ok(mut place) = self.place.lock() {
                *place = state::place_to_save(&self.s);
            }
        }
        Ok(())
    }

    /// The last writes, the terminal given back, then what the learner
    /// should read: a store fault, and what could not be written (kept in
    /// the journal).
    fn finish(self) {
        events::leaving();
        let Reader {
            mut s,
            mut runner,
            term,
            ..
        } = self;
        crate::app::flush(&mut s, &mut runner);
        drop(term);
        if let Some(store) = runner.store.as_mut() {
            for line in [store.take_warning(), store.close()].into_iter().flatten() {
                crate::out::stderr(&format!("lectern: {line}"));
            }
        }
    }

    fn update(&mut self, action: Action) {
        let fx = state::update(&mut self.s, action);
        self.apply(fx);
    }

    fn receive(&mut self, msg: Msg) {
        let fx = state::receive(&mut self.s, msg);
        self.apply(fx);
    }

    /// Effects to the runner; the terminal's own are carried out here.
    fn apply(&mut self, fx: Vec<Effect>) {
        for effect in crate::app::apply(&mut self.s, &mut self.runner, fx) {
            match effect {
                Effect::SetMouse(on) => self.term.set_mouse(on),
                Effect::Suspend => {
                    let _ = self.term.suspend(self.caught);
                }
                Effect::Clipboard(text) => outside::clipboard(&text),
                Effect::OpenUrl(url) => {
                    if let Err(why) = outside::open_url(&url) {
                        let say = format!(
                            "Cannot open a browser here ({why}): L, then y on the link, copies {url}"
                        );
                        self.receive(Msg::Notice(say));
                    }
                }
                _ => {}
            }
        }
    }

    /// The work that follows the first frame, before any key is read;
    /// whether the screen is drawn as it now stands.
    fn after_first_frame(&mut self, boot: &mut Boot) -> Result<bool, Box<dyn std::error::Error>> {
        for msg in boot.after_first_frame(&mut self.runner)? {
            self.receive(msg);
        }
        // One frame for all of it, with the store's progress.
        let slug = self.s.course().slug.clone();
        match boot.settle_store(&mut self.runner, &slug) {
            Some(msg) => {
                self.receive(msg);
                self.draw()?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The terminal's background, and the palette for it if the guess was
    /// wrong (whether the screen changed). Keys typed while the answer was
    /// awaited go first into the queue.
    fn ask_background(&mut self, tx: &std::sync::mpsc::Sender<Incoming>) -> bool {
        let (kind, typed) = background::ask();
        for ev in typed {
            let _ = tx.send(Incoming::Term(ev));
        }
        match kind.filter(|k| *k != self.theme.kind) {
            Some(kind) => {
                self.theme.kind = kind;
                self.receive(Msg::Background(kind.is_dark()));
                true
            }
            None => false,
        }
    }

    fn handle(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Stop => self.update(Action::Quit),
            Incoming::Resumed => {
                let _ = self.term.resume();
                if let Some(a) = resized(&mut self.term, None) {
                    self.update(a);
                }
            }
            Incoming::Reply(reply) => {
                if let Some(msg) = self.runner.take(&self.s, reply) {
                    self.receive(msg);
                }
                // Keys typed ahead move on the whole page: one laid out only
                // to its first screen has no later heading for `}` to find
                // (it stopped two lines short of one, on a loaded machine).
                if !self.typed_ahead.is_empty()
                    && !self.runner.is_loading()
                    && self.s.reader.partial()
                {
                    self.receive(Msg::Drawn);
                }
                while !self.runner.is_loading() {
                    let Some(ev) = self.typed_ahead.pop_front() else {
                        break;
                    };
                    self.key(ev);
                }
            }
            Incoming::Term(Event::Resize(w, h)) => {
                if let Some(a) = resized(&mut self.term, Some((w, h))) {
                    self.update(a);
                }
            }
            Incoming::Term(ev) if self.runner.is_loading() || !self.typed_ahead.is_empty() => {
                // Quitting, and leaving what is on screen, never wait for
                // the lesson (`q` is Close: it quits from the page).
                match input::action(&self.s, ev.clone()) {
                    Some(a @ (Action::Quit | Action::Close | Action::Back)) => self.update(a),
                    _ => self.typed_ahead.push_back(ev),
                }
            }
            Incoming::Term(ev) => self.key(ev),
        }
    }

    /// Whether `q` quits from the screen as it is (the page's Close).
    fn q_quits(&self) -> bool {
        use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        self.s.screen() == state::Screen::Reading
            && crate::keymap::lookup(self.s.screen(), &q) == Some(Action::Close)
    }

    fn key(&mut self, ev: Event) {
        if let Some(a) = input::action(&self.s, ev) {
            self.update(a);
        }
    }

    /// Draws the state. A lesson just opened is drawn from its first
    /// screen alone; the rest of it is then laid out and drawn, before the
    /// next key.
    fn draw(&mut self) -> std::io::Result<()> {
        let (s, theme) = (&self.s, &self.theme);
        self.term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
        if self.s.reader.partial() {
            terminal::let_frame_show();
            self.receive(Msg::Drawn);
            let (s, theme) = (&self.s, &self.theme);
            self.term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
        }
        Ok(())
    }
}

/// The screen takes its new size (`None`: asked of the terminal); the
/// state follows if it changed.
fn resized(term: &mut terminal::Term, size: Option<(u16, u16)>) -> Option<Action> {
    match term.resize(size) {
        Ok(true) => {
            let area = term.area();
            Some(Action::Resize(area.width, area.height))
        }
        _ => None,
    }
}
