//! The study loop's keys, as layers the screens' tables sit on: digits
//! are a count on the page and an answer only on the check; the contents
//! page like the page does; the stats screen opens a misconception's
//! lesson by its number.

use super::super::Binding;
use super::super::key::Key::{Char, Code, Ctrl, Digit};
use super::{bind, digit};
use crate::state::Action;
use ratatui::crossterm::event::KeyCode::{Down, End, Enter, Home, PageDown, PageUp, Up};

fn count(c: char) -> Action {
    Action::Count(c.to_digit(10).unwrap_or(0))
}

/// Reading: a count for the next motion, as in less and vim.
pub(super) static COUNTS: &[Binding] = &[
    bind(
        &[Digit],
        count,
        "a count for the next motion: 3j 10G 2Space",
        None,
    ),
    bind(&[Char('0')], count, "a count's next digit (10G)", None),
    bind(
        &[Char('M')],
        |_| Action::MarkRead,
        "mark this lesson read",
        None,
    ),
];

/// From the page or a check to the next check.
pub(super) static JUMP: &[Binding] = &[bind(
    &[Char('c')],
    |_| Action::JumpToCheck,
    "go to the next check question",
    Some("check"),
)];

/// A check with the focus: choose an option, or start typing.
pub(super) static CHECK: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next option",
        Some("choose"),
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "previous option",
        None,
    ),
    bind(
        &[Code(Enter)],
        |_| Action::Open,
        "answer with the selected option (typed answers: start typing)",
        None,
    ),
    bind(
        &[Char('i')],
        |_| Action::TypeAnswer,
        "type the answer (short answers, tracing)",
        None,
    ),
];

/// The check, once it has the focus (after `c`, a reveal or a click).
pub(super) static ANSWERS: &[Binding] = &[bind(
    &[Digit],
    digit,
    "answer with that option",
    Some("answer"),
)];

/// A check with several right answers: tick them all, then submit.
pub(super) static CHOICES: &[Binding] = &[
    bind(&[Digit], digit, "tick or untick that option", Some("tick")),
    bind(
        &[Char(' ')],
        |_| Action::Toggle,
        "tick or untick the selected option",
        None,
    ),
    bind(
        &[Code(Enter)],
        |_| Action::Open,
        "tick the selected option; on Submit (or none selected): submit",
        Some("submit"),
    ),
    bind(
        &[Code(PageDown), Ctrl('d'), Ctrl('f')],
        |_| Action::PageDown,
        "down one page",
        None,
    ),
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next option",
        None,
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "previous option",
        None,
    ),
];

/// Typing a check's answer (the prompt's keys come after these: Enter
/// submits it, Esc cancels it).
pub(super) static ANSWER: &[Binding] = &[bind(
    &[Ctrl('j')],
    |_| Action::Input('\n'),
    "a new line (a program's output)",
    None,
)];

/// The contents: pages of entries.
pub(super) static LIST_PAGES: &[Binding] = &[
    bind(
        &[Char(' '), Code(PageDown), Ctrl('d'), Ctrl('f')],
        |_| Action::PageDown,
        "down one page of entries",
        None,
    ),
    bind(
        &[Char('b'), Code(PageUp), Ctrl('u'), Ctrl('b')],
        |_| Action::PageUp,
        "up one page of entries",
        None,
    ),
    bind(
        &[Char('g'), Code(Home)],
        |_| Action::Top,
        "first entry",
        None,
    ),
    bind(
        &[Char('G'), Code(End)],
        |_| Action::Bottom,
        "last entry",
        None,
    ),
];

/// The stats screen: a misconception's number opens its lesson.
pub(super) static MISCONCEPTIONS: &[Binding] = &[bind(
    &[Digit],
    digit,
    "open the lesson of that misconception",
    Some("open lesson"),
)];

/// A review card: answered with the page's keys, then rated.
pub(super) static REVIEW: &[Binding] = &[
    bind(
        &[Digit],
        digit,
        "answer with that option; once right, how it felt: 1 again, 2 hard, 3 good, 4 easy",
        Some("answer"),
    ),
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next option",
        None,
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "previous option",
        None,
    ),
    bind(
        &[Code(Enter), Char('n')],
        |_| Action::ReviewNext,
        "answer (several: tick; on Submit, submit), then the next card",
        Some("next"),
    ),
    bind(
        &[Char(' ')],
        |_| Action::Toggle,
        "tick the selected option (several answers), else as Enter",
        None,
    ),
    bind(
        &[Char('i')],
        |_| Action::TypeAnswer,
        "type the answer (short answers, tracing)",
        None,
    ),
    bind(
        &[Code(PageDown), Ctrl('d'), Ctrl('f')],
        |_| Action::PageDown,
        "scroll the card down a page",
        None,
    ),
    bind(
        &[Char('b'), Code(PageUp), Ctrl('u'), Ctrl('b')],
        |_| Action::PageUp,
        "scroll the card up a page",
        None,
    ),
    bind(
        &[Char('o')],
        |_| Action::ReviewReread,
        "the card's lesson at its question (unanswered: a peek); R returns",
        Some("re-read"),
    ),
];
