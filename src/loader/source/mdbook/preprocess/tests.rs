use super::super::outline::Outline;
use super::*;
use crate::model::CodeBlock;
use std::path::PathBuf;

/// A chapter at the top of `src`, in a book whose rules are `rules`.
#[derive(Default)]
struct Fake {
    dir: PathBuf,
    rules: Rules,
}

impl Chapter for Fake {
    fn dir(&self) -> &Path {
        &self.dir
    }

    fn rules(&self) -> Arc<Rules> {
        Arc::new(self.rules.clone())
    }

    fn place(&self) -> Option<(Arc<Outline>, usize)> {
        None
    }

    fn front(&self, _: usize) -> Front {
        Front::default()
    }
}

fn all() -> Preprocessors {
    Preprocessors::named(["admonish", "katex", "mermaid", "links", "glossary"])
}

#[test]
fn the_table_knows_books_names_and_keeps_the_rest() {
    let p = all();
    assert!(p.has(Known::Admonish) && p.has(Known::Katex) && p.has(Known::Mermaid));
    assert_eq!(
        p.unknown(),
        ["glossary"],
        "mdBook's own `links` is no stranger"
    );
    let none = Preprocessors::named([]);
    let text = "$x$ ```admonish\nbody\n```\n".to_string();
    assert_eq!(
        none.text(text.clone(), &Fake::default()),
        text,
        "a book that names none is read as written"
    );
}

#[test]
fn admonish_fences_are_titled_boxes() {
    let md = "Before.\n\n```admonish warning title=\"Data loss\"\nThe **body**.\n\nTwo paragraphs.\n```\n\n```admonish\nPlain.\n```\n\n- item\n\n  ```admonish tip \"Quoted\"\n  Nested.\n  ```\n\n```admonish info title=\"\"\nNo title.\n```\n\n```rust\nlet admonish = 1;\n```\n";
    let out = all().text(md.to_string(), &Fake::default());
    assert_eq!(
        out,
        "Before.\n\n> **Data loss**\n>\n> The **body**.\n>\n> Two paragraphs.\n\n\n> **Note**\n>\n> Plain.\n\n\n- item\n\n  > **Quoted**\n  >\n  > Nested.\n\n\n> No title.\n\n\n```rust\nlet admonish = 1;\n```\n"
    );
    let blocks = crate::loader::markdown::parse(&out);
    assert!(matches!(&blocks[1], Block::Quote(inner) if inner.len() == 3));
}

#[test]
fn math_is_shown_as_its_source_never_its_delimiters() {
    let md = "Inline $a^2 + b^2$ and \\$5, `$not$ math`, $$\n\\sum_i x_i\n$$\n\n```text\n$kept$\n```\nA lone $ sign.\n";
    let out = all().text(md.to_string(), &Fake::default());
    assert_eq!(
        out,
        "Inline `a^2 + b^2` and \\$5, `$not$ math`, \n\n```katex-display\n\\sum_i x_i\n```\n\n\n\n```text\n$kept$\n```\nA lone $ sign.\n"
    );
    let mut blocks = crate::loader::markdown::parse(&out);
    all().blocks(&mut blocks, &Fake::default());
    let code: Vec<&CodeBlock> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Code(c) => Some(&**c),
            _ => None,
        })
        .collect();
    assert_eq!(code[0].lang.as_deref(), Some("latex"));
    assert_eq!(code[0].label.as_deref(), Some(katex::LABEL));
    assert_eq!(code[0].text, "\\sum_i x_i");
    assert_eq!(code[1].label, None, "a text fence is no math");
}

#[test]
fn mermaid_fences_are_labelled_diagrams() {
    let mut blocks =
        crate::loader::markdown::parse("- x\n\n  ```mermaid\n  graph TD; A-->B\n  ```\n");
    all().blocks(&mut blocks, &Fake::default());
    let Block::List { items, .. } = &blocks[0] else {
        panic!("{blocks:?}")
    };
    let Block::Code(c) = &items[0][1] else {
        panic!("{items:?}")
    };
    assert_eq!(c.label.as_deref(), Some(mermaid::LABEL));
    assert_eq!(c.text, "graph TD; A-->B");
}

#[test]
fn spec_rules_are_labels_its_boxes_titled_and_rule_names_links() {
    let spec = Preprocessors::named(["spec"]);
    let rules: Rules = [
        (
            "widgets.intro".to_string(),
            PathBuf::from("parts/widgets.md"),
        ),
        ("gears".to_string(), PathBuf::from("gears.md")),
    ]
    .into_iter()
    .collect();
    let md = "r[widgets]\n# Widgets\n\nr[widgets.intro]\nA widget turns. See [gears][gears] and [widgets.intro].\n\n> [!EXAMPLE]\n> ```rust\n> r[not.a.rule]\n> ```\n\n> [!EDITION-2024]\n> Changed.\n\n> [!NOTE]\n> GitHub's own.\n";
    let out = spec.text(
        md.to_string(),
        &Fake {
            dir: PathBuf::from("parts"),
            rules,
        },
    );
    assert_eq!(
        out,
        "# Widgets\n\n*\\[widgets\\]*\n\n\n*\\[widgets.intro\\]*\n\nA widget turns. See [gears][gears] and [widgets.intro].\n\n> **Example**\n>\n> ```rust\n> r[not.a.rule]\n> ```\n\n> **2024 Edition differences**\n>\n> Changed.\n\n> [!NOTE]\n> GitHub's own.\n\n\n[gears]: <../gears.md#r-gears>\n[widgets.intro]: <widgets.md#r-widgets.intro>\n"
    );
    let blocks = crate::loader::markdown::parse(&out);
    let text: Vec<String> = blocks
        .iter()
        .map(crate::model::Lesson::block_text)
        .collect();
    assert_eq!(text[1], "[widgets]", "the label reads as the id: {text:?}");
    let Block::Paragraph(runs) = &blocks[3] else {
        panic!("{blocks:?}")
    };
    let hrefs: Vec<&str> = runs.iter().filter_map(|r| r.href.as_deref()).collect();
    assert_eq!(hrefs, ["../gears.md#r-gears", "widgets.md#r-widgets.intro"]);
}

#[test]
fn a_books_rules_are_found_in_its_chapters() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.md"), "r[one]\nText.\n r[no]\nr[two]\n").unwrap();
    std::fs::write(d.path().join("b.md"), "r[one]\n").unwrap();
    let rules = Preprocessors::rules(d.path(), [Path::new("a.md"), Path::new("b.md")]);
    assert_eq!(rules.ids.len(), 2);
    assert_eq!(
        rules.ids["one"],
        Path::new("a.md"),
        "the first chapter defining it"
    );
}

/// A chapter of a course book whose SUMMARY.md is `summary`, entry
/// `at`, each entry's minutes given.
struct InCourse {
    outline: Arc<Outline>,
    at: usize,
    fronts: Vec<Front>,
}

impl Chapter for InCourse {
    fn dir(&self) -> &Path {
        Path::new("")
    }

    fn rules(&self) -> Arc<Rules> {
        Arc::default()
    }

    fn place(&self) -> Option<(Arc<Outline>, usize)> {
        Some((self.outline.clone(), self.at))
    }

    fn front(&self, i: usize) -> Front {
        self.fronts[i].clone()
    }
}

fn course_at(at: usize) -> InCourse {
    let summary = "# Day one\n\n- [Welcome](welcome.md)\n- [Basics](basics.md)\n  - [Values](basics/values.md)\n  - [Loops](basics/loops.md)\n    - [For](basics/for.md)\n  - [Aside](basics/aside.md)\n- [Types](types.md)\n  - [Structs](types/structs.md)\n- [Afternoon](afternoon.md)\n  - [Traits](traits.md)\n\n# Day two\n\n- [Next](next.md)\n";
    let minutes = [5, 0, 10, 7, 3, 0, 0, 65, 5, 20, 9];
    let fronts = minutes
        .iter()
        .enumerate()
        .map(|(i, &minutes)| Front {
            minutes,
            session: [0, 8].contains(&i).then(|| format!("Session {i}")),
            course: (i == 0).then(|| "Basic".to_string()),
        })
        .collect();
    InCourse {
        outline: Arc::new(Outline::new(super::super::summary::parse(summary))),
        at,
        fronts,
    }
}

#[test]
fn course_front_matter_is_data_and_outlines_are_tables_of_minutes() {
    let course = Preprocessors::named(["course"]);
    let md = "---\nminutes: 5\nsession: Day one\n---\n\n# Basics\n\n{{%segment outline}}\n\n{{%course outline}}\n";
    assert_eq!(
        course.text(md.to_string(), &course_at(1)),
        "\n# Basics\n\nThis segment should take about 20 minutes. It contains:\n\n| Slide | Duration |\n| - | - |\n| Values | 10 minutes |\n| Loops | 10 minutes |\n\n\n{{%course outline}}\n",
        "a slide counts the chapters under it; one of no minutes is left out; 7+3 is 10"
    );
    let session = course.text("{{%session outline}}".to_string(), &course_at(6));
    assert_eq!(
        session,
        "Including 10 minute breaks, this session should take about 1 hour and 50 minutes. It contains:\n\n| Segment | Duration |\n| - | - |\n| Welcome | 5 minutes |\n| Basics | 20 minutes |\n| Types | 1 hour and 5 minutes |\n",
        "from the chapter naming the session to the next, 5+20+65 and two breaks"
    );
    let schedule = course.text("{{%course outline Basic}}".to_string(), &course_at(3));
    assert_eq!(
        schedule,
        "Course schedule:\n\n- Session 0 (1 hour and 50 minutes, including breaks)\n\n| Segment | Duration |\n| - | - |\n| Welcome | 5 minutes |\n| Basics | 20 minutes |\n| Types | 1 hour and 5 minutes |\n\n- Session 8 (25 minutes, including breaks)\n\n| Segment | Duration |\n| - | - |\n| Afternoon | 25 minutes |\n\n",
        "each session of the course, the second keeping the first's course"
    );
    let md = "---\nnot yaml at all\n---\nText\n";
    assert_eq!(
        course.text(md.to_string(), &course_at(0)),
        md,
        "no front matter"
    );
}

#[test]
fn durations_round_as_mdbook_course_rounds_them() {
    let d = course::duration;
    assert_eq!(
        [d(0), d(1), d(5), d(7), d(60), d(61), d(130)],
        [
            "0 minutes",
            "1 minute",
            "5 minutes",
            "10 minutes",
            "1 hour",
            "1 hour and 5 minutes",
            "2 hours and 10 minutes"
        ]
    );
}

#[test]
fn speaker_notes_open_with_the_slides_minutes_as_mdbook_course_writes_them() {
    let course = Preprocessors::named(["course"]);
    let notes = "# Loops\n\n<details>\n\n- Say why.\n\n</details>\n";
    let made = |at: usize| course.text(notes.to_string(), &course_at(at));
    assert!(
        made(3).contains(
            "<details>\nThis slide and its sub-slides should take about 10 minutes. \n\n- Say why."
        ),
        "a slide counts its sub-slides (7+3): {}",
        made(3)
    );
    assert!(
        made(0).contains("<details>\nThis slide should take about 5 minutes. "),
        "a segment's own chapter, its own minutes only: {}",
        made(0)
    );
    assert_eq!(
        made(4),
        notes,
        "a sub-slide, counted in its slide, says none"
    );
    assert_eq!(made(1), notes, "a chapter of no minutes says none");
    let plain = Preprocessors::named(["course"]).text("# No notes\n".to_string(), &course_at(3));
    assert_eq!(plain, "# No notes\n");
}

#[test]
fn spec_productions_and_std_paths_named_as_links_are_links_as_mdbook_spec_makes_them() {
    let spec = Preprocessors::named(["spec"]);
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("parts")).unwrap();
    std::fs::write(
        src.join("attrs.md"),
        "# Attrs\n\nProse -> not one\n\n```rust\nInCode -> not one\n```\n\n```grammar,attributes\n@root MetaWord ->\n    IDENT\nMetaList -> IDENT `(` `)`\n```\n\n````text\nLater -> not one\n```\n````\n",
    )
    .unwrap();
    let rules = Preprocessors::rules(src, [Path::new("attrs.md")]);
    let names: std::collections::BTreeSet<&str> =
        rules.productions.keys().map(String::as_str).collect();
    assert_eq!(names, ["MetaList", "MetaWord"].into());
    let md = "Uses [MetaWord] or [a list][grammar-MetaList], [an allocator][std::alloc], [`Option`], [Unknown words] and [kept].\n\n[kept]: kept.md\n";
    let out = spec.text(
        md.to_string(),
        &Fake {
            dir: PathBuf::from("parts"),
            rules,
        },
    );
    let blocks = crate::loader::markdown::parse(&out);
    let Block::Paragraph(runs) = &blocks[0] else {
        panic!("{blocks:?}")
    };
    let hrefs: Vec<&str> = runs.iter().filter_map(|r| r.href.as_deref()).collect();
    assert_eq!(
        hrefs,
        [
            "../attrs.md#grammar-MetaWord",
            "../attrs.md#grammar-MetaList",
            "https://doc.rust-lang.org/std/index.html?search=std::alloc",
            "https://doc.rust-lang.org/std/index.html?search=Option",
            "kept.md",
        ]
    );
    let text = crate::model::Lesson::block_text(&blocks[0]);
    assert!(text.contains(", [Unknown words] and"), "not a path: {text}");
    assert!(!text.contains("std::alloc"), "{text}");
}

#[test]
fn spec_grammar_blocks_are_headed_and_drawn_as_mdbook_spec_draws_them() {
    let spec = Preprocessors::named(["spec"]);
    let fake = Fake {
        dir: PathBuf::new(),
        rules: Rules::default(),
    };
    let md = "```grammar,items\n@root Item -> Thing\n```\n\n```grammar,lexer\nTOKEN -> `t`\n  @root x\n```\n\n```grammarish\n@root not one\n```\n";
    assert_eq!(
        spec.text(md.to_string(), &fake),
        "**Syntax**\n\n**Item** → Thing\n\n\n**Lexer**\n\n**TOKEN** → `t`\\\n\u{a0}\u{a0}x\n\n\n```grammarish\n@root not one\n```\n",
        "grammar blocks drawn, @root marks dropped, in grammar blocks only"
    );
}

#[test]
fn a_segment_outline_is_its_segments_wherever_it_stands() {
    let course = Preprocessors::named(["course"]);
    let outline = |at: usize| course.text("{{%segment outline}}".to_string(), &course_at(at));
    assert_eq!(
        outline(3),
        outline(1),
        "a slide under Basics outlines Basics, as mdbook-course does"
    );
    assert!(
        outline(0).contains("| Welcome | 5 minutes |"),
        "a segment's own chapter is a slide of its own minutes: {}",
        outline(0)
    );
}
