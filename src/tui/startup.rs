//! What the reader starts from: the courses named on the command line
//! (from the course index where it has them), and the progress store,
//! opened on a thread while they load.

use crate::effects::{self as background, Reply, Sink};
use crate::index::{Index, Snapshot};
use crate::loader::{self, Library};
use crate::model::{Anchor, Course, LessonEntry, LessonStatus};
use crate::state::{CourseView, Msg};
use crate::store::{LessonProgress, Store};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::Sender;

/// The library named by `paths` (the built-in course when none), with
/// folder headers from the course index. Large folders come from their
/// last listing, to be checked against the files after the first frame:
/// those folders are added to `stale`. Lesson files read are ticked on
/// `progress`.
pub(super) fn library(
    paths: &[PathBuf],
    index: &mut Index,
    stale: &mut Vec<PathBuf>,
    progress: &loader::Progress,
) -> Result<Library, Box<dyn std::error::Error>> {
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

/// A large course folder never listed before, opened from a first look
/// at its files (see [`loader::first_look`]): its lesson at the lowest
/// position read whole and standing as the course until the listing is
/// read in the background. `None` (the folder is then read whole first)
/// unless that is surely the lesson to open: the course asked for, and
/// the store not saying the learner left it at another (what the store
/// said is kept in `early` either way).
pub(super) struct Looked {
    pub lib: Library,
    pub opened: crate::state::Opened,
    pub dir: PathBuf,
    pub files: usize,
}

pub(super) fn looked(
    paths: &[PathBuf],
    runner: &mut crate::effects::Runner,
    (opening, early): (Option<&StoreOpening>, &mut Option<Early>),
    wanted: Option<&str>,
) -> Option<Looked> {
    let ([dir], Some(opening)) = (paths, opening) else {
        return None;
    };
    let dir = std::fs::canonicalize(dir).ok()?;
    let look = loader::first_look::first_lesson(&dir)?;
    if wanted.is_some_and(|w| w != look.course_slug) {
        return None;
    }
    let origin = loader::Origin::File(look.first);
    let load = crate::state::Effect::Load { origin, lesson: 0 };
    let Some(Msg::Loaded(opened)) = runner.carry(load, &mut Vec::new()) else {
        return None;
    };
    let lesson = opened.lesson.as_ref().ok()?;
    if lesson.meta.course_slug != look.course_slug {
        return None;
    }
    opening.want(&look.course_slug);
    let left = early.insert(opening.early());
    if left
        .last_lesson
        .as_ref()
        .is_some_and(|l| *l != lesson.meta.slug)
    {
        return None;
    }
    let mut lib = alone(&opened.origin, lesson);
    lib.courses[0].root = Some(dir.clone());
    lib.start = None;
    Some(Looked {
        lib,
        opened: *opened,
        dir,
        files: look.files,
    })
}

/// A path that stands for the built-in course beside folders (a review of
/// the whole library opens both).
pub const BUILTIN: &str = "builtin:";

/// A lesson named alone, as a course of its own until its real course is
/// read after the first frame: that frame needs the lesson, not its
/// folder's other files.
pub(super) fn alone(origin: &loader::Origin, lesson: &crate::model::Lesson) -> Library {
    let m = &lesson.meta;
    let entry = LessonEntry {
        origin: origin.clone(),
        slug: m.slug.clone(),
        title: m.title.clone(),
        position: m.position,
        minutes: m.minutes,
        module: m.module.clone().map(Box::new),
        status: LessonStatus::Ok,
    };
    Library {
        courses: vec![Course {
            slug: m.course_slug.clone(),
            title: m.course_title.clone(),
            root: None,
            lessons: vec![entry],
        }],
        start: Some((0, 0)),
    }
}

/// A single course folder with a stored listing is opened from an outline
/// of it: the first frame needs the course's title and one lesson, not
/// 10,000 decoded entries. The whole listing replaces the outline right
/// after that frame, before any key is read.
pub(super) fn quick_start(
    paths: &[PathBuf],
    index: &Index,
    start_review: bool,
) -> Option<Snapshot> {
    let [dir] = paths else { return None };
    if start_review {
        return None;
    }
    let snapshot = index.peek(dir)?;
    matches!(snapshot.heads.as_slice(), [one] if one.count > 0).then_some(snapshot)
}

/// The course of a one-course snapshot with one blank lesson, where the
/// lesson to open goes once known. (A blank for each of 10,000 lessons
/// was 1.2 MB of memory to touch before the first frame.) Where that
/// lesson stands in the course shows once the whole listing is read.
pub(super) fn outline(snapshot: &Snapshot) -> Course {
    let head = &snapshot.heads[0];
    let blank = LessonEntry {
        origin: loader::Origin::File(PathBuf::new()),
        slug: String::new(),
        title: String::new(),
        position: None,
        minutes: None,
        module: None,
        status: LessonStatus::Ok,
    };
    Course {
        slug: head.slug.clone(),
        title: head.title.clone(),
        root: Some(snapshot.dir.clone()),
        lessons: vec![blank],
    }
}

/// The lesson of `course` to open first, where the store says the reader
/// left it, how much of the course is known, and the place in the lesson.
/// From an outline, that lesson becomes the outline's one entry.
pub(super) fn resume_in(
    courses: &mut [Course],
    course: usize,
    outline: Option<&Snapshot>,
    left: Early,
) -> Result<(usize, CourseView, Option<Anchor>), &'static str> {
    let last = left.last_lesson.as_deref();
    let (found, view) = match outline {
        Some(snapshot) => {
            let (place, entry) = snapshot
                .find(0, last)
                .or_else(|| snapshot.find(0, None))
                .ok_or("the course listing is damaged")?;
            courses[0].lessons[0] = entry;
            (0, CourseView::Outline { place })
        }
        None => {
            let i = last.and_then(|slug| courses[course].index_of(slug));
            (i.unwrap_or(0), CourseView::Full)
        }
    };
    let entry = courses[course].lessons.get(found);
    let anchor = left
        .place
        .filter(|_| last.is_some_and(|slug| entry.is_some_and(|e| e.slug == slug)));
    Ok((found, view, anchor))
}

/// Checks folders shown from their last listing against the files, on a
/// thread; a folder that changed comes back as a message.
pub(super) fn revalidate(stale: Vec<PathBuf>, sink: Sink) {
    if stale.is_empty() {
        return;
    }
    background::spawn(move || {
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

/// The progress store, opened on a thread while the lessons load and the
/// terminal is set up: on two cores the first frame waits for the slower of
/// the two, not for both.
pub(super) struct StoreOpening {
    course: Sender<String>,
    early: std::sync::mpsc::Receiver<Early>,
    job: std::thread::JoinHandle<Resume>,
}

/// Where the reader left the course: what a first frame needs, read with
/// two small queries before the course's whole progress.
#[derive(Default)]
pub(super) struct Early {
    pub last_lesson: Option<String>,
    pub place: Option<crate::model::Anchor>,
}

pub(super) struct Resume {
    pub store: Store,
    pub progress: HashMap<String, LessonProgress>,
}

impl StoreOpening {
    /// Starts opening the store; `awaited` when the first frame waits for
    /// it, or it opens in the background, after that frame.
    pub(super) fn start(data_dir: Option<PathBuf>, awaited: bool) -> StoreOpening {
        let (course, wanted) = std::sync::mpsc::channel::<String>();
        let (early_tx, early) = std::sync::mpsc::channel();
        let spawn = if awaited {
            background::spawn_awaited
        } else {
            background::spawn
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

    /// Names the course whose progress to read once the store is open.
    pub(super) fn want(&self, course: &str) {
        let _ = self.course.send(course.to_owned());
    }

    /// The course's last lesson and the place in it, as soon as known.
    pub(super) fn early(&self) -> Early {
        self.early.recv().unwrap_or_default()
    }

    pub(super) fn finish(self) -> Resume {
        self.job
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}
