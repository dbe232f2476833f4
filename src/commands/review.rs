//! `lectern review [PATH]`: spaced review in the reader. With no PATH,
//! every due card of every course of the library; with one, that course
//! or folder of courses.

use super::library::{paths, shelves};
use crate::cli::Common;
use crate::config::Settings;
use crate::loader::Progress;
use crate::store::Store;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub(super) fn run(path: Option<&Path>, common: &Common, settings: &Settings) -> super::Outcome {
    if !std::io::stdout().is_terminal() {
        return Err("review needs a terminal: stdout is not one".into());
    }
    if let Some(why) = super::no_terminal() {
        return Err(why.into());
    }
    let paths: Vec<PathBuf> = match path {
        Some(p) => match super::target::unfit(p) {
            Some(why) => return Err(why.into()),
            None => vec![p.to_path_buf()],
        },
        None => {
            let dir = Store::data_dir(common.data_dir.as_deref());
            let (mut paths, builtin) =
                paths(&shelves(&Store::open(dir.as_deref()), &Progress::none()));
            if builtin {
                paths.push(PathBuf::from(crate::tui::BUILTIN));
            }
            paths
        }
    };
    crate::tui::review(&paths, common, settings)
}
