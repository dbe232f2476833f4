//! What this machine knows of the devices it syncs with: `lectern sync
//! --status`, and the stats' word on figures that include other machines.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use crate::store::time::from_ms;

/// A device whose changes this machine has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub id: String,
    /// The learner's name for it (`lectern sync --name`).
    pub name: Option<String>,
    /// This machine's own.
    pub me: bool,
    /// Its changes this machine has.
    pub changes: u64,
    /// The highest of its sequence numbers seen: how far this machine has
    /// read its log.
    pub read_to: i64,
    /// When its latest change was made (by its clock).
    pub last_change: Option<DateTime<Utc>>,
}

impl Device {
    /// Changes before `read_to` this machine has not got (lines damaged
    /// in every copy of its log that reached here).
    pub fn missing(&self) -> u64 {
        u64::try_from(self.read_to)
            .unwrap_or(0)
            .saturating_sub(self.changes)
    }

    /// Its name, or its id's first digits.
    pub fn shown(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| self.id.chars().take(8).collect())
    }
}

/// Every device whose changes this machine has, this one first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    pub devices: Vec<Device>,
    /// Lines skipped as damaged, over the files read.
    pub damaged: u64,
    /// Log files read (other devices' and their copies).
    pub files: u64,
}

impl Status {
    /// The other devices.
    pub fn others(&self) -> impl Iterator<Item = &Device> {
        self.devices.iter().filter(|d| !d.me)
    }
}

pub(crate) fn status(conn: &Connection) -> rusqlite::Result<Status> {
    let me = super::me(conn)?;
    let mut stmt = conn.prepare_cached(
        "SELECT r.device, count(*), max(r.seq), max(r.at_ms), d.name
         FROM sync_record r LEFT JOIN sync_device d ON d.device = r.device
         GROUP BY r.device ORDER BY r.device != ?1, r.device",
    )?;
    let rows = stmt.query_map([&me], |r| {
        let id: String = r.get(0)?;
        Ok(Device {
            me: id == me,
            id,
            name: r.get(4)?,
            changes: r.get::<_, i64>(1)?.unsigned_abs(),
            read_to: r.get(2)?,
            last_change: r.get::<_, Option<i64>>(3)?.map(from_ms),
        })
    })?;
    let mut devices: Vec<Device> = rows.collect::<rusqlite::Result<_>>()?;
    if !devices.iter().any(|d| d.me) {
        devices.insert(
            0,
            Device {
                name: name(conn, &me)?,
                id: me,
                me: true,
                changes: 0,
                read_to: 0,
                last_change: None,
            },
        );
    }
    let (damaged, files) = conn.query_row(
        "SELECT coalesce(sum(damaged), 0), count(*) FROM sync_file",
        [],
        |r| {
            Ok((
                r.get::<_, i64>(0)?.unsigned_abs(),
                r.get::<_, i64>(1)?.unsigned_abs(),
            ))
        },
    )?;
    Ok(Status {
        devices,
        damaged,
        files,
    })
}

/// The learner's name for device `id`.
pub(crate) fn name(conn: &Connection, id: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT name FROM sync_device WHERE device = ?1",
        params![id],
        |r| r.get(0),
    )
    .optional()
}
