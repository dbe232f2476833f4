//! lectern: a terminal reader for interactive courses.
//!
//! Data flows one way:
//!
//! ```text
//! files ─▶ loader ─▶ model ─▶ layout ─▶ ui ─▶ terminal
//! keys  ─▶ state::keymap ─▶ Action ─▶ state::update ─▶ state ─┘
//!                                     └─▶ Effect ─▶ store
//! ```
//!
//! * [`loader`] reads lesson JSON (or its markdown body), sanitises text once.
//! * [`model`] is the document: lessons, blocks, runs, figures, the check;
//!   and the names the other layers share: where a lesson comes from
//!   (`Origin`), which lesson (`LessonKey`), what is wrong with one
//!   (`Diagnostic`). It imports nothing of lectern's.
//! * [`layout`] wraps a lesson to a width into styled lines (semantic roles,
//!   no terminal types), cached per width.
//! * [`highlight`] puts syntect behind a small lazy API.
//! * [`render`] prints layouts as text (`lectern render`); `lint` checks files.
//! * [`state`], [`ui`] and [`tui`] are the interactive reader; [`store`]
//!   keeps progress, `stats` sums it up.
//! * `cli` parses the command line and `commands` runs one subcommand
//!   each: [`run`] is the whole program.
mod cli;
mod commands;
pub mod highlight;
pub mod index;
pub mod layout;
mod lint;
pub mod loader;
pub mod model;
pub mod render;
pub mod state;
mod stats;
pub mod store;
pub mod theme;
pub mod tui;
pub mod ui;

/// The program: this process's command line, run, as an exit status.
pub fn run() -> std::process::ExitCode {
    commands::run(cli::Cli::from_env())
}
