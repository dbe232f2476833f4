//! The table of contents: beside the page on wide screens, over it on
//! narrow ones. Its rows and where it sits are shared by the drawing and
//! by mouse clicks, so both agree on what row is what.

use super::geometry::{Area, Geometry, Size, TOC_WIDTH};
use super::{Action, Effect, State};
use crate::model::Course;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Contents {
    /// Shown (beside the page, or over it).
    pub open: bool,
    /// Has the keys.
    pub focused: bool,
    /// The lesson under the cursor.
    pub cursor: usize,
    /// The open lesson's heading under the cursor (listed beneath it),
    /// when the cursor is on one.
    pub heading: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TocRow {
    /// Index into `Course::modules()`.
    Module(usize),
    /// Index into `Course::lessons`.
    Lesson(usize),
    /// The open lesson's heading `n`, listed beneath it.
    Heading(usize),
}

pub fn rows(course: &Course) -> Vec<TocRow> {
    rows_with(course, usize::MAX, 0)
}

/// The rows, with the `heads` headings of lesson `open` beneath it.
pub fn rows_with(course: &Course, open: usize, heads: usize) -> Vec<TocRow> {
    let mut out = Vec::with_capacity(course.lessons.len() + heads + 16);
    for (m, module) in course.modules().iter().enumerate() {
        out.push(TocRow::Module(m));
        for &l in &module.lessons {
            out.push(TocRow::Lesson(l));
            if l == open {
                out.extend((0..heads).map(TocRow::Heading));
            }
        }
    }
    out
}

/// The rows as the open lesson has them (its headings beneath it).
pub fn rows_of(s: &State) -> Vec<TocRow> {
    rows_with(s.course(), s.reader.lesson, heading_count(s))
}

fn heading_count(s: &State) -> usize {
    s.reader.doc().map_or(0, |d| d.page.headings.len())
}

/// The row under the cursor.
pub fn cursor_row(c: &Contents) -> TocRow {
    c.heading.map_or(TocRow::Lesson(c.cursor), TocRow::Heading)
}

/// The area the contents are drawn in (inside its border).
pub fn area(g: &Geometry, size: Size) -> Area {
    let (width, height) = (size.width, size.height);
    let body_height = height.saturating_sub(2);
    let (x, y, w, h) = if g.toc_side {
        (0, 1, TOC_WIDTH.min(width), body_height)
    } else {
        let w = (width * 9 / 10).max(20).min(width);
        let h = (body_height * 9 / 10).max(3).min(body_height);
        ((width - w) / 2, 1 + (body_height - h) / 2, w, h)
    };
    Area {
        x: x + 1,
        y: y + 1,
        width: w.saturating_sub(2),
        height: h.saturating_sub(2),
    }
}

/// First row shown, so that the cursor stays in view (centred when it can).
pub fn offset(rows: &[TocRow], cursor_lesson: usize, visible: usize) -> usize {
    offset_at(rows, TocRow::Lesson(cursor_lesson), visible)
}

/// First row shown, so that row `at` stays in view (centred when it can).
pub fn offset_at(rows: &[TocRow], at: TocRow, visible: usize) -> usize {
    let at = rows.iter().position(|r| *r == at).unwrap_or(0);
    let max = rows.len().saturating_sub(visible);
    at.saturating_sub(visible / 2).min(max)
}

/// The row on screen row `y` of the contents area, if any.
fn row_at(s: &State, y: u16) -> Option<TocRow> {
    let a = area(&s.geometry(), s.size);
    if !a.contains_row(y) {
        return None;
    }
    let rows = rows_of(s);
    let off = offset_at(&rows, cursor_row(&s.contents), usize::from(a.height));
    rows.get(off + usize::from(y - a.y)).copied()
}

/// Tab: shows the contents with the keys, or hides them.
pub(super) fn toggle(s: &mut State) {
    if s.contents.focused {
        s.contents = Contents {
            open: false,
            focused: false,
            ..s.contents
        };
    } else {
        s.contents = Contents {
            open: true,
            focused: true,
            cursor: s.reader.lesson,
            heading: None,
        };
    }
    s.relayout();
}

/// Gives the keys back to the page. Beside the page the contents may
/// stay; over it, they go away.
pub(super) fn leave(s: &mut State) {
    s.contents.focused = false;
    if !s.geometry().toc_side {
        s.contents.open = false;
        s.relayout();
    }
}

/// The keys of the contents while they have the focus: lines and pages
/// of entries, as on the page.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let page = usize::from(area(&s.geometry(), s.size).height.max(2)) - 1;
    match a {
        Action::LineDown => step(s, 1),
        Action::LineUp => step(s, -1),
        Action::PageDown => step(s, page as isize),
        Action::PageUp => step(s, -(page as isize)),
        Action::Top => set(s, TocRow::Lesson(0)),
        Action::Bottom => {
            let last = s.course().lessons.len().saturating_sub(1);
            set(s, TocRow::Lesson(last));
        }
        Action::Open => {
            let target = cursor_row(&s.contents);
            leave(s);
            open_row(s, target, fx);
        }
        Action::Back | Action::Close => leave(s),
        _ => return false,
    }
    true
}

/// Moves the cursor `by` entries (lessons and the open lesson's
/// headings; module titles are passed over).
fn step(s: &mut State, by: isize) {
    let rows = rows_of(s);
    let entries: Vec<TocRow> = rows
        .into_iter()
        .filter(|r| !matches!(r, TocRow::Module(_)))
        .collect();
    let at = cursor_row(&s.contents);
    let i = entries.iter().position(|r| *r == at).unwrap_or(0);
    let j = i
        .saturating_add_signed(by)
        .min(entries.len().saturating_sub(1));
    if let Some(&row) = entries.get(j) {
        set(s, row);
    }
}

fn set(s: &mut State, row: TocRow) {
    let c = &mut s.contents;
    match row {
        TocRow::Lesson(i) => {
            c.cursor = i;
            c.heading = None;
        }
        TocRow::Heading(h) => {
            c.cursor = s.reader.lesson;
            c.heading = Some(h);
        }
        TocRow::Module(_) => {}
    }
}

/// Opens a lesson, or goes to a heading of the open lesson.
fn open_row(s: &mut State, row: TocRow, fx: &mut Vec<Effect>) {
    match row {
        TocRow::Lesson(i) => {
            if i != s.reader.lesson || s.reader.doc().is_none() {
                super::open::open(s, i, fx);
            }
        }
        TocRow::Heading(h) => {
            let g = s.geometry();
            let line = s.reader.doc().and_then(|d| d.heading_line(h));
            if let Some(line) = line {
                s.reader.set_top(line, &g);
            }
        }
        TocRow::Module(_) => {}
    }
}

/// A click on the contents (focused or not): opens the lesson clicked,
/// or goes to the heading.
pub(super) fn click(s: &mut State, row: u16, fx: &mut Vec<Effect>) {
    if let Some(r @ (TocRow::Lesson(_) | TocRow::Heading(_))) = row_at(s, row) {
        set(s, r);
        leave(s);
        open_row(s, r, fx);
    }
}
