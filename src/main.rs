use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = lectern::cli::Cli::parse();
    lectern::commands::run(cli)
}
