//! Builds the validated model from a parsed lesson file.
//!
//! Fixed-shape records go through the serde mirror in `raw`; blocks, runs
//! and figures are walked by hand because the format is open: unknown
//! kinds and fields keep their text and become findings, never errors.

use super::markdown;
use super::node::{Fail, Finding, Level, Node, R, strings_in_order};
use super::path::JsonPath;
use super::raw::{self, text};
use crate::model::{
    Block, Check, CheckOption, Column, Figure, FigureBody, Lesson, LessonMeta, Link, Module, Run,
    Source,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Lists and quotes nested deeper than this are flattened, so hostile
/// input cannot blow the stack in later recursive stages.
pub const MAX_DEPTH: usize = 24;

pub struct Converted {
    pub lesson: Lesson,
    pub findings: Vec<Finding>,
}

#[derive(Default)]
struct Cx {
    findings: Vec<Finding>,
}

impl Cx {
    fn warn(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.findings.push(Finding {
            level: Level::Warning,
            path: path.clone(),
            message: message.into(),
        });
    }

    fn error(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.findings.push(Finding {
            level: Level::Error,
            path: path.clone(),
            message: message.into(),
        });
    }
}

/// Deserialises a fixed-shape record, keeping the full path on error.
fn typed<T: DeserializeOwned>(n: &Node) -> R<T> {
    serde_path_to_error::deserialize(n.v).map_err(|e| {
        let inner = e.path().to_string();
        let mut path = n.path();
        if inner != "." {
            path.0.extend(JsonPath::parse(&inner).0);
        }
        Fail {
            path,
            message: e.into_inner().to_string(),
        }
    })
}

fn opt_typed<T: DeserializeOwned>(n: &Node, key: &str) -> R<Option<T>> {
    n.get(key).map(|f| typed(&f)).transpose()
}

pub fn lesson(root: &Value) -> R<Converted> {
    let root = Node::root(root);
    root.obj()?;
    let mut cx = Cx::default();

    let course: raw::Course = typed(&root.req("course", "an object with `slug` and `title`")?)?;
    let info: raw::LessonInfo = typed(&root.req("lesson", "an object with `slug` and `title`")?)?;
    let reader = root.get("reader");
    let reader = match reader {
        Some(r) => {
            r.obj()?;
            match r.get("schema").map(|s| s.v.as_u64()) {
                Some(Some(1)) => Some(r),
                other => {
                    let shown = match other {
                        None => "no".to_string(),
                        Some(_) => format!(
                            "unknown ({})",
                            r.get("schema").map_or(String::new(), |s| s.v.to_string())
                        ),
                    };
                    cx.warn(
                        &r.path().key("schema"),
                        format!("{shown} reader schema; falling back to the markdown body"),
                    );
                    None
                }
            }
        }
        None => None,
    };

    let module: Option<raw::Module> = match &reader {
        Some(r) => opt_typed(r, "module")?,
        None => None,
    };
    let reader_key_idea = match &reader {
        Some(r) => r.opt_str("keyIdea")?,
        None => None,
    };
    let course_title = match &reader {
        Some(r) => r.opt_str("courseTitle")?,
        None => None,
    };
    let prev: Option<raw::Link> = opt_typed(&root, "prev")?;
    let next: Option<raw::Link> = opt_typed(&root, "next")?;
    let licence: Option<raw::Licence> = opt_typed(&root, "licence")?;
    let review: Option<raw::Review> = opt_typed(&root, "review")?;

    let course_slug = course.slug.0;
    let meta = LessonMeta {
        course_title: text(course.title)
            .or(course_title)
            .unwrap_or_else(|| course_slug.clone()),
        course_slug,
        slug: info.slug.0,
        title: info.title.0,
        module: module.map(|m| Module {
            index: m.index.unwrap_or(0),
            slug: text(m.slug).unwrap_or_default(),
            title: text(m.title).unwrap_or_default(),
        }),
        position: info.position,
        of: info.of,
        minutes: info.minutes,
        key_idea: text(info.key_idea).or(reader_key_idea.filter(|s| !s.trim().is_empty())),
        answer: text(info.answer),
        prev: prev.map(link),
        next: next.map(link),
        licence: licence.and_then(|l| text(l.name).or(text(l.url))),
        cite: root.opt_str("cite")?,
        authorship: root.opt_str("authorship")?,
        review_status: review.and_then(|r| text(r.status)),
    };

    let (source, hero, blocks, reader_check) = match &reader {
        Some(r) => {
            let hero = match r.get("hero") {
                Some(h) => Some(hero(&h, &mut cx)?),
                None => None,
            };
            let blocks = match r.get("blocks") {
                Some(b) => blocks(&b, &mut cx, 0)?,
                None => Vec::new(),
            };
            let check = match r.get("check") {
                Some(c) => Some(rich_check(&c, &mut cx)?),
                None => None,
            };
            (Source::Reader, hero, blocks, check)
        }
        None => {
            let body = root.req(
                "body",
                "an object with markdown `text` (or a `reader` tree)",
            )?;
            let body: raw::Body = typed(&body)?;
            if let Some(f) = body.format.as_ref().filter(|f| f.0 != "markdown") {
                cx.warn(
                    &root.path().key("body").key("format"),
                    format!("body format `{}` read as markdown", f.0),
                );
            }
            (Source::Markdown, None, markdown::parse(&body.text.0), None)
        }
    };

    let check = match reader_check {
        Some(c) => Some(c),
        None => match root.get("check") {
            Some(c) => Some(plain_check(&c)?),
            None => None,
        },
    };
    if let Some(c) = &check {
        let at = match &reader {
            Some(r) if r.get("check").is_some() => r.path().key("check").key("options"),
            _ => JsonPath::default().key("check").key("options"),
        };
        match c.options.iter().filter(|o| o.correct).count() {
            _ if c.options.is_empty() => cx.error(&at, "the check has no options"),
            0 => cx.error(&at, "no option is marked `correct: true`"),
            1 => {}
            n => cx.error(
                &at,
                format!("{n} options are marked `correct: true`; exactly one should be"),
            ),
        }
    }

    Ok(Converted {
        lesson: Lesson {
            meta,
            source,
            hero,
            blocks,
            check,
        },
        findings: cx.findings,
    })
}

fn link(l: raw::Link) -> Link {
    Link {
        title: text(l.title).unwrap_or_else(|| l.slug.0.clone()),
        slug: l.slug.0,
    }
}

fn hero(n: &Node, cx: &mut Cx) -> R<Figure> {
    n.obj()?;
    let kind = n.opt_str("kind")?.unwrap_or_default();
    match (kind.as_str(), n.get("figure")) {
        ("figure" | "", Some(f)) => figure_block(&f, cx),
        _ => {
            cx.warn(
                &n.path(),
                format!("unknown hero kind `{kind}`: shown as text"),
            );
            Ok(Figure {
                label: None,
                title: None,
                caption: None,
                alt: n.opt_str("alt").unwrap_or(None),
                body: FigureBody::Unknown {
                    kind,
                    text: strings_in_order(n.v, &["kind"]),
                },
            })
        }
    }
}

fn blocks(n: &Node, cx: &mut Cx, depth: usize) -> R<Vec<Block>> {
    let mut out = Vec::new();
    for b in n.arr()? {
        block(&b, cx, depth, &mut out)?;
    }
    Ok(out)
}

fn heading_level(t: &str) -> Option<u8> {
    match t.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(d - b'0'),
        _ => None,
    }
}

fn block(n: &Node, cx: &mut Cx, depth: usize, out: &mut Vec<Block>) -> R<()> {
    if let Value::String(s) = n.v {
        // A bare string where a block should be: keep it as a paragraph.
        out.push(Block::Paragraph(vec![Run::plain(
            super::sanitize::clean_owned(s),
        )]));
        return Ok(());
    }
    n.obj()?;
    let t = n.opt_str("t")?.unwrap_or_default();
    let known: &[&str] = match t.as_str() {
        _ if heading_level(&t).is_some() => &["t", "id", "runs"],
        "p" => &["t", "runs"],
        "ul" => &["t", "items"],
        "ol" => &["t", "items", "start"],
        "code" => &["t", "lang", "label", "text"],
        "figure" => &["t", "label", "figure", "alt"],
        "quote" | "blockquote" => &["t", "runs", "blocks"],
        "hr" => &["t"],
        _ => {
            let text = match n.opt_str("alt")? {
                Some(alt) if !alt.trim().is_empty() => vec![alt],
                _ => strings_in_order(n.v, &["t"]),
            };
            let shown = if t.is_empty() {
                "(no `t`)".to_string()
            } else {
                format!("`{t}`")
            };
            cx.warn(
                &n.path(),
                format!("unknown block type {shown}: its text is shown as is"),
            );
            out.push(Block::Unknown { kind: t, text });
            return Ok(());
        }
    };
    let block = match t.as_str() {
        "p" => Block::Paragraph(runs(&n.req("runs", "an array of runs")?, cx)?),
        "ul" | "ol" => {
            let start = if t == "ol" {
                Some(n.opt_u64("start")?.unwrap_or(1))
            } else {
                None
            };
            let mut items = Vec::new();
            for item in n.req("items", "an array of items")?.arr()? {
                items.push(list_item(&item, cx, depth)?);
            }
            Block::List { start, items }
        }
        "code" => Block::Code {
            lang: n.opt_str("lang")?.filter(|s| !s.trim().is_empty()),
            label: n.opt_str("label")?.filter(|s| !s.trim().is_empty()),
            text: n.req_str("text")?,
        },
        "figure" => Block::Figure(figure_block(n, cx)?),
        "quote" | "blockquote" => {
            let mut inner = Vec::new();
            if let Some(r) = n.get("runs") {
                inner.push(Block::Paragraph(runs(&r, cx)?));
            }
            if let Some(b) = n.get("blocks") {
                if depth < MAX_DEPTH {
                    inner.extend(blocks(&b, cx, depth + 1)?);
                } else {
                    inner.push(Block::Unknown {
                        kind: "nested too deep".into(),
                        text: strings_in_order(b.v, &[]),
                    });
                }
            }
            Block::Quote(inner)
        }
        "hr" => Block::Rule,
        _ => Block::Heading {
            level: heading_level(&t).unwrap_or(2),
            id: n.opt_str("id")?,
            runs: runs(&n.req("runs", "an array of runs")?, cx)?,
        },
    };
    out.push(block);
    keep_extra_fields(n, known, &t, cx, out);
    Ok(())
}

/// Text in fields a known block does not define is kept after the block.
fn keep_extra_fields(n: &Node, known: &[&str], t: &str, cx: &mut Cx, out: &mut Vec<Block>) {
    for (key, text) in n.extra_fields(known) {
        cx.warn(
            &n.path().key(&key),
            format!("unknown field `{key}` on a `{t}` block: its text is kept"),
        );
        if !text.is_empty() {
            out.push(Block::Unknown {
                kind: format!("{t}.{key}"),
                text,
            });
        }
    }
}

fn list_item(n: &Node, cx: &mut Cx, depth: usize) -> R<Vec<Block>> {
    match n.v {
        Value::String(_) => Ok(vec![Block::Paragraph(vec![Run::plain(n.str()?)])]),
        Value::Array(_) => Ok(vec![Block::Paragraph(runs(n, cx)?)]),
        // An item written as an object: its own runs, and nested blocks.
        Value::Object(_) => {
            let mut out = Vec::new();
            if let Some(r) = n.get("runs") {
                out.push(Block::Paragraph(runs(&r, cx)?));
            }
            if let Some(b) = n.get("blocks") {
                if depth < MAX_DEPTH {
                    out.extend(blocks(&b, cx, depth + 1)?);
                } else {
                    out.push(Block::Unknown {
                        kind: "nested too deep".into(),
                        text: strings_in_order(b.v, &[]),
                    });
                }
            }
            if out.is_empty() {
                out.push(Block::Unknown {
                    kind: "item".into(),
                    text: strings_in_order(n.v, &[]),
                });
            }
            Ok(out)
        }
        _ => Err(n.fail("an array of runs")),
    }
}

const RUN_FLAGS: &[&str] = &["text", "b", "i", "s", "code", "kbd", "href"];

/// Inline runs; a plain string is accepted as one unstyled run.
fn runs(n: &Node, cx: &mut Cx) -> R<Vec<Run>> {
    if n.v.is_string() {
        return Ok(vec![Run::plain(n.str()?)]);
    }
    let mut out = Vec::new();
    for r in n.arr()? {
        if r.v.is_string() {
            out.push(Run::plain(r.str()?));
            continue;
        }
        r.obj()?;
        let mut run = Run {
            text: r.req_str("text")?,
            bold: r.opt_bool("b")?.unwrap_or(false),
            italic: r.opt_bool("i")?.unwrap_or(false),
            strike: r.opt_bool("s")?.unwrap_or(false),
            code: r.opt_bool("code")?.unwrap_or(false),
            kbd: r.opt_bool("kbd")?.unwrap_or(false),
            href: r.opt_str("href")?.filter(|h| !h.trim().is_empty()),
        };
        for (key, extra) in r.extra_fields(RUN_FLAGS) {
            cx.warn(
                &r.path().key(&key),
                format!("unknown run flag `{key}`: its text is shown unstyled"),
            );
            // A flag whose value is text (a footnote, a title) is kept.
            if !extra.is_empty() {
                run.text.push_str(&format!(" [{}]", extra.join(" ")));
            }
        }
        out.push(run);
    }
    Ok(out)
}

fn figure_block(n: &Node, cx: &mut Cx) -> R<Figure> {
    n.obj()?;
    let label = n.opt_str("label")?;
    let alt = n.opt_str("alt")?.filter(|s| !s.trim().is_empty());
    let Some(f) = n.get("figure") else {
        return Ok(Figure {
            label,
            title: None,
            caption: None,
            body: FigureBody::Unknown {
                kind: String::new(),
                text: alt.iter().cloned().collect(),
            },
            alt,
        });
    };
    f.obj()?;
    let kind = f.opt_str("type")?.unwrap_or_default();
    let title = f.opt_str("title")?.filter(|s| !s.trim().is_empty());
    let caption = f.opt_str("caption")?.filter(|s| !s.trim().is_empty());
    let body = if kind == "compare" {
        let col = |key: &str| -> R<Column> {
            let c: raw::Column = typed(&f.req(key, "a column with `title` and `items`")?)?;
            Ok(Column {
                title: text(c.title).unwrap_or_default(),
                items: c.items.into_iter().map(|t| t.0).collect(),
            })
        };
        let body = FigureBody::Compare {
            left: col("left")?,
            right: col("right")?,
        };
        for (key, extra) in f.extra_fields(&["type", "title", "caption", "left", "right"]) {
            if !extra.is_empty() {
                cx.warn(
                    &f.path().key(&key),
                    format!("unknown field `{key}` on a compare figure: its text is kept"),
                );
            }
        }
        body
    } else {
        let shown = if kind.is_empty() {
            "(none)".into()
        } else {
            format!("`{kind}`")
        };
        cx.warn(
            &f.path().key("type"),
            format!("unknown figure type {shown}: shown by its text"),
        );
        FigureBody::Unknown {
            kind,
            text: strings_in_order(f.v, &["type", "title", "caption"]),
        }
    };
    Ok(Figure {
        label,
        title,
        caption,
        alt,
        body,
    })
}

fn rich_check(n: &Node, cx: &mut Cx) -> R<Check> {
    n.obj()?;
    let question = runs(&n.req("question", "the question as runs")?, cx)?;
    let mut options = Vec::new();
    for o in n.req("options", "an array of options")?.arr()? {
        o.obj()?;
        options.push(CheckOption {
            text: runs(&o.req("text", "the option's text as runs")?, cx)?,
            correct: o.opt_bool("correct")?.unwrap_or(false),
            tempting: o
                .get("tempting")
                .map(|t| runs(&t, cx))
                .transpose()?
                .filter(|r| !r.is_empty()),
        });
    }
    let identity: Vec<usize> = (0..options.len()).collect();
    let order = match n.get("order") {
        None => identity,
        Some(o) => {
            let given: Option<Vec<usize>> =
                o.v.as_array()
                    .and_then(|a| a.iter().map(|x| x.as_u64().map(|x| x as usize)).collect());
            match given {
                Some(g) if Check::is_permutation(&g, options.len()) => g,
                _ => {
                    cx.warn(
                        &o.path(),
                        "`order` is not a permutation of the option indices: file order is used",
                    );
                    identity
                }
            }
        }
    };
    let why = n
        .get("why")
        .map(|w| runs(&w, cx))
        .transpose()?
        .filter(|r| !r.is_empty());
    Ok(Check {
        question,
        options,
        order,
        why,
    })
}

fn plain_check(n: &Node) -> R<Check> {
    let c: raw::PlainCheck = typed(n)?;
    let options: Vec<CheckOption> = c
        .options
        .into_iter()
        .map(|o| CheckOption {
            text: vec![Run::plain(o.text.0)],
            correct: o.correct.unwrap_or(false),
            tempting: text(o.tempting).map(|t| vec![Run::plain(t)]),
        })
        .collect();
    Ok(Check {
        question: vec![Run::plain(c.question.0)],
        order: (0..options.len()).collect(),
        options,
        why: None,
    })
}
