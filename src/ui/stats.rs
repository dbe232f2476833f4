//! Progress of the open course as gauges, then the store's review
//! figures once they arrive; scrolled like the help.

use super::overlay::boxed;
use crate::state::{State, StatsView};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, s: &State, v: &StatsView, theme: &Theme) {
    let inner = boxed(f, area, 80, area.height, "Progress · Esc to close", theme);
    let width = usize::from(inner.width);
    let mut doc = crate::stats::course_lines(s.course(), &s.library.progress, width);
    if let Some(figures) = &v.figures {
        doc.push(crate::layout::Line::default());
        doc.extend(crate::stats::review_lines(figures, width));
    }
    let library = crate::stats::library_lines(&v.library, width);
    if !library.is_empty() {
        doc.push(crate::layout::Line::default());
        doc.extend(library);
    }
    // Clamped here: only the drawing knows how tall the box is.
    let top = v
        .top
        .min(doc.len().saturating_sub(usize::from(inner.height)));
    let lines: Vec<Line> = doc
        .into_iter()
        .skip(top)
        .map(|l| {
            Line::from(
                l.spans
                    .into_iter()
                    .map(|sp| Span::styled(sp.text, theme.style(sp.style)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
