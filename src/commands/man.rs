//! `lectern man`: the man page, from the one CLI definition (clap_mangen).

use clap::CommandFactory;

pub(super) fn run() -> super::Outcome {
    let mut out = Vec::new();
    clap_mangen::Man::new(crate::cli::Cli::command()).render(&mut out)?;
    super::render::write(&String::from_utf8_lossy(&out))
}
