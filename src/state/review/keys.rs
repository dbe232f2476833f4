//! The review screen's own keys beyond answering: rating a right answer,
//! ticking with Space, typing with `i`, opening the card's lesson (a
//! peek, before answering) and Esc, which ends the review where it began.

use super::super::attempt;
use super::super::open::open;
use super::{answer, card_check, card_kind, next_card};
use crate::model::{Change, CheckKind};
use crate::state::{Effect, State};

/// A digit after a right answer: how it felt, as in Anki (1 again, 2
/// hard, also for a guess, 3 good, 4 easy); FSRS schedules the card with
/// it (Good, as Enter says, is what was kept already). Then the next card.
pub(super) fn rate(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Ok(rating) = u8::try_from(pos + 1) else {
        return;
    };
    if rating > 4 {
        s.notice = Some("1 again · 2 hard (or a guess) · 3 good · 4 easy.".into());
        return;
    }
    let id = card_check(s).map(|c| c.id.clone());
    if let (Some(check), Some(key), true) = (id, s.shown_key(), rating != 3) {
        fx.push(Effect::Write(Change::Rate { key, check, rating }));
    }
    next_card(s, fx);
}

/// Esc: the review ends where the learner was before it began.
pub(super) fn end(s: &mut State, fx: &mut Vec<Effect>) {
    let before = s.review.take().and_then(|r| r.before);
    s.notice = Some("Review ended.".into());
    let Some((course, lesson, anchor)) = before else {
        return;
    };
    if course != s.library.current {
        fx.push(crate::state::courses::switch_course(s, course));
        return;
    }
    if lesson != s.reader.lesson || s.reader.doc().is_none() {
        s.reader.pending.anchor = Some(anchor);
        open(s, lesson, fx);
    } else {
        let g = s.geometry();
        s.reader.top = s.reader.line_of(anchor, &g);
    }
}

/// Space: ticks the selected option of a card of several answers, else
/// goes on as Enter does.
pub(super) fn toggle(s: &mut State, fx: &mut Vec<Effect>) {
    let multi = matches!(card_kind(s), Some(CheckKind::Choice { multi: true }));
    let Some(r) = &s.review else { return };
    match r.card.cursor {
        Some(pos) if multi && !r.answered() && pos < r.order.len() => answer(s, pos, fx),
        None if multi && !r.answered() => {
            s.notice = Some("Nothing is selected: a digit ticks, or j/k then Space.".into())
        }
        _ => next_card(s, fx),
    }
}

/// `i`: typing a short answer, or a tracing card's output once "does it
/// compile?" is answered.
pub(super) fn type_answer(s: &mut State) {
    let kind = card_kind(s);
    let Some(r) = &mut s.review else { return };
    match kind {
        _ if r.answered() => {}
        Some(CheckKind::Short { .. }) => r.typing = true,
        Some(CheckKind::Tracing { .. }) if r.card.compiles.is_some() => r.typing = true,
        Some(CheckKind::Tracing { .. }) => {
            s.notice = Some("Does it compile? 1 for yes, 2 for no.".into())
        }
        _ => {}
    }
}

/// `o`: the card's lesson, at the card's check. Before the card is
/// answered that is a peek, kept as a reveal of the check.
pub(super) fn reread(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(r) = &mut s.review else { return };
    if r.current().is_none() {
        return;
    }
    r.rereading = true;
    let (pos, k, answered) = (r.pos, r.check, r.answered());
    s.notice = Some("Re-reading the lesson: press R to return to your review.".into());
    if !answered {
        r.peeked = Some(pos);
        let id = card_check(s).map(|c| c.id.clone());
        if let (Some(id), Some(key)) = (id, s.shown_key()) {
            attempt::seen(s, key, &id, fx);
            if let Some(c) = s.reader.state_mut(k) {
                c.seen_answer = true;
            }
        }
        s.notice = Some(
            "A peek: this card's answer counts as after a reveal. R returns to the review.".into(),
        );
    }
    let g = s.geometry();
    s.reader.top = 0;
    s.reader.show_check(k, &g);
    s.reader.relayout_check();
}
