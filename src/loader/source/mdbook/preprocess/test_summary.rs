//! mdbook-spec's test summary: `{{summary-table}}` in a chapter stands for
//! a table of every chapter of the book, numbered as SUMMARY.md numbers
//! it, with how many rules it defines, how many tests of rustc's suite
//! name them, how many no test names, and the coverage.
//!
//! The tests are read from a checkout of rust-lang/rust (`SPEC_RUST_ROOT`)
//! that a reader does not have: lectern makes the table as mdbook-spec
//! does when that is not set (a local build of the book): no tests, every
//! rule uncovered.

use super::super::summary::{Entry, Section};
use super::{Chapter, Rules};
use std::collections::HashMap;
use std::path::Path;

/// What a chapter writes for the table to stand.
pub const MARK: &str = "{{summary-table}}";

/// `text` with its table made from the book's outline and rules.
pub fn rewrite(text: &str, chapter: &dyn Chapter) -> String {
    let table = match chapter.place() {
        Some((outline, _)) => table(&outline.summary.entries, &chapter.rules()),
        None => String::new(),
    };
    text.replace(MARK, &table)
}

/// Each entry's number as mdBook writes it ("2.", "2.1."): numbered
/// chapters counted by depth; prefix and suffix chapters have none.
fn numbers(entries: &[Entry]) -> Vec<String> {
    let mut counters: Vec<usize> = Vec::new();
    entries
        .iter()
        .map(|e| {
            if e.section != Section::Numbered {
                return String::new();
            }
            counters.resize(e.depth + 1, 0);
            counters[e.depth] += 1;
            counters.iter().map(|n| format!("{n}.")).collect()
        })
        .collect()
}

/// The share of `rules` covered, to a tenth of a per cent rounded up.
fn coverage(uncovered: usize, rules: usize) -> String {
    if rules == 0 {
        return "–".into();
    }
    let tenths = ((rules - uncovered) * 1000).div_ceil(rules);
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The table as markdown: a row per chapter with a file, then the totals.
fn table(entries: &[Entry], rules: &Rules) -> String {
    let mut per_chapter: HashMap<&Path, usize> = HashMap::new();
    for path in rules.ids.values() {
        *per_chapter.entry(path.as_path()).or_default() += 1;
    }
    let mut out =
        String::from("\n| | Rules | Tests | Uncovered Rules | Coverage |\n|---|--:|--:|--:|--:|\n");
    let mut total = 0;
    for (e, number) in entries.iter().zip(numbers(entries)) {
        let Some(path) = &e.path else { continue };
        // Nesting shows in the number (mdbook-spec indents it too, which
        // a table's cell does not keep).
        let title = e.title.replace('|', "\\|");
        let name = match number.as_str() {
            "" => title,
            n => format!("{n} {title}"),
        };
        match per_chapter.get(path.as_path()) {
            Some(&n) => {
                total += n;
                let pct = coverage(n, n);
                out.push_str(&format!("| {name} | {n} | 0 | {n} | {pct} |\n"));
            }
            None => out.push_str(&format!("| {name} | 0 | | | |\n")),
        }
    }
    let pct = coverage(total, total);
    out.push_str(&format!("| **Total:** | {total} | 0 | {total} | {pct} |\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn entry(title: &str, path: Option<&str>, depth: usize, section: Section) -> Entry {
        Entry {
            title: title.into(),
            path: path.map(PathBuf::from),
            depth,
            section,
            part: None,
            line: 1,
            column: 1,
        }
    }

    #[test]
    fn chapters_are_numbered_as_mdbook_numbers_them() {
        let entries = [
            entry("Intro", Some("intro.md"), 0, Section::Prefix),
            entry("Items", Some("items.md"), 0, Section::Numbered),
            entry("Static", Some("items/static.md"), 1, Section::Numbered),
            entry("Draft", None, 1, Section::Numbered),
            entry("Types", Some("types.md"), 0, Section::Numbered),
            entry("Appendix", Some("app.md"), 0, Section::Suffix),
        ];
        assert_eq!(numbers(&entries), ["", "1.", "1.1.", "1.2.", "2.", ""]);
    }

    #[test]
    fn each_chapter_has_its_rules_none_covered_without_the_test_suite() {
        let entries = [
            entry("Intro", Some("intro.md"), 0, Section::Prefix),
            entry("Items", Some("items.md"), 0, Section::Numbered),
            entry(
                "Static | items",
                Some("items/static.md"),
                1,
                Section::Numbered,
            ),
        ];
        let mut rules = Rules::default();
        for (id, file) in [
            ("items.intro", "items.md"),
            ("items.static.intro", "items/static.md"),
            ("items.static.mut", "items/static.md"),
        ] {
            rules.ids.insert(id.into(), PathBuf::from(file));
        }
        let made = table(&entries, &rules);
        let rows: Vec<&str> = made.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(rows[1], "| Intro | 0 | | | |");
        assert_eq!(rows[2], "| 1. Items | 1 | 0 | 1 | 0.0% |");
        assert_eq!(rows[3], "| 1.1. Static \\| items | 2 | 0 | 2 | 0.0% |");
        assert_eq!(rows[4], "| **Total:** | 3 | 0 | 3 | 0.0% |");
    }

    #[test]
    fn coverage_is_rounded_up_to_a_tenth() {
        assert_eq!(coverage(0, 3), "100.0%");
        assert_eq!(coverage(1, 3), "66.7%");
        assert_eq!(coverage(2, 3), "33.4%");
        assert_eq!(coverage(0, 0), "–");
    }
}
