//! `lectern review [PATH]`: spaced review in the reader.

use crate::cli::Common;
use crate::config::Settings;
use std::io::IsTerminal;
use std::path::Path;

pub(super) fn run(path: Option<&Path>, common: &Common, settings: &Settings) -> super::Outcome {
    if !std::io::stdout().is_terminal() {
        return Err("review needs a terminal: stdout is not one".into());
    }
    if let Some(why) = super::no_terminal() {
        return Err(why.into());
    }
    crate::tui::review(path, common, settings)
}
