//! `lectern review [PATH]`: spaced review in the reader. With no PATH,
//! every due card of every course of the library; with one, that course
//! or folder of courses.

use super::library::reader_paths;
use crate::cli::Common;
use crate::config::Settings;
use std::path::Path;

pub(super) fn run(path: Option<&Path>, common: &Common, settings: &Settings) -> super::Outcome {
    let paths = reader_paths("review", path, common)?;
    crate::tui::review(&paths, common, settings)
}
