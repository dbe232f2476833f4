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
    /// How many of `ids` (a lesson's checks) have been answered.
    pub fn answered<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter()
            .filter(|id| self.checks.get(*id).is_some_and(|c| c.attempts > 0))
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
