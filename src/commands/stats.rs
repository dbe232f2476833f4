//! `lectern stats [PATH] [--json]`: each course's progress and reviews, as
//! text or as one JSON object. With no PATH, every course of the library,
//! then the totals.

use super::library::{Shelf, shelves};
use super::stats_checks;
use super::target::{Target, resolve};
use crate::cli::Common;
use crate::layout::Line;
use crate::layout::stats::{course_lines, gone_lines, review_lines, total_line};
use crate::model::{Course, Summary};
use crate::store::{Store, summary};
use chrono::Utc;
use serde_json::{Value, json};
use std::path::Path;

/// How the stats are asked for.
pub(super) struct How {
    pub(super) json: bool,
    pub(super) by_question: bool,
}

pub(super) fn run(
    path: Option<&Path>,
    how: How,
    common: &Common,
    settings: &crate::config::Settings,
) -> super::Outcome {
    let mut store = super::open_store(common, settings);
    let counting = crate::loader::progress::on_stderr("reading the course");
    let shelves = match path {
        None => shelves(&store, &counting),
        Some(_) => match resolve(path, &counting)? {
            Target::Courses(c) => c.into_iter().map(Shelf::Here).collect(),
            Target::Lesson(o) => {
                let p = o.path().map(Path::to_path_buf).unwrap_or_default();
                let courses = crate::loader::open_paths_with_progress(&[p], &counting)?.courses;
                courses.into_iter().map(Shelf::Here).collect()
            }
        },
    };
    drop(counting);
    let (now, days) = (Utc::now(), settings.days());
    let summaries: Vec<(Option<Course>, Summary)> = shelves
        .into_iter()
        .map(|shelf| match shelf {
            Shelf::Here(c) => {
                let s = summary(&store, &c, false, now, &days);
                (Some(c), s)
            }
            Shelf::Gone(entry) => {
                let c = Course {
                    slug: entry.slug,
                    title: entry.title,
                    root: entry.root,
                    lessons: Vec::new(),
                };
                (None, summary(&store, &c, true, now, &days))
            }
        })
        .collect();
    let streak = store.streak_in(now, &days);
    let json = how.json;
    let out = if how.by_question {
        let here: Vec<&Course> = summaries.iter().filter_map(|(c, _)| c.as_ref()).collect();
        super::by_question::report(&store, &here, json)
    } else if json {
        let courses: Vec<Value> = summaries
            .iter()
            .map(|(c, s)| {
                let mut v = to_json(s);
                let rows = c
                    .as_ref()
                    .map_or_else(Vec::new, |c| stats_checks::rows(&store, c, now));
                let (checks, drill) = stats_checks::to_json(&rows, settings.stuck_after.value);
                v["checks"] = checks;
                v["drill"] = drill;
                v
            })
            .collect();
        let v = json!({"courses": courses, "streak_days": streak, "devices": devices(&store)});
        format!("{}\n", crate::out::json(&serde_json::to_string_pretty(&v)?))
    } else {
        let mut out = text(
            &store,
            &summaries,
            streak,
            (now, settings.stuck_after.value),
        );
        out.push_str(&other_machines(&store));
        out
    };
    crate::out::stdout(&out)?;
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    Ok(())
}

fn text(
    store: &Store,
    summaries: &[(Option<Course>, Summary)],
    streak: u32,
    (now, stuck_after): (chrono::DateTime<Utc>, u32),
) -> String {
    let width = 80;
    let mut out = String::new();
    for (i, (course, s)) in summaries.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut lines = match course {
            Some(c) => course_lines(c, &store.course_progress(&c.slug), width),
            None => gone_lines(s, width),
        };
        lines.push(Line::default());
        lines.extend(review_lines(&s.reviews, width));
        crate::render::write_lines(&mut out, &lines, None);
        if let Some(c) = course {
            let rows = stats_checks::rows(store, c, now);
            out.push_str(&stats_checks::text(&rows, stuck_after));
            out.push('\n');
        }
    }
    if summaries.len() > 1 {
        out.push('\n');
        let all: Vec<&Summary> = summaries.iter().map(|(_, s)| s).collect();
        let lines = vec![total_line(&all, streak)];
        crate::render::write_lines(&mut out, &lines, None);
    }
    out
}

fn to_json(s: &Summary) -> Value {
    let misconceptions: Vec<Value> = s
        .reviews
        .misconceptions
        .iter()
        .map(|m| {
            json!({
                "lesson": m.lesson,
                "option": m.option,
                "times": m.times,
                "option_text": m.option_text,
                "lesson_title": m.lesson_title,
                "last_chosen": m.last.to_rfc3339(),
            })
        })
        .collect();
    json!({
        "slug": s.slug,
        "title": s.title,
        "root": s.root.as_ref().map(|r| r.display().to_string()),
        "folder_gone": s.gone,
        "lessons": s.tally.lessons,
        "read": s.tally.read,
        "answered": s.tally.answered,
        "first_try_right": s.tally.first_right,
        "due_now": s.reviews.due_today,
        "due_week": s.reviews.due_week,
        "scheduled": s.reviews.scheduled,
        "misconceptions": misconceptions,
    })
}

/// Whose changes the figures hold, the same list on every machine that has
/// them all: each device by id, with its name and how many changes.
fn devices(store: &Store) -> Value {
    let mut devices = store.sync_status().devices;
    devices.sort_by(|a, b| a.id.cmp(&b.id));
    let devices: Vec<Value> = devices
        .iter()
        .filter(|d| d.changes > 0)
        .map(|d| json!({"device": d.id, "name": d.name, "changes": d.changes}))
        .collect();
    Value::Array(devices)
}

/// A word when the figures include other machines' changes (`lectern
/// sync`): which, and how recent.
fn other_machines(store: &Store) -> String {
    let status = store.sync_status();
    let others: Vec<String> = status
        .others()
        .map(|d| {
            let last = d.last_change.map_or(String::new(), |t| {
                let local = t.with_timezone(&chrono::Local);
                format!(", last {}", local.format("%Y-%m-%d %H:%M"))
            });
            format!("{} ({} changes{last})", d.shown(), d.changes)
        })
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let line = format!(
        "\nThese figures include the changes of other machines: {}.\n",
        others.join(", ")
    );
    crate::out::clean_lines(&line)
}
