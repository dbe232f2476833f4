//! Every check of a course with what the learner did with it, read from
//! its lessons and the store: what a drill chooses from, what `lectern
//! stats --json` lists check by check, and what the quiz dashboard sums.
//!
//! The store is read on the runner (a few queries); the lessons, which a
//! large book has hundreds of, are read in the background.

use crate::loader;
use crate::model::quizzes::{CheckRow, chapters};
use crate::model::{CheckKind, Course, DrillKind, DueCards, LessonProgress};
use crate::state::{Effect, Msg};
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::Arc;

/// Most lessons read for one course's checks: a bound on the work of one
/// drill or one stats line, whatever the folder holds.
const MOST_LESSONS: usize = 5_000;

/// What the store knows of a course's checks: each lesson's progress,
/// and when each check's card is due.
pub(crate) struct Kept {
    progress: HashMap<String, LessonProgress>,
    due: HashMap<(String, String), DateTime<Utc>>,
}

/// The store's part of [`course_checks`]: quick, on the runner.
pub(crate) fn kept(store: &Store, course: &Course, now: DateTime<Utc>) -> Kept {
    let far = now + chrono::Duration::days(365 * 200);
    Kept {
        progress: store.course_progress(&course.slug),
        due: store
            .due_checks(Some(&course.slug), far)
            .into_iter()
            .map(|(_, lesson, check, at)| ((lesson, check), at))
            .collect(),
    }
}

fn kind_name(kind: &CheckKind) -> &'static str {
    match kind {
        CheckKind::Choice { multi: false } => "choice",
        CheckKind::Choice { multi: true } => "choices",
        CheckKind::Short { .. } => "short",
        CheckKind::Tracing { .. } => "tracing",
    }
}

/// Every check of `course` whose lesson can be read (just `lesson`'s
/// when given), with what `kept` says of it; a lesson that does not load
/// is left out. Reads the lessons: off the loop.
pub(crate) fn rows(course: &Course, kept: &Kept, lesson: Option<&str>) -> Vec<CheckRow> {
    let mut rows = Vec::new();
    let entries = course.lessons.iter().take(MOST_LESSONS);
    for entry in entries.filter(|e| lesson.is_none_or(|l| l == e.slug)) {
        let Ok(loaded) = loader::load_lesson(&entry.origin) else {
            continue;
        };
        let p = kept.progress.get(&entry.slug);
        for check in &loaded.checks {
            let key = (entry.slug.clone(), check.id.clone());
            rows.push(CheckRow {
                progress: p.and_then(|p| p.checks.get(&check.id)).cloned(),
                due: kept.due.get(&key).copied(),
                lesson: key.0,
                check: key.1,
                kind: kind_name(&check.kind),
            });
        }
    }
    rows
}

/// Both parts at once, for a command.
pub(crate) fn course_checks(store: &Store, course: &Course, now: DateTime<Utc>) -> Vec<CheckRow> {
    rows(course, &kept(store, course, now), None)
}

impl super::Runner {
    /// [`Effect::LoadDrill`]: the drill's cards, every check it takes in
    /// course order (the state shuffles them), and a seed to shuffle with.
    pub(super) fn load_drill(&mut self, e: Effect) -> Option<Msg> {
        let Effect::LoadDrill {
            courses,
            kind,
            lesson,
            stuck_after,
        } = e
        else {
            return None;
        };
        let now = self.now();
        let store = self.store.as_ref()?;
        let kept: Vec<(Arc<Course>, Kept)> = courses
            .into_iter()
            .map(|c| {
                let k = kept(store, &c, now);
                (c, k)
            })
            .collect();
        let seed = now.timestamp_nanos_opt().unwrap_or(1) as u64;
        self.background_at(true, move |send| {
            let cards = drill_cards(&kept, kind, stuck_after, lesson.as_deref());
            send(super::Reply::Msg(Msg::DrillReady {
                cards: Box::new(cards),
                kind,
                seed,
            }));
        });
        None
    }

    /// [`Effect::LoadQuizzes`]: every chapter with checks of `courses`
    /// and of the rest of the library (read from their folders), course
    /// by course, for the quiz dashboard.
    pub(super) fn load_quizzes(&mut self, e: Effect) -> Option<Msg> {
        let Effect::LoadQuizzes {
            courses,
            stuck_after,
        } = e
        else {
            return None;
        };
        let now = self.now();
        let due_by = self.days.end_of_day(now);
        let store = self.store.as_ref()?;
        let shelved = super::review::shelved(store, &courses);
        let mut kept_all: Vec<(Course, Kept)> = Vec::new();
        for c in courses
            .iter()
            .map(|c| (**c).clone())
            .chain(shelved.iter().cloned())
        {
            let k = kept(store, &c, now);
            kept_all.push((c, k));
        }
        self.background_at(true, move |send| {
            let mut out = Vec::new();
            for (course, kept) in &kept_all {
                let rows = rows(course, kept, None);
                out.extend(chapters(course, &rows, stuck_after, due_by));
            }
            send(super::Reply::Msg(Msg::QuizzesReady {
                chapters: out,
                courses: shelved,
            }));
        });
        None
    }
}

/// The cards of a drill of `kind` over `courses` (just `lesson` of the
/// first when given).
fn drill_cards(
    courses: &[(Arc<Course>, Kept)],
    kind: DrillKind,
    stuck_after: u32,
    lesson: Option<&str>,
) -> DueCards {
    let mut cards = Vec::new();
    for (course, kept) in courses {
        for row in rows(course, kept, lesson) {
            if kind.takes(row.progress.as_ref(), stuck_after) {
                cards.push((course.slug.clone(), row.lesson, Some(row.check)));
            }
        }
    }
    DueCards {
        cards,
        ..DueCards::default()
    }
}
