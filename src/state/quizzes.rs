//! The quiz dashboard (`Q`): every chapter with checks, course by course,
//! with its first-try score, current round, and how many checks are
//! missed, stuck and due; sorted in reading order or weakest first. Enter
//! drills the chapter under the cursor, `X` starts its checks again.
//!
//! Its figures come from the store through the same rows and rules as
//! `lectern stats --json` ([`crate::model::quizzes`]), read off the loop.

use super::{Action, Effect, Overlay, State, rounds};
use crate::model::quizzes::{Chapter, weaker};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QuizBoard {
    /// `None` until the figures arrive; course by course, in reading
    /// order.
    pub chapters: Option<Vec<Chapter>>,
    /// The order they are listed in: indices into `chapters`.
    pub order: Vec<usize>,
    /// Index into `order`.
    pub cursor: usize,
    /// Weakest first, rather than course by course.
    pub weakest: bool,
}

impl QuizBoard {
    /// The chapters in the order they are listed.
    pub fn listed(&self) -> impl Iterator<Item = &Chapter> {
        let all = self.chapters.as_deref().unwrap_or_default();
        self.order.iter().filter_map(|&i| all.get(i))
    }

    /// The chapter under the cursor.
    pub fn current(&self) -> Option<&Chapter> {
        self.listed().nth(self.cursor)
    }

    fn sort(&mut self) {
        let Some(all) = &self.chapters else { return };
        let at = self.order.get(self.cursor).copied();
        self.order = (0..all.len()).collect();
        if self.weakest {
            self.order.sort_by(|&i, &j| weaker(&all[i], &all[j]));
        }
        self.cursor = at
            .and_then(|i| self.order.iter().position(|&o| o == i))
            .unwrap_or(0);
    }

    fn moved(&mut self, a: &Action) -> bool {
        let last = self.order.len().saturating_sub(1);
        self.cursor = match a {
            Action::LineDown => (self.cursor + 1).min(last),
            Action::LineUp => self.cursor.saturating_sub(1),
            Action::PageDown => (self.cursor + 10).min(last),
            Action::PageUp => self.cursor.saturating_sub(10),
            Action::Top => 0,
            Action::Bottom => last,
            _ => return false,
        };
        true
    }
}

/// `Q`: the dashboard, its figures asked for.
pub(super) fn open(s: &mut State, fx: &mut Vec<Effect>) {
    let weakest = board(s).is_some_and(|b| b.weakest);
    s.overlay = Some(Overlay::Quizzes(QuizBoard {
        weakest,
        ..QuizBoard::default()
    }));
    fx.push(Effect::LoadQuizzes {
        courses: s.library.courses.clone(),
        stuck_after: s.prefs.stuck_after,
    });
}

fn board(s: &State) -> Option<&QuizBoard> {
    match &s.overlay {
        Some(Overlay::Quizzes(b)) => Some(b),
        _ => None,
    }
}

/// The figures arrived (and the library's courses that were not open,
/// which a drill of their chapters needs).
pub(super) fn ready(s: &mut State, chapters: Vec<Chapter>, courses: Vec<crate::model::Course>) {
    for c in courses {
        if !s.library.courses.iter().any(|o| o.slug == c.slug) {
            s.library.courses.push(std::sync::Arc::new(c));
        }
    }
    let here = s.lesson_key();
    if let Some(Overlay::Quizzes(b)) = &mut s.overlay {
        b.chapters = Some(chapters);
        b.sort();
        // Course by course, the list opens at the chapter being read.
        let at = here.and_then(|k| {
            b.listed()
                .position(|c| c.course == k.course && c.lesson == k.lesson)
        });
        if let (false, Some(at)) = (b.weakest, at) {
            b.cursor = at;
        }
    }
}

/// The dashboard's keys; `false` when it is not open.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Quizzes(b)) = &mut s.overlay else {
        return false;
    };
    if b.moved(a) {
        return true;
    }
    match a {
        Action::QuizSort => {
            b.weakest = !b.weakest;
            b.sort();
            // The weakest (or the first chapter) is what the learner
            // wants to see on top, under the cursor.
            b.cursor = 0;
        }
        Action::Quizzes => open(s, fx),
        Action::Open => {
            if let Some(c) = b.current().cloned() {
                drill(s, &c, fx);
            }
        }
        Action::ResetRound => {
            if let Some(c) = b.current().cloned() {
                rounds::new_round(s, &c.course, std::slice::from_ref(&c.lesson), fx);
                new_round_shown(s, &c.course, &c.lesson);
            }
        }
        Action::Back | Action::Close => s.overlay = None,
        _ => {}
    }
    true
}

/// Enter: a drill of the chapter, of what it has to practise.
fn drill(s: &mut State, c: &Chapter, fx: &mut Vec<Effect>) {
    let Some(course) = s.library.courses.iter().find(|x| x.slug == c.course) else {
        return;
    };
    let kind = c.drill_kind();
    s.notice = Some(format!("A drill of {} ({}).", c.title, kind.words()));
    fx.push(Effect::LoadDrill {
        courses: vec![course.clone()],
        kind,
        lesson: Some(c.lesson.clone()),
        stuck_after: s.prefs.stuck_after,
    });
}

/// The chapter's figures as the store now holds them after a reset: a
/// new round, nothing answered in it (the first try and the misses stay).
fn new_round_shown(s: &mut State, course: &str, lesson: &str) {
    let Some(Overlay::Quizzes(b)) = &mut s.overlay else {
        return;
    };
    let all = b.chapters.iter_mut().flatten();
    for c in all.filter(|c| c.course == course && c.lesson == lesson) {
        c.round += 1;
        c.round_answered = 0;
        c.round_right = 0;
        c.missed = 0;
        c.unanswered = c.checks;
    }
    b.sort();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(lesson: &str, right: usize, answered: usize) -> Chapter {
        Chapter {
            course: "c".into(),
            lesson: lesson.into(),
            title: lesson.to_uppercase(),
            checks: 2,
            round: 1,
            round_answered: answered,
            round_right: right,
            missed: answered - right,
            ..Chapter::default()
        }
    }

    #[test]
    fn weakest_first_keeps_the_cursor_on_its_chapter() {
        let mut b = QuizBoard {
            chapters: Some(vec![
                chapter("a", 2, 2),
                chapter("b", 0, 2),
                chapter("z", 1, 2),
            ]),
            ..QuizBoard::default()
        };
        b.sort();
        assert_eq!(b.order, [0, 1, 2]);
        b.cursor = 2;
        b.weakest = true;
        b.sort();
        assert_eq!(b.order, [1, 2, 0]);
        assert_eq!(b.current().unwrap().lesson, "z");
        assert!(b.moved(&Action::Bottom));
        assert_eq!(b.current().unwrap().lesson, "a");
    }
}
