//! `lectern man`: the one man page. Its synopsis, options and commands
//! come from the CLI definition (clap_mangen and the subcommands' own
//! arguments), its KEYS from the key tables (as the help screen and the
//! README's key list do), the rest from the sections in [`text`].

mod text;

use clap::CommandFactory;
use roff::{Roff, bold, italic, roman};

pub(super) fn run() -> super::Outcome {
    super::render::write(&page()?)
}

/// The man page, as roff.
pub(crate) fn page() -> super::Result<String> {
    let mut cli = crate::cli::Cli::command();
    cli.build();
    let man = clap_mangen::Man::new(cli.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    let mut roff = Roff::new();
    commands(&mut roff, &cli);
    keys(&mut roff);
    configuration(&mut roff);
    for (title, entries) in text::SECTIONS {
        roff.control("SH", [*title]);
        for (term, what) in *entries {
            entry(&mut roff, term, what);
        }
    }
    roff.to_writer(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(once_preamble(&String::from_utf8_lossy(&out)))
}

/// Each of roff's pieces starts with the same preamble (how to typeset
/// an apostrophe); the page needs it once.
fn once_preamble(page: &str) -> String {
    let preamble = Roff::new().render();
    match page.split_once(&preamble) {
        Some((before, after)) => format!("{before}{preamble}{}", after.replace(&preamble, "")),
        None => page.to_string(),
    }
}

/// A tagged paragraph: `term` in bold (an empty one: a plain paragraph).
fn entry(roff: &mut Roff, term: &str, what: &str) {
    if term.is_empty() {
        roff.control("PP", []);
    } else {
        roff.control("TP", []);
        roff.text([bold(term)]);
    }
    roff.text([roman(what)]);
}

/// COMMANDS: each subcommand's usage, what it does, and the arguments
/// and options of its own (the global ones are under OPTIONS).
fn commands(roff: &mut Roff, cli: &clap::Command) {
    roff.control("SH", ["COMMANDS"]);
    // clap's own `help` command is -h under another name.
    let shown = |s: &&clap::Command| !s.is_hide_set() && s.get_name() != "help";
    for sub in cli.get_subcommands().filter(shown) {
        let usage = sub.clone().render_usage().to_string();
        let usage = usage.trim_start_matches("Usage:").trim();
        roff.control("SS", [usage]);
        if let Some(about) = sub.get_long_about().or_else(|| sub.get_about()) {
            roff.text([roman(about.to_string())]);
        }
        let own = sub
            .get_arguments()
            .filter(|a| !a.is_global_set() && !a.is_hide_set() && a.get_id() != "help");
        for arg in own {
            roff.control("TP", []);
            roff.text([bold(arg_name(arg))]);
            let help = arg.get_long_help().or_else(|| arg.get_help());
            let mut what = help.map(|h| h.to_string()).unwrap_or_default();
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() {
                what += &format!(" (one of: {})", values.join(", "));
            }
            let takes = arg.get_num_args().is_some_and(|n| n.takes_values());
            if let Some(d) = arg.get_default_values().first().filter(|_| takes) {
                what += &format!(" [default: {}]", d.to_string_lossy());
            }
            roff.text([roman(what)]);
        }
    }
}

/// `--width <WIDTH>`, `[PATH]`, `<WORDS>...`: an argument as usage
/// writes it.
fn arg_name(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|v| v.first())
        .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string);
    let takes = arg.get_num_args().is_some_and(|n| n.takes_values());
    let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
    let dots = if many { "..." } else { "" };
    match arg.get_long() {
        Some(long) if takes => format!("--{long} <{value}>"),
        Some(long) => format!("--{long}"),
        None if arg.is_required_set() => format!("<{value}>{dots}"),
        None => format!("[{value}]{dots}"),
    }
}

/// CONFIGURATION: each setting of the config file, from the table that
/// reads the file and shows it (`lectern config --show`).
fn configuration(roff: &mut Roff) {
    roff.control("SH", ["CONFIGURATION"]);
    roff.text([roman(
        "The config file (see FILES) is TOML, one setting a line. A flag overrides the file; \
         a bad value keeps its default and is said once; lectern config --show prints each \
         setting in effect and where it came from.",
    )]);
    for spec in crate::config::SETTINGS {
        let mut what = format!("{}: {}.", spec.values, spec.doc);
        if let Some((flag, _)) = spec.flag {
            what += &format!(" Flag: {flag}.");
        }
        entry(roff, spec.key, &what);
    }
}

/// KEYS: the help screen's rows, screen by screen, from the key tables.
fn keys(roff: &mut Roff) {
    roff.control("SH", ["KEYS"]);
    roff.text([
        roman("In the reader, screen by screen; "),
        bold("?"),
        roman(" shows this list there. The keys are "),
        italic("less"),
        roman("(1)'s where it has them."),
    ]);
    for (screen, rows) in crate::keymap::help() {
        if rows.is_empty() {
            continue;
        }
        roff.control("SS", [screen.title()]);
        for (keys, what) in rows {
            entry(roff, &keys, what);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page with roff's escapes of `-` and `'` undone.
    fn page_text() -> String {
        let page = page().expect("the man page renders");
        page.replace("\\-", "-").replace("\\*(Aq", "'")
    }

    #[test]
    fn has_every_section_and_no_page_that_does_not_exist() {
        let page = page_text();
        for section in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "COMMANDS",
            "KEYS",
            "CONFIGURATION",
            "FILES",
            "ENVIRONMENT",
            "EXIT STATUS",
            "EXAMPLES",
        ] {
            assert!(
                page.contains(&format!(".SH {section}"))
                    || page.contains(&format!(".SH \"{section}\"")),
                "{section}"
            );
        }
        assert!(
            !page.contains("lectern-"),
            "no lectern-render(1) and the like"
        );
        let raw = super::page().expect("the man page renders");
        assert_eq!(raw.matches(&Roff::new().render()).count(), 1);
    }

    /// Every key the help screen lists is in the page, and every
    /// subcommand with its own options.
    #[test]
    fn keys_and_commands_come_from_their_tables() {
        let page = page_text();
        for (_, rows) in crate::keymap::help() {
            for (_, what) in rows {
                assert!(page.contains(what), "{what}");
            }
        }
        let cli = crate::cli::Cli::command();
        for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
            assert!(
                page.contains(&format!("lectern {}", sub.get_name())),
                "{}",
                sub.get_name()
            );
        }
        assert!(page.contains("--width <WIDTH>"));
    }

    /// The environment variables the page names are the ones the code
    /// reads (by name, in the source), and the other way round.
    #[test]
    fn environment_is_what_the_code_reads() {
        let page = page_text();
        for var in text::ENVIRONMENT.iter().map(|(v, _)| v) {
            let name = var.split_whitespace().next().unwrap_or_default();
            assert!(page.contains(name), "{name}");
        }
        for read in [
            "LECTERN_DATA_DIR",
            "LECTERN_CACHE_DIR",
            "LECTERN_CONFIG",
            "LECTERN_SYNC_DIR",
            "COLORFGBG",
        ] {
            assert!(
                text::ENVIRONMENT.iter().any(|(v, _)| v.contains(read)),
                "{read}"
            );
        }
    }
}
