//! Every check of a course with what the learner did with it, read from
//! its lessons and the store: what a drill chooses from, and what `lectern
//! stats --json` lists check by check.

use crate::loader;
use crate::model::{CheckKind, CheckProgress, Course, DrillKind, DueCards};
use crate::state::{Effect, Msg};
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// Most lessons read for one course's checks: a bound on the work of one
/// drill or one stats line, whatever the folder holds.
const MOST_LESSONS: usize = 5_000;

/// One check of a course, in the course's order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CheckRow {
    pub(crate) lesson: String,
    pub(crate) check: String,
    pub(crate) kind: &'static str,
    /// None: never answered, nor shown.
    pub(crate) progress: Option<CheckProgress>,
    pub(crate) due: Option<DateTime<Utc>>,
}

fn kind_name(kind: &CheckKind) -> &'static str {
    match kind {
        CheckKind::Choice { multi: false } => "choice",
        CheckKind::Choice { multi: true } => "choices",
        CheckKind::Short { .. } => "short",
        CheckKind::Tracing { .. } => "tracing",
    }
}

/// Every check of `course` whose lesson can be read, with its progress
/// and when its card is due (a lesson that does not load is left out).
pub(crate) fn course_checks(store: &Store, course: &Course, now: DateTime<Utc>) -> Vec<CheckRow> {
    let progress = store.course_progress(&course.slug);
    let far = now + chrono::Duration::days(365 * 200);
    let due: HashMap<(String, String), DateTime<Utc>> = store
        .due_checks(Some(&course.slug), far)
        .into_iter()
        .map(|(_, lesson, check, at)| ((lesson, check), at))
        .collect();
    let mut rows = Vec::new();
    for entry in course.lessons.iter().take(MOST_LESSONS) {
        let Ok(lesson) = loader::load_lesson(&entry.origin) else {
            continue;
        };
        let p = progress.get(&entry.slug);
        for check in &lesson.checks {
            let key = (entry.slug.clone(), check.id.clone());
            rows.push(CheckRow {
                progress: p.and_then(|p| p.checks.get(&check.id)).cloned(),
                due: due.get(&key).copied(),
                lesson: key.0,
                check: key.1,
                kind: kind_name(&check.kind),
            });
        }
    }
    rows
}

/// The cards of a drill of `kind` over `courses` (just `lesson` of the
/// first when given): every check it takes, in course order (the state
/// shuffles them).
pub(crate) fn drill_cards(
    store: &Store,
    courses: &[std::sync::Arc<Course>],
    kind: DrillKind,
    stuck_after: u32,
    lesson: Option<&str>,
    now: DateTime<Utc>,
) -> DueCards {
    let mut cards = Vec::new();
    for course in courses {
        for row in course_checks(store, course, now) {
            if lesson.is_some_and(|l| l != row.lesson) {
                continue;
            }
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

impl super::Runner {
    /// [`Effect::LoadDrill`]: the drill's cards, and a seed to shuffle them.
    pub(super) fn load_drill(&self, e: Effect) -> Option<Msg> {
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
        let cards = drill_cards(store, &courses, kind, stuck_after, lesson.as_deref(), now);
        let seed = now.timestamp_nanos_opt().unwrap_or(1) as u64;
        Some(Msg::DrillReady {
            cards: Box::new(cards),
            kind,
            seed,
        })
    }
}
