//! A cursor over a parsed JSON value that knows its own path, so every
//! type error names the field it is about.

use super::path::{JsonPath, Seg};
use super::sanitize::clean_owned;
use serde_json::{Map, Value};

/// Why a lesson could not be loaded: the field, and what was expected.
#[derive(Debug, Clone, PartialEq)]
pub struct Fail {
    pub path: JsonPath,
    pub message: String,
}

pub type R<T> = Result<T, Fail>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Warning,
    Error,
}

/// Something `lint` reports that does not stop the lesson from loading.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub level: Level,
    pub path: JsonPath,
    pub message: String,
}

pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value and the way to it from the root. The way is kept as a chain of
/// borrowed steps and spelled out as a [`JsonPath`] only when something
/// is reported: walking a lesson allocates nothing for paths.
#[derive(Clone, Copy)]
pub struct Node<'a, 'p> {
    pub v: &'a Value,
    at: Step<'p>,
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Root,
    Key(&'p Step<'p>, &'p str),
    Index(&'p Step<'p>, usize),
}

impl Step<'_> {
    fn push_onto(&self, path: &mut JsonPath) {
        match *self {
            Step::Root => {}
            Step::Key(parent, key) => {
                parent.push_onto(path);
                path.0.push(Seg::Key(key.to_string()));
            }
            Step::Index(parent, i) => {
                parent.push_onto(path);
                path.0.push(Seg::Index(i));
            }
        }
    }
}

impl<'a, 'p> Node<'a, 'p> {
    pub fn root(v: &'a Value) -> Self {
        Node { v, at: Step::Root }
    }

    /// Where this value is, as reported to the user.
    pub fn path(&self) -> JsonPath {
        let mut path = JsonPath::default();
        self.at.push_onto(&mut path);
        path
    }

    pub fn fail(&self, expected: &str) -> Fail {
        Fail {
            path: self.path(),
            message: format!("expected {expected}, found {}", kind_of(self.v)),
        }
    }

    pub fn obj(&self) -> R<&'a Map<String, Value>> {
        self.v.as_object().ok_or_else(|| self.fail("an object"))
    }

    /// The field `key`, treating `null` like absence.
    pub fn get<'s>(&'s self, key: &'s str) -> Option<Node<'a, 's>> {
        match self.v.as_object()?.get(key)? {
            Value::Null => None,
            v => Some(Node {
                v,
                at: Step::Key(&self.at, key),
            }),
        }
    }

    pub fn req<'s>(&'s self, key: &'s str, expected: &str) -> R<Node<'a, 's>> {
        self.get(key).ok_or_else(|| Fail {
            path: self.path().key(key),
            message: format!("missing required field `{key}` (expected {expected})"),
        })
    }

    pub fn str(&self) -> R<String> {
        self.v
            .as_str()
            .map(clean_owned)
            .ok_or_else(|| self.fail("a string"))
    }

    pub fn opt_str(&self, key: &str) -> R<Option<String>> {
        self.get(key).map(|n| n.str()).transpose()
    }

    pub fn req_str(&self, key: &str) -> R<String> {
        self.req(key, "a string")?.str()
    }

    pub fn opt_bool(&self, key: &str) -> R<Option<bool>> {
        self.get(key)
            .map(|n| n.v.as_bool().ok_or_else(|| n.fail("true or false")))
            .transpose()
    }

    pub fn opt_u64(&self, key: &str) -> R<Option<u64>> {
        self.get(key)
            .map(|n| n.v.as_u64().ok_or_else(|| n.fail("a whole number")))
            .transpose()
    }

    pub fn arr<'s>(&'s self) -> R<Vec<Node<'a, 's>>> {
        let items = self.v.as_array().ok_or_else(|| self.fail("an array"))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| Node {
                v,
                at: Step::Index(&self.at, i),
            })
            .collect())
    }

    /// `v` as item `i` of this array (an item parsed on its own).
    pub fn item<'v, 's>(&'s self, v: &'v Value, i: usize) -> Node<'v, 's> {
        Node {
            v,
            at: Step::Index(&self.at, i),
        }
    }

    /// Fields of this object that are not in `known`, with their text.
    pub fn extra_fields(&self, known: &[&str]) -> Vec<(String, Vec<String>)> {
        let Some(map) = self.v.as_object() else {
            return Vec::new();
        };
        map.iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (clean_owned(k), strings_in_order(v, &[])))
            .collect()
    }
}

/// Every string held by `v`, depth first in document order, skipping the
/// object keys in `skip_keys` at the top level. The loader keeps the text
/// of content it does not understand this way.
pub fn strings_in_order(v: &Value, skip_keys: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    // Explicit stack: serde_json already caps nesting, but an explicit
    // stack keeps this independent of that limit.
    let mut stack: Vec<&Value> = match v {
        Value::Object(m) => m
            .iter()
            .rev()
            .filter(|(k, _)| !skip_keys.contains(&k.as_str()))
            .map(|(_, v)| v)
            .collect(),
        other => vec![other],
    };
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if !s.trim().is_empty() => out.push(clean_owned(s)),
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(m) => stack.extend(m.values().rev()),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_keep_document_order() {
        let v = json!({"t": "callout", "tone": "tip", "body": [{"text": "one"}, {"text": "two"}], "n": 3});
        assert_eq!(strings_in_order(&v, &["t"]), ["tip", "one", "two"]);
    }

    #[test]
    fn type_errors_name_the_path() {
        let v = json!({"a": {"b": [1, "x"]}});
        let root = Node::root(&v);
        let a = root.get("a").unwrap();
        let b = a.get("b").unwrap();
        let err = b.arr().unwrap()[0].str().unwrap_err();
        assert_eq!(err.path.to_string(), "a.b[0]");
        assert_eq!(err.message, "expected a string, found a number");
        let missing = root.req_str("zzz").unwrap_err();
        assert!(missing.message.contains("missing required field `zzz`"));
    }

    #[test]
    fn strings_are_sanitised() {
        let v = json!({"s": "a\u{1b}[31mb"});
        assert_eq!(Node::root(&v).req_str("s").unwrap(), "a\u{241b}[31mb");
    }
}
