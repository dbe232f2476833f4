//! `lectern [PATH]...`: the interactive reader; when stdout is not a
//! terminal, or the terminal is dumb, the lessons as `render` prints them
//! (as `less file | cat` prints the file).

use super::render::{self, Look};
use crate::cli::{ColorChoice, Common};
use crate::config::Settings;
use crate::theme::ColourEnv;
use std::io::IsTerminal;
use std::path::PathBuf;

pub(super) fn run(paths: &[PathBuf], common: &Common, settings: &Settings) -> super::Outcome {
    let dumb = ColourEnv::from_env().dumb;
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    // Asked for (through a pipe too), or a terminal that cannot be drawn on
    // but can be typed at: the linear reader.
    if common.linear || (dumb && terminal) {
        return crate::tui::read(paths, common, settings, true);
    }
    if !std::io::stdout().is_terminal() || dumb {
        return print(paths, settings);
    }
    if let Some(why) = super::no_terminal() {
        return Err(why.into());
    }
    crate::tui::read(paths, common, settings, false)
}

/// Each path as `render` prints it; none: the built-in course's contents.
fn print(paths: &[PathBuf], settings: &Settings) -> super::Outcome {
    let look = Look {
        width: None,
        color: ColorChoice::Auto,
        answers: false,
        hidden_lines: false,
    };
    if paths.is_empty() {
        return render::write(&render::text(None, &look, settings)?);
    }
    let mut out = String::new();
    for (i, p) in paths.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&render::text(Some(p), &look, settings)?);
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    render::write(&out)
}
