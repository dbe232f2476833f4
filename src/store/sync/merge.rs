//! Folding what a look found into the store, in one transaction: each
//! record new to this machine made as it was made on its own, the files'
//! cursors moved on with it, the cards it moved built again.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::{Connection, TransactionBehavior, params};

use super::look::Look;
use super::record::{Body, Record};
use super::{Touched, keep, me};
use crate::model::Change;
use crate::store::time::from_ms;

/// What a merge brought to this machine.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The changes new to this machine, by device id.
    pub devices: BTreeMap<String, Brought>,
    /// Lines skipped: damaged in transit, or of a newer lectern.
    pub damaged: u32,
    pub unknown: u32,
    /// The courses whose progress changed.
    pub courses: BTreeSet<String>,
    /// Whether marks, notes or places changed.
    pub notes: bool,
    /// Why the folder could not be read, or the store not written.
    pub problem: Option<String>,
}

/// What came from one device.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Brought {
    /// The learner's name for it, if they gave one.
    pub name: Option<String>,
    pub answers: u32,
    pub ratings: u32,
    pub reveals: u32,
    pub rounds: u32,
    pub notes: u32,
    pub places: u32,
    pub read: u32,
    pub library: u32,
    /// The learner named it.
    pub names: u32,
}

impl Brought {
    /// The device's name, or its id's first digits.
    pub fn shown(&self, id: &str) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| id.chars().take(8).collect())
    }

    pub fn total(&self) -> u32 {
        self.answers
            + self.ratings
            + self.reveals
            + self.rounds
            + self.notes
            + self.places
            + self.read
            + self.library
            + self.names
    }

    /// "3 answers, 1 note": what it brought, most telling first.
    pub fn said(&self) -> String {
        let parts = [
            (self.answers, "answer", "answers"),
            (self.ratings, "rating", "ratings"),
            (self.reveals, "reveal", "reveals"),
            (self.rounds, "new round", "new rounds"),
            (self.notes, "note or mark", "notes and marks"),
            (self.read, "lesson read", "lessons read"),
            (self.places, "reading place", "reading places"),
            (self.library, "course opened", "courses opened"),
            (self.names, "new name", "new names"),
        ];
        let said: Vec<String> = parts
            .iter()
            .filter(|(n, ..)| *n > 0)
            .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect();
        said.join(", ")
    }

    fn count(&mut self, change: &Change) {
        let n = match change {
            Change::Attempt { .. } => &mut self.answers,
            Change::Rate { .. } => &mut self.ratings,
            Change::Reveal { .. } => &mut self.reveals,
            Change::Reset { .. } => &mut self.rounds,
            Change::Mark { .. } | Change::Annotation { .. } | Change::Grade { .. } => {
                &mut self.notes
            }
            Change::Read { .. } | Change::Completed { .. } => &mut self.read,
            Change::Remember { .. } => &mut self.library,
            Change::Place { .. } | Change::Position { .. } | Change::LastLesson { .. } => {
                &mut self.places
            }
            Change::Checks { .. } => return,
        };
        *n += 1;
    }
}

impl Merged {
    /// One line for the footer, when something came: "Merged from
    /// laptop: 2 answers, 1 note or mark."
    pub fn summary(&self) -> Option<String> {
        let parts: Vec<String> = self
            .devices
            .iter()
            .filter(|(_, b)| b.total() > 0)
            .map(|(id, b)| format!("from {}: {}", b.shown(id), b.said()))
            .collect();
        (!parts.is_empty()).then(|| format!("Merged {}.", parts.join("; ")))
    }

    /// Changes new to this machine, from every device.
    pub fn total(&self) -> u32 {
        self.devices.values().map(Brought::total).sum()
    }

    /// The merges of several looks, as one.
    pub fn add(&mut self, other: Merged) {
        for (id, from) in other.devices {
            let mine = self.devices.entry(id).or_default();
            mine.name = from.name.or(mine.name.take());
            mine.answers += from.answers;
            mine.ratings += from.ratings;
            mine.reveals += from.reveals;
            mine.rounds += from.rounds;
            mine.notes += from.notes;
            mine.places += from.places;
            mine.read += from.read;
            mine.library += from.library;
            mine.names += from.names;
        }
        self.damaged += other.damaged;
        self.unknown += other.unknown;
        self.courses.extend(other.courses);
        self.notes |= other.notes;
        self.problem = other.problem.or(self.problem.take());
    }

    fn count(&mut self, device: &str, change: &Change) {
        self.devices
            .entry(device.to_owned())
            .or_default()
            .count(change);
        match change {
            Change::Mark { .. } | Change::Place { .. } => self.notes = true,
            // A question note is a review card of its lesson's course.
            Change::Annotation { key, .. } | Change::Grade { key, .. } => {
                self.notes = true;
                self.courses.insert(key.course.clone());
            }
            Change::Reset { course, .. } | Change::Remember { slug: course, .. } => {
                self.courses.insert(course.clone());
            }
            Change::Attempt { key, .. }
            | Change::Rate { key, .. }
            | Change::Reveal { key, .. }
            | Change::Read { key }
            | Change::Completed { key }
            | Change::Position { key, .. }
            | Change::LastLesson { key }
            | Change::Checks { key, .. } => {
                self.courses.insert(key.course.clone());
            }
        }
    }
}

/// Merges `look` into the store at `conn`.
pub(crate) fn merge(conn: &mut Connection, look: &Look) -> rusqlite::Result<Merged> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let me = me(&tx)?;
    let mut records: Vec<&Record> = look.records.iter().collect();
    // Each device's in its own order.
    records.sort_by(|a, b| (&a.device, a.seq).cmp(&(&b.device, b.seq)));
    let mut touched = Touched::new();
    let mut merged = Merged {
        damaged: look.damaged,
        unknown: look.unknown,
        problem: look.problem.clone(),
        ..Merged::default()
    };
    for r in records {
        // This device's own, found in a log the store is behind (a data
        // directory put back from a backup): taken back, line and all.
        let Some(origin) = keep(&tx, r, r.device == me, &mut touched)? else {
            continue;
        };
        match &r.body {
            Body::Name(_) => {
                named(&tx, r)?;
                merged.devices.entry(r.device.clone()).or_default().names += 1;
            }
            Body::Change(change) => {
                let change = change.clone().stamped(from_ms(r.at_ms));
                crate::store::write::apply(&tx, &change, Some(&origin), &mut touched)?;
                merged.count(&r.device, &change);
            }
        }
    }
    cursors(&tx, look)?;
    crate::store::review::replay_touched(&tx, &touched)?;
    for (id, from) in &mut merged.devices {
        from.name = super::status::name(&tx, id)?;
    }
    tx.commit()?;
    Ok(merged)
}

/// The learner's name for a device, the latest they gave.
pub(crate) fn named(conn: &Connection, r: &Record) -> rusqlite::Result<()> {
    if let Body::Name(name) = &r.body {
        conn.execute(
            "INSERT INTO sync_device (device, name, seq) VALUES (?1, ?2, ?3)
             ON CONFLICT (device) DO UPDATE SET name = excluded.name, seq = excluded.seq
             WHERE excluded.seq > sync_device.seq",
            params![r.device, name, r.seq],
        )?;
    }
    Ok(())
}

/// Where reading each file stopped; the cursors of files gone forgotten.
fn cursors(conn: &Connection, look: &Look) -> rusqlite::Result<()> {
    for (name, c) in &look.files {
        conn.execute(
            "INSERT OR REPLACE INTO sync_file (name, offset, tail, damaged) VALUES (?1, ?2, ?3, ?4)",
            params![name, c.offset as i64, c.tail, c.damaged],
        )?;
    }
    if let Some(present) = &look.present {
        let known: Vec<String> = {
            let mut stmt = conn.prepare_cached("SELECT name FROM sync_file")?;
            let names = stmt.query_map([], |r| r.get(0))?;
            names.collect::<rusqlite::Result<_>>()?
        };
        for name in known.iter().filter(|n| !present.contains(n)) {
            conn.execute("DELETE FROM sync_file WHERE name = ?1", [name])?;
        }
    }
    Ok(())
}
