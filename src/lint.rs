//! `lectern lint`: every finding about lesson files as
//! `FILE:LINE:COL: error|warning: message (at json.path)`.

use crate::loader::{self, Diagnostic, JsonPath, Origin, Severity};
use std::collections::HashMap;
use std::path::PathBuf;

/// What a course-level check needs of each lesson that loaded.
struct Seen {
    name: String,
    bytes: Vec<u8>,
    course: String,
    slug: String,
    position: Option<u32>,
    prev: Option<String>,
    next: Option<String>,
}

fn at(seen: &Seen, path: &str, severity: Severity, message: String) -> Diagnostic {
    let jp = JsonPath::parse(path);
    let mut d = loader::diagnostics(
        &seen.name,
        &seen.bytes,
        &[loader::Finding {
            level: match severity {
                Severity::Error => loader::Level::Error,
                Severity::Warning => loader::Level::Warning,
            },
            path: jp,
            message,
        }],
    );
    d.remove(0)
}

/// Lints files and folders; built-in lessons when `paths` is empty.
pub(crate) fn lint(paths: &[PathBuf]) -> Vec<Diagnostic> {
    let mut skipped = Vec::new();
    let mut books = Vec::new();
    let origins: Vec<Origin> = if paths.is_empty() {
        loader::BUILTIN
            .iter()
            .map(|(n, _)| Origin::Builtin(n))
            .collect()
    } else {
        paths
            .iter()
            .flat_map(|p| {
                // A path in an mdBook: the book's own checks.
                if let Some(found) = loader::lint_book(p) {
                    books.extend(found);
                    books.extend(loader::lint_reach(p).unwrap_or_default());
                    return Vec::new();
                }
                if p.exists() {
                    loader::named(p);
                    // One walk that cannot loop (symlink cycles) or block
                    // (FIFOs): what it will not open is a warning.
                    let walk = loader::lesson_tree(p);
                    skipped.extend(walk.skipped.iter().map(|s| s.diagnostic()));
                    // A folder of books: each book as a book, not its files.
                    let shelf = shelved_books(p, &mut books);
                    walk.files
                        .into_iter()
                        .filter(|f| !shelf.iter().any(|b| f.starts_with(b)))
                        .map(Origin::File)
                        .collect()
                } else {
                    vec![Origin::File(p.clone())]
                }
            })
            .collect()
    };
    let mut out = skipped;
    out.append(&mut books);
    let mut seen = Vec::new();
    let counting = loader::progress::on_stderr("checking");
    for origin in origins {
        counting.tick();
        let name = origin.name();
        let bytes = match loader::read(&origin) {
            Ok(b) => b.into_owned(),
            Err(e) => {
                out.push(Diagnostic::error(&name, format!("cannot read lesson: {e}")));
                continue;
            }
        };
        match loader::load_from(&origin, &bytes) {
            // A JSON lesson's every problem, not only the first.
            Err(_) if is_json(&origin) => out.extend(loader::every_problem(&name, &bytes)),
            Err(d) => out.push(d),
            Ok(l) => {
                out.extend(loader::diagnostics(&name, &bytes, &l.findings));
                // Markdown lessons are ordered by their file names.
                if loader::is_markdown(&origin) {
                    if let Some(file) = origin.path() {
                        let text = String::from_utf8_lossy(&bytes);
                        out.extend(loader::images::missing(file, &text, None));
                    }
                    continue;
                }
                let m = l.lesson.meta;
                seen.push(Seen {
                    name,
                    bytes,
                    course: m.course_slug,
                    slug: m.slug,
                    position: m.position,
                    prev: m.prev.map(|p| p.slug),
                    next: m.next.map(|n| n.slug),
                });
            }
        }
    }
    out.extend(course_checks(&seen));
    out
}

fn is_json(origin: &Origin) -> bool {
    origin
        .path()
        .and_then(|p| p.extension())
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
}

/// The books in the folders of `dir`, linted into `out`.
fn shelved_books(dir: &std::path::Path, out: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let subs = loader::walk::folder(dir)
        .map(|(_, d)| d)
        .unwrap_or_default();
    subs.into_iter()
        .filter(|sub| match loader::lint_book(sub) {
            Some(found) => {
                out.extend(found);
                out.extend(loader::lint_reach(sub).unwrap_or_default());
                true
            }
            None => false,
        })
        .collect()
}

fn course_checks(seen: &[Seen]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut by_course: HashMap<&str, Vec<&Seen>> = HashMap::new();
    for s in seen {
        by_course.entry(&s.course).or_default().push(s);
    }
    for lessons in by_course.values() {
        // prev/next can only be checked when the course is all here; a
        // lone file's neighbours are simply not on the command line.
        let slugs: HashMap<&str, &Seen> = lessons.iter().map(|s| (s.slug.as_str(), *s)).collect();
        let mut positions: HashMap<u32, &Seen> = HashMap::new();
        out.extend(slug_checks(lessons));
        for s in lessons {
            if let Some(p) = s.position {
                if let Some(first) = positions.insert(p, s) {
                    out.push(at(
                        s,
                        "lesson.position",
                        Severity::Warning,
                        format!("duplicate position {p}: also used by {}", first.name),
                    ));
                }
            } else {
                out.push(at(
                    s,
                    "lesson",
                    Severity::Warning,
                    "no `position`: the lesson is placed last".into(),
                ));
            }
            if lessons.len() < 2 {
                continue;
            }
            for (key, target) in [("prev", &s.prev), ("next", &s.next)] {
                if let Some(t) = target
                    && !slugs.contains_key(t.as_str())
                {
                    out.push(at(
                        s,
                        &format!("{key}.slug"),
                        Severity::Warning,
                        format!("`{key}` names lesson `{t}`, which is not in this course"),
                    ));
                }
            }
        }
    }
    out
}

/// A slug names a lesson in the store and in links (`prev`, `next`): an
/// empty one names nothing, and two lessons with one slug share progress.
fn slug_checks(lessons: &[&Seen]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut first: HashMap<&str, &Seen> = HashMap::new();
    for s in lessons {
        if s.slug.trim().is_empty() {
            out.push(at(
                s,
                "lesson.slug",
                Severity::Warning,
                "empty `slug`: the lesson cannot be told apart or linked to".into(),
            ));
        } else if let Some(other) = first.get(s.slug.as_str()) {
            out.push(at(
                s,
                "lesson.slug",
                Severity::Warning,
                format!(
                    "duplicate slug `{}`: also used by {}; the two share progress",
                    s.slug, other.name
                ),
            ));
        } else {
            first.insert(&s.slug, s);
        }
    }
    out
}

pub(crate) fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
