//! What the store's records decide: which cards are due, where a course
//! opens. Kept here, beside the records, rather than in the runtime.

use super::{LessonProgress, Store};
use crate::model::Course;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

impl Store {
    /// Lessons of `course` due for review at `now`, oldest first, then
    /// the lessons read but never answered (new cards, due now).
    pub fn due_cards(&self, course: &Course, now: DateTime<Utc>) -> Vec<String> {
        let mut due: Vec<String> = self
            .due(Some(&course.slug), now)
            .into_iter()
            .map(|(_, lesson, _)| lesson)
            .collect();
        let progress = self.course_progress(&course.slug);
        for l in &course.lessons {
            let p = progress.get(&l.slug);
            if p.is_some_and(|p| p.read && p.attempts == 0) && !due.contains(&l.slug) {
                due.push(l.slug.clone());
            }
        }
        due
    }

    /// A course's progress, and the lesson it opens at: where the reader
    /// left it, else the first.
    pub fn resume(&self, course: &Course) -> (HashMap<String, LessonProgress>, usize) {
        let progress = self.course_progress(&course.slug);
        let start = self
            .last_lesson(&course.slug)
            .and_then(|slug| course.index_of(&slug))
            .unwrap_or(0);
        (progress, start)
    }
}
