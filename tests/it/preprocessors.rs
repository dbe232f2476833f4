//! mdBook books that name preprocessors in `book.toml`, through `lectern
//! render` and `lectern lint`: what each preprocessor draws on the web is
//! shown as lectern can show it, never as its raw syntax. Each book is
//! written here, small and invented, in the syntax of the books that use
//! those preprocessors.

use crate::common::lectern;
use std::path::Path;

/// A book folder holding `files` (path, text).
pub fn book(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let p = d.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

pub fn render(path: &Path) -> String {
    let o = lectern(&["render", "--color", "never", "--width", "80"], path);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn admonish_boxes_math_and_diagrams_are_drawn_as_lectern_can() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Boxes\"\n\n[preprocessor.admonish]\ncommand = \"mdbook-admonish\"\n\n[preprocessor.katex]\n\n[preprocessor.mermaid]\ncommand = \"mdbook-mermaid\"\n",
        ),
        ("src/SUMMARY.md", "# Summary\n\n- [Boxes](boxes.md)\n"),
        (
            "src/boxes.md",
            "# Boxes\n\n```admonish warning title=\"Mind the gap\"\nA box of **markdown**.\n```\n\nThe area is $\\pi r^2$.\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n```mermaid\ngraph LR; A-->B\n```\n",
        ),
    ]);
    let page = render(&d.path().join("src/boxes.md"));
    for shown in [
        "│ Mind the gap",
        "│ A box of markdown.",
        "The area is `\\pi r^2`.",
        "math (TeX source)",
        "\\int_0^1 x\\,dx",
        "mermaid diagram (drawn in the web edition)",
        "graph LR; A-->B",
    ] {
        assert!(page.contains(shown), "{shown}:\n{page}");
    }
    for raw in ["admonish", "$$", "$\\pi"] {
        assert!(!page.contains(raw), "{raw}:\n{page}");
    }
}

#[test]
fn lint_names_a_preprocessor_lectern_does_not_know_and_its_directives_stay_text() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Odd\"\n\n[preprocessor.links]\n\n[preprocessor.glossary]\ncommand = \"mdbook-glossary\"\n",
        ),
        ("src/SUMMARY.md", "- [One](one.md)\n"),
        (
            "src/one.md",
            "# One\n\nText.\n\nSee {{#glossary borrow}}.\n",
        ),
    ]);
    let page = render(&d.path().join("src/one.md"));
    assert!(
        page.contains("See {{#glossary borrow}}."),
        "kept as text: {page}"
    );
    let o = lectern(&["lint"], d.path());
    let out = String::from_utf8(o.stdout).unwrap();
    let toml = d.path().join("book.toml").display().to_string();
    let want = format!("{toml}:6:1: warning: preprocessor `glossary` is one lectern does not know");
    assert!(
        out.lines().any(|l| l.starts_with(&want)),
        "{want}\nin:\n{out}"
    );
    assert!(!out.contains("`links`"), "mdBook's own is known: {out}");
    let one = d.path().join("src/one.md").display().to_string();
    let want = format!(
        "{one}:5:5: warning: `{{{{#glossary}}}}` is preprocessor `glossary`'s, which lectern does not know"
    );
    assert!(
        out.lines().any(|l| l.starts_with(&want)),
        "{want}\nin:\n{out}"
    );
}

#[test]
fn spec_rule_ids_are_labels_and_rule_names_link_to_their_chapter() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Spec\"\n\n[preprocessor.spec]\ncommand = \"cargo run -p mdbook-spec\"\n",
        ),
        (
            "src/SUMMARY.md",
            "- [Gears](gears.md)\n- [Parts](parts/widgets.md)\n",
        ),
        (
            "src/gears.md",
            "r[gears]\n# Gears\n\nr[gears.teeth]\nA gear has teeth.\n",
        ),
        (
            "src/parts/widgets.md",
            "r[widgets]\n# Widgets\n\nr[widgets.intro]\nA widget turns [its gear][gears.teeth].\n\n> [!EXAMPLE]\n> A widget of two gears.\n",
        ),
    ]);
    let page = render(&d.path().join("src/parts/widgets.md"));
    for shown in [
        "[widgets.intro]",
        "A widget turns its gear <../gears.md#r-gears.teeth>.",
        "│ Example",
        "│ A widget of two gears.",
    ] {
        assert!(page.contains(shown), "{shown}:\n{page}");
    }
    for raw in ["r[", "[!EXAMPLE]"] {
        assert!(!page.contains(raw), "{raw}:\n{page}");
    }
    assert!(
        page.starts_with("Parts\n"),
        "the header, then the page: {page}"
    );
}

#[test]
fn spec_grammar_blocks_read_as_mdbook_spec_draws_them() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Spec\"\n\n[preprocessor.spec]\n",
        ),
        ("src/SUMMARY.md", "- [Gears](gears.md)\n"),
        (
            "src/gears.md",
            "# Gears\n\n```grammar,gears\n@root Gear ->\n      `cog`[^old] Tooth*\n    | Axle _except [Tooth]_\n\nTooth -> `t`{1..=9}\n```\n\n[^old]: Before the 2030 edition.\n",
        ),
    ]);
    let page = render(&d.path().join("src/gears.md"));
    // Indents are no-break spaces, as mdbook-spec's (markdown keeps them).
    let page = page.replace('\u{a0}', " ");
    for shown in [
        "Syntax\n\nGear →\n      `cog`[1] Tooth*\n    | Axle _except Tooth_\n\nTooth → `t`{1..=9}\n",
        "1. Before the 2030 edition.",
    ] {
        assert!(page.contains(shown), "{shown}:\n{page}");
    }
    for raw in ["@root", "->", "[^old]", "[Tooth]"] {
        assert!(!page.contains(raw), "{raw}:\n{page}");
    }
}

#[test]
fn course_front_matter_is_read_and_outlines_list_the_minutes() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Course\"\n\n[preprocessor.course]\nverbose = false\n",
        ),
        (
            "src/SUMMARY.md",
            "# Morning\n\n- [Welcome](welcome.md)\n- [Basics](basics.md)\n  - [Values](basics/values.md)\n  - [Loops](basics/loops.md)\n",
        ),
        (
            "src/welcome.md",
            "---\nminutes: 5\nsession: Morning\n---\n\n# Welcome\n\n{{%session outline}}\n",
        ),
        ("src/basics.md", "# Basics\n\n{{%segment outline}}\n"),
        (
            "src/basics/values.md",
            "---\nminutes: 10\n---\n\n# Values\n",
        ),
        ("src/basics/loops.md", "---\nminutes: 12\n---\n\n# Loops\n"),
    ]);
    let page = render(&d.path().join("src/basics.md"));
    for shown in [
        "This segment should take about 25 minutes. It contains:",
        "Values │ 10 minutes",
        "Loops  │ 15 minutes",
    ] {
        assert!(page.contains(shown), "{shown}:\n{page}");
    }
    let welcome = render(&d.path().join("src/welcome.md"));
    for shown in [
        "this session should take about 40 minutes.",
        "Welcome │ 5 minutes",
        "Basics  │ 25 minutes",
    ] {
        assert!(welcome.contains(shown), "{shown}:\n{welcome}");
    }
    assert!(
        !welcome.contains("minutes: 5"),
        "front matter is data: {welcome}"
    );
    assert!(!page.contains("{{%"), "{page}");
}

#[test]
fn a_chapters_reading_time_is_the_same_in_the_contents_and_on_its_page() {
    let long = "word ".repeat(900);
    let d = book(&[
        ("src/SUMMARY.md", "- [Long](long.md)\n"),
        (
            "src/long.md",
            &format!("# Long\n\n{long}\n\n```\n{long}\n```\n"),
        ),
    ]);
    let contents = render(d.path());
    let page = render(&d.path().join("src/long.md"));
    let minutes = |s: &str, after: &str| {
        let at = s.find(after).unwrap_or_else(|| panic!("{after}:\n{s}")) + after.len();
        s[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .trim_start_matches('(')
            .to_string()
    };
    let listed = minutes(&contents, "1. Long ");
    assert_eq!(
        listed,
        minutes(&page, "Lesson 1 of 1 · "),
        "{contents}\n{page}"
    );
    assert_eq!(listed, "8", "9,000 bytes at 1,200 a minute: {contents}");
}

#[test]
fn aquascope_badges_points_and_a_note_where_its_diagram_stands() {
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Owning\"\n\n[preprocessor.aquascope]\n",
        ),
        ("src/SUMMARY.md", "- [Owning](owning.md)\n"),
        (
            "src/owning.md",
            "# Owning\n\nA variable can read (@Perm{read}) and gains @Perm[gained]{write}.\n\n```aquascope,interpreter\n#fn main() {\nlet a = 1;`[]`\nlet b = a;`[]`\n#}\n```\n\nAt L2, `b` holds a copy.\n",
        ),
    ]);
    let page = render(&d.path().join("src/owning.md"));
    for shown in [
        "can read (R) and gains +W.",
        "let a = 1; // L1",
        "let b = a; // L2",
        "The web edition draws memory at L1–L2 here",
    ] {
        assert!(page.contains(shown), "{shown}:\n{page}");
    }
    for raw in ["@Perm", "`[]`", "aquascope"] {
        assert!(!page.contains(raw), "{raw}:\n{page}");
    }
}

/// A link to a rule (`#r-ID`, as mdbook-spec names its place) opens the
/// chapter at the rule's label, which stands right over its text, dim in
/// the right margin, through the real update and drawing.
#[test]
fn a_link_to_a_rule_opens_its_chapter_at_the_rule() {
    let filler: String = (1..=40)
        .map(|i| format!("Filler paragraph {i}.\n\n"))
        .collect();
    let gears =
        format!("r[gears]\n# Gears\n\n{filler}r[gears.teeth]\nA gear has teeth.\n\n{filler}");
    let d = book(&[
        (
            "book.toml",
            "[book]\ntitle = \"Spec\"\n\n[preprocessor.spec]\n",
        ),
        (
            "src/SUMMARY.md",
            "- [Gears](gears.md)\n- [Widgets](widgets.md)\n",
        ),
        ("src/gears.md", &gears),
        (
            "src/widgets.md",
            "# Widgets\n\nA widget turns [its gear][gears.teeth].\n",
        ),
    ]);
    let mut r = crate::common::Reader::folder(d.path(), 60, 12);
    let widgets = r.index_of("widgets");
    r.open(widgets).keys("L1");
    let backend = ratatui::backend::TestBackend::new(60, 12);
    let mut t = ratatui::Terminal::new(backend).unwrap();
    let theme = lectern::theme::Theme::new(lectern::theme::ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    let screen = t.backend().to_string();
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines.iter().position(|l| l.contains("[gears.teeth]"));
    let at = at.unwrap_or_else(|| panic!("the rule on screen:\n{screen}"));
    assert!(at <= 2, "the rule at the top:\n{screen}");
    assert!(lines[at + 1].contains("A gear has teeth."), "{screen}");
    assert!(
        lines[at]
            .trim_end_matches([' ', '"'])
            .ends_with("[gears.teeth]")
    );
    assert!(
        lines[at].starts_with("\"      "),
        "in the right margin:\n{screen}"
    );
}
