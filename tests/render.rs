//! Snapshot tests of `lectern render` output (plain text, no theme) for
//! the seed lesson, a crafted lesson with every block type, and a
//! markdown-only lesson; plus checks in code that every line fits and
//! that nothing of the seed's text is lost or reordered.

#![recursion_limit = "256"]
mod common;

use common::{check_plain, norm, seed_bytes};
use lectern::loader::load_bytes;
use lectern::model::Lesson;
use lectern::render::{self, Options};
use serde_json::{Value, json};

const WIDTHS: [u16; 3] = [40, 80, 120];

fn load(name: &str, bytes: &[u8]) -> Lesson {
    match load_bytes(name, bytes) {
        Ok(l) => l.lesson,
        Err(d) => panic!("{d}"),
    }
}

fn load_value(v: &Value) -> Lesson {
    load("test.json", v.to_string().as_bytes())
}

fn plain(lesson: &Lesson, width: u16, answers: bool) -> String {
    render::lesson(
        lesson,
        &Options {
            width,
            theme: None,
            answers,
        },
    )
}

fn assert_fits(out: &str, width: u16) {
    if let Err(e) = check_plain(out, usize::from(width)) {
        panic!("width {width}: {e}\n{out}");
    }
}

/// Text of a runs value: an array of runs (or strings), or a string.
fn runs_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(runs) => runs
            .iter()
            .map(|r| match r {
                Value::String(s) => s.as_str(),
                r => r["text"].as_str().unwrap_or(""),
            })
            .collect(),
        _ => String::new(),
    }
}

/// Asserts that each of `needles` occurs in `hay` after the previous one.
fn assert_in_order(hay: &str, needles: &[String], what: &str) {
    let mut from = 0;
    for n in needles {
        match hay[from..].find(n.as_str()) {
            Some(at) => from += at + n.len(),
            None => {
                let earlier = hay[..from].contains(n.as_str());
                panic!(
                    "{what}: {n:?} {} after offset {from}",
                    if earlier {
                        "is out of order: it appears only before"
                    } else {
                        "is missing: not found"
                    }
                );
            }
        }
    }
}

// ---------------------------------------------------------------- seed

/// What the seed must show in the main flow, in display order: title,
/// key idea, figure title and caption, every heading, paragraph and list
/// item, then the question and the options in `order`.
fn seed_flow(seed: &Value, answers: bool) -> Vec<String> {
    let r = &seed["reader"];
    let mut out = vec![
        seed["lesson"]["title"].as_str().unwrap().to_string(),
        seed["lesson"]["keyIdea"].as_str().unwrap().to_string(),
    ];
    let fig = &r["hero"]["figure"]["figure"];
    out.push(fig["title"].as_str().unwrap().to_string());
    out.push(fig["caption"].as_str().unwrap().to_string());
    for b in r["blocks"].as_array().unwrap() {
        match b["t"].as_str().unwrap() {
            "h2" | "h3" | "h4" | "p" => out.push(runs_text(&b["runs"])),
            "ul" | "ol" => {
                let start = b["start"].as_u64();
                for (i, item) in b["items"].as_array().unwrap().iter().enumerate() {
                    let text = runs_text(item);
                    out.push(match start {
                        Some(s) => format!("{}. {text}", s + i as u64),
                        None => format!("• {text}"),
                    });
                }
            }
            "code" => {} // checked line by line in `seed_code_lines`
            other => panic!("the seed grew a block type this test does not know: {other}"),
        }
    }
    let check = &r["check"];
    out.push(runs_text(&check["question"]));
    let options = check["options"].as_array().unwrap();
    for (pos, i) in check["order"].as_array().unwrap().iter().enumerate() {
        let o = &options[i.as_u64().unwrap() as usize];
        out.push(format!("{}. {}", pos + 1, runs_text(&o["text"])));
        if answers {
            if o["correct"].as_bool() == Some(true) {
                out.push("✔ The right answer".into());
            } else {
                out.push(format!("Why it tempts: {}", runs_text(&o["tempting"])));
            }
        }
    }
    out.iter().map(|s| norm(s)).collect()
}

/// The output with the figure bar taken off each line, so a figure's
/// wrapped title and caption read as running text.
fn unbarred(out: &str) -> String {
    out.lines()
        .map(|l| l.strip_prefix("▌ ").or(l.strip_prefix("▌")).unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rows of the hero figure between its title and caption, split into
/// the left and right column when drawn side by side.
fn figure_columns(out: &str) -> (String, String) {
    let (mut left, mut right) = (String::new(), String::new());
    for line in out.lines().filter_map(|l| l.strip_prefix("▌ ")) {
        match line.split_once(" │ ") {
            Some((l, r)) => {
                left.push_str(l);
                left.push(' ');
                right.push_str(r);
                right.push(' ');
            }
            None => {
                left.push_str(line);
                left.push(' ');
            }
        }
    }
    (norm(&left), norm(&right))
}

fn check_seed_columns(seed: &Value, out: &str, width: u16) {
    let fig = &seed["reader"]["hero"]["figure"]["figure"];
    let (left, right) = figure_columns(out);
    for (side, col) in [("left", &fig["left"]), ("right", &fig["right"])] {
        let mut want = vec![norm(col["title"].as_str().unwrap())];
        for item in col["items"].as_array().unwrap() {
            want.push(norm(&format!("• {}", item.as_str().unwrap())));
        }
        // Side by side, each column has its own stream; stacked, both
        // are in the left stream, one after the other.
        let hay = if right.is_empty() { &left } else { &right };
        let hay = if side == "left" { &left } else { hay };
        assert_in_order(hay, &want, &format!("width {width}, {side} column"));
    }
    if width >= 80 {
        assert!(
            !right.is_empty(),
            "width {width}: columns should be side by side"
        );
    } else {
        assert!(right.is_empty(), "width {width}: columns should be stacked");
    }
}

/// Code lines as drawn: `│ ` starts a line, `┆ ` continues one that was
/// too long for the width.
fn drawn_code(out: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut inside = false;
    for l in out.lines() {
        if l.starts_with("╭─") {
            inside = true;
        } else if l.starts_with("╰──") {
            inside = false;
        } else if inside {
            if let Some(rest) = l.strip_prefix("┆ ") {
                lines
                    .last_mut()
                    .expect("a continuation row follows a row")
                    .push_str(rest);
            } else if l == "│" {
                lines.push(String::new());
            } else {
                lines.push(l.strip_prefix("│ ").expect("a code row").to_string());
            }
        }
    }
    lines
}

fn check_seed_code(seed: &Value, out: &str, width: u16) {
    let code: Vec<&Value> = seed["reader"]["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["t"] == "code")
        .collect();
    assert_eq!(code.len(), 1, "the seed has one code block");
    let want: Vec<&str> = code[0]["text"].as_str().unwrap().split('\n').collect();
    let got = drawn_code(out);
    assert_eq!(got.len(), want.len(), "width {width}: code line count");
    for (g, w) in got.iter().zip(&want) {
        // Code is broken by characters, never by words; only the spaces a
        // row ended with (trimmed on output) can differ.
        let squash = |s: &str| s.chars().filter(|c| *c != ' ').collect::<String>();
        assert_eq!(squash(g), squash(w), "width {width}: code line");
        if w.len() + 2 <= usize::from(width) {
            assert_eq!(
                g,
                w.trim_end(),
                "width {width}: a short code line is kept exactly"
            );
        }
    }
}

#[test]
fn seed_renders_all_its_text_in_order_at_every_width() {
    let Some(bytes) = seed_bytes() else { return };
    let seed: Value = serde_json::from_slice(&bytes).unwrap();
    let lesson = load("seed.json", &bytes);
    for answers in [false, true] {
        let want = seed_flow(&seed, answers);
        for width in WIDTHS {
            let out = plain(&lesson, width, answers);
            assert_fits(&out, width);
            assert!(!out.contains('\u{1b}'));
            assert_in_order(&norm(&unbarred(&out)), &want, &format!("width {width}"));
            check_seed_columns(&seed, &out, width);
            check_seed_code(&seed, &out, width);
        }
    }
}

#[test]
fn seed_fits_every_width_from_one() {
    let Some(bytes) = seed_bytes() else { return };
    let lesson = load("seed.json", &bytes);
    for width in 1..=130 {
        for answers in [false, true] {
            assert_fits(&plain(&lesson, width, answers), width);
        }
    }
}

#[test]
fn seed_snapshots() {
    let Some(bytes) = seed_bytes() else { return };
    let lesson = load("seed.json", &bytes);
    for width in WIDTHS {
        insta::assert_snapshot!(format!("seed_w{width}"), plain(&lesson, width, false));
        insta::assert_snapshot!(
            format!("seed_w{width}_answers"),
            plain(&lesson, width, true)
        );
    }
}

// ------------------------------------------------------------- crafted

fn compare_figure(title: &str) -> Value {
    json!({
        "type": "compare",
        "title": title,
        "caption": "The caption sits under both columns.",
        "left": {"title": "Left column", "items": [
            "Short item",
            "An item long enough to wrap inside a narrow column of the figure",
            "日本語の項目"
        ]},
        "right": {"title": "Right column", "items": [
            "Right one",
            "Right two, with a combining e\u{301} and an emoji 👩‍🔬"
        ]}
    })
}

fn crafted() -> Value {
    json!({
        "course": {"slug": "crafted", "title": "Crafted course", "level": "intro", "track": "test"},
        "lesson": {
            "slug": "every-block", "title": "Every block type, once",
            "position": 2, "of": 3, "minutes": 4,
            "answer": "It renders.", "keyIdea": "Each block type renders, and unknown ones keep their text."
        },
        "body": {"format": "markdown", "text": "Not shown: the reader tree wins."},
        "prev": {"slug": "first", "title": "First"},
        "next": null,
        "authorship": "Written for lectern's tests.",
        "licence": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"},
        "review": {"status": "Test material"},
        "cite": "lectern tests (2025)",
        "reader": {
            "schema": 1,
            "title": "Every block type, once",
            "courseTitle": "Crafted course",
            "module": {"index": 1, "slug": "blocks", "title": "Blocks"},
            "hero": {"kind": "figure", "figure": {
                "t": "figure", "label": "Figure 1",
                "figure": compare_figure("The hero compares two things"),
                "alt": "Not shown: a compare figure is drawn."
            }},
            "blocks": [
                {"t": "h2", "id": "two", "runs": [{"text": "A second-level heading"}]},
                {"t": "h3", "id": "three", "runs": [{"text": "A third-level heading"}]},
                {"t": "h4", "id": "four", "runs": [{"text": "A fourth-level heading"}]},
                {"t": "p", "runs": [
                    {"text": "Plain, "},
                    {"text": "bold", "b": true}, {"text": ", "},
                    {"text": "italic", "i": true}, {"text": ", "},
                    {"text": "struck", "s": true}, {"text": ", "},
                    {"text": "inline_code()", "code": true}, {"text": ", "},
                    {"text": "Ctrl+C", "kbd": true}, {"text": ", "},
                    {"text": "a link", "href": "https://example.org/page"}, {"text": ", "},
                    {"text": "https://example.org/same", "href": "https://example.org/same"}, {"text": ", "},
                    {"text": "everything", "b": true, "i": true, "s": true}, {"text": ", and "},
                    {"text": "an unknown flag", "u": true, "note": "with a note"},
                    {"text": "."}
                ]},
                {"t": "p", "runs": "A paragraph given as a plain string, with a very-long-token-that-cannot-possibly-fit-on-a-narrow-line-at-all in it."},
                {"t": "ul", "items": [
                    [{"text": "A bullet"}],
                    [{"text": "A bullet with "}, {"text": "code", "code": true}, {"text": " that runs on long enough to wrap at forty columns"}],
                    {"runs": [{"text": "A bullet with a nested list"}], "blocks": [
                        {"t": "ul", "items": [[{"text": "Nested bullet"}], "Nested string item"]}
                    ]}
                ]},
                {"t": "ol", "start": 8, "items": [
                    [{"text": "Eighth"}], [{"text": "Ninth"}], [{"text": "Tenth, whose marker is wider"}]
                ]},
                {"t": "ol", "items": [[{"text": "Default start is one"}]]},
                {"t": "code", "lang": "rust", "label": "Rust", "text": "fn main() {\n\tprintln!(\"a tab indents this line\");\n}"},
                {"t": "code", "lang": "no-such-language", "text": "plain text in an unknown language, on a line long enough to be hard-wrapped at forty\n\n  indented after a blank line"},
                {"t": "figure", "label": "Figure 2", "figure": compare_figure("A compare figure in the body")},
                {"t": "figure", "label": "Figure 3", "figure": {
                    "type": "timeline", "title": "An unknown figure type",
                    "events": [{"when": "1990", "what": "First event"}, {"when": "2000", "what": "Second event"}]
                }},
                {"t": "figure", "figure": {"type": "chart", "data": [1, 2, 3]}, "alt": "A chart, described by its alt text."},
                {"t": "callout", "tone": "tip", "body": [{"text": "An unknown block's text is kept."}]},
                {"t": "table", "rows": [["a", "b"], ["c", "d"]]},
                {"t": "quote", "runs": [{"text": "A quoted paragraph."}], "blocks": [
                    {"t": "p", "runs": [{"text": "A paragraph inside the quote."}]},
                    {"t": "quote", "runs": "A quote inside the quote."}
                ]},
                {"t": "hr"},
                "A bare string where a block should be."
            ],
            "check": {
                "question": [{"text": "Which option is "}, {"text": "right", "b": true}, {"text": "?"}],
                "options": [
                    {"text": [{"text": "Option A (file order 0)"}], "correct": false, "tempting": [{"text": "A tempts because it is first in the file."}]},
                    {"text": [{"text": "Option B (file order 1)"}], "correct": true, "tempting": null},
                    {"text": [{"text": "Option C (file order 2)"}], "correct": false, "tempting": "C tempts as a plain string."},
                    {"text": "Option D (file order 3)", "correct": false}
                ],
                "order": [3, 1, 0, 2],
                "why": [{"text": "B is right because the test says so."}]
            },
            "prev": {"slug": "first", "title": "First", "minutes": 2},
            "next": null
        }
    })
}

#[test]
fn crafted_lesson_shows_every_block_type() {
    let lesson = load_value(&crafted());
    for width in WIDTHS {
        let out = plain(&lesson, width, true);
        assert_fits(&out, width);
        let n = norm(&out);
        for want in [
            "A second-level heading",
            "A third-level heading",
            "A fourth-level heading",
            "bold",
            "italic",
            "struck",
            "inline_code()",
            "Ctrl+C",
            "a link <https://example.org/page>",
            "an unknown flag [with a note]",
            "• A bullet",
            "• Nested bullet",
            "• Nested string item",
            " 8. Eighth",
            " 9. Ninth",
            "10. Tenth",
            "1. Default start is one",
            "╭─ Rust",
            "println!",
            "╭─ no-such-language",
            "indented after a blank line",
            "Figure 2: A compare figure in the body",
            "Figure 3: An unknown figure type",
            "(figure type: timeline, shown as text)",
            "1990",
            "Second event",
            "A chart, described by its alt text.",
            "unknown block: callout",
            "tip",
            "An unknown block's text is kept.",
            "unknown block: table",
            "│ A quoted paragraph.",
            "│ │ A quote inside the quote.",
            "A bare string where a block should be.",
            "Why: B is right because the test says so.",
        ] {
            assert!(
                n.contains(&norm(want)),
                "width {width}: {want:?} missing\n{out}"
            );
        }
        // A link whose text is its target is not repeated.
        assert!(!out.contains("<https://example.org/same>"));
        // Tabs in code are expanded, never printed.
        assert!(out.contains("│     println!"), "width {width}\n{out}");
        let options: Vec<String> = ["D", "B", "A", "C"]
            .iter()
            .enumerate()
            .map(|(i, o)| format!("{}. Option {o}", i + 1))
            .collect();
        assert_in_order(&n, &options, &format!("width {width}"));
    }
}

#[test]
fn crafted_lesson_fits_every_width_from_one() {
    let lesson = load_value(&crafted());
    for width in 1..=130 {
        assert_fits(&plain(&lesson, width, true), width);
    }
}

#[test]
fn crafted_snapshots() {
    let lesson = load_value(&crafted());
    for width in WIDTHS {
        insta::assert_snapshot!(format!("crafted_w{width}"), plain(&lesson, width, true));
    }
}

// ------------------------------------------------------------ markdown

const MARKDOWN: &str = "\
# A first-level heading

Some **bold**, *italic*, ~~struck~~, `code` and a [link](https://example.org/md).

## Lists

3. Third
4. Fourth, with a nested list:
   - inner bullet
     1. innermost numbered
   - another inner bullet

- [x] a done task
- [ ] a task to do

### Code

```python
def f(x):
\treturn x * 2
```

```
no language at all
```

#### A table

| Phase   | Bound by  |
|---------|-----------|
| Prefill | compute   |
| Decode  | bandwidth |

> A quote
>
> > with a nested quote

---

Text with a footnote[^1] and a hard  
break.

[^1]: The footnote.
";

fn markdown_lesson() -> Value {
    json!({
        "course": {"slug": "md", "title": "Markdown course"},
        "lesson": {"slug": "md-only", "title": "A markdown-only lesson", "position": 1},
        "body": {"format": "markdown", "text": MARKDOWN},
        "check": {
            "question": "Which form did this lesson come from?",
            "options": [
                {"text": "The reader tree", "correct": false, "tempting": "It usually does."},
                {"text": "The markdown body", "correct": true}
            ]
        }
    })
}

#[test]
fn markdown_only_lesson_renders() {
    let lesson = load_value(&markdown_lesson());
    assert_eq!(lesson.source, lectern::model::Source::Markdown);
    for width in WIDTHS {
        let out = plain(&lesson, width, true);
        assert_fits(&out, width);
        let n = norm(&out);
        for want in [
            "A first-level heading",
            "a link <https://example.org/md>",
            "3. Third",
            "4. Fourth, with a nested list:",
            "• inner bullet",
            "1. innermost numbered",
            "[x] a done task",
            "[ ] a task to do",
            "def f(x):",
            "no language at all",
            "Prefill",
            "bandwidth",
            "│ A quote",
            "│ │ with a nested quote",
            "[^1]",
            "The footnote.",
            "1. The reader tree",
            "2. The markdown body",
            "Why it tempts: It usually does.",
        ] {
            assert!(n.contains(want), "width {width}: {want:?} missing\n{out}");
        }
        assert!(out.contains("│     return x * 2"), "tab expanded\n{out}");
    }
    for width in 1..=130 {
        assert_fits(&plain(&lesson, width, true), width);
    }
}

#[test]
fn markdown_snapshots() {
    let lesson = load_value(&markdown_lesson());
    for width in WIDTHS {
        insta::assert_snapshot!(format!("markdown_w{width}"), plain(&lesson, width, true));
    }
}

// ---------------------------------------------------------- coloured

#[test]
fn coloured_code_fits_when_the_highlighter_splits_graphemes() {
    use lectern::theme::{Theme, ThemeKind};
    // syntect's JSON grammar puts "1" and a following U+FE0F (together one
    // 2-column emoji) in different tokens.
    let texts = [
        "let x1\u{fe0f} = \"1\u{fe0f}\";",
        "a = 1\u{fe0f}\u{20e3}+2",
        "fn e\u{301}() {} // 👩\u{200d}🔬",
    ];
    for lang in ["json", "rust", "python"] {
        for text in texts {
            let lesson = load_value(&json!({
                "course": {"slug": "c"}, "lesson": {"slug": "l", "title": "T"},
                "reader": {"schema": 1, "blocks": [{"t": "code", "lang": lang, "text": text}]}
            }));
            for width in 1..30 {
                let out = render::lesson(
                    &lesson,
                    &Options {
                        width,
                        theme: Some(Theme::new(ThemeKind::Dark)),
                        answers: false,
                    },
                );
                if let Err(e) = common::check_styled(&out, usize::from(width)) {
                    panic!("{lang} {text:?} at width {width}: {e}\n{out}");
                }
            }
        }
    }
}
