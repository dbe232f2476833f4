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
    Expander::new(&root, &file, &std::sync::Mutex::new(Budgets::book())).run(&file, &text)
}

#[test]
fn includes_nest_keep_indents_and_take_the_title_out() {
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
    assert_eq!(e.problems.len(), 1, "{:?}", e.problems);
    assert_eq!(
        (e.problems[0].line, e.problems[0].severity),
        (10, Severity::Warning)
    );
    assert_eq!(
        e.problems[0].message,
        "`{{#mermaid}}` is for a preprocessor book.toml does not name: it is shown as written"
    );
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
    let e = Expander::new(&root, &file, &std::sync::Mutex::new(Budgets::book())).run(&file, &text);
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
    assert_eq!(e.problems[3].severity, Severity::Warning);
    assert_eq!(
        e.text.matches('⚠').count(),
        3,
        "a missing anchor includes nothing, as in mdBook: {}",
        e.text
    );
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
    assert!(e.text.len() < 2 * caps::MAX_INCLUDED, "{}", e.text.len());
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("MiB of included text"))
    );
}

/// The book of `files`, its chapter `src/ch.md` expanded, and the work
/// counted doing it.
fn expand_counted(files: &[(&str, &str)]) -> (Expanded, usize) {
    let d = book(files);
    let mut e = None;
    let work = crate::work::of(|| e = Some(expand(&d, "src/ch.md")));
    (e.unwrap(), work)
}

fn over_cap(e: &Expanded) -> bool {
    e.problems
        .iter()
        .any(|p| p.message.contains("MiB of included text") && p.severity == Severity::Error)
}

#[test]
fn an_indent_repeated_on_every_line_is_counted_before_it_is_written() {
    // 20,000 columns of indent before an include of 20,000 lines: 400 MB
    // if written, refused once the cap is reached, at the directive.
    let chapter = format!(
        "# T\n\n{}{{{{#include long.txt}}}}\nafter\n",
        " ".repeat(20_000)
    );
    let lines = "x\n".repeat(20_000);
    let (e, _) = expand_counted(&[("src/ch.md", &chapter), ("src/long.txt", &lines)]);
    assert!(over_cap(&e), "{:?}", e.problems);
    assert_eq!((e.problems[0].line, e.problems[0].column), (3, 20_001));
    assert!(
        e.text.len() < 30_000,
        "the include is refused whole: {}",
        e.text.len()
    );
    assert!(
        e.text.ends_with("later includes are left out\nafter\n"),
        "{}",
        &e.text[20_000..]
    );
}

#[test]
fn a_fan_out_of_includes_reaches_the_cap() {
    // Ten includes of the next file, ten deep: 10^10 copies of the last.
    let mut files: Vec<(String, String)> = (0..10)
        .map(|i| {
            let name = if i == 0 {
                "src/ch.md".to_string()
            } else {
                format!("src/f{i}.md")
            };
            (name, format!("{{{{#include f{}.md}}}}\n", i + 1).repeat(10))
        })
        .collect();
    files.push(("src/f10.md".into(), "x".repeat(60)));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let (e, _) = expand_counted(&refs);
    assert!(over_cap(&e), "{:?}", e.problems);
    assert!(
        e.text.len() <= caps::MAX_INCLUDED + 1000,
        "{}",
        e.text.len()
    );
    assert_eq!(e.problems.len(), 1, "said once: {:?}", e.problems);
}

#[test]
fn many_includes_cost_linear_work() {
    let case = |n: usize| {
        let chapter = "- {{#include one.rs}}\n".repeat(n);
        let (e, work) = expand_counted(&[("src/ch.md", &chapter), ("src/one.rs", "fn one() {}\n")]);
        assert!(e.problems.is_empty(), "{:?}", e.problems);
        assert_eq!(e.text.matches("- fn one() {}\n").count(), n);
        work
    };
    let (small, large) = (case(2_000), case(8_000));
    assert!(large <= 5 * small, "4x the includes: {small} -> {large}");
    // All on one line, each after the text of the last.
    let one_line = |n: usize| {
        let chapter = "{{#include one.rs}}".repeat(n);
        expand_counted(&[("src/ch.md", &chapter), ("src/one.rs", "a")]).1
    };
    let (small, large) = (one_line(2_000), one_line(8_000));
    assert!(large <= 5 * small, "4x on one line: {small} -> {large}");
}

#[test]
fn a_directive_never_closed_costs_linear_work() {
    let case = |n: usize| {
        let chapter = format!("{}{}", "{{#include a ".repeat(n), "\\{{#x ".repeat(n));
        let (e, work) = expand_counted(&[("src/ch.md", &chapter)]);
        assert_eq!(e.text, chapter, "nothing closed: nothing replaced");
        work
    };
    let (small, large) = (case(20_000), case(80_000));
    assert!(large <= 5 * small, "4x the text: {small} -> {large}");
}

#[test]
fn a_range_of_a_large_file_counts_the_whole_file() {
    // One line of a 1 MB file, taken 100 times: 100 MB looked through.
    let big = "y\n".repeat(500_000);
    let chapter = "{{#include big.txt:1}}\n".repeat(100);
    let (e, _) = expand_counted(&[("src/ch.md", &chapter), ("src/big.txt", &big)]);
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("MiB of included files")),
        "{:?}",
        e.problems
    );
    assert_eq!(e.problems.len(), 1);
    assert!(e.text.matches("y\n").count() < 100);
}

fn question(n: usize) -> String {
    format!(
        "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Q{n}?\"\nanswer.answer = \"a\"\n"
    )
}

#[test]
fn a_quiz_used_many_times_is_read_once_and_questions_are_capped() {
    // A quiz whose second question has no type: one problem, however
    // often it is used.
    let quiz = format!("{}[[questions]]\nprompt.prompt = \"?\"\n", question(1));
    let chapter = "{{#quiz q.toml}}\n\n".repeat(caps::MAX_QUESTIONS + 5);
    let (e, _) = expand_counted(&[("src/ch.md", &chapter), ("src/q.toml", &quiz)]);
    let asked: usize = e.quizzes.iter().map(Vec::len).sum();
    assert_eq!(asked, caps::MAX_QUESTIONS);
    let problems: Vec<&str> = e.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        problems.iter().filter(|m| m.contains("no `type`")).count(),
        1,
        "{problems:?}"
    );
    assert_eq!(
        problems
            .iter()
            .filter(|m| m.contains("over 1000 questions"))
            .count(),
        5
    );
    let refused = e
        .problems
        .iter()
        .find(|p| p.message.contains("questions"))
        .unwrap();
    assert_eq!(
        refused.line,
        2 * caps::MAX_QUESTIONS + 1,
        "located at its directive"
    );
}

#[test]
fn a_quiz_too_large_is_refused_before_it_is_read() {
    let quiz = question(1).repeat(1 + caps::MAX_QUIZ_BYTES / question(1).len());
    let (e, _) = expand_counted(&[("src/ch.md", "{{#quiz q.toml}}\n"), ("src/q.toml", &quiz)]);
    assert!(e.quizzes.iter().all(Vec::is_empty));
    assert_eq!(e.problems.len(), 1);
    assert!(
        e.problems[0]
            .message
            .contains("cannot read the quiz `q.toml`: over 256 KiB")
    );
    assert!(e.text.contains("⚠ cannot read the quiz"));
}

#[test]
fn ten_thousand_quizzes_cost_linear_work() {
    let case = |n: usize| {
        let chapter = "{{#quiz q.toml}}\n".repeat(n);
        expand_counted(&[("src/ch.md", &chapter), ("src/q.toml", "")]).1
    };
    let (small, large) = (case(2_500), case(10_000));
    assert!(large <= 5 * small, "4x the quizzes: {small} -> {large}");
}

#[test]
fn includes_after_a_long_indent_count_the_indent_each_time() {
    // Each of 10,000 includes of an empty file, in a file included after
    // 100,000 columns, would copy the indent: 1 GB for no text at all.
    let chapter = format!("{}{{{{#include a.md}}}}\n", " ".repeat(100_000));
    let a = "{{#include e.md}}".repeat(10_000);
    let (e, _) = expand_counted(&[("src/ch.md", &chapter), ("src/a.md", &a), ("src/e.md", "")]);
    assert!(over_cap(&e), "{:?}", e.problems);
    assert_eq!(e.problems.len(), 1);
}

#[test]
fn problems_in_an_included_file_are_placed_in_it() {
    let a = format!(
        "{}\n{{{{#include gone.md}}}} {{{{#include gone.md}}}}\n",
        "x".repeat(50)
    );
    let (e, _) = expand_counted(&[("src/ch.md", "{{#include a.md}}"), ("src/a.md", &a)]);
    let got: Vec<(usize, usize)> = e.problems.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(got, [(2, 1), (2, 22)]);
    assert!(e.problems[0].file.ends_with("a.md"));
}
