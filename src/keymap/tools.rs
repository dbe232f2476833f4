//! The page's tools, a layer of the reading and check tables: copying
//! what is on screen and the page's links, with the lists they open.

use super::Binding;
use super::key::Key::{Char, Code, Digit};
use super::tables::{bind, digit};
use crate::state::Action;
use ratatui::crossterm::event::KeyCode::{Backspace, Down, Enter, Up};

pub(super) static TOOLS: &[Binding] = &[
    bind(
        &[Char('y')],
        |_| Action::Copy,
        "copy the code on screen (OSC 52)",
        None,
    ),
    bind(
        &[Char('L')],
        |_| Action::Links,
        "the page's links: open one",
        None,
    ),
    bind(
        &[Code(Backspace)],
        |_| Action::LinkBack,
        "back from a followed link",
        None,
    ),
];

/// Choosing what to copy.
pub(super) static COPY: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next",
        Some("choose"),
    ),
    bind(&[Char('k'), Code(Up)], |_| Action::LineUp, "previous", None),
    bind(
        &[Code(Enter), Char('y')],
        |_| Action::Open,
        "copy it",
        Some("copy"),
    ),
    bind(&[Digit], digit, "copy that one", None),
];

/// The page's links.
pub(super) static LINKS: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next",
        Some("choose"),
    ),
    bind(&[Char('k'), Code(Up)], |_| Action::LineUp, "previous", None),
    bind(
        &[Code(Enter)],
        |_| Action::Open,
        "open the link",
        Some("open"),
    ),
    bind(
        &[Char('y')],
        |_| Action::Copy,
        "copy its address (OSC 52)",
        Some("copy"),
    ),
    bind(&[Digit], digit, "open that one", None),
];
