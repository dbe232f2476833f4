//! The lesson page: only the rows on screen are turned into styled text.

use crate::layout::{self, Line as DocLine};
use crate::state::{Geometry, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn draw(f: &mut Frame, body: Rect, s: &State, g: &Geometry, theme: &Theme) {
    let pane = if g.toc_side {
        crate::state::TOC_WIDTH
    } else {
        0
    };
    let area = Rect::new(
        g.page_x,
        body.y,
        g.text_width
            .min(body.width.saturating_sub(g.page_x.min(body.width))),
        body.height,
    );
    let _ = pane;
    let Some(doc) = &s.doc else {
        let msg = match (&s.broken, s.loading) {
            (Some(err), _) => vec![
                Line::styled(
                    "This lesson could not be loaded.",
                    theme.style(layout::Style::new(layout::Role::Error).with(layout::BOLD)),
                ),
                Line::raw(""),
                Line::raw(err.clone()),
                Line::raw(""),
                Line::styled(
                    "] and [ open the next and previous lessons; Tab shows the contents.",
                    theme.style(layout::Role::Dim.into()),
                ),
            ],
            (None, true) => vec![Line::raw("Loading…")],
            (None, false) => vec![Line::raw("No lesson open.")],
        };
        f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: false }), area);
        return;
    };
    let rows = usize::from(area.height);
    let lines: Vec<Line> = (s.top..s.top + rows)
        .map_while(|i| doc.line(i).map(|l| (i, l)))
        .map(|(i, l)| styled(l, theme, s.search.on_line(i)))
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// One layout line as ratatui spans, with search matches marked.
fn styled<'a>(
    line: &'a DocLine,
    theme: &Theme,
    hits: impl Iterator<Item = (usize, usize, bool)>,
) -> Line<'a> {
    let hits: Vec<(usize, usize, bool)> = hits.collect();
    if hits.is_empty() {
        return Line::from(
            line.spans
                .iter()
                .map(|sp| Span::styled(sp.text.as_str(), theme.style(sp.style)))
                .collect::<Vec<_>>(),
        );
    }
    let mut out = Vec::new();
    let mut offset = 0;
    for sp in &line.spans {
        let base: Style = theme.style(sp.style);
        let (start, end) = (offset, offset + sp.text.len());
        let mut cut = start;
        for &(hs, he, current) in &hits {
            let (a, b) = (hs.max(start), he.min(end));
            if a >= b {
                continue;
            }
            if a > cut {
                out.push(Span::styled(&sp.text[cut - start..a - start], base));
            }
            out.push(Span::styled(
                &sp.text[a - start..b - start],
                base.patch(theme.matched(current)),
            ));
            cut = b;
        }
        if let Some(rest) = sp.text.get(cut - start..).filter(|r| !r.is_empty()) {
            out.push(Span::styled(rest, base));
        }
        offset = end;
    }
    Line::from(out)
}
