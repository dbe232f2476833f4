//! The check question while reading: its state, answering, scoring and
//! the attempt that is saved.

use super::reader::Focus;
use super::{Action, Effect, State};
use crate::layout::CheckMarks;
use crate::model::{LessonKey, Verdict};

/// What the reader has done with the open lesson's check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckState {
    /// File-order index of the option chosen last.
    pub chosen: Option<usize>,
    /// Show the right answer and every option's explanation.
    pub revealed: bool,
    /// Display position under the keyboard cursor.
    pub cursor: Option<usize>,
    pub attempts: u32,
    pub first_try: Option<bool>,
    /// The answer was shown since the lesson opened (a retry does not
    /// hide that): answers from then on are practice, never a right
    /// first try.
    pub seen_answer: bool,
}

impl CheckState {
    pub fn marks(&self) -> CheckMarks {
        CheckMarks {
            chosen: self.chosen,
            revealed: self.revealed,
            cursor: self.cursor,
            attempts: self.attempts,
            first_try: self.first_try,
        }
    }

    /// As the store left it: the last answer shown, nothing selected.
    pub fn resumed(p: &crate::model::LessonProgress) -> CheckState {
        CheckState {
            chosen: p.last_choice.map(|c| c as usize),
            revealed: false,
            cursor: None,
            attempts: p.attempts,
            first_try: p.first_try_correct,
            seen_answer: false,
        }
    }
}

/// The check's own keys while it has the focus; `false` for the keys it
/// leaves to the page.
pub(super) fn update_focused(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    match a {
        Action::LineDown | Action::LineUp => {
            move_cursor(s, *a == Action::LineDown);
            true
        }
        Action::Open => {
            match s.reader.check.cursor {
                Some(pos) => answer(s, pos, fx),
                None => {
                    s.notice = Some("Nothing is selected: press a digit, or j/k then Enter.".into())
                }
            }
            true
        }
        Action::Back => {
            s.reader.focus = Focus::Page;
            s.reader.check.cursor = None;
            s.reader.relayout_check();
            true
        }
        _ => false,
    }
}

/// The check's keys from the page or the check.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    match a {
        Action::JumpToCheck => s.reader.jump_to_check(&s.geometry()),
        Action::Answer(pos) => answer(s, *pos, fx),
        Action::Retry => retry(s),
        Action::Reveal => {
            if s.reader.has_check() {
                s.reader.check.revealed = true;
                s.reader.check.seen_answer = true;
                s.reader.relayout_check();
                s.reader.jump_to_check(&s.geometry());
            }
        }
        Action::PageClick(row) => {
            if let Some(pos) = option_at_row(s, *row) {
                answer(s, pos, fx);
            }
        }
        _ => return false,
    }
    true
}

fn move_cursor(s: &mut State, down: bool) {
    let n = s
        .reader
        .doc
        .as_ref()
        .and_then(|d| d.lesson.check())
        .map_or(0, |c| c.order.len());
    if n == 0 {
        return;
    }
    // The first arrow selects the first option (or the last, going up).
    s.reader.check.cursor = Some(match s.reader.check.cursor {
        None if down => 0,
        None => n - 1,
        Some(cur) if down => (cur + 1).min(n - 1),
        Some(cur) => cur.saturating_sub(1),
    });
    s.reader.relayout_check();
}

fn retry(s: &mut State) {
    let c = &mut s.reader.check;
    if c.chosen.is_some() || c.revealed {
        c.chosen = None;
        c.revealed = false;
        s.reader.relayout_check();
        s.notice = Some("Try again: your first answer still counts as your score.".into());
    }
}

fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some(check) = s.reader.doc.as_ref().and_then(|d| d.lesson.check()) else {
        s.notice = Some("This lesson has no check question.".into());
        return;
    };
    let Some(index) = check.option_at(pos) else {
        s.notice = Some(format!(
            "There is no option {}: choose 1 to {}.",
            pos + 1,
            check.order.len()
        ));
        return;
    };
    let correct = check.score(index) == Verdict::Right;
    let reminder = super::review::reminder(s, check);
    let c = &mut s.reader.check;
    let revealed = c.seen_answer;
    c.chosen = Some(index);
    c.cursor = Some(pos);
    c.attempts += 1;
    c.first_try.get_or_insert(correct && !revealed);
    s.notice = Some(match (correct, revealed) {
        (true, true) => "✔ Right, after the reveal: practice, not a first-try score.".into(),
        (true, false) => "✔ Right.".into(),
        (false, _) => "✘ Not quite: read why it tempts, then r to retry or a to reveal.".into(),
    });
    if let Some(r) = reminder {
        s.notice = Some(format!("{} {r}", s.notice.take().unwrap_or_default()));
    }
    if let Some(key) = s.lesson_key() {
        let how = Answered {
            review: false,
            revealed,
        };
        record(s, key, index, correct, how, fx);
    }
    s.reader.relayout_check();
    s.reader.jump_to_check(&s.geometry());
}

/// The option whose rows hold the clicked screen row, if any.
fn option_at_row(s: &State, row: u16) -> Option<usize> {
    let doc = s.reader.doc.as_ref()?;
    let line = (s.reader.top + usize::from(row)).checked_sub(doc.check_start())?;
    doc.check.option_at(line)
}

/// How an answer was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Answered {
    /// In a spaced review rather than while reading.
    pub review: bool,
    /// After the answer was shown.
    pub revealed: bool,
}

/// Notes an answer in the course's progress and asks for it to be saved.
/// Only an answer given while reading, before any reveal, can be the
/// first-try score.
pub(super) fn record(
    s: &mut State,
    key: LessonKey,
    index: usize,
    correct: bool,
    how: Answered,
    fx: &mut Vec<Effect>,
) {
    let p = s.library.progress.entry(key.lesson.clone()).or_default();
    p.attempts += 1;
    if !how.review {
        p.first_try_correct.get_or_insert(correct && !how.revealed);
    }
    p.last_choice = Some(index as u32);
    p.last_correct = Some(correct);
    fx.push(Effect::RecordAttempt {
        key,
        option: index as u32,
        correct,
        review: how.review,
        revealed: how.revealed,
    });
}
