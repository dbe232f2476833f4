//! The integration tests, linked as one binary: one module per area, the
//! code they share in `common`. One binary links once where nineteen
//! linked each their own copy of the crate and its dependencies.
//! The tests that must be alone in their process stay their own binaries
//! at the top of `tests/` (see the comment at the top of each).

// render's `json!` lessons nest deeper than the default limit.
#![recursion_limit = "256"]

mod common;

mod book;
mod checks;
mod cli;
mod conventions;
mod drill;
mod e2e;
mod first_look;
mod guide;
mod images;
mod library;
mod lint_reach;
mod markdown;
mod note_cards;
mod notes;
mod notes_keys;
mod output;
mod pictures_terminal;
mod preprocessors;
mod props;
mod quizzes;
mod render;
mod screens;
mod search;
mod store;
mod store_faults;
mod study_screens;
mod sync;
