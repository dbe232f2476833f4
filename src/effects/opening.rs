//! The runner's part in start-up: the progress store opened on a thread
//! while the lessons load and the terminal is set up (on two cores the
//! first frame waits for the slower of the two, not for both), the
//! courses named on the command line read through the course index, and
//! folders shown from their last listing checked against the files after
//! the first frame. The reader's boot (`tui::boot`) says what, in order;
//! this does it.

use super::{Reply, Runner, Work};
use crate::index::{Index, Snapshot};
use crate::loader::{self, Library, Progress};
use crate::model::Diagnostic;
use crate::state::Msg;
use crate::store::{LessonProgress, Store};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender};

/// A path that stands for the built-in course beside folders (a review of
/// the whole library opens both).
pub const BUILTIN: &str = "builtin:";

/// The progress store being opened on its thread.
pub struct StoreOpening {
    course: Sender<String>,
    early: Receiver<Early>,
    job: std::thread::JoinHandle<Resume>,
}

/// Where the reader left the course: what a first frame needs, read with
/// two small queries before the course's whole progress.
#[derive(Debug, Default)]
pub struct Early {
    pub last_lesson: Option<String>,
    pub place: Option<crate::model::Anchor>,
}

struct Resume {
    store: Store,
    progress: HashMap<String, LessonProgress>,
}

impl StoreOpening {
    /// Starts opening the store; `awaited` when the first frame waits for
    /// it, or it opens in the background, after that frame.
    fn start(data_dir: Option<PathBuf>, awaited: bool) -> StoreOpening {
        let (course, wanted) = std::sync::mpsc::channel::<String>();
        let (early_tx, early) = std::sync::mpsc::channel();
        let spawn = if awaited {
            super::spawn_awaited
        } else {
            super::spawn
        };
        let job = spawn(move || {
            // Opening checks the file (and sets a damaged one aside): the
            // slow part, begun before the course is even known.
            let store = Store::open(data_dir.as_deref());
            let progress = match wanted.recv() {
                Ok(slug) => {
                    let last_lesson = store.last_lesson(&slug);
                    let place = last_lesson
                        .as_deref()
                        .and_then(|lesson| store.position(&slug, lesson));
                    let _ = early_tx.send(Early { last_lesson, place });
                    store.course_progress(&slug)
                }
                Err(_) => HashMap::new(),
            };
            Resume { store, progress }
        });
        StoreOpening { course, early, job }
    }

    fn finish(self) -> Resume {
        self.job
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

impl Runner {
    /// The course index in the cache directory (what an older version left
    /// in the data directory `data` goes).
    pub fn use_cached_index(&mut self, data: Option<&Path>) {
        self.index = Index::cached(data);
    }

    /// Starts opening the store in `data_dir` (see `StoreOpening`).
    pub fn start_store(&mut self, data_dir: Option<PathBuf>, awaited: bool) {
        self.opening = Some(StoreOpening::start(data_dir, awaited));
    }

    /// Whether a store is being opened.
    pub fn is_opening_store(&self) -> bool {
        self.opening.is_some()
    }

    /// Names the course whose progress the store being opened reads.
    pub fn want_course(&self, slug: &str) {
        if let Some(o) = &self.opening {
            let _ = o.course.send(slug.to_owned());
        }
    }

    /// The course's last lesson and the place in it, as soon as the store
    /// being opened knows them (asked once).
    pub fn early(&mut self) -> Early {
        self.opening
            .as_ref()
            .and_then(|o| o.early.recv().ok())
            .unwrap_or_default()
    }

    /// The store opened (started now in `data_dir`, at low priority, if it
    /// was not), and the progress of course `slug` it read, for the state;
    /// `None` if the store is open already.
    pub fn settle_store(&mut self, data_dir: Option<PathBuf>, slug: &str) -> Option<Msg> {
        if self.store.is_some() {
            return None;
        }
        if self.opening.is_none() {
            self.start_store(data_dir, false);
            self.want_course(slug);
        }
        let resume = self.opening.take()?.finish();
        self.store = Some(resume.store);
        Some(Msg::ProgressRead(resume.progress))
    }

    /// The library named by `paths` (the built-in course when none), with
    /// folder headers from the course index. Large folders come from their
    /// last listing, to be checked against the files after the first
    /// frame: those folders are added to `stale`. Lesson files read are
    /// ticked on `progress`.
    pub fn read_library(
        &mut self,
        paths: &[PathBuf],
        stale: &mut Vec<PathBuf>,
        progress: &Progress,
    ) -> Result<Library, Diagnostic> {
        let builtin = paths.iter().any(|p| p.as_os_str() == BUILTIN);
        let paths: Vec<PathBuf> = paths
            .iter()
            .filter(|p| p.as_os_str() != BUILTIN)
            .cloned()
            .collect();
        if paths.is_empty() {
            return Ok(Library {
                courses: vec![loader::builtin_course()],
                start: None,
            });
        }
        let index = &mut self.index;
        let mut lib = loader::open_paths_with(&paths, &mut |dir| match index.snapshot(dir) {
            Some(courses) => {
                stale.push(dir.to_path_buf());
                Ok(courses)
            }
            None => index.courses_with_progress(dir, progress),
        })?;
        if builtin {
            lib.courses.push(loader::builtin_course());
        }
        Ok(lib)
    }

    /// A single course folder with a stored listing, to open from an
    /// outline of it: the first frame needs the course's title and one
    /// lesson, not 10,000 decoded entries.
    pub fn peek_listing(&self, paths: &[PathBuf]) -> Option<Snapshot> {
        let [dir] = paths else { return None };
        let snapshot = self.index.peek(dir)?;
        matches!(snapshot.heads.as_slice(), [one] if one.count > 0).then_some(snapshot)
    }

    /// The courses of the listing `snapshot` was peeked from, whole.
    pub fn listing_of(
        &mut self,
        snapshot: &Snapshot,
    ) -> Result<Vec<crate::model::Course>, Diagnostic> {
        match snapshot.decode() {
            Some(courses) => Ok(courses),
            None => self.index.courses(&snapshot.dir),
        }
    }

    /// Checks folders shown from their last listing against the files, in
    /// the background; a folder that changed comes back as a message.
    pub(super) fn revalidate(&mut self, stale: Vec<PathBuf>) {
        if stale.is_empty() {
            return;
        }
        let Work::Threads(sink) = &self.work else {
            return;
        };
        let sink = std::sync::Arc::clone(sink);
        super::spawn(move || {
            let mut index = Index::open(crate::index::cache_dir().as_deref());
            for dir in stale {
                let before = index.snapshot(&dir);
                if let Ok(courses) = index.courses(&dir) {
                    if before.as_ref() != Some(&courses)
                        && !sink(Reply::Msg(Msg::CourseRefreshed(dir, courses)))
                    {
                        return;
                    }
                }
            }
        });
    }
}
