//! The check-by-check part of `lectern stats`: each check's first try,
//! round and drill state (`--json`), and the drill and round counts of a
//! course, read by the same rules as the drill itself.

use crate::effects::drill::course_checks;
use crate::model::drill::{first_try_word, round, round_first, stuck};
use crate::model::quizzes::CheckRow;
use crate::model::{Course, DrillKind};
use crate::store::Store;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

/// A course's checks with their progress.
pub(super) fn rows(store: &Store, course: &Course, now: DateTime<Utc>) -> Vec<CheckRow> {
    course_checks(store, course, now)
}

fn verdict(v: Option<bool>) -> Option<&'static str> {
    v.map(|right| if right { "right" } else { "wrong" })
}

/// `"checks"` and `"drill"` of a course's JSON object.
pub(super) fn to_json(rows: &[CheckRow], stuck_after: u32) -> (Value, Value) {
    let checks: Vec<Value> = rows
        .iter()
        .map(|r| {
            let p = r.progress.as_ref();
            json!({
                "lesson": r.lesson,
                "check_id": r.check,
                "kind": r.kind,
                "first_try": p.and_then(first_try_word),
                "attempts": p.map_or(0, |p| p.attempts),
                "last": verdict(p.and_then(|p| p.latest_correct)),
                "round": p.map_or(1, round),
                "round_first_try": verdict(p.and_then(round_first)),
                "misses": p.map_or(0, |p| p.misses),
                "stuck": p.is_some_and(|p| stuck(p, stuck_after)),
                "due_ms": r.due.map(|d| d.timestamp_millis()),
            })
        })
        .collect();
    let count = |k: DrillKind| {
        rows.iter()
            .filter(|r| k.takes(r.progress.as_ref(), stuck_after))
            .count()
    };
    let drill = json!({
        "missed": count(DrillKind::Missed),
        "last_wrong": count(DrillKind::LastWrong),
        "unanswered": count(DrillKind::Unanswered),
        "stuck": count(DrillKind::Stuck),
    });
    (Value::Array(checks), drill)
}

/// One line for the text: what a drill would take, and the rounds'
/// first-try scores when a round was started again.
pub(super) fn text(rows: &[CheckRow], stuck_after: u32) -> String {
    let count = |k: DrillKind| {
        rows.iter()
            .filter(|r| k.takes(r.progress.as_ref(), stuck_after))
            .count()
    };
    let mut line = format!(
        "Drill: {} missed · {} last wrong · {} unanswered · {} stuck",
        count(DrillKind::Missed),
        count(DrillKind::LastWrong),
        count(DrillKind::Unanswered),
        count(DrillKind::Stuck),
    );
    let latest = rows
        .iter()
        .filter_map(|r| r.progress.as_ref().map(round))
        .max()
        .unwrap_or(1);
    if latest > 1 {
        let in_round: Vec<_> = rows
            .iter()
            .filter_map(|r| r.progress.as_ref())
            .filter(|p| round(p) == latest)
            .collect();
        let answered = in_round.iter().filter_map(|p| round_first(p)).count();
        let right = in_round
            .iter()
            .filter(|p| round_first(p) == Some(true))
            .count();
        let first: Vec<_> = in_round
            .iter()
            .filter_map(|p| p.first_try_correct)
            .collect();
        let first_right = first.iter().filter(|&&f| f).count();
        line.push_str(&format!(
            "\nRound {latest}: {right}/{answered}; first round {first_right}/{}",
            first.len()
        ));
    }
    line
}
