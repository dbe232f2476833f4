//! `lectern completions SHELL`: completions from the one CLI definition
//! (clap_complete), for bash, zsh, fish, elvish and PowerShell.

use clap::CommandFactory;

pub(super) fn run(shell: clap_complete::Shell) -> super::Outcome {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut crate::cli::Cli::command(), "lectern", &mut out);
    super::render::write(&String::from_utf8_lossy(&out))
}
