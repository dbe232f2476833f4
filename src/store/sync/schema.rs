//! Version 9 of the store: what syncing between machines keeps (see
//! [`super`]), and the adoption of everything a store held before it into
//! its device's log, so a machine that starts syncing brings its history.
//!
//! A record this lectern does not know (a newer one's change) is skipped
//! and counted, and its file's cursor moves past it: a later step that
//! teaches the store a new kind of change should forget the cursors
//! (`DELETE FROM sync_file`), so every log is read again (what is known
//! is dropped by device and seq) and nothing a newer machine wrote is
//! missed.

use rusqlite::{Connection, params};

use super::record::{Body, Record};
use crate::model::{Anchor, Change, LessonKey};
use crate::store::schema::has_column;
use crate::store::time::from_ms;

/// Version 9: this data directory's device; every record known, this
/// device's with its line (to write its log again), others' by key; the
/// devices' names; how far each log file has been read; the order of the
/// last change of each thing the last writer wins; ratings by the attempt
/// they rate; and each attempt's device, place in its log and place in
/// time (its device's clock never running back).
pub(crate) fn v9_sync(conn: &Connection) -> rusqlite::Result<()> {
    for column in ["device TEXT", "seq INTEGER", "ord_ms INTEGER"] {
        let name = column.split(' ').next().unwrap_or_default();
        if !has_column(conn, "attempt", name)? {
            conn.execute_batch(&format!("ALTER TABLE attempt ADD COLUMN {column};"))?;
        }
    }
    conn.execute_batch(
        "CREATE UNIQUE INDEX IF NOT EXISTS attempt_by_origin ON attempt (device, seq);
         CREATE TABLE IF NOT EXISTS sync_record (
             device TEXT    NOT NULL,
             seq    INTEGER NOT NULL,
             at_ms  INTEGER NOT NULL,
             run_ms INTEGER NOT NULL,
             line   TEXT,
             PRIMARY KEY (device, seq)
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS sync_device (
             device TEXT    PRIMARY KEY NOT NULL,
             name   TEXT    NOT NULL,
             seq    INTEGER NOT NULL
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS sync_file (
             name    TEXT    PRIMARY KEY NOT NULL,
             offset  INTEGER NOT NULL,
             tail    INTEGER NOT NULL,
             damaged INTEGER NOT NULL
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS sync_order (
             kind TEXT NOT NULL,
             key  TEXT NOT NULL,
             ord  TEXT NOT NULL,
             PRIMARY KEY (kind, key)
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS rating (
             device  TEXT    NOT NULL,
             attempt INTEGER NOT NULL,
             seq     INTEGER NOT NULL,
             rating  INTEGER NOT NULL,
             PRIMARY KEY (device, attempt)
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS sync_self (
             id     INTEGER PRIMARY KEY CHECK (id = 1),
             device TEXT    NOT NULL
         );",
    )?;
    let made = conn.execute(
        "INSERT OR IGNORE INTO sync_self (id, device) VALUES (1, lower(hex(randomblob(8))))",
        [],
    )?;
    // Once, with the device: every row before it is this device's.
    if made > 0 {
        adopt(conn, &super::me(conn)?)?;
    }
    Ok(())
}

/// One thing a store held before syncing, as the change that makes it.
struct Item {
    at_ms: i64,
    change: Change,
    /// An attempt's row, and its rating if it had one.
    attempt: Option<(i64, Option<u8>)>,
}

/// Everything the store holds, as this device's first records, oldest
/// first (what has no time of its own comes last); the cards built again
/// from the attempts, as another machine merging them builds them.
fn adopt(conn: &Connection, me: &str) -> rusqlite::Result<()> {
    let mut items = attempts(conn)?;
    items.extend(kept(conn, chrono::Utc::now().timestamp_millis())?);
    items.sort_by_key(|i| i.at_ms);
    let mut touched = super::Touched::new();
    let mut cards = super::Touched::new();
    let mut seq = 0;
    let mut next = |at_ms: i64, of: Option<i64>, change: Change| {
        seq += 1;
        let record = Record {
            device: me.to_owned(),
            seq,
            at_ms,
            of,
            body: Body::Change(change),
        };
        super::keep(conn, &record, true, &mut touched)
    };
    for Item {
        at_ms,
        change,
        attempt,
    } in items
    {
        let Some(origin) = next(at_ms, None, change.clone())? else {
            continue;
        };
        // Its last writer, for what has one (the row is there already).
        match &change {
            Change::Remember { .. } => super::apply::remember(conn, &change, Some(&origin))?,
            other => drop(super::apply::order(conn, other, &origin)?),
        }
        let (Some((id, rating)), Change::Attempt { key, check, .. }) = (attempt, change) else {
            continue;
        };
        conn.execute(
            "UPDATE attempt SET device = ?1, seq = ?2, ord_ms = ?3 WHERE id = ?4",
            params![me, origin.seq, origin.ord_ms, id],
        )?;
        cards.insert((key.course.clone(), key.lesson.clone(), check.clone()));
        if let Some(rating) = rating {
            let rate = Change::Rate { key, check, rating };
            if let Some(o) = next(at_ms, Some(origin.seq), rate)? {
                super::apply::rate(conn, &o, rating, &mut super::Touched::new())?;
            }
        }
    }
    // Built again in the order every machine builds them in.
    crate::store::review::replay_touched(conn, &cards)
}

/// Every attempt, in the order the store knew them.
fn attempts(conn: &Connection) -> rusqlite::Result<Vec<Item>> {
    let mut stmt = conn.prepare(
        "SELECT id, course, lesson, check_id, option, answer, correct, review, revealed, drill,
                at_ms, rating
         FROM attempt WHERE device IS NULL ORDER BY at_ms, id",
    )?;
    let rows = stmt.query_map([], |r| {
        let at_ms: i64 = r.get(10)?;
        Ok(Item {
            at_ms,
            change: Change::Attempt {
                key: LessonKey::new(&r.get::<_, String>(1)?, &r.get::<_, String>(2)?),
                check: r.get(3)?,
                option: r.get(4)?,
                answer: r.get(5)?,
                correct: r.get(6)?,
                review: r.get(7)?,
                revealed: r.get(8)?,
                drill: r.get(9)?,
                at: Some(from_ms(at_ms)),
            },
            attempt: Some((r.get(0)?, r.get::<_, Option<u8>>(11)?)),
        })
    })?;
    rows.collect()
}

/// Reveals, rounds, the library, notes; then what keeps no time.
fn kept(conn: &Connection, now: i64) -> rusqlite::Result<Vec<Item>> {
    let item = |at_ms: i64, change: Change| Item {
        at_ms,
        change,
        attempt: None,
    };
    let key = |r: &rusqlite::Row<'_>| -> rusqlite::Result<LessonKey> {
        Ok(LessonKey::new(
            &r.get::<_, String>(0)?,
            &r.get::<_, String>(1)?,
        ))
    };
    let mut out = rows(
        conn,
        "SELECT course, lesson, check_id, at_ms FROM reveal",
        |r| {
            let at: i64 = r.get(3)?;
            let (key, check) = (key(r)?, r.get(2)?);
            Ok(item(
                at,
                Change::Reveal {
                    key,
                    check,
                    at: Some(from_ms(at)),
                },
            ))
        },
    )?;
    out.extend(rows(
        conn,
        "SELECT course, lesson, at_ms FROM round_start",
        |r| {
            let at: i64 = r.get(2)?;
            let (course, lessons) = (r.get(0)?, vec![r.get(1)?]);
            Ok(item(
                at,
                Change::Reset {
                    course,
                    lessons,
                    at: Some(from_ms(at)),
                },
            ))
        },
    )?);
    out.extend(rows(
        conn,
        "SELECT slug, title, root, lessons, last_read_ms FROM library",
        |r| {
            let at: i64 = r.get(4)?;
            let root: Option<String> = r.get(2).unwrap_or_default();
            let change = Change::Remember {
                slug: r.get(0)?,
                title: r.get(1).unwrap_or_default(),
                root: root.map(Into::into),
                lessons: r.get(3).unwrap_or(0),
                at: Some(from_ms(at)),
            };
            Ok(item(at, change))
        },
    )?);
    out.extend(notes(conn)?);
    out.extend(untimed(conn, now)?);
    Ok(out)
}

/// Notes, marks and places, each the last change of its id.
fn notes(conn: &Connection) -> rusqlite::Result<Vec<Item>> {
    let mut out = Vec::new();
    let notes = rows(conn, "SELECT body, at_ms FROM note", |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
    })?;
    for (body, at) in notes {
        // A body that no longer reads (edited by hand) is not carried.
        if let Ok(change) = serde_json::from_str::<Change>(&body) {
            out.push(Item {
                at_ms: at,
                change,
                attempt: None,
            });
        }
    }
    Ok(out)
}

/// What keeps no time (made `now`): read, completed, where each lesson
/// was left, each course's last lesson.
fn untimed(conn: &Connection, now: i64) -> rusqlite::Result<Vec<Item>> {
    let item = |change: Change| Item {
        at_ms: now,
        change,
        attempt: None,
    };
    let key = |r: &rusqlite::Row<'_>| -> rusqlite::Result<LessonKey> {
        Ok(LessonKey::new(
            &r.get::<_, String>(0)?,
            &r.get::<_, String>(1)?,
        ))
    };
    let mut out = Vec::new();
    let lessons = rows(
        conn,
        "SELECT course, lesson, read, completed, anchor_block, anchor_line FROM lesson_progress",
        |r| {
            let block: Option<u32> = r.get(4)?;
            let anchor = block.map(|block| Anchor {
                block,
                line: r.get::<_, Option<u32>>(5).ok().flatten().unwrap_or(0),
            });
            Ok((key(r)?, r.get::<_, bool>(2)?, r.get::<_, bool>(3)?, anchor))
        },
    )?;
    for (key, read, completed, anchor) in lessons {
        if completed {
            out.push(item(Change::Completed { key: key.clone() }));
        } else if read {
            out.push(item(Change::Read { key: key.clone() }));
        }
        if let Some(anchor) = anchor {
            out.push(item(Change::Position { key, anchor }));
        }
    }
    out.extend(rows(
        conn,
        "SELECT course, last_lesson FROM course_state WHERE last_lesson IS NOT NULL",
        |r| Ok(item(Change::LastLesson { key: key(r)? })),
    )?);
    Ok(out)
}

/// Each row of `sql`, made into a `T`.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    make: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([], make)?;
    rows.collect()
}
