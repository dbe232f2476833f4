//! Everything the reader's screen shows, and the only place it changes
//! (`update`). No I/O here: loading, saving and the terminal are the
//! runtime's, asked for through [`Effect`]s.

pub mod action;
pub mod keymap;
mod quiz;
pub mod review;
mod search;
pub mod toc;
mod update;

pub use action::{Action, Effect};
pub use keymap::Mode;
pub use search::{COURSE_HITS, CourseHit, CourseSearch, Search, course_hits};
pub use update::{open as open_lesson, update};

use crate::layout::{self, CheckMarks, Highlights, Line, Page};
use crate::model::{Anchor, Course, Lesson};
use crate::store::LessonProgress;
use std::collections::HashMap;

/// The header and footer rows.
pub const CHROME_ROWS: u16 = 2;
/// Narrower or shorter than this, the screen only says it is too small.
pub const MIN_WIDTH: u16 = 20;
pub const MIN_HEIGHT: u16 = 5;
/// The table of contents sits beside the page from this width; below it
/// is an overlay.
pub const TOC_SIDE_MIN_WIDTH: u16 = 100;
pub const TOC_WIDTH: u16 = 34;
/// Longer lines are hard to read: the page is never wider than this.
pub const MAX_TEXT_WIDTH: u16 = 100;

/// A lesson as the runtime hands it over after loading.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    pub index: usize,
    pub lesson: Result<Lesson, String>,
    pub progress: LessonProgress,
}

/// The open lesson with its layout for the current width.
#[derive(Debug)]
pub struct Doc {
    pub lesson: Lesson,
    pub code: Highlights,
    pub page: Page,
    pub check: Vec<Line>,
    /// Pages already laid out, by width, so flipping sizes is free.
    cache: HashMap<u16, Page>,
}

impl Doc {
    pub fn total(&self) -> usize {
        self.page.lines.len() + self.check.len()
    }

    pub fn line(&self, i: usize) -> Option<&Line> {
        let n = self.page.lines.len();
        if i < n {
            self.page.lines.get(i)
        } else {
            self.check.get(i - n)
        }
    }

    pub fn check_start(&self) -> usize {
        self.page.lines.len()
    }
}

/// Screen geometry derived from the terminal size; the UI draws with the
/// same numbers the state scrolls with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub toc_side: bool,
    /// Columns left of the page text (TOC pane plus margin).
    pub page_x: u16,
    pub text_width: u16,
    pub rows: u16,
}

pub fn geometry(width: u16, height: u16, toc_open: bool) -> Geometry {
    let toc_side = toc_open && width >= TOC_SIDE_MIN_WIDTH;
    let pane = if toc_side { TOC_WIDTH } else { 0 };
    let avail = width.saturating_sub(pane);
    let margin = if avail >= 60 { 2 } else { 1 };
    let text_width = avail.saturating_sub(2 * margin).clamp(1, MAX_TEXT_WIDTH);
    Geometry {
        toc_side,
        page_x: pane + margin,
        text_width,
        rows: height.saturating_sub(CHROME_ROWS).max(1),
    }
}

#[derive(Debug)]
pub struct State {
    pub courses: Vec<Course>,
    pub course: usize,
    /// Index of the open lesson in the course's reading order.
    pub lesson: usize,
    pub doc: Option<Doc>,
    /// Why the open lesson could not be shown.
    pub broken: Option<String>,
    pub loading: bool,
    pub width: u16,
    pub height: u16,
    /// First page line on screen.
    pub top: usize,
    pub mode: Mode,
    /// The mode to return to from overlays.
    pub base_mode: Mode,
    pub toc_open: bool,
    pub toc_cursor: usize,
    pub search: Search,
    pub course_search: CourseSearch,
    pub quiz: CheckMarks,
    /// Progress of the open course's lessons, by slug.
    pub progress: HashMap<String, LessonProgress>,
    pub notice: Option<String>,
    pub mouse: bool,
    pub dark: bool,
    pub quit: bool,
    /// Where to go once the lesson being loaded arrives.
    pub pending_anchor: Option<Anchor>,
    pub pending_search: Option<String>,
    pub pending_check: bool,
    /// Whether this lesson has been marked read since it was opened.
    pub marked_read: bool,
    pub review: Option<review::Review>,
    /// Review figures for the stats screen, fetched when it opens.
    pub reviews: Option<crate::stats::Reviews>,
    /// Cursor in the course picker.
    pub course_cursor: usize,
    /// First row of the help screen shown.
    pub help_top: usize,
    /// Where the page was when a search prompt opened, to return to on Esc.
    pub search_origin: Option<usize>,
    /// The open lesson stands alone in `courses` (a lesson named alone, or
    /// the outline of a large course) until its course is read, just after
    /// the first frame: where it is in that course is not known yet.
    pub course_pending: bool,
    /// Where the open lesson stood in its course by the listing it was
    /// found in, while `course_pending`: if the course no longer has it,
    /// the lesson now in that place opens.
    pub pending_place: usize,
}

impl State {
    pub fn new(courses: Vec<Course>, width: u16, height: u16) -> State {
        State {
            courses,
            course: 0,
            lesson: 0,
            doc: None,
            broken: None,
            loading: false,
            width,
            height,
            top: 0,
            mode: Mode::Reading,
            base_mode: Mode::Reading,
            toc_open: false,
            toc_cursor: 0,
            search: Search::default(),
            course_search: CourseSearch::default(),
            quiz: CheckMarks::default(),
            progress: HashMap::new(),
            notice: None,
            mouse: true,
            dark: true,
            quit: false,
            pending_anchor: None,
            pending_search: None,
            pending_check: false,
            marked_read: false,
            review: None,
            reviews: None,
            course_cursor: 0,
            help_top: 0,
            search_origin: None,
            course_pending: false,
            pending_place: 0,
        }
    }

    pub fn course(&self) -> &Course {
        &self.courses[self.course]
    }

    pub fn geometry(&self) -> Geometry {
        geometry(self.width, self.height, self.toc_open)
    }

    pub fn too_small(&self) -> bool {
        self.width < MIN_WIDTH || self.height < MIN_HEIGHT
    }

    pub fn rows(&self) -> usize {
        usize::from(self.geometry().rows)
    }

    pub fn total(&self) -> usize {
        self.doc.as_ref().map_or(0, Doc::total)
    }

    pub fn max_top(&self) -> usize {
        self.total().saturating_sub(self.rows())
    }

    /// Percentage of the lesson above the bottom of the screen.
    pub fn read_percent(&self) -> u16 {
        let total = self.total();
        if total == 0 {
            return 0;
        }
        let seen = (self.top + self.rows()).min(total);
        (seen * 100 / total) as u16
    }

    /// The reading position as an anchor that survives re-wrapping.
    pub fn anchor(&self) -> Anchor {
        let Some(doc) = &self.doc else {
            return Anchor::default();
        };
        anchor_of(&doc.page, self.top)
    }

    pub fn line_of(&self, anchor: Anchor) -> usize {
        let Some(doc) = &self.doc else { return 0 };
        line_of(&doc.page, anchor).min(self.max_top())
    }

    /// Lays the open lesson out again for the current width (from the
    /// cache when this width was seen before), keeping the anchor on top.
    pub fn relayout(&mut self) {
        let anchor = self.anchor();
        let width = self.geometry().text_width;
        if let Some(doc) = &mut self.doc {
            if doc.page.width != width {
                let old = std::mem::take(&mut doc.page);
                if !old.partial {
                    doc.cache.insert(old.width, old);
                }
                doc.page = doc
                    .cache
                    .remove(&width)
                    .unwrap_or_else(|| layout::page(&doc.lesson, width, &doc.code));
                // A handful of widths is plenty; drop the rest.
                if doc.cache.len() > 4 {
                    doc.cache.clear();
                }
            }
        }
        self.relayout_check();
        self.search.refresh(self.doc.as_ref());
        self.top = self.line_of(anchor);
    }

    /// The check section alone: answering redraws only this.
    pub fn relayout_check(&mut self) {
        let width = self.geometry().text_width;
        if let Some(doc) = &mut self.doc {
            doc.check = layout::check_lines(doc.lesson.check.as_ref(), width, &self.quiz).lines;
        }
        // Matches index lines by number: the check's lines just changed.
        self.search.refresh(self.doc.as_ref());
    }

    pub fn set_doc(&mut self, lesson: Lesson) {
        let width = self.geometry().text_width;
        let page = layout::page(&lesson, width, &Highlights::default());
        self.install(lesson, page);
        self.relayout_check();
    }

    /// Like [`State::set_doc`] with the page at its top, but laid out only
    /// as far as the screen reaches: the rest, and the check, follow from
    /// [`State::finish_layout`] once this screen is drawn.
    pub fn set_doc_first_screen(&mut self, lesson: Lesson) {
        let width = self.geometry().text_width;
        // More lines than the screen holds: a partial page never looks
        // read to its end.
        let page = layout::first_lines(&lesson, width, &Highlights::default(), self.rows());
        let partial = page.partial;
        self.install(lesson, page);
        if !partial {
            self.relayout_check();
        }
    }

    fn install(&mut self, lesson: Lesson, page: Page) {
        self.doc = Some(Doc {
            lesson,
            code: Highlights::default(),
            page,
            check: Vec::new(),
            cache: HashMap::new(),
        });
    }

    /// Whether the open lesson is laid out only as far as its first screen.
    pub fn partial(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| d.page.partial)
    }

    /// Lays out the rest of a page drawn from its first screen; whether
    /// there was anything to do.
    pub fn finish_layout(&mut self) -> bool {
        let Some(doc) = self.doc.as_mut().filter(|d| d.page.partial) else {
            return false;
        };
        doc.page = layout::page(&doc.lesson, doc.page.width, &doc.code);
        self.relayout_check();
        true
    }

    /// Highlighted code arrived: lay out again with it (same anchor).
    pub fn set_code(&mut self, code: Highlights) {
        let anchor = self.anchor();
        let width = self.geometry().text_width;
        let mut was_partial = false;
        if let Some(doc) = &mut self.doc {
            doc.code = code;
            doc.cache.clear();
            was_partial = doc.page.partial;
            doc.page = layout::page(&doc.lesson, width, &doc.code);
        }
        if was_partial {
            // The page is whole now; its check was waiting for that.
            self.relayout_check();
        } else {
            self.search.refresh(self.doc.as_ref());
        }
        self.top = self.line_of(anchor);
    }

    pub fn lesson_key(&self) -> Option<(String, String)> {
        let course = self.courses.get(self.course)?;
        let entry = course.lessons.get(self.lesson)?;
        Some((course.slug.clone(), entry.slug.clone()))
    }
}

pub fn anchor_of(page: &Page, top: usize) -> Anchor {
    if top >= page.lines.len() {
        return Anchor {
            block: page.blocks.len() as u32,
            line: (top - page.lines.len()) as u32,
        };
    }
    let k = page
        .blocks
        .partition_point(|&start| start <= top)
        .saturating_sub(1);
    let start = page.blocks.get(k).copied().unwrap_or(0);
    Anchor {
        block: k as u32,
        line: (top - start) as u32,
    }
}

pub fn line_of(page: &Page, anchor: Anchor) -> usize {
    let k = anchor.block as usize;
    let line = anchor.line as usize;
    match page.blocks.get(k) {
        Some(&start) => {
            let end = page.blocks.get(k + 1).copied().unwrap_or(page.lines.len());
            (start + line).min(end.saturating_sub(1).max(start))
        }
        None => page.lines.len() + line,
    }
}

#[cfg(test)]
mod tests;
