//! `lectern drill [PATH]`: a drill in the reader of the checks missed (or
//! last wrong, unanswered, stuck). With no PATH, every course of the
//! library; a lesson file drills that lesson (a chapter) alone.

use super::library::{paths, shelves};
use crate::cli::{Common, DrillArgs};
use crate::config::Settings;
use crate::loader::Progress;
use crate::model::DrillKind;
use crate::store::Store;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The kind the flags ask for (clap lets one through at most).
fn kind(a: &DrillArgs) -> DrillKind {
    match (a.last_wrong, a.unanswered, a.stuck) {
        (true, _, _) => DrillKind::LastWrong,
        (_, true, _) => DrillKind::Unanswered,
        (_, _, true) => DrillKind::Stuck,
        _ => DrillKind::Missed,
    }
}

pub(super) fn run(args: &DrillArgs, common: &Common, settings: &Settings) -> super::Outcome {
    let (path, kind) = (args.path.as_deref(), kind(args));
    if !std::io::stdout().is_terminal() {
        return Err("drill needs a terminal: stdout is not one".into());
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
    let lesson = path.is_some_and(Path::is_file);
    crate::tui::drill(&paths, common, settings, kind, lesson)
}
