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
    if settings.linear.value || (dumb && terminal) {
        return crate::tui::read(paths, common, settings, true);
    }
    if !std::io::stdout().is_terminal() || dumb {
        return print(paths, settings);
    }
    // Said before the screen is taken: a reader of nothing helps no one.
    let unfit: Vec<String> = paths
        .iter()
        .filter_map(|p| super::target::unfit(p))
        .collect();
    if let Some((last, rest)) = unfit.split_last() {
        for why in rest {
            crate::out::stderr(&format!("lectern: {why}"));
        }
        return Err(last.clone().into());
    }
    if let Some(why) = super::no_terminal() {
        return Err(why.into());
    }
    crate::tui::read(paths, common, settings, false)
}

/// Each path as `render` prints it, in order; none: the built-in
/// course's contents. A path that cannot be printed is said on stderr
/// and the others are still printed (status 1 at the end).
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
    if let [one] = paths {
        return render::write(&render::text(Some(one), &look, settings)?);
    }
    let mut out = String::new();
    let mut failed = 0;
    for p in paths {
        match render::text(Some(p), &look, settings) {
            Ok(text) => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text);
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            Err(e) => {
                failed += 1;
                crate::out::stderr(&format!("lectern: {e}"));
            }
        }
    }
    render::write(&out)?;
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} of {} paths not printed", paths.len()).into()),
    }
}
