//! What each command does, from parsed arguments to an exit status.

use crate::cli::{Cli, ColorChoice, Command};
use crate::loader::{self, Diagnostic, Origin};
use crate::model::Course;
use crate::render;
use crate::theme::{Theme, ThemeKind};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Render {
            path,
            width,
            color,
            answers,
        }) => render_cmd(path.as_deref(), width, color, answers, cli.common.theme),
        Some(Command::Lint { paths }) => return lint_cmd(&paths),
        Some(Command::Review { path }) => crate::tui::review(path.as_deref(), &cli.common),
        Some(Command::Stats { path }) => crate::stats::print(path.as_deref(), &cli.common),
        None => crate::tui::read(&cli.paths, &cli.common),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lectern: {e}");
            ExitCode::from(1)
        }
    }
}

/// A lesson or course named on the command line, or a built-in lesson
/// named `builtin:FILE`.
pub enum Target {
    Lesson(Origin),
    Courses(Vec<Course>),
}

pub fn resolve(path: Option<&Path>) -> Result<Target, Diagnostic> {
    let Some(path) = path else {
        return Ok(Target::Courses(vec![loader::builtin_course()]));
    };
    let s = path.to_string_lossy();
    if let Some(name) = s.strip_prefix("builtin:") {
        if let Some((n, _)) = loader::BUILTIN
            .iter()
            .find(|(n, _)| *n == name || n.trim_end_matches(".json") == name)
        {
            return Ok(Target::Lesson(Origin::Builtin(n)));
        }
    }
    if path.is_dir() {
        let lib = loader::open_paths(&[path.to_path_buf()])?;
        Ok(Target::Courses(lib.courses))
    } else {
        Ok(Target::Lesson(Origin::File(path.to_path_buf())))
    }
}

fn render_cmd(
    path: Option<&Path>,
    width: Option<u16>,
    color: ColorChoice,
    answers: bool,
    theme: Option<ThemeKind>,
) -> Result<(), Box<dyn std::error::Error>> {
    let stdout = std::io::stdout();
    let tty = stdout.is_terminal();
    let width = width.unwrap_or_else(|| {
        if tty {
            ratatui::crossterm::terminal::size().map_or(80, |(w, _)| w.max(1))
        } else {
            80
        }
    });
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let theme = match color {
        ColorChoice::Never => None,
        ColorChoice::Auto if !tty || no_color => None,
        _ => Some(Theme::new(theme.unwrap_or_else(ThemeKind::detect))),
    };
    let text = match resolve(path)? {
        Target::Lesson(origin) => {
            let loaded = loader::load(&origin)?;
            render::lesson(
                &loaded.lesson,
                &render::Options {
                    width,
                    theme,
                    answers,
                },
            )
        }
        Target::Courses(courses) => {
            let mut out = String::new();
            for (i, c) in courses.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                render::write_lines(&mut out, &render::toc(c, width), theme.as_ref());
            }
            out
        }
    };
    let mut lock = stdout.lock();
    // A closed pipe (`lectern render | head`) is not an error to report.
    match lock.write_all(text.as_bytes()).and_then(|_| lock.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

fn lint_cmd(paths: &[PathBuf]) -> ExitCode {
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
