//! The open lesson with what the reader has done with each of its
//! checks, its layout for the current width, and the anchors that carry
//! a reading position across re-wraps.
//!
//! The page and its checks are laid out apart, so answering one check
//! redraws only that check; each check stands before the page line of
//! the block it is anchored at. A "doc line" counts the page's lines and
//! the checks' lines in reading order; a page line counts the page's only.

use crate::layout::{self, CheckLayout, CheckView, Highlights, Line, Page};
use crate::model::{Anchor, CheckState, Lesson, LessonProgress};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// A handful of widths is plenty: flipping between two sizes is free.
const CACHED_WIDTHS: usize = 4;

/// One check laid out, and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Which of the lesson's checks.
    pub index: usize,
    /// The page line it stands before (the page's length: after it).
    pub at: usize,
    pub layout: CheckLayout,
}

/// The check that has the keys, as its title and its prompt are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    /// Which of the lesson's checks.
    pub check: usize,
    /// An answer is being typed into it.
    pub typing: bool,
}

#[derive(Debug)]
pub struct Doc {
    /// Shared with the work that runs beside the page (highlighting, the
    /// index's text of it), which then needs no copy of it.
    pub lesson: Arc<Lesson>,
    /// One per check of the lesson, in its order: made with the lesson,
    /// so there is never a state without its check or a check without.
    states: Vec<CheckState>,
    pub code: Highlights,
    pub page: Page,
    /// The checks laid out so far, in reading order (a partial page has
    /// only those its lines reach).
    pub checks: Vec<Placed>,
    /// Pages already laid out, by width.
    cache: HashMap<u16, Page>,
}

impl Doc {
    /// The lesson laid out whole at `width`, its checks as `progress`
    /// left them.
    pub fn new(lesson: Lesson, progress: &LessonProgress, width: u16, pictures: bool) -> Doc {
        let code = room(pictures);
        let page = layout::page(&lesson, width, &code);
        Doc::from_page(lesson, progress, page, code)
    }

    /// The lesson laid out only as far as `rows` reach (a page that looks
    /// read to its end is never partial); [`Doc::finish`] does the rest.
    /// Only the checks standing in those lines are laid out with it.
    pub fn first_screen(
        lesson: Lesson,
        progress: &LessonProgress,
        width: u16,
        rows: usize,
        pictures: bool,
    ) -> Doc {
        let code = room(pictures);
        let page = layout::first_lines(&lesson, width, &code, rows);
        Doc::from_page(lesson, progress, page, code)
    }

    /// Where the page's pictures are drawn, in page order.
    pub fn pictures(&self) -> &[layout::PicturePlace] {
        &self.page.pictures
    }

    /// A page just opened: no check has the keys.
    fn from_page(lesson: Lesson, progress: &LessonProgress, page: Page, code: Highlights) -> Doc {
        let mut doc = Doc {
            states: CheckState::all_resumed(&lesson.checks, progress),
            lesson: Arc::new(lesson),
            code,
            page,
            checks: Vec::new(),
            cache: HashMap::new(),
        };
        doc.relayout_checks(None);
        doc
    }

    /// What the reader has done with check `k`.
    pub fn state(&self, k: usize) -> Option<&CheckState> {
        self.states.get(k)
    }

    pub fn state_mut(&mut self, k: usize) -> Option<&mut CheckState> {
        self.states.get_mut(k)
    }

    /// Every check's state, in the lesson's order.
    pub fn states(&self) -> &[CheckState] {
        &self.states
    }

    /// The checks as the store's `progress` left them (arriving after the
    /// page was drawn from none), laid out again.
    pub fn resume(&mut self, progress: &LessonProgress, keys: Option<Keys>) {
        self.states = CheckState::all_resumed(&self.lesson.checks, progress);
        self.relayout_checks(keys);
    }

    /// How check `index` is drawn when `keys` has the keys.
    fn view(&self, index: usize, keys: Option<Keys>) -> CheckView {
        let focused = keys.filter(|k| k.check == index);
        CheckView {
            index,
            count: self.states.len(),
            typing: focused.is_some_and(|k| k.typing),
            focused: focused.is_some(),
            ..CheckView::default()
        }
    }

    pub fn total(&self) -> usize {
        self.page.lines.len()
            + self
                .checks
                .iter()
                .map(|c| c.layout.lines.len())
                .sum::<usize>()
    }

    /// Doc line `i`: a page line (made from the compact page) or a check's.
    pub fn line(&self, i: usize) -> Option<Cow<'_, Line>> {
        match self.locate(i) {
            Spot::Page(p) => self.page.lines.get(p).map(Cow::Owned),
            Spot::Check(k, l) => self.checks[k].layout.lines.get(l).map(Cow::Borrowed),
        }
    }

    /// Doc line `i`'s text: a page line's without making the line.
    pub fn line_text(&self, i: usize) -> Option<Cow<'_, str>> {
        match self.locate(i) {
            Spot::Page(p) => self.page.lines.text(p).map(Cow::Borrowed),
            Spot::Check(k, l) => self.checks[k].layout.lines.get(l).map(|l| l.text().into()),
        }
    }

    /// Where doc line `i` is.
    fn locate(&self, i: usize) -> Spot {
        let mut before = 0;
        for (k, c) in self.checks.iter().enumerate() {
            let start = c.at + before;
            if i < start {
                break;
            }
            if i < start + c.layout.lines.len() {
                return Spot::Check(k, i - start);
            }
            before += c.layout.lines.len();
        }
        Spot::Page(i - before)
    }

    /// The check laid out at doc line `i`: (lesson check index, its line).
    pub fn check_at(&self, i: usize) -> Option<(usize, usize)> {
        match self.locate(i) {
            Spot::Check(k, l) => Some((self.checks[k].index, l)),
            Spot::Page(_) => None,
        }
    }

    /// The doc line where the lesson's check `index` starts, once laid out.
    pub fn check_start(&self, index: usize) -> Option<usize> {
        let mut before = 0;
        for c in &self.checks {
            if c.index == index {
                return Some(c.at + before);
            }
            before += c.layout.lines.len();
        }
        None
    }

    /// Where every laid-out check starts: (lesson check index, doc line).
    pub fn check_starts(&self) -> Vec<(usize, usize)> {
        let mut before = 0;
        let mut out = Vec::with_capacity(self.checks.len());
        for c in &self.checks {
            out.push((c.index, c.at + before));
            before += c.layout.lines.len();
        }
        out
    }

    /// The laid-out check `index`.
    pub fn check_layout(&self, index: usize) -> Option<&CheckLayout> {
        self.checks
            .iter()
            .find(|c| c.index == index)
            .map(|c| &c.layout)
    }

    /// The doc line of page line `p` (a check standing before it is above).
    pub fn doc_line(&self, p: usize) -> usize {
        p + self
            .checks
            .iter()
            .filter(|c| c.at <= p)
            .map(|c| c.layout.lines.len())
            .sum::<usize>()
    }

    /// The doc line heading `h` starts at.
    pub fn heading_line(&self, h: usize) -> Option<usize> {
        self.page.headings.get(h).map(|&p| self.doc_line(p))
    }

    /// Every heading's doc line, in order.
    pub fn heading_lines(&self) -> Vec<usize> {
        self.page
            .headings
            .iter()
            .map(|&p| self.doc_line(p))
            .collect()
    }

    pub fn partial(&self) -> bool {
        self.page.partial
    }

    /// Check `index` alone: answering redraws only this.
    pub fn relayout_check(&mut self, index: usize, keys: Option<Keys>) {
        let view = self.view(index, keys);
        let (Some(check), Some(state), Some(placed)) = (
            self.lesson.checks.get(index),
            self.states.get(index),
            self.checks.iter_mut().find(|c| c.index == index),
        ) else {
            return;
        };
        placed.layout = layout::check_lines(check, self.page.width, state, view, &self.code);
    }

    /// Every check the page reaches, laid out and placed again.
    pub fn relayout_checks(&mut self, keys: Option<Keys>) {
        let mut placed: Vec<Placed> = Vec::with_capacity(self.lesson.checks.len());
        let checks = self.lesson.checks.iter().zip(&self.states);
        for (index, (check, state)) in checks.enumerate() {
            let Some(at) = layout::anchor_line(&self.page, &self.lesson, check.anchor) else {
                continue;
            };
            let view = self.view(index, keys);
            let layout = layout::check_lines(check, self.page.width, state, view, &self.code);
            placed.push(Placed { index, at, layout });
        }
        // Checks in file order may name anchors out of order: the page's.
        placed.sort_by_key(|c| (c.at, c.index));
        self.checks = placed;
    }

    /// Lays the page out for `width`, from the cache when it was seen.
    /// Whether anything changed.
    pub fn set_width(&mut self, width: u16, keys: Option<Keys>) -> bool {
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
        self.relayout_checks(keys);
        true
    }

    /// Lays out the rest of a page drawn from its first screen; whether
    /// there was anything to do.
    pub fn finish(&mut self, keys: Option<Keys>) -> bool {
        if !self.page.partial {
            return false;
        }
        self.page = layout::page(&self.lesson, self.page.width, &self.code);
        self.relayout_checks(keys);
        true
    }

    /// Highlighted code arrived: lay out again with it.
    pub fn set_code(&mut self, code: Highlights, keys: Option<Keys>) {
        self.code = code;
        self.cache.clear();
        self.page = layout::page(&self.lesson, self.page.width, &self.code);
        // The checks' own code is highlighted too, and the page is whole.
        self.relayout_checks(keys);
    }

    /// The reading position at doc line `top`, as an anchor on the page:
    /// inside a check, the line just above it (a check at the end of the
    /// page: lines past the page's end, as before checks had anchors).
    pub fn anchor_of(&self, top: usize) -> Anchor {
        match self.locate(top) {
            Spot::Page(p) => anchor_of(&self.page, p),
            Spot::Check(k, l) => {
                let c = &self.checks[k];
                if c.at >= self.page.lines.len() {
                    let before: usize = self.checks[..k]
                        .iter()
                        .filter(|c| c.at >= self.page.lines.len())
                        .map(|c| c.layout.lines.len())
                        .sum();
                    anchor_of(&self.page, self.page.lines.len() + before + l)
                } else {
                    // The block the check stands before, and how far into
                    // the check: restored to the very line.
                    let a = anchor_of(&self.page, c.at);
                    // Several checks may stand at one place: which one.
                    let nth = self.checks[..k].iter().filter(|o| o.at == c.at).count();
                    match (u32::try_from(l), u32::try_from(nth)) {
                        (Ok(l), Ok(nth)) if a.line == 0 && l < 1 << 16 && nth < 1 << 15 => Anchor {
                            block: a.block,
                            line: IN_CHECK | nth << 16 | l,
                        },
                        _ => anchor_of(&self.page, c.at.saturating_sub(1)),
                    }
                }
            }
        }
    }

    pub fn line_of(&self, anchor: Anchor) -> usize {
        if anchor.line & IN_CHECK != 0 {
            let at = line_of(
                &self.page,
                Anchor {
                    block: anchor.block,
                    line: 0,
                },
            );
            let l = (anchor.line & 0xffff) as usize;
            let nth = ((anchor.line & !IN_CHECK) >> 16) as usize;
            let check = self.checks.iter().filter(|c| c.at == at).nth(nth);
            if let Some(c) = check {
                let start = self.check_start(c.index).unwrap_or(at);
                return start + l.min(c.layout.lines.len().saturating_sub(1));
            }
            return self.doc_line(at);
        }
        let p = line_of(&self.page, anchor);
        let n = self.page.lines.len();
        if p >= n {
            // Past the page's end: into the checks that stand there.
            let before: usize = self
                .checks
                .iter()
                .filter(|c| c.at < n)
                .map(|c| c.layout.lines.len())
                .sum();
            return p + before;
        }
        self.doc_line(p)
    }
}

/// An anchor's `line` with this bit set is a line of a check standing
/// before its block, not of the block: bits 16-30 say which of the checks
/// there, bits 0-15 the line in it.
const IN_CHECK: u32 = 1 << 31;

enum Spot {
    Page(usize),
    /// (index into `Doc::checks`, line in it).
    Check(usize, usize),
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

/// The page's options before its code is highlighted: whether pictures
/// get room.
fn room(pictures: bool) -> Highlights {
    let mut code = Highlights::default();
    code.pictures = pictures;
    code
}
