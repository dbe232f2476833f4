//! `lectern review [PATH]`: spaced review in the reader.

use crate::cli::Common;
use std::path::Path;

pub(super) fn run(path: Option<&Path>, common: &Common) -> super::Outcome {
    crate::tui::review(path, common)
}
