//! Command-line interface (clap). `lectern [PATH]...` opens the reader;
//! subcommands print, check, review and summarise.

use crate::theme::ThemeKind;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "lectern",
    version,
    about = "A terminal reader for interactive courses",
    long_about = "A terminal reader for interactive courses.\n\nWith no PATH, opens the built-in course. \
                  PATH may be a lesson file (opened inside its course), a course folder, or a folder of courses.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Lesson files or course folders to open.
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// Where progress is kept (default: $LECTERN_DATA_DIR, else the XDG data dir).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Colour theme (default: from the terminal background; NO_COLOR gives mono).
    #[arg(long, global = true, value_enum)]
    pub theme: Option<ThemeKind>,

    /// Leave the mouse to the terminal (text selection) instead of scrolling.
    #[arg(long, global = true)]
    pub no_mouse: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a lesson as styled text (a folder: its table of contents).
    Render {
        /// Lesson file or course folder (default: the built-in course;
        /// builtin:NAME prints one of its lessons, e.g. builtin:01-getting-started).
        path: Option<PathBuf>,
        /// Columns to fit (default: the terminal's width, or 80).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=2000))]
        width: Option<u16>,
        /// Colour: auto honours NO_COLOR and whether stdout is a terminal.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// Mark the right answer and print every explanation.
        #[arg(long)]
        answers: bool,
    },
    /// Check lesson files and folders (default: the built-in course).
    Lint { paths: Vec<PathBuf> },
    /// Spaced review of the check questions of lessons already read.
    Review { path: Option<PathBuf> },
    /// Progress: lessons read, checks answered, first-try score, reviews due.
    Stats { path: Option<PathBuf> },
}
