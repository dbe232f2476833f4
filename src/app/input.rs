//! Terminal events as actions: keys through the key tables of the screen
//! that has them, the mouse by where it is on screen.

use crate::keymap;
use crate::state::{Action, State, contents_area};
use ratatui::crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};

/// Rows the mouse wheel scrolls at a time.
const WHEEL_ROWS: i32 = 3;

pub fn action(s: &State, ev: Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => keymap::lookup(s.screen(), &k),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::Scroll(WHEEL_ROWS)),
            MouseEventKind::ScrollUp => Some(Action::Scroll(-WHEEL_ROWS)),
            MouseEventKind::Down(MouseButton::Left) => click(s, m.column, m.row),
            _ => None,
        },
        _ => None,
    }
}

fn click(s: &State, column: u16, row: u16) -> Option<Action> {
    let toc = contents_area(&s.geometry(), s.size);
    if s.contents.open && column >= toc.x.saturating_sub(1) && column <= toc.x + toc.width {
        Some(Action::ContentsClick(row))
    } else if row >= 1 && row < s.size.height.saturating_sub(1) {
        // Left of the text: the margin, where a note's marker is drawn.
        Some(if column < s.geometry().page_x {
            Action::MarginClick(row - 1)
        } else {
            Action::PageClick(row - 1)
        })
    } else {
        None
    }
}
