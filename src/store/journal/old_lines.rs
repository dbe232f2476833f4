//! The lines of journals written before changes were [`Change`]s: an
//! `"op"` and its fields, with a course's slug under `"course"` and its
//! title under `"lesson"` for a course remembered. A learner who upgrades
//! with such a journal still pending has it replayed, not lost.

use serde_json::Value;

use super::super::time::from_ms;
use crate::model::{Anchor, Change, LessonKey};

/// The change an old journal line holds, if it is one.
pub(super) fn decode(line: &[u8]) -> Option<Change> {
    let v: Value = serde_json::from_slice(line).ok()?;
    let text = |k: &str| v.get(k)?.as_str().map(str::to_owned);
    let num = |k: &str| u32::try_from(v.get(k)?.as_u64()?).ok();
    let flag = |k: &str| v.get(k)?.as_bool();
    let at = || Some(from_ms(v.get("at_ms")?.as_i64()?));
    let (course, lesson) = (text("course")?, text("lesson")?);
    let key = || LessonKey::new(course.clone(), lesson.clone());
    Some(match v.get("op")?.as_str()? {
        "position" => Change::Position {
            key: key(),
            anchor: Anchor {
                block: num("block")?,
                line: num("line")?,
            },
        },
        "read" => Change::Read { key: key() },
        "completed" => Change::Completed { key: key() },
        "last" => Change::LastLesson { key: key() },
        "checks" => Change::Checks {
            key: key(),
            count: num("count")?,
        },
        "attempt" => Change::Attempt {
            key: key(),
            // Journals written before lessons had several checks: the one.
            check: text("check").unwrap_or_default(),
            option: num("option")?,
            answer: text("answer"),
            correct: flag("correct")?,
            review: flag("review")?,
            // Journals written before reveals were kept had none.
            revealed: flag("revealed").unwrap_or(false),
            drill: false,
            at: Some(at()?),
        },
        "reveal" => Change::Reveal {
            key: key(),
            check: text("check").unwrap_or_default(),
            at: Some(at()?),
        },
        "rate" => Change::Rate {
            key: key(),
            check: text("check").unwrap_or_default(),
            rating: u8::try_from(num("rating")?).ok()?,
        },
        "remember" => Change::Remember {
            slug: course,
            title: lesson,
            root: text("root").map(Into::into),
            lessons: num("lessons").unwrap_or(0),
            at: Some(at()?),
        },
        _ => return None,
    })
}
