//! The parts of a file an include takes, by mdBook's rules
//! (mdbook-driver, `links/take_lines.rs`): `file:N` is line N, `file:N:M`
//! lines N to M, `file:N:` from N on, `file::M` up to M (1-based,
//! inclusive); anything else after the colon names an anchor, the lines
//! between `ANCHOR: name` and `ANCHOR_END: name`. A rustdoc include keeps
//! the other lines too, as hidden `# ` lines. As in mdBook, marker lines
//! are dropped from anchored includes only: a whole file or a range of
//! lines is shown exactly as it is written, markers and all.
//!
//! The two patterns are matched by hand rather than with the regex crate:
//! they are a fixed word and a run of word characters, and nothing else
//! in lectern needs regular expressions.

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Take {
    /// 0-based line indices, end exclusive; `None` end: to the end.
    Lines(usize, Option<usize>),
    Anchor(String),
}

/// What follows the file name (`2:10`, `::5`, `name`); `None`: all.
pub fn parse_take(spec: Option<&str>) -> Take {
    let mut parts = spec.unwrap_or("").splitn(3, ':');
    let first = parts.next();
    let start = match first {
        Some(s) if s.parse::<usize>().is_ok() => {
            s.parse::<usize>().ok().map(|n| n.saturating_sub(1))
        }
        Some("") | None => None,
        Some(anchor) => return Take::Anchor(anchor.to_string()),
    };
    let end = parts.next().map(str::parse::<usize>);
    match (start, end) {
        (Some(s), Some(Ok(e))) => Take::Lines(s, Some(e)),
        (Some(s), Some(Err(_))) => Take::Lines(s, None),
        (Some(s), None) => Take::Lines(s, Some(s + 1)),
        (None, Some(Ok(e))) => Take::Lines(0, Some(e)),
        (None, _) => Take::Lines(0, None),
    }
}

fn range(start: usize, end: Option<usize>) -> Range<usize> {
    start..end.unwrap_or(usize::MAX)
}

/// The anchor a line opens (`ANCHOR: name`) or closes (`ANCHOR_END:`).
fn marker<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let rest = line[from + i + word.len()..].trim_start();
        let n = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .map_or(rest.len(), |(i, _)| i);
        if n > 0 {
            return Some(&rest[..n]);
        }
        from += i + word.len();
    }
    None
}

pub fn opens(line: &str) -> Option<&str> {
    marker(line, "ANCHOR:")
}

pub fn closes(line: &str) -> Option<&str> {
    marker(line, "ANCHOR_END:")
}

fn is_marker(line: &str) -> bool {
    opens(line).is_some() || closes(line).is_some()
}

/// Lines `start..end` of `s`, as written.
pub fn take_lines(s: &str, start: usize, end: Option<usize>) -> String {
    let r = range(start, end);
    // Lines past the range are not looked at (a first line of a large file).
    let kept: Vec<&str> = s.lines().take(r.end).skip(r.start).collect();
    kept.join("\n")
}

/// The lines inside anchor `name`, or `None` when the file has no such
/// anchor. Nested markers are left out.
pub fn take_anchored(s: &str, name: &str) -> Option<String> {
    let mut kept = Vec::new();
    let mut inside = false;
    let mut found = false;
    for l in s.lines() {
        if inside {
            if closes(l) == Some(name) {
                break;
            }
            if !is_marker(l) {
                kept.push(l);
            }
        } else if opens(l) == Some(name) {
            inside = true;
            found = true;
        }
    }
    found.then(|| kept.join("\n"))
}

fn hidden(out: &mut String, line: &str) {
    out.push_str("# ");
    out.push_str(line);
    out.push('\n');
}

/// Every line as written, those outside `start..end` as hidden `# `
/// lines.
pub fn rustdoc_lines(s: &str, start: usize, end: Option<usize>) -> String {
    let r = range(start, end);
    let mut out = String::with_capacity(s.len());
    for (i, l) in s.lines().enumerate() {
        if r.contains(&i) {
            out.push_str(l);
            out.push('\n');
        } else {
            hidden(&mut out, l);
        }
    }
    out.pop();
    out
}

/// Every line, those outside anchor `name` as hidden `# ` lines; `None`
/// when the file has no such anchor.
pub fn rustdoc_anchored(s: &str, name: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut inside = false;
    let mut found = false;
    for l in s.lines() {
        if inside && closes(l) == Some(name) {
            inside = false;
        } else if !inside && opens(l) == Some(name) {
            inside = true;
            found = true;
        } else if is_marker(l) {
        } else if inside {
            out.push_str(l);
            out.push('\n');
        } else {
            hidden(&mut out, l);
        }
    }
    out.pop();
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE: &str = "Lorem\nipsum\ndolor\nsit\namet";

    #[test]
    fn ranges_as_mdbook_reads_them() {
        assert_eq!(parse_take(None), Take::Lines(0, None));
        assert_eq!(parse_take(Some("2")), Take::Lines(1, Some(2)));
        assert_eq!(parse_take(Some("2:4")), Take::Lines(1, Some(4)));
        assert_eq!(parse_take(Some("2:")), Take::Lines(1, None));
        assert_eq!(parse_take(Some(":3")), Take::Lines(0, Some(3)));
        assert_eq!(parse_take(Some("0")), Take::Lines(0, Some(1)));
        assert_eq!(parse_take(Some("here")), Take::Anchor("here".into()));
        let take = |spec| match parse_take(Some(spec)) {
            Take::Lines(s, e) => take_lines(FIVE, s, e),
            Take::Anchor(_) => unreachable!(),
        };
        assert_eq!(take("2"), "ipsum");
        assert_eq!(take("2:3"), "ipsum\ndolor");
        assert_eq!(take("4:"), "sit\namet");
        assert_eq!(take(":2"), "Lorem\nipsum");
        assert_eq!(take(":100"), FIVE);
        assert_eq!(take("4:3"), "", "a reversed range is empty, as in mdBook");
    }

    const ANCHORED: &str = "\
// ANCHOR: all
use std::fmt;
// ANCHOR: body
fn main() {
    ////// ANCHOR: inner
    println!();
    ////// ANCHOR_END: inner
}
// ANCHOR_END: body
// ANCHOR_END: all";

    #[test]
    fn anchors_take_their_lines_without_markers() {
        assert_eq!(
            take_anchored(ANCHORED, "body").unwrap(),
            "fn main() {\n    println!();\n}"
        );
        assert_eq!(take_anchored(ANCHORED, "inner").unwrap(), "    println!();");
        assert_eq!(take_anchored(ANCHORED, "missing"), None);
        assert_eq!(
            take_lines(ANCHORED, 0, Some(3)),
            "// ANCHOR: all\nuse std::fmt;\n// ANCHOR: body",
            "a range keeps its marker lines, as mdBook does"
        );
        assert_eq!(take_lines(ANCHORED, 0, None), ANCHORED);
        assert_eq!(opens("<!-- ANCHOR: a-b_c -->"), Some("a-b_c"));
        assert_eq!(closes("/* ANCHOR_END:x */"), Some("x"));
        assert_eq!(opens("ANCHOR: "), None);
        assert_eq!(opens("ANCHOR_END: x"), None);
    }

    #[test]
    fn rustdoc_includes_hide_the_rest() {
        assert_eq!(
            rustdoc_anchored(ANCHORED, "inner").unwrap(),
            "# use std::fmt;\n# fn main() {\n    println!();\n# }"
        );
        assert_eq!(
            rustdoc_lines(FIVE, 1, Some(2)),
            "# Lorem\nipsum\n# dolor\n# sit\n# amet"
        );
        assert_eq!(rustdoc_anchored(FIVE, "x"), None);
        assert_eq!(
            rustdoc_lines(ANCHORED, 1, Some(2)),
            format!(
                "# // ANCHOR: all\nuse std::fmt;\n# {}",
                ANCHORED.lines().skip(2).collect::<Vec<_>>().join("\n# ")
            ),
            "markers stay in a range, hidden or not"
        );
    }
}
