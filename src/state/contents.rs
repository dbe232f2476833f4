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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TocRow {
    /// Index into `Course::modules()`.
    Module(usize),
    /// Index into `Course::lessons`.
    Lesson(usize),
}

pub fn rows(course: &Course) -> Vec<TocRow> {
    let mut out = Vec::with_capacity(course.lessons.len() + 16);
    for (m, module) in course.modules().iter().enumerate() {
        out.push(TocRow::Module(m));
        out.extend(module.lessons.iter().map(|&l| TocRow::Lesson(l)));
    }
    out
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
    let at = rows
        .iter()
        .position(|r| *r == TocRow::Lesson(cursor_lesson))
        .unwrap_or(0);
    let max = rows.len().saturating_sub(visible);
    at.saturating_sub(visible / 2).min(max)
}

/// The lesson on screen row `y` of the contents area, if any.
fn lesson_at(s: &State, y: u16) -> Option<usize> {
    let a = area(&s.geometry(), s.size);
    if !a.contains_row(y) {
        return None;
    }
    let rows = rows(s.course());
    let off = offset(&rows, s.contents.cursor, usize::from(a.height));
    match rows.get(off + usize::from(y - a.y))? {
        TocRow::Lesson(i) => Some(*i),
        TocRow::Module(_) => None,
    }
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

/// The keys of the contents while they have the focus.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let last = s.course().lessons.len().saturating_sub(1);
    let c = &mut s.contents;
    match a {
        Action::LineDown => c.cursor = (c.cursor + 1).min(last),
        Action::LineUp => c.cursor = c.cursor.saturating_sub(1),
        Action::Open => {
            let target = c.cursor;
            leave(s);
            if target != s.reader.lesson || s.reader.doc.is_none() {
                super::open::open(s, target, fx);
            }
        }
        Action::Back | Action::Close => leave(s),
        _ => return false,
    }
    true
}

/// A click on the contents (focused or not): opens the lesson clicked.
pub(super) fn click(s: &mut State, row: u16, fx: &mut Vec<Effect>) {
    if let Some(i) = lesson_at(s, row) {
        s.contents.cursor = i;
        leave(s);
        if i != s.reader.lesson {
            super::open::open(s, i, fx);
        }
    }
}
