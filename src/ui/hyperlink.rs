//! OSC 8 hyperlinks on the page. ratatui's buffer has no hyperlink field
//! (ratatui issue 1227), so, as its `hyperlink` example does, the
//! sequence is written into the cells themselves: each cell holds two
//! characters of the link wrapped in the sequence, with its width forced
//! to the two columns, and the cell after it is skipped. Only web and mail targets (`model::link::is_web`), only
//! one-column text, and the target is always visible beside its text.

use crate::layout::Line;
use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;
use std::num::NonZeroU16;

/// Rows after the screen looked at for a wrapped link's target.
const LOOKAHEAD: usize = 4;

/// Makes the links in `lines` (drawn from row `area.y`) clickable; the
/// lines after the screen only complete a link cut by its bottom.
pub fn apply(buf: &mut Buffer, area: Rect, owned: &[Line]) {
    let targets = crate::render::link_targets(owned);
    for (row, (line, links)) in owned.iter().zip(&targets).enumerate() {
        if row >= usize::from(area.height) {
            break;
        }
        let y = area.y + row as u16;
        let mut x = area.x;
        for (span, url) in line.spans.iter().zip(links) {
            let width = span.text.len() as u16;
            if let Some(url) = url.as_deref().filter(|_| span.text.is_ascii()) {
                link(buf, x, y, area.right(), url, &span.text);
            }
            if !span.text.is_ascii() {
                // Wide or combined characters: the cells no longer follow
                // the bytes; leave the rest of the row plain.
                break;
            }
            x = x.saturating_add(width);
        }
    }
}

/// The visible page lines and a few after, for [`apply`].
pub fn rows(doc: &crate::state::Doc, top: usize, height: u16) -> Vec<Line> {
    (top..top + usize::from(height) + LOOKAHEAD)
        .map_while(|i| doc.line(i).map(std::borrow::Cow::into_owned))
        .collect()
}

fn link(buf: &mut Buffer, x: u16, y: u16, right: u16, url: &str, text: &str) {
    let bytes = text.as_bytes();
    for (k, pair) in bytes.chunks(2).enumerate() {
        let cx = x + 2 * k as u16;
        if cx >= right {
            break;
        }
        let fits = pair.len() == 2 && cx + 1 < right;
        let shown = if fits { pair } else { &pair[..1] };
        let shown = std::str::from_utf8(shown).unwrap_or(" ");
        let symbol = format!("\x1b]8;;{url}\x1b\\{shown}\x1b]8;;\x1b\\");
        // The sequence's bytes are not columns: the cell says how many it
        // covers, and the one it covers is not drawn over it.
        let width = NonZeroU16::new(shown.len() as u16).unwrap_or(NonZeroU16::MIN);
        buf[(cx, y)]
            .set_symbol(&symbol)
            .set_diff_option(CellDiffOption::ForcedWidth(width));
        if fits {
            buf[(cx + 1, y)].set_diff_option(CellDiffOption::Skip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Role, Span, Style};

    #[test]
    fn a_link_is_written_two_cells_at_a_time() {
        let line = Line {
            spans: vec![
                Span::new("see ", Style::new(Role::Text)),
                Span::new("abc", Style::new(Role::Link)),
                Span::new(" <https://a.b>", Style::new(Role::Dim)),
            ],
        };
        let area = Rect::new(0, 0, 40, 1);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, line.text(), ratatui::style::Style::default());
        apply(&mut buf, area, &[line]);
        assert_eq!(buf[(3, 0)].symbol(), " ");
        assert_eq!(
            buf[(4, 0)].symbol(),
            "\x1b]8;;https://a.b\x1b\\ab\x1b]8;;\x1b\\"
        );
        assert_eq!(buf[(5, 0)].diff_option, CellDiffOption::Skip);
        assert_eq!(
            buf[(6, 0)].symbol(),
            "\x1b]8;;https://a.b\x1b\\c\x1b]8;;\x1b\\"
        );
        // The target beside it links too.
        assert!(
            buf[(7, 0)]
                .symbol()
                .starts_with("\x1b]8;;https://a.b\x1b\\ <")
        );
        assert_eq!(buf[(3, 0)].diff_option, CellDiffOption::None);
    }
}
