//! The interactive reader's runtime: sets up the terminal, feeds events
//! through the keymap into `state::update`, carries out the effects
//! (loading, saving, highlighting) and draws.

mod background;
mod events;
mod startup;
mod terminal;

use crate::cli::Common;
use crate::index::Index;
use crate::loader::{self, Library};
use crate::state::{self, Action, Effect, Opened, State, keymap};
use crate::store::Store;
use crate::theme::{Theme, ThemeKind};
use events::Msg;
use ratatui::crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};
use startup::{StoreOpening, library, outline, quick_start, revalidate};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;

type Res = Result<(), Box<dyn std::error::Error>>;

pub fn read(paths: &[PathBuf], common: &Common) -> Res {
    run(paths, common, false)
}

pub fn review(path: Option<&Path>, common: &Common) -> Res {
    let paths: Vec<PathBuf> = path.map(Path::to_path_buf).into_iter().collect();
    run(&paths, common, true)
}

struct Runtime {
    /// `None` only until [`Runtime::settle`], which comes before any key is
    /// read: the effects that need the store before then are deferred.
    store: Option<Store>,
    index: Index,
    tx: Sender<Msg>,
    deferred: Vec<Effect>,
    /// The named lesson, parsed before the terminal was set up.
    preloaded: Option<(loader::Origin, LoadResult)>,
}

type LoadResult = Result<crate::model::Lesson, crate::model::Diagnostic>;

/// Work that waits until the frame is on screen: writes (each syncs to
/// disk) and starting the highlighter (which would compete with the first
/// frame for the CPU).
fn is_deferred(e: &Effect) -> bool {
    matches!(
        e,
        Effect::SavePosition { .. }
            | Effect::MarkRead { .. }
            | Effect::SetLastLesson { .. }
            | Effect::RecordAttempt { .. }
            | Effect::Highlight
    )
}

/// Work that reads the store: it waits too while the store is still being
/// opened (until just after the first frame), rather than being lost.
fn needs_store(e: &Effect) -> bool {
    matches!(
        e,
        Effect::LoadDue | Effect::SwitchCourse(_) | Effect::LoadStats
    )
}

fn run(paths: &[PathBuf], common: &Common, start_review: bool) -> Res {
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    // A named lesson is drawn before the store is read: it is the lesson
    // to show either way, and its saved place and answer follow in the
    // next frame, before any key is read; the store then opens after that
    // frame, not competing with it. Otherwise which lesson to show is the
    // store's answer, and it opens now, alongside the reading of the
    // course and the terminal's set-up.
    let first_file = paths.iter().find(|p| p.is_file());
    let named = !start_review && first_file.is_some();
    // The named lesson is parsed first, on this thread: a second thread to
    // parse it alongside the set-up cost more to start than it saved
    // (first frame 2.4 ms with one, 2.2 ms without, on two cores).
    let preloaded = first_file.filter(|_| named).map(|p| {
        let origin = loader::Origin::File(p.clone());
        let lesson = loader::load_lesson(&origin);
        (origin, lesson)
    });
    let mut opening = (!named).then(|| StoreOpening::start(data_dir.clone(), true));
    // A lesson named alone is its own course for the first frame; the
    // folder it is in is read after that frame.
    let alone = match (&preloaded, paths) {
        (Some((origin, Ok(lesson))), [_]) => Some(startup::alone(origin, lesson)),
        _ => None,
    };
    let course_later = alone.is_some();
    let mut index = Index::open(data_dir.as_deref());
    let mut stale = Vec::new();
    let quick = if named {
        None
    } else {
        quick_start(paths, &index, start_review)
    };
    let lib = match (&quick, alone) {
        (_, Some(lib)) => lib,
        (Some(snapshot), None) => Library {
            courses: vec![outline(snapshot)],
            start: None,
        },
        (None, None) => library(paths, &mut index, &mut stale)?,
    };
    if lib.courses.iter().all(|c| c.lessons.is_empty()) {
        return Err("no lessons to show".into());
    }
    let course = lib.start.map_or(0, |(c, _)| c);
    let early = lib.start.filter(|_| !start_review).map(|(_, l)| l);
    if let Some(o) = &opening {
        o.want(&lib.courses[course].slug);
    }
    // The store: the one started above (already told the course), or one
    // started now for `slug`, `awaited` by the first frame or not.
    let store_for = |opening: &mut Option<StoreOpening>, awaited: bool, slug: &str| {
        opening.take().or_else(|| {
            let o = StoreOpening::start(data_dir.clone(), awaited);
            o.want(slug);
            Some(o)
        })
    };
    let theme = Theme::new(common.theme.unwrap_or_else(ThemeKind::detect));
    let (tx, rx, signals) = events::channel();
    let mut term = terminal::Term::enter(!common.no_mouse)?;
    let size = term.area();
    let mut s = State::new(lib.courses, size.width, size.height);
    s.mouse = !common.no_mouse;
    s.dark = theme.kind.is_dark();
    s.course = course;
    s.course_pending = course_later || quick.is_some();
    let mut rt = Runtime {
        store: None,
        index,
        tx,
        deferred: Vec::new(),
        preloaded,
    };
    let lesson = match (early, lib.start) {
        (Some(lesson), _) => lesson,
        (None, start) => {
            opening = store_for(&mut opening, true, &s.course().slug);
            let left = opening
                .as_ref()
                .map(StoreOpening::early)
                .unwrap_or_default();
            // A review starts from the cards due: the whole store first.
            if start_review {
                rt.settle(&mut s, &mut term, opening.take());
            }
            match start {
                Some((_, lesson)) => lesson,
                // Which lesson, and where in it, is the store's first
                // answer; the rest of the course's progress follows the
                // first frame.
                None => startup::resume_at(&mut s, course, quick.as_ref(), left)?,
            }
        }
    };
    let mut fx = Vec::new();
    state::open_lesson(&mut s, lesson, &mut fx);
    rt.apply(&mut s, &mut term, fx);
    if lib.start.is_none() && s.courses.len() > 1 {
        let fx = state::update(&mut s, Action::CoursesOpen);
        rt.apply(&mut s, &mut term, fx);
    }
    if start_review {
        let fx = state::update(&mut s, Action::Review);
        rt.apply(&mut s, &mut term, fx);
    }
    term.terminal.draw(|f| crate::ui::draw(f, &s, &theme))?;
    terminal::let_frame_show();
    // The rest of a page drawn from its first screen, before any key is
    // read; the loop below draws it if nothing else does first.
    let mut drawn = !s.finish_layout();
    if course_later {
        // The lesson's folder: its other lessons, and where this one
        // stands among them. A folder that cannot be read leaves the
        // lesson on its own.
        let action = match library(paths, &mut rt.index, &mut stale) {
            Ok(lib) => Action::CourseRead(lib.courses, lib.start),
            Err(e) => Action::Notice(format!("Only this lesson: {e}")),
        };
        let fx = state::update(&mut s, action);
        rt.apply(&mut s, &mut term, fx);
        drawn = false;
    }
    if let Some(snapshot) = quick {
        // The whole listing in place of the outline.
        let courses = match snapshot.decode() {
            Some(courses) => courses,
            None => rt.index.courses(&snapshot.dir)?,
        };
        let fx = state::update(
            &mut s,
            Action::CourseRefreshed(snapshot.dir.clone(), courses),
        );
        rt.apply(&mut s, &mut term, fx);
        stale.push(snapshot.dir);
        drawn = false;
    }
    // One frame for all of the above, with the store's progress.
    if rt.store.is_none() {
        let slug = s.course().slug.clone();
        rt.settle(&mut s, &mut term, store_for(&mut opening, false, &slug));
        draw(&mut term, &mut s, &theme)?;
        drawn = true;
    }
    events::listen(&rt.tx, signals);
    // A resize before the key reader started was not reported.
    if let Some(action) = resized(&mut term, None) {
        let fx = state::update(&mut s, action);
        rt.apply(&mut s, &mut term, fx);
        drawn = false;
    }
    while !s.quit {
        if !std::mem::take(&mut drawn) {
            draw(&mut term, &mut s, &theme)?;
        }
        if !stale.is_empty() {
            revalidate(std::mem::take(&mut stale), data_dir.clone(), rt.tx.clone());
        }
        if !rt.deferred.is_empty() && rt.store.is_some() {
            let notice = s.notice.clone();
            // What the held-back work found (the cards due, a store fault)
            // is news worth a redraw.
            if rt.flush(&mut s, &mut term) || s.notice != notice {
                draw(&mut term, &mut s, &theme)?;
            }
        }
        let Ok(msg) = rx.recv() else { break };
        let action = match msg {
            Msg::Stop => Some(Action::Quit),
            Msg::Refreshed(dir, courses) => Some(Action::CourseRefreshed(dir, courses)),
            Msg::Resumed => {
                let _ = term.resume();
                resized(&mut term, None)
            }
            Msg::Action(a) => Some(a),
            Msg::IndexChunk(texts, last) => {
                // A cache that cannot be written just means a slower search.
                let _ = rt.index.insert_texts(&texts);
                last.then_some(Action::Indexed)
            }
            Msg::Term(Event::Resize(w, h)) => resized(&mut term, Some((w, h))),
            Msg::Term(ev) => translate(&mut s, ev),
        };
        if let Some(action) = action {
            let fx = state::update(&mut s, action);
            rt.apply(&mut s, &mut term, fx);
        }
    }
    rt.flush(&mut s, &mut term);
    drop(term);
    if let Some(w) = rt.store.as_mut().and_then(Store::take_warning) {
        eprintln!("lectern: {w}");
    }
    Ok(())
}

/// Draws the state. A lesson just opened is drawn from its first screen
/// alone; the rest of it is then laid out and drawn, before the next key.
fn draw(term: &mut terminal::Term, s: &mut State, theme: &Theme) -> std::io::Result<()> {
    term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
    if s.partial() {
        terminal::let_frame_show();
        s.finish_layout();
        term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
    }
    Ok(())
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

/// A terminal event as an action in the current mode.
fn translate(s: &mut State, ev: Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            let action = keymap::lookup(s.mode, &k);
            if action.is_some()
                && !matches!(s.mode, state::Mode::Search | state::Mode::CourseSearch)
            {
                s.notice = None;
            }
            action
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::Scroll(3)),
            MouseEventKind::ScrollUp => Some(Action::Scroll(-3)),
            MouseEventKind::Down(MouseButton::Left) => {
                let g = s.geometry();
                let toc = state::toc::area(&g, s.width, s.height);
                if s.toc_open
                    && m.column >= toc.x.saturating_sub(1)
                    && m.column <= toc.x + toc.width
                {
                    Some(Action::TocClick(m.row))
                } else if m.row >= 1 && m.row < s.height.saturating_sub(1) {
                    Some(Action::PageClick(m.row - 1))
                } else {
                    None
                }
            }
            _ => None,
        },
        _ => None,
    }
}

impl Runtime {
    /// Takes the opened store and hands its progress to the state.
    fn settle(&mut self, s: &mut State, term: &mut terminal::Term, opening: Option<StoreOpening>) {
        if let Some(opening) = opening {
            let resume = opening.finish();
            self.store = Some(resume.store);
            let fx = state::update(s, Action::ProgressRead(resume.progress));
            self.apply(s, term, fx);
        }
    }

    fn apply(&mut self, s: &mut State, term: &mut terminal::Term, fx: Vec<Effect>) {
        let mut queue = fx;
        while !queue.is_empty() {
            for effect in std::mem::take(&mut queue) {
                if is_deferred(&effect) || (self.store.is_none() && needs_store(&effect)) {
                    self.deferred.push(effect);
                } else if let Some(action) = self.effect(s, term, effect) {
                    queue.extend(state::update(s, action));
                }
            }
        }
    }

    /// Carries out the work held back; whether that changed the state.
    fn flush(&mut self, s: &mut State, term: &mut terminal::Term) -> bool {
        let mut changed = false;
        for effect in std::mem::take(&mut self.deferred) {
            if let Some(action) = self.effect(s, term, effect) {
                changed = true;
                let fx = state::update(s, action);
                self.apply(s, term, fx);
            }
        }
        if let Some(w) = self.store.as_mut().and_then(Store::take_warning) {
            s.notice = Some(format!("Progress: {w}"));
        }
        changed
    }

    fn effect(&mut self, s: &State, term: &mut terminal::Term, effect: Effect) -> Option<Action> {
        match effect {
            Effect::Load { origin, lesson } => {
                let lesson_result = match self.preloaded.take() {
                    Some((o, lesson)) if o == origin => lesson,
                    _ => loader::load_lesson(&origin),
                };
                // The course's progress was read once when it opened and is
                // kept current by the state: no query per lesson.
                let progress = match &lesson_result {
                    Ok(l) => s.progress.get(&l.meta.slug).cloned().unwrap_or_default(),
                    _ => Default::default(),
                };
                Some(Action::Loaded(Box::new(Opened {
                    index: lesson,
                    lesson: lesson_result,
                    progress,
                })))
            }
            Effect::Highlight => {
                if let Some(doc) = &s.doc {
                    let lesson = doc.lesson.clone();
                    let dark = s.dark;
                    let tx = self.tx.clone();
                    background::spawn(move || {
                        let code = crate::highlight::highlight_lesson(&lesson, dark);
                        let _ = tx.send(Msg::Action(Action::Highlighted(
                            lesson.meta.slug.clone(),
                            code,
                        )));
                    });
                }
                None
            }
            Effect::BuildIndex => {
                let origins = s.course().origins();
                let missing = self.index.missing(&origins);
                if missing.is_empty() {
                    return Some(Action::Indexed);
                }
                // Parsing every lesson is the slow part: off the UI thread,
                // in chunks the UI thread stores between key presses.
                let tx = self.tx.clone();
                background::spawn(move || {
                    let chunks: Vec<&[crate::loader::Origin]> = missing.chunks(200).collect();
                    let n = chunks.len();
                    for (i, chunk) in chunks.into_iter().enumerate() {
                        let texts = chunk
                            .iter()
                            .map(|o| (o.clone(), crate::index::lesson_text(o)))
                            .collect();
                        if tx.send(Msg::IndexChunk(texts, i + 1 == n)).is_err() {
                            return;
                        }
                    }
                });
                None
            }
            Effect::CourseSearch(q) => {
                let origins = s.course().origins();
                let texts = self.index.search(&origins, &q, state::COURSE_HITS);
                Some(Action::CourseResults(
                    q.clone(),
                    state::course_hits(texts, &q),
                ))
            }
            Effect::SavePosition {
                course,
                lesson,
                anchor,
            } => {
                self.store.as_mut()?.save_position(&course, &lesson, anchor);
                None
            }
            Effect::MarkRead { course, lesson } => {
                self.store.as_mut()?.mark_read(&course, &lesson);
                None
            }
            Effect::SetLastLesson { course, lesson } => {
                self.store.as_mut()?.set_last_lesson(&course, &lesson);
                None
            }
            Effect::RecordAttempt {
                course,
                lesson,
                option,
                correct,
                review,
            } => {
                self.store.as_mut()?.record_attempt(
                    &course,
                    &lesson,
                    option,
                    correct,
                    review,
                    chrono::Utc::now(),
                );
                None
            }
            Effect::SetMouse(on) => {
                term.set_mouse(on);
                None
            }
            Effect::Suspend => {
                let _ = term.suspend();
                None
            }
            Effect::LoadDue => {
                let course = s.course();
                let now = chrono::Utc::now();
                let mut due: Vec<String> = self
                    .store
                    .as_ref()?
                    .due(Some(&course.slug), now)
                    .into_iter()
                    .map(|(_, l, _)| l)
                    .collect();
                // Lessons read but never answered are new cards, due now.
                for l in &course.lessons {
                    let p = s.progress.get(&l.slug);
                    if p.is_some_and(|p| p.read && p.attempts == 0) && !due.contains(&l.slug) {
                        due.push(l.slug.clone());
                    }
                }
                let seed = now.timestamp_nanos_opt().unwrap_or(1) as u64;
                Some(Action::ReviewReady(due, seed))
            }
            Effect::SwitchCourse(i) => {
                let c = s.courses.get(i)?;
                let store = self.store.as_ref()?;
                let progress = store.course_progress(&c.slug);
                let start = store
                    .last_lesson(&c.slug)
                    .and_then(|slug| c.index_of(&slug))
                    .unwrap_or(0);
                Some(Action::CourseReady {
                    course: i,
                    progress,
                    start,
                })
            }
            Effect::LoadStats => Some(Action::StatsReady(crate::stats::reviews(
                self.store.as_ref()?,
                s.course(),
            ))),
        }
    }
}
