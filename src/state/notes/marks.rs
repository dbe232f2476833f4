//! Marks, as in less and vim: `m` and a letter sets one at the top line
//! of the screen; `'` and the letter returns to it, from any lesson; `''`
//! returns to where the last jump came from. Both show the marks while a
//! letter is awaited: the marks list.

use super::super::Overlay;
use super::super::{Action, Effect, State};
use super::{Mark, go, make, top_place};
use crate::model::Change;

/// Waiting for the letter of a mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkPrompt {
    /// `m`: setting one; else `'`: going to one.
    pub set: bool,
}

/// Whether `c` can name a mark: a letter or a digit, as vim's.
fn nameable(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// The prompt's keys: `false` when it is not open.
pub(in crate::state) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Marks(p)) = &s.overlay else {
        return false;
    };
    let set = p.set;
    match a {
        Action::Input(c) => {
            s.overlay = None;
            match (set, *c) {
                (true, c) if nameable(c) => set_mark(s, c, fx),
                (false, '\'' | '`') => back(s, fx),
                (false, c) if nameable(c) => jump(s, c, fx),
                _ => s.notice = Some(format!("A mark is a letter or a digit, not “{c}”.")),
            }
        }
        Action::Back | Action::Close | Action::Open => s.overlay = None,
        _ => {}
    }
    true
}

fn set_mark(s: &mut State, letter: char, fx: &mut Vec<Effect>) {
    s.reader.finish_layout();
    let (Some(key), Some(target)) = (s.shown_key(), top_place(s)) else {
        s.notice = Some("No lesson text on screen to mark.".into());
        return;
    };
    make(
        s,
        Change::Mark {
            key,
            id: format!("mark-{letter}"),
            letter,
            target,
            deleted: false,
            at: None,
        },
        fx,
    );
    s.notice = Some(format!("Mark {letter} set: ' then {letter} returns here."));
}

fn jump(s: &mut State, letter: char, fx: &mut Vec<Effect>) {
    let Some(m) = s.reader.notes.marks.iter().find(|m| m.letter == letter) else {
        s.notice = Some(format!("No mark {letter}: m then {letter} sets it."));
        return;
    };
    let Mark { key, target, .. } = m.clone();
    keep_back(s);
    go(s, key, target, fx);
}

/// `''`: back to where the last jump came from (and again: forth).
fn back(s: &mut State, fx: &mut Vec<Effect>) {
    let Some((key, target)) = s.reader.notes.back.take() else {
        s.notice = Some("No jump to return from yet.".into());
        return;
    };
    keep_back(s);
    go(s, key, target, fx);
}

/// Where the reader is, for `''` after the jump.
fn keep_back(s: &mut State) {
    s.reader.finish_layout();
    if let (Some(key), Some(target)) = (s.shown_key(), top_place(s)) {
        s.reader.notes.back = Some((key, target));
    }
}

/// The marks as the list shows them: letter, lesson, the words there.
pub fn rows(s: &State) -> Vec<(char, String, String)> {
    let mut marks: Vec<&Mark> = s.reader.notes.marks.iter().collect();
    marks.sort_by_key(|m| m.letter);
    marks
        .into_iter()
        .map(|m| {
            let lesson = title_of(s, &m.key);
            (m.letter, lesson, m.target.exact.clone())
        })
        .collect()
}

/// A lesson's title where its course is open, else its course and slug.
pub fn title_of(s: &State, key: &crate::model::LessonKey) -> String {
    let course = s.library.courses.iter().find(|c| c.slug == key.course);
    let entry = course.and_then(|c| c.lessons.iter().find(|l| l.slug == key.lesson));
    match entry {
        Some(e) if key.course == s.course().slug => e.title.clone(),
        Some(e) => format!("{} · {}", course.map_or("", |c| c.title.as_str()), e.title),
        None => format!("{} · {}", key.course, key.lesson),
    }
}
