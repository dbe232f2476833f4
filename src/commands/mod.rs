//! What each command does, from parsed arguments to an exit status: one
//! file per subcommand, and here the dispatch and what they share.

mod by_question;
mod completions;
mod config;
mod drill;
mod library;
mod lint;
mod man;
mod notes;
mod read;
mod render;
mod reset;
mod review;
mod search;
mod stats;
mod stats_checks;
mod sync;
mod target;

use crate::cli::{Cli, Command};
use crate::config::Settings;
use std::process::ExitCode;

/// What a command that fails says before exiting with status 1.
type Outcome = Result<()>;
type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

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

/// A usage error of `command` found after clap read the line (clap
/// cannot tell a PATH from a word): said and exited as clap's are.
fn usage_error(command: &str, why: String) -> ExitCode {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let e = match cli.find_subcommand_mut(command) {
        Some(sub) => sub.error(clap::error::ErrorKind::MissingRequiredArgument, why),
        None => cli.error(clap::error::ErrorKind::MissingRequiredArgument, why),
    };
    refused(&e)
}

/// The config file with the flags over it.
fn settings_of(common: &crate::cli::Common) -> Settings {
    Settings::load_with(
        common.config.as_deref(),
        common.theme,
        common.no_mouse,
        common.linear,
    )
    .with_images_flag(common.images)
    .with_sync_dir_flag(common.sync_dir.as_deref())
}

/// The config file with the flags over it; its problems are said at once
/// (the reader repeats them in its footer): a bad value keeps its default
/// and the program goes on.
fn load_settings(common: &crate::cli::Common) -> Settings {
    let s = settings_of(common);
    for p in &s.problems {
        crate::out::stderr(&format!("lectern: {p}"));
    }
    s
}

pub(crate) fn run(cli: Cli) -> ExitCode {
    // `lectern PATH stats`: a subcommand's paths come after it.
    if let (Some(_), Some(p)) = (&cli.command, cli.paths.first()) {
        let why = format!(
            "{} comes before the command; write the command first, then its PATH",
            crate::loader::walk::shown(p)
        );
        return usage_error("", why);
    }
    let common = &cli.common;
    let settings = || load_settings(common);
    let result = match cli.command {
        Some(Command::Render {
            path,
            width,
            color,
            answers,
            hidden_lines,
        }) => {
            let look = render::Look {
                width,
                color,
                answers,
                hidden_lines,
            };
            render::run(path.as_deref(), &look, &settings())
        }
        Some(Command::Lint { paths, format }) => {
            return crate::out::status(lint::run(&paths, format));
        }
        Some(Command::Review { path }) => review::run(path.as_deref(), common, &settings()),
        Some(Command::Drill(args)) => drill::run(&args, common, &settings()),
        Some(Command::Reset { path }) => reset::run(&path, common),
        Some(Command::Stats {
            path,
            json,
            by_question,
        }) => {
            let how = stats::How { json, by_question };
            stats::run(path.as_deref(), how, common, &settings())
        }
        Some(Command::Search { args, json, limit }) => match search::no_words(&args) {
            Some(why) => return usage_error("search", why),
            None => search::run(&args, json, limit, common),
        },
        Some(Command::Notes {
            action: Some(crate::cli::NotesAction::Import { file }),
            ..
        }) => notes::import(&file, common, &settings()),
        Some(Command::Notes {
            action: None,
            path,
            format,
        }) => notes::run(path.as_deref(), format, common, &settings()),
        Some(Command::Sync { status, json, name }) => {
            let how = sync::How { status, json, name };
            sync::run(&how, common, &settings())
        }
        Some(Command::Config { show: _ }) => config::run(common),
        Some(Command::Man) => man::run(),
        Some(Command::Completions { shell }) => completions::run(shell),
        None => read::run(&cli.paths, common, &settings()),
    };
    // A reader ended by SIGTERM, SIGHUP, SIGINT or SIGQUIT quits in order,
    // then reports the signal as a shell expects (128 + its number).
    if let Some(ended) = result
        .as_ref()
        .err()
        .and_then(|e| e.downcast_ref::<crate::tui::EndedBy>())
    {
        return ExitCode::from(ended.0);
    }
    crate::out::status(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::out::stderr(&format!("lectern: {e}"));
            ExitCode::from(1)
        }
    })
}

/// The progress store of the data folder, with what other machines left
/// in the sync folder merged first, when there is one: every command that
/// reports progress reports all of it.
fn open_store(common: &crate::cli::Common, settings: &Settings) -> crate::store::Store {
    use crate::store::Store;
    let mut store = Store::open(Store::data_dir(common.data_dir.as_deref()).as_deref());
    if let Some(dir) = settings.sync_dir.value.as_deref() {
        store.sync_to(dir);
        // What goes wrong is the store's to say, once, with its warnings.
        store.sync_now();
    }
    store
}

/// Why the full-screen reader cannot start here, if it cannot: no
/// terminal to take keys from. Checked before a single byte is written,
/// so stdout gets nothing but this one line on stderr.
fn no_terminal() -> Option<String> {
    #[cfg(unix)]
    if let Err(e) = std::fs::File::open("/dev/tty") {
        return Some(format!(
            "no terminal to read keys from ({e}); `lectern render PATH` prints a lesson"
        ));
    }
    None
}
