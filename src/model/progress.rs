//! What the learner has done, as plain values: the store keeps them, the
//! state shows them. Here so that the state never needs the store's types.

use super::Anchor;
use chrono::{DateTime, Utc};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LessonProgress {
    pub read: bool,
    pub completed: bool,
    pub anchor: Option<Anchor>,
    /// Every attempt, reviews included.
    pub attempts: u32,
    pub first_try_correct: Option<bool>,
    pub last_choice: Option<u32>,
    pub last_correct: Option<bool>,
    /// When the lesson's first card is next due for review; `None`
    /// before any answer.
    pub due: Option<DateTime<Utc>>,
    /// How many checks the lesson held when last opened.
    pub check_count: Option<u32>,
    /// Each check answered, by its id (the lesson-wide figures above sum
    /// them up).
    pub checks: std::collections::BTreeMap<String, super::CheckProgress>,
}

impl LessonProgress {
    /// How many of `ids` (a lesson's checks) have been answered in their
    /// current round (a reset shows them unanswered again).
    pub fn answered<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter()
            .filter(|id| {
                self.checks
                    .get(*id)
                    .is_some_and(|c| super::drill::round_attempts(c) > 0)
            })
            .count()
    }
}

/// The cards due for review, as the store finds them across the courses
/// asked about, and what comes after them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DueCards {
    /// `(course slug, lesson slug, check id)`, oldest first (see
    /// `Store::due_until`). No check id: the lesson's first check.
    pub cards: Vec<(String, String, Option<String>)>,
    /// When the next card not yet due comes.
    pub next: Option<DateTime<Utc>>,
    /// Cards scheduled for later.
    pub scheduled: usize,
    /// Of those, how many per course (slug), in the order asked.
    pub scheduled_by: Vec<(String, usize)>,
}

/// A course of the learner's library with its figures, for the course
/// picker and the stats screen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShelfFigure {
    pub slug: String,
    pub title: String,
    /// Where it lives; `None` for the built-in course.
    pub root: Option<std::path::PathBuf>,
    /// Its folder is gone: its progress is kept, it cannot be opened.
    pub gone: bool,
    pub lessons: usize,
    pub read: usize,
    pub answered: usize,
    pub due_today: usize,
}

/// A wrong option the learner keeps choosing, named by its own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisconceptionFigure {
    pub lesson: String,
    /// The check of the lesson whose option it is.
    pub check: String,
    pub lesson_title: String,
    /// File-order index of the option.
    pub option: u32,
    /// The option's text, when its lesson could be read.
    pub option_text: Option<String>,
    pub times: u32,
    pub last: DateTime<Utc>,
}

/// Review figures of a course, read from the store for the stats screen
/// and `lectern stats`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ReviewFigures {
    /// Due before the learner's day ends (the review's "due now").
    pub due_today: usize,
    /// Due before the end of the sixth learner-day after today.
    pub due_week: usize,
    /// Cards scheduled for after today.
    pub scheduled: usize,
    pub streak: u32,
    pub misconceptions: Vec<MisconceptionFigure>,
    /// Review answers per learner-week, oldest first, this week last.
    pub weekly: Vec<u32>,
}

/// Lessons, lessons read, checks answered and answered right at the first
/// try, summed over some lessons.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) lessons: usize,
    pub(crate) read: usize,
    pub(crate) answered: usize,
    pub(crate) first_right: usize,
}

impl Tally {
    pub(crate) fn add(&mut self, p: Option<&LessonProgress>) {
        self.lessons += 1;
        let Some(p) = p else { return };
        self.read += usize::from(p.read);
        let (answered, right) = first_tries(p);
        self.answered += answered;
        self.first_right += right;
    }

    pub(crate) fn score(&self) -> Option<u32> {
        (self.answered > 0).then(|| (self.first_right * 100 / self.answered) as u32)
    }
}

/// Checks answered, and answered right at the first try, of a lesson:
/// every check counts (a chapter of three quizzes is three answers); the
/// lesson-wide figures stand for progress kept before checks had ids.
pub(crate) fn first_tries(p: &LessonProgress) -> (usize, usize) {
    let firsts: Vec<bool> = p
        .checks
        .values()
        .filter_map(|c| c.first_try_correct)
        .collect();
    match p.first_try_correct {
        Some(first) if firsts.is_empty() => (1, usize::from(first)),
        _ => (firsts.len(), firsts.iter().filter(|&&f| f).count()),
    }
}

/// One course's figures, as `lectern stats` prints them (text or JSON).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    pub(crate) slug: String,
    pub(crate) title: String,
    pub(crate) root: Option<std::path::PathBuf>,
    /// Its folder is gone: the figures are the store's alone.
    pub(crate) gone: bool,
    pub(crate) tally: Tally,
    pub(crate) reviews: ReviewFigures,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_of_a_lesson_counts() {
        let check = |first| super::super::CheckProgress {
            attempts: 1,
            first_try_correct: Some(first),
            ..Default::default()
        };
        let p = LessonProgress {
            first_try_correct: Some(true),
            checks: [("a", true), ("b", false), ("c", true)]
                .map(|(id, f)| (id.to_string(), check(f)))
                .into_iter()
                .collect(),
            ..Default::default()
        };
        let mut t = Tally::default();
        t.add(Some(&p));
        assert_eq!(
            (t.lessons, t.answered, t.first_right, t.score()),
            (1, 3, 2, Some(66))
        );
    }

    #[test]
    fn tallies_count_lessons_without_progress() {
        let mut t = Tally::default();
        t.add(Some(&LessonProgress {
            read: true,
            first_try_correct: Some(true),
            ..Default::default()
        }));
        t.add(Some(&LessonProgress {
            first_try_correct: Some(false),
            ..Default::default()
        }));
        t.add(None);
        assert_eq!(
            (t.lessons, t.read, t.answered, t.first_right, t.score()),
            (3, 1, 2, 1, Some(50))
        );
    }
}

/// What merging other machines' changes brought (see `lectern sync`): for
/// the footer, and for the screens that show progress to read it again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SyncNews {
    /// One line: "Merged from laptop: 2 answers, 1 note or mark."
    pub said: String,
    /// The courses whose progress changed, by slug.
    pub courses: Vec<String>,
    /// Whether marks, notes or places in lessons changed.
    pub notes: bool,
}
