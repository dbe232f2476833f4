//! What the store's records decide: which cards are due, where a course
//! opens. Kept here, beside the records, rather than in the runtime.

use super::{LessonProgress, Store};
use crate::model::{Course, Days, DueCards};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

impl Store {
    /// Lessons of `course` due for review at `now`, oldest first, then
    /// the lessons read but never answered (new cards, due now).
    pub fn due_cards(&self, course: &Course, now: DateTime<Utc>) -> Vec<String> {
        let mut due: Vec<String> = Vec::new();
        for (lesson, _) in self.due_check_cards(course, now) {
            if !due.contains(&lesson) {
                due.push(lesson);
            }
        }
        due
    }

    /// [`Store::due_cards`] card by card: `(lesson, check id)`, the check
    /// `None` for a lesson read and never answered (its first check).
    pub fn due_check_cards(
        &self,
        course: &Course,
        now: DateTime<Utc>,
    ) -> Vec<(String, Option<String>)> {
        let mut due: Vec<(String, Option<String>)> = self
            .due_checks(Some(&course.slug), now)
            .into_iter()
            .map(|(_, lesson, check, _)| (lesson, Some(check)))
            .collect();
        let progress = self.course_progress(&course.slug);
        for l in &course.lessons {
            let p = progress.get(&l.slug);
            if p.is_some_and(|p| p.read && p.attempts == 0)
                && !due.iter().any(|(d, _)| *d == l.slug)
            {
                due.push((l.slug.clone(), None));
            }
        }
        due
    }

    /// The cards of `courses` due today (the learner's day holding `now`,
    /// see [`Days`]), oldest first, then the lessons read but never
    /// answered; and when nothing more is due today, when the next comes.
    pub fn due_today<Tz: chrono::TimeZone>(
        &self,
        courses: &[Course],
        now: DateTime<Utc>,
        days: &Days<Tz>,
    ) -> DueCards {
        let until = days.end_of_day(now);
        let slugs: Vec<&str> = courses.iter().map(|c| c.slug.as_str()).collect();
        type Card = (String, String, Option<String>);
        let mut cards: Vec<Card> = self
            .due_checks(None, until)
            .into_iter()
            // `due` is inclusive; the day's end belongs to the next day.
            .filter(|(c, _, _, at)| *at < until && slugs.contains(&c.as_str()))
            .map(|(c, l, k, _)| (c, l, Some(k)))
            .collect();
        let mut seen: std::collections::HashSet<Card> = cards.iter().cloned().collect();
        for course in courses {
            for (l, k) in self.due_check_cards(course, until) {
                let card = (course.slug.clone(), l, k);
                if seen.insert(card.clone()) {
                    cards.push(card);
                }
            }
        }
        let (next, counts) = self.upcoming(&slugs, until);
        DueCards {
            cards,
            next,
            scheduled: counts.iter().sum(),
            scheduled_by: slugs.iter().map(|s| s.to_string()).zip(counts).collect(),
        }
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
