//! Bytes → the lesson's JSON, without a tree of the whole file: the top
//! level and the `reader` object are parsed into values, but the blocks
//! of `reader.blocks` are kept as slices of the text ([`RawValue`]) and
//! parsed one at a time as they are converted. A tree of serde_json
//! values costs 40-50 bytes per byte of tiny blocks (a map per object);
//! one block's tree at a time costs nothing that grows with the file.

use super::node;
use super::path;
use crate::model::{Diagnostic, Severity};
use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::fmt;

/// The file's top level, with `reader.blocks` (when it is an array) an
/// empty array whose items are in `blocks`.
pub(super) struct Parsed<'a> {
    pub(super) root: Value,
    pub(super) blocks: Option<Vec<&'a RawValue>>,
}

/// An object's fields in file order, their values unparsed.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    out.push(entry);
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// A diagnostic of the file's syntax, at 1-based `line` and `column`.
fn at(name: &str, line: usize, column: usize, message: String) -> Diagnostic {
    Diagnostic {
        file: name.to_string(),
        line: line.max(1),
        column: column.max(1),
        path: None,
        severity: Severity::Error,
        message,
    }
}

/// What serde_json's error means to the author.
pub(super) fn wording(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let msg = e.to_string();
    let detail = msg.split(" at line ").next().unwrap_or(&msg);
    match e.classify() {
        Category::Eof => format!("truncated JSON: {detail}"),
        _ if detail.contains("recursion limit") => {
            "nesting too deep: JSON nested over 128 levels is refused".to_string()
        }
        _ => format!("invalid JSON: {detail}"),
    }
}

/// The lesson file `text` (UTF-8, no BOM) as far as [`Parsed`] goes.
pub(super) fn parse<'a>(name: &str, text: &'a str) -> Result<Parsed<'a>, Diagnostic> {
    let fields: Fields = match serde_json::from_str(text) {
        Ok(f) => f,
        Err(_) => {
            // Not an object, or broken: a tree of the whole value says it
            // as before (nesting too deep is found only so; slices are
            // skipped without a depth limit). Past the caps' count it is
            // small, and it stops at the fault.
            return Err(match serde_json::from_str::<Value>(text) {
                Ok(v) => at(
                    name,
                    1,
                    1,
                    format!(
                        "expected a JSON object at the top level, found {}",
                        node::kind_of(&v)
                    ),
                ),
                Err(e) => at(name, e.line(), e.column(), wording(&e)),
            });
        }
    };
    let mut root = Map::new();
    let mut blocks = None;
    for (key, raw) in fields.0 {
        let value = if key == "reader" {
            reader(name, text, raw, &mut blocks)?
        } else {
            value(name, text, raw)?
        };
        root.insert(key, value);
    }
    Ok(Parsed {
        root: Value::Object(root),
        blocks,
    })
}

/// The `reader` object, its blocks (when an array) left in `blocks`.
fn reader<'a>(
    name: &str,
    text: &'a str,
    raw: &'a RawValue,
    blocks: &mut Option<Vec<&'a RawValue>>,
) -> Result<Value, Diagnostic> {
    *blocks = None;
    let Ok(fields) = serde_json::from_str::<Fields>(raw.get()) else {
        return value(name, text, raw);
    };
    let mut out = Map::new();
    for (key, raw) in fields.0 {
        let items = (key == "blocks")
            .then(|| serde_json::from_str::<Vec<&RawValue>>(raw.get()).ok())
            .flatten();
        let v = match items {
            Some(items) => {
                // A later `blocks` key wins, as in a tree.
                *blocks = Some(items);
                Value::Array(Vec::new())
            }
            None => value(name, text, raw)?,
        };
        out.insert(key, v);
    }
    Ok(Value::Object(out))
}

/// `raw`, a slice of `text` whose syntax was checked, as a value. What
/// can still fail is the nesting limit, said where the slice starts.
pub(super) fn value(name: &str, text: &str, raw: &RawValue) -> Result<Value, Diagnostic> {
    serde_json::from_str(raw.get()).map_err(|e| {
        let (line, column) = path::line_col(text.as_bytes(), offset(text, raw));
        at(name, line, column, wording(&e))
    })
}

/// Where `raw` starts in `text`, which it is a slice of.
pub(super) fn offset(text: &str, raw: &RawValue) -> usize {
    (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}
