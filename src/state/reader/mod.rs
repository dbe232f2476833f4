//! The reader: the open lesson, where the page is, its in-page search and
//! its check. Motions are clamped here so drawing is a pure function.

mod doc;
mod search;

pub use doc::{Doc, anchor_of, line_of};
pub use search::{Match, Search, find_all};

use super::check::CheckState;
use super::geometry::Geometry;
use crate::layout::Highlights;
use crate::model::{Anchor, Diagnostic, Lesson};

/// Which part of the reader has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    #[default]
    Page,
    /// The check question: its options take the arrow keys.
    Check,
    /// Typing an in-page search; `origin` is where the page was, to go
    /// back to on Esc.
    Search { origin: usize },
}

/// Where to go once the lesson being loaded arrives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pending {
    pub anchor: Option<Anchor>,
    pub search: Option<String>,
    pub check: bool,
}

#[derive(Debug, Default)]
pub struct Reader {
    /// Index of the open lesson in the course's reading order.
    pub lesson: usize,
    pub doc: Option<Doc>,
    /// Why the open lesson could not be shown.
    pub broken: Option<Diagnostic>,
    pub loading: bool,
    /// First page line on screen.
    pub top: usize,
    pub focus: Focus,
    pub search: Search,
    pub check: CheckState,
    pub pending: Pending,
    /// Whether this lesson has been marked read since it was opened.
    pub marked_read: bool,
    /// Digits typed on the page: a count for the next motion (`3j`),
    /// shown in the footer until a key uses or drops it.
    pub count: Option<u32>,
}

impl Reader {
    pub fn total(&self) -> usize {
        self.doc.as_ref().map_or(0, Doc::total)
    }

    pub fn partial(&self) -> bool {
        self.doc.as_ref().is_some_and(Doc::partial)
    }

    pub fn max_top(&self, g: &Geometry) -> usize {
        self.total().saturating_sub(g.rows())
    }

    pub fn set_top(&mut self, top: usize, g: &Geometry) {
        self.top = top.min(self.max_top(g));
    }

    pub fn scroll(&mut self, by: isize, g: &Geometry) {
        self.set_top(self.top.saturating_add_signed(by), g);
    }

    /// Scrolls so `line` is on screen with a little context above it.
    pub fn show_line(&mut self, line: usize, g: &Geometry) {
        let rows = g.rows();
        if line < self.top || line >= self.top + rows {
            let context = (rows / 4).min(3);
            self.set_top(line.saturating_sub(context), g);
        }
    }

    /// Percentage of the lesson above the bottom of the screen.
    pub fn read_percent(&self, g: &Geometry) -> u16 {
        let total = self.total();
        if total == 0 {
            return 0;
        }
        let seen = (self.top + g.rows()).min(total);
        (seen * 100 / total) as u16
    }

    /// Whether the end of the lesson is on screen.
    pub fn at_end(&self, g: &Geometry) -> bool {
        self.doc.is_some() && !self.partial() && self.top + g.rows() >= self.total()
    }

    /// The reading position as an anchor that survives re-wrapping.
    pub fn anchor(&self) -> Anchor {
        self.doc
            .as_ref()
            .map_or_else(Anchor::default, |d| d.anchor_of(self.top))
    }

    pub fn line_of(&self, anchor: Anchor, g: &Geometry) -> usize {
        self.doc
            .as_ref()
            .map_or(0, |d| d.line_of(anchor).min(self.max_top(g)))
    }

    /// Lays the lesson out again for `g` (from the cache when this width
    /// was seen before), keeping the anchor on top.
    pub fn relayout(&mut self, g: &Geometry) {
        let anchor = self.anchor();
        let marks = self.check.marks();
        if let Some(doc) = &mut self.doc {
            if !doc.set_width(g.text_width, &marks) {
                doc.relayout_check(&marks);
            }
        }
        self.search.refresh(self.doc.as_ref());
        self.top = self.line_of(anchor, g);
    }

    /// Shows or hides rust examples' hidden lines, where the reader is.
    pub fn toggle_hidden_lines(&mut self, g: &Geometry) {
        let Some(doc) = &self.doc else { return };
        let mut code = doc.code.clone();
        code.show_hidden = !code.show_hidden;
        let slug = doc.lesson.meta.slug.clone();
        self.set_code(&slug, code, g);
    }

    /// The check section alone: answering redraws only this.
    pub fn relayout_check(&mut self) {
        let marks = self.check.marks();
        if let Some(doc) = &mut self.doc {
            doc.relayout_check(&marks);
        }
        // Matches index lines by number: the check's lines just changed.
        self.search.refresh(self.doc.as_ref());
    }

    /// Shows `lesson` at the top of the page, laid out whole, or only to
    /// its first screen when `first_screen` (see [`Reader::finish_layout`]).
    pub fn show(&mut self, lesson: Lesson, g: &Geometry, first_screen: bool) {
        let marks = self.check.marks();
        self.doc = Some(if first_screen {
            // More lines than the screen holds: a partial page never
            // looks read to its end.
            Doc::first_screen(lesson, g.text_width, g.rows(), &marks)
        } else {
            Doc::new(lesson, g.text_width, &marks)
        });
    }

    /// Lays out the rest of a page drawn from its first screen; whether
    /// there was anything to do.
    pub fn finish_layout(&mut self) -> bool {
        let marks = self.check.marks();
        let done = self.doc.as_mut().is_some_and(|d| d.finish(&marks));
        if done {
            self.search.refresh(self.doc.as_ref());
        }
        done
    }

    /// Highlighted code arrived for lesson `slug`: lay out again with it.
    pub fn set_code(&mut self, slug: &str, code: Highlights, g: &Geometry) {
        if self.doc.as_ref().is_none_or(|d| d.lesson.meta.slug != slug) {
            return;
        }
        let anchor = self.anchor();
        let marks = self.check.marks();
        if let Some(doc) = &mut self.doc {
            doc.set_code(code, &marks);
        }
        self.search.refresh(self.doc.as_ref());
        self.top = self.line_of(anchor, g);
    }

    pub fn has_check(&self) -> bool {
        self.doc
            .as_ref()
            .is_some_and(|d| d.lesson.check().is_some_and(|c| !c.options.is_empty()))
    }

    /// Puts the check at the top of the screen and gives it the keys.
    pub fn jump_to_check(&mut self, g: &Geometry) {
        let Some(start) = self.doc.as_ref().map(Doc::check_start) else {
            return;
        };
        self.set_top(start, g);
        if self.has_check() {
            self.focus = Focus::Check;
        }
    }

    pub fn next_heading(&self) -> Option<usize> {
        let d = self.doc.as_ref()?;
        d.page
            .headings
            .iter()
            .copied()
            .chain(std::iter::once(d.check_start()))
            .find(|&h| h > self.top)
    }

    pub fn prev_heading(&self) -> usize {
        self.doc
            .as_ref()
            .and_then(|d| d.page.headings.iter().rev().find(|&&h| h < self.top))
            .copied()
            .unwrap_or(0)
    }

    /// Moves to the first match at or below the top.
    pub fn search_from_top(&mut self, g: &Geometry) {
        self.search.refresh(self.doc.as_ref());
        if let Some(line) = self.search.first_from(self.top) {
            self.show_line(line, g);
        }
    }

    /// Searches for `query` from the line on top.
    pub fn search_at_top(&mut self, query: String, g: &Geometry) {
        self.search.query = query;
        self.search_from_top(g);
    }

    /// Searches for `query` from the start of the lesson.
    pub fn search_for(&mut self, query: String, g: &Geometry) {
        self.search.query = query;
        self.search.refresh(self.doc.as_ref());
        if let Some(line) = self.search.first_from(0) {
            self.show_line(line, g);
        }
    }
}
