//! lectern: a terminal reader for interactive courses.
//!
//! Data flows one way:
//!
//! ```text
//! files ─▶ loader ─▶ model ─▶ layout ─▶ ui ─▶ terminal (tui)
//! keys  ─▶ keymap ─▶ Action ─▶ state::update ─▶ State ─┘
//!                               └─▶ Effect ─▶ effects (the runner) ─▶ store · index · loader
//!                                                 └─▶ Msg ─▶ state::receive
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
//! * [`graphics`] builds the escape sequences of the terminal graphics
//!   protocols (kitty, iTerm2, sixel) pictures are drawn with.
//! * [`state`] holds what the reader shows, a small type per screen; the
//!   [`keymap`] turns keys into its actions; [`effects`] is the one runner
//!   of what it asks for; [`ui`] draws it and [`tui`] owns the terminal
//!   and the start-up sequence; [`store`]
//!   keeps progress and sums it up (`layout` lays the figures out).
//! * `cli` parses the command line and `commands` runs one subcommand
//!   each: [`run`] is the whole program. `out` is the one way to stdout
//!   and stderr (closed pipes end quietly; messages are sanitised).
pub mod alloc_guard;
pub mod app;
mod cli;
mod commands;
pub mod config;
pub mod effects;
pub mod graphics;
pub mod highlight;
pub mod index;
pub mod keymap;
pub mod layout;
mod lint;
pub mod loader;
pub mod model;
mod out;
pub mod own;
pub mod render;
pub mod state;
pub mod store;
pub mod theme;
pub mod tui;
pub mod ui;
#[cfg(test)]
mod work;

/// The program: this process's command line, run, as an exit status.
pub fn run() -> std::process::ExitCode {
    match cli::Cli::from_env() {
        Ok(cli) => commands::run(cli),
        Err(e) => commands::refused(&e),
    }
}
