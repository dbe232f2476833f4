//! `lectern notes [PATH] [--format markdown|json]`: every highlight and
//! note of the library (or of the courses at PATH), each placed in its
//! lesson as the file is now, with its status; as markdown (by course and
//! lesson: the quote as a blockquote, the note below, a link back) or as
//! W3C Web Annotation JSON-LD. `lectern notes import FILE.json` reads
//! that JSON back into the store.

use super::library::{Shelf, shelves};
use super::target::{Target, resolve};
use crate::cli::{Common, NotesFormat};
use crate::layout::flow::anchoring;
use crate::model::anchor::{Status, place};
use crate::model::{Change, Course};
use crate::store::Store;
use std::collections::HashMap;
use std::path::Path;

mod annotation;

pub(crate) use annotation::{Exported, from_json, to_json};

pub(super) fn run(
    path: Option<&Path>,
    format: NotesFormat,
    common: &Common,
    settings: &crate::config::Settings,
) -> super::Outcome {
    let mut store = super::open_store(common, settings);
    let counting = crate::loader::progress::on_stderr("reading the course");
    let courses: Vec<Course> = match path {
        None => shelves(&store, &counting)
            .into_iter()
            .filter_map(|s| match s {
                Shelf::Here(c) => Some(c),
                Shelf::Gone(_) => None,
            })
            .collect(),
        Some(_) => match resolve(path, &counting)? {
            Target::Courses(c) => c,
            Target::Lesson(o) => {
                let p = o.path().map(Path::to_path_buf).unwrap_or_default();
                crate::loader::open_paths_with_progress(&[p], &counting)?.courses
            }
        },
    };
    drop(counting);
    let notes = exported(&store, &courses, path.is_none());
    let out = match format {
        // Notes are the learner's own text: no control reaches the terminal.
        NotesFormat::Markdown => crate::out::clean_lines(&markdown(&notes)),
        NotesFormat::Json => {
            let v = to_json(&notes);
            format!("{}\n", crate::out::json(&serde_json::to_string_pretty(&v)?))
        }
    };
    crate::out::stdout(&out)?;
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    Ok(())
}

/// `lectern notes import FILE.json`: each annotation of the file into the
/// store (an id already there keeps whichever change is later).
pub(super) fn import(
    file: &Path,
    common: &Common,
    settings: &crate::config::Settings,
) -> super::Outcome {
    /// Far past any learner's notes; a bound on what is read.
    const MAX_BYTES: u64 = 64 << 20;
    let size = std::fs::metadata(file)?.len();
    if size > MAX_BYTES {
        return Err(format!("{}: over {MAX_BYTES} bytes", file.display()).into());
    }
    let text = std::fs::read_to_string(file)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}:{}:{}: {e}", file.display(), e.line(), e.column()))?;
    let changes = from_json(&value).map_err(|e| format!("{}: {e}", file.display()))?;
    let notes = changes
        .iter()
        .filter(|c| matches!(c, Change::Annotation { .. }))
        .count();
    let mut store = super::open_store(common, settings);
    for c in &changes {
        store.apply(c);
    }
    crate::out::stdout(&format!("{notes} notes imported.\n"))?;
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    Ok(())
}

/// A lesson's flowing text as read now, and its file's name.
type Placing = (Vec<char>, String);

/// Every annotation of `courses` (and, with `all`, those of courses not
/// found, as orphans), placed in its lesson as read now, in course order.
fn exported(store: &Store, courses: &[Course], all: bool) -> Vec<Exported> {
    let mut pages: HashMap<(String, String), Option<Placing>> = HashMap::new();
    let mut out = Vec::new();
    let changes = store.notes();
    let grades = grades(&changes);
    for change in changes {
        let Change::Annotation {
            key,
            id,
            target,
            note,
            at,
            card,
            ..
        } = change
        else {
            continue;
        };
        let card = card.then(|| grades.get(&id).cloned().unwrap_or_default());
        let course = courses.iter().find(|c| c.slug == key.course);
        if course.is_none() && !all {
            continue;
        }
        let entry = course.and_then(|c| c.lessons.iter().find(|l| l.slug == key.lesson));
        let page = pages
            .entry((key.course.clone(), key.lesson.clone()))
            .or_insert_with(|| {
                let entry = entry?;
                let lesson = crate::loader::load(&entry.origin).ok()?.lesson;
                Some((anchoring(&lesson).text, entry.origin.name()))
            });
        let (status, source) = match page {
            Some((text, source)) => (place(text, &target).status, source.clone()),
            None => (Status::Orphan, String::new()),
        };
        let order = (
            courses
                .iter()
                .position(|c| c.slug == key.course)
                .unwrap_or(usize::MAX),
            course
                .and_then(|c| c.index_of(&key.lesson))
                .unwrap_or(usize::MAX),
            target.start,
        );
        out.push((
            order,
            Exported {
                course_title: course.map_or_else(|| key.course.clone(), |c| c.title.clone()),
                lesson_title: entry.map_or_else(|| key.lesson.clone(), |e| e.title.clone()),
                key,
                id,
                target,
                note,
                at,
                status,
                source,
                card,
            },
        ));
    }
    out.sort_by_key(|e| e.0);
    out.into_iter().map(|(_, e)| e).collect()
}

/// Each review card's grades, by its note's id, oldest first.
type Grades = HashMap<String, Vec<(chrono::DateTime<chrono::Utc>, u8)>>;

fn grades(changes: &[Change]) -> Grades {
    let mut out: Grades = HashMap::new();
    for c in changes {
        if let Change::Grade {
            note,
            rating,
            at: Some(at),
            ..
        } = c
        {
            out.entry(note.clone()).or_default().push((*at, *rating));
        }
    }
    for g in out.values_mut() {
        g.sort();
    }
    out
}

/// Grouped by course and lesson: the quote as a blockquote, the note
/// below it, the status and a link back to the lesson's file.
fn markdown(notes: &[Exported]) -> String {
    let mut out = String::from("# Notes\n");
    let (mut course, mut lesson) = (None, None);
    for n in notes {
        if course != Some(&n.key.course) {
            out.push_str(&format!("\n## {}\n", n.course_title));
            course = Some(&n.key.course);
            lesson = None;
        }
        if lesson != Some(&n.key.lesson) {
            out.push_str(&format!("\n### {}\n", n.lesson_title));
            lesson = Some(&n.key.lesson);
        }
        out.push('\n');
        for line in n.target.exact.lines() {
            out.push_str(&format!("> {line}\n"));
        }
        if !n.note.is_empty() {
            out.push('\n');
            out.push_str(&n.note);
            out.push('\n');
        }
        let link = match n.source.as_str() {
            "" => String::from("its lesson is not found"),
            s if s.starts_with("builtin:") => format!("`lectern {s}`"),
            s => format!("[{}]({})", n.lesson_title, link_to(s)),
        };
        let card = match &n.card {
            Some(g) if g.is_empty() => " · a review card, not yet asked".to_string(),
            Some(g) if g.len() == 1 => " · a review card, asked once".to_string(),
            Some(g) => format!(" · a review card, asked {} times", g.len()),
            None => String::new(),
        };
        out.push_str(&format!("\n*{}*{card} · {link}\n", n.status.name()));
    }
    out
}

/// A file's path as a markdown link target (spaces and parentheses
/// escaped, so the link stays one).
fn link_to(path: &str) -> String {
    let mut out = String::from("file://");
    for c in path.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            c => out.push(c),
        }
    }
    out
}
