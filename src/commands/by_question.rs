//! `lectern stats --by-question [PATH]`: for authors, the checks learners
//! on this machine miss most, each with the answer chosen most often, so
//! that a wrong answer key or a misleading option stands out.

use crate::model::{Course, NO_OPTION, runs_text};
use crate::store::Store;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Most lessons read per course, as for the drill.
const MOST_LESSONS: usize = 5_000;

/// One check with its misses.
struct Missed {
    course: String,
    lesson: String,
    check: String,
    question: String,
    attempts: usize,
    wrong: usize,
    /// The answer chosen most often (wrong or right), its text, how
    /// often, and whether it is right.
    top: Option<(String, usize, bool)>,
}

fn missed(store: &Store, course: &Course) -> Vec<Missed> {
    let mut out = Vec::new();
    for entry in course.lessons.iter().take(MOST_LESSONS) {
        let Ok(lesson) = crate::loader::load_lesson(&entry.origin) else {
            continue;
        };
        let attempts = store.attempts(&course.slug, &entry.slug);
        for check in &lesson.checks {
            let mine: Vec<_> = attempts.iter().filter(|a| a.check == check.id).collect();
            let wrong = mine.iter().filter(|a| !a.correct).count();
            if wrong == 0 {
                continue;
            }
            let mut chosen: HashMap<(String, bool), usize> = HashMap::new();
            for a in &mine {
                let text = match (a.option, &a.answer) {
                    (o, _) if o != NO_OPTION => check
                        .options
                        .get(o as usize)
                        .map_or_else(|| format!("option {o}"), |x| runs_text(&x.text)),
                    (_, Some(t)) => t.clone(),
                    _ => String::new(),
                };
                *chosen.entry((text, a.correct)).or_default() += 1;
            }
            let top = chosen
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                .map(|((text, right), n)| (text, n, right));
            out.push(Missed {
                course: course.slug.clone(),
                lesson: entry.slug.clone(),
                check: check.id.clone(),
                question: runs_text(&check.question),
                attempts: mine.len(),
                wrong,
                top,
            });
        }
    }
    out
}

/// Every missed check of `courses`, most missed first, as text or JSON.
pub(super) fn report(store: &Store, courses: &[&Course], json: bool) -> String {
    let mut all: Vec<Missed> = courses.iter().flat_map(|c| missed(store, c)).collect();
    all.sort_by(|a, b| b.wrong.cmp(&a.wrong).then(a.lesson.cmp(&b.lesson)));
    if json {
        let v: Vec<Value> = all
            .iter()
            .map(|m| {
                json!({
                    "course": m.course, "lesson": m.lesson, "check_id": m.check,
                    "question": m.question, "attempts": m.attempts, "wrong": m.wrong,
                    "most_chosen": m.top.as_ref().map(|(t, n, right)| json!({
                        "answer": t, "times": n, "correct": right
                    })),
                })
            })
            .collect();
        return format!(
            "{}\n",
            crate::out::json(&json!({ "questions": v }).to_string())
        );
    }
    if all.is_empty() {
        return "No check has been missed on this machine.\n".into();
    }
    // Slugs come from file names: said through the sanitiser.
    let mut out = String::new();
    for m in &all {
        out.push_str(&format!(
            "{} of {} wrong · {}/{} {}: {}\n",
            m.wrong, m.attempts, m.course, m.lesson, m.check, m.question
        ));
        if let Some((text, n, right)) = &m.top {
            let mark = if *right { "the right answer" } else { "wrong" };
            out.push_str(&format!("    chosen most: “{text}” ({n} times, {mark})\n"));
        }
    }
    crate::out::clean_lines(&out)
}
