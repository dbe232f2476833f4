//! `lectern lint [PATH]...`: every finding on stdout, a count on stderr,
//! status 1 when one is an error.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub(super) fn run(paths: &[PathBuf]) -> ExitCode {
    let diags = crate::lint::lint(paths);
    let mut out = std::io::stdout().lock();
    for d in &diags {
        let _ = writeln!(out, "{d}");
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if !diags.is_empty() {
        eprintln!("lectern lint: {errors} error(s), {warnings} warning(s)");
    }
    if crate::lint::has_errors(&diags) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
