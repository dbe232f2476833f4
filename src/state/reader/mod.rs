//! The reader: the open lesson, where the page is, its in-page search and
//! its check. Motions are clamped here so drawing is a pure function.

mod doc;
mod page;
mod search;

pub use doc::{Doc, Keys, Placed, anchor_of, line_of};
pub use page::Page;
pub use search::{Match, Search, find_all};

use super::geometry::Geometry;
use crate::layout::Highlights;
use crate::model::{Anchor, CheckState, Lesson, LessonProgress};

/// Which part of the reader has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    #[default]
    Page,
    /// A check question (`Reader::current`): its options take the arrow
    /// keys.
    Check,
    /// Typing an answer into the current check.
    Answer,
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
    /// A check to open at, by its id (a misconception's, from the stats).
    pub check_id: Option<String>,
    /// A link's `#fragment`: the heading to open at.
    pub fragment: Option<String>,
}

#[derive(Debug, Default)]
pub struct Reader {
    /// Index of the open lesson in the course's reading order.
    pub lesson: usize,
    /// What the page shows: the open lesson (with its checks' states),
    /// why it could not be, or that it is on its way.
    pub page: Page,
    /// First page line on screen.
    pub top: usize,
    pub focus: Focus,
    pub search: Search,
    /// The check that has (or last had) the keys.
    pub current: usize,
    pub pending: Pending,
    /// Whether this lesson has been marked read since it was opened.
    pub marked_read: bool,
    /// Digits typed on the page: a count for the next motion (`3j`),
    /// shown in the footer until a key uses or drops it.
    pub count: Option<u32>,
    /// The open lesson's file as it was read, for the index to take its
    /// text from the page (see [`crate::loader::ReadStamp`]).
    pub read: Option<crate::loader::ReadStamp>,
    /// The learner's marks, highlights and notes, and those of this page
    /// placed on it.
    pub notes: super::notes::Notes,
    /// The page's pictures drawn so far, and those on their way.
    pub pictures: super::pictures::Pictures,
}

impl Reader {
    /// The open lesson, if the page shows one.
    pub fn doc(&self) -> Option<&Doc> {
        self.page.doc()
    }

    /// The page turns to `page`: the one place a page opens, so nothing
    /// of the one before (where it was, its search, its focus) stays.
    pub fn turn_to(&mut self, page: Page) {
        self.page = page;
        self.top = 0;
        self.focus = Focus::Page;
        self.search = Search::default();
        self.current = 0;
        self.marked_read = false;
        self.read = None;
    }

    /// A lesson is asked for: the page says so unless it shows one.
    pub fn asked(&mut self) {
        if matches!(self.page, Page::Closed) {
            self.page = Page::Loading;
        }
    }

    pub fn total(&self) -> usize {
        self.doc().map_or(0, Doc::total)
    }

    pub fn partial(&self) -> bool {
        self.doc().is_some_and(Doc::partial)
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
        self.doc().is_some() && !self.partial() && self.top + g.rows() >= self.total()
    }

    /// The reading position as an anchor that survives re-wrapping.
    pub fn anchor(&self) -> Anchor {
        self.doc()
            .map_or_else(Anchor::default, |d| d.anchor_of(self.top))
    }

    pub fn line_of(&self, anchor: Anchor, g: &Geometry) -> usize {
        self.doc()
            .map_or(0, |d| d.line_of(anchor).min(self.max_top(g)))
    }

    /// Lays the lesson out again for `g` (from the cache when this width
    /// was seen before), keeping the anchor on top.
    pub fn relayout(&mut self, g: &Geometry) {
        let anchor = self.anchor();
        let inside = self.in_check();
        let keys = self.keys();
        if let Some(doc) = self.page.doc_mut() {
            if !doc.set_width(g.text_width, keys) {
                doc.relayout_checks(keys);
            }
        }
        self.search.refresh(self.page.doc());
        self.top = self.line_of(anchor, g);
        self.back_in_check(inside, g);
    }

    /// The check the top line is in, and how far down in it: a check's
    /// lines have no page anchor, so a re-layout finds them by this.
    fn in_check(&self) -> Option<(usize, usize)> {
        self.doc()?.check_at(self.top)
    }

    fn back_in_check(&mut self, inside: Option<(usize, usize)>, g: &Geometry) {
        let start = inside.and_then(|(k, l)| Some(self.doc()?.check_start(k)? + l));
        if let Some(line) = start {
            self.set_top(line, g);
        }
    }

    /// Shows or hides rust examples' hidden lines, where the reader is.
    pub fn toggle_hidden_lines(&mut self, g: &Geometry) {
        self.change_view(g, |code| code.show_hidden = !code.show_hidden);
    }

    /// Opens or closes the page's folded text (`details`), where the
    /// reader is.
    pub fn toggle_folds(&mut self, g: &Geometry) {
        self.change_view(g, |code| code.open_folds = !code.open_folds);
    }

    fn change_view(&mut self, g: &Geometry, change: impl FnOnce(&mut Highlights)) {
        let Some(doc) = self.doc() else { return };
        let mut code = doc.code.clone();
        change(&mut code);
        let slug = doc.lesson.meta.slug.clone();
        self.set_code(&slug, code, g);
    }

    /// The check that has the keys (to choose or to type), if one has.
    pub fn keys(&self) -> Option<Keys> {
        matches!(self.focus, Focus::Check | Focus::Answer).then_some(Keys {
            check: self.current,
            typing: self.focus == Focus::Answer,
        })
    }

    /// Whether the check that has the keys takes several answers.
    pub fn current_is_multi(&self) -> bool {
        self.doc()
            .and_then(|d| d.lesson.checks.get(self.current))
            .is_some_and(|c| c.is_multi())
    }

    /// The state of the check that has the keys.
    pub fn check(&self) -> Option<&CheckState> {
        self.state(self.current)
    }

    /// What the reader has done with the open lesson's check `k`.
    pub fn state(&self, k: usize) -> Option<&CheckState> {
        self.doc()?.state(k)
    }

    pub fn state_mut(&mut self, k: usize) -> Option<&mut CheckState> {
        self.page.doc_mut()?.state_mut(k)
    }

    /// The current check alone: answering redraws only this.
    pub fn relayout_check(&mut self) {
        let (k, keys) = (self.current, self.keys());
        if let Some(doc) = self.page.doc_mut() {
            doc.relayout_check(k, keys);
        }
        // Matches index lines by number: the check's lines just changed.
        self.search.refresh(self.page.doc());
    }

    /// Opens `lesson` at the top of the page, its checks as `progress`
    /// left them, laid out whole, or only to its first screen when
    /// `first_screen` (see [`Reader::finish_layout`]).
    pub fn show(
        &mut self,
        lesson: Lesson,
        progress: &LessonProgress,
        g: &Geometry,
        first_screen: bool,
        pictures: bool,
    ) {
        let doc = if first_screen {
            // More lines than the screen holds: a partial page never
            // looks read to its end.
            Doc::first_screen(lesson, progress, g.text_width, g.rows(), pictures)
        } else {
            Doc::new(lesson, progress, g.text_width, pictures)
        };
        self.turn_to(Page::Open(Box::new(doc)));
    }

    /// The store's `progress` for the open lesson arrived: its checks as
    /// it left them.
    pub fn resume(&mut self, progress: &LessonProgress) {
        let keys = self.keys();
        if let Some(doc) = self.page.doc_mut() {
            doc.resume(progress, keys);
        }
    }

    /// Lays out the rest of a page drawn from its first screen; whether
    /// there was anything to do.
    pub fn finish_layout(&mut self) -> bool {
        let keys = self.keys();
        let done = self.page.doc_mut().is_some_and(|d| d.finish(keys));
        if done {
            self.search.refresh(self.page.doc());
        }
        done
    }

    /// Highlighted code arrived for lesson `slug`: lay out again with it.
    pub fn set_code(&mut self, slug: &str, code: Highlights, g: &Geometry) {
        if self.doc().is_none_or(|d| d.lesson.meta.slug != slug) {
            return;
        }
        let anchor = self.anchor();
        let inside = self.in_check();
        let keys = self.keys();
        if let Some(doc) = self.page.doc_mut() {
            doc.set_code(code, keys);
        }
        self.search.refresh(self.page.doc());
        self.top = self.line_of(anchor, g);
        self.back_in_check(inside, g);
    }

    /// Whether the open lesson has a check that can be answered.
    pub fn has_check(&self) -> bool {
        self.doc()
            .is_some_and(|d| d.lesson.checks.iter().any(|c| c.answerable()))
    }

    /// The focused check, else the first check on screen or below it.
    pub fn focus_or_visible(&self, g: &Geometry) -> usize {
        if matches!(self.focus, Focus::Check | Focus::Answer) {
            return self.current;
        }
        self.check_below(g).unwrap_or(self.current)
    }

    /// The first check whose lines reach the screen or lie below it (one
    /// whose start is above the top but still shows counts).
    fn check_below(&self, _g: &Geometry) -> Option<usize> {
        let d = self.doc()?;
        d.checks
            .iter()
            .zip(d.check_starts())
            .find(|(c, (_, start))| start + c.layout.lines.len() > self.top + 1)
            .map(|(c, _)| c.index)
    }

    /// `c`: the next check below the reading position (from a focused
    /// check, the one after it), wrapping to the first; it gets the keys.
    pub fn next_check(&mut self, g: &Geometry) {
        let Some(d) = self.doc() else { return };
        let starts = d.check_starts();
        if starts.is_empty() {
            return;
        }
        // From a check answered where it was put on top (the focus left
        // it), the next one.
        let on_top = d.check_start(self.current).map(|l| l.min(self.max_top(g))) == Some(self.top)
            && d.state(self.current).is_some_and(CheckState::answered);
        let next = if self.focus == Focus::Check || on_top {
            let at = starts.iter().position(|&(k, _)| k == self.current);
            at.map_or(0, |i| (i + 1) % starts.len())
        } else {
            self.check_below(g)
                .and_then(|k| starts.iter().position(|&(i, _)| i == k))
                .unwrap_or(0)
        };
        let k = starts[next].0;
        self.show_check(k, g);
    }

    /// Puts check `k` at the top of the screen and gives it the keys.
    pub fn show_check(&mut self, k: usize, g: &Geometry) {
        if self.doc().and_then(|d| d.check_start(k)).is_none() {
            return;
        }
        let answerable = self
            .doc()
            .and_then(|d| d.lesson.checks.get(k))
            .is_some_and(|c| c.answerable());
        if answerable {
            if self.current != k {
                // The cursor belongs to the check that had the keys.
                if let Some(c) = self.state_mut(self.current) {
                    c.cursor = None;
                }
                let old = self.current;
                self.current = k;
                let keys = self.keys();
                if let Some(doc) = self.page.doc_mut() {
                    doc.relayout_check(old, keys);
                }
            }
            // An answered check shows its answer; digits stay counts.
            let answered = self.state(k).is_none_or(CheckState::answered);
            if self.focus != Focus::Answer && !answered {
                self.focus = Focus::Check;
            }
            // Its title marks the focus.
            self.relayout_check();
        }
        // Where it starts once the checks above it are laid out again.
        if let Some(start) = self.doc().and_then(|d| d.check_start(k)) {
            self.set_top(start, g);
        }
    }

    /// Puts the first check (or the end of the page, without one) on top.
    pub fn jump_to_check(&mut self, g: &Geometry) {
        let first = self
            .doc()
            .and_then(|d| d.check_starts().first().map(|&(k, _)| k));
        match first {
            Some(k) => self.show_check(k, g),
            None => {
                let end = self.total();
                self.set_top(end, g);
            }
        }
    }

    pub fn next_heading(&self) -> Option<usize> {
        let d = self.doc()?;
        let mut lines = d.heading_lines();
        lines.extend(d.check_starts().into_iter().map(|(_, l)| l));
        lines.sort_unstable();
        lines.into_iter().find(|&h| h > self.top)
    }

    pub fn prev_heading(&self) -> usize {
        let Some(d) = self.doc() else { return 0 };
        let mut lines = d.heading_lines();
        lines.extend(d.check_starts().into_iter().map(|(_, l)| l));
        lines.sort_unstable();
        lines.into_iter().rev().find(|&h| h < self.top).unwrap_or(0)
    }

    /// Moves to the first match at or below the top.
    pub fn search_from_top(&mut self, g: &Geometry) {
        self.search.refresh(self.page.doc());
        if let Some(line) = self.search.first_from(self.top) {
            self.show_line(line, g);
        }
    }

    /// Searches for `query` from the line on top.
    pub fn search_at_top(&mut self, query: String, g: &Geometry) {
        self.search.query = query;
        self.search_from_top(g);
    }

    /// A search that found nothing on the page is tried again with the
    /// folds open: `true`, and the folds left open, if it finds it there.
    pub fn search_in_folds(&mut self, g: &Geometry) -> bool {
        let closed = self
            .doc()
            .is_some_and(|d| !d.code.open_folds && d.lesson.has_folds());
        if !closed {
            return false;
        }
        self.toggle_folds(g);
        self.search_from_top(g);
        if self.search.hits.is_empty() {
            self.toggle_folds(g);
            return false;
        }
        true
    }

    /// Searches for `query` from the start of the lesson.
    pub fn search_for(&mut self, query: String, g: &Geometry) {
        self.search.query = query;
        self.search.refresh(self.page.doc());
        if let Some(line) = self.search.first_from(0) {
            self.show_line(line, g);
        }
    }
}
