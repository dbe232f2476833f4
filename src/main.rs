use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = lectern::cli::Cli::from_env();
    lectern::commands::run(cli)
}
