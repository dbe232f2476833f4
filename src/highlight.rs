//! Syntax highlighting behind a small API. A code block's syntax is
//! found in an index of the syntaxes build.rs embeds, and only its bundle
//! (the syntax and those it embeds) is decoded, on first use (the reader
//! does that off the first frame); languages it does not know are shown
//! as plain text.
//!
//! Lookup order for a code block's language: the `lang` token as syntect
//! knows it (name or file extension, any case), then a few common aliases;
//! otherwise plain. A block with no language is highlighted when its first
//! line is a shebang a syntax knows (`#!/bin/bash`, `#!/usr/bin/env
//! python3`), as bat does.

use crate::layout::{BOLD, Highlights, ITALIC, Role, Span, Style, UNDERLINE};
use crate::model::Lesson;
use bundles::{SYNTAXES, SYNTECT_COUNT, Syntax};
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme};
use syntect::parsing::SyntaxSet;

mod bundles;
mod lookup;

/// Code bigger than this is shown plain: highlighting is for reading, and
/// a generated megabyte of code should not stall anything.
const MAX_BLOCK_BYTES: usize = 64 * 1024;
const MAX_LESSON_BYTES: usize = 512 * 1024;

/// The two themes lectern uses, stored as JSON by `examples/make_themes.rs`
/// so only the one needed is decoded (all default themes cost ~0.5 ms).
fn theme(dark: bool) -> &'static Theme {
    static DARK: OnceLock<Theme> = OnceLock::new();
    static LIGHT: OnceLock<Theme> = OnceLock::new();
    let (cell, json) = if dark {
        (&DARK, include_str!("../assets/themes/dark.json"))
    } else {
        (&LIGHT, include_str!("../assets/themes/light.json"))
    };
    cell.get_or_init(|| serde_json::from_str(json).unwrap_or_default())
}

/// The syntax for `lang`: syntect's own first, then bat's (so a language
/// both know is highlighted as when they were two sets).
fn find(lang: &str) -> Option<&'static Syntax> {
    let (syntects, bats) = SYNTAXES.split_at(SYNTECT_COUNT.min(SYNTAXES.len()));
    find_in(syntects, lang).or_else(|| find_in(bats, lang))
}

fn find_in<'a>(syntaxes: &'a [Syntax], lang: &str) -> Option<&'a Syntax> {
    let token = lang.trim().to_ascii_lowercase();
    let alias = match token.as_str() {
        "sh" | "shell" | "zsh" | "bash" => "bash",
        "typescript" => "ts",
        "jsx" | "node" => "js",
        "docker" | "containerfile" => "dockerfile",
        "ps" | "pwsh" | "powershell" => "ps1",
        "py3" | "python3" => "py",
        "golang" => "go",
        "c++" => "cpp",
        "yml" => "yaml",
        "jsonc" | "json5" => "json",
        "text" | "plain" | "plaintext" | "txt" | "none" => return None,
        other => other,
    };
    lookup::by_token(syntaxes, alias)
        .or_else(|| lookup::by_name(syntaxes, lang.trim()))
        .or_else(|| lookup::by_extension(syntaxes, lang.trim()))
}

/// Whether highlighting a block would do anything: it has a language, or
/// a shebang (answered without loading anything).
pub(crate) fn wants(lang: Option<&str>, code: &str) -> bool {
    lang.is_some_and(|l| !l.trim().is_empty()) || shebang(code).is_some()
}

/// The syntax of a block: its language's (bash's for a terminal session),
/// or, with no language, the one whose first-line pattern its shebang
/// matches.
fn syntax_of(lang: Option<&str>, code: &str) -> Option<&'static Syntax> {
    match lang.map(str::trim).filter(|l| !l.is_empty()) {
        Some(l) if is_session(l) => find("bash"),
        Some(l) => find(l),
        None => bundles::by_first_line(shebang(code)?),
    }
}

/// The first line of `code` if it is a shebang (`#!…`): the only first
/// line a block with no language is looked up by, so that other such
/// blocks (program output, most of them) load and try nothing.
fn shebang(code: &str) -> Option<&str> {
    let first = code.split('\n').next()?;
    first.starts_with("#!").then_some(first)
}

/// One code block as styled lines, or `None` for plain text.
pub(crate) fn highlight(lang: Option<&str>, code: &str, dark: bool) -> Option<Vec<Vec<Span>>> {
    if !wants(lang, code) || code.len() > MAX_BLOCK_BYTES {
        return None;
    }
    let session = lang.is_some_and(is_session);
    let found = syntax_of(lang, code)?;
    let bundle = bundles::load(found)?;
    let set: &SyntaxSet = &bundle;
    let syntax = set.syntaxes().get(found.at())?;
    let mut h = HighlightLines::new(syntax, theme(dark));
    let code = crate::layout::wrap::expand_tabs(code, 4);
    let mut out = Vec::new();
    for line in code.split('\n') {
        // A terminal session: commands after their prompt are shell, what
        // they print is left plain.
        let line = if session {
            match prompt(line) {
                Some(n) => {
                    let mut spans = vec![Span::new(&line[..n], Role::Dim)];
                    spans.extend(shell(&mut h, set, &line[n..])?);
                    out.push(spans);
                    continue;
                }
                None => {
                    out.push(vec![Span::new(line, Role::CodeText)]);
                    continue;
                }
            }
        } else {
            line
        };
        let with_nl = format!("{line}\n");
        let ranges = h.highlight_line(&with_nl, set).ok()?;
        let spans = ranges
            .into_iter()
            .filter_map(|(st, text)| {
                let text = text.trim_end_matches('\n');
                if text.is_empty() {
                    return None;
                }
                let c = st.foreground;
                let mut mods = 0;
                if st.font_style.contains(FontStyle::BOLD) {
                    mods |= BOLD;
                }
                if st.font_style.contains(FontStyle::ITALIC) {
                    mods |= ITALIC;
                }
                if st.font_style.contains(FontStyle::UNDERLINE) {
                    mods |= UNDERLINE;
                }
                Some(Span::new(
                    text,
                    Style::new(Role::Syntax(c.r, c.g, c.b)).with(mods),
                ))
            })
            .collect();
        out.push(spans);
    }
    Some(out)
}

fn is_session(lang: &str) -> bool {
    matches!(
        lang.trim().to_ascii_lowercase().as_str(),
        "console" | "shell-session" | "shellsession" | "terminal" | "sh-session"
    )
}

/// The length of a shell prompt starting `line` (`$ `, `% `, `# `, or a
/// `user@host:~$ ` one), if it has one.
fn prompt(line: &str) -> Option<usize> {
    for p in ["$ ", "% ", "# ", "> "] {
        if line.starts_with(p) || line == p.trim_end() {
            return Some(p.len().min(line.len()));
        }
    }
    let end = line.find("$ ")?;
    let head = &line[..end];
    (head.contains('@') && !head.contains(' ')).then_some(end + 2)
}

/// A command line of a session, highlighted as shell.
fn shell(h: &mut HighlightLines, set: &SyntaxSet, cmd: &str) -> Option<Vec<Span>> {
    let with_nl = format!("{cmd}\n");
    let ranges = h.highlight_line(&with_nl, set).ok()?;
    Some(
        ranges
            .into_iter()
            .filter_map(|(st, text)| {
                let text = text.trim_end_matches('\n');
                let c = st.foreground;
                (!text.is_empty()).then(|| Span::new(text, Role::Syntax(c.r, c.g, c.b)))
            })
            .collect(),
    )
}

/// Every code block of a lesson, keyed by the block (highlighting stops
/// once the lesson's budget is spent: the rest stays plain).
pub fn highlight_lesson(lesson: &Lesson, dark: bool) -> Highlights {
    let mut budget = MAX_LESSON_BYTES;
    let mut out = Highlights::default();
    crate::layout::each_code_block(lesson, |path, lang, text| {
        if text.len() > budget {
            return;
        }
        budget -= text.len();
        if let Some(lines) = highlight(lang, text, dark) {
            out.insert(path.to_vec(), lines);
        }
    });
    out
}

/// Whether a lesson has any code worth loading syntect for.
pub fn lesson_wants(lesson: &Lesson) -> bool {
    let mut any = false;
    crate::layout::each_code_block(lesson, |_, lang, code| any |= wants(lang, code));
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_languages_are_coloured_and_keep_text() {
        let code = "fn main() {\n    println!(\"hi\");\n}";
        let lines = highlight(Some("rust"), code, true).unwrap();
        assert_eq!(lines.len(), 3);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect();
        assert_eq!(text.join("\n"), code);
        assert!(
            lines[0]
                .iter()
                .any(|s| matches!(s.style.role, Role::Syntax(..)))
        );
    }

    #[test]
    fn books_languages_beyond_syntects_own_are_coloured() {
        for lang in [
            "toml",
            "Dockerfile",
            "docker",
            "typescript",
            "ts",
            "zig",
            "nix",
            "powershell",
            "ps1",
        ] {
            let lines = highlight(Some(lang), "x = 1", true);
            assert!(lines.is_some(), "{lang} is not highlighted");
        }
    }

    #[test]
    fn the_one_set_holds_syntects_languages_and_bats() {
        assert!(SYNTECT_COUNT > 0 && SYNTECT_COUNT < SYNTAXES.len());
        let part = |lang: &str| {
            let syntax = find(lang).unwrap_or_else(|| panic!("{lang} has no syntax"));
            let at = SYNTAXES
                .iter()
                .position(|s| std::ptr::eq(s, syntax))
                .unwrap();
            if at < SYNTECT_COUNT { "syntect" } else { "bat" }
        };
        for lang in ["rust", "python", "bash"] {
            assert_eq!(part(lang), "syntect", "{lang}");
        }
        for lang in [
            "toml",
            "dockerfile",
            "typescript",
            "zig",
            "nix",
            "powershell",
        ] {
            assert_eq!(part(lang), "bat", "{lang}");
        }
    }

    #[test]
    fn a_session_colours_commands_and_leaves_output_plain() {
        let lines = highlight(
            Some("console"),
            "$ cargo run --release\nHello, world!",
            true,
        )
        .unwrap();
        assert_eq!(lines[0][0].text, "$ ");
        assert!(
            lines[0][1..]
                .iter()
                .any(|s| matches!(s.style.role, Role::Syntax(..)))
        );
        assert_eq!(lines[1], vec![Span::new("Hello, world!", Role::CodeText)]);
        assert_eq!(prompt("user@host:~$ ls"), Some(13));
        assert_eq!(prompt("Compiling x"), None);
    }

    #[test]
    fn aliases_and_unknown_languages() {
        assert!(highlight(Some("sh"), "echo hi", true).is_some());
        assert!(highlight(Some("Bash"), "echo hi", false).is_some());
        assert!(highlight(Some("no-such-language"), "x", true).is_none());
        assert!(highlight(None, "x", true).is_none());
        assert!(highlight(Some("text"), "x", true).is_none());
    }

    #[test]
    fn each_code_block_gets_its_own_highlight() {
        let lesson = crate::layout::nested_code_lesson();
        let code = highlight_lesson(&lesson, true);
        let plain = crate::layout::page(&lesson, 60, &Highlights::default());
        let styled = crate::layout::page(&lesson, 60, &code);
        let text =
            |p: &crate::layout::Page| -> Vec<String> { p.lines.iter().map(|l| l.text()).collect() };
        assert_eq!(text(&styled), text(&plain));
        let code_lines: Vec<_> = styled
            .lines
            .iter()
            .filter(|l| {
                l.spans
                    .iter()
                    .any(|s| s.style.role == Role::CodeFrame && s.text == "│ ")
            })
            .collect();
        assert_eq!(code_lines.len(), 6);
        for line in code_lines {
            let last = line.spans.last().unwrap();
            assert!(matches!(last.style.role, Role::Syntax(..)), "{line:?}");
        }
        assert!(lesson_wants(&lesson));
    }

    #[test]
    fn a_shebang_names_the_syntax_of_a_block_with_no_language() {
        let code = "#!/bin/bash\necho \"$HOME\"";
        let found = highlight(None, code, true).expect("bash found by its shebang");
        assert_eq!(Some(found), highlight(Some("bash"), code, true));
        let python = highlight(None, "#!/usr/bin/env python3\nprint('hi')", true);
        assert_eq!(
            python,
            highlight(Some("python"), "#!/usr/bin/env python3\nprint('hi')", true)
        );
        assert!(python.is_some());
        // Only a shebang is looked at: other blocks with no language load
        // nothing, and a shebang no syntax knows is plain.
        assert!(!wants(None, "<?xml version=\"1.0\"?>"));
        assert!(highlight(None, "cargo run\n#!/bin/bash", true).is_none());
        assert!(highlight(None, "#!/opt/no-such-interpreter\nx", true).is_none());
    }
}
