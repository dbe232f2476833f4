//! What the reader's first frame is made of, worked out from what the
//! runner read: a lesson standing as its course, a large course's outline,
//! the lesson to open where the store says the learner left it.

use crate::effects::{Early, Runner};
use crate::index::Snapshot;
use crate::loader::{self, Library};
use crate::model::{Anchor, Course, LessonEntry, LessonStatus};
use crate::state::{CourseView, Msg};
use std::path::PathBuf;

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
    runner: &mut Runner,
    early: &mut Option<Early>,
    wanted: Option<&str>,
) -> Option<Looked> {
    let [dir] = paths else {
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
    runner.want_course(&look.course_slug);
    let left = early.insert(runner.early());
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
