//! The courses open in this session, which one is shown, and what the
//! learner has done in it.

use crate::model::{Course, LessonProgress};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// How much of the open course is known. The first frame is drawn before
/// a course is read whole when that is faster (see `tui::boot`); the
/// header leaves out where the lesson stands until it is `Full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CourseView {
    #[default]
    Full,
    /// A lesson named alone stands as its own course until its folder is
    /// read.
    Alone,
    /// A large course starts from an outline of one lesson; `place` is
    /// where that lesson stood in the listing it was found in, so that if
    /// the course no longer has it, the lesson now in that place opens.
    Outline { place: usize },
}

#[derive(Debug, Default)]
pub struct Library {
    /// Shared with the work that reads the store for them (the review,
    /// the stats, the shelf), which then needs no copy of a course.
    pub courses: Vec<Arc<Course>>,
    /// Index of the open course.
    pub current: usize,
    /// Progress of the open course's lessons, by slug.
    pub progress: HashMap<String, LessonProgress>,
    pub view: CourseView,
    /// Whether the open course's search index is complete.
    pub index_ready: bool,
    /// Lessons indexed of those to index, while indexing runs.
    pub indexing: Option<(usize, usize)>,
    /// Lesson files of the open course's folder read of all, while its
    /// whole listing is read after a first look (see
    /// [`crate::loader::first_look`]).
    pub reading: Option<(usize, usize)>,
}

/// Where the open lesson went when the courses were read again.
pub enum Placed {
    /// At this index of the open course.
    At(usize),
    /// Gone: the lesson now at this index takes its place.
    Replaced(usize),
    /// The course has no lessons left.
    Empty,
}

impl Library {
    pub fn new(courses: Vec<Course>) -> Library {
        Library {
            courses: courses.into_iter().map(Arc::new).collect(),
            ..Library::default()
        }
    }

    pub fn course(&self) -> &Course {
        &self.courses[self.current]
    }

    pub fn is_full(&self) -> bool {
        self.view == CourseView::Full
    }

    /// A folder's courses replaced by a newer reading of them; the open
    /// course and lesson (`slug`, at `lesson`) are kept by slug.
    pub fn refresh(
        &mut self,
        dir: &Path,
        fresh: Vec<Course>,
        slug: Option<&str>,
        lesson: usize,
    ) -> Placed {
        let place = match std::mem::take(&mut self.view) {
            CourseView::Outline { place } => place,
            _ => lesson,
        };
        let course_slug = self.course().slug.clone();
        // A folder emptied under the reader keeps what it showed: its
        // lessons then say they cannot be read.
        let emptied =
            fresh.is_empty() && self.courses.iter().all(|c| c.root.as_deref() == Some(dir));
        if !emptied {
            let mut fresh = Some(fresh);
            let mut courses = Vec::with_capacity(self.courses.len());
            for c in std::mem::take(&mut self.courses) {
                if c.root.as_deref() == Some(dir) {
                    courses.extend(fresh.take().unwrap_or_default().into_iter().map(Arc::new));
                } else {
                    courses.push(c);
                }
            }
            self.courses = courses;
        }
        self.current = self
            .courses
            .iter()
            .position(|c| c.slug == course_slug)
            .unwrap_or(0);
        self.index_ready = false;
        self.indexing = None;
        self.reading = None;
        let n = self.course().lessons.len();
        match slug.and_then(|slug| self.course().index_of(slug)) {
            Some(i) => Placed::At(i),
            None if n > 0 => Placed::Replaced(place.min(n - 1)),
            None => Placed::Empty,
        }
    }

    /// The lesson opened alone takes its place in its courses; whether
    /// `start` was found in them.
    pub fn read(&mut self, courses: Vec<Course>, start: Option<(usize, usize)>) -> Option<usize> {
        self.view = CourseView::Full;
        let (course, lesson) =
            start.filter(|&(c, l)| courses.get(c).is_some_and(|c| l < c.lessons.len()))?;
        self.courses = courses.into_iter().map(Arc::new).collect();
        self.current = course;
        Some(lesson)
    }
}
