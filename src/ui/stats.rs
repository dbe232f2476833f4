//! Progress of the open course as gauges, then the store's review
//! figures once they arrive; scrolled like the help.

use super::overlay::boxed;
use crate::state::{State, StatsView};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Bar, BarChart, BarGroup, Paragraph};

pub fn draw(f: &mut Frame, area: Rect, s: &State, v: &StatsView, theme: &Theme) {
    let inner = boxed(f, area, 80, area.height, "Progress · Esc to close", theme);
    let width = usize::from(inner.width);
    let mut doc = crate::layout::stats::course_lines(s.course(), &s.library.progress, width);
    let mut chart = None;
    if let Some(figures) = &v.figures {
        doc.push(crate::layout::Line::default());
        doc.extend(crate::layout::stats::review_lines(figures, width));
        doc.extend(crate::layout::stats::machines_line(figures, width));
        // Rows kept for the chart of reviews per week, drawn over them.
        doc.push(crate::layout::Line::default());
        chart = Some((doc.len(), &figures.weekly));
        doc.extend((0..CHART_ROWS).map(|_| crate::layout::Line::default()));
    }
    let library = crate::layout::stats::library_lines(&v.library, width);
    if !library.is_empty() {
        doc.push(crate::layout::Line::default());
        doc.extend(library);
    }
    // Clamped here: only the drawing knows how tall the box is.
    let top = v
        .top
        .min(doc.len().saturating_sub(usize::from(inner.height)));
    let lines = super::styled(doc.into_iter().skip(top).collect(), theme);
    f.render_widget(Paragraph::new(lines), inner);
    // Drawn only when all its rows are in view: half a chart misleads.
    if let Some((at, weekly)) = chart {
        let rows = usize::from(CHART_ROWS);
        if at >= top && at + rows <= top + usize::from(inner.height) {
            let y = inner.y + (at - top) as u16;
            let area = Rect::new(inner.x, y, inner.width, CHART_ROWS);
            f.render_widget(weekly_chart(weekly, theme), area);
        }
    }
}

/// Rows of the chart of reviews per week, labels included.
const CHART_ROWS: u16 = 5;

/// Reviews per week as bars, this week last ("now").
fn weekly_chart<'a>(weekly: &[u32], theme: &Theme) -> BarChart<'a> {
    let n = weekly.len();
    let bars: Vec<Bar> = weekly
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let label = if i + 1 == n {
                "now".to_string()
            } else {
                format!("-{}w", n - 1 - i)
            };
            Bar::default().value(u64::from(v)).label(Line::from(label))
        })
        .collect();
    BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(4)
        .bar_gap(1)
        .bar_style(theme.accent())
        .value_style(theme.bar())
}
