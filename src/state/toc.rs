//! Rows of the table of contents and where it sits on screen. Shared by
//! the drawing and by mouse clicks, so both agree on what row is what.

use super::{Geometry, State};
use crate::model::Course;
use ratatui::layout::Rect;

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
pub fn area(g: &Geometry, width: u16, height: u16) -> Rect {
    let body = Rect::new(0, 1, width, height.saturating_sub(2));
    let outer = if g.toc_side {
        Rect::new(0, 1, super::TOC_WIDTH.min(width), body.height)
    } else {
        let w = (width * 9 / 10).max(20).min(width);
        let h = (body.height * 9 / 10).max(3).min(body.height);
        Rect::new((width - w) / 2, 1 + (body.height - h) / 2, w, h)
    };
    Rect::new(
        outer.x + 1,
        outer.y + 1,
        outer.width.saturating_sub(2),
        outer.height.saturating_sub(2),
    )
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
pub fn lesson_at(s: &State, y: u16) -> Option<usize> {
    let a = area(&s.geometry(), s.width, s.height);
    if y < a.y || y >= a.y + a.height {
        return None;
    }
    let rows = rows(s.course());
    let off = offset(&rows, s.toc_cursor, usize::from(a.height));
    match rows.get(off + usize::from(y - a.y))? {
        TocRow::Lesson(i) => Some(*i),
        TocRow::Module(_) => None,
    }
}
