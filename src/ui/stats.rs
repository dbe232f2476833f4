//! Progress of the open course, drawn as gauges.

use super::overlay::boxed;
use crate::state::State;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let inner = boxed(f, area, 80, area.height, "Progress · Esc to close", theme);
    let lines: Vec<Line> =
        crate::stats::course_lines(s.course(), &s.progress, usize::from(inner.width))
            .into_iter()
            .map(|l| {
                Line::from(
                    l.spans
                        .into_iter()
                        .map(|sp| ratatui::text::Span::styled(sp.text, theme.style(sp.style)))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
