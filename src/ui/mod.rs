//! Drawing: a pure function of the state. Only the visible rows of the
//! page are converted and drawn, so cost follows the screen, not the
//! lesson.

mod chrome;
mod courses;
mod help;
mod overlay;
mod page;
mod review;
mod search;
mod stats;
mod toc;

use crate::state::{Mode, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(f: &mut Frame, s: &State, theme: &Theme) {
    let area = f.area();
    if s.too_small() {
        chrome::too_small(f, area, s);
        return;
    }
    let g = s.geometry();
    let body = Rect::new(0, 1, area.width, area.height.saturating_sub(2));
    chrome::header(f, Rect::new(0, 0, area.width, 1), s, theme);
    if s.mode == Mode::Review {
        review::draw(f, body, s, &g, theme);
    } else {
        page::draw(f, body, s, &g, theme);
    }
    if s.toc_open {
        toc::draw(f, s, &g, theme);
    }
    match s.mode {
        Mode::Help => help::draw(f, body, s.help_top, theme),
        Mode::CourseSearch => search::draw(f, body, s, theme),
        Mode::Stats => stats::draw(f, body, s, theme),
        Mode::Courses => courses::draw(f, body, s, theme),
        _ => {}
    }
    chrome::footer(f, Rect::new(0, area.height - 1, area.width, 1), s, theme);
}
