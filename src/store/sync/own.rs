//! This device's side: each change made here becomes its next record, and
//! its log in the sync folder is appended to, never rewritten.

use std::fs::OpenOptions;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use chrono::Utc;
use rusqlite::{Connection, OptionalExtension, params};

use super::record::{self, Body, Line, Record};
use super::{Touched, keep, me};
use crate::model::Change;
use crate::store::time::to_ms;

/// Whether `change` goes to the device's log: all but the count of a
/// lesson's checks, which each machine reads from the lesson itself.
pub(crate) fn synced(change: &Change) -> bool {
    !matches!(change, Change::Checks { .. })
}

/// Makes `change` in the caller's transaction: when it travels, as this
/// device's next record.
pub(crate) fn commit(
    conn: &Connection,
    change: &Change,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    if !synced(change) {
        return crate::store::write::apply(conn, change, None, touched);
    }
    let record = next(conn, change)?;
    let origin = keep(conn, &record, true, touched)?;
    crate::store::write::apply(conn, change, origin.as_ref(), touched)
}

/// `change` as this device's next record: its time is its own, or now;
/// a rating names the attempt it rates (this device's last answer in a
/// review of that check).
fn next(conn: &Connection, change: &Change) -> rusqlite::Result<Record> {
    let device = me(conn)?;
    let seq: i64 = conn
        .prepare_cached("SELECT coalesce(max(seq), 0) + 1 FROM sync_record WHERE device = ?1")?
        .query_row([&device], |r| r.get(0))?;
    let of = match change {
        Change::Rate { key, check, .. } => conn
            .query_row(
                "SELECT seq FROM attempt
                 WHERE device = ?1 AND course = ?2 AND lesson = ?3 AND check_id = ?4 AND review
                 ORDER BY seq DESC LIMIT 1",
                params![device, key.course, key.lesson, check],
                |r| r.get(0),
            )
            .optional()?,
        _ => None,
    };
    Ok(Record {
        device,
        seq,
        at_ms: to_ms(change.at().unwrap_or_else(Utc::now)),
        of,
        body: Body::Change(change.clone()),
    })
}

/// The learner's name for this device, as its next record.
pub(crate) fn name(conn: &mut Connection, name: &str) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let device = me(&tx)?;
    let seq: i64 = tx.query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM sync_record WHERE device = ?1",
        [&device],
        |r| r.get(0),
    )?;
    let record = Record {
        device,
        seq,
        at_ms: to_ms(Utc::now()),
        of: None,
        body: Body::Name(name.to_owned()),
    };
    if keep(&tx, &record, true, &mut Touched::new())?.is_some() {
        super::merge::named(&tx, &record)?;
    }
    tx.commit()
}

/// This device's records after `after`, as lines of its log, oldest
/// first, with the seq of the last.
pub(crate) fn unwritten(conn: &Connection, after: i64) -> rusqlite::Result<(String, i64)> {
    let device = me(conn)?;
    let mut stmt = conn.prepare_cached(
        "SELECT seq, line FROM sync_record
         WHERE device = ?1 AND seq > ?2 AND line IS NOT NULL ORDER BY seq",
    )?;
    let mut rows = stmt.query(params![device, after])?;
    let (mut lines, mut last) = (String::new(), after);
    while let Some(row) = rows.next()? {
        last = row.get(0)?;
        lines.push_str(&record::line(&row.get::<_, String>(1)?));
    }
    Ok((lines, last))
}

/// Appends `lines` to the log at `path` (made, with its `lectern` folder,
/// if need be: never the sync folder itself, which may be a stick not
/// plugged in), in one write; a last line left cut by a kill is ended
/// first, so it is skipped as damaged rather than glued to the next. The
/// log's length after it.
pub(crate) fn append(path: &Path, lines: &str) -> io::Result<u64> {
    if let Some(folder) = path.parent()
        && !folder.is_dir()
    {
        if folder.parent().is_some_and(|sync| !sync.is_dir()) {
            let missing = "the sync folder is not there (a drive not mounted?)";
            return Err(io::Error::new(io::ErrorKind::NotFound, missing));
        }
        std::fs::create_dir(folder)?;
    }
    if let Ok(meta) = std::fs::metadata(path)
        && let Some(why) = crate::own::refusal(&meta)
    {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .custom_flags((rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32)
        .open(path)?;
    let len = file.metadata()?.len();
    let mut out = String::with_capacity(lines.len() + 1);
    if len > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            out.push('\n');
        }
    }
    out.push_str(lines);
    // Not synced to disk: the store is, and a log that lost its end in a
    // crash is completed from it at the next start.
    file.write_all(out.as_bytes())?;
    Ok(file.metadata()?.len())
}

/// The last of `me`'s records in its log at `path`: the highest seq of
/// the whole lines at its end (`None` for a missing or empty log); read
/// from the end, the whole file only when its end holds no whole record.
pub(crate) fn last_written(path: &Path, me: &str) -> io::Result<Option<i64>> {
    let (mut file, meta) = match crate::own::open_regular(path) {
        Ok(opened) => opened,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let len = meta.len();
    let mut from = len.saturating_sub(TAIL);
    loop {
        file.seek(SeekFrom::Start(from))?;
        let mut bytes = Vec::new();
        (&mut file).take(len - from).read_to_end(&mut bytes)?;
        // Started inside a line: the first piece is not whole.
        let skip = if from == 0 {
            0
        } else {
            bytes
                .iter()
                .position(|b| *b == b'\n')
                .map_or(bytes.len(), |i| i + 1)
        };
        let last = bytes[skip..]
            .split(|b| *b == b'\n')
            .filter_map(|l| match record::decode(l) {
                Line::Record(r) if r.device == me => Some(r.seq),
                _ => None,
            })
            .max();
        if last.is_some() || from == 0 {
            return Ok(last);
        }
        from = 0;
    }
}

/// Bytes read from a log's end for its last record: a few hundred lines.
const TAIL: u64 = 64 << 10;
