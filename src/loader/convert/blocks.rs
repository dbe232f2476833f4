//! Blocks and inline runs. Unknown block types and fields keep their text.

use super::super::node::{Fail, Node, R, strings_in_order};
use super::super::parse::wording;
use super::super::sanitize::clean_owned;
use super::figure::figure_block;
use super::{Cx, MAX_DEPTH};
use crate::model::{Block, Run};
use serde_json::Value;
use serde_json::value::RawValue;

pub(super) fn blocks(n: &Node, cx: &mut Cx, depth: usize) -> R<Vec<Block>> {
    let mut out = Vec::new();
    for b in n.arr()? {
        block(&b, cx, depth, &mut out)?;
    }
    Ok(out)
}

/// The blocks of `n` (an empty array standing for them) from their
/// unparsed text, each parsed, converted and dropped in turn: one block's
/// tree at a time, never the whole file's.
pub(super) fn unparsed(n: &Node, raw: &[&RawValue], cx: &mut Cx) -> R<Vec<Block>> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, text) in raw.iter().enumerate() {
        let v: Value = serde_json::from_str(text.get()).map_err(|e| Fail {
            path: n.path().index(i),
            message: wording(&e),
        })?;
        block(&n.item(&v, i), cx, 0, &mut out)?;
    }
    out.shrink_to_fit();
    Ok(out)
}

/// The blocks nested in a list item or quote, or past [`MAX_DEPTH`] their
/// text as one unknown block.
fn nested(b: &Node, cx: &mut Cx, depth: usize, out: &mut Vec<Block>) -> R<()> {
    if depth < MAX_DEPTH {
        out.extend(blocks(b, cx, depth + 1)?);
    } else {
        out.push(Block::Unknown {
            kind: "nested too deep".into(),
            text: strings_in_order(b.v, &[]),
        });
    }
    Ok(())
}

fn heading_level(t: &str) -> Option<u8> {
    match t.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(d - b'0'),
        _ => None,
    }
}

/// The fields a block of type `t` defines, or `None` for a type this
/// version does not know.
fn known_fields(t: &str) -> Option<&'static [&'static str]> {
    Some(match t {
        _ if heading_level(t).is_some() => &["t", "id", "runs"],
        "p" => &["t", "runs"],
        "ul" => &["t", "items"],
        "ol" => &["t", "items", "start"],
        "code" => &["t", "lang", "label", "text"],
        "figure" => &["t", "label", "figure", "alt"],
        "quote" | "blockquote" => &["t", "runs", "blocks"],
        "hr" => &["t"],
        "image" => &["t", "src", "alt", "caption", "width", "height"],
        _ => return None,
    })
}

fn block(n: &Node, cx: &mut Cx, depth: usize, out: &mut Vec<Block>) -> R<()> {
    if let Value::String(s) = n.v {
        // A bare string where a block should be: keep it as a paragraph.
        out.push(Block::Paragraph(vec![Run::plain(clean_owned(s))]));
        return Ok(());
    }
    n.obj()?;
    let t = n.opt_str("t")?.unwrap_or_default();
    let Some(known) = known_fields(&t) else {
        out.push(unknown_block(n, t, cx)?);
        return Ok(());
    };
    out.push(known_block(n, &t, cx, depth)?);
    keep_extra_fields(n, known, &t, cx, out);
    Ok(())
}

/// A block of a type this version does not know: its `alt`, or else
/// every string it holds.
fn unknown_block(n: &Node, t: String, cx: &mut Cx) -> R<Block> {
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
    Ok(Block::Unknown { kind: t, text })
}

/// A block of type `t`, one [`known_fields`] knows.
fn known_block(n: &Node, t: &str, cx: &mut Cx, depth: usize) -> R<Block> {
    Ok(match t {
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
        "code" => Block::code(crate::model::CodeBlock {
            lang: n.opt_str("lang")?.filter(|s| !s.trim().is_empty()),
            label: n.opt_str("label")?.filter(|s| !s.trim().is_empty()),
            text: n.req_str("text")?,
            badges: Vec::new(),
            numbered: false,
            marks: Vec::new(),
        }),
        "figure" => Block::Figure(Box::new(figure_block(n, cx)?)),
        "quote" | "blockquote" => {
            let mut inner = Vec::new();
            if let Some(r) = n.get("runs") {
                inner.push(Block::Paragraph(runs(&r, cx)?));
            }
            if let Some(b) = n.get("blocks") {
                nested(&b, cx, depth, &mut inner)?;
            }
            Block::Quote(inner)
        }
        "hr" => Block::Rule,
        "image" => Block::Image(Box::new(crate::model::Image {
            src: n.req_str("src")?,
            alt: n.opt_str("alt")?.unwrap_or_default(),
            caption: n.opt_str("caption")?.filter(|s| !s.trim().is_empty()),
            width: pixels(n, "width")?,
            height: pixels(n, "height")?,
            ..Default::default()
        })),
        _ => Block::Heading {
            level: heading_level(t).unwrap_or(2),
            id: n.opt_str("id")?,
            runs: runs(&n.req("runs", "an array of runs")?, cx)?,
        },
    })
}

/// A size in pixels, when given: 1 to 100,000 (past it, no hint).
fn pixels(n: &Node, key: &str) -> R<Option<u32>> {
    let v = n.opt_u64(key)?;
    Ok(v.filter(|v| (1..=100_000).contains(v)).map(|v| v as u32))
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
                nested(&b, cx, depth, &mut out)?;
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
pub(super) fn runs(n: &Node, cx: &mut Cx) -> R<Vec<Run>> {
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
            text: r.req_str("text")?.into(),
            bold: r.opt_bool("b")?.unwrap_or(false),
            italic: r.opt_bool("i")?.unwrap_or(false),
            strike: r.opt_bool("s")?.unwrap_or(false),
            code: r.opt_bool("code")?.unwrap_or(false),
            kbd: r.opt_bool("kbd")?.unwrap_or(false),
            mark: false,
            href: r
                .opt_str("href")?
                .filter(|h| !h.trim().is_empty())
                .map(String::into_boxed_str),
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
