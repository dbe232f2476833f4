//! mdBook folders through the real binary: `lectern render` and `lectern
//! lint` on the project's own fixture book (tests/fixtures/book).

use crate::common::lectern;
use std::path::{Path, PathBuf};
use std::process::Command;

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book")
}

fn render(path: &Path) -> String {
    render_at(path, "100")
}

fn render_at(path: &Path, width: &str) -> String {
    let o = lectern(
        &["render", "--color", "never", "--width", width, "--answers"],
        path,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Where each of `needles` first appears in `hay`, failing on a missing one.
fn places(hay: &str, needles: &[&str]) -> Vec<usize> {
    needles
        .iter()
        .map(|n| {
            hay.find(n)
                .unwrap_or_else(|| panic!("{n:?} not in:\n{hay}"))
        })
        .collect()
}

#[test]
fn the_contents_follow_summary_md() {
    let toc = render(&book());
    assert!(toc.starts_with("The Fixture Book\n"), "{toc}");
    let order = places(
        &toc,
        &[
            "1. Preface",
            "Module 1: Getting started",
            "2. First steps with cargo",
            "3. Including code",
            "4. Two levels down",
            "5. A chapter still to come (not yet written)",
            "Module 2: Going further",
            "6. Quizzes of every kind",
            "7. Broken on purpose",
            "8. ✘",
            "9. Afterword",
        ],
    );
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{toc}");
    // Where the long notes wrap depends on the checkout's path: compare words.
    let words = toc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("A chapter still to come") && words.contains("not yet written"));
    assert!(words.contains("chapter file not found: missing.md"));
    assert!(
        !toc.contains('`'),
        "inline code in titles is rendered: {toc}"
    );
    // Any path in the book that is no chapter names the book.
    for inside in ["book.toml", "src/SUMMARY.md", "listings", "src"] {
        assert_eq!(render(&book().join(inside)), toc, "{inside}");
    }
}

/// Every chapter file SUMMARY.md lists that exists.
fn chapters() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(book().join("src/SUMMARY.md")).unwrap();
    summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter(|s| !s.is_empty())
        .map(|s| book().join("src").join(s))
        .filter(|p| p.is_file())
        .collect()
}

#[test]
fn no_directive_or_marker_is_left_in_any_chapter() {
    let all = chapters();
    assert_eq!(all.len(), 7);
    for ch in all {
        // The escaped directive is meant to be read as written.
        let page = render(&ch).replace("Written as is: {{#include ../../listings/hello.rs}}", "");
        for left in [
            "{{#include",
            "{{#rustdoc",
            "{{#quiz",
            "{{#title",
            "lectern-quiz",
        ] {
            assert!(!page.contains(left), "{left} in {}:\n{page}", ch.display());
        }
    }
}

#[test]
fn includes_are_expanded_by_anchor_range_and_rustdoc_rules() {
    let page = render(&book().join("src/basics/includes.md"));
    assert!(page.starts_with("Including code\n"), "{page}");
    assert!(
        page.contains("Module 1: Getting started · Lesson 3 of 9"),
        "{page}"
    );
    let greet = page.find("fn greet() -> &'static str").unwrap();
    assert!(page[greet..].contains("\"hello\""));
    // Lines 10 to 12: `main` whole, and nothing of `greet`.
    let main = page.find("│ fn main() {").unwrap();
    assert!(page[main..].contains("println!(\"{}\", greet());"));
    // rustdoc_include: the rest of the file is there, hidden.
    assert!(page.contains("lines hidden (#)"), "{page}");
    assert!(page.contains("Written as is: {{#include ../../listings/hello.rs}}"));
    assert!(page.contains("This paragraph was included from snippet.md"));
    assert!(
        page.contains("use std::fmt::Write as _;"),
        "the nested include"
    );
    // A range keeps the file's marker lines, as mdBook shows them.
    assert!(page.contains("// ANCHOR_END: all"), "{page}");
    let greet_only = &page[..page.find("Lines 10 to 12").unwrap()];
    assert!(
        !greet_only.contains("ANCHOR"),
        "an anchor takes its lines without markers"
    );
    let first = render(&book().join("src/basics/first.md"));
    assert!(
        first.starts_with("First steps with cargo\n"),
        "SUMMARY.md names the page, not {{#title}}: {first}"
    );
}

#[test]
fn links_go_to_sources_in_the_book_and_headings_have_mdbooks_ids() {
    use lectern::model::Block;
    let file = book().join("src/afterword.md");
    let lesson = lectern::loader::load_lesson(&lectern::model::Origin::File(file.clone())).unwrap();
    let ids: Vec<&str> = lesson
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { id, .. } => id.as_deref(),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["notes", "notes-1"]);
    let page = render(&file);
    for link in [
        "<basics/includes.md#the-whole-program>",
        "<../std/index.html>",
        "<#notes>",
    ] {
        assert!(page.contains(link), "{link}:\n{page}");
    }
}

#[test]
fn refused_includes_are_visible_notes() {
    let page = render_at(&book().join("src/broken.md"), "250");
    for note in [
        "an include cycle (cycle-a.md → cycle-b.md → cycle-a.md)",
        "cannot include `nowhere.md`: no such file",
        "it is outside the book",
        "the quiz does not parse",
    ] {
        assert!(page.contains(note), "{note}:\n{page}");
    }
    assert!(
        !page.contains("[package]"),
        "nothing outside the book is read"
    );
    assert!(
        !page.contains("no_such_anchor"),
        "a missing anchor includes nothing, as in mdBook: {page}"
    );
}

#[test]
fn every_question_of_the_chapter_is_in_its_lesson() {
    use lectern::model::CheckKind;
    let file = book().join("src/quiz.md");
    let lesson = lectern::loader::load_lesson(&lectern::model::Origin::File(file.clone())).unwrap();
    let questions: Vec<String> = lesson
        .checks
        .iter()
        .map(|c| lectern::model::runs_text(&c.question))
        .collect();
    assert_eq!(questions.len(), 7, "{questions:?}");
    for q in [
        "Which keyword declares a variable?",
        "Which of these are true?",
        "What is the keyword for a constant?",
        "Pick the first letter.",
        "Pick yes.",
    ] {
        assert!(questions.iter().any(|x| x == q), "{q}: {questions:?}");
    }
    let kinds: Vec<&CheckKind> = lesson.checks.iter().map(|c| &c.kind).collect();
    assert!(matches!(kinds[1], CheckKind::Choice { multi: true }));
    assert!(matches!(kinds[2], CheckKind::Short { accepted } if accepted == &["const", "`const`"]));
    assert!(
        matches!(kinds[3], CheckKind::Tracing { compiles: true, stdout: Some(s), .. } if s == "2")
    );
    assert!(matches!(
        kinds[4],
        CheckKind::Tracing {
            compiles: false,
            line: Some(3),
            ..
        }
    ));
    // The page shows the first as the reader does today, with its
    // explanation only among the answers (`--answers`), and the question
    // lectern cannot ask as a note.
    let page = render(&file);
    assert!(
        page.contains("Which keyword declares a variable?"),
        "{page}"
    );
    // Plain text marks the context's code as code.
    assert!(
        page.contains("Variables are declared with `let`."),
        "{page}"
    );
    assert!(page.contains("a kind lectern does not know: DragAndDrop"));
    let o = lectern(&["render", "--color", "never", "--width", "100"], &file);
    let plain = String::from_utf8(o.stdout).unwrap();
    assert!(
        !plain.contains("Variables are declared with"),
        "no explanation before an answer"
    );
}

#[test]
fn lint_names_each_problem_where_it_is() {
    let o = lectern(&["lint"], &book());
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let b = book().display().to_string();
    for line in [
        format!("{b}/src/cycle-b.md:2:1: error: cannot include `cycle-a.md`: an include cycle"),
        format!("{b}/src/broken.md:9:1: error: cannot include `nowhere.md`: no such file"),
        format!(
            "{b}/src/broken.md:14:1: warning: cannot include `../listings/hello.rs:no_such_anchor`"
        ),
        format!(
            "{b}/src/broken.md:19:1: error: cannot include `../../../../Cargo.toml`: it is outside the book"
        ),
        format!("{b}/quizzes/unparsable.toml:3:36: error: the quiz does not parse"),
        format!("{b}/quizzes/no-answer.toml:1:1: error: question 1: no right answer"),
        format!("{b}/src/SUMMARY.md:19:3: error: chapter file not found: missing.md"),
        format!("{b}/quizzes/kinds.toml:58:1: warning: question 6: a kind lectern does not know"),
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(&line)),
            "{line}\nin:\n{out}"
        );
    }
    assert_eq!(out.lines().count(), 8, "{out}");
    // One sound chapter alone lints clean.
    let o = lectern(&["lint"], &book().join("src/basics/includes.md"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn search_finds_words_of_included_files() {
    // The word is only in listings/hello.rs, which a chapter includes.
    let data = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lectern"))
        .arg("search")
        .arg(book())
        .arg("greet")
        .env("LECTERN_DATA_DIR", data.path())
        .env("LECTERN_CACHE_DIR", data.path().join("cache"))
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.starts_with("Including code (the-fixture-book, lesson 3, Getting started)"),
        "{out}"
    );
}

#[test]
fn a_folder_of_books_lists_each_book() {
    let shelf = tempfile::tempdir().unwrap();
    for name in ["one", "two"] {
        let b = shelf.path().join(name);
        std::fs::create_dir_all(b.join("src")).unwrap();
        std::fs::write(
            b.join("book.toml"),
            format!("[book]\ntitle = \"Book {name}\"\n"),
        )
        .unwrap();
        std::fs::write(b.join("src/SUMMARY.md"), "- [Start](start.md)\n").unwrap();
        std::fs::write(b.join("src/start.md"), "# Start\n\nHello.\n").unwrap();
        std::fs::write(b.join("src/not-listed.md"), "# Not a chapter\n").unwrap();
    }
    let toc = render(shelf.path());
    assert!(
        toc.contains("Book one\n1 lesson") && toc.contains("Book two\n1 lesson"),
        "{toc}"
    );
    assert!(!toc.contains("Not a chapter"), "{toc}");
    let o = lectern(&["lint"], shelf.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A book in a temporary folder: `files` are (path, text) under it.
fn temp_book(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let p = d.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

fn lint_of(path: &Path) -> String {
    let o = lectern(&["lint"], path);
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn chapters_outside_the_book_are_refused_and_the_rest_read() {
    let d = temp_book(&[
        ("secret.md", "SECRET words"),
        ("b/src/in.md", "# In\n\nshown here\n"),
        ("other/book.toml", "[book]\nsrc = \"../b/src\"\n"),
    ]);
    let secret = d.path().join("secret.md");
    let summary = format!(
        "- [In](in.md)\n- [Up](../../secret.md)\n- [Abs]({})\n- [Link](link.md)\n",
        secret.display()
    );
    std::fs::write(d.path().join("b/src/SUMMARY.md"), summary).unwrap();
    std::os::unix::fs::symlink(&secret, d.path().join("b/src/link.md")).unwrap();
    let book = d.path().join("b");
    let toc = render(&book);
    assert!(!toc.contains("SECRET"), "{toc}");
    // Where the notes wrap depends on the temporary path: compare words.
    let words = toc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(words.matches("outside the book").count(), 3, "{toc}");
    assert!(render(&book.join("src/in.md")).contains("shown here"));
    let link = lectern(&["render", "--color", "never"], &book.join("src/link.md"));
    let said =
        String::from_utf8_lossy(&link.stdout).into_owned() + &String::from_utf8_lossy(&link.stderr);
    assert!(
        !said.contains("SECRET") && said.contains("outside the book"),
        "{said}"
    );
    let lint = lint_of(&book);
    for line in [2, 3, 4] {
        assert!(lint.contains(&format!("SUMMARY.md:{line}:3")), "{lint}");
    }
    let other = lint_of(&d.path().join("other"));
    assert!(
        other.contains("book.toml:2:7") && other.contains("outside the book"),
        "{other}"
    );
}

#[test]
fn an_include_after_a_long_indent_is_refused_within_its_budget() {
    // 20,000 columns before an include of 20,000 lines: 400 MB if each
    // line were indented; the page stays small and says why.
    let chapter = format!(
        "before\n\n{}{{{{#include long.txt}}}}\n\nafter\n",
        " ".repeat(20_000)
    );
    let d = temp_book(&[
        ("src/SUMMARY.md", "- [C](c.md)\n"),
        ("src/c.md", &chapter),
        ("src/long.txt", &"x\n".repeat(20_000)),
    ]);
    let page = render(&d.path().join("src/c.md"));
    assert!(page.contains("before") && page.contains("after"), "{page}");
    assert!(page.len() < 100_000, "{}", page.len());
    let lint = lint_of(d.path());
    assert!(
        lint.contains("c.md:3:20001") && lint.contains("MiB of included text"),
        "{lint}"
    );
}

#[test]
fn a_fan_out_of_includes_and_a_quiz_used_often_stay_bounded() {
    let mut files: Vec<(String, String)> = (0..10)
        .map(|i| {
            let name = if i == 0 {
                "src/c.md".to_string()
            } else {
                format!("src/f{i}.md")
            };
            (name, format!("{{{{#include f{}.md}}}}\n", i + 1).repeat(10))
        })
        .collect();
    files.push(("src/f10.md".into(), "x".repeat(60)));
    files.push(("src/SUMMARY.md".into(), "- [C](c.md)\n- [Q](q.md)\n".into()));
    let quiz =
        "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Q?\"\nanswer.answer = \"a\"\n";
    files.push(("src/q.toml".into(), quiz.into()));
    files.push(("src/q.md".into(), "{{#quiz q.toml}}\n\n".repeat(1_200)));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let d = temp_book(&refs);
    let page = render(&d.path().join("src/c.md"));
    assert!(page.len() < 20 << 20, "{}", page.len());
    assert!(page.contains("later includes are left out"));
    let lint = lint_of(d.path());
    assert!(lint.contains("MiB of included text"), "{lint}");
    assert!(lint.contains("over 1000 questions"), "{lint}");
}

#[test]
fn deeply_nested_quotes_lists_and_html_are_flattened_not_followed() {
    let chapter = format!(
        "{}quoted\n\n{}listed\n\n{}in divs{}\n",
        "> ".repeat(10_000),
        "- ".repeat(10_000),
        "<div><span>".repeat(10_000),
        "</span></div>".repeat(10_000)
    );
    let d = temp_book(&[("src/SUMMARY.md", "- [C](c.md)\n"), ("src/c.md", &chapter)]);
    let page = render_at(&d.path().join("src/c.md"), "60");
    for word in ["quoted", "listed", "in divs"] {
        assert!(page.contains(word), "{word}: {page}");
    }
    assert!(page.lines().all(|l| l.chars().count() <= 60));
}
