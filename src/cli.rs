//! Command-line interface (clap). `lectern [PATH]...` opens the reader;
//! subcommands print, check, review and summarise.

use crate::config::ThemeSetting;
use crate::config::images::IMAGES;
use crate::config::sync_dir::SYNC_DIR;
use crate::config::table::{LINEAR, MOUSE, THEME};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "lectern",
    version,
    about = "A terminal reader for interactive courses",
    long_about = "A terminal reader for interactive courses.\n\n\
                  With no PATH, opens the course read last, at the lesson and place the learner left; \
                  the first time, or when that course's folder is gone, the built-in guide. \
                  PATH may be a lesson file (opened inside its course), a course folder, an mdBook \
                  (its folder or book.toml), or a folder of courses.\n\n\
                  When standard output is not a terminal, each PATH is printed as \
                  `lectern render` prints it, one after the other; no PATH prints the built-in guide's contents. \
                  With --linear (or TERM=dumb at a terminal) the reader is the linear one, for screen readers.",
    // `lectern --data-dir D stats` is the stats subcommand, not a path
    // named "stats".
    subcommand_precedence_over_arg = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,

    /// Lesson files, course folders or mdBooks to open (default: the
    /// course read last).
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,

    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// Where progress is kept (default: $LECTERN_DATA_DIR, else the XDG data dir).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) data_dir: Option<PathBuf>,

    #[arg(long, global = true, value_enum, help = THEME.flag.map(|(_, h)| h))]
    pub(crate) theme: Option<ThemeSetting>,

    /// The config file (default: $LECTERN_CONFIG, else
    /// $XDG_CONFIG_HOME/lectern/config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,

    #[arg(long, global = true, help = MOUSE.flag.map(|(_, h)| h))]
    pub(crate) no_mouse: bool,

    #[arg(long, global = true, help = LINEAR.flag.map(|(_, h)| h))]
    pub(crate) linear: bool,

    #[arg(long, global = true, value_enum, value_name = "HOW", help = IMAGES.flag.map(|(_, h)| h))]
    pub(crate) images: Option<crate::config::ImagesSetting>,

    #[arg(long, global = true, value_name = "DIR", help = SYNC_DIR.flag.map(|(_, h)| h))]
    pub(crate) sync_dir: Option<PathBuf>,
}

pub(crate) use crate::theme::ColorChoice;

/// How `lectern notes` writes the notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum NotesFormat {
    /// By course and lesson: each quote a blockquote, its note below, a link back.
    Markdown,
    /// W3C Web Annotation JSON-LD (TextQuoteSelector, TextPositionSelector).
    Json,
}

/// `lectern notes import FILE.json`.
#[derive(Debug, Subcommand)]
pub(crate) enum NotesAction {
    /// Read notes exported with --format json back into the store (a note
    /// already there keeps whichever change of it is later).
    Import {
        /// The JSON file `lectern notes --format json` wrote.
        file: PathBuf,
    },
}

/// How `lectern lint` writes what it finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LintFormat {
    Text,
    Json,
}

/// `lectern drill`'s arguments: where, and which checks.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DrillArgs {
    /// A lesson file, course folder or folder of courses (default:
    /// every course of the library).
    pub(crate) path: Option<PathBuf>,
    /// Checks wrong on the first try of their round (the default).
    #[arg(long, group = "drill_kind")]
    pub(crate) missed: bool,
    /// Checks wrong on their latest answer.
    #[arg(long, group = "drill_kind")]
    pub(crate) last_wrong: bool,
    /// Checks not answered (in their round).
    #[arg(long, group = "drill_kind")]
    pub(crate) unanswered: bool,
    /// Checks missed `stuck-after` times (4 by default) and not answered
    /// right since.
    #[arg(long, group = "drill_kind")]
    pub(crate) stuck: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print a lesson as styled text (a folder: its table of contents).
    Render {
        /// Lesson file or course folder (default: the built-in course;
        /// builtin:NAME prints one of its lessons, e.g. builtin:01-getting-started;
        /// `-` reads a lesson from standard input).
        path: Option<PathBuf>,
        /// Columns to fit (default: the terminal's width, or 80).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=2000))]
        width: Option<u16>,
        /// Colour: auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, TERM=dumb
        /// and whether stdout is a terminal.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// Mark the right answer and print every explanation.
        #[arg(long)]
        answers: bool,
        /// Show the lines rust examples hide (`# ` lines, as mdBook and
        /// rustdoc hide them; `#` in the reader).
        #[arg(long)]
        hidden_lines: bool,
    },
    /// Check lesson files and folders (default: the built-in course; `-`:
    /// a lesson on standard input).
    Lint {
        /// Lesson files, course folders or mdBooks to check.
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// text: FILE:LINE:COL: severity: message (at json.path), grouped
        /// by file; json: one array of {file, line, column, path,
        /// severity, code, message} for editors and CI.
        #[arg(long, value_enum, default_value = "text")]
        format: LintFormat,
    },
    /// Spaced review of the check questions of lessons already read.
    Review {
        /// A course folder, folder of courses or lesson file whose due
        /// checks to review (default: every course of the library).
        path: Option<PathBuf>,
    },
    /// Practise the checks missed, in a shuffled order with options
    /// shuffled again: a lesson file (a chapter), a course, or (no PATH)
    /// the whole library. Never moves a first-try score.
    Drill(DrillArgs),
    /// A new round of the checks of a chapter (a lesson file) or of every
    /// chapter of a course (a folder, a book): shown unanswered again, the
    /// next answer the round's first try. Nothing is deleted: the first
    /// round's score and every attempt stay in the stats.
    Reset {
        /// A lesson file, course folder or book.
        path: PathBuf,
    },
    /// Progress: lessons read, checks answered, first-try score, reviews due
    /// (no PATH: every course of the library, then the totals).
    Stats {
        /// A course folder or folder of courses (default: the library).
        path: Option<PathBuf>,
        /// One JSON object: {"courses": [{"slug", "title", "lessons", "read",
        /// "answered", "first_try_right", "due_now", "scheduled",
        /// "misconceptions": [{"lesson", "option", "times"}], "checks": [{"lesson",
        /// "check_id", "kind", "first_try", "attempts", "last", "round", "stuck",
        /// "due_ms"}], "drill": {"missed", "last_wrong", "unanswered", "stuck"}}],
        /// "streak_days"}. A misconception's "option" is its index in the lesson file.
        #[arg(long)]
        json: bool,
        /// For authors: the checks missed most on this machine, each with
        /// the answer chosen most often (with --json: {"questions": [{"course",
        /// "lesson", "check_id", "question", "attempts", "wrong", "most_chosen":
        /// {"answer", "times", "correct"}}]}).
        #[arg(long)]
        by_question: bool,
    },
    /// Every highlight and note, placed in its lesson as the file is now,
    /// with its status (ok, moved, fuzzy, orphan).
    #[command(args_conflicts_with_subcommands = true)]
    Notes {
        #[command(subcommand)]
        action: Option<NotesAction>,
        /// A course folder, mdBook or lesson file (default: the library).
        path: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "markdown")]
        format: NotesFormat,
    },
    /// Find lessons: every word, in any order; "quoted phrases"; word* for
    /// word beginnings. Ranked: title, then heading, then text.
    #[command(override_usage = "lectern search [OPTIONS] [PATH] <WORDS>...")]
    Search {
        /// The words to find, after an optional PATH: a course folder or
        /// lesson file to search (when it exists and words follow it;
        /// default: the whole library).
        #[arg(required = true, value_name = "WORDS")]
        args: Vec<String>,
        /// A JSON list of {course, lesson, title, module, position, score, snippet, ...}.
        /// "score" is BM25 relevance with a title word weighing 10 body
        /// words and a heading word 4 (higher is better); hits come ordered
        /// by where every word matched ("field": title, heading, body), then
        /// by score, then in course order. "position" is the lesson's number
        /// in its course.
        #[arg(long)]
        json: bool,
        /// Most hits to print.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// Merge the changes other machines left in the sync folder (sync-dir)
    /// and say what came; this machine's own log is brought up to date.
    Sync {
        /// Every device seen: its last change, and how far this machine has
        /// read its log.
        #[arg(long)]
        status: bool,
        /// One JSON object: {"folder", "device", "name", "merged": [{"device",
        /// "name", "answers", "ratings", "reveals", "rounds", "notes", "read",
        /// "places", "library", "names"}], "damaged_lines", "devices": [{"device",
        /// "name", "this", "changes", "read_to", "missing", "last_change"}]}.
        #[arg(long)]
        json: bool,
        /// Name this machine (its changes are shown under that name everywhere).
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
    },
    /// The settings in effect and where each came from.
    Config {
        /// Print the effective settings (the default).
        #[arg(long)]
        show: bool,
    },
    /// Print the man page (roff) to standard output.
    Man,
    /// Print shell completions to standard output.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

impl Cli {
    /// The command line of this process. `lectern` and `lectern PATH`, the
    /// usual ways in, are read directly; anything else (options,
    /// subcommands, several paths) goes to clap. Building clap's parser is
    /// about 50 us of a 1.8 ms first frame. clap's error (and its help)
    /// is handed back to be printed sanitised: it echoes argv.
    pub(crate) fn from_env() -> Result<Cli, clap::Error> {
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        Cli::plain(&args).map_or_else(Cli::try_parse, Ok)
    }

    /// No arguments, or one that is neither an option nor a subcommand.
    fn plain(args: &[std::ffi::OsString]) -> Option<Cli> {
        let paths = match args {
            [] => Vec::new(),
            [one] => {
                let s = one.to_str()?;
                let word = s.starts_with('-') || Cli::is_command(s);
                (!word && !s.is_empty()).then(|| vec![PathBuf::from(one)])?
            }
            _ => return None,
        };
        Some(Cli {
            command: None,
            paths,
            common: Common {
                data_dir: None,
                theme: None,
                config: None,
                no_mouse: false,
                linear: false,
                images: None,
                sync_dir: None,
            },
        })
    }

    fn is_command(s: &str) -> bool {
        COMMANDS.contains(&s)
    }
}

/// The subcommands' names (a test holds this to clap's list), and clap's
/// own `help`.
const COMMANDS: &[&str] = &[
    "render",
    "lint",
    "review",
    "drill",
    "reset",
    "stats",
    "notes",
    "search",
    "sync",
    "config",
    "man",
    "completions",
    "help",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the direct reading accepts, clap reads the same way.
    #[test]
    fn the_direct_reading_agrees_with_clap() {
        let cases: &[&[&str]] = &[
            &[],
            &["lesson.json"],
            &["course/"],
            &["render"],
            &["help"],
            &["lint"],
            &["-h"],
            &["--version"],
            &["a.json", "b.json"],
            &["--no-mouse", "a.json"],
            &["review"],
            &["stats"],
            &["rende"],
            &["", "x"],
            &["-"],
        ];
        for case in cases {
            let args: Vec<std::ffi::OsString> = case.iter().map(Into::into).collect();
            let Some(direct) = Cli::plain(&args) else {
                continue;
            };
            let full = std::iter::once("lectern").chain(case.iter().copied());
            let clap = Cli::try_parse_from(full).expect("clap reads it too");
            assert_eq!(format!("{direct:?}"), format!("{clap:?}"), "{case:?}");
        }
        use clap::CommandFactory;
        for sub in Cli::command().get_subcommands() {
            for name in std::iter::once(sub.get_name()).chain(sub.get_all_aliases()) {
                assert!(COMMANDS.contains(&name), "{name} is missing from COMMANDS");
            }
        }
        let plain =
            |a: &[&str]| Cli::plain(&a.iter().map(Into::into).collect::<Vec<_>>()).is_some();
        assert!(plain(&[]) && plain(&["lesson.json"]) && plain(&["rende"]));
        assert!(!plain(&["render"]) && !plain(&["help"]) && !plain(&["-h"]) && !plain(&["a", "b"]));
    }

    /// A setting's flag, in the table of settings, is an option of the
    /// command line with the table's help.
    #[test]
    fn the_settings_table_names_the_flags_clap_has() {
        use clap::CommandFactory;
        let cli = Cli::command();
        for spec in crate::config::SETTINGS {
            let Some((flag, help)) = spec.flag else {
                continue;
            };
            let arg = cli
                .get_arguments()
                .find(|a| a.get_long().map(|l| format!("--{l}")) == Some(flag.to_string()))
                .unwrap_or_else(|| panic!("{flag} is an option"));
            assert_eq!(
                arg.get_help().map(ToString::to_string).as_deref(),
                Some(help)
            );
        }
    }
}
