//! `lectern drill [PATH]`: a drill in the reader of the checks missed (or
//! last wrong, unanswered, stuck). With no PATH, every course of the
//! library; a lesson file drills that lesson (a chapter) alone.

use super::library::reader_paths;
use crate::cli::{Common, DrillArgs};
use crate::config::Settings;
use crate::model::DrillKind;
use std::path::Path;

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
    let paths = reader_paths("drill", path, common)?;
    let lesson = path.is_some_and(Path::is_file);
    crate::tui::drill(&paths, common, settings, kind, lesson)
}
