//! The interactive reader's runtime: sets up the terminal, feeds events
//! through the key tables into `state::update`, hands the effects to the
//! effect runner, and draws.

mod boot;
mod cells;
mod editor;
mod events;
pub mod graphics;
mod guard;
mod host;
mod input;
mod linear;
mod outside;
mod startup;
mod terminal;
pub(crate) mod tty;

use crate::app::{Events, Host, Incoming, Session};
use crate::cli::Common;
use crate::config::Settings;
use crate::effects::{Runner, Work};
use crate::index::Index;
use crate::state::{self, Action, Msg, Prefs, Size, State};
use crate::store::Store;
use boot::Boot;
use guard::Guard;
use std::path::PathBuf;

type Res = Result<(), Box<dyn std::error::Error>>;

/// A lone lesson file under this size is read before signals are acted
/// on (the thread that acts on them starts after the first frame, see
/// [`events::Watch`]); a larger one starts it first. The largest lesson a
/// person writes is well under it (the benchmarks' are 10-30 KB); a
/// crafted one of 800 KB took 1.4 s of a debug build to reach its first
/// frame, a SIGTERM waiting all that time at 1 MiB.
const QUICK_FILE: u64 = 256 << 10;

pub use crate::effects::BUILTIN;

/// The graphics protocol this terminal draws pictures with, asked of it
/// at once (for `lectern render --images`: keys typed meanwhile are not
/// the reader's), `None` when it has none.
pub fn graphics_now(images: crate::config::ImagesSetting) -> Option<crate::model::Graphics> {
    let ask = input::query::Ask {
        background: false,
        images: Some(images),
        env: input::query::Env::read(),
    };
    match input::ask_now(ask).drawing {
        Some(state::pictures::Drawing::Graphics(g)) => Some(g),
        _ => None,
    }
}

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
        (None, course.as_deref()),
        fell_back,
    )
}

/// A review of the cards due in the courses at `paths` (which may hold
/// [`BUILTIN`]).
pub fn review(paths: &[PathBuf], common: &Common, settings: &Settings) -> Res {
    let first = Some(crate::state::Action::Review);
    run(paths, common, settings, (first, None), None)
}

/// A drill of the checks of the courses at `paths` that `kind` takes
/// (`lesson`: just the lesson file named).
pub fn drill(
    paths: &[PathBuf],
    common: &Common,
    settings: &Settings,
    kind: crate::model::DrillKind,
    lesson: bool,
) -> Res {
    use crate::state::DrillScope;
    let scope = if lesson {
        DrillScope::Lesson
    } else {
        DrillScope::Library
    };
    let first = Some(crate::state::Action::Drill(kind, scope));
    run(paths, common, settings, (first, None), None)
}

/// `start`: whether to start with a review, and the course of `paths` to
/// open; `notice`: a word for the footer of the first screen.
fn run(
    paths: &[PathBuf],
    common: &Common,
    settings: &Settings,
    start: (Option<crate::state::Action>, Option<&str>),
    notice: Option<String>,
) -> Res {
    let (first_action, course) = start;
    let start_review = first_action.is_some();
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    // Signals first: one that comes while a large folder is read still
    // ends the process in order.
    let guard = std::sync::Arc::new(Guard::default());
    let (tx, rx, mut watch) = events::channel(&guard);
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
    let mut runner = Runner::new(None, Index::in_memory(), Work::Threads(events::sink(&tx)));
    let boot = Boot::prepare(
        paths,
        data_dir.clone(),
        start_review,
        course,
        &mut runner,
        &counting,
    );
    let mut boot = boot?;
    boot.first_action = first_action;
    drop(counting);
    let (mut theme, background) = input::query::first_guess(settings);
    theme.hyperlinks = true;
    let mouse = settings.mouse.value;
    let mut term = terminal::Term::enter(mouse, guard.clone())?;
    let area = term.area();
    let place = rescue_on_forced_exit(&runner, data_dir.clone(), &guard);
    runner.days = settings.days();
    let (ask, drawing) = what_to_ask(settings, background, term.cell_pixels());
    let prefs = Prefs {
        mouse,
        dark: theme.kind.is_dark(),
        pictures: settings.pictures(),
        drawing,
        stuck_after: settings.stuck_after.value,
    };
    let size = Size {
        width: area.width,
        height: area.height,
    };
    let (s, fx) = boot.first_state(size, prefs, &mut runner)?;
    term.caught = caught;
    let mut r = Session::new(s, runner, term, theme);
    r.apply(fx);
    // The config file's problems, where the learner looks (also on stderr).
    let said = settings.problems.first().map(|p| format!("config: {p}"));
    for n in said.into_iter().chain(notice) {
        r.receive(Msg::Notice(n));
    }
    for action in boot.first_actions(&r.s) {
        r.handle(Incoming::Act(action));
    }
    let mut drawn = after_first_frame(&mut r, &mut boot)?;
    // Other machines' changes, merged in the background from here on.
    r.runner.start_sync(settings.sync_dir.value.as_deref());
    // From here on a lesson is read off this loop: keys and signals go on.
    r.runner.loads_inline = false;
    // The question goes with the reader of the terminal, which takes its
    // answer out of the keys; the first frame was drawn with the guess.
    input::start(&tx, &guard, ask);
    events::listen(&tx, &guard);
    watch.start();
    // A resize before the key reader started was not reported.
    if r.resized(None) {
        drawn = false;
    }
    boot.revalidate(&mut r.runner);
    let (rx, guard) = (&rx, &guard);
    r.run(&mut Channel { rx, place, guard }, drawn)?;
    finish(r, guard)
}

/// The reader was asked to quit by a signal, and did, in order: the
/// process ends with the status a shell expects of a process it ends.
#[derive(Debug)]
pub struct EndedBy(pub u8);

impl std::fmt::Display for EndedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ended by signal {}", i32::from(self.0) - 128)
    }
}

impl std::error::Error for EndedBy {}

/// What a forced end of the process (its loop stuck) keeps aside: the
/// writes still held, and the reading place as of the last event handled,
/// kept in the slot returned, since only the orderly quit saves it.
fn rescue_on_forced_exit(
    runner: &Runner,
    dir: Option<PathBuf>,
    guard: &Guard,
) -> std::sync::Arc<std::sync::Mutex<Option<crate::model::Change>>> {
    let unwritten = runner.unwritten();
    let place = std::sync::Arc::new(std::sync::Mutex::new(None));
    let last_place = place.clone();
    guard.on_forced_exit(move || {
        let place = last_place.lock().ok().and_then(|mut p| p.take());
        unwritten.rescue(dir.as_deref(), place)
    });
    place
}

/// The terminal's events, signals and background replies, from one
/// channel; after each, the reading place where a forced end finds it.
struct Channel<'a> {
    rx: &'a std::sync::mpsc::Receiver<Incoming>,
    /// Where the reading place goes for a forced end (see `run`).
    place: std::sync::Arc<std::sync::Mutex<Option<crate::model::Change>>>,
    /// Told whether the loop is busy, for a quitting key it cannot hear.
    guard: &'a Guard,
}

impl Events for Channel<'_> {
    fn next(&mut self, s: &State) -> Option<Incoming> {
        self.guard.busy(false, q_quits(s));
        let incoming = self.rx.recv().ok()?;
        self.guard.busy(true, q_quits(s));
        Some(incoming)
    }

    fn handled(&mut self, s: &State) {
        if let Ok(mut place) = self.place.lock() {
            *place = state::place_to_save(s);
        }
    }
}

/// Whether `q` quits from the screen as it is (the page's Close).
fn q_quits(s: &State) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
    s.screen() == state::Screen::Reading
        && crate::keymap::lookup(s.screen(), &q) == Some(Action::Close)
}

/// The last writes, the terminal given back, then what the learner should
/// read: a store fault, and what could not be written (kept in the
/// journal); the signal that asked for the end, if one did.
fn finish(mut r: Session<terminal::Term>, guard: &Guard) -> Res {
    guard.leave();
    r.finish();
    let Session {
        mut runner, host, ..
    } = r;
    drop(host);
    if let Some(store) = runner.store.as_mut() {
        for line in [store.take_warning(), store.close()].into_iter().flatten() {
            crate::out::stderr(&format!("lectern: {line}"));
        }
    }
    match guard.signal_status() {
        Some(status) => Err(Box::new(EndedBy(status))),
        None => Ok(()),
    }
}

/// The first frame, then the work that follows it, before any key is
/// read; whether the screen is drawn as it now stands.
fn after_first_frame(
    r: &mut Session<terminal::Term>,
    boot: &mut Boot,
) -> Result<bool, Box<dyn std::error::Error>> {
    r.frame()?;
    r.host.frame_drawn();
    for msg in boot.after_first_frame(&mut r.runner)? {
        r.receive(msg);
    }
    // One frame for all of it, with the store's progress.
    let slug = r.s.course().slug.clone();
    match boot.settle_store(&mut r.runner, &slug) {
        Some(msg) => {
            r.receive(msg);
            r.draw()?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// What to ask the terminal after the first frame, if anything, and how
/// pictures are drawn until it answers. Not from the background (`lectern
/// &`): the answer would land in the shell's input.
fn what_to_ask(
    settings: &Settings,
    background: bool,
    window_cell: Option<(u16, u16)>,
) -> (Option<input::query::Ask>, state::pictures::Drawing) {
    use crate::config::ImagesSetting;
    let images = match settings.images.value {
        ImagesSetting::Off | ImagesSetting::Halfblocks => None,
        _ if !settings.pictures() => None,
        set => Some(set),
    };
    let ask = input::query::Ask {
        background,
        images,
        env: input::query::Env::read(),
    };
    if ask.any() && terminal::foreground() {
        let meanwhile = ask.drawing_meanwhile();
        return (Some(ask), meanwhile);
    }
    let none = input::query::Answers::default();
    let said = input::query::decide(&ask, &none, false, window_cell);
    (None, said.drawing.unwrap_or_default())
}
