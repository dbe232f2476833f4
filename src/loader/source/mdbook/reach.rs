//! A book's checks beyond each chapter's own, for `lectern lint`: chapter
//! files mdBook never shows (in `src` but neither listed in SUMMARY.md
//! nor included by another file), and the pictures of the chapters it
//! does show that are missing.

use super::summary::normal;
use crate::loader::{Diagnostic, Severity, walk};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The findings for `path` in a book (the whole book, or the chapter
/// named); `None` when the path is in no book.
pub(crate) fn lint(path: &Path) -> Option<Vec<Diagnostic>> {
    let book = super::find(path)?;
    let is_md = |p: &Path| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("md"));
    if path.is_file() && is_md(path) && path.file_name() != Some("SUMMARY.md".as_ref()) {
        let text = String::from_utf8_lossy(&walk::read_regular(path).ok()?).into_owned();
        return Some(crate::loader::images::missing(path, &text, Some(&book.src)));
    }
    let outline = book.outline().ok()?;
    let listed: HashSet<PathBuf> = outline
        .summary
        .entries
        .iter()
        .filter_map(|e| e.path.as_deref().map(normal))
        .collect();
    let files: Vec<(PathBuf, String)> = walk::tree(&book.src)
        .files
        .into_iter()
        .filter(|f| is_md(f))
        .filter_map(|f| {
            let text = String::from_utf8_lossy(&walk::read_regular(&f).ok()?).into_owned();
            Some((f, text))
        })
        .collect();
    let included: HashSet<PathBuf> = files
        .iter()
        .flat_map(|(f, text)| included_by(f, text, &book.src))
        .collect();
    let mut out = Vec::new();
    for (file, text) in &files {
        let Ok(rel) = file.strip_prefix(&book.src).map(normal) else {
            continue;
        };
        if rel == Path::new("SUMMARY.md") {
            continue;
        }
        if listed.contains(&rel) {
            out.extend(crate::loader::images::missing(file, text, Some(&book.src)));
        } else if !included.contains(&rel) {
            out.push(Diagnostic {
                severity: Severity::Warning,
                ..Diagnostic::error(
                    &file.display().to_string(),
                    "not in SUMMARY.md: mdBook never shows this file",
                )
            });
        }
    }
    Some(out)
}

/// The files (relative to `src`) that `{{#include …}}` and its kin in
/// `text`, the markdown of `file`, bring in.
fn included_by(file: &Path, text: &str, src: &Path) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(src);
    let mut out = Vec::new();
    for (at, _) in text.match_indices("{{#") {
        let rest = &text[at + 3..];
        let Some((name, rest)) = rest.split_once(char::is_whitespace) else {
            continue;
        };
        if !matches!(name, "include" | "rustdoc_include" | "playground") {
            continue;
        }
        let target = rest
            .trim_start()
            .split(|c: char| c == ':' || c == '}' || c.is_whitespace())
            .next()
            .unwrap_or("");
        if let Ok(rel) = lexical(&dir.join(target)).strip_prefix(src) {
            out.push(rel.to_path_buf());
        }
    }
    out
}

/// `path` with `.` and `..` worked out from its own components (the file
/// may not exist, so not by the file system).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
