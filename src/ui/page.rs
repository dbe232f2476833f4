//! The lesson page: only the rows on screen are turned into styled text.

use crate::layout::{self, Line as DocLine};
use crate::state::{Geometry, Page, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

pub fn draw(
    f: &mut Frame,
    body: Rect,
    (s, g): (&State, &Geometry),
    theme: &Theme,
    shown: &mut super::Shown,
) {
    let area = Rect::new(
        g.page_x,
        body.y,
        g.text_width
            .min(body.width.saturating_sub(g.page_x.min(body.width))),
        body.height,
    );
    let r = &s.reader;
    let Page::Open(doc) = &r.page else {
        return draw_empty(f, area, &r.page, theme);
    };
    let buf = f.buffer_mut();
    for (row, i) in (r.top..r.top + usize::from(area.height)).enumerate() {
        let Some(line) = doc.line(i) else { break };
        let y = area.y + row as u16;
        let mut x = area.x;
        for (text, style) in pieces(&line, theme, r.search.on_line(i)) {
            x = put(buf, x, y, area.right(), text, style);
        }
        super::notes::on_row(buf, s, doc, (area.x, y, i), theme);
    }
    super::picture::draw(buf, area, (r, doc), (s.prefs.drawing, theme), shown);
    if theme.hyperlinks {
        super::hyperlink::apply(buf, area, &super::hyperlink::rows(doc, r.top, area.height));
    }
}

/// A page without a lesson: why, or that it is on its way.
fn draw_empty(f: &mut Frame, area: Rect, page: &Page, theme: &Theme) {
    let msg = match page {
        Page::Broken(err) => vec![
            Line::styled(
                "This lesson could not be loaded.",
                theme.style(layout::Style::new(layout::Role::Error).with(layout::BOLD)),
            ),
            Line::raw(""),
            Line::raw(err.to_string()),
            Line::raw(""),
            Line::styled(
                "] and [ open the next and previous lessons; Tab shows the contents.",
                theme.style(layout::Role::Dim.into()),
            ),
        ],
        Page::Loading => vec![Line::raw("Loading…")],
        Page::Closed | Page::Open(_) => vec![Line::raw("No lesson open.")],
    };
    f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: false }), area);
}

/// Writes `text` into row `y` from column `x`, cut at `right`; returns the
/// column after it. Most lesson text is ASCII, one cell per byte, and is
/// written cell by cell; anything else goes through ratatui's grapheme
/// and width handling. (ratatui's `Paragraph` took half of a frame's time
/// splitting ASCII text into graphemes.)
fn put(buf: &mut Buffer, x: u16, y: u16, right: u16, text: &str, style: Style) -> u16 {
    if x >= right {
        return x;
    }
    if !text.is_ascii() {
        let (end, _) = buf.set_stringn(x, y, text, usize::from(right - x), style);
        return end;
    }
    let mut x = x;
    for b in text.bytes().take(usize::from(right - x)) {
        buf[(x, y)].set_char(char::from(b)).set_style(style);
        x += 1;
    }
    x
}

/// One layout line as styled pieces, with search matches marked.
fn pieces<'a>(
    line: &'a DocLine,
    theme: &Theme,
    hits: impl Iterator<Item = (usize, usize, bool)>,
) -> Vec<(&'a str, Style)> {
    let hits: Vec<(usize, usize, bool)> = hits.collect();
    if hits.is_empty() {
        return line
            .spans
            .iter()
            .map(|sp| (sp.text.as_str(), theme.style(sp.style)))
            .collect();
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
                out.push((&sp.text[cut - start..a - start], base));
            }
            out.push((
                &sp.text[a - start..b - start],
                base.patch(theme.matched(current)),
            ));
            cut = b;
        }
        if let Some(rest) = sp.text.get(cut - start..).filter(|r| !r.is_empty()) {
            out.push((rest, base));
        }
        offset = end;
    }
    out
}
