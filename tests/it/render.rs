//! Snapshot tests of `lectern render` output (plain text, no theme) for
//! the project's own fixture lesson (every kind of block, figure and run,
//! and hostile text), the real seed lesson when it is present, a crafted
//! lesson of edge cases and a markdown-only lesson; plus checks in code
//! that every line fits and that nothing of a real lesson's text is lost
//! or reordered.

use crate::common;

use crate::common::{check_plain, norm};
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

/// Asserts that each of `needles` occurs in `hay` after the previous one.
fn assert_in_order(hay: &str, needles: &[String], what: &str) {
    // Plain output marks styles (`code`, _emphasis_, ~strike~, ### h3):
    // those characters are compared on neither side.
    let unmark = |s: &str| s.replace(['`', '_', '~', '#'], "");
    let hay = &unmark(hay);
    let needles: Vec<String> = needles.iter().map(|n| unmark(n)).collect();
    let mut from = 0;
    for n in &needles {
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

// -------------------------------------------------- the fixture and the seed

/// A run as drawn in running text: a link's target follows its text
/// unless they are the same, and an unknown flag's text is kept in
/// brackets.
fn run_shown(r: &Value) -> String {
    let Some(m) = r.as_object() else {
        return r.as_str().unwrap_or("").to_string();
    };
    let mut s = m["text"].as_str().unwrap_or("").to_string();
    if let Some(href) = m.get("href").and_then(Value::as_str) {
        if href != s {
            s.push_str(&format!(" <{href}>"));
        }
    }
    for (k, v) in m {
        if !["text", "b", "i", "s", "code", "kbd", "href"].contains(&k.as_str()) {
            if let Some(t) = v.as_str() {
                s.push_str(&format!(" [{t}]"));
            }
        }
    }
    s
}

/// Runs (an array of runs or strings, or one string) as drawn.
fn runs_shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(runs) => runs.iter().map(run_shown).collect(),
        _ => String::new(),
    }
}

/// Every string `v` holds, in document order, `skip` keys left out at the
/// top: how an unknown block or figure is shown.
fn strings_in(v: &Value, skip: &[&str], out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.trim().is_empty() => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings_in(x, &[], out)),
        Value::Object(m) => m
            .iter()
            .filter(|(k, _)| !skip.contains(&k.as_str()))
            .for_each(|(_, x)| strings_in(x, &[], out)),
        _ => {}
    }
}

/// Text as the loader's sanitiser shows it (lesson-format notes): C0
/// controls as control pictures, C1 and bidi controls as U+FFFD.
fn sanitised(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap(),
            '\u{7f}' => '\u{2421}',
            '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// A figure block's flow: its title, what an unknown figure is shown by,
/// and its caption. A compare figure's columns are checked apart, since
/// side by side they interleave.
fn figure_flow(block: &Value, out: &mut Vec<String>) {
    let fig = &block["figure"];
    let label = block["label"].as_str().unwrap_or("Figure");
    out.push(match fig["title"].as_str() {
        Some(t) => format!("{label}: {t}"),
        None => label.to_string(),
    });
    match fig["type"].as_str() {
        Some("compare") => {}
        kind => {
            out.push(format!("(figure type: {}, shown as text)", kind.unwrap()));
            match block["alt"].as_str() {
                Some(alt) => out.push(alt.to_string()),
                None => strings_in(fig, &["type", "title", "caption"], out),
            }
        }
    }
    out.extend(fig["caption"].as_str().map(String::from));
}

fn list_flow(block: &Value, out: &mut Vec<String>) {
    let start = match block["t"].as_str() {
        Some("ol") => Some(block["start"].as_u64().unwrap_or(1)),
        _ => None,
    };
    for (i, item) in block["items"].as_array().unwrap().iter().enumerate() {
        let marker = match start {
            Some(s) => format!("{}. ", s + i as u64),
            None => "• ".to_string(),
        };
        if item.is_object() {
            out.push(format!("{marker}{}", runs_shown(&item["runs"])));
            blocks_flow(&item["blocks"], out);
        } else {
            out.push(format!("{marker}{}", runs_shown(item)));
        }
    }
}

fn blocks_flow(blocks: &Value, out: &mut Vec<String>) {
    for b in blocks.as_array().into_iter().flatten() {
        let Some(t) = b["t"].as_str() else {
            // A bare string where a block should be is a paragraph.
            out.push(b.as_str().expect("a block or a string").to_string());
            continue;
        };
        match t {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "p" => out.push(runs_shown(&b["runs"])),
            "ul" | "ol" => list_flow(b, out),
            "code" => {} // checked line by line in `check_code`
            "figure" => figure_flow(b, out),
            "quote" | "blockquote" => {
                out.push(runs_shown(&b["runs"]));
                blocks_flow(&b["blocks"], out);
            }
            "hr" => {}
            unknown => {
                out.push(format!("unknown block: {unknown}"));
                match b["alt"].as_str() {
                    Some(alt) => out.push(alt.to_string()),
                    None => strings_in(b, &["t"], out),
                }
            }
        }
    }
}

/// What a lesson must show in the main flow, in display order: title, key
/// idea, hero figure, every block's text, then the question and the
/// options in `order` (with the verdicts and explanations when
/// `answers`), and why the right one is right.
fn flow(v: &Value, answers: bool) -> Vec<String> {
    let r = &v["reader"];
    let mut out = vec![v["lesson"]["title"].as_str().unwrap().to_string()];
    out.extend(
        v["lesson"]["keyIdea"]
            .as_str()
            .or(r["keyIdea"].as_str())
            .map(String::from),
    );
    figure_flow(&r["hero"]["figure"], &mut out);
    blocks_flow(&r["blocks"], &mut out);
    let check = &r["check"];
    out.push(runs_shown(&check["question"]));
    let options = check["options"].as_array().unwrap();
    for (pos, i) in check["order"].as_array().unwrap().iter().enumerate() {
        let o = &options[i.as_u64().unwrap() as usize];
        out.push(format!("{}. {}", pos + 1, runs_shown(&o["text"])));
        if answers {
            if o["correct"].as_bool() == Some(true) {
                out.push("✔ The right answer".into());
            } else {
                out.push(format!("Why it tempts: {}", runs_shown(&o["tempting"])));
            }
        }
    }
    if answers && check["why"].is_array() {
        out.push(format!("Why: {}", runs_shown(&check["why"])));
    }
    out.iter().map(|s| squash(&sanitised(s))).collect()
}

/// Text with every whitespace character removed: wrapping may break a
/// long word or a line of CJK anywhere, so only the characters and their
/// order are compared.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The output as one squashed string, with the bars that start the lines
/// of figures, quotes, unknown blocks and code taken off, so text wrapped
/// inside them reads on.
fn flattened(out: &str) -> String {
    out.lines()
        .map(|l| {
            let mut l = l.trim_start();
            while let Some(rest) = ["▌", "│", "┊", "┆"]
                .iter()
                .find_map(|bar| l.strip_prefix(bar))
            {
                l = rest.trim_start();
            }
            // A broken token's mark is layout, not text.
            squash(l).replace('\u{21a9}', "")
        })
        .collect()
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
    (squash(&left), squash(&right))
}

fn check_columns(v: &Value, out: &str, width: u16) {
    let fig = &v["reader"]["hero"]["figure"]["figure"];
    let (left, right) = figure_columns(out);
    for (side, col) in [("left", &fig["left"]), ("right", &fig["right"])] {
        let mut want = vec![squash(col["title"].as_str().unwrap())];
        for item in col["items"].as_array().unwrap() {
            want.push(squash(&format!("• {}", item.as_str().unwrap())));
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

/// Code lines as drawn, every code block's one after the other: `│ `
/// starts a line, `┆ ` continues one that was too long for the width.
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

/// Tabs to the next multiple of four columns, as code is drawn.
fn expand_tabs(line: &str) -> String {
    let mut out = String::new();
    for c in line.chars() {
        if c == '\t' {
            let n = 4 - out.chars().count() % 4;
            out.push_str(&" ".repeat(n));
        } else {
            out.push(c);
        }
    }
    out
}

fn check_code(v: &Value, out: &str, width: u16) {
    let want: Vec<String> = v["reader"]["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["t"] == "code")
        .flat_map(|b| b["text"].as_str().unwrap().split('\n'))
        .map(expand_tabs)
        .collect();
    assert!(!want.is_empty(), "the lesson has code");
    let got = drawn_code(out);
    assert_eq!(got.len(), want.len(), "width {width}: code line count");
    for (g, w) in got.iter().zip(&want) {
        // Code is broken by characters, never by words; only the spaces a
        // row ended with (trimmed on output) can differ.
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

/// Nothing of `bytes`' text lost or reordered at any width, with or
/// without the answers; the figure's columns side by side from 80.
fn renders_all_its_text_in_order(name: &str, bytes: &[u8]) {
    let v: Value = serde_json::from_slice(bytes).unwrap();
    let lesson = load(name, bytes);
    for answers in [false, true] {
        let want = flow(&v, answers);
        for width in WIDTHS {
            let out = plain(&lesson, width, answers);
            assert_fits(&out, width);
            assert!(!out.contains('\u{1b}'));
            assert_in_order(&flattened(&out), &want, &format!("width {width}"));
            check_columns(&v, &out, width);
            check_code(&v, &out, width);
        }
    }
}

fn fits_every_width_from_one(name: &str, bytes: &[u8]) {
    let lesson = load(name, bytes);
    for width in 1..=130 {
        for answers in [false, true] {
            assert_fits(&plain(&lesson, width, answers), width);
        }
    }
}

#[test]
fn fixture_renders_all_its_text_in_order_at_every_width() {
    renders_all_its_text_in_order(common::FIXTURE_NAME, &common::fixture());
}

#[test]
fn seed_renders_all_its_text_in_order_at_every_width() {
    common::with_seed(|path, bytes| {
        renders_all_its_text_in_order(&path.display().to_string(), bytes)
    });
}

#[test]
fn fixture_fits_every_width_from_one() {
    fits_every_width_from_one(common::FIXTURE_NAME, &common::fixture());
}

#[test]
fn seed_fits_every_width_from_one() {
    common::with_seed(|_, bytes| fits_every_width_from_one("seed.json", bytes));
}

#[test]
fn fixture_snapshots() {
    let lesson = load(common::FIXTURE_NAME, &common::fixture());
    for width in WIDTHS {
        insta::assert_snapshot!(format!("fixture_w{width}"), plain(&lesson, width, false));
        insta::assert_snapshot!(
            format!("fixture_w{width}_answers"),
            plain(&lesson, width, true)
        );
    }
}

#[test]
fn seed_snapshots() {
    common::with_seed(|_, bytes| {
        let lesson = load("seed.json", bytes);
        for width in WIDTHS {
            insta::assert_snapshot!(format!("seed_w{width}"), plain(&lesson, width, false));
            insta::assert_snapshot!(
                format!("seed_w{width}_answers"),
                plain(&lesson, width, true)
            );
        }
    });
}

/// The keys of every run (an object with `text` but no `t`) inside `v`.
fn run_flags(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| run_flags(x, out)),
        Value::Object(m) => {
            if m.get("text").is_some_and(Value::is_string) && !m.contains_key("t") {
                out.extend(m.keys().filter(|k| *k != "text").cloned());
            }
            m.values().for_each(|x| run_flags(x, out));
        }
        _ => {}
    }
}

/// The fixture holds every kind of block, figure and run the format
/// defines, so the tests above cover them all.
#[test]
fn the_fixture_holds_every_kind_the_format_defines() {
    use lectern::model::{Block, FigureBody, Source};
    let v = common::fixture_value();
    let blocks = v["reader"]["blocks"].as_array().unwrap();
    let types: Vec<&str> = blocks.iter().filter_map(|b| b["t"].as_str()).collect();
    for t in [
        "h2", "h3", "h4", "p", "ul", "ol", "code", "figure", "quote", "hr",
    ] {
        assert!(types.contains(&t), "no `{t}` block");
    }
    assert!(blocks.iter().any(Value::is_string), "no bare-string block");
    let mut flags = std::collections::BTreeSet::new();
    run_flags(&v["reader"], &mut flags);
    for flag in ["b", "i", "s", "code", "kbd", "href"] {
        assert!(flags.contains(flag), "no run flagged `{flag}`");
    }

    let lesson = load(common::FIXTURE_NAME, &common::fixture());
    assert_eq!(lesson.source, Source::Reader);
    let hero = lesson.hero.as_ref().expect("a hero figure");
    assert!(matches!(hero.body, FigureBody::Compare { .. }));
    let levels: Vec<u8> = lesson
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading { level, .. } => Some(*level),
            _ => None,
        })
        .collect();
    assert!(levels.contains(&2) && levels.contains(&3) && levels.contains(&4));
    let has = |f: &dyn Fn(&Block) -> bool| lesson.blocks.iter().any(f);
    assert!(has(&|b| matches!(b, Block::List { start: None, .. })));
    assert!(has(&|b| matches!(b, Block::List { start: Some(8), .. })));
    assert!(has(
        &|b| matches!(b, Block::Code(c) if c.lang.as_deref() == Some("python") && c.label.is_some())
    ));
    assert!(has(&|b| matches!(b, Block::Quote(_))));
    assert!(has(&|b| matches!(b, Block::Rule)));
    for kind in ["callout", "table"] {
        assert!(
            has(&|b| matches!(b, Block::Unknown { kind: k, .. } if k == kind)),
            "unknown block `{kind}` kept"
        );
    }
    for kind in ["timeline", "photo"] {
        assert!(
            has(&|b| matches!(b, Block::Figure(f)
                if matches!(&f.body, FigureBody::Unknown { kind: k, .. } if k == kind))),
            "unknown figure `{kind}` kept"
        );
    }
    let check = lesson.check().expect("a check");
    assert_eq!(check.order, vec![2, 0, 3, 1]);
    assert_eq!(check.correct_index(), Some(1));
    for o in check.options.iter().filter(|o| !o.correct) {
        assert!(o.tempting.is_some(), "a wrong option without `tempting`");
    }
    assert!(check.why.is_some());
    let m = &lesson.meta;
    assert!(m.prev.is_some() && m.next.is_some() && m.module.is_some());
    assert!(m.licence.is_some() && m.cite.is_some() && m.authorship.is_some());
    assert!(m.review_status.is_some() && m.key_idea.is_some() && m.answer.is_some());
}

/// Wide CJK text, emoji, and control characters the terminal must never
/// receive: sanitised once at the loader, shown, and every line fits.
#[test]
fn the_fixtures_hostile_text_is_shown_sanitised() {
    let lesson = load(common::FIXTURE_NAME, &common::fixture());
    for width in [7, 40, 80] {
        let out = plain(&lesson, width, true);
        assert_fits(&out, width);
        let flat = flattened(&out);
        for want in [
            "␛[31mHOT␛[0m",
            "Abell␇,",
            "one-byteCSI\u{fffd}2J",
            "reversal\u{fffd}daer\u{fffd}",
            "湯種（ゆだね）",
            "👩‍🍳",
            "🐾",
            "馒头",
        ] {
            assert!(
                flat.contains(want),
                "width {width}: {want:?} missing\n{out}"
            );
        }
    }
}

/// The same lesson's markdown form, drawn when there is no reader tree.
fn fixture_as_markdown() -> Value {
    let mut v = common::fixture_value();
    v.as_object_mut().unwrap().remove("reader");
    v
}

#[test]
fn the_fixtures_markdown_body_renders_with_its_table() {
    let lesson = load_value(&fixture_as_markdown());
    assert_eq!(lesson.source, lectern::model::Source::Markdown);
    assert!(
        lesson
            .blocks
            .iter()
            .any(|b| matches!(b, lectern::model::Block::Table { .. }))
    );
    for width in 1..=130 {
        assert_fits(&plain(&lesson, width, true), width);
    }
    for width in [40, 80] {
        insta::assert_snapshot!(
            format!("fixture_markdown_w{width}"),
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
            // Lines may break inside a token where UAX #14 allows it
            // (after `https://`): spaces are not compared.
            let tight = |s: &str| s.split_whitespace().collect::<String>();
            assert!(
                tight(&n).contains(&tight(want)),
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
            "footnote[1]",
            "1. The footnote.",
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
