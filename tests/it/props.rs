//! Property tests: lesson-shaped JSON with random known and unknown
//! content, hostile and wide text, and random widths never makes the
//! loader or the layout panic, and every rendered line fits its width
//! with no control characters; arbitrary bytes never panic the loader.
//! Generated mdBook books (SUMMARY.md with drafts and paths out of the
//! book, includes with prefixes, ranges and anchors that nest and cycle,
//! quizzes well formed or not) load and render within the width, never
//! show a file outside the book, and stay within the include budget.
//!
//! 200 cases each by default; `PROPTEST_CASES=3000` for a longer soak.
//! Every strategy is boxed: unboxed, the nested tuple strategies compile
//! (unoptimised) to stack frames big enough to overflow a test thread.

use crate::common::{check_plain, check_styled};
use lectern::loader::load_bytes;
use lectern::render::{self, Options};
use lectern::theme::{Theme, ThemeKind};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

/// Characters that stress a terminal reader: controls of every class,
/// bidi overrides, wide (CJK, emoji) and zero-width (combining, joiner)
/// characters, markdown punctuation, and anything at all.
fn arb_char() -> BoxedStrategy<char> {
    prop_oneof![
        6 => proptest::char::range('a', 'z'),
        3 => Just(' '),
        2 => select(vec![
            '\t', '\n', '\r', '\u{1b}', '\u{7}', '\u{8}', '\u{7f}', '\u{9b}', '\u{85}', '\u{0}',
            '\u{202e}', '\u{2066}', '\u{2028}', '\u{feff}', '\u{200b}', '\u{200d}', '\u{fe0f}',
            '\u{301}', '\u{20e3}', '\u{ad}',
        ]),
        1 => proptest::char::range('\u{0}', '\u{1f}'),
        1 => proptest::char::range('\u{80}', '\u{9f}'),
        2 => proptest::char::range('\u{4e00}', '\u{9fff}'),
        1 => proptest::char::range('\u{ac00}', '\u{d7a3}'),
        1 => proptest::char::range('\u{300}', '\u{36f}'),
        1 => proptest::char::range('\u{1f300}', '\u{1f6ff}'),
        2 => select(vec!['*', '_', '`', '#', '>', '-', '[', ']', '(', ')', '|', '&', ';', '!', '<', '\\', '1', '.']),
        1 => any::<char>(),
    ]
    .boxed()
}

fn arb_text() -> BoxedStrategy<String> {
    prop_oneof![
        8 => vec(arb_char(), 0..24).prop_map(|v| v.into_iter().collect()),
        // A token longer than any line.
        1 => (arb_char(), 30..260usize).prop_map(|(c, n)| std::iter::repeat_n(c, n).collect()),
        1 => Just(String::new()),
    ]
    .boxed()
}

fn text_value() -> BoxedStrategy<Value> {
    arb_text().prop_map(Value::String).boxed()
}

/// Any JSON at all, for unknown blocks, fields and wrong types.
fn arb_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        text_value(),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec((arb_text(), inner), 0..4).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

fn arb_run() -> BoxedStrategy<Value> {
    (
        arb_text(),
        any::<[bool; 5]>(),
        option::weighted(0.2, arb_text()),
        option::weighted(0.15, (arb_text(), arb_json())),
    )
        .prop_map(|(text, flags, href, extra)| {
            let mut m = Map::new();
            m.insert("text".into(), Value::String(text));
            for (k, on) in ["b", "i", "s", "code", "kbd"].into_iter().zip(flags) {
                if on {
                    m.insert(k.into(), Value::Bool(true));
                }
            }
            if let Some(h) = href {
                m.insert("href".into(), Value::String(h));
            }
            if let Some((k, v)) = extra {
                m.insert(k, v);
            }
            Value::Object(m)
        })
        .boxed()
}

fn arb_runs() -> BoxedStrategy<Value> {
    prop_oneof![
        40 => vec(prop_oneof![4 => arb_run(), 1 => text_value()], 0..6).prop_map(Value::Array),
        10 => text_value(),
        // Occasionally the wrong type: the loader must refuse, not panic.
        1 => arb_json(),
    ]
    .boxed()
}

fn arb_column() -> BoxedStrategy<Value> {
    (arb_text(), vec(arb_text(), 0..5))
        .prop_map(|(title, items)| json!({"title": title, "items": items}))
        .boxed()
}

fn arb_figure() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => (arb_text(), arb_text(), arb_column(), arb_column()).prop_map(|(title, caption, left, right)| {
            json!({"type": "compare", "title": title, "caption": caption, "left": left, "right": right})
        }),
        1 => (arb_text(), arb_text(), arb_json()).prop_map(|(kind, title, data)| {
            json!({"type": kind, "title": title, "data": data})
        }),
    ]
    .boxed()
}

fn arb_figure_block() -> BoxedStrategy<Value> {
    (option::of(arb_text()), arb_figure(), option::of(arb_text())).prop_map(
        |(label, figure, alt)| json!({"t": "figure", "label": label, "figure": figure, "alt": alt}),
    )
    .boxed()
}

fn arb_lang() -> BoxedStrategy<Option<String>> {
    option::of(prop_oneof![
        3 => select(vec!["rust", "bash", "python", "json", "toml", "sh", "text", "no-such-language", ""])
            .prop_map(str::to_string),
        1 => arb_text(),
    ])
    .boxed()
}

fn arb_code_text() -> BoxedStrategy<String> {
    vec(arb_text(), 0..6)
        .prop_map(|lines| lines.join("\n"))
        .boxed()
}

fn arb_block() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        6 => (select(vec!["h1", "h2", "h3", "h4", "h5", "h6"]), arb_runs())
            .prop_map(|(t, runs)| json!({"t": t, "id": "x", "runs": runs})),
        12 => arb_runs().prop_map(|runs| json!({"t": "p", "runs": runs})),
        4 => (arb_lang(), option::of(arb_text()), arb_code_text())
            .prop_map(|(lang, label, text)| json!({"t": "code", "lang": lang, "label": label, "text": text})),
        4 => arb_figure_block(),
        2 => Just(json!({"t": "hr"})),
        4 => (arb_text(), arb_json(), option::of(arb_text()))
            .prop_map(|(t, data, alt)| json!({"t": t, "data": data, "alt": alt})),
        2 => text_value(),
        // A known block with a field it does not define.
        2 => (arb_runs(), arb_text(), arb_json())
            .prop_map(|(runs, k, v)| { let mut b = json!({"t": "p", "runs": runs}); b[k] = v; b }),
        1 => arb_json(),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        let item = prop_oneof![
            3 => arb_runs(),
            1 => text_value(),
            2 => (arb_runs(), vec(inner.clone(), 0..3))
                .prop_map(|(runs, blocks)| json!({"runs": runs, "blocks": blocks})),
        ];
        prop_oneof![
            (vec(item, 0..5), any::<bool>(), option::of(any::<u64>())).prop_map(
                |(items, ordered, start)| {
                    if ordered {
                        json!({"t": "ol", "start": start, "items": items})
                    } else {
                        json!({"t": "ul", "items": items})
                    }
                }
            ),
            (option::of(arb_runs()), vec(inner, 0..4))
                .prop_map(|(runs, blocks)| json!({"t": "quote", "runs": runs, "blocks": blocks})),
        ]
    })
    .boxed()
}

fn arb_check() -> BoxedStrategy<Value> {
    let option = (arb_runs(), any::<bool>(), option::of(arb_runs())).prop_map(
        |(text, correct, tempting)| json!({"text": text, "correct": correct, "tempting": tempting}),
    );
    (
        arb_runs(),
        vec(option, 0..6),
        option::of(vec(0u64..7, 0..7)),
        option::of(arb_runs()),
    )
        .prop_map(|(question, options, order, why)| {
            json!({"question": question, "options": options, "order": order, "why": why})
        })
    .boxed()
}

fn arb_markdown() -> BoxedStrategy<String> {
    let piece = prop_oneof![
        4 => arb_text(),
        3 => select(vec![
            "\n", "\n\n", "# ", "## ", "#### ", "- ", "* ", "1. ", "3) ", "  ", "    ", "\t", "> ", "> > ",
            "```", "```rust\n", "~~~\n", "**", "*", "_", "~~", "`", "[", "](http://x.y)", "![i](p.png)",
            "|a|b|\n|-|-|\n|c|d|\n", "| x\t| y |\n|---|---|\n", "---\n", "<b>", "</b>", "<div>\n", "&amp;",
            "&#27;", "&#x9b;", "&#7;", "&#x202e;", "&#9;", "[^1]", "[^1]: note\n", "- [ ] ", "- [x] ",
            "\\", "  \n", "$x$",
        ]).prop_map(str::to_string),
    ];
    vec(piece, 0..40).prop_map(|p| p.concat()).boxed()
}

fn arb_reader() -> BoxedStrategy<Value> {
    (
        prop_oneof![8 => Just(json!(1)), 1 => arb_json()],
        arb_text(),
        option::of((any::<u32>(), arb_text())),
        option::of(arb_figure_block()),
        vec(arb_block(), 0..12),
        option::of(arb_check()),
        option::of(arb_text()),
    )
        .prop_map(|(schema, title, module, hero, blocks, check, key_idea)| {
            json!({
                "schema": schema,
                "title": title,
                "module": module.map(|(index, title)| json!({"index": index, "slug": "m", "title": title})),
                "hero": hero.map(|figure| json!({"kind": "figure", "figure": figure})),
                "blocks": blocks,
                "check": check,
                "keyIdea": key_idea,
            })
        })
    .boxed()
}

fn arb_lesson() -> BoxedStrategy<Value> {
    let ids = (arb_text(), arb_text(), arb_text(), arb_text());
    let numbers = (
        option::of(any::<u32>()),
        option::of(any::<u32>()),
        option::of(any::<u32>()),
    );
    let extras = (
        option::of(arb_text()),
        option::of(arb_text()),
        option::of(arb_text()),
        option::weighted(0.2, (arb_text(), arb_json())),
    );
    let plain_check = option::of(
        (
            arb_text(),
            vec((arb_text(), any::<bool>(), option::of(arb_text())), 0..5),
        )
            .prop_map(|(q, opts)| {
                let options: Vec<Value> = opts
                    .into_iter()
                    .map(|(text, correct, tempting)| {
                        json!({"text": text, "correct": correct, "tempting": tempting})
                    })
                    .collect();
                json!({"question": q, "options": options})
            }),
    );
    (
        ids,
        numbers,
        extras,
        arb_markdown(),
        option::weighted(0.75, arb_reader()),
        plain_check,
    )
        .prop_map(
            |(
                (course_slug, course_title, slug, title),
                (position, of, minutes),
                (key_idea, authorship, cite, extra),
                markdown,
                reader,
                check,
            )| {
                let mut v = json!({
                    "course": {"slug": course_slug, "title": course_title},
                    "lesson": {"slug": slug, "title": title, "position": position, "of": of,
                               "minutes": minutes, "keyIdea": key_idea},
                    "body": {"format": "markdown", "text": markdown},
                    "check": check,
                    "authorship": authorship,
                    "cite": cite,
                    "licence": {"name": "CC BY 4.0"},
                    "review": {"status": "draft"},
                    "prev": {"slug": "p", "title": "Prev"},
                    "next": null,
                });
                if let Some(r) = reader {
                    v["reader"] = r;
                }
                if let Some((k, x)) = extra {
                    v[k] = x;
                }
                v
            },
        )
        .boxed()
}

/// `default` cases, or `PROPTEST_CASES` for a longer soak (a config's
/// own count would otherwise win over the variable).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn theme(pick: u8) -> Option<Theme> {
    match pick {
        0 => None,
        1 => Some(Theme::new(ThemeKind::Dark)),
        2 => Some(Theme::new(ThemeKind::Light)),
        _ => Some(Theme::new(ThemeKind::Mono)),
    }
}

/// Lesson-shaped JSON loads and renders within the width. Counted, so
/// the render half is known to run: a generator that drifted into
/// producing lessons the loader refuses would otherwise pass by never
/// reaching it. About one lesson in ten is meant to fail (a schema that
/// is not 1); three in four must load.
#[test]
fn lesson_shaped_json_loads_and_renders_within_the_width() {
    use proptest::test_runner::{Config, TestRunner};
    let config = Config {
        cases: cases(200),
        ..Config::default()
    };
    let cases = config.cases as usize;
    let loaded = std::cell::Cell::new(0usize);
    let tried = std::cell::Cell::new(0usize);
    let strategy = (arb_lesson(), 1u16..200, any::<bool>(), 0u8..6);
    let result = TestRunner::new(config).run(&strategy, |(lesson, width, answers, pick)| {
        tried.set(tried.get() + 1);
        let bytes = serde_json::to_vec(&lesson).unwrap();
        let Ok(l) = load_bytes("prop.json", &bytes) else {
            return Ok(());
        };
        loaded.set(loaded.get() + 1);
        let theme = theme(pick);
        let styled = theme.is_some();
        let out = render::lesson(
            &l.lesson,
            &Options {
                width,
                theme,
                answers,
            },
        );
        let checked = if styled {
            check_styled(&out, usize::from(width))
        } else {
            check_plain(&out, usize::from(width))
        };
        prop_assert!(checked.is_ok(), "{}\n{}", checked.unwrap_err(), out);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!(
        "rendered {} of {} generated lessons",
        loaded.get(),
        tried.get()
    );
    assert!(
        loaded.get() * 4 >= cases * 3,
        "only {} of {} generated lessons loaded: the render half barely ran",
        loaded.get(),
        tried.get()
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(200),
        ..ProptestConfig::default()
    })]

    #[test]
    fn broken_lesson_bytes_never_panic(
        lesson in arb_lesson(),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = serde_json::to_vec(&lesson).unwrap();
        let at = flip.index(bytes.len());
        bytes[at] = byte;
        let _ = load_bytes("flipped.json", &bytes);
        bytes.truncate(cut.index(bytes.len()));
        if let Err(d) = load_bytes("cut.json", &bytes) {
            let line = d.to_string();
            prop_assert!(!line.contains('\n'), "{}", line);
            prop_assert!(check_plain(&line, usize::MAX).is_ok(), "{}", line);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..2048)) {
        if let Err(d) = load_bytes("bytes.json", &bytes) {
            prop_assert!(d.line >= 1 && d.column >= 1);
        }
    }

    /// The loader's half only: JSON of any shape is all but never a
    /// lesson, so rendering is left to the lesson-shaped test above.
    #[test]
    fn arbitrary_json_never_panics(v in arb_json()) {
        let bytes = serde_json::to_vec(&v).unwrap();
        if let Err(d) = load_bytes("json.json", &bytes) {
            prop_assert!(d.line >= 1 && d.column >= 1);
        }
    }
}

/// Running text dense with break opportunities (zero-width spaces, soft
/// hyphens) between letters, CJK, hyphens and no-break spaces, inside
/// markdown's constructs (styles, links, lists, quotes, tables, headings,
/// code spans and blocks).
fn arb_breaking_markdown() -> BoxedStrategy<String> {
    let piece = prop_oneof![
        6 => vec(
            prop_oneof![
                6 => proptest::char::range('a', 'z'),
                3 => Just('\u{200b}'),
                3 => Just('\u{ad}'),
                1 => Just('-'),
                1 => Just('\u{a0}'),
                1 => proptest::char::range('\u{4e00}', '\u{4e20}'),
            ],
            1..40,
        )
        .prop_map(|v| v.into_iter().collect::<String>()),
        2 => Just(" ".to_string()),
        2 => select(vec![
            "\n\n", "# ", "### ", "- ", "> ", "**", "_", "`", "~~", "[", "](http://x.y/\u{200b}z)",
            "|a\u{ad}b|c\u{200b}d|\n|-|-|\n|", "```\n", "\n```\n", "<kbd>", "</kbd>", "&shy;",
            "&#8203;", "[^n]", "\n\n[^n]: a\u{ad}b\n", "\n> [!NOTE]\n> ",
        ])
        .prop_map(str::to_string),
    ];
    vec(piece, 0..40).prop_map(|p| p.concat()).boxed()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(200),
        ..ProptestConfig::default()
    })]

    /// The layout consumes break opportunities: it breaks at them (a soft
    /// hyphen shows `-`) and never draws either character, at any width,
    /// styled or plain, and every line still fits.
    #[test]
    fn no_zero_width_space_or_soft_hyphen_reaches_a_drawn_line(
        md in arb_breaking_markdown(),
        width in 1u16..100,
        pick in 0u8..4,
    ) {
        let bytes = format!("# T\u{200b}itle\n\n{md}\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("breaks.md");
        std::fs::write(&path, bytes).unwrap();
        let loaded = lectern::loader::load(&lectern::loader::Origin::File(path)).unwrap();
        let title = &loaded.lesson.meta.title;
        prop_assert!(!title.contains(['\u{200b}', '\u{ad}']), "{:?}", title);
        let theme = theme(pick);
        let styled = theme.is_some();
        let out = render::lesson(&loaded.lesson, &Options { width, theme, answers: true });
        prop_assert!(!out.contains(['\u{200b}', '\u{ad}']), "{:?}\n{}", md, out);
        let checked = if styled {
            check_styled(&out, usize::from(width))
        } else {
            check_plain(&out, usize::from(width))
        };
        prop_assert!(checked.is_ok(), "{}\n{}", checked.unwrap_err(), out);
    }
}

/// A prefix an include may stand after: indentation, quote marks, text.
fn arb_prefix() -> BoxedStrategy<String> {
    prop_oneof![
        3 => Just(String::new()),
        3 => (0..40usize).prop_map(|n| " ".repeat(n)),
        1 => (0..6usize).prop_map(|n| "> ".repeat(n)),
        1 => Just("- ".into()),
        1 => arb_text(),
    ]
    .boxed()
}

/// One directive, well formed or not, naming the book's files.
fn arb_directive() -> BoxedStrategy<String> {
    let range = prop_oneof![
        Just(String::new()),
        (0..6usize).prop_map(|n| format!(":{n}")),
        (0..6usize, 0..8usize).prop_map(|(a, b)| format!(":{a}:{b}")),
        (0..4usize).prop_map(|n| format!("::{n}")),
        Just(":here".to_string()),
        Just(":nope".to_string()),
    ];
    let file = select(vec![
        "f0.md",
        "f1.md",
        "f2.rs",
        "../f0.md",
        "../../out.md",
        "/etc/hostname",
        "none.md",
    ]);
    prop_oneof![
        4 => (select(vec!["include", "rustdoc_include", "playground"]), file, range)
            .prop_map(|(k, f, r)| format!("{{{{#{k} {f}{r}}}}}")),
        2 => select(vec!["q0.toml", "q1.toml", "none.toml"]).prop_map(|q| format!("{{{{#quiz {q}}}}}")),
        1 => arb_text().prop_map(|t| format!("{{{{#title {t}}}}}")),
        1 => Just("{{#include f0.md".to_string()),
        1 => Just("\\{{#include f0.md}}".to_string()),
        1 => Just("{{#mermaid x}}".to_string()),
    ]
    .boxed()
}

/// Markdown with directives after prefixes, on lines of their own or not.
fn arb_chapter() -> BoxedStrategy<String> {
    let line = prop_oneof![
        3 => (arb_prefix(), arb_directive(), arb_text()).prop_map(|(p, d, t)| format!("{p}{d}{t}")),
        2 => arb_text(),
        1 => Just("// ANCHOR: here".to_string()),
        1 => Just("// ANCHOR_END: here".to_string()),
        1 => Just("```rust".to_string()),
    ];
    vec(line, 0..12).prop_map(|l| l.join("\n")).boxed()
}

/// A quiz file: questions of each kind, or anything at all.
fn arb_quiz() -> BoxedStrategy<String> {
    let question = prop_oneof![
        (arb_text(), arb_text()).prop_map(|(p, a)| format!(
            "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = {p:?}\nanswer.answer = {a:?}\n"
        )),
        (arb_text(), vec(arb_text(), 0..4)).prop_map(|(p, d)| format!(
            "[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = {p:?}\nprompt.distractors = {d:?}\nanswer.answer = \"a\"\n"
        )),
        arb_text().prop_map(|p| format!(
            "[[questions]]\ntype = \"Tracing\"\nprompt.program = {p:?}\nanswer.doesCompile = false\nanswer.lineNumber = 1\n"
        )),
        arb_text(),
    ];
    vec(question, 0..4).prop_map(|q| q.concat()).boxed()
}

/// A book: SUMMARY.md (nested, drafts, paths out of the book), chapters
/// and included files full of directives, and quizzes.
fn arb_book() -> BoxedStrategy<Vec<(String, String)>> {
    let entry = (
        0..3usize,
        select(vec!["c0.md", "c1.md", "c2.md", "", "../out.md", "f0.md"]),
        arb_text(),
    )
        .prop_map(|(depth, path, title)| {
            let title: String = title.chars().filter(|c| !"[]()\n".contains(*c)).collect();
            format!("{}- [{title}x]({path})", "  ".repeat(depth))
        });
    (vec(entry, 1..6), vec(arb_chapter(), 6), vec(arb_quiz(), 2))
        .prop_map(|(summary, texts, quizzes)| {
            let mut files = vec![("src/SUMMARY.md".to_string(), summary.join("\n"))];
            let names = [
                "src/c0.md",
                "src/c1.md",
                "src/c2.md",
                "src/f0.md",
                "src/f1.md",
                "src/f2.rs",
            ];
            files.extend(names.iter().map(|n| n.to_string()).zip(texts));
            files.extend((0..2).map(|i| format!("src/q{i}.toml")).zip(quizzes));
            files.push(("out.md".into(), "SECRETOUT".into()));
            files
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(100),
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_books_load_and_render_within_bounds(files in arb_book(), width in 1u16..120) {
        use lectern::loader::{Origin, caps, load_lesson, open_paths};
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("book");
        let mut input = 0;
        for (p, text) in &files {
            let at = if p == "out.md" { d.path().join(p) } else { root.join(p) };
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::fs::write(&at, text).unwrap();
            input += text.len();
        }
        let lib = open_paths(std::slice::from_ref(&root));
        prop_assert!(lib.is_ok(), "{:?}", lib.err());
        for ch in ["c0.md", "c1.md", "c2.md", "f0.md"] {
            let Ok(lesson) = load_lesson(&Origin::File(root.join("src").join(ch))) else { continue };
            let out = render::lesson(&lesson, &Options { width, theme: None, answers: true });
            prop_assert!(check_plain(&out, usize::from(width)).is_ok(), "{}", out);
            prop_assert!(!out.contains("SECRETOUT"), "a file outside the book was shown: {}", out);
            // What includes add is capped; the rest is the book's own text
            // (each line of it drawn at most at the width, framed).
            let text: usize = lesson.blocks.iter().map(|b| lectern::model::Lesson::block_text(b).len()).sum();
            prop_assert!(text <= caps::MAX_INCLUDED + 40 * input, "{} bytes from {}", text, input);
        }
    }
}
