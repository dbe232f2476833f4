//! Every change the store makes is a [`Change`]: one the disk refused can
//! be kept, applied to the in-memory copy, and replayed on the disk later.
//! Each is made as a record of a device's log (see [`super::sync`]): this
//! device's next one when the learner makes it here, another's when it is
//! merged; either way by the same rules, so that every machine that has
//! the same records holds the same progress, whatever order they came in.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, TransactionBehavior, params};

use super::sync::{Origin, Touched};
use super::{review, time::to_ms};
use crate::model::{Change, LessonKey};

/// Applies `changes` in one write transaction: all of them or none.
///
/// `BEGIN IMMEDIATE` takes the write lock before anything is read, so an
/// attempt's card update builds on the newest card even when another
/// lectern is writing the same file; waiting for the lock is bounded by the
/// connection's busy timeout.
pub(crate) fn commit<'a>(
    conn: &mut Connection,
    changes: impl IntoIterator<Item = &'a Change>,
) -> rusqlite::Result<()> {
    journaled(conn, changes, None, false).map(drop)
}

/// [`commit`], for a session's changes that are kept in its journal
/// `name` too: the same transaction records that name, so whether the
/// journal's changes are in the file is never in doubt, whenever a kill
/// comes. Applied whatever is recorded: they are this session's own.
pub(crate) fn commit_kept<'a>(
    conn: &mut Connection,
    changes: impl IntoIterator<Item = &'a Change>,
    name: Option<&str>,
) -> rusqlite::Result<()> {
    journaled(conn, changes, name, false).map(drop)
}

/// The changes of an ended session's journal `name`, unless its name is
/// recorded (then false: they are in the file already).
pub(crate) fn replay_kept(
    conn: &mut Connection,
    changes: &[Change],
    name: &str,
) -> rusqlite::Result<bool> {
    journaled(conn, changes, Some(name), true)
}

fn journaled<'a>(
    conn: &mut Connection,
    changes: impl IntoIterator<Item = &'a Change>,
    name: Option<&str>,
    unless_recorded: bool,
) -> rusqlite::Result<bool> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if let Some(name) = name.filter(|_| unless_recorded) {
        // Read under the write lock: no other writer can record it between.
        let done: bool = tx.query_row(
            "SELECT count(*) > 0 FROM journal_replayed WHERE name = ?1",
            [name],
            |r| r.get(0),
        )?;
        if done {
            return Ok(false);
        }
    }
    let mut touched = Touched::new();
    for change in changes {
        super::sync::own::commit(&tx, change, &mut touched)?;
    }
    review::replay_touched(&tx, &touched)?;
    if let Some(name) = name {
        tx.prepare_cached("INSERT OR IGNORE INTO journal_replayed (name) VALUES (?1)")?
            .execute([name])?;
    }
    tx.commit()?;
    Ok(true)
}

/// Forgets the recorded journals that `gone` says are no longer on disk: a
/// journal's name is made only once (a random suffix, `create_new`), so a
/// removed one never comes back to be skipped.
pub(crate) fn forget_journals(
    conn: &mut Connection,
    gone: impl Fn(&str) -> bool,
) -> rusqlite::Result<()> {
    let gone: Vec<String> = {
        let mut stmt = conn.prepare("SELECT name FROM journal_replayed")?;
        let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
        names
            .filter(|n| n.as_ref().map_or(true, |n| gone(n)))
            .collect::<rusqlite::Result<_>>()?
    };
    // Most starts have nothing to forget, and pay no write for it.
    if gone.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for name in &gone {
        tx.prepare_cached("DELETE FROM journal_replayed WHERE name = ?1")?
            .execute([name])?;
    }
    tx.commit()
}

/// When a change was made: stamped when the store took it (see
/// [`super::Store::apply`]); one that comes without a time is made now.
fn made(at: Option<DateTime<Utc>>) -> i64 {
    to_ms(at.unwrap_or_else(Utc::now))
}

/// Makes `change`, a record of `origin`'s device (none: a change kept on
/// this machine only); the review cards it moves go into `touched`, to be
/// built again once the transaction's changes are all made.
pub(crate) fn apply(
    conn: &Connection,
    change: &Change,
    origin: Option<&Origin>,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    // The last writer wins: an older change of the same thing is not made.
    if let Some(o) = origin
        && !super::sync::apply::order(conn, change, o)?
    {
        return Ok(());
    }
    match change {
        Change::Position { key, anchor } => {
            conn.prepare_cached(
                "INSERT INTO lesson_progress (course, lesson, anchor_block, anchor_line)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (course, lesson) DO UPDATE
                 SET anchor_block = excluded.anchor_block, anchor_line = excluded.anchor_line",
            )?
            .execute(params![key.course, key.lesson, anchor.block, anchor.line])?;
        }
        Change::Read { key } => {
            conn.prepare_cached(
                "INSERT INTO lesson_progress (course, lesson, read) VALUES (?1, ?2, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1",
            )?
            .execute(params![key.course, key.lesson])?;
        }
        // A completed lesson has been read, whichever order the app says so.
        Change::Completed { key } => {
            conn.prepare_cached("INSERT INTO lesson_progress (course, lesson, read, completed) VALUES (?1, ?2, 1, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1, completed = 1")?.execute(params![key.course, key.lesson])?;
        }
        Change::LastLesson { key } => {
            conn.prepare_cached(
                "INSERT INTO course_state (course, last_lesson) VALUES (?1, ?2)
                 ON CONFLICT (course) DO UPDATE SET last_lesson = excluded.last_lesson",
            )?
            .execute(params![key.course, key.lesson])?;
        }
        Change::Checks { key, count } => {
            conn.prepare_cached(
                "INSERT INTO lesson_progress (course, lesson, checks) VALUES (?1, ?2, ?3)
                 ON CONFLICT (course, lesson) DO UPDATE SET checks = excluded.checks",
            )?
            .execute(params![key.course, key.lesson, count])?;
        }
        Change::Attempt { .. } => attempt(conn, change, origin, touched)?,
        Change::Mark { .. }
        | Change::Annotation { .. }
        | Change::Place { .. }
        | Change::Grade { .. } => {
            super::notes::apply(conn, change, super::notes::made_ms(change))?;
        }
        Change::Reset {
            course,
            lessons,
            at,
        } => super::rounds::reset(conn, course, lessons, made(*at))?,
        Change::Reveal { key, check, at } => {
            // The first reveal is the one that counts: answers after it.
            // Placed in time as its device's answers are (`ord_ms`), so a
            // clock set back between an answer and a reveal cannot put
            // the reveal first.
            let at_ms = origin.map_or_else(|| made(*at), |o| o.ord_ms);
            conn.prepare_cached(
                "INSERT INTO reveal (course, lesson, check_id, at_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (course, lesson, check_id) DO UPDATE
                 SET at_ms = min(at_ms, excluded.at_ms)",
            )?
            .execute(params![key.course, key.lesson, check, at_ms])?;
        }
        Change::Rate { rating, .. } => {
            if let Some(o) = origin {
                super::sync::apply::rate(conn, o, *rating, touched)?;
            }
        }
        Change::Remember { .. } => super::sync::apply::remember(conn, change, origin)?,
    }
    Ok(())
}

/// An attempt, with its device, its place in that device's log and in
/// time, and its rating if one came first; its card is built again.
fn attempt(
    conn: &Connection,
    change: &Change,
    origin: Option<&Origin>,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    let Change::Attempt {
        key: LessonKey { course, lesson },
        check,
        option,
        answer,
        correct,
        review,
        revealed,
        drill,
        at,
    } = change
    else {
        return Ok(());
    };
    let at_ms = made(*at);
    let (device, seq, ord_ms) = origin.map_or((None, None, at_ms), |o| {
        (Some(o.device.as_str()), Some(o.seq), o.ord_ms)
    });
    conn.prepare_cached(
        "INSERT OR IGNORE INTO attempt
             (course, lesson, check_id, at_ms, option, answer, correct, review, revealed, drill,
              device, seq, ord_ms, rating)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,
                 (SELECT rating FROM rating WHERE device = ?11 AND attempt = ?12))",
    )?
    .execute(params![
        course, lesson, check, at_ms, option, answer, correct, review, revealed, drill, device,
        seq, ord_ms
    ])?;
    touched.insert((course.clone(), lesson.clone(), check.clone()));
    Ok(())
}
