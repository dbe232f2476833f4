//! `lectern lint [PATH]...`: every finding on stdout, a count on stderr,
//! status 1 when one is an error.

use std::path::PathBuf;
use std::process::ExitCode;

pub(super) fn run(paths: &[PathBuf]) -> ExitCode {
    let diags = crate::lint::lint(paths);
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
