//! Builds the validated model from a parsed lesson file.
//!
//! Fixed-shape records go through the serde mirror in `raw`; blocks, runs
//! and figures are walked by hand because the format is open: unknown
//! kinds and fields keep their text and become findings, never errors.
//! Here the lesson as a whole; a file each for the header, blocks and
//! runs, figures, and the check.

mod blocks;
mod check;
mod figure;
mod meta;

use super::markdown;
use super::node::{Fail, Finding, Level, Node, R};
use super::path::JsonPath;
use super::raw;
use super::sanitize::clean;
use crate::model::{Block, Check, Figure, Lesson, Source};
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

/// Lists and quotes nested deeper than this are flattened, so hostile
/// input cannot blow the stack in later recursive stages.
pub(super) const MAX_DEPTH: usize = 24;

pub(super) struct Converted {
    pub(super) lesson: Lesson,
    pub(super) findings: Vec<Finding>,
}

/// The findings collected while converting one lesson.
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

/// The lesson in `root`; `raw_blocks` are the items of `reader.blocks`,
/// left unparsed by [`super::parse`] (`root` then has them as `[]`).
pub(super) fn lesson(root: &Value, raw_blocks: Option<&[&RawValue]>) -> R<Converted> {
    let root = Node::root(root);
    root.obj()?;
    let mut cx = Cx::default();
    let course: raw::Course = typed(&root.req("course", "an object with `slug` and `title`")?)?;
    let info: raw::LessonInfo = typed(&root.req("lesson", "an object with `slug` and `title`")?)?;
    let reader = reader(&root, &mut cx)?;
    let meta = meta::meta(&root, reader.as_ref(), course, info)?;
    let body = match &reader {
        Some(r) => {
            let mut body = reader_body(r, raw_blocks, &mut cx)?;
            // A reader of only a module or a check: the markdown body is
            // still the lesson's text. (A reader with blocks and a body is
            // the format's fallback for older readers: both are meant.)
            if r.get("blocks").is_none() && root.get("body").is_some() {
                body.blocks = markdown_body(&root, &mut cx)?.blocks;
            }
            body
        }
        None => markdown_body(&root, &mut cx)?,
    };
    let check = match body.check {
        Some(c) => Some(c),
        None => match root.get("check") {
            Some(c) => Some(check::plain(&c, &mut cx)?),
            None => None,
        },
    };
    if let Some(c) = &check {
        let at = match &reader {
            Some(r) if r.get("check").is_some() => r.path().key("check").key("options"),
            _ => JsonPath::default().key("check").key("options"),
        };
        check::validate(c, &at, &mut cx);
    }
    Ok(Converted {
        lesson: Lesson {
            meta,
            source: body.source,
            hero: body.hero,
            blocks: body.blocks,
            checks: check.into_iter().collect(),
        },
        findings: cx.findings,
    })
}

/// The `reader` tree when its schema is one this version reads; any other
/// schema falls back to the markdown body, with a warning.
fn reader<'a, 's>(root: &'s Node<'a, '_>, cx: &mut Cx) -> R<Option<Node<'a, 's>>> {
    let Some(r) = root.get("reader") else {
        return Ok(None);
    };
    r.obj()?;
    let schema = r.get("schema").map(|s| s.v);
    if schema.and_then(Value::as_u64) == Some(1) {
        return Ok(Some(r));
    }
    let shown = match schema {
        None => "no".to_string(),
        Some(s) => format!("unknown ({s})"),
    };
    cx.warn(
        &r.path().key("schema"),
        format!("{shown} reader schema; falling back to the markdown body"),
    );
    Ok(None)
}

/// What the lesson shows, from one of its two sources.
struct Body {
    source: Source,
    hero: Option<Figure>,
    blocks: Vec<Block>,
    check: Option<Check>,
}

fn reader_body(r: &Node, raw_blocks: Option<&[&RawValue]>, cx: &mut Cx) -> R<Body> {
    let hero = match r.get("hero") {
        Some(h) => Some(figure::hero(&h, cx)?),
        None => None,
    };
    let blocks = match (r.get("blocks"), raw_blocks) {
        (Some(b), Some(raw)) => blocks::unparsed(&b, raw, cx)?,
        (Some(b), None) => blocks::blocks(&b, cx, 0)?,
        (None, _) => Vec::new(),
    };
    let check = match r.get("check") {
        Some(c) => Some(check::rich(&c, cx)?),
        None => None,
    };
    Ok(Body {
        source: Source::Reader,
        hero,
        blocks,
        check,
    })
}

fn markdown_body(root: &Node, cx: &mut Cx) -> R<Body> {
    let body = root.req(
        "body",
        "an object with markdown `text` (or a `reader` tree)",
    )?;
    let raw: raw::Body = typed(&body)?;
    if let Some(f) = raw.format.as_ref().filter(|f| f.0 != "markdown") {
        cx.warn(
            &root.path().key("body").key("format"),
            format!("body format `{}` read as markdown", f.0),
        );
    }
    Ok(Body {
        source: Source::Markdown,
        hero: None,
        // Checked a string by `typed`.
        blocks: markdown::parse(&clean(
            body.get("text").and_then(|t| t.v.as_str()).unwrap_or(""),
        )),
        check: None,
    })
}
