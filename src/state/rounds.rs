//! A new round of a lesson's checks (`X`), and every option's
//! explanation of an answered check (`e`).
//!
//! A reset is a [`Change::Reset`]: the store deletes nothing, and reads
//! the round's figures from the attempts since it. The page shows the
//! checks unanswered, and the next answer to each is the round's first
//! try, by the same rule as the first round's ([`super::attempt`]).

use super::{Effect, State, attempt, open};
use crate::model::{Change, drill};

/// `X`: the open lesson's checks start a new round.
pub(super) fn reset(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(key) = s.shown_key() else { return };
    let Some(doc) = s.reader.doc() else { return };
    if doc.lesson.checks.is_empty() {
        s.notice = Some("This lesson has no check question to practise again.".into());
        return;
    }
    let round = new_round(s, &key.course, &[key.lesson], fx);
    s.notice = Some(format!(
        "Round {round}: the checks are unanswered again; the first round's score is kept."
    ));
}

/// A new round of the checks of `lessons` of `course`, written; the
/// progress the state holds follows, and the lesson on the page is laid
/// out again when it is one of them. The new round's number (of the last
/// lesson whose progress is held; 2 when none is).
pub(super) fn new_round(
    s: &mut State,
    course: &str,
    lessons: &[String],
    fx: &mut Vec<Effect>,
) -> u32 {
    let mut round = 2;
    if s.course().slug == course {
        for lesson in lessons {
            let p = s.library.progress.entry(lesson.clone()).or_default();
            round = p.checks.values().map(drill::round).max().unwrap_or(1) + 1;
            for c in p.checks.values_mut() {
                c.round = drill::round(c) + 1;
                c.round_attempts = 0;
                c.round_first = None;
                c.last_choice = None;
                c.last_text = None;
                c.last_correct = None;
                c.revealed = false;
            }
        }
    }
    fx.push(Effect::Write(Change::Reset {
        course: course.to_string(),
        lessons: lessons.to_vec(),
        at: None,
    }));
    let shown = s.shown_key();
    if shown.is_some_and(|k| k.course == course && lessons.contains(&k.lesson)) {
        // Laid out again from the progress as it is now: unanswered.
        open::open(s, s.reader.lesson, fx);
    }
    round
}

/// `e`: every option's explanation of the check in view, once answered
/// (before that, `a` reveals the answer). Kept as a reveal: answers
/// after it are practice.
pub(super) fn explain_all(s: &mut State, fx: &mut Vec<Effect>) {
    let g = s.geometry();
    if !s.reader.has_check() {
        return;
    }
    let k = s.reader.focus_or_visible(&g);
    if !s.reader.state(k).is_some_and(|c| c.answered()) {
        s.notice = Some("Answer the check first (a reveals the answer instead).".into());
        return;
    }
    attempt::reveal(s, k, fx);
    s.reader.show_check(k, &g);
    s.reader.relayout_check();
    s.reader.show_check(k, &g);
}
