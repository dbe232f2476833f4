//! Helpers shared by the integration tests: where the seed lesson is, and
//! checkers for what may reach a terminal.
#![allow(dead_code)]

use lectern::layout::wrap::width;

/// The seed lesson, read from the shared folder beside the crate. Tests
/// that need it skip (with a message) when it is absent.
pub const SEED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/seeds/where-inference-time-goes.json"
);

pub fn seed_bytes() -> Option<Vec<u8>> {
    match std::fs::read(SEED) {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("seed lesson not found at {SEED} ({e}); test skipped");
            None
        }
    }
}

/// Whitespace collapsed to single spaces, so wrapped text compares with
/// the text it came from.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A character that must never reach the terminal as content: C0 controls
/// (tab included: the layout must expand or collapse it), DEL, C1
/// controls, and bidi embeddings, overrides and isolates.
pub fn is_forbidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{80}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Checks plain output: no forbidden characters on any line, and every
/// line at most `max` columns wide. Returns the first problem found.
pub fn check_plain(out: &str, max: usize) -> Result<(), String> {
    for (i, line) in out.split('\n').enumerate() {
        if let Some(c) = line.chars().find(|&c| is_forbidden(c)) {
            return Err(format!("line {}: forbidden {c:?} in {line:?}", i + 1));
        }
        let w = width(line);
        if w > max {
            return Err(format!("line {}: {w} columns, over {max}: {line:?}", i + 1));
        }
    }
    Ok(())
}

/// Removes SGR sequences (`ESC [ params m`), failing on any other escape
/// sequence or stray ESC.
pub fn strip_sgr(out: &str) -> Result<String, String> {
    let mut plain = String::with_capacity(out.len());
    let mut rest = out;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        let seq = &rest[at + 1..];
        let Some(params) = seq.strip_prefix('[') else {
            return Err(format!(
                "ESC not followed by '[' at byte {}: {:?}",
                out.len() - rest.len() + at,
                &seq[..seq.len().min(12)]
            ));
        };
        let end = params
            .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
            .ok_or("unterminated CSI sequence")?;
        if !params[end..].starts_with('m') {
            return Err(format!(
                "CSI sequence that is not SGR: ESC[{}",
                &params[..(end + 1).min(params.len())]
            ));
        }
        rest = &params[end + 1..];
    }
    plain.push_str(rest);
    Ok(plain)
}

/// Checks coloured output: the only escape sequences are SGR, and once
/// they are removed the text passes [`check_plain`].
pub fn check_styled(out: &str, max: usize) -> Result<(), String> {
    check_plain(&strip_sgr(out)?, max)
}
