//! The one effect runner: carries out what the state asks for with the
//! loader, the progress store and the course index, and hands what it
//! finds back to the state as messages. The terminal runtime and every
//! test use it; tests run its background work inline.

mod background;

pub use background::{spawn, spawn_awaited};

use crate::index::Index;
use crate::loader;
use crate::model::{Diagnostic, Lesson, Origin};
use crate::state::{self, Effect, Msg, Opened, State};
use crate::store::Store;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

/// What background work sends back.
pub enum Reply {
    Msg(Msg),
    /// Searchable text of some lessons for the course index; `true` on
    /// the last chunk.
    IndexChunk(Vec<(Origin, String)>, bool),
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
    /// The named lesson, parsed before the terminal was set up.
    preloaded: Option<(Origin, Result<Lesson, Diagnostic>)>,
}

impl Runner {
    pub fn new(store: Option<Store>, index: Index, work: Work) -> Runner {
        Runner {
            store,
            index,
            work,
            inline: VecDeque::new(),
            held: Vec::new(),
            preloaded: None,
        }
    }

    /// A runner for tests: an in-memory store and index, work inline.
    pub fn inline() -> Runner {
        Runner::new(Some(Store::in_memory()), Index::in_memory(), Work::Inline)
    }

    /// The first `Load` of `origin` takes this result instead of reading.
    pub fn preload(&mut self, origin: Origin, lesson: Result<Lesson, Diagnostic>) {
        self.preloaded = Some((origin, lesson));
    }

    /// Carries out `fx` and what their replies ask for in turn. Returns
    /// the effects that are the terminal's (mouse, suspend).
    pub fn apply(&mut self, s: &mut State, fx: Vec<Effect>) -> Vec<Effect> {
        self.apply_traced(s, fx, &mut Vec::new())
    }

    /// [`Runner::apply`], noting in `seen` every effect asked for on the
    /// way, those of the replies included (for tests).
    pub fn apply_traced(
        &mut self,
        s: &mut State,
        fx: Vec<Effect>,
        seen: &mut Vec<Effect>,
    ) -> Vec<Effect> {
        let mut terminal = Vec::new();
        let mut queue: VecDeque<Effect> = fx.into();
        loop {
            while let Some(e) = queue.pop_front() {
                seen.push(e.clone());
                if matches!(
                    e,
                    Effect::SetMouse(_)
                        | Effect::Suspend
                        | Effect::Clipboard(_)
                        | Effect::OpenUrl(_)
                ) {
                    terminal.push(e);
                } else if self.waits(&e) {
                    self.held.push(e);
                } else if let Some(msg) = self.run(s, e) {
                    queue.extend(state::receive(s, msg));
                }
            }
            let Some(reply) = self.inline.pop_front() else {
                break;
            };
            if let Some(msg) = self.take(reply) {
                queue.extend(state::receive(s, msg));
            }
        }
        terminal
    }

    /// Carries out the work held back (once the frame is drawn); whether
    /// that changed the state.
    pub fn flush(&mut self, s: &mut State) -> bool {
        let notice = s.notice.clone();
        let mut changed = false;
        // Without the store (still opening) its work stays held.
        let (ready, wait): (Vec<Effect>, Vec<Effect>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| self.store.is_some() || !(e.is_write() || e.reads_store()));
        self.held = wait;
        for effect in ready {
            if let Some(msg) = self.run(s, effect) {
                changed = true;
                let fx = state::receive(s, msg);
                self.apply(s, fx);
            }
        }
        if let Some(w) = self.store.as_mut().and_then(Store::take_warning) {
            s.notice = Some(format!("Progress: {w}"));
        }
        changed || s.notice != notice
    }

    pub fn has_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// A reply of background work, as the state's message (if it has one).
    pub fn take(&mut self, reply: Reply) -> Option<Msg> {
        match reply {
            Reply::Msg(msg) => Some(msg),
            Reply::IndexChunk(texts, last) => {
                // A cache that cannot be written just means a slower search.
                let _ = self.index.insert_texts(&texts);
                last.then_some(Msg::Indexed)
            }
        }
    }

    fn waits(&self, e: &Effect) -> bool {
        e.is_write() || *e == Effect::Highlight || (self.store.is_none() && e.reads_store())
    }

    fn background(&mut self, job: impl FnOnce(&dyn Fn(Reply) -> bool) + Send + 'static) {
        match &self.work {
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

    fn run(&mut self, s: &State, effect: Effect) -> Option<Msg> {
        match effect {
            Effect::Load { origin, lesson } => Some(self.load(s, origin, lesson)),
            Effect::Highlight => {
                self.highlight(s);
                None
            }
            Effect::BuildIndex => self.build_index(s),
            Effect::CourseSearch(q) => {
                let texts = self
                    .index
                    .search(&s.course().origins(), &q, state::COURSE_HITS);
                let hits = state::course_hits(texts, &q);
                Some(Msg::CourseResults(q, hits))
            }
            Effect::LoadDue => {
                let now = chrono::Utc::now();
                let due = self.store.as_ref()?.due_cards(s.course(), now);
                let seed = now.timestamp_nanos_opt().unwrap_or(1) as u64;
                Some(Msg::ReviewReady(due, seed))
            }
            Effect::SwitchCourse(i) => {
                let course = s.library.courses.get(i)?;
                let (progress, start) = self.store.as_ref()?.resume(course);
                Some(Msg::CourseReady {
                    course: i,
                    progress,
                    start,
                })
            }
            Effect::LoadStats => Some(Msg::StatsReady(crate::stats::reviews(
                self.store.as_ref()?,
                s.course(),
            ))),
            write => {
                self.write(write);
                None
            }
        }
    }

    fn load(&mut self, s: &State, origin: Origin, index: usize) -> Msg {
        let lesson = match self.preloaded.take() {
            Some((o, lesson)) if o == origin => lesson,
            _ => loader::load_lesson(&origin),
        };
        // The course's progress was read once when it opened and is kept
        // current by the state: no query per lesson.
        let progress = match &lesson {
            Ok(l) => s
                .library
                .progress
                .get(&l.meta.slug)
                .cloned()
                .unwrap_or_default(),
            Err(_) => Default::default(),
        };
        Msg::Loaded(Box::new(Opened {
            index,
            lesson,
            progress,
        }))
    }

    fn highlight(&mut self, s: &State) {
        let Some(doc) = &s.reader.doc else { return };
        if !crate::highlight::lesson_wants(&doc.lesson) {
            return;
        }
        let lesson = doc.lesson.clone();
        let dark = s.prefs.dark;
        self.background(move |send| {
            let code = crate::highlight::highlight_lesson(&lesson, dark);
            send(Reply::Msg(Msg::Highlighted(lesson.meta.slug.clone(), code)));
        });
    }

    fn build_index(&mut self, s: &State) -> Option<Msg> {
        let missing = self.index.missing(&s.course().origins());
        if missing.is_empty() {
            return Some(Msg::Indexed);
        }
        // Parsing every lesson is the slow part: in the background, in
        // chunks stored between key presses.
        self.background(move |send| {
            let chunks: Vec<&[Origin]> = missing.chunks(INDEX_CHUNK).collect();
            let n = chunks.len();
            for (i, chunk) in chunks.into_iter().enumerate() {
                let texts = chunk
                    .iter()
                    .map(|o| (o.clone(), crate::index::lesson_text(o)))
                    .collect();
                if !send(Reply::IndexChunk(texts, i + 1 == n)) {
                    return;
                }
            }
        });
        None
    }

    fn write(&mut self, effect: Effect) {
        let Some(store) = self.store.as_mut() else {
            return;
        };
        match effect {
            Effect::SavePosition { key, anchor } => {
                store.save_position(&key.course, &key.lesson, anchor)
            }
            Effect::MarkRead(key) => store.mark_read(&key.course, &key.lesson),
            Effect::SetLastLesson(key) => store.set_last_lesson(&key.course, &key.lesson),
            Effect::RecordAttempt {
                key,
                option,
                correct,
                review,
            } => store.record_attempt(
                &key.course,
                &key.lesson,
                option,
                correct,
                review,
                chrono::Utc::now(),
            ),
            _ => {}
        }
    }
}
