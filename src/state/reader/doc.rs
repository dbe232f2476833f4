//! The open lesson with its layout for the current width, and the
//! anchors that carry a reading position across re-wraps.

use crate::layout::{self, CheckLayout, CheckMarks, Highlights, Line, Page};
use crate::model::{Anchor, Lesson};
use std::collections::HashMap;

/// A handful of widths is plenty: flipping between two sizes is free.
const CACHED_WIDTHS: usize = 4;

#[derive(Debug)]
pub struct Doc {
    pub lesson: Lesson,
    pub code: Highlights,
    pub page: Page,
    pub check: CheckLayout,
    /// Pages already laid out, by width.
    cache: HashMap<u16, Page>,
}

impl Doc {
    /// The lesson laid out whole at `width`.
    pub fn new(lesson: Lesson, width: u16, marks: &CheckMarks) -> Doc {
        let page = layout::page(&lesson, width, &Highlights::default());
        let mut doc = Doc::from_page(lesson, page);
        doc.relayout_check(marks);
        doc
    }

    /// The lesson laid out only as far as `rows` reach (a page that looks
    /// read to its end is never partial); [`Doc::finish`] does the rest.
    pub fn first_screen(lesson: Lesson, width: u16, rows: usize, marks: &CheckMarks) -> Doc {
        let page = layout::first_lines(&lesson, width, &Highlights::default(), rows);
        let partial = page.partial;
        let mut doc = Doc::from_page(lesson, page);
        if !partial {
            doc.relayout_check(marks);
        }
        doc
    }

    fn from_page(lesson: Lesson, page: Page) -> Doc {
        Doc {
            lesson,
            code: Highlights::default(),
            page,
            check: CheckLayout::default(),
            cache: HashMap::new(),
        }
    }

    pub fn total(&self) -> usize {
        self.page.lines.len() + self.check.lines.len()
    }

    pub fn line(&self, i: usize) -> Option<&Line> {
        let n = self.page.lines.len();
        if i < n {
            self.page.lines.get(i)
        } else {
            self.check.lines.get(i - n)
        }
    }

    pub fn check_start(&self) -> usize {
        self.page.lines.len()
    }

    pub fn partial(&self) -> bool {
        self.page.partial
    }

    /// The check section alone: answering redraws only this.
    pub fn relayout_check(&mut self, marks: &CheckMarks) {
        self.check = layout::check_lines(self.lesson.check(), self.page.width, marks);
    }

    /// Lays the page out for `width`, from the cache when it was seen.
    /// Whether anything changed.
    pub fn set_width(&mut self, width: u16, marks: &CheckMarks) -> bool {
        if self.page.width == width {
            return false;
        }
        let old = std::mem::take(&mut self.page);
        if !old.partial {
            self.cache.insert(old.width, old);
        }
        self.page = self
            .cache
            .remove(&width)
            .unwrap_or_else(|| layout::page(&self.lesson, width, &self.code));
        if self.cache.len() > CACHED_WIDTHS {
            self.cache.clear();
        }
        self.relayout_check(marks);
        true
    }

    /// Lays out the rest of a page drawn from its first screen; whether
    /// there was anything to do.
    pub fn finish(&mut self, marks: &CheckMarks) -> bool {
        if !self.page.partial {
            return false;
        }
        self.page = layout::page(&self.lesson, self.page.width, &self.code);
        self.relayout_check(marks);
        true
    }

    /// Highlighted code arrived: lay out again with it.
    pub fn set_code(&mut self, code: Highlights, marks: &CheckMarks) {
        self.code = code;
        self.cache.clear();
        let was_partial = self.page.partial;
        self.page = layout::page(&self.lesson, self.page.width, &self.code);
        if was_partial {
            // The page is whole now; its check was waiting for that.
            self.relayout_check(marks);
        }
    }

    pub fn anchor_of(&self, top: usize) -> Anchor {
        anchor_of(&self.page, top)
    }

    pub fn line_of(&self, anchor: Anchor) -> usize {
        line_of(&self.page, anchor)
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
