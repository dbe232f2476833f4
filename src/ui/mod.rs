//! Drawing: a pure function of the state. Only the visible rows of the
//! page are converted and drawn, so cost follows the screen, not the
//! lesson. One module per screen, plus the chrome around them.

mod chrome;
mod copy;
mod courses;
mod help;
mod hyperlink;
mod notes;
mod overlay;
mod page;
mod picture;
pub use picture::{Placed, Shown};
mod quizzes;
mod review;
mod search;
pub use search::thousands;
mod stats;
mod toc;

use crate::state::{Overlay, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(f: &mut Frame, s: &State, theme: &Theme) {
    draw_shown(f, s, theme);
}

/// [`draw`], and the pictures the frame shows with a graphics protocol.
pub fn draw_shown(f: &mut Frame, s: &State, theme: &Theme) -> Shown {
    let mut shown = Shown::default();
    draw_into(f, s, theme, &mut shown);
    picture::uncovered(&mut shown, f.buffer_mut());
    shown
}

fn draw_into(f: &mut Frame, s: &State, theme: &Theme, shown: &mut Shown) {
    let area = f.area();
    if s.size.too_small() {
        chrome::too_small(f, area, s);
        return;
    }
    let g = s.geometry();
    let body = Rect::new(0, 1, area.width, area.height.saturating_sub(2));
    chrome::header(f, Rect::new(0, 0, area.width, 1), s, theme);
    match s.active_review() {
        Some(r) => review::draw(f, body, s, r, &g, theme),
        None => page::draw(f, body, (s, &g), theme, shown),
    }
    if s.contents.open {
        toc::draw(f, s, &g, theme);
    }
    match &s.overlay {
        Some(Overlay::Help(h)) => help::draw(f, body, h.top, theme),
        Some(Overlay::CourseSearch(cs)) => search::draw(f, body, s, cs, theme),
        Some(Overlay::Stats(v)) => stats::draw(f, body, s, v, theme),
        Some(Overlay::Quizzes(b)) => quizzes::draw(f, body, b, theme),
        Some(Overlay::Courses(p)) => courses::draw(f, body, s, p, theme),
        Some(Overlay::Copy(p)) => copy::draw(f, body, p, theme),
        Some(Overlay::Links(p)) => copy::links(f, body, p, theme),
        Some(Overlay::Marks(p)) => notes::marks(f, body, s, p.set, theme),
        Some(Overlay::Note(ed)) => notes::editor(f, body, ed, theme),
        Some(Overlay::Notes(l)) => notes::list(f, body, s, l, theme),
        // Drawn on the page itself.
        Some(Overlay::Select(_)) => {}
        None => {}
    }
    chrome::footer(f, Rect::new(0, area.height - 1, area.width, 1), s, theme);
}

/// Laid-out lines (semantic roles) as the terminal's styled lines.
fn styled(lines: Vec<crate::layout::Line>, theme: &Theme) -> Vec<ratatui::text::Line<'static>> {
    lines
        .into_iter()
        .map(|l| {
            ratatui::text::Line::from(
                l.spans
                    .into_iter()
                    .map(|sp| ratatui::text::Span::styled(sp.text, theme.style(sp.style)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}
