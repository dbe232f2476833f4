//! The lesson's check questions while reading: their state, answering
//! every kind, scoring and the attempt that is saved. Typing an answer
//! (short answers, tracing) is in `typed.rs`.

mod typed;

pub(super) use typed::update_typing;

use super::attempt::{self, Answered, record};
use super::reader::Focus;
use super::{Action, Effect, State};
use crate::model::{Answer, Check, CheckKind, CheckState, Verdict};

/// The check that has the keys, and its state.
fn current(s: &State) -> Option<(usize, &Check)> {
    let k = s.reader.current;
    let check = s.reader.doc()?.lesson.checks.get(k)?;
    Some((k, check))
}

/// The focused check's own keys; `false` for the keys it leaves to the
/// page.
pub(super) fn update_focused(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some((k, check)) = current(s) else {
        return false;
    };
    let kind = check.kind.clone();
    let n = check.order.len();
    match a {
        Action::LineDown | Action::LineUp => {
            move_cursor(s, *a == Action::LineDown);
            true
        }
        Action::Toggle => {
            match s.reader.state(k).and_then(|c| c.cursor) {
                Some(pos) => pick(s, pos, fx),
                None => s.notice = Some("Nothing is selected: press a digit, or j/k.".into()),
            }
            true
        }
        Action::Open => {
            let cursor = s.reader.state(k).and_then(|c| c.cursor);
            match (&kind, cursor) {
                // Enter on an option ticks it; on the Submit line submits.
                (CheckKind::Choice { multi: true }, Some(pos)) if pos < n => pick(s, pos, fx),
                (CheckKind::Choice { multi: true }, _) => submit_choices(s, fx),
                (CheckKind::Short { .. } | CheckKind::Tracing { .. }, _)
                    if s.reader.state(k).is_some_and(|c| c.compiles.is_some())
                        || kind_is_short(&kind) =>
                {
                    typed::start(s)
                }
                (_, Some(pos)) => pick(s, pos, fx),
                (_, None) => {
                    s.notice = Some("Nothing is selected: press a digit, or j/k then Enter.".into())
                }
            }
            true
        }
        Action::TypeAnswer => {
            typed::start(s);
            true
        }
        Action::Back => {
            s.reader.focus = Focus::Page;
            if let Some(c) = s.reader.state_mut(k) {
                c.cursor = None;
            }
            s.reader.relayout_check();
            true
        }
        _ => false,
    }
}

fn kind_is_short(kind: &CheckKind) -> bool {
    matches!(kind, CheckKind::Short { .. })
}

/// The check's keys from the page or the check.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    match a {
        Action::JumpToCheck => s.reader.next_check(&s.geometry()),
        Action::Answer(pos) => pick(s, *pos, fx),
        Action::Retry => retry(s),
        Action::Reveal => {
            let g = s.geometry();
            if s.reader.has_check() {
                let k = s.reader.focus_or_visible(&g);
                attempt::reveal(s, k, fx);
                // Shown first to make it current, laid out with its
                // answer, then shown again at its new length.
                s.reader.show_check(k, &g);
                s.reader.relayout_check();
                s.reader.show_check(k, &g);
            }
        }
        Action::PageClick(row) => {
            if let Some((k, pos)) = option_at_row(s, *row) {
                click(s, k, pos, fx);
            }
        }
        _ => return false,
    }
    true
}

fn move_cursor(s: &mut State, down: bool) {
    let Some((k, check)) = current(s) else { return };
    let n = match &check.kind {
        // The Submit line follows the options.
        CheckKind::Choice { multi: true } => check.order.len() + 1,
        CheckKind::Choice { .. } => check.order.len(),
        CheckKind::Tracing { .. } if s.reader.state(k).is_some_and(|c| c.compiles.is_none()) => 2,
        _ => 0,
    };
    if n == 0 {
        return;
    }
    let Some(c) = s.reader.state_mut(k) else {
        return;
    };
    // The first arrow selects the first option (or the last, going up).
    c.cursor = Some(match c.cursor {
        None if down => 0,
        None => n - 1,
        Some(cur) if down => (cur + 1).min(n - 1),
        Some(cur) => cur.saturating_sub(1),
    });
    s.reader.relayout_check();
}

/// A click on option `pos` of check `k`: the first selects it (and gives
/// the check the focus), a second on the same option answers with it, so
/// a click meant to bring the window forward spends no first try.
fn click(s: &mut State, k: usize, pos: usize, fx: &mut Vec<Effect>) {
    if s.reader.state(k).is_none_or(CheckState::answered) {
        s.notice = Some("Answered: r to retry, a to reveal.".into());
        return;
    }
    // A click on the page takes the keys from the contents beside it.
    if s.contents.focused {
        super::contents::leave(s);
    }
    let r = &mut s.reader;
    let confirmed = r.focus == Focus::Check
        && r.current == k
        && r.check().is_some_and(|c| c.cursor == Some(pos));
    if confirmed {
        return pick(s, pos, fx);
    }
    if r.current != k {
        attempt::leave(r);
    }
    r.current = k;
    r.focus = Focus::Check;
    if let Some(c) = r.state_mut(k) {
        c.cursor = Some(pos);
    }
    r.relayout_check();
    s.notice = Some("Selected: click it again, or Enter, to answer with it.".into());
}

/// `r`: the check on screen (or focused) shows no answer again and takes
/// the focus; its first answer still stands as its score.
fn retry(s: &mut State) {
    let g = s.geometry();
    let k = s.reader.focus_or_visible(&g);
    let Some(c) = s.reader.state_mut(k) else {
        return;
    };
    if c.answered() || c.revealed || !c.picked.is_empty() || c.compiles.is_some() {
        *c = CheckState {
            attempts: c.attempts,
            first_try: c.first_try,
            seen_answer: c.seen_answer,
            ..CheckState::default()
        };
        s.reader.show_check(k, &g);
        s.reader.relayout_check();
        s.notice = Some("Try again: your first answer still counts as your score.".into());
    }
}

/// Option `pos` (display order) of the focused check: a single choice
/// answers at once, several answers tick or untick it, a tracing
/// question takes it as yes (1) or no (2) to "does it compile?".
fn pick(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some((k, check)) = current(s) else {
        s.notice = Some("This lesson has no check question.".into());
        return;
    };
    if !attempt::takes_answers(&s.reader, &s.geometry()) {
        s.notice = Some("Press c to go to the check first.".into());
        return;
    }
    let n = check.order.len();
    match check.kind.clone() {
        CheckKind::Choice { multi: false } => answer(s, pos, fx),
        CheckKind::Choice { multi: true } if pos == n => submit_choices(s, fx),
        CheckKind::Choice { multi: true } => {
            let Some(index) = check.option_at(pos) else {
                s.notice = Some(format!("There is no option {}: choose 1 to {n}.", pos + 1));
                return;
            };
            let Some(c) = s.reader.state_mut(k) else {
                return;
            };
            if c.submitted {
                s.notice = Some("Submitted: r to retry, a to reveal.".into());
                return;
            }
            // The cursor stays where it was: Enter then still submits.
            match c.picked.iter().position(|&i| i == index) {
                Some(at) => {
                    c.picked.remove(at);
                }
                None => c.picked.push(index),
            }
            s.reader.relayout_check();
        }
        CheckKind::Tracing { .. } => {
            let Some(c) = s.reader.state_mut(k) else {
                return;
            };
            if c.submitted {
                s.notice = Some("Answered: r to retry, a to reveal.".into());
                return;
            }
            if pos > 1 {
                s.notice = Some("Does it compile? 1 for yes, 2 for no.".into());
                return;
            }
            c.compiles = Some(pos == 0);
            c.cursor = None;
            typed::start(s);
        }
        CheckKind::Short { .. } => typed::start(s),
    }
}

/// A single choice: option `pos` is the answer.
fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some((k, check)) = current(s) else { return };
    let Some(index) = check.option_at(pos) else {
        s.notice = Some(format!(
            "There is no option {}: choose 1 to {}.",
            pos + 1,
            check.order.len()
        ));
        return;
    };
    let reminder = super::review::reminder(s, check);
    let Some(c) = s.reader.state_mut(k) else {
        return;
    };
    c.chosen = Some(index);
    c.cursor = Some(pos);
    given(s, Answer::Choice(vec![index]), reminder, fx);
}

/// Several answers: the options ticked are the answer.
fn submit_choices(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(c) = s.reader.state_mut(s.reader.current) else {
        return;
    };
    if c.submitted {
        s.notice = Some("Submitted: r to retry, a to reveal.".into());
        return;
    }
    if c.picked.is_empty() {
        s.notice = Some("Choose every right answer first (digits or Space), then Enter.".into());
        return;
    }
    c.submitted = true;
    let mut picked = c.picked.clone();
    picked.sort_unstable();
    given(s, Answer::Choice(picked), None, fx);
}

/// An answer to the focused check was given: scored, noted, saved.
pub(super) fn given(s: &mut State, answer: Answer, reminder: Option<String>, fx: &mut Vec<Effect>) {
    let Some((k, check)) = current(s) else { return };
    let correct = check.score_answer(&answer) == Verdict::Right;
    let id = check.id.clone();
    let seen = s.reader.state(k).is_some_and(|c| c.seen_answer);
    let revealed = seen || attempt::was_seen(s, &lesson_slug(s), &id);
    let Some(c) = s.reader.state_mut(k) else {
        return;
    };
    c.seen_answer = revealed;
    c.attempts += 1;
    c.first_try
        .get_or_insert(attempt::first_try(correct, revealed, false));
    s.notice = Some(match (correct, revealed) {
        (true, true) => "✔ Right, after the reveal: practice, not a first-try score.".into(),
        (true, false) => "✔ Right.".into(),
        (false, _) => "✘ Not quite: read why, then r to retry or a to reveal.".into(),
    });
    if let Some(r) = reminder {
        s.notice = Some(format!("{} {r}", s.notice.take().unwrap_or_default()));
    }
    let was_stuck = stuck_before(s, &id);
    if let Some(key) = s.shown_key() {
        let how = Answered {
            review: false,
            revealed,
            drill: false,
        };
        record(s, key, &id, &answer, correct, how, fx);
    }
    // A stuck check shows every option's explanation after its answer.
    if was_stuck {
        attempt::reveal(s, k, fx);
    }
    let g = s.geometry();
    s.reader.relayout_check();
    s.reader.show_check(k, &g);
    // Answered: digits are counts again until `r`.
    attempt::leave(&mut s.reader);
}

/// Whether check `id` of the open lesson was stuck before this answer.
fn stuck_before(s: &State, id: &str) -> bool {
    s.library
        .progress
        .get(&lesson_slug(s))
        .and_then(|p| p.checks.get(id))
        .is_some_and(|c| crate::model::drill::stuck(c, s.prefs.stuck_after))
}

fn lesson_slug(s: &State) -> String {
    s.shown_key().map(|k| k.lesson).unwrap_or_default()
}

/// The check and option whose rows hold the clicked screen row, if any.
fn option_at_row(s: &State, row: u16) -> Option<(usize, usize)> {
    let doc = s.reader.doc()?;
    let (k, line) = doc.check_at(s.reader.top + usize::from(row))?;
    Some((k, doc.check_layout(k)?.option_at(line)?))
}
