//! What the store's records decide: which cards are due, where a course
//! opens. Kept here, beside the records, rather than in the runtime.

use super::{LessonProgress, Store};
use crate::model::{Course, Days, DueCards};
use chrono::{DateTime, Utc};
use std::borrow::Borrow;
use std::collections::HashMap;

/// A card: `(course, lesson, check id)`.
type Card = (String, String, Option<String>);

impl Store {
    /// The one notion of due, which the review, the stats and the course
    /// picker all count by: the cards of `courses` whose time comes before
    /// `until` (exclusive: the end of the learner's day for "today"),
    /// oldest first. A card is a check answered at least once, of a lesson
    /// its course still lists: a lesson without checks, or only read, is
    /// never one.
    pub fn due_until<C: Borrow<Course>>(&self, courses: &[C], until: DateTime<Utc>) -> Vec<Card> {
        self.due_checks(None, until)
            .into_iter()
            .filter(|(c, l, _, at)| {
                *at < until
                    && courses
                        .iter()
                        .map(Borrow::borrow)
                        .any(|x: &Course| x.slug == *c && x.index_of(l).is_some())
            })
            .map(|(c, l, k, _)| (c, l, Some(k)))
            .collect()
    }

    /// How many cards of `course` are due before `until`: what the review
    /// would take ([`Store::due_until`]).
    pub fn due_count(&self, course: &Course, until: DateTime<Utc>) -> usize {
        self.due_until(std::slice::from_ref(course), until).len()
    }

    /// [`Store::due_count`] for a course of the library that is not open,
    /// by its slug alone (R reads it and counts the same, unless its
    /// lessons changed since).
    pub fn due_count_shelved(&self, slug: &str, until: DateTime<Utc>) -> usize {
        let due = self.due(Some(slug), until);
        due.iter().filter(|(_, _, at)| *at < until).count()
    }

    /// The cards of `courses` due today (the learner's day holding `now`,
    /// see [`Days`]); and when nothing more is due today, when the next
    /// comes.
    pub fn due_today<Tz: chrono::TimeZone, C: Borrow<Course>>(
        &self,
        courses: &[C],
        now: DateTime<Utc>,
        days: &Days<Tz>,
    ) -> DueCards {
        let until = days.end_of_day(now);
        let slugs: Vec<&str> = courses.iter().map(|c| c.borrow().slug.as_str()).collect();
        let (next, counts) = self.upcoming(&slugs, until);
        DueCards {
            cards: self.due_until(courses, until),
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
