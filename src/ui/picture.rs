//! Pictures on the page, in half blocks: each cell a `▀` whose colours
//! are the picture's two pixels there. Drawn over the rows the layout
//! keeps for it, only the rows on screen (a picture cut by the screen's
//! edge is its visible rows, never garbage); until its drawing is ready,
//! those rows show its words.

use crate::state::Doc;
use crate::state::pictures::key_of;
use crate::state::reader::Reader;
use crate::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const HALF_BLOCK: &str = "▀";

pub fn draw(buf: &mut Buffer, area: Rect, r: &Reader, doc: &Doc, theme: &Theme) {
    let (top, bottom) = (r.top, r.top + usize::from(area.height));
    for place in doc.pictures() {
        let end = place.line + usize::from(place.rows);
        if end <= top || place.line >= bottom {
            continue;
        }
        let Some(drawn) = r.pictures.drawn(&key_of(place)) else {
            continue;
        };
        for row in place.line.max(top)..end.min(bottom) {
            let y = area.y + (row - top) as u16;
            let py = (row - place.line) as u16;
            for px in 0..drawn.cols {
                let x = area.x.saturating_add(place.indent).saturating_add(px);
                if x >= area.right() {
                    break;
                }
                let Some((up, down)) = drawn.cell(px, py) else {
                    break;
                };
                let Some(style) = theme.picture(up, down) else {
                    return;
                };
                buf[(x, y)].set_symbol(HALF_BLOCK).set_style(style);
            }
        }
    }
}
