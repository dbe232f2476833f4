//! `lectern [PATH]...`: the interactive reader.

use crate::cli::Common;
use std::path::PathBuf;

pub(super) fn run(paths: &[PathBuf], common: &Common) -> super::Outcome {
    crate::tui::read(paths, common)
}
