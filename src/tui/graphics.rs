//! Pictures drawn with a terminal graphics protocol, written with the
//! frame: the frame is held (one write to the terminal), kitty's pictures
//! placed on it are sent first, once each, and deleted once they are no
//! longer near the screen; iTerm2's and sixel pictures, part of the
//! screen's cells, are drawn after the text, at their places, and when
//! one moves or goes the screen is cleared and drawn whole, so none is
//! left behind (their cells diffed as unchanged would keep it). No byte
//! is written outside a picture's own escape sequence.

use crate::graphics::{iterm, kitty};
use crate::model::Protocol;
use crate::ui::{Placed, Shown};
use ratatui::layout::Rect;
use std::collections::HashSet;
use std::io::{self, Write};

/// What the terminal holds of the pictures.
#[derive(Debug, Default)]
pub struct Screen {
    /// Inside tmux: each sequence passed through to the terminal outside.
    pub tmux: bool,
    /// kitty's pictures the terminal has, by id.
    sent: HashSet<u32>,
    /// iTerm2's and sixel pictures on screen, and where.
    drawn: Vec<(u32, Rect)>,
}

impl Screen {
    pub fn new(tmux: bool) -> Screen {
        Screen {
            tmux,
            ..Screen::default()
        }
    }

    /// What goes before the frame's text: kitty's pictures placed and not
    /// sent yet. Whether the screen must be cleared and drawn whole first
    /// (an iTerm2 or sixel picture moved or went).
    fn before(&mut self, shown: &Shown, out: &mut Vec<u8>) -> bool {
        for p in &shown.placed {
            let Some(g) = p.drawn.graphic.as_ref() else {
                continue;
            };
            if g.protocol == Protocol::Kitty && self.sent.insert(p.id) {
                kitty::transmit(p.id, &g.data, p.drawn.cols, p.drawn.rows, self.tmux, out);
            }
        }
        let now = in_cells(shown);
        let gone = self.drawn.iter().any(|d| !now.contains(d));
        if gone {
            self.drawn.clear();
        }
        gone
    }

    /// What goes after the frame's text: iTerm2 and sixel pictures not on
    /// screen yet, each from its top-left cell; deletes of kitty's pictures
    /// no longer near.
    fn after(&mut self, shown: &Shown, out: &mut Vec<u8>) {
        for p in &shown.placed {
            let Some(g) = p.drawn.graphic.as_ref() else {
                continue;
            };
            if g.protocol == Protocol::Kitty || self.drawn.contains(&(p.id, p.area)) {
                continue;
            }
            let _ = write!(out, "\x1b[{};{}H", p.area.y + 1, p.area.x + 1);
            match g.protocol {
                Protocol::Iterm => {
                    iterm::inline(&g.data, g.len, p.area.width, p.area.height, self.tmux, out)
                }
                // tmux draws sixel itself, when built to.
                _ => out.extend_from_slice(g.data.as_bytes()),
            }
            self.drawn.push((p.id, p.area));
        }
        let live: HashSet<u32> = shown
            .kept
            .iter()
            .copied()
            .chain(shown.placed.iter().map(|p| p.id))
            .collect();
        let gone: Vec<u32> = self.sent.difference(&live).copied().collect();
        for id in gone {
            kitty::delete(id, self.tmux, out);
            self.sent.remove(&id);
        }
    }

    /// All that goes with a frame, before and after its text, in one
    /// (what the benchmark of keys counts); whether the screen is cleared.
    pub fn plan(&mut self, shown: &Shown, out: &mut Vec<u8>) -> bool {
        let clear = self.before(shown, out);
        self.after(shown, out);
        clear
    }

    /// Every kitty picture deleted, and nothing taken as on screen: before
    /// the terminal is given back (quit, Ctrl-Z) and on a resize.
    pub fn clear(&mut self, out: &mut Vec<u8>) {
        let mut ids: Vec<u32> = self.sent.drain().collect();
        ids.sort_unstable();
        for id in ids {
            kitty::delete(id, self.tmux, out);
        }
        self.drawn.clear();
    }

    /// Nothing taken as on screen or sent: the terminal was given back and
    /// taken again, its screen cleared (and kitty's pictures may be gone).
    pub fn forget(&mut self) {
        self.sent.clear();
        self.drawn.clear();
    }
}

/// iTerm2 and sixel pictures of a frame, and where.
fn in_cells(shown: &Shown) -> Vec<(u32, Rect)> {
    shown
        .placed
        .iter()
        .filter(|p| cells_kind(p))
        .map(|p| (p.id, p.area))
        .collect()
}

fn cells_kind(p: &Placed) -> bool {
    p.drawn
        .graphic
        .as_ref()
        .is_some_and(|g| g.protocol != Protocol::Kitty)
}

/// One frame with its pictures, in one write: kitty's sent before the
/// text, iTerm2's and sixel's drawn after it (the screen cleared first
/// when one moved or went), kitty's no longer near deleted.
pub fn draw(
    term: &mut super::terminal::Term,
    render: impl FnOnce(&mut ratatui::Frame) -> Shown,
) -> io::Result<()> {
    term.hold(true);
    let written = frame(term, render);
    term.hold(false);
    written.and_then(|_| term.terminal.backend_mut().flush())
}

fn frame(
    term: &mut super::terminal::Term,
    render: impl FnOnce(&mut ratatui::Frame) -> Shown,
) -> io::Result<()> {
    let mut frame = term.terminal.get_frame();
    let shown = render(&mut frame);
    let mut before = Vec::new();
    if term.graphics.before(&shown, &mut before) {
        // Cleared, and the last frame forgotten, so every cell is written
        // again (the frame just drawn is kept).
        let area = term.area();
        term.terminal.resize(area)?;
    }
    term.terminal.backend_mut().write_all(&before)?;
    term.apply()?;
    let mut after = Vec::new();
    term.graphics.after(&shown, &mut after);
    term.terminal.backend_mut().write_all(&after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Drawn, Graphic};
    use std::sync::Arc;

    fn placed(id: u32, protocol: Protocol, y: u16) -> Placed {
        Placed {
            id,
            area: Rect::new(2, y, 4, 2),
            drawn: Arc::new(Drawn {
                cols: 4,
                rows: 2,
                pixels: vec![[0; 3]; 16],
                graphic: Some(Graphic {
                    protocol,
                    data: "QUJD".into(),
                    len: 3,
                }),
            }),
        }
    }

    fn frame(s: &mut Screen, shown: &Shown) -> (bool, String, String) {
        let (mut b, mut a) = (Vec::new(), Vec::new());
        let clear = s.before(shown, &mut b);
        s.after(shown, &mut a);
        (
            clear,
            String::from_utf8(b).unwrap(),
            String::from_utf8(a).unwrap(),
        )
    }

    #[test]
    fn kitty_sends_a_picture_once_and_deletes_it_once_it_is_not_near() {
        let mut s = Screen::new(false);
        let on = Shown {
            placed: vec![placed(7, Protocol::Kitty, 1)],
            kept: vec![7],
        };
        let (clear, before, after) = frame(&mut s, &on);
        assert!(!clear && after.is_empty());
        assert_eq!(before.matches("a=T").count(), 1, "{before}");
        // Scrolled by a line: nothing sent again.
        let moved = Shown {
            placed: vec![placed(7, Protocol::Kitty, 0)],
            kept: vec![7],
        };
        assert_eq!(frame(&mut s, &moved), (false, String::new(), String::new()));
        // Off screen but near: kept; then far: deleted, once.
        let near = Shown {
            placed: vec![],
            kept: vec![7],
        };
        assert_eq!(frame(&mut s, &near), (false, String::new(), String::new()));
        let (_, _, after) = frame(&mut s, &Shown::default());
        assert_eq!(after, "\x1b_Ga=d,d=I,i=7,q=2\x1b\\");
        assert_eq!(frame(&mut s, &Shown::default()).2, "");
        // Sent again when it comes back.
        assert_eq!(frame(&mut s, &on).1.matches("a=T").count(), 1);
    }

    #[test]
    fn a_sixel_picture_is_drawn_where_it_stands_and_a_move_clears_the_screen() {
        let mut s = Screen::new(false);
        let at = |y| Shown {
            placed: vec![placed(3, Protocol::Sixel, y)],
            kept: vec![],
        };
        let (clear, before, after) = frame(&mut s, &at(5));
        assert!(!clear && before.is_empty());
        assert_eq!(after, "\x1b[6;3HQUJD");
        // Unmoved: nothing written.
        assert_eq!(frame(&mut s, &at(5)), (false, String::new(), String::new()));
        // Moved: the screen cleared and the picture drawn at its new place.
        let (clear, _, after) = frame(&mut s, &at(4));
        assert!(clear);
        assert_eq!(after, "\x1b[5;3HQUJD");
        // Gone (scrolled off, or covered): cleared once.
        assert!(frame(&mut s, &Shown::default()).0);
        assert!(!frame(&mut s, &Shown::default()).0);
    }

    #[test]
    fn iterm_pictures_name_their_cells_and_pass_through_tmux() {
        let mut s = Screen::new(true);
        let shown = Shown {
            placed: vec![placed(3, Protocol::Iterm, 0)],
            kept: vec![],
        };
        let after = frame(&mut s, &shown).2;
        assert!(
            after.starts_with(
                "\x1b[1;3H\x1bPtmux;\x1b\x1b]1337;File=inline=1;size=3;width=4;height=2;"
            ),
            "{after:?}"
        );
    }
}
