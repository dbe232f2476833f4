//! Pictures on the page. In half blocks, each cell a `▀` whose colours
//! are the picture's two pixels there, only the rows on screen (a picture
//! cut by the screen's edge is its visible rows, never garbage). With
//! kitty's protocol, each cell a placeholder naming the picture and its
//! row and column in it (cut and covered like any text). With iTerm2's or
//! sixel, half blocks, and the picture itself written over them by the
//! terminal runtime when it is whole on screen and nothing covers it
//! ([`Shown`]). Until its drawing is ready, its rows show its words.

use crate::graphics::kitty;
use crate::model::{Drawn, Protocol};
use crate::state::Doc;
use crate::state::pictures::{Drawing, key_of, near};
use crate::state::reader::Reader;
use crate::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use std::sync::Arc;

const HALF_BLOCK: &str = "▀";

/// The pictures a frame shows with a graphics protocol: what the terminal
/// runtime writes with it.
#[derive(Debug, Default, Clone)]
pub struct Shown {
    /// On screen: kitty's whose placeholders are (to be sent before the
    /// frame), iTerm2's and sixel's whole and uncovered (to be drawn over
    /// their half blocks after it).
    pub placed: Vec<Placed>,
    /// kitty's near the screen, by id: kept by the terminal; one it has
    /// that is not here any more is deleted.
    pub kept: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct Placed {
    /// kitty's name for it.
    pub id: u32,
    pub area: Rect,
    pub drawn: Arc<Drawn>,
}

pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    (r, doc): (&Reader, &Doc),
    (drawing, theme): (Drawing, &Theme),
    shown: &mut Shown,
) {
    let (top, bottom) = (r.top, r.top + usize::from(area.height));
    for place in doc.pictures() {
        let end = place.line + usize::from(place.rows);
        if end <= top || place.line >= bottom {
            continue;
        }
        let key = key_of(place, drawing);
        let Some(drawn) = r.pictures.drawn(&key) else {
            continue;
        };
        let x = area.x.saturating_add(place.indent);
        let rows = place.line.max(top)..end.min(bottom);
        let y = area.y + (rows.start - top) as u16;
        let width = drawn.cols.min(area.right().saturating_sub(x));
        let on_screen = Rect::new(x, y, width, rows.len() as u16);
        let first = (rows.start - place.line) as u16;
        let protocol = drawn.graphic.as_ref().map(|g| g.protocol);
        let id = r.pictures.id(&key);
        if protocol == Some(Protocol::Kitty) {
            placeholders(buf, on_screen, first, id);
        } else if !half_blocks(buf, on_screen, first, drawn, theme) {
            return;
        }
        let whole = first == 0 && rows.len() == usize::from(place.rows) && width == drawn.cols;
        if protocol == Some(Protocol::Kitty) || (protocol.is_some() && whole) {
            shown.placed.push(Placed {
                id,
                area: on_screen,
                drawn: Arc::clone(drawn),
            });
        }
    }
    if let Drawing::Graphics(_) = drawing {
        kept(r, doc, drawing, area.height, shown);
    }
}

/// Cells of `area` in half blocks, from row `first` of the picture;
/// whether the theme draws colours at all.
fn half_blocks(buf: &mut Buffer, area: Rect, first: u16, drawn: &Drawn, theme: &Theme) -> bool {
    for dy in 0..area.height {
        for dx in 0..area.width {
            let Some((up, down)) = drawn.cell(dx, first + dy) else {
                break;
            };
            let Some(style) = theme.picture(up, down) else {
                return false;
            };
            buf[(area.x + dx, area.y + dy)]
                .set_symbol(HALF_BLOCK)
                .set_style(style);
        }
    }
    true
}

/// Cells of `area` as kitty's placeholders of picture `id`, from row
/// `first` of it: its id is their foreground colour.
fn placeholders(buf: &mut Buffer, area: Rect, first: u16, id: u32) {
    let (r, g, b) = kitty::colour(id);
    let style = Style::default().fg(Color::Rgb(r, g, b)).bg(Color::Reset);
    for dy in 0..area.height {
        for dx in 0..area.width {
            if let Some(cell) = kitty::cell(first + dy, dx) {
                buf[(area.x + dx, area.y + dy)]
                    .set_symbol(&cell)
                    .set_style(style);
            }
        }
    }
}

/// kitty's pictures near the screen, ready: the terminal keeps them.
fn kept(r: &Reader, doc: &Doc, drawing: Drawing, rows: u16, shown: &mut Shown) {
    for place in near(doc.pictures(), r.top, usize::from(rows)) {
        let key = key_of(place, drawing);
        let kitty = r
            .pictures
            .drawn(&key)
            .and_then(|d| d.graphic.as_ref())
            .is_some_and(|g| g.protocol == Protocol::Kitty);
        if kitty {
            shown.kept.push(r.pictures.id(&key));
        }
    }
}

/// Drops from `shown` the iTerm2 and sixel pictures something was drawn
/// over (a popup, the contents): they stay in half blocks this frame.
pub fn uncovered(shown: &mut Shown, buf: &Buffer) {
    shown.placed.retain(|p| {
        let kitty = p
            .drawn
            .graphic
            .as_ref()
            .is_some_and(|g| g.protocol == Protocol::Kitty);
        kitty
            || (p.area.top()..p.area.bottom()).all(|y| {
                (p.area.left()..p.area.right()).all(|x| buf[(x, y)].symbol() == HALF_BLOCK)
            })
    });
}
