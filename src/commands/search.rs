//! `lectern search [PATH] WORDS...`: the course search's ranked hits as
//! text, one a line as `man -k` prints them, or as JSON.

use crate::index::{Found, Index, Query, Shown};
use crate::loader::walk::os_bytes;
use crate::loader::{self, Diagnostic};
use crate::model::sanitize::clean;
use crate::model::{Course, Origin};
use crate::store::Store;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The courses searched when no PATH is given: the whole library (every
/// course the learner has opened whose folder is still there), or the
/// built-in course before any was opened.
pub(crate) fn library(data_dir: Option<&Path>, _index: &mut Index) -> Vec<Course> {
    let store = Store::open(data_dir);
    super::library::shelves(&store, &crate::loader::Progress::none())
        .into_iter()
        .filter_map(|shelf| match shelf {
            super::library::Shelf::Here(course) => Some(course),
            super::library::Shelf::Gone(_) => None,
        })
        .collect()
}

/// The first word is a PATH when it names a file or folder that exists
/// (or a `builtin:` lesson) and words follow it.
fn split(args: &[String]) -> (Option<PathBuf>, &[String]) {
    match args {
        [first, rest @ ..]
            if !rest.is_empty() && (Path::new(first).exists() || first.starts_with("builtin:")) =>
        {
            (Some(PathBuf::from(first)), rest)
        }
        _ => (None, args),
    }
}

/// What a search of a PATH alone lacks: the words (`lectern search
/// BOOK` would otherwise look for the word BOOK everywhere and say
/// nothing matches it).
pub(super) fn no_words(args: &[String]) -> Option<String> {
    match args {
        [only] if Path::new(only).exists() || only.starts_with("builtin:") => Some(format!(
            "no words to find in {}: give them after it",
            clean(only)
        )),
        _ => None,
    }
}

fn courses(
    path: Option<&Path>,
    data: Option<&Path>,
    index: &mut Index,
) -> Result<Vec<Course>, Diagnostic> {
    let Some(path) = path else {
        return Ok(library(data, index));
    };
    if path.to_string_lossy().starts_with("builtin:") {
        return Ok(vec![loader::builtin_course()]);
    }
    let lib = loader::open_paths_with(&[path.to_path_buf()], &mut |d| index.courses(d))?;
    Ok(lib.courses)
}

/// The folder's courses as last listed, when it still holds the same
/// files: no header is read again. Whether any file changed is for the
/// caller to see, by the text index's stamps.
fn as_listed(path: Option<&Path>, index: &Index) -> Option<Vec<Course>> {
    let dir = path.filter(|p| p.is_dir())?;
    let listed = index.snapshot(dir)?;
    let paths = || {
        listed
            .iter()
            .flat_map(|c| c.lessons.iter().filter_map(|l| l.origin.path()))
    };
    // Its files all directly in it: one stat of the folder tells whether
    // any came or went (a nested course's folders are read again).
    let flat = paths().all(|p| p.parent() == Some(dir));
    if flat && index.folder_unchanged(dir) {
        return Some(listed);
    }
    let mut files: Vec<&[u8]> = Vec::new();
    let found = loader::lesson_files(dir).ok()?;
    files.extend(found.iter().map(|p| os_bytes(p.as_os_str())));
    let mut known: Vec<&[u8]> = paths().map(|p| os_bytes(p.as_os_str())).collect();
    // As bytes: sorting paths by their components took longer than the
    // search itself.
    files.sort_unstable();
    known.sort_unstable();
    (files == known).then_some(listed)
}

/// The lessons of `found`'s hits, from `courses`, the lessons of which
/// were searched in course order.
fn shown(found: &Found, courses: &[Course]) -> Vec<Shown> {
    let places: Vec<(usize, usize)> = courses
        .iter()
        .enumerate()
        .flat_map(|(c, course)| (0..course.lessons.len()).map(move |l| (c, l)))
        .collect();
    found
        .hits
        .iter()
        .filter_map(|h| {
            let &(c, l) = places.get(h.lesson)?;
            Some(Shown {
                course_slug: courses[c].slug.clone(),
                course_title: courses[c].title.clone(),
                position: l + 1,
                entry: courses[c].lessons[l].clone(),
            })
        })
        .collect()
}

fn origins(courses: &[Course]) -> Vec<Origin> {
    courses
        .iter()
        .flat_map(|c| c.lessons.iter().map(|l| l.origin.clone()))
        .collect()
}

/// The courses at `path` (or the library) searched, the index brought up
/// to date first. `listed`: the folder's courses as last listed, when it
/// still holds the same files (a changed file is found by its stamp).
fn searched(
    path: Option<&Path>,
    data: Option<&Path>,
    index: &mut Index,
    query: &Query,
    limit: usize,
    listed: Option<Vec<Course>>,
) -> Result<(Found, Vec<Shown>), Diagnostic> {
    let fast = listed.is_some();
    let mut courses = match listed {
        Some(c) => c,
        None => self::courses(path, data, index)?,
    };
    let mut all = origins(&courses);
    let found = match index.search_fresh(&all, query, limit) {
        Ok(found) => found,
        Err(stale) => {
            if fast {
                // Some file changed: its header may have too.
                courses = self::courses(path, data, index)?;
                all = origins(&courses);
                let stale = index.stale(&all);
                fill(index, &stale);
            } else {
                fill(index, &stale);
            }
            index.search(&all, query, limit)
        }
    };
    let shown = shown(&found, &courses);
    Ok((found, shown))
}

/// Brings the index up to date, the count on stderr when it is a terminal.
fn fill(index: &mut Index, stale: &[Origin]) {
    let tty = std::io::stderr().is_terminal();
    index.fill_stale(stale, &mut |done, total| {
        // Not eprint!: a terminal gone (a closed pane) would panic it.
        if tty {
            let _ = write!(
                std::io::stderr(),
                "\rindexed {} of {}",
                crate::ui::thousands(done),
                crate::ui::thousands(total)
            );
        }
    });
    if tty {
        // The count line, cleared.
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
}

pub(super) fn run(
    args: &[String],
    json: bool,
    limit: usize,
    common: &crate::cli::Common,
) -> super::Outcome {
    let (path, words) = split(args);
    let said = words.join(" ");
    if let Some(why) = Query::refusal(&said) {
        return Err(why.into());
    }
    let query = Query::parse(&said, false);
    if query.is_empty() {
        return Err("no words to search for".into());
    }
    let data = Store::data_dir(common.data_dir.as_deref());
    let mut index = Index::cached(data.as_deref());
    // A later search of an unchanged folder reads its listing, not its
    // thousands of headers, while the query runs.
    let listed = path
        .as_deref()
        .filter(|p| p.is_dir())
        .and_then(|dir| index.search_listed(dir, &query, limit));
    let (found, shown) = match listed {
        Some(crate::index::Listed { found: Ok(found) }) => found,
        // Some file changed: its header may have too.
        Some(_) => searched(
            path.as_deref(),
            data.as_deref(),
            &mut index,
            &query,
            limit,
            None,
        )?,
        None => {
            let listed = as_listed(path.as_deref(), &index);
            searched(
                path.as_deref(),
                data.as_deref(),
                &mut index,
                &query,
                limit,
                listed,
            )?
        }
    };
    let out = if json {
        to_json(&found, &shown)
    } else {
        to_text(&found, &shown, std::io::stdout().is_terminal())
    };
    // A closed pipe (`| head`) ends it quietly; a full disk is an error.
    crate::out::stdout(&out)?;
    if found.hits.is_empty() && !json {
        return Err(format!("nothing matches every word of: {}", words.join(" ")).into());
    }
    Ok(())
}

fn marked(snippet: &str, marks: &[(usize, usize)], bold: bool) -> String {
    if !bold {
        return snippet.to_string();
    }
    let mut out = String::new();
    let mut at = 0;
    for &(s, e) in marks {
        if s < at || snippet.get(s..e).is_none() {
            continue;
        }
        out.push_str(&snippet[at..s]);
        out.push_str("\x1b[1m");
        out.push_str(&snippet[s..e]);
        out.push_str("\x1b[22m");
        at = e;
    }
    out.push_str(&snippet[at..]);
    out
}

/// `Title (course, lesson 12, Module 2: Checks) - …snippet…`
fn to_text(found: &Found, shown: &[Shown], bold: bool) -> String {
    let mut out = String::new();
    for (h, s) in found.hits.iter().zip(shown) {
        let e = &s.entry;
        let module = e
            .module
            .as_ref()
            .map(|m| format!(", {}", clean(&m.title)))
            .unwrap_or_default();
        out.push_str(&format!(
            "{} ({}, lesson {}{module}) - {}\n",
            clean(&e.title),
            clean(&s.course_slug),
            s.position,
            marked(&h.snippet, &h.marks, bold)
        ));
    }
    out
}

/// `x` to six significant digits: a word in most lessons scores near
/// zero (its inverse document frequency is), and rounding to a fixed
/// number of decimals printed such scores as 0.
fn significant(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    let scale = 10f64.powi(5 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

fn to_json(found: &Found, shown: &[Shown]) -> String {
    let hits: Vec<serde_json::Value> = found
        .hits
        .iter()
        .zip(shown)
        .map(|(h, s)| {
            let e = &s.entry;
            serde_json::json!({
                "course": clean(&s.course_slug),
                "course_title": clean(&s.course_title),
                "lesson": clean(&e.slug),
                "title": clean(&e.title),
                "module": e.module.as_ref().map(|m| clean(&m.title).into_owned()),
                "position": s.position,
                "score": significant(h.score),
                "field": h.field.name(),
                "snippet": h.snippet,
                "marks": h.marks,
                "block": h.block,
                "path": e.origin.path().map(|p| p.to_string_lossy().into_owned()),
            })
        })
        .collect();
    let mut s =
        crate::out::json(&serde_json::to_string_pretty(&hits).unwrap_or_else(|_| "[]".into()));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_only_a_path_when_it_exists_and_words_follow() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_string_lossy().into_owned();
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let a = args(&[&d, "kv", "cache"]);
        assert_eq!(split(&a).0.as_deref(), Some(dir.path()));
        assert_eq!(split(&a).1.len(), 2);
        // Alone, it is the word to find.
        let b = args(&[&d]);
        assert_eq!(split(&b).0, None);
        let c = args(&["no-such-folder-here", "x"]);
        assert_eq!(split(&c).0, None);
        assert_eq!(marked("a kv b", &[(2, 4)], true), "a \x1b[1mkv\x1b[22m b");
    }
}
