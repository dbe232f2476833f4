//! One line of a device's log: a record (the change, the device that made
//! it, its place in that device's log, its time) as one line of JSON, a
//! tab, and the CRC-32 of the JSON in hex:
//!
//! ```text
//! {"seq":12,"device":"3f9a…","at":"2026-03-01T09:00:00.007Z","change":{…}}<TAB>1a2b3c4d
//! ```
//!
//! A line that is cut short, glued to another, or changed in transit fails
//! its checksum and is skipped (and counted), never half-applied. Every
//! string a record brings is made safe for a terminal here, once, as the
//! loader does for lessons: another machine's log is content like any
//! other.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::model::Change;
use crate::model::sanitize;

/// The longest line read: far past any change a learner makes (a note of
/// a few pages), and a bound on what a hostile file can make lectern hold.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// The longest device name kept, in characters.
const MAX_NAME: usize = 40;

/// A record, as made here or read from a log and checked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    pub device: String,
    /// Its place in its device's log, from 1: the device's order of its
    /// own changes, whatever its clock said.
    pub seq: i64,
    /// When it was made (Unix milliseconds): the change's own time, or
    /// the time it was written for a change that keeps none.
    pub at_ms: i64,
    /// A rating's attempt: that attempt's `seq` in the same device's log.
    pub of: Option<i64>,
    pub body: Body,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Body {
    Change(Change),
    /// The learner named the device (`lectern sync --name`).
    Name(String),
}

/// What a line of a log turned out to be.
#[derive(Debug)]
pub(crate) enum Line {
    Record(Box<Record>),
    /// Cut, glued to another, changed in transit: its checksum fails.
    Damaged,
    /// Whole and checked, but not a record this lectern knows (a newer
    /// one's change).
    Unknown,
}

#[derive(Serialize)]
struct Out<'a> {
    seq: i64,
    device: &'a str,
    at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    of: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<&'a Change>,
}

#[derive(Deserialize)]
struct In<'a> {
    seq: i64,
    device: String,
    at: String,
    #[serde(default)]
    of: Option<i64>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default, borrow)]
    change: Option<&'a RawValue>,
}

impl Record {
    /// The record as JSON (what the store keeps of its own records, and
    /// a log line before its checksum).
    pub(crate) fn to_json(&self) -> String {
        let (name, change) = match &self.body {
            Body::Change(c) => (None, Some(c)),
            Body::Name(n) => (Some(n.as_str()), None),
        };
        let out = Out {
            seq: self.seq,
            device: &self.device,
            at: instant(self.at_ms),
            of: self.of,
            name,
            change,
        };
        // Strings and numbers only: serialising cannot fail.
        serde_json::to_string(&out).unwrap_or_default()
    }
}

/// A line of a log, `json` and its checksum, ended.
pub(crate) fn line(json: &str) -> String {
    format!("{json}\t{:08x}\n", crc32fast::hash(json.as_bytes()))
}

/// One line of a log (without its `\n`; a `\r` before it, as a sync tool
/// converting line ends leaves, is taken off).
pub(crate) fn decode(bytes: &[u8]) -> Line {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.len() > MAX_LINE {
        return Line::Damaged;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Line::Damaged;
    };
    let Some((json, sum)) = text.rsplit_once('\t') else {
        return Line::Damaged;
    };
    let sum_ok = sum.len() == 8
        && u32::from_str_radix(sum, 16).is_ok_and(|s| s == crc32fast::hash(json.as_bytes()));
    if !sum_ok {
        return Line::Damaged;
    }
    checked(json).map_or(Line::Unknown, |r| Line::Record(Box::new(r)))
}

/// The record a checked line holds, if it is one this lectern knows.
fn checked(json: &str) -> Option<Record> {
    let r: In<'_> = serde_json::from_str(json).ok()?;
    if r.seq < 1 || !valid_device(&r.device) || r.of.is_some_and(|of| of < 1 || of >= r.seq) {
        return None;
    }
    let at_ms = DateTime::parse_from_rfc3339(&r.at).ok()?.timestamp_millis();
    let body = match (r.change, r.name) {
        (Some(raw), None) => Body::Change(clean_change(raw.get())?),
        (None, Some(name)) => Body::Name(name_of(&name)?),
        _ => return None,
    };
    Some(Record {
        device: r.device,
        seq: r.seq,
        at_ms,
        of: r.of,
        body,
    })
}

/// A change read from another machine's log, every string of it made
/// safe for a terminal (tabs and newlines kept: a note has lines).
fn clean_change(json: &str) -> Option<Change> {
    // Most lines hold nothing to clean: no escape, no unsafe character.
    if !json.contains('\\') && matches!(sanitize::clean(json), std::borrow::Cow::Borrowed(_)) {
        return serde_json::from_str(json).ok();
    }
    let mut value: Value = serde_json::from_str(json).ok()?;
    clean_strings(&mut value);
    serde_json::from_value(value).ok()
}

fn clean_strings(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(clean) = sanitize::clean(s) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(clean_strings),
        Value::Object(map) => map.values_mut().for_each(clean_strings),
        _ => {}
    }
}

/// A device's name as shown: one line, made safe, at most [`MAX_NAME`]
/// characters; `None` when nothing is left of it.
pub(crate) fn name_of(name: &str) -> Option<String> {
    let clean = sanitize::clean(name);
    let words: Vec<&str> = clean.split_whitespace().collect();
    let name: String = words.join(" ").chars().take(MAX_NAME).collect();
    (!name.is_empty()).then_some(name)
}

/// A device id as lectern makes them (16 hex digits), or any of up to 64
/// lower-case letters, digits, `-` and `_`: it names a file and is shown.
pub(crate) fn valid_device(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// Unix milliseconds as RFC 3339 text, to the millisecond.
fn instant(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LessonKey;

    fn record(body: Body) -> Record {
        Record {
            device: "3f9a".into(),
            seq: 7,
            at_ms: 1_772_355_600_007,
            of: None,
            body,
        }
    }

    fn read_back(r: &Record) -> Line {
        let l = line(&r.to_json());
        decode(l.strip_suffix('\n').unwrap().as_bytes())
    }

    #[test]
    fn a_record_is_one_checked_line_and_reads_back() {
        let r = record(Body::Change(Change::Read {
            key: LessonKey::new("c", "l\nx"),
        }));
        let l = line(&r.to_json());
        assert_eq!(l.matches('\n').count(), 1, "{l}");
        assert!(l.starts_with(r#"{"seq":7,"device":"3f9a","at":"2026-03-01T09:00:00.007Z""#));
        assert!(matches!(read_back(&r), Line::Record(back) if *back == r));
        let named = record(Body::Name("laptop".into()));
        assert!(matches!(read_back(&named), Line::Record(back) if *back == named));
    }

    #[test]
    fn a_cut_or_changed_line_is_damaged_and_a_crlf_is_taken_off() {
        let r = record(Body::Name("laptop".into()));
        let l = line(&r.to_json());
        let whole = l.trim_end().as_bytes();
        for cut in 0..whole.len() {
            assert!(matches!(decode(&whole[..cut]), Line::Damaged), "{cut}");
        }
        let changed = l.trim_end().replace("laptop", "lapt0p");
        assert!(matches!(decode(changed.as_bytes()), Line::Damaged));
        let crlf = format!("{}\r", l.trim_end());
        assert!(matches!(decode(crlf.as_bytes()), Line::Record(_)));
    }

    #[test]
    fn a_newer_lecterns_change_is_unknown_not_damaged() {
        let json = r#"{"seq":3,"device":"ab","at":"2026-03-01T09:00:00.000Z","change":{"change":"hologram"}}"#;
        assert!(matches!(
            decode(line(json).trim_end().as_bytes()),
            Line::Unknown
        ));
        let bad_device = r#"{"seq":3,"device":"../x","at":"2026-03-01T09:00:00.000Z","name":"x"}"#;
        assert!(matches!(
            decode(line(bad_device).trim_end().as_bytes()),
            Line::Unknown
        ));
    }

    #[test]
    fn strings_from_another_machine_are_made_safe() {
        let json = r#"{"seq":3,"device":"ab","at":"2026-03-01T09:00:00.000Z","change":{"change":"read","course":"c\u001b]0;x\u0007","lesson":"l"}}"#;
        let Line::Record(r) = decode(line(json).trim_end().as_bytes()) else {
            panic!("a record");
        };
        let Body::Change(Change::Read { key }) = r.body else {
            panic!("a read");
        };
        assert!(sanitize::is_clean(&key.course), "{:?}", key.course);
        assert_eq!(name_of("  lap\u{1b}top\n two "), Some("lap␛top two".into()));
        assert_eq!(name_of(" \n "), None);
    }
}
