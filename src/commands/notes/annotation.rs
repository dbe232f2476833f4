//! Notes as W3C Web Annotation JSON-LD, and back: a collection of
//! annotations, each targeting its lesson's file with a
//! `TextQuoteSelector` and a `TextPositionSelector`; what the model has
//! besides (course, lesson, block path, status, and for a note that is a
//! review card its grades) under `lectern`.

use crate::model::anchor::{Selector, Status};
use crate::model::{Change, LessonKey};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

/// One annotation as exported: where it is now, and what it says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Exported {
    pub key: LessonKey,
    pub course_title: String,
    pub lesson_title: String,
    pub id: String,
    pub target: Selector,
    pub note: String,
    pub at: Option<DateTime<Utc>>,
    pub status: Status,
    /// The lesson's file (`builtin:NAME` for the guide's); empty when the
    /// lesson is not found.
    pub source: String,
    /// A review card: its grades, (when, 1 again to 4 easy), oldest first.
    pub card: Option<Vec<(DateTime<Utc>, u8)>>,
}

const CONTEXT: &str = "http://www.w3.org/ns/anno.jsonld";
/// An id as a URI, as the model asks: the note's own id under it.
const ID_PREFIX: &str = "urn:lectern:note:";
/// The most annotations read from one file.
const MAX_ITEMS: usize = 100_000;

pub(crate) fn to_json(notes: &[Exported]) -> Value {
    let items: Vec<Value> = notes.iter().map(item).collect();
    json!({
        "@context": CONTEXT,
        "type": "AnnotationCollection",
        "total": items.len(),
        "items": items,
    })
}

fn item(n: &Exported) -> Value {
    let t = &n.target;
    let mut v = json!({
        "id": format!("{ID_PREFIX}{}", n.id),
        "type": "Annotation",
        "motivation": if n.note.is_empty() { "highlighting" } else { "commenting" },
        "target": {
            "source": n.source,
            "selector": [
                {"type": "TextQuoteSelector", "exact": t.exact, "prefix": t.prefix, "suffix": t.suffix},
                {"type": "TextPositionSelector", "start": t.start, "end": t.end},
            ],
        },
        "lectern": {
            "course": n.key.course,
            "lesson": n.key.lesson,
            "block": t.block,
            "status": n.status.name(),
        },
    });
    if let Some(at) = n.at {
        v["created"] = json!(at.to_rfc3339_opts(SecondsFormat::Millis, true));
    }
    if let Some(grades) = &n.card {
        let grades: Vec<Value> = grades
            .iter()
            .map(|(at, rating)| {
                json!({"at": at.to_rfc3339_opts(SecondsFormat::Millis, true), "rating": rating})
            })
            .collect();
        v["lectern"]["card"] = json!({ "grades": grades });
    }
    if !n.note.is_empty() {
        v["body"] = json!([{"type": "TextualBody", "value": n.note, "format": "text/plain"}]);
    }
    v
}

/// The annotations of a collection (or of a list of them, or one alone)
/// as changes for the store; what one lacks is said with its place.
pub(crate) fn from_json(v: &Value) -> Result<Vec<Change>, String> {
    let items = match v {
        Value::Array(items) => items.as_slice(),
        Value::Object(o) if o.contains_key("items") => match &o["items"] {
            Value::Array(items) => items.as_slice(),
            _ => return Err("\"items\" is not a list".into()),
        },
        one @ Value::Object(_) => std::slice::from_ref(one),
        _ => return Err("not an annotation collection".into()),
    };
    if items.len() > MAX_ITEMS {
        return Err(format!("over {MAX_ITEMS} annotations"));
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let changes = change(item).map_err(|why| format!("annotation {}: {why}", i + 1))?;
        out.extend(changes);
    }
    Ok(out)
}

/// The grades of a review card's annotation, as changes.
fn grades(v: &Value, key: &LessonKey, id: &str) -> Vec<Change> {
    let list = v.pointer("/card/grades").and_then(Value::as_array);
    let grade = |g: &Value| {
        let at = DateTime::parse_from_rfc3339(g.get("at")?.as_str()?).ok()?;
        let rating = u8::try_from(g.get("rating")?.as_u64()?).ok()?;
        (1..=4).contains(&rating).then(|| Change::Grade {
            key: key.clone(),
            note: id.to_string(),
            rating,
            at: Some(at.with_timezone(&Utc)),
        })
    };
    list.into_iter().flatten().filter_map(grade).collect()
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// An annotation's change, and its grades' when it is a review card.
fn change(v: &Value) -> Result<Vec<Change>, String> {
    let ext = v.get("lectern").ok_or("no \"lectern\" course and lesson")?;
    let key = LessonKey::new(text(ext, "course"), text(ext, "lesson"));
    if key.course.is_empty() || key.lesson.is_empty() {
        return Err("no course or lesson under \"lectern\"".into());
    }
    let id = text(v, "id");
    let id = id.strip_prefix(ID_PREFIX).unwrap_or(&id).to_string();
    if id.is_empty() {
        return Err("no \"id\"".into());
    }
    let selectors = v
        .pointer("/target/selector")
        .and_then(Value::as_array)
        .ok_or("no target selector")?;
    let find = |kind: &str| selectors.iter().find(|s| text(s, "type") == kind);
    let quote = find("TextQuoteSelector").ok_or("no TextQuoteSelector")?;
    let number = |s: Option<&Value>, k: &str| {
        s.and_then(|s| s.get(k))
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(0)
    };
    let position = find("TextPositionSelector");
    let clean = crate::model::sanitize::clean_owned;
    let target = Selector {
        exact: clean(&text(quote, "exact")),
        prefix: clean(&text(quote, "prefix")),
        suffix: clean(&text(quote, "suffix")),
        start: number(position, "start"),
        end: number(position, "end"),
        block: number(Some(ext), "block"),
    };
    let note = v
        .pointer("/body/0/value")
        .and_then(Value::as_str)
        .map(clean)
        .unwrap_or_default();
    let at = v
        .get("created")
        .and_then(Value::as_str)
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&Utc));
    let card = ext.get("card").is_some_and(Value::is_object);
    let mut out = vec![Change::Annotation {
        key: key.clone(),
        id: id.clone(),
        target,
        note,
        card,
        deleted: false,
        at,
    }];
    if card {
        out.extend(grades(ext, &key, &id));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn exported(note: &str) -> Exported {
        Exported {
            key: LessonKey::new("rust-book", "ch04-01"),
            course_title: "The Book".into(),
            lesson_title: "Ownership".into(),
            id: "00ff-1".into(),
            target: Selector {
                exact: "a system of ownership".into(),
                prefix: "managed through ".into(),
                suffix: ".".into(),
                start: 120,
                end: 141,
                block: 3,
            },
            note: note.into(),
            at: Some(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()),
            status: Status::Moved,
            source: "/books/ch04-01.md".into(),
            card: None,
        }
    }

    #[test]
    fn an_export_reads_back_as_the_same_changes() {
        let mut card = exported("Why?\nAsk.");
        card.id = "00ff-2".into();
        let graded = Utc.with_ymd_and_hms(2026, 3, 2, 9, 0, 0).unwrap();
        card.card = Some(vec![(graded, 2)]);
        let notes = [exported("Why?\nAsk."), exported(""), card];
        let v = to_json(&notes);
        let text = serde_json::to_string(&v).unwrap();
        let back = from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        let want: Vec<Change> = notes
            .iter()
            .map(|n| Change::Annotation {
                key: n.key.clone(),
                id: n.id.clone(),
                target: n.target.clone(),
                note: n.note.clone(),
                card: n.card.is_some(),
                deleted: false,
                at: n.at,
            })
            .chain([Change::Grade {
                key: notes[2].key.clone(),
                note: "00ff-2".into(),
                rating: 2,
                at: Some(graded),
            }])
            .collect();
        assert_eq!(back, want);
        assert_eq!(v["items"][2]["lectern"]["card"]["grades"][0]["rating"], 2);
        assert_eq!(
            v["items"][0]["target"]["selector"][0]["type"],
            "TextQuoteSelector"
        );
        assert_eq!(v["items"][0]["lectern"]["status"], "moved");
        assert_eq!(v["items"][1]["motivation"], "highlighting");
    }

    #[test]
    fn an_annotation_without_its_lesson_is_refused_with_its_place() {
        let v = json!({"items": [{"id": "x", "target": {"selector": []}}]});
        let err = from_json(&v).unwrap_err();
        assert!(err.starts_with("annotation 1:"), "{err}");
    }
}
