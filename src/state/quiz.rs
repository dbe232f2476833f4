//! Answering the check question while reading: scoring, the answer's
//! marks, and the attempt that is saved.

use super::State;
use super::action::Effect;
use super::update::jump_to_check;
use crate::model::Verdict;

pub(super) fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some(check) = s.doc.as_ref().and_then(|d| d.lesson.check.clone()) else {
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
    s.quiz.chosen = Some(index);
    s.quiz.cursor = Some(pos);
    s.quiz.attempts += 1;
    if s.quiz.first_try.is_none() {
        s.quiz.first_try = Some(correct);
    }
    s.notice = Some(if correct {
        "✔ Right.".into()
    } else {
        "✘ Not quite: read why it tempts, then r to retry or a to reveal.".into()
    });
    record(s, s.lesson_key(), index, correct, false, fx);
    s.relayout_check();
    jump_to_check(s);
}

pub(super) fn page_click(s: &mut State, row: u16, fx: &mut Vec<Effect>) {
    let Some(doc) = &s.doc else { return };
    let Some(check) = &doc.lesson.check else {
        return;
    };
    let line = s.top + usize::from(row);
    let start = doc.check_start();
    if line < start {
        return;
    }
    // The option whose number begins at or above the clicked row.
    let mut found = None;
    for (pos, _) in check.order.iter().enumerate() {
        let label = format!("{}.", pos + 1);
        let begins = (start..=line).rev().find(|&i| {
            doc.line(i)
                .is_some_and(|l| l.text().trim_start().starts_with(&label))
        });
        if let Some(b) = begins {
            if found.is_none_or(|(_, fb)| b > fb) {
                found = Some((pos, b));
            }
        }
    }
    if let Some((pos, _)) = found {
        answer(s, pos, fx);
    }
}

/// Notes an answer in the course's progress and asks for it to be saved.
/// Only an answer given while reading can be the first-try score.
pub(super) fn record(
    s: &mut State,
    key: Option<(String, String)>,
    index: usize,
    correct: bool,
    review: bool,
    fx: &mut Vec<Effect>,
) {
    let Some((course, lesson)) = key else { return };
    let p = s.progress.entry(lesson.clone()).or_default();
    p.attempts += 1;
    if !review {
        p.first_try_correct.get_or_insert(correct);
    }
    p.last_choice = Some(index as u32);
    p.last_correct = Some(correct);
    fx.push(Effect::RecordAttempt {
        course,
        lesson,
        option: index as u32,
        correct,
        review,
    });
}
