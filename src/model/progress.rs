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
    /// When the lesson is next due for review; `None` before any answer.
    pub due: Option<DateTime<Utc>>,
}

/// Review figures of a course, read from the store for the stats screen.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ReviewFigures {
    pub due_today: usize,
    pub due_week: usize,
    pub streak: u32,
    /// "option N of LESSON chosen K times" lines.
    pub misconceptions: Vec<String>,
}
