//! Markdown as a first-class source: `.md` files and folders of them, read
//! as a reader expects. Snapshots of each case of issue 13 at 40 and 80
//! columns, in colour and mono; a word-keeping property over examples of
//! every construct (written for these tests, not taken from CommonMark's
//! spec); a book of nested folders through the course index.

use crate::common;

use lectern::index::Index;
use lectern::loader::{self, Origin};
use lectern::model::Lesson;
use lectern::render::{self, Options};
use lectern::theme::{Theme, ThemeKind};
use std::path::{Path, PathBuf};

/// One fixture per defect of the issue (some hold several), in the
/// project's own words.
const CASES: [&str; 24] = [
    "html",
    "footnotes",
    "links",
    "alerts",
    "code",
    "table",
    "comments",
    "html-block",
    "inline-html",
    "images",
    "link-target",
    "style-start",
    "fences",
    "front-matter",
    "gh-alerts",
    "heading-attrs",
    "mono-markers",
    "long-tokens",
    "wide-table",
    "line-breaks",
    "checks",
    "listing",
    "html-tags",
    "table-words",
];

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/markdown")
        .join(rel)
}

fn lesson(path: &Path) -> Lesson {
    loader::load(&Origin::File(path.to_path_buf()))
        .unwrap_or_else(|d| panic!("{d}"))
        .lesson
}

/// A case's file: markdown, or a JSON lesson whose text is markdown.
fn case(name: &str) -> PathBuf {
    let md = fixture(&format!("cases/{name}.md"));
    if md.exists() {
        md
    } else {
        fixture(&format!("cases/{name}.json"))
    }
}

fn shown(lesson: &Lesson, width: u16, colour: bool) -> String {
    shown_with(lesson, width, colour, false)
}

fn shown_with(lesson: &Lesson, width: u16, colour: bool, answers: bool) -> String {
    let theme = colour.then(|| Theme::new(ThemeKind::Dark));
    let out = render::lesson(
        lesson,
        &Options {
            width,
            theme,
            answers,
        },
    );
    // Escapes made visible, so a snapshot shows where each style starts.
    out.replace('\u{1b}', "␛")
}

#[test]
fn each_case_at_40_and_80_columns_in_colour_and_mono() {
    for name in CASES {
        let l = lesson(&case(name));
        // The check's case shows its answers and explanations.
        let answers = name == "checks";
        for width in [40, 80] {
            for colour in [false, true] {
                let mode = if colour { "colour" } else { "mono" };
                insta::assert_snapshot!(
                    format!("md_{name}_w{width}_{mode}"),
                    shown_with(&l, width, colour, answers)
                );
            }
        }
    }
    // A wide table at 120 columns wraps its cells, not into records.
    let wide = lesson(&case("wide-table"));
    insta::assert_snapshot!("md_wide-table_w120_mono", shown(&wide, 120, false));
}

#[test]
fn what_a_browser_hides_stays_hidden() {
    let text = |case: &str| shown(&lesson(&fixture(&format!("cases/{case}.md"))), 80, false);
    let html = text("html");
    assert!(
        !html.contains("Maintainers") && !html.contains("<!--"),
        "{html}"
    );
    assert!(html.contains("first line\nsecond line"), "{html}");
    assert!(html.contains("Ctrl+S") && html.contains("2ⁿ") && html.contains("H₂O"));
    assert!(html.contains("written `|`."), "{html}");
    assert!(html.contains("[image: A diagram of the stack and the heap]"));
    assert!(
        html.contains("<blink>blink</blink>"),
        "unknown tags are text"
    );
    assert!(!html.contains("class="), "{html}");
    let notes = text("footnotes");
    assert!(notes.contains("heap[1]") && notes.contains("it[2]") && !notes.contains("[^"));
    assert!(notes.contains("1. `Box<T>` is the simplest"), "{notes}");
    let links = text("links");
    assert!(
        links.contains("`struct`s <ch05-00-structs.md> chapter")
            && links.contains("~struck~")
            && links.contains("_emphasis_"),
        "{links}"
    );
    assert!(links.contains("[image: A crab, the mascot]"));
    let alerts = text("alerts");
    assert!(
        alerts.starts_with("Alerts and headings\n"),
        "front matter title: {alerts}"
    );
    assert!(
        !alerts.contains("layout:") && !alerts.contains("[!NOTE]"),
        "{alerts}"
    );
    assert!(alerts.contains("│ Note") && alerts.contains("│ Warning"));
    assert!(!alerts.contains("{#anchor"), "{alerts}");
    assert!(alerts.contains("### Third level") && alerts.contains("#### Fourth level"));
    let table = text("table");
    assert!(
        table.contains("serde │ Serialisation framework"),
        "cells wrap: {table}"
    );
    assert!(table.contains("10\u{a0}km"), "{table}");
    let code = text("code");
    assert!(
        code.contains("╭─ rust [ignore] [does not compile] ─"),
        "attributes are badges, not the label: {code}"
    );
    assert!(code.contains("╭─ rust · 3 lines hidden (#)") && !code.contains("fn main() {\n│ let"));
}

#[test]
fn heading_attributes_are_anchors() {
    let l = lesson(&fixture("cases/alerts.md"));
    let ids: Vec<_> = l
        .blocks
        .iter()
        .filter_map(|b| match b {
            lectern::model::Block::Heading { id, .. } => id.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["anchor"]);
}

/// Examples of every construct, with the words a reader must see.
const EXAMPLES: &[(&str, &str)] = &[
    ("plain words here", "plain words here"),
    (
        "*emphasis* and **strong** and ***both***",
        "emphasis and strong and both",
    ),
    (
        "`code span` and ``double `tick` code``",
        "code span and double tick code",
    ),
    ("# Heading one\n\n## Heading two", "Heading one Heading two"),
    ("Setext heading\n==============", "Setext heading"),
    (
        "> quoted text\n> > nested quote",
        "quoted text nested quote",
    ),
    ("- one\n- two\n  - three", "one two three"),
    ("1. first\n2. second", "first second"),
    ("- [x] done task\n- [ ] open task", "done task open task"),
    ("[link text](https://example.com)", "link text"),
    ("[ref link][r]\n\n[r]: https://example.com", "ref link"),
    ("<https://example.com/auto>", "example com auto"),
    ("![alt words](x.png)", "alt words"),
    ("```\nfenced code\n```", "fenced code"),
    ("    indented code", "indented code"),
    ("a  \nhard break", "a hard break"),
    (
        "| head one | head two |\n|---|---|\n| cell one | cell two |",
        "head one head two cell one cell two",
    ),
    ("~~struck words~~", "struck words"),
    ("text[^n]\n\n[^n]: the note", "text the note"),
    ("&amp; &copy; &#65;", "A"),
    ("<em>html emphasis</em> <kbd>key</kbd>", "html emphasis key"),
    ("<div>\nblock html\n</div>", "block html"),
    ("<!-- hidden -->\nvisible words", "visible words"),
    ("\\*escaped stars\\*", "escaped stars"),
    ("***\n\nafter rule", "after rule"),
    ("> [!TIP]\n> tip words", "Tip tip words"),
    (
        "<details><summary>summary words</summary>inner words</details>",
        "summary words inner words",
    ),
];

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn every_example_keeps_every_word() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (md, expected)) in EXAMPLES.iter().enumerate() {
        let path = dir.path().join(format!("e{i:02}.md"));
        // A first line that is the title, so no example's heading is
        // taken for it.
        std::fs::write(&path, format!("# Example\n\n{md}\n")).unwrap();
        let out = shown(&lesson(&path), 200, false);
        let got = words(&out);
        for w in words(expected) {
            assert!(got.contains(&w), "{md:?} lost {w:?}:\n{out}");
        }
    }
}

#[test]
fn a_folder_of_markdown_is_a_course_and_lints_clean() {
    let book = fixture("book");
    let lib = loader::open_paths(std::slice::from_ref(&book)).unwrap();
    let c = &lib.courses[0];
    assert_eq!(c.title, "A Small Book of Rust");
    let titles: Vec<&str> = c.lessons.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "A Small Book of Rust",
            "Getting started",
            "Ownership",
            "Moves",
            "Borrowing",
            "Appendix: keywords"
        ]
    );
    let lectern = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
            .args(args)
            .arg(&book)
            .output()
            .unwrap()
    };
    let toc = lectern(&["render", "--width", "60", "--color", "never"]);
    insta::assert_snapshot!("md_book_toc", String::from_utf8_lossy(&toc.stdout));
    let out = lectern(&["lint"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

#[test]
fn a_large_book_goes_through_the_index_and_its_listing() {
    let book = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let root = book.path().join("big");
    for part in 1..=4 {
        let dir = root.join(format!("{part:02}-part"));
        std::fs::create_dir_all(&dir).unwrap();
        for ch in 1..=6 {
            let body = format!("# Part {part}, chapter {ch}\n\nText.\n");
            std::fs::write(dir.join(format!("{ch:02}.md")), body).unwrap();
        }
    }
    std::fs::write(root.join("README.md"), "# The Big Book\n").unwrap();
    let mut idx = Index::open(Some(data.path()));
    let first = idx.courses(&root).unwrap();
    assert_eq!(first[0].lessons.len(), 25);
    assert_eq!(first[0].title, "The Big Book");
    assert_eq!(first[0].lessons[24].slug, "04-part/06");
    let again = idx.courses(&root).unwrap();
    assert_eq!(again, first, "heads from the index are the files' heads");
    assert_eq!(
        idx.snapshot(&root).unwrap(),
        first,
        "the listing keeps nested paths"
    );
}

#[test]
fn render_shows_hidden_lines_when_asked() {
    let code = fixture("cases/code.md");
    let lectern = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
            .args(["render", "--width", "60", "--color", "never"])
            .args(extra)
            .arg(&code)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let hidden = lectern(&[]);
    assert!(hidden.contains("3 lines hidden") && !hidden.contains("# use std"));
    let shown = lectern(&["--hidden-lines"]);
    assert!(
        shown.contains("│ # use std::collections::HashMap;"),
        "{shown}"
    );
    assert!(!shown.contains("lines hidden"), "{shown}");
}

/// What each of the newer cases must show, beyond its snapshots.
#[test]
fn each_defect_is_fixed() {
    let text = |name: &str, width| shown_with(&lesson(&case(name)), width, false, true);
    let comments = text("comments", 80);
    assert!(
        !comments.contains("<!--") && !comments.contains("secret") && !comments.contains("TODO")
    );
    assert!(
        comments.contains("inline comment and after it") && comments.contains("The last words")
    );
    let block = text("html-block", 80);
    assert!(block.contains("The first line of the block\nthe second line of the block"));
    let inline = text("inline-html", 80);
    for want in [
        "Ctrl + S",
        "`&&`",
        "_softly_",
        "_italic_",
        "10³",
        "e⁻ˣ",
        "CO₂",
        "serde",
        "documented link <https://",
        "example.org/docs>",
        "A line\nbreak",
        "[image: Ferris the crab waving]",
        "[image: Memory layout of a vector]",
        "▾ Why does this compile?",
        "<marquee>scrolling</marquee>",
        "safe span",
        "&lt;tag&gt;"
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .as_str(),
        "©",
        "☃",
        "␛[31m",
    ] {
        let flat = inline.replace('\n', " ");
        assert!(
            inline.contains(want) || flat.contains(want),
            "{want:?} in {inline}"
        );
    }
    assert!(
        !inline.contains("onclick") && !inline.contains("onerror") && !inline.contains("style=")
    );
    let images = text("images", 80);
    assert!(images.contains("[image: A crab holding a wrench]") && images.contains("[image]"));
    let links = text("link-target", 80);
    assert_eq!(
        links.matches("ch08-00-common-collections.md").count(),
        1,
        "{links}"
    );
    assert!(links.contains("`Vec`s and `String`s <ch08-00-common-collections.md> chapter"));
    assert_eq!(links.matches("example.org/auto").count(), 1, "{links}");
    let fences = text("fences", 80);
    for want in [
        "rust [no run]",
        "rust [should panic]",
        "rust [compile fail] [edition 2021]",
        "rust [ignore]",
    ] {
        assert!(
            fences.contains(&format!("╭─ {want} ─")),
            "{want} in {fences}"
        );
    }
    let front = text("front-matter", 80);
    assert!(
        front.starts_with("The front matter's title\n") && !front.contains("author:"),
        "{front}"
    );
    let alerts = text("gh-alerts", 80);
    for kind in ["Note", "Tip", "Important", "Warning", "Caution"] {
        assert!(
            alerts.contains(&format!("│ {kind}\n")),
            "{kind} in {alerts}"
        );
    }
    assert!(!alerts.contains("[!NOTE]") && alerts.contains("[!UNKNOWN]"));
    let heads = text("heading-attrs", 80);
    assert!(
        !heads.contains("{#") && !heads.contains(".advanced"),
        "{heads}"
    );
    let mono = text("mono-markers", 80);
    assert!(mono.contains("### Third level") && mono.contains("#### Fourth level"));
    assert!(mono.contains("`code`") && mono.contains("_emphasis_") && mono.contains("~strike~"));
    let long = text("long-tokens", 40);
    assert!(long.contains("co↩\n"), "a broken token is marked: {long}");
    let breaks = text("line-breaks", 20);
    assert!(
        breaks.contains("10\u{a0}km") && breaks.contains("250\u{a0}ms"),
        "{breaks}"
    );
    assert!(!breaks.contains("\n。") && !breaks.contains("\n、") && !breaks.contains("\n」"));
    assert!(!breaks.contains(['\u{200b}', '\u{ad}']));
    assert!(
        breaks.lines().any(|l| l.ends_with("com-")
            || l.ends_with("pre-")
            || l.ends_with("hen-")
            || l.ends_with("si-")
            || l.ends_with("bil-")
            || l.ends_with("in-")),
        "{breaks}"
    );
    let wide = text("wide-table", 120);
    assert!(
        wide.contains("│ Default │") && wide.contains("opt-level │ 3"),
        "{wide}"
    );
    let listing = text("listing", 80);
    assert!(listing.contains("_Filename: src/lib.rs_"), "{listing}");
    assert!(
        listing.contains("_Listing 3-2: A function that adds `one` to its argument_"),
        "{listing}"
    );
    assert!(
        !listing.contains("<Listing number") && !listing.contains("</Listing>"),
        "{listing}"
    );
    assert!(
        listing.contains("_Listing 9-9: <Listing caption='deeper'>_"),
        "{listing}"
    );
    assert!(
        listing.contains("_an `emphasised` phrase_ and ~a `struck` one~"),
        "{listing}"
    );
    let block = text("html-block", 80);
    assert!(
        block.contains("│   indented   text\n│   keeps its  spacing"),
        "{block}"
    );
    let checks = text("checks", 80);
    assert!(
        checks.contains("Assigning a `String`"),
        "the body shows: {checks}"
    );
    assert!(
        checks.contains("Why: A `String` owns heap memory"),
        "{checks}"
    );
    assert!(
        !checks.contains("**") && !checks.contains("*owns*"),
        "{checks}"
    );
    let lint = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .arg("lint")
        .arg(case("checks"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&lint.stdout);
    assert!(
        said.contains("`hint` is not read here: it is ignored (at check.hint)"),
        "{said}"
    );
}

/// The reader hides rust's hidden lines and `#` shows them, drawn through
/// the real update, runner and drawing (a markdown course of one lesson).
#[test]
fn the_reader_shows_hidden_lines_on_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let code = std::fs::read(case("code")).unwrap();
    std::fs::write(dir.path().join("01-code.md"), code).unwrap();
    let mut r = common::Reader::folder(dir.path(), 80, 60);
    r.open(0);
    let screen = |r: &common::Reader| {
        let backend = ratatui::backend::TestBackend::new(80, 60);
        let mut t = ratatui::Terminal::new(backend).unwrap();
        let theme = Theme::new(ThemeKind::Mono);
        t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
        t.backend().to_string()
    };
    let before = screen(&r);
    assert!(before.contains("rust · 3 lines hidden (#)") && !before.contains("# use std"));
    assert!(
        before.contains(" ignore ") && !before.contains("rust · ignore"),
        "{before}"
    );
    r.keys("#");
    let after = screen(&r);
    assert!(
        after.contains("│ # use std::collections::HashMap;"),
        "{after}"
    );
    r.keys("#");
    assert_eq!(screen(&r), before);
}

/// A book's `details` is folded on the page and `z` opens and closes
/// every fold, where the reader is, through the real update and drawing.
#[test]
fn the_reader_folds_details_and_opens_them_on_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let text = "# Slide\n\nThe slide's text.\n\n<details>\n\nSay the quiet part.\n\nThen the loud part.\n\n</details>\n\n<details><summary>Answer</summary>\n\nForty-two.\n\n</details>\n\nAfter the folds.\n";
    std::fs::write(dir.path().join("01-slide.md"), text).unwrap();
    let mut r = common::Reader::folder(dir.path(), 60, 20);
    r.open(0);
    let screen = |r: &common::Reader| {
        let backend = ratatui::backend::TestBackend::new(60, 20);
        let mut t = ratatui::Terminal::new(backend).unwrap();
        let theme = Theme::new(ThemeKind::Mono);
        t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
        t.backend().to_string()
    };
    let before = screen(&r);
    assert!(
        before.contains("▸ Notes (3 lines folded, z opens)"),
        "{before}"
    );
    assert!(
        before.contains("▸ Answer (1 line folded, z opens)"),
        "{before}"
    );
    assert!(!before.contains("quiet part") && !before.contains("Forty-two"));
    assert!(before.contains("After the folds."), "{before}");
    r.keys("z");
    let open = screen(&r);
    assert!(
        open.contains("▾ Notes") && open.contains("│ Say the quiet part."),
        "{open}"
    );
    assert!(
        open.contains("▾ Answer") && open.contains("│ Forty-two."),
        "{open}"
    );
    r.keys("z");
    assert_eq!(screen(&r), before);
    // A search that finds its words only in a fold opens the folds.
    r.keys("/loud part\n");
    let found = screen(&r);
    assert!(found.contains("│ Then the loud part."), "{found}");
    assert!(found.contains("Found in folded text"), "{found}");
    r.keys("z/nowhere\n");
    let missed = screen(&r);
    assert!(missed.contains("Pattern not found: nowhere"), "{missed}");
    assert!(missed.contains("▸ Notes (3 lines"), "{missed}");
}
