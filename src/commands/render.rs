//! `lectern render [PATH]`: a lesson as styled text, or a folder's table
//! of contents.

use super::target::{Target, resolve};
use crate::cli::ColorChoice;
use crate::loader;
use crate::render;
use crate::theme::{Theme, ThemeKind};
use std::io::IsTerminal;
use std::path::Path;

pub(super) fn run(
    path: Option<&Path>,
    width: Option<u16>,
    color: ColorChoice,
    answers: bool,
    theme: Option<ThemeKind>,
) -> super::Outcome {
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
    let counting = crate::loader::progress::on_stderr("reading the course");
    let target = resolve(path)?;
    drop(counting);
    let text = match target {
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
    // A closed pipe (`lectern render | head`) ends it quietly (out.rs).
    Ok(crate::out::stdout(&text)?)
}
