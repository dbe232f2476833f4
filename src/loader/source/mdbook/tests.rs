use super::*;
use crate::model::{CheckKind, Lesson, Origin};
use std::fs;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book")
}

#[test]
fn a_book_is_found_from_any_path_in_it() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        &[
            (
                "b/book.toml",
                "[book]\ntitle = \"Own src\"\nsrc = \"pages\"\n",
            ),
            ("b/pages/SUMMARY.md", "- [One](one.md)\n"),
            ("b/pages/one.md", "# One\n"),
            ("plain/src/SUMMARY.md", "[A](a.md)\n"),
            ("plain/src/a.md", "a"),
            ("plain/listings/x/main.rs", "fn main() {}"),
            ("none/a.md", "a"),
        ],
    );
    let b = find(&d.path().join("b/pages/one.md")).unwrap();
    assert_eq!(
        (b.title.as_str(), b.src.file_name().unwrap().to_str()),
        ("Own src", Some("pages"))
    );
    assert_eq!(b.slug, "own-src");
    let p = find(&d.path().join("plain/listings/x")).unwrap();
    assert_eq!(p.title, "plain", "no book.toml: named by its folder");
    assert!(find(&d.path().join("none/a.md")).is_none());
    let (course, start) = open(&d.path().join("b/pages/one.md")).unwrap().unwrap();
    assert_eq!((course.lessons.len(), start), (1, Some(0)));
    let (_, start) = open(&d.path().join("b/book.toml")).unwrap().unwrap();
    assert_eq!(start, None, "a file that is no chapter opens the book");
}

#[test]
fn slugs_come_from_the_repository_then_the_title() {
    assert_eq!(
        slug_for(Some("https://github.com/rust-lang/book"), "T", "f"),
        "rust-lang-book"
    );
    assert_eq!(slug_for(Some("https://x.org/a/b.git/"), "T", "f"), "a-b");
    assert_eq!(
        slug_for(None, "The Rust Programming Language", "f"),
        "the-rust-programming-language"
    );
    assert_eq!(slug_for(None, "!!", "my folder"), "my-folder");
}

#[test]
fn the_fixture_book_in_summary_order() {
    let b = find(&fixture()).unwrap();
    let c = b.course().unwrap();
    assert_eq!(
        (c.title.as_str(), c.slug.as_str()),
        ("The Fixture Book", "the-fixture-book")
    );
    let slugs: Vec<&str> = c.lessons.iter().map(|l| l.slug.as_str()).collect();
    assert_eq!(
        slugs,
        [
            "preface",
            "basics/first",
            "basics/includes",
            "basics/deeper",
            "draft-a-chapter-still-to-come",
            "quiz",
            "broken",
            "missing",
            "afterword"
        ]
    );
    assert_eq!(
        c.lessons[1].title, "First steps with cargo",
        "inline code as text"
    );
    let modules: Vec<Option<(u32, &str)>> = c
        .lessons
        .iter()
        .map(|l| l.module.as_ref().map(|m| (m.index, m.title.as_str())))
        .collect();
    assert_eq!(modules[0], None, "a prefix chapter has no part");
    assert_eq!(modules[3], Some((1, "Getting started")));
    assert_eq!(modules[5], Some((2, "Going further")));
    assert_eq!(modules[8], None);
    assert!(
        matches!(&c.lessons[4].status, LessonStatus::Broken(d) if d.severity == Severity::Warning)
    );
    assert!(
        matches!(&c.lessons[7].status, LessonStatus::Broken(d) if d.is_error() && d.line == 19)
    );
    let positions: Vec<u32> = c.lessons.iter().filter_map(|l| l.position).collect();
    assert_eq!(positions, (1..=9).collect::<Vec<_>>());
}

#[test]
fn without_parts_top_level_chapters_are_modules() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        &[(
            "src/SUMMARY.md",
            "[Intro](i.md)\n\n- [One](1.md)\n  - [One A](1a.md)\n- [Two](2.md)\n",
        )],
    );
    let c = find(d.path()).unwrap().course().unwrap();
    let m: Vec<Option<u32>> = c
        .lessons
        .iter()
        .map(|l| l.module.as_ref().map(|m| m.index))
        .collect();
    assert_eq!(m, [None, Some(1), Some(1), Some(2)]);
    assert_eq!(c.lessons[2].module.as_ref().unwrap().title, "One");
}

#[test]
fn a_chapter_loads_with_its_checks_where_its_quizzes_stand() {
    let file = fixture().join("src/quiz.md");
    let bytes = fs::read(&file).unwrap();
    let origin = Origin::File(file);
    let l = load(&origin, &bytes).unwrap().unwrap().lesson;
    assert_eq!(l.meta.title, "Quizzes of every kind");
    assert_eq!(
        (l.meta.course_slug.as_str(), l.meta.slug.as_str()),
        ("the-fixture-book", "quiz")
    );
    assert_eq!((l.meta.position, l.meta.of), (Some(6), Some(9)));
    assert_eq!(
        l.meta.prev.as_ref().unwrap().slug,
        "basics/deeper",
        "drafts are skipped"
    );
    assert_eq!(l.meta.next.as_ref().unwrap().slug, "broken");
    let texts: Vec<String> = l.blocks.iter().map(Lesson::block_text).collect();
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("lectern-quiz") || t.contains("{{#")),
        "{texts:?}"
    );
    let ids: Vec<&str> = l.checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "single-choice",
            "several-right",
            "../quizzes/kinds.toml#2",
            "trace-runs",
            "trace-fails",
            "sorted",
            "answer-at-two"
        ]
    );
    // The first quiz stands after "Read this…" (and the note of the
    // question lectern cannot ask), the second after "Between…".
    let before = |i: usize| texts[l.checks[i].anchor.unwrap() - 1].clone();
    assert!(before(0).contains("DragAndDrop"), "{texts:?}");
    assert!(
        before(5).starts_with("Between the two quizzes"),
        "{texts:?}"
    );
    assert!(texts[l.checks[5].anchor.unwrap()].starts_with("The end"));
    assert!(matches!(
        l.checks[1].kind,
        CheckKind::Choice { multi: true }
    ));
    assert!(matches!(l.checks[2].kind, CheckKind::Short { .. }));
    assert!(matches!(
        l.checks[3].kind,
        CheckKind::Tracing { compiles: true, .. }
    ));
    let head = head(&origin, &bytes).unwrap();
    assert_eq!(head.entry.slug, l.meta.slug);
    assert_eq!(head.entry.title, l.meta.title);
}

#[test]
fn summary_md_names_the_page_not_the_title_directive() {
    let file = fixture().join("src/basics/first.md");
    let l = load(&Origin::File(file.clone()), &fs::read(&file).unwrap())
        .unwrap()
        .unwrap()
        .lesson;
    assert_eq!(
        l.meta.title, "First steps with cargo",
        "mdBook's {{#title}} names only the browser tab"
    );
    assert!(
        !matches!(l.blocks.first(), Some(crate::model::Block::Heading { .. })),
        "the first heading says the title, and goes"
    );
    assert!(!Lesson::block_text(&l.blocks[0]).contains("#title"));
    assert_eq!(l.meta.module.unwrap().title, "Getting started");
}

fn hrefs(blocks: &[crate::model::Block], out: &mut Vec<String>) {
    for b in blocks {
        match b {
            crate::model::Block::Paragraph(r) => {
                out.extend(r.iter().filter_map(|r| r.href.as_deref().map(String::from)))
            }
            crate::model::Block::List { items, .. } => items.iter().for_each(|i| hrefs(i, out)),
            _ => {}
        }
    }
}

/// The links of `md`, in chapter `dir` of a book whose sources are `files`.
fn links_in(files: &[(&str, &str)], dir: &str, site: Option<&str>, md: &str) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), files);
    let mut blocks = crate::loader::markdown::parse(md);
    let base = super::hrefs::Base {
        src: d.path(),
        dir: PathBuf::from(dir),
        site,
    };
    super::hrefs::chapter_links(&mut blocks, &base);
    let mut found = Vec::new();
    hrefs(&blocks, &mut found);
    found
}

#[test]
fn links_to_chapter_pages_name_their_sources_and_the_rest_stay_web_links() {
    let files = [
        ("ch02.md", ""),
        ("sub/c.md", ""),
        ("e.md", ""),
        ("sub/README.md", ""),
    ];
    let md = "[a](ch02.html#x) [b](https://x.org/y.html) [c](#top) [d](sub/c.html) [i](sub/index.html)\n\n- [e](e.html?q)\n- [o](../std/vec.html#m) [n](nope.html)\n";
    assert_eq!(
        links_in(&files, "", None, md),
        [
            "ch02.md#x",
            "https://x.org/y.html",
            "#top",
            "sub/c.md",
            "sub/README.md",
            "e.md?q",
            "../std/vec.html#m",
            "nope.html"
        ],
        "a page outside the book is never named as a source that is not there"
    );
    let md = "[up](../ch02.html) [o](../../std/vec.html#m) [n](nope.html)";
    assert_eq!(
        links_in(&files, "sub", Some("https://doc.example.org/book/"), md),
        [
            "../ch02.md",
            "https://doc.example.org/book/std/vec.html#m",
            "https://doc.example.org/book/sub/nope.html"
        ]
    );
}

#[test]
fn headings_get_mdbooks_ids_repeats_numbered() {
    let mut blocks = crate::loader::markdown::parse(
        "# The `Copy` trait!\n\n## Example\n\n## Example\n\n## Own {#mine}\n",
    );
    super::hrefs::heading_ids(&mut blocks);
    let ids: Vec<Option<&str>> = blocks
        .iter()
        .map(|b| match b {
            crate::model::Block::Heading { id, .. } => id.as_deref(),
            _ => None,
        })
        .collect();
    assert_eq!(
        ids,
        [
            Some("the-copy-trait"),
            Some("example"),
            Some("example-1"),
            Some("mine")
        ]
    );
}

#[test]
fn a_markdown_file_summary_md_does_not_list_is_no_lesson() {
    let file = fixture().join("src/SUMMARY.md");
    let got = load(&Origin::File(file.clone()), &fs::read(&file).unwrap()).unwrap();
    assert!(got.unwrap_err().message.contains("not a chapter"));
}

#[test]
fn lint_of_the_fixture_finds_each_problem_once() {
    let found = lint(&fixture()).unwrap();
    let errors = found.iter().filter(|d| d.is_error()).count();
    assert_eq!(errors, 6, "{found:#?}");
    let anchor = found.iter().find(|d| d.message.contains("no_such_anchor"));
    assert!(
        anchor.is_some_and(|d| d.severity == Severity::Warning),
        "a missing anchor is mdBook's warning: {found:#?}"
    );
    assert!(found.iter().all(|d| d.line >= 1 && d.column >= 1));
    let one = lint(&fixture().join("src/quiz.md")).unwrap();
    assert_eq!(one.len(), 1, "one chapter: its own findings only: {one:?}");
}

/// A book of `n` chapters, each a line of text.
fn book_of(n: usize) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let summary: String = (0..n)
        .map(|i| format!("- [Chapter {i}](c{i}.md)\n"))
        .collect();
    let mut files = vec![("src/SUMMARY.md".to_string(), summary)];
    files.extend((0..n).map(|i| (format!("src/c{i}.md"), format!("Chapter {i}.\n"))));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    write(d.path(), &refs);
    d
}

#[test]
fn lint_reads_summary_md_once_per_book() {
    let work = |n: usize| {
        let d = book_of(n);
        crate::work::of(|| assert!(lint(d.path()).unwrap().is_empty()))
    };
    let (small, large) = (work(100), work(400));
    // Read again per chapter, 4x the chapters is 16x the summary read.
    assert!(large <= 5 * small, "4x the chapters: {small} -> {large}");
}

#[test]
fn chapters_in_a_scope_share_their_book() {
    let d = book_of(50);
    let heads = |d: &Path| {
        (0..50)
            .map(|i| {
                let f = d.join(format!("src/c{i}.md"));
                head(&Origin::File(f.clone()), &fs::read(&f).unwrap()).unwrap()
            })
            .collect::<Vec<_>>()
    };
    let alone = crate::work::of(|| drop(heads(d.path())));
    let shared = crate::work::of(|| drop(scope(|| heads(d.path()))));
    assert!(
        shared * 10 < alone,
        "read once in a scope: {shared} vs {alone}"
    );
    let got = scope(|| heads(d.path()));
    assert_eq!(got[49].entry.position, Some(50));
    assert_eq!(got[7].entry.title, "Chapter 7");
}

#[test]
fn chapters_and_src_outside_the_book_are_refused_the_rest_read() {
    let d = tempfile::tempdir().unwrap();
    let secret = d.path().join("secret.md");
    let summary = format!(
        "- [In](in.md)\n- [Up](../../secret.md)\n- [Abs]({})\n- [Link](link.md)\n",
        secret.display()
    );
    write(
        d.path(),
        &[
            ("secret.md", "never shown"),
            ("b/src/SUMMARY.md", &summary),
            ("b/src/in.md", "# In\n\nshown"),
            (
                "other/book.toml",
                "[book]\ntitle = \"O\"\nsrc = \"../b/src\"\n",
            ),
        ],
    );
    std::os::unix::fs::symlink(&secret, d.path().join("b/src/link.md")).unwrap();
    let course = find(&d.path().join("b")).unwrap().course().unwrap();
    let status: Vec<bool> = course
        .lessons
        .iter()
        .map(|l| matches!(l.status, LessonStatus::Ok))
        .collect();
    assert_eq!(status, [true, false, false, false]);
    for l in &course.lessons[1..] {
        let LessonStatus::Broken(why) = &l.status else {
            unreachable!()
        };
        assert!(why.message.contains("outside the book"), "{why:?}");
        assert!(why.file.ends_with("SUMMARY.md") && why.line >= 2, "{why:?}");
    }
    let found = lint(&d.path().join("b")).unwrap();
    assert_eq!(
        found
            .iter()
            .filter(|p| p.message.contains("outside the book"))
            .count(),
        3
    );
    // Opened by its own path, the link is refused too.
    let link = d.path().join("b/src/link.md");
    let got = load(&Origin::File(link.clone()), &fs::read(&link).unwrap()).unwrap();
    assert!(got.unwrap_err().message.contains("outside the book"));
    let h = head(&Origin::File(link.clone()), b"").unwrap();
    assert!(matches!(h.entry.status, LessonStatus::Broken(_)));
    // A `src` outside the book: no chapter is read, book.toml is named.
    let other = find(&d.path().join("other")).unwrap();
    let why = other.course().unwrap_err();
    assert!(
        why.message
            .contains("`src` names a folder outside the book"),
        "{why:?}"
    );
    assert_eq!((why.line, why.column), (3, 7));
}

#[test]
fn a_chapter_of_thousands_of_quizzes_places_them_in_linear_work() {
    let work = |n: usize| {
        let d = tempfile::tempdir().unwrap();
        let quiz = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Q?\"\nanswer.answer = \"a\"\n";
        let chapter = "Some text.\n\n{{#quiz q.toml}}\n\n".repeat(n);
        write(
            d.path(),
            &[
                ("src/SUMMARY.md", "- [C](c.md)\n"),
                ("src/c.md", &chapter),
                ("src/q.toml", quiz),
            ],
        );
        let f = d.path().join("src/c.md");
        let bytes = fs::read(&f).unwrap();
        let mut checks = 0;
        let w = crate::work::of(|| {
            checks = load(&Origin::File(f), &bytes)
                .unwrap()
                .unwrap()
                .lesson
                .checks
                .len()
        });
        assert_eq!(checks, n);
        w
    };
    let (small, large) = (work(200), work(800));
    assert!(large <= 5 * small, "4x the quizzes: {small} -> {large}");
}
