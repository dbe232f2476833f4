//! Every type error of a JSON lesson, for `lint`: the reader stops at the
//! first (`"title": 42` is enough to show the lesson's error page), but an
//! author wants them all in one run, with the typo warnings behind them.
//!
//! After each error the field is given a value of the kind it should have
//! (an empty string, 0, false, [], {}), or taken out when that does not
//! do, and the lesson is converted again: the next error comes from the
//! next field, and once none is left, the warnings of the whole file.

use super::node::Fail;
use super::path::{JsonPath, Seg};
use super::{Diagnostic, Severity, convert, located, parse_json};
use serde_json::Value;

/// Errors one file may report: past this, its author has enough to do.
const MAX_ERRORS: usize = 50;

/// Every error (then every warning) of the JSON lesson `bytes`.
pub(crate) fn every_problem(name: &str, bytes: &[u8]) -> Vec<Diagnostic> {
    let mut root = match parse_json(name, bytes, Some(true)) {
        Ok(parsed) => parsed.root,
        Err(d) => return vec![d],
    };
    let mut out = Vec::new();
    let mut tried: Vec<JsonPath> = Vec::new();
    for _ in 0..MAX_ERRORS {
        match convert::lesson(&root, None) {
            Ok(converted) => {
                out.extend(super::diagnostics(name, bytes, &converted.findings));
                return out;
            }
            Err(fail) => {
                out.push(located(
                    name,
                    bytes,
                    &fail.path,
                    Severity::Error,
                    fail.message.clone(),
                ));
                // Met twice: the value given was no better; taken out.
                let again = tried.contains(&fail.path);
                tried.push(fail.path.clone());
                if !mend(&mut root, &fail, again) {
                    return out;
                }
            }
        }
    }
    out
}

/// A value of the kind `message` expects, if it names one.
fn expected(message: &str) -> Option<Value> {
    let m = message.to_lowercase();
    let at = m.find("expected")?;
    let want = &m[at..];
    let kinds: [(&str, Value); 8] = [
        ("string", Value::String(String::new())),
        ("integer", Value::from(0)),
        ("number", Value::from(0)),
        (" u", Value::from(0)),
        (" i", Value::from(0)),
        ("bool", Value::Bool(false)),
        ("array", Value::Array(Vec::new())),
        ("object", Value::Object(serde_json::Map::new())),
    ];
    kinds
        .into_iter()
        .filter_map(|(k, v)| want.find(k).map(|i| (i, v)))
        .min_by_key(|(i, _)| *i)
        .map(|(_, v)| v)
}

/// The field `fail` is about, given a value of the kind its message
/// expects, or taken out (when `again`, or when no kind is named); a field
/// said to be missing is given, empty. False when nothing could change.
fn mend(root: &mut Value, fail: &Fail, again: bool) -> bool {
    let Some((last, parent)) = fail.path.0.split_last() else {
        return false;
    };
    let Some(holder) = walk(root, parent) else {
        return false;
    };
    if let Some(missing) = missing_field(&fail.message) {
        // Missing from the object at the path (or from its holder).
        let inside = matches!(walk_one(holder, last), Some(Value::Object(_)));
        let target = if inside {
            walk_one(holder, last)
        } else {
            Some(holder)
        };
        return match target {
            Some(Value::Object(map)) if !again && !map.contains_key(&missing) => {
                map.insert(missing, Value::String(String::new()));
                true
            }
            _ => false,
        };
    }
    if !again {
        if let (Some(slot), Some(v)) = (walk_one(holder, last), expected(&fail.message)) {
            if *slot != v {
                *slot = v;
                return true;
            }
        }
    }
    match (holder, last) {
        (Value::Object(map), Seg::Key(k)) => map.remove(k).is_some(),
        (Value::Array(items), Seg::Index(i)) if *i < items.len() => {
            items.remove(*i);
            true
        }
        _ => false,
    }
}

fn missing_field(message: &str) -> Option<String> {
    let rest = message.split("missing field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

fn walk_one<'a>(v: &'a mut Value, seg: &Seg) -> Option<&'a mut Value> {
    match (v, seg) {
        (Value::Object(map), Seg::Key(k)) => map.get_mut(k),
        (Value::Array(items), Seg::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

fn walk<'a>(mut v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    for seg in path {
        v = walk_one(v, seg)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_error_and_the_typos_behind_them_in_one_run() {
        let text = r#"{
  "course": {"slug": "c", "title": "C"},
  "lesson": {"slug": "l", "title": 42, "position": "x"},
  "body": {"format": "markdown", "text": "Hello"},
  "check": {"question": "Q?", "options": [
    {"text": "A", "correct": true, "why": "yes"},
    {"text": "B", "temptng": "typo"}
  ]}
}"#;
        let all = every_problem("l.json", text.as_bytes());
        let said: Vec<String> = all
            .iter()
            .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
            .collect();
        let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
        assert!(errors >= 2, "{said:#?}");
        assert!(said.iter().any(|s| s.starts_with("3:")), "{said:#?}");
        assert!(
            all.iter()
                .any(|d| d.severity == Severity::Warning && d.message.contains("temptng")),
            "{said:#?}"
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_its_one_error() {
        let all = every_problem("l.json", b"{ not json");
        assert_eq!(all.len(), 1);
    }
}
