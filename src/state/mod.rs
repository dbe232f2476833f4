//! Everything the reader's screen shows, and the only place it changes.
//! No I/O here: loading, saving and the terminal are the runtime's, asked
//! for through [`Effect`]s; what it finds comes back as a [`Msg`].
//!
//! Each screen owns its state and its update: the reader (the page, its
//! search and its check), the contents, course search, review, stats,
//! help and the course picker. [`update`] routes an [`Action`] to the
//! screen that has the keys; [`receive`] applies a [`Msg`].

mod action;
mod attempt;
mod check;
mod contents;
mod copy;
mod course_search;
mod courses;
mod effect;
mod geometry;
mod help;
mod library;
mod line_edit;
mod links;
mod list;
mod msg;
pub mod notes;
mod open;
mod overlay;
mod page_keys;
pub mod pictures;
pub mod quizzes;
pub mod reader;
mod review;
mod rounds;
mod screens;
mod scrolled;
mod start;
mod stats;
mod synced;

pub use action::Action;
pub use contents::{
    Contents, TocRow, area as contents_area, offset as contents_offset, rows as contents_rows,
};
pub use contents::{cursor_row as contents_cursor_row, offset_at as contents_offset_at, rows_of};
pub use copy::{CopyPicker, Copyable};
pub use course_search::{COURSE_HITS, CourseHit, CourseSearch, Snippet};
pub use courses::Picker;
pub use effect::{Effect, PageText};
pub use geometry::{
    Area, CHROME_ROWS, Geometry, MAX_TEXT_WIDTH, MIN_HEIGHT, MIN_WIDTH, Size, TOC_SIDE_MIN_WIDTH,
    TOC_WIDTH, geometry,
};
pub use help::Help;
pub use library::{CourseView, Library};
pub use links::{Goes, LinkItem, LinkPicker};
pub use msg::{Edited, Msg, Opened};
pub use open::open as open_lesson;
pub use open::place_to_save;
pub use overlay::Overlay;
pub use reader::{Doc, Focus, Page, Reader};
pub use review::{Drill, DrillScope, Review, card_body, card_hint, shuffle};
pub use screens::{Screen, receive, update};
pub use start::Start;
pub use stats::StatsView;

use crate::model::{Course, LessonKey};

/// The preferences the reader was started with (and the mouse toggle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prefs {
    pub mouse: bool,
    /// The terminal's background is dark (code highlighting follows it).
    pub dark: bool,
    /// Whether pictures get room on the page (`images` is not off).
    pub pictures: bool,
    /// How they are drawn.
    pub drawing: pictures::Drawing,
    /// Misses that make a check stuck (the config's `stuck-after`).
    pub stuck_after: u32,
}

#[derive(Debug)]
pub struct State {
    pub library: Library,
    pub reader: Reader,
    pub contents: Contents,
    /// A screen over the page that has the keys until it is closed.
    pub overlay: Option<Overlay>,
    pub review: Option<Review>,
    pub size: Size,
    pub prefs: Prefs,
    /// One line for the footer, cleared by the next command.
    pub notice: Option<String>,
    pub quit: bool,
    /// Lessons left by following a link, for Backspace.
    pub link_back: Vec<usize>,
}

impl State {
    pub fn new(courses: Vec<Course>, width: u16, height: u16) -> State {
        State {
            library: Library::new(courses),
            reader: Reader::default(),
            contents: Contents::default(),
            overlay: None,
            review: None,
            size: Size { width, height },
            prefs: Prefs {
                mouse: true,
                dark: true,
                pictures: true,
                drawing: pictures::Drawing::Cells,
                stuck_after: crate::model::drill::STUCK_AFTER,
            },
            notice: None,
            quit: false,
            link_back: Vec::new(),
        }
    }

    pub fn course(&self) -> &Course {
        self.library.course()
    }

    pub fn geometry(&self) -> Geometry {
        geometry(self.size, self.contents.open)
    }

    /// The open lesson's key, if the page shows that lesson (not the one
    /// before it, still on screen while the next is asked for): what is
    /// read, answered, revealed and placed is always the page's lesson's.
    pub fn shown_key(&self) -> Option<LessonKey> {
        let doc = self.reader.doc()?;
        let key = self.lesson_key()?;
        (doc.lesson.meta.slug == key.lesson).then_some(key)
    }

    /// The open lesson as it was read, if the page shows it, for the index.
    pub fn page_text(&self) -> Option<PageText> {
        let read = self.reader.read.as_ref()?;
        let entry = self.course().lessons.get(self.reader.lesson)?;
        self.shown_key()
            .filter(|_| entry.origin == *read.origin())?;
        Some(PageText {
            read: read.clone(),
            lesson: self.reader.doc()?.lesson.clone(),
        })
    }

    pub fn lesson_key(&self) -> Option<LessonKey> {
        let course = self.library.courses.get(self.library.current)?;
        let entry = course.lessons.get(self.reader.lesson)?;
        Some(LessonKey {
            course: course.slug.clone(),
            lesson: entry.slug.clone(),
        })
    }

    /// Lays the open lesson out again for the current geometry.
    pub fn relayout(&mut self) {
        let g = self.geometry();
        self.reader.relayout(&g);
    }

    /// The review, while it has the screen.
    pub fn active_review(&self) -> Option<&Review> {
        self.review.as_ref().filter(|r| r.active())
    }
}

#[cfg(test)]
mod tests;
