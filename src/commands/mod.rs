//! What each command does, from parsed arguments to an exit status: one
//! file per subcommand, and here the dispatch and what they share.

mod lint;
mod read;
mod render;
mod review;
mod search;
mod stats;
mod target;

use crate::cli::{Cli, Command};
use std::process::ExitCode;

/// What a command that fails says before exiting with status 1.
type Outcome = Result<(), Box<dyn std::error::Error>>;

pub(crate) fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Render {
            path,
            width,
            color,
            answers,
        }) => render::run(path.as_deref(), width, color, answers, cli.common.theme),
        Some(Command::Lint { paths }) => return lint::run(&paths),
        Some(Command::Review { path }) => review::run(path.as_deref(), &cli.common),
        Some(Command::Stats { path }) => stats::run(path.as_deref(), &cli.common),
        Some(Command::Search { args, json, limit }) => search::run(&args, json, limit, &cli.common),
        None => read::run(&cli.paths, &cli.common),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lectern: {e}");
            ExitCode::from(1)
        }
    }
}
