//! The one effect runner: carries out what the state asks for with the
//! loader, the progress store and the course index, and answers with
//! messages; it never applies them (`crate::app` closes the loop). The
//! terminal runtime and every test use it; tests run its background work
//! inline.

mod background;
pub(crate) mod drill;
mod indexing;
mod listing;
mod opened;
mod opening;
mod picture_cache;
mod picture_svg;
mod pictures;
pub use picture_svg::texts_drawn as svg_texts_drawn;
pub use pictures::draw as draw_picture;
mod review;
mod search;
mod sync;
mod writes;

pub use background::{spawn, spawn_awaited};
use opened::opened;
pub use opening::{BUILTIN, Early};
pub use writes::Unwritten;

use crate::index::{Extract, Index};
use crate::loader;
use crate::model::{Change, Days, Lesson, Origin};
use crate::state::{Effect, Msg, Opened};
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

/// What background work sends back.
pub enum Reply {
    Msg(Msg),
    /// A lesson read off the loop (boxed: a lesson is far larger than any
    /// other reply).
    Lesson(Box<Opened>),
    /// Searchable text of some lessons of course `course` for the index,
    /// and how many of how many are done with it.
    IndexChunk {
        course: usize,
        texts: Vec<Extract>,
        done: usize,
        total: usize,
    },
    /// What a look at the sync folder found, to merge into the store.
    Synced(Box<crate::store::sync::Look>),
}

/// Where background work's replies go; `false` once nobody listens.
pub type Sink = Arc<dyn Fn(Reply) -> bool + Send + Sync>;

/// How background work runs.
pub enum Work {
    /// On low-priority threads, replying through the sink (the reader).
    Threads(Sink),
    /// Right away, its replies applied before `apply` returns (tests).
    Inline,
}

/// Lessons per chunk of index text: small enough that storing one
/// between key presses goes unnoticed.
const INDEX_CHUNK: usize = 200;

pub struct Runner {
    /// `None` only while the store is still being opened: effects that
    /// read it wait until it is there.
    pub store: Option<Store>,
    pub index: Index,
    work: Work,
    inline: VecDeque<Reply>,
    /// Writes and highlighting, held until the frame is on screen.
    held: Vec<Effect>,
    /// The writes of `held`, in order, where a signal's last moment can
    /// reach them (see [`Unwritten`]).
    unwritten: Unwritten,
    /// Lessons the index took from the page rather than read (for tests).
    pub indexed_from_page: usize,
    /// The time, fixed by tests; the clock's when `None`.
    pub clock: Option<DateTime<Utc>>,
    /// How the learner's days are cut (the rollover hour; local time).
    pub days: Days,
    /// Lessons are read on this thread (until the first frame is drawn,
    /// which waits for its lesson anyway); after that on a thread of their
    /// own, so a huge or slow file never holds up keys and signals.
    pub loads_inline: bool,
    /// Lessons being read on their threads, whose replies are not in yet.
    loading: usize,
    /// Where course searches run: started at the first one, when the
    /// index is the one boot opened.
    searcher: Option<search::Searcher>,
    /// The store being opened on its thread, until it is `store`.
    opening: Option<opening::StoreOpening>,
    /// The thread that looks at the sync folder, when there is one.
    watch: Option<sync::Watch>,
}

impl Runner {
    pub fn new(store: Option<Store>, index: Index, work: Work) -> Runner {
        Runner {
            store,
            index,
            work,
            inline: VecDeque::new(),
            held: Vec::new(),
            unwritten: Unwritten::default(),
            indexed_from_page: 0,
            clock: None,
            days: Days::default(),
            loads_inline: true,
            loading: 0,
            searcher: None,
            opening: None,
            watch: None,
        }
    }

    /// Now, as every effect that needs the time sees it.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.unwrap_or_else(Utc::now)
    }

    /// A runner for tests: an in-memory store and index, work inline.
    pub fn inline() -> Runner {
        Runner::new(Some(Store::in_memory()), Index::in_memory(), Work::Inline)
    }

    /// Carries out one effect: the terminal's go to `terminal`, writes and
    /// work that waits for the frame are held; the rest runs, its answer
    /// (if any) returned for the state (`crate::app` closes the loop).
    pub fn carry(&mut self, e: Effect, terminal: &mut Vec<Effect>) -> Option<Msg> {
        if e.is_terminal() {
            terminal.push(e);
            return None;
        }
        if self.waits(&e) {
            if let Effect::Write(change) = &e {
                // Its time is when it was made, not when written.
                self.unwritten.hold(&change.clone().stamped(self.now()));
            }
            self.held.push(e);
            return None;
        }
        self.run(e)
    }

    /// The next reply of work done inline (tests): `None` once there is
    /// none; `Some(None)` for a reply the state has no use for.
    pub fn next_inline(&mut self) -> Option<Option<Msg>> {
        let reply = self.inline.pop_front()?;
        Some(self.take(reply))
    }

    /// The work held back that can run now (once the frame is drawn), in
    /// the order it was asked for: without the store (still opening) its
    /// work stays held.
    pub fn take_ready(&mut self) -> Vec<Effect> {
        let (ready, wait): (Vec<Effect>, Vec<Effect>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| self.store.is_some() || !(e.is_write() || e.reads_store()));
        self.held = wait;
        ready
    }

    /// Carries out one effect of [`Runner::take_ready`].
    pub fn run_ready(&mut self, effect: Effect) -> Option<Msg> {
        if !effect.is_write() {
            return self.run(effect);
        }
        // Written and let go of at once, so a signal's rescue never
        // writes it a second time.
        let unwritten = self.unwritten.clone();
        let mut kept = unwritten.lock();
        // Gone: a signal's rescue has kept it already.
        if let Some(change) = kept.pop_front() {
            self.write(change);
        }
        None
    }

    /// What the store had to say since it was last asked, once per fault.
    pub fn store_notice(&mut self) -> Option<Msg> {
        let w = self.store.as_mut().and_then(Store::take_warning)?;
        // It can quote the data dir's path and SQLite's or the OS's words.
        let w = crate::model::sanitize::clean(&w).replace('\n', " ");
        Some(Msg::Notice(format!("Progress: {w}")))
    }

    /// The writes held back, for a signal that ends the process while the
    /// loop is stuck (see [`Unwritten::rescue`]).
    pub fn unwritten(&self) -> Unwritten {
        self.unwritten.clone()
    }

    /// Whether a lesson is being read off the loop: keys then wait for it
    /// (but quitting), so they act on the page they were meant for.
    pub fn is_loading(&self) -> bool {
        self.loading > 0
    }

    pub fn has_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// A reply of background work, as the state's message (if it has one).
    pub fn take(&mut self, reply: Reply) -> Option<Msg> {
        match reply {
            Reply::Msg(msg) => Some(msg),
            Reply::Lesson(opened) => {
                self.loading = self.loading.saturating_sub(1);
                Some(Msg::Loaded(opened))
            }
            Reply::IndexChunk {
                course,
                texts,
                done,
                total,
            } => {
                // A cache that cannot be written just means a slower search.
                let _ = self.index.insert(&texts);
                Some(Msg::Indexed {
                    course,
                    done,
                    total,
                })
            }
            Reply::Synced(look) => self.synced(&look),
        }
    }

    fn waits(&self, e: &Effect) -> bool {
        e.is_write()
            || matches!(e, Effect::Highlight { .. } | Effect::BuildIndex { .. })
            || (self.store.is_none() && e.reads_store())
    }

    fn background(&mut self, job: impl FnOnce(&dyn Fn(Reply) -> bool) + Send + 'static) {
        self.background_at(false, job);
    }

    /// [`Runner::background`]; `awaited`: at normal priority, since the
    /// screen waits for it.
    fn background_at(
        &mut self,
        awaited: bool,
        job: impl FnOnce(&dyn Fn(Reply) -> bool) + Send + 'static,
    ) {
        match &self.work {
            Work::Threads(sink) if awaited => {
                let sink = Arc::clone(sink);
                spawn_awaited(move || job(&|r| sink(r)));
            }
            Work::Threads(sink) => {
                let sink = Arc::clone(sink);
                spawn(move || job(&|r| sink(r)));
            }
            Work::Inline => {
                let out = RefCell::new(Vec::new());
                job(&|r| {
                    out.borrow_mut().push(r);
                    true
                });
                self.inline.extend(out.into_inner());
            }
        }
    }

    fn run(&mut self, effect: Effect) -> Option<Msg> {
        match effect {
            Effect::Load { origin, lesson } => self.load(origin, lesson),
            Effect::Highlight { lesson, dark } => {
                self.highlight(lesson, dark);
                None
            }
            Effect::BuildIndex {
                course,
                origins,
                page,
            } => self.build_index(course, &origins, page),
            Effect::CourseSearch {
                query,
                generation,
                origins,
            } => self.course_search(search::Job::Search {
                query,
                generation,
                origins,
            }),
            Effect::CourseSnippets {
                query,
                generation,
                lessons,
            } => self.course_search(search::Job::Snippets {
                query,
                generation,
                lessons,
            }),
            Effect::LoadDue { open } => self.library_due(&open),
            e @ Effect::LoadDrill { .. } => self.load_drill(e),
            e @ Effect::LoadQuizzes { .. } => self.load_quizzes(e),
            Effect::SwitchCourse { index, course } => {
                let (progress, start) = self.store.as_ref()?.resume(&course);
                Some(Msg::CourseReady {
                    course: index,
                    progress,
                    start,
                })
            }
            Effect::LoadLibrary { open } => {
                let store = self.store.as_ref()?;
                let rows = crate::store::shelf_figures(store, &open, self.now(), &self.days);
                Some(Msg::LibraryRead(rows))
            }
            Effect::OpenCourse { slug, root } => Some(open_course(&slug, root.as_deref())),
            Effect::Revalidate { dirs } => {
                self.revalidate(dirs);
                None
            }
            Effect::ReadListing { dir, files } => {
                self.read_listing(dir, files);
                None
            }
            Effect::LoadStats { course } => Some(Msg::StatsReady(crate::store::reviews(
                self.store.as_ref()?,
                &course,
                self.now(),
                &self.days,
            ))),
            Effect::Write(change) => {
                self.write(change);
                None
            }
            Effect::LoadNotes => Some(self.notes()),
            Effect::LoadProgress { course } => {
                let progress = self.store.as_ref()?.course_progress(&course);
                Some(Msg::ProgressMerged(course, progress))
            }
            Effect::DrawPicture(key) => {
                self.draw_picture(key);
                None
            }
            // The terminal's: the runtime carries them out.
            _ => None,
        }
    }

    /// The cards due across the library, with the courses not open.
    fn library_due(&self, open: &[Arc<crate::model::Course>]) -> Option<Msg> {
        let now = self.now();
        let store = self.store.as_ref()?;
        let (courses, due) = review::library_due(store, open, now, &self.days);
        let seed = now.timestamp_nanos_opt().unwrap_or(1) as u64;
        Some(Msg::LibraryDue {
            courses,
            due: Box::new(due),
            seed,
        })
    }

    /// The learner's seed for the order of options (0 without a store).
    fn seed(&self) -> u64 {
        self.store.as_ref().map_or(0, Store::seed)
    }

    fn load(&mut self, origin: Origin, index: usize) -> Option<Msg> {
        let seed = self.seed();
        if self.loads_inline {
            return Some(Msg::Loaded(Box::new(opened(index, origin, seed))));
        }
        self.loading += 1;
        self.background_at(true, move |send| {
            send(Reply::Lesson(Box::new(opened(index, origin, seed))));
        });
        None
    }

    fn highlight(&mut self, lesson: Arc<Lesson>, dark: bool) {
        let checks_code = lesson.checks.iter().any(|c| {
            matches!(c.kind, crate::model::CheckKind::Tracing { .. })
                || c.body
                    .iter()
                    .any(|b| matches!(b, crate::model::Block::Code { .. }))
        });
        if !checks_code && !crate::highlight::lesson_wants(&lesson) {
            return;
        }
        self.background(move |send| {
            let lesson = lesson.code_only();
            let mut code = crate::highlight::highlight_lesson(&lesson, dark);
            crate::layout::highlight_checks(&lesson, &mut code, |lang, text| {
                crate::highlight::highlight(Some(lang), text, dark)
            });
            send(Reply::Msg(Msg::Highlighted(lesson.meta.slug.clone(), code)));
        });
    }

    /// A picture decoded and scaled off the loop: it answers with its cells.
    fn draw_picture(&mut self, key: crate::model::PictureKey) {
        self.background(move |send| {
            let drawn = pictures::draw(&key).map(Arc::new);
            send(Reply::Msg(Msg::Picture(key, drawn)));
        });
    }

    /// The learner's notes, a random id base, and the library's folders.
    fn notes(&self) -> Msg {
        let store = self.store.as_ref();
        let roots = store.map(Store::library).unwrap_or_default();
        Msg::NotesRead(
            store.map(Store::notes).unwrap_or_default(),
            session_random(),
            roots.into_iter().map(|c| (c.slug, c.root)).collect(),
        )
    }

    fn write(&mut self, change: Change) {
        let change = change.stamped(self.now());
        if let Some(store) = self.store.as_mut() {
            store.apply(&change);
        }
    }
}

/// A course of the library from its folder (the built-in one for none).
fn open_course(slug: &str, root: Option<&std::path::Path>) -> Msg {
    let found = match root {
        None => Ok(vec![loader::builtin_course()]),
        Some(root) => loader::open_paths(&[root.to_path_buf()]).map(|l| l.courses),
    };
    match found.map(|cs| cs.into_iter().find(|c| c.slug == slug)) {
        Ok(Some(course)) => Msg::CourseAdded(Box::new(course)),
        Ok(None) => Msg::Notice(format!(
            "That folder no longer holds the course “{}”.",
            crate::model::sanitize::clean_owned(slug)
        )),
        Err(e) => Msg::Notice(format!("The course could not be read: {e}")),
    }
}

/// A number no other session draws (std's hasher keys are random per
/// process; the time tells two runs of one apart): the base of the ids
/// of the notes this session makes.
fn session_random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}
