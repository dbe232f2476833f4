//! What each command does, from parsed arguments to an exit status: one
//! file per subcommand, and here the dispatch and what they share.

mod library;
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

/// clap's words (a usage error, or the help and version asked for), each
/// line sanitised: they quote the arguments, which may be any bytes (a
/// file named `--\e]0;PWNED\a.json` matched by a shell glob).
pub(crate) fn refused(e: &clap::Error) -> ExitCode {
    let text = e.render().to_string();
    if e.use_stderr() {
        crate::out::stderr(&text);
    } else {
        if let Err(e) = crate::out::stdout(&crate::out::clean_lines(&text)) {
            crate::out::stderr(&format!("lectern: {e}"));
            return ExitCode::from(1);
        }
    }
    crate::out::status(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
}

pub(crate) fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Render {
            path,
            width,
            color,
            answers,
        }) => render::run(path.as_deref(), width, color, answers, cli.common.theme),
        Some(Command::Lint { paths }) => return crate::out::status(lint::run(&paths)),
        Some(Command::Review { path }) => review::run(path.as_deref(), &cli.common),
        Some(Command::Stats { path, json }) => stats::run(path.as_deref(), json, &cli.common),
        Some(Command::Search { args, json, limit }) => search::run(&args, json, limit, &cli.common),
        None => read::run(&cli.paths, &cli.common),
    };
    crate::out::status(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::out::stderr(&format!("lectern: {e}"));
            ExitCode::from(1)
        }
    })
}
