//! What counts as an answer, written once for the page, the check and the
//! review (the store keeps what these say and reads its first tries by
//! the same rule):
//!
//! - a check takes answers only while it has the focus, is on screen and
//!   shows no answer; the focus comes with `c`, a click or `r`, and leaves
//!   when the check scrolls off screen, on Esc and once it is answered, so
//!   digits are then counts again;
//! - a click selects an option; a second click on it (or Enter) answers;
//! - an answer is a first try only when it is the check's first, given
//!   while reading, and the answer was never shown before it: a reveal,
//!   or a peek at the lesson from a review card, is kept at once, so every
//!   later answer to that check, in any session, is practice.

use super::geometry::Geometry;
use super::reader::{Focus, Reader};
use super::{Effect, State};
use crate::model::{Answer, Change, LessonKey};

/// Whether any line of check `k` is on screen.
pub(super) fn on_screen(r: &Reader, k: usize, g: &Geometry) -> bool {
    let Some(doc) = r.doc() else {
        return false;
    };
    let (Some(start), Some(layout)) = (doc.check_start(k), doc.check_layout(k)) else {
        return false;
    };
    let end = start + layout.lines.len();
    start < r.top + g.rows() && end > r.top
}

/// Whether the current check takes answers now.
pub(super) fn takes_answers(r: &Reader, g: &Geometry) -> bool {
    r.focus == Focus::Check
        && on_screen(r, r.current, g)
        && r.check().is_some_and(|c| !c.answered())
}

/// The focus leaves the current check (its cursor with it).
pub(super) fn leave(r: &mut Reader) {
    if matches!(r.focus, Focus::Check | Focus::Answer) {
        r.focus = Focus::Page;
    }
    if let Some(c) = r.state_mut(r.current) {
        c.cursor = None;
    }
    r.relayout_check();
}

/// After every key: a focused check that no longer takes answers (off
/// screen, answered) gives the keys back to the page.
pub(super) fn keep_focus(r: &mut Reader, g: &Geometry) {
    if r.focus == Focus::Check && !takes_answers(r, g) {
        leave(r);
    }
}

/// Whether an answer scores as a first try.
pub(super) fn first_try(correct: bool, seen_answer: bool, review: bool) -> bool {
    correct && !seen_answer && !review
}

/// The answer of the open lesson's check `k` is shown: shown on the
/// page, and kept (see [`seen`]).
pub(super) fn reveal(s: &mut State, k: usize, fx: &mut Vec<Effect>) {
    let Some(id) = s
        .reader
        .doc()
        .and_then(|d| Some(d.lesson.checks.get(k)?.id.clone()))
    else {
        return;
    };
    if let Some(c) = s.reader.state_mut(k) {
        c.revealed = true;
        c.seen_answer = true;
    }
    if let Some(key) = s.shown_key() {
        seen(s, key, &id, fx);
    }
}

/// Check `id` of lesson `key` had its answer shown: noted in the
/// progress the reader holds and kept in the store at once, the first
/// time only.
pub(super) fn seen(s: &mut State, key: LessonKey, id: &str, fx: &mut Vec<Effect>) {
    let p = s.library.progress.entry(key.lesson.clone()).or_default();
    let c = p.checks.entry(id.to_string()).or_default();
    if !c.revealed {
        c.revealed = true;
        fx.push(Effect::Write(Change::Reveal {
            key,
            check: id.to_string(),
            at: None,
        }));
    }
}

/// Whether check `id` of lesson `slug` had its answer shown.
pub(super) fn was_seen(s: &State, slug: &str, id: &str) -> bool {
    s.library
        .progress
        .get(slug)
        .and_then(|p| p.checks.get(id))
        .is_some_and(|c| c.revealed)
}

/// How an answer was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Answered {
    /// In a spaced review rather than while reading.
    pub review: bool,
    /// After the answer was shown.
    pub revealed: bool,
    /// In a drill: practice of what was missed.
    pub drill: bool,
}

/// Notes an answer to check `id` in the course's progress and asks for it
/// to be saved. Only an answer given while reading, before any reveal,
/// can be the first-try score.
pub(super) fn record(
    s: &mut State,
    key: LessonKey,
    id: &str,
    answer: &Answer,
    correct: bool,
    how: Answered,
    fx: &mut Vec<Effect>,
) {
    let (option, text) = answer.stored();
    let p = s.library.progress.entry(key.lesson.clone()).or_default();
    p.attempts += 1;
    let c = p.checks.entry(id.to_string()).or_default();
    let before = crate::model::drill::round_attempts(c);
    let first_in_round = before == 0;
    c.round = c.round.max(1);
    c.attempts += 1;
    c.round_attempts = before + 1;
    c.misses += u32::from(!correct);
    c.latest_correct = Some(correct);
    if !how.review {
        let first = first_try(correct, how.revealed, how.review);
        p.first_try_correct.get_or_insert(first);
        c.first_try_correct.get_or_insert(first);
        if first_in_round {
            c.round_first.get_or_insert(first);
        }
    }
    let choice = (option != crate::model::NO_OPTION).then_some(option);
    p.last_choice = choice;
    p.last_correct = Some(correct);
    c.last_choice = choice;
    c.last_text = text.clone();
    c.last_correct = Some(correct);
    fx.push(Effect::Write(Change::Attempt {
        key,
        check: id.to_string(),
        option,
        answer: text,
        correct,
        review: how.review,
        revealed: how.revealed,
        drill: how.drill,
        at: None,
    }));
}
