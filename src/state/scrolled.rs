//! Scrolling a boxed screen of text (help, stats): the drawing clamps the
//! top to the end, since only it knows how many rows the text takes.

use super::Action;
use super::geometry::Geometry;

/// Moves `top` for a motion key; `false` when `a` is not one.
pub fn scroll(top: &mut usize, a: &Action, g: &Geometry) -> bool {
    // A box has a border: two rows fewer than the page, less one of context.
    let page = (g.rows().saturating_sub(3)).max(1) as isize;
    let by = match a {
        Action::LineDown => 1,
        Action::LineUp => -1,
        Action::Scroll(n) => *n as isize,
        Action::PageDown => page,
        Action::PageUp => -page,
        Action::Top => -(*top as isize),
        _ => return false,
    };
    *top = top.saturating_add_signed(by);
    true
}
