use super::*;
use std::fs;

fn names(s: &str) -> Vec<(Option<&str>, &str)> {
    links(s)
        .into_iter()
        .map(|l| (l.name, &s[l.start..l.end]))
        .collect()
}

#[test]
fn directives_are_found_as_mdbook_finds_them() {
    let s = "a {{#include x.rs}} b {{ #title  The T }} \\{{#include y}} {{#include}} {{#other z}} {{#quiz\nq.toml}}";
    assert_eq!(
        names(s),
        [
            (Some("include"), "{{#include x.rs}}"),
            (Some("title"), "{{ #title  The T }}"),
            (None, "\\{{#include y}} {{#include}} {{#other z}}"),
            (Some("quiz"), "{{#quiz\nq.toml}}"),
        ],
        "an escaped directive runs to the last `}}` of its line, as mdBook's pattern does"
    );
    assert!(names("{{#include }}").is_empty());
    assert!(names("{{#}} {{# x}} {{x}} {{#a-b c}}").is_empty());
}

/// A book folder with `files` (path, text) in it.
fn book(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let p = d.path().join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    d
}

fn expand(d: &tempfile::TempDir, chapter: &str) -> Expanded {
    let root = fs::canonicalize(d.path()).unwrap();
    let file = d.path().join(chapter);
    let text = fs::read_to_string(&file).unwrap();
    Expander::new(&root, &file).run(&file, &text)
}

#[test]
fn includes_nest_keep_indents_and_set_the_title() {
    let d = book(&[
        (
            "src/ch.md",
            "{{#title  Custom }}\n- item\n\n  ```rust\n  {{#include ../code/a.rs:body}}\n  ```\n\n{{#include part.md}}\n\\{{#include part.md}}\n{{#mermaid x}}\n",
        ),
        ("src/part.md", "From part: {{#include ../code/a.rs:2}}"),
        (
            "code/a.rs",
            "// ANCHOR: body\nfn a() {\n    1\n}\n// ANCHOR_END: body\n",
        ),
    ]);
    let e = expand(&d, "src/ch.md");
    assert!(e.problems.is_empty(), "{:?}", e.problems);
    assert_eq!(e.title.as_deref(), Some("Custom"));
    assert_eq!(
        e.text,
        "\n- item\n\n  ```rust\n  fn a() {\n      1\n  }\n  ```\n\nFrom part: fn a() {\n{{#include part.md}}\n{{#mermaid x}}\n"
    );
}

#[test]
fn playground_wraps_the_file_in_a_fence() {
    let d = book(&[
        ("src/ch.md", "{{#playground ex.rs editable}}"),
        ("src/ex.rs", "fn main() {}\n"),
    ]);
    assert_eq!(
        expand(&d, "src/ch.md").text,
        "```rust,editable\nfn main() {}\n```"
    );
}

#[test]
fn refusals_are_notes_and_located_problems() {
    let d = book(&[
        (
            "book/src/ch.md",
            "# T\n\nSee {{#include a.md}}\n\n{{#include gone.md}}\n{{#include ../../secret.txt}}\n{{#include ../x.rs:nope}}\n",
        ),
        ("book/src/a.md", "A then {{#include b.md}}"),
        ("book/src/b.md", "B then\n{{#include a.md}}"),
        ("book/x.rs", "fn x() {}\n"),
        ("secret.txt", "never shown"),
    ]);
    let root = fs::canonicalize(d.path().join("book")).unwrap();
    let file = d.path().join("book/src/ch.md");
    let text = fs::read_to_string(&file).unwrap();
    let e = Expander::new(&root, &file).run(&file, &text);
    assert!(
        !e.text.contains("never shown") && !e.text.contains("{{#"),
        "{}",
        e.text
    );
    let got: Vec<(String, usize, usize, &str)> = e
        .problems
        .iter()
        .map(|p| {
            let name = Path::new(&p.file)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, p.line, p.column, p.message.as_str())
        })
        .collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!((got[0].0.as_str(), got[0].1, got[0].2), ("b.md", 2, 1));
    assert!(
        got[0].3.contains("cycle (a.md → b.md → a.md)"),
        "{}",
        got[0].3
    );
    assert_eq!((got[1].1, got[1].2), (5, 1));
    assert!(got[1].3.contains("no such file"));
    assert!(got[2].3.contains("outside the book"));
    assert!(got[3].3.contains("no anchor `nope`"));
    assert_eq!(e.text.matches('⚠').count(), 4);
}

#[test]
fn nesting_stops_at_mdbooks_depth() {
    // Each file includes the next: 12 deep, no cycle.
    let mut files: Vec<(String, String)> = (0..12)
        .map(|i| {
            (
                format!("src/f{i}.md"),
                format!("f{i} {{{{#include f{}.md}}}}", i + 1),
            )
        })
        .collect();
    files.push(("src/f12.md".into(), "end".into()));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let d = book(&refs);
    let e = expand(&d, "src/f0.md");
    assert_eq!(e.problems.len(), 1);
    assert!(e.problems[0].message.contains("nested over 10"));
    assert!(
        e.text.starts_with("f0 f1 f2") && !e.text.contains("end"),
        "{}",
        e.text
    );
}

#[test]
fn tidy_paths_read_as_written() {
    assert_eq!(
        tidy(Path::new("a/src/../q/./x.toml")),
        Path::new("a/q/x.toml")
    );
    assert_eq!(tidy(Path::new("../x")), Path::new("../x"));
}

#[test]
fn includes_that_multiply_are_capped() {
    // Each level includes the next eight times: 8^8 copies uncapped.
    let mut files: Vec<(String, String)> = (0..8)
        .map(|i| {
            (
                format!("src/m{i}.md"),
                format!("{{{{#include m{}.md}}}}\n", i + 1).repeat(8),
            )
        })
        .collect();
    files.push(("src/m8.md".into(), "x".repeat(1000)));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let d = book(&refs);
    let e = expand(&d, "src/m0.md");
    assert!(e.text.len() < 2 * MAX_INCLUDED, "{}", e.text.len());
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("MiB of included text"))
    );
}
