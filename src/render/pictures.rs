//! `lectern render --images`: a lesson's pictures printed where they
//! stand, in the terminal's graphics protocol (kitty's placeholders, which
//! scroll with the text and pass through tmux; iTerm2's inline images;
//! sixel) or in half blocks when those are asked for. Each is decoded
//! here, in turn (the cache folder keeps what was drawn before); one that
//! cannot be is left as the rows its words hold.

use crate::graphics::{iterm, kitty};
use crate::layout::PicturePlace;
use crate::model::{Drawn, Graphics, PictureKey, Protocol};
use std::fmt::Write;
use std::hash::BuildHasher;

/// How pictures are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Printed {
    /// `None`: in half blocks.
    pub graphics: Option<Graphics>,
    /// Inside tmux: sequences passed through to the terminal outside.
    pub tmux: bool,
}

/// The picture of `place` as printed text (its rows), or `None` when it
/// cannot be drawn.
pub fn picture(place: &PicturePlace, how: Printed) -> Option<String> {
    let graphics = how
        .graphics
        .filter(|g| g.protocol != Protocol::Kitty || fits_kitty(place));
    let key = PictureKey {
        path: place.path.clone(),
        cols: place.cols,
        rows: place.rows,
        graphics,
    };
    let drawn = crate::effects::draw_picture(&key).ok()?;
    let indent = " ".repeat(usize::from(place.indent));
    let mut out = String::new();
    match drawn.graphic.as_ref().map(|g| g.protocol) {
        Some(Protocol::Kitty) => kitty_rows(&mut out, &drawn, &indent, how.tmux, &key),
        Some(Protocol::Iterm) => {
            let g = drawn.graphic.as_ref()?;
            let mut seq = Vec::new();
            iterm::inline(&g.data, g.len, drawn.cols, drawn.rows, how.tmux, &mut seq);
            let _ = writeln!(out, "{indent}{}", String::from_utf8_lossy(&seq));
        }
        Some(Protocol::Sixel) => {
            let g = drawn.graphic.as_ref()?;
            let _ = writeln!(out, "{indent}{}", g.data);
        }
        None => half_block_rows(&mut out, &drawn, &indent),
    }
    Some(out)
}

fn fits_kitty(place: &PicturePlace) -> bool {
    place.cols <= kitty::most() && place.rows <= kitty::most()
}

/// The picture sent, then its rows of placeholders, coloured with its id.
fn kitty_rows(out: &mut String, drawn: &Drawn, indent: &str, tmux: bool, key: &PictureKey) {
    let Some(g) = drawn.graphic.as_ref() else {
        return;
    };
    // Named apart from any other print's (which the terminal may still
    // show in its scrollback).
    let id =
        (std::collections::hash_map::RandomState::new().hash_one(key) as u32 & 0x00ff_ffff).max(1);
    let mut seq = Vec::new();
    kitty::transmit(id, &g.data, drawn.cols, drawn.rows, tmux, &mut seq);
    out.push_str(&String::from_utf8_lossy(&seq));
    let (r, gr, b) = kitty::colour(id);
    for row in 0..drawn.rows {
        let _ = write!(out, "{indent}\x1b[38;2;{r};{gr};{b}m");
        for col in 0..drawn.cols {
            out.push_str(&kitty::cell(row, col).unwrap_or_default());
        }
        out.push_str("\x1b[39m\n");
    }
}

/// Each cell a `▀` in the picture's two colours there.
fn half_block_rows(out: &mut String, drawn: &Drawn, indent: &str) {
    for row in 0..drawn.rows {
        out.push_str(indent);
        for col in 0..drawn.cols {
            let Some((up, down)) = drawn.cell(col, row) else {
                break;
            };
            let _ = write!(
                out,
                "\x1b[38;2;{};{};{};48;2;{};{};{}m▀",
                up[0], up[1], up[2], down[0], down[1], down[2]
            );
        }
        out.push_str("\x1b[0m\n");
    }
}
