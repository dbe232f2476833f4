//! `lectern lint [PATH]...`: every finding on stdout, a count on stderr,
//! status 1 when one is an error. `-` is a lesson on standard input.

use crate::loader::{self, Diagnostic};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(super) fn run(paths: &[PathBuf]) -> ExitCode {
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
    for d in &diags {
        if crate::out::closed() {
            break;
        }
        if let Err(e) = crate::out::stdout(&format!("{d}\n")) {
            crate::out::stderr(&format!("lectern lint: {e}"));
            return ExitCode::from(1);
        }
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
