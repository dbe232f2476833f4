//! Bytes → the lesson's JSON, without a tree of the whole file (past
//! [`TREE_BELOW`]): the top level and the `reader` object are parsed
//! into values in one pass, but the blocks of `reader.blocks` are kept
//! as slices of the text ([`RawValue`]) and parsed one at a time as they
//! are converted. A tree of serde_json
//! values costs 40-50 bytes per byte of tiny blocks (a map per object);
//! one block's tree at a time costs nothing that grows with the file.

use super::node;
use crate::model::{Diagnostic, Severity};
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::fmt;

/// The file's top level, with `reader.blocks` (when it is an array) an
/// empty array whose items are in `blocks`.
pub(super) struct Parsed<'a> {
    pub(super) root: Value,
    pub(super) blocks: Option<Vec<&'a RawValue>>,
}

/// The top level, in one pass: every field a value but `reader`.
struct Top<'a>(Parsed<'a>);

impl<'de> Deserialize<'de> for Top<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Top<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
                let (mut root, mut blocks) = (Map::new(), None);
                while let Some(key) = map.next_key::<String>()? {
                    let value = if key == "reader" {
                        let reader: Reader = map.next_value()?;
                        // A later `reader` wins, as in a tree.
                        blocks = reader.blocks;
                        reader.value
                    } else {
                        map.next_value()?
                    };
                    root.insert(key, value);
                }
                Ok(Top(Parsed {
                    root: Value::Object(root),
                    blocks,
                }))
            }
        }
        d.deserialize_map(V)
    }
}

/// The scalar visits of a value kept only as its kind: `$make` of a
/// value of that kind.
macro_rules! kinds {
    ($out:ty, $make:expr) => {
        fn visit_unit<E>(self) -> Result<$out, E> {
            Ok($make(Value::Null))
        }
        fn visit_bool<E>(self, b: bool) -> Result<$out, E> {
            Ok($make(Value::Bool(b)))
        }
        fn visit_i64<E>(self, n: i64) -> Result<$out, E> {
            Ok($make(n.into()))
        }
        fn visit_u64<E>(self, n: u64) -> Result<$out, E> {
            Ok($make(n.into()))
        }
        fn visit_f64<E>(self, n: f64) -> Result<$out, E> {
            Ok($make(n.into()))
        }
        fn visit_str<E>(self, _: &str) -> Result<$out, E> {
            Ok($make(Value::String(String::new())))
        }
    };
}

/// `reader.blocks`: when an array, its items as slices of the text, split
/// in the same pass; anything else only as its kind.
struct Blocks<'a> {
    value: Value,
    items: Option<Vec<&'a RawValue>>,
}

impl<'de> Deserialize<'de> for Blocks<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Blocks<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blocks<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<&RawValue>()? {
                    items.push(item);
                }
                Ok(Blocks {
                    value: Value::Array(Vec::new()),
                    items: Some(items),
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Blocks<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Blocks::kind(Value::Object(Map::new())))
            }
            kinds!(Blocks<'de>, Blocks::kind);
        }
        d.deserialize_any(V)
    }
}

impl Blocks<'_> {
    fn kind(value: Value) -> Self {
        Blocks { value, items: None }
    }
}

/// The `reader` field: an object's fields as values but `blocks`, kept as
/// slices when it is an array. Anything else only as its kind, which is
/// all the converter says of it (`expected an object, found ...`).
struct Reader<'a> {
    value: Value,
    blocks: Option<Vec<&'a RawValue>>,
}

impl<'de> Deserialize<'de> for Reader<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Reader<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Reader<'de>, A::Error> {
                let (mut out, mut blocks) = (Map::new(), None);
                while let Some(key) = map.next_key::<String>()? {
                    let value = if key == "blocks" {
                        let b: Blocks = map.next_value()?;
                        blocks = b.items;
                        b.value
                    } else {
                        map.next_value()?
                    };
                    out.insert(key, value);
                }
                Ok(Reader {
                    value: Value::Object(out),
                    blocks,
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Reader<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Reader::kind(Value::Array(Vec::new())))
            }
            kinds!(Reader<'de>, Reader::kind);
        }
        d.deserialize_any(V)
    }
}

impl Reader<'_> {
    fn kind(value: Value) -> Self {
        Reader {
            value,
            blocks: None,
        }
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

/// Files under this size are parsed into one tree, as they always were:
/// the slices cost more passes over the blocks (the 14 KB fixture lesson
/// loaded in 1.2-1.4 ms instead of 0.7-1.0, debug build on a busy
/// machine), which the first frame of a named lesson would pay, and the
/// tree of such a file is at most about 3 MB.
const TREE_BELOW: usize = 64 * 1024;

/// The lesson file `text` (UTF-8, no BOM) as far as [`Parsed`] goes: past
/// [`TREE_BELOW`], one pass over the file and two more over the blocks
/// (split, then each parsed as it is converted).
pub(super) fn parse<'a>(name: &str, text: &'a str) -> Result<Parsed<'a>, Diagnostic> {
    parse_as(name, text, text.len() < TREE_BELOW)
}

pub(super) fn parse_as<'a>(
    name: &str,
    text: &'a str,
    tree: bool,
) -> Result<Parsed<'a>, Diagnostic> {
    if tree {
        return match serde_json::from_str::<Value>(text) {
            Ok(root) if root.is_object() => Ok(Parsed { root, blocks: None }),
            Ok(v) => Err(not_an_object(name, &v)),
            Err(e) => Err(at(name, e.line(), e.column(), wording(&e))),
        };
    }
    match serde_json::from_str::<Top>(text) {
        Ok(top) => Ok(top.0),
        Err(e) if e.classify() != serde_json::error::Category::Data => {
            Err(at(name, e.line(), e.column(), wording(&e)))
        }
        Err(_) => {
            // Not an object (or a fault a tree words better): the whole
            // value says what it is. Past the caps' count it is small, and
            // a tree stops at the fault.
            Err(match serde_json::from_str::<Value>(text) {
                Ok(v) => not_an_object(name, &v),
                Err(e) => at(name, e.line(), e.column(), wording(&e)),
            })
        }
    }
}

fn not_an_object(name: &str, v: &Value) -> Diagnostic {
    let kind = node::kind_of(v);
    at(
        name,
        1,
        1,
        format!("expected a JSON object at the top level, found {kind}"),
    )
}
