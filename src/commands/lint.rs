//! `lectern lint [PATH]...`: every finding on stdout, a count on stderr,
//! status 1 when one is an error. `-` is a lesson on standard input.

use crate::cli::LintFormat;
use crate::loader::{self, Diagnostic};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(super) fn run(paths: &[PathBuf], format: LintFormat) -> ExitCode {
    let stdin = paths.iter().any(|p| p == Path::new("-"));
    let files: Vec<PathBuf> = paths
        .iter()
        .filter(|p| *p != Path::new("-"))
        .cloned()
        .collect();
    let mut diags = Vec::new();
    if stdin {
        diags.extend(standard_input());
    }
    // `lint -` alone checks standard input, not the built-in course too.
    if !stdin || !files.is_empty() {
        diags.extend(crate::lint::lint(&files));
    }
    // Grouped by file, in the order the files came, each file's findings
    // top to bottom.
    let mut order: Vec<&str> = Vec::new();
    for d in &diags {
        if !order.contains(&d.file.as_str()) {
            order.push(&d.file);
        }
    }
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (order.iter().position(|f| *f == d.file), d.line, d.column));
    let written = match format {
        LintFormat::Text => sorted.iter().try_for_each(|d| {
            if crate::out::closed() {
                return Ok(());
            }
            crate::out::stdout(&format!("{d}\n"))
        }),
        LintFormat::Json => crate::out::stdout(&format!("{}\n", as_json(&sorted))),
    };
    if let Err(e) = written {
        crate::out::stderr(&format!("lectern lint: {e}"));
        return ExitCode::from(1);
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if !diags.is_empty() {
        crate::out::stderr(&format!(
            "lectern lint: {errors} error(s), {warnings} warning(s)"
        ));
    }
    if crate::lint::has_errors(&diags) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The findings as one JSON array, for editors and CI.
fn as_json(diags: &[&Diagnostic]) -> String {
    let items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            serde_json::json!({
                "file": d.file,
                "line": d.line,
                "column": d.column,
                "path": d.path,
                "severity": if d.is_error() { "error" } else { "warning" },
                "code": code(&d.message),
                "message": d.message,
            })
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into())
}

/// A stable name for the kind of a finding, from its words: what an
/// editor or a CI script can match on while the wording improves.
fn code(message: &str) -> &'static str {
    const CODES: [(&str, &str); 14] = [
        ("cannot read", "unreadable"),
        ("not a regular file", "not-a-file"),
        ("invalid type", "wrong-type"),
        ("missing field", "missing-field"),
        ("is not read here", "unknown-field"),
        ("no option is marked", "no-right-answer"),
        (
            "options are marked `correct: true`",
            "several-right-answers",
        ),
        ("has no `tempting`", "no-tempting"),
        ("has no options", "no-options"),
        ("cannot include", "include"),
        ("outside the book", "outside-the-book"),
        ("quiz", "quiz"),
        ("slug", "slug"),
        ("expected", "invalid-json"),
    ];
    CODES
        .iter()
        .find(|(words, _)| message.contains(words))
        .map_or("other", |(_, code)| code)
}

/// The findings about the lesson on standard input.
fn standard_input() -> Vec<Diagnostic> {
    const NAME: &str = "<stdin>";
    let bytes = match super::render::stdin() {
        Ok(b) => b,
        Err(e) => return vec![Diagnostic::error(NAME, format!("cannot read lesson: {e}"))],
    };
    match loader::load_bytes(NAME, &bytes) {
        Err(d) => vec![d],
        Ok(l) => loader::diagnostics(NAME, &bytes, &l.findings),
    }
}
