//! One learner, several machines: progress that travels through the sync
//! tools people already run (Syncthing, a git repository, Dropbox, a USB
//! stick, a network folder), without a server and without the SQLite file
//! ever being in the synced folder.
//!
//! Each data directory is a device with a random id (`sync_self`), named
//! by the learner if they like. Every change it makes to the learner's
//! progress is a record: the [`Change`], the device, the device's own
//! sequence number for it (from 1, never reused) and its time. The store
//! keeps every record it knows (`sync_record`: this device's with their
//! lines, the others' by key) and, when a sync folder is set, this device
//! appends each of its records to its own log, `SYNC/lectern/ID.log`, one
//! checked line each ([`record`]), in the same step as the store's commit.
//! The store is the truth: a log that is behind (lectern killed between
//! the commit and the append, a log deleted or cut, a folder that could
//! not be written) is brought up to date from it at the next start, or at
//! the next write once the folder can be written.
//!
//! Other devices' logs are read from where this machine last stopped in
//! each file ([`look`]) and merged ([`merge`]): a record already known by
//! (device, seq) is dropped, a new one is made by the same rules as a
//! change made here ([`super::write::apply`]), so the result does not
//! depend on the order records arrive in, nor on how often:
//! - attempts are a union (by device and seq); first tries, rounds and the
//!   review schedule are computed from all of them in one order every
//!   machine agrees on: time, then device, then seq, where an attempt's
//!   time never runs back within its device (`ord_ms`: the latest time of
//!   its device's records up to it), so a device's own order is its log's
//!   whatever its clock did;
//! - a rating belongs to the attempt it rates (`of`), whichever comes
//!   first; a reveal counts from the earliest; rounds are a union;
//! - notes, marks, places in lessons, the last lesson of a course and a
//!   course's title: the last writer wins by (time, device, seq), a
//!   deletion is a tombstone ([`apply`]);
//! - read and completed only ever become true.

pub(crate) mod apply;
mod look;
mod merge;
pub(crate) mod own;
mod record;
pub(crate) mod schema;
mod status;
pub mod store;

pub use look::{Cursor, Cursors, Look};
pub use merge::{Brought, Merged};
pub use status::{Device, Status};

use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeSet;
use std::path::PathBuf;

use record::Record;

/// The folder inside the sync folder that lectern's logs go in.
pub const FOLDER: &str = "lectern";

/// The review cards a transaction's changes moved, each built again once
/// at its end: `(course, lesson, check)`.
pub(crate) type Touched = BTreeSet<(String, String, String)>;

/// Where a change comes from: the device that made it, its place in that
/// device's log and its time.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    pub device: String,
    pub seq: i64,
    pub at_ms: i64,
    /// Its place in time: the latest time of its device's records up to
    /// it (a clock set back does not reorder a device's own changes).
    pub ord_ms: i64,
    /// A rating's attempt, by its `seq`.
    pub of: Option<i64>,
    /// This device's own.
    pub own: bool,
}

impl Origin {
    /// Its order among the changes of one thing, as text that sorts so:
    /// time, device, seq.
    pub(crate) fn ord(&self) -> String {
        let at = self.at_ms.clamp(0, 999_999_999_999_999);
        format!("{at:015} {} {:012}", self.device, self.seq)
    }
}

/// This data directory's device id.
pub(crate) fn me(conn: &Connection) -> rusqlite::Result<String> {
    conn.prepare_cached("SELECT device FROM sync_self WHERE id = 1")?
        .query_row([], |r| r.get(0))
}

/// Keeps record `r`, unless it is known already (then `None`): its line
/// too when it is this device's `own` (to write its log again), and its
/// place in time, which the records after it in the same log follow (a
/// record that arrives late, after a damaged line, moves them and their
/// cards).
pub(crate) fn keep(
    conn: &Connection,
    r: &Record,
    own: bool,
    touched: &mut Touched,
) -> rusqlite::Result<Option<Origin>> {
    let before: Option<i64> = conn
        .prepare_cached(
            "SELECT run_ms FROM sync_record WHERE device = ?1 AND seq < ?2
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row(params![r.device, r.seq], |row| row.get(0))
        .optional()?;
    // Only a change's own time moves its device's clock: the time a
    // change without one was written (a lesson read) comes from another
    // clock than the changes stamped when they were made.
    let timed = matches!(&r.body, record::Body::Change(c) if c.at().is_some());
    let run = match (before, timed) {
        (Some(b), true) => b.max(r.at_ms),
        (None, true) => r.at_ms,
        (b, false) => b.unwrap_or(i64::MIN),
    };
    let line = own.then(|| r.to_json());
    let new = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO sync_record (device, seq, at_ms, run_ms, line)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![r.device, r.seq, r.at_ms, run, line])?;
    if new == 0 {
        return Ok(None);
    }
    let later = if !timed {
        0
    } else {
        conn.prepare_cached(
            "UPDATE sync_record SET run_ms = ?3 WHERE device = ?1 AND seq > ?2 AND run_ms < ?3",
        )?
        .execute(params![r.device, r.seq, run])?
    };
    if later > 0 {
        let mut stmt = conn.prepare_cached(
            "UPDATE attempt SET ord_ms = ?3 WHERE device = ?1 AND seq > ?2 AND ord_ms < ?3
             RETURNING course, lesson, check_id",
        )?;
        let moved = stmt.query_map(params![r.device, r.seq, run], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?;
        for key in moved {
            touched.insert(key?);
        }
    }
    Ok(Some(Origin {
        device: r.device.clone(),
        seq: r.seq,
        at_ms: r.at_ms,
        ord_ms: run,
        of: r.of,
        own,
    }))
}

/// The link between a store and a sync folder: this device's log, and
/// how far it is written.
#[derive(Debug)]
pub(crate) struct Link {
    /// `SYNC/lectern`.
    pub folder: PathBuf,
    pub me: String,
    /// This device's records up to this seq are in its log.
    pub appended: i64,
    /// The log's length after this session's last append: shorter later
    /// means it was deleted or cut, and is written again.
    pub len: u64,
}

impl Link {
    /// This device's log.
    pub(crate) fn log(&self) -> PathBuf {
        self.folder.join(format!("{}.log", self.me))
    }
}

#[cfg(test)]
mod tests;
