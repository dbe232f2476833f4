//! The frame's cells as the terminal's bytes: ratatui's crossterm backend,
//! with its one hot loop written here. That loop prints every cell through
//! crossterm's `Print`, which goes through `fmt` for each cell: 11% of the
//! instructions to a lesson's first frame (callgrind, BENCHMARKS.md
//! "2026-12-07, a musl build"). [`Cells`] writes the same bytes, moving
//! the cursor and printing symbols directly; style changes, rare within a
//! frame, still go through crossterm's commands. Everything else is the
//! crossterm backend's.
//!
//! And the first frame after the terminal is taken, whose screen is known
//! blank, is found by [`over_blank`] rather than by ratatui's diff against
//! a blank buffer (17% of those instructions: its general case compares
//! and measures every cell twice).

use ratatui::backend::{Backend, ClearType, CrosstermBackend, IntoCrossterm, WindowSize};
use ratatui::buffer::{Buffer, Cell, CellDiffOption, CellWidth};
use ratatui::crossterm::queue;
use ratatui::crossterm::style::{
    Attribute, Color as CColor, Colors, SetAttribute, SetBackgroundColor, SetColors,
    SetForegroundColor, SetUnderlineColor,
};
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use std::io::{self, Write};

/// ratatui's crossterm backend over `W`, but for how it draws cells.
pub struct Cells<W: Write> {
    inner: CrosstermBackend<W>,
}

impl<W: Write> Cells<W> {
    pub fn new(writer: W) -> Cells<W> {
        Cells {
            inner: CrosstermBackend::new(writer),
        }
    }
}

impl<W: Write> Write for Cells<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

impl<W: Write> Backend for Cells<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        // The backend writes to its writer: the bytes go straight there.
        write_cells(&mut self.inner, content)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

/// The cells ratatui's diff of a blank buffer against `buffer` gives, in
/// its order: every cell but the blank and the skipped ones, the columns a
/// wide cell covers passed over, and a wide emoji's (U+FE0F) covered
/// columns given when they hold anything.
pub fn over_blank(buffer: &Buffer) -> Vec<(u16, u16, &Cell)> {
    let (area, cells) = (buffer.area, &buffer.content);
    let width = usize::from(area.width.max(1));
    let mut out = Vec::new();
    let mut give = |i: usize, cell| {
        let (x, y) = ((i % width) as u16 + area.x, (i / width) as u16 + area.y);
        out.push((x, y, cell));
    };
    let mut i = 0;
    while i < cells.len() {
        let (start, cell) = (i, &cells[i]);
        i += 1;
        if skipped(cell) {
            continue;
        }
        if let CellDiffOption::ForcedWidth(w) = cell.diff_option {
            // Never blank: its diff option is not the blank cell's.
            i = i.saturating_add(usize::from(w.get() - 1));
            give(start, cell);
            continue;
        }
        if blank(cell) {
            continue;
        }
        give(start, cell);
        let w = usize::from(cell.cell_width());
        if w > 1 && cell.symbol().contains('\u{FE0F}') {
            // As the diff does: the columns it covers, each given if it
            // holds something, since some terminals leave them drawn.
            let (mut j, mut end) = (start + 1, (start + w).min(cells.len()));
            while j < end {
                let next = j + usize::from(cells[j].cell_width().max(1));
                end = end.max(next).min(cells.len());
                if !skipped(&cells[j]) && cells[j].symbol() != " " {
                    give(j, &cells[j]);
                }
                j = next;
            }
            i = end.max(i);
        } else if w > 1 {
            i += w - 1;
        }
    }
    out
}

/// `cell == &Cell::EMPTY`, field by field with the likeliest difference
/// first: `Cell`'s own comparison takes every field of every cell (65
/// instructions a cell, 7% of a first frame's).
#[allow(deprecated, reason = "`skip` is part of a cell's equality")]
fn blank(cell: &Cell) -> bool {
    cell.symbol() == " "
        && cell.bg == Color::Reset
        && cell.fg == Color::Reset
        && cell.modifier.is_empty()
        && cell.underline_color == Color::Reset
        && cell.diff_option == CellDiffOption::None
        && !cell.skip
}

/// A cell the diff never writes (a picture's, a link's covered columns).
#[allow(deprecated, reason = "`skip` is how ratatui's diff still reads it")]
fn skipped(cell: &Cell) -> bool {
    cell.diff_option == CellDiffOption::Skip
        || (cell.skip && cell.diff_option == CellDiffOption::None)
}

/// The bytes ratatui's crossterm backend writes for `content`: the cursor
/// moved where a cell does not follow the last, a style changed where it
/// differs, the symbol, and every style reset at the end.
pub(super) fn write_cells<'a, W: Write>(
    w: &mut W,
    content: impl Iterator<Item = (u16, u16, &'a Cell)>,
) -> io::Result<()> {
    let (mut fg, mut bg, mut underline) = (Color::Reset, Color::Reset, Color::Reset);
    let mut modifier = Modifier::empty();
    let mut last: Option<(u16, u16)> = None;
    for (x, y, cell) in content {
        if !matches!(last, Some((lx, ly)) if u32::from(x) == u32::from(lx) + 1 && y == ly) {
            move_to(w, x, y)?;
        }
        last = Some((x, y));
        if cell.modifier != modifier {
            modifier_diff(w, modifier, cell.modifier)?;
            modifier = cell.modifier;
        }
        if cell.fg != fg || cell.bg != bg {
            let colors = Colors::new(cell.fg.into_crossterm(), cell.bg.into_crossterm());
            queue!(w, SetColors(colors))?;
            (fg, bg) = (cell.fg, cell.bg);
        }
        if cell.underline_color != underline {
            queue!(w, SetUnderlineColor(cell.underline_color.into_crossterm()))?;
            underline = cell.underline_color;
        }
        w.write_all(cell.symbol().as_bytes())?;
    }
    queue!(
        w,
        SetForegroundColor(CColor::Reset),
        SetBackgroundColor(CColor::Reset),
        SetUnderlineColor(CColor::Reset),
        SetAttribute(Attribute::Reset),
    )
}

/// crossterm's `MoveTo(x, y)`: `CSI row;column H`, both from 1.
fn move_to(w: &mut impl Write, x: u16, y: u16) -> io::Result<()> {
    let mut digits = itoa::Buffer::new();
    w.write_all(b"\x1b[")?;
    w.write_all(digits.format(u32::from(y) + 1).as_bytes())?;
    w.write_all(b";")?;
    w.write_all(digits.format(u32::from(x) + 1).as_bytes())?;
    w.write_all(b"H")
}

/// The attributes that take `from` to `to`, in the order and form of
/// ratatui's crossterm backend (bold and dim share one reset).
fn modifier_diff(w: &mut impl Write, from: Modifier, to: Modifier) -> io::Result<()> {
    let removed = from - to;
    let mut set = |a: Attribute| queue!(w, SetAttribute(a));
    if removed.contains(Modifier::REVERSED) {
        set(Attribute::NoReverse)?;
    }
    let reset_intensity = removed.intersects(Modifier::BOLD | Modifier::DIM);
    if reset_intensity {
        set(Attribute::NormalIntensity)?;
        if to.contains(Modifier::DIM) {
            set(Attribute::Dim)?;
        }
        if to.contains(Modifier::BOLD) {
            set(Attribute::Bold)?;
        }
    }
    let off = [
        (Modifier::ITALIC, Attribute::NoItalic),
        (Modifier::UNDERLINED, Attribute::NoUnderline),
        (Modifier::CROSSED_OUT, Attribute::NotCrossedOut),
        (Modifier::HIDDEN, Attribute::NoHidden),
    ];
    for (m, a) in off {
        if removed.contains(m) {
            set(a)?;
        }
    }
    if removed.intersects(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK) {
        set(Attribute::NoBlink)?;
    }
    let added = to - from;
    let on = [
        (Modifier::REVERSED, Attribute::Reverse, true),
        (Modifier::BOLD, Attribute::Bold, !reset_intensity),
        (Modifier::ITALIC, Attribute::Italic, true),
        (Modifier::UNDERLINED, Attribute::Underlined, true),
        (Modifier::DIM, Attribute::Dim, !reset_intensity),
        (Modifier::CROSSED_OUT, Attribute::CrossedOut, true),
        (Modifier::HIDDEN, Attribute::Hidden, true),
        (Modifier::SLOW_BLINK, Attribute::SlowBlink, true),
        (Modifier::RAPID_BLINK, Attribute::RapidBlink, true),
    ];
    for (m, a, when) in on {
        if when && added.contains(m) {
            set(a)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
