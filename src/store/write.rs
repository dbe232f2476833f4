//! Every change the store makes is a [`Change`]: one the disk refused can
//! be kept, applied to the in-memory copy, and replayed on the disk later.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, TransactionBehavior, params};

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
    for change in changes {
        apply(&tx, change)?;
    }
    if let Some(name) = name {
        tx.execute(
            "INSERT OR IGNORE INTO journal_replayed (name) VALUES (?1)",
            [name],
        )?;
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
        tx.execute("DELETE FROM journal_replayed WHERE name = ?1", [name])?;
    }
    tx.commit()
}

/// When a change was made: stamped when the store took it (see
/// [`super::Store::apply`]); one that comes without a time is made now.
fn made(at: Option<DateTime<Utc>>) -> i64 {
    to_ms(at.unwrap_or_else(Utc::now))
}

fn apply(conn: &Connection, change: &Change) -> rusqlite::Result<()> {
    match change {
        Change::Position { key, anchor } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, anchor_block, anchor_line)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (course, lesson) DO UPDATE
                 SET anchor_block = excluded.anchor_block, anchor_line = excluded.anchor_line",
                params![key.course, key.lesson, anchor.block, anchor.line],
            )?;
        }
        Change::Read { key } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, read) VALUES (?1, ?2, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1",
                params![key.course, key.lesson],
            )?;
        }
        // A completed lesson has been read, whichever order the app says so.
        Change::Completed { key } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, read, completed) VALUES (?1, ?2, 1, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1, completed = 1",
                params![key.course, key.lesson],
            )?;
        }
        Change::LastLesson { key } => {
            conn.execute(
                "INSERT INTO course_state (course, last_lesson) VALUES (?1, ?2)
                 ON CONFLICT (course) DO UPDATE SET last_lesson = excluded.last_lesson",
                params![key.course, key.lesson],
            )?;
        }
        Change::Checks { key, count } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, checks) VALUES (?1, ?2, ?3)
                 ON CONFLICT (course, lesson) DO UPDATE SET checks = excluded.checks",
                params![key.course, key.lesson, count],
            )?;
        }
        Change::Attempt { .. } => attempt(conn, change)?,
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
        Change::Reveal { .. } | Change::Rate { .. } => seen_or_rated(conn, change)?,
        Change::Remember {
            slug,
            title,
            root,
            lessons,
            at,
        } => {
            let root = root.as_deref().map(|r| r.to_string_lossy());
            conn.execute(
                "INSERT INTO library (slug, title, root, lessons, last_read_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (slug) DO UPDATE
                 SET title = excluded.title, root = excluded.root,
                     lessons = CASE WHEN excluded.lessons > 0 THEN excluded.lessons ELSE lessons END,
                     last_read_ms = max(last_read_ms, excluded.last_read_ms)",
                params![slug, title, root, lessons, made(*at)],
            )?;
        }
    }
    Ok(())
}

/// A reveal kept, or a review answer's rating and the card it changes.
fn seen_or_rated(conn: &Connection, change: &Change) -> rusqlite::Result<()> {
    match change {
        // The first reveal is the one that counts: answers after it.
        Change::Reveal { key, check, at } => conn
            .execute(
                "INSERT OR IGNORE INTO reveal (course, lesson, check_id, at_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![key.course, key.lesson, check, made(*at)],
            )
            .map(drop),
        Change::Rate { key, check, rating } => {
            conn.execute(
                "UPDATE attempt SET rating = ?4 WHERE id = (
                     SELECT id FROM attempt
                     WHERE course = ?1 AND lesson = ?2 AND check_id = ?3 AND review
                     ORDER BY at_ms DESC, id DESC LIMIT 1)",
                params![key.course, key.lesson, check, rating],
            )?;
            review::replay(conn, (&key.course, &key.lesson, check.as_str()))
        }
        _ => Ok(()),
    }
}

/// An attempt and the card change it makes, in the caller's transaction.
fn attempt(conn: &Connection, change: &Change) -> rusqlite::Result<()> {
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
    conn.execute(
        "INSERT INTO attempt
             (course, lesson, check_id, at_ms, option, answer, correct, review, revealed, drill)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            course, lesson, check, at_ms, option, answer, correct, review, revealed, drill
        ],
    )?;
    // Seen the answer first: the card learns nothing it can trust from a
    // right answer, so it counts as a lapse.
    let key = (course.as_str(), lesson.as_str(), check.as_str());
    review::record(
        conn,
        key,
        *correct && !*revealed,
        *review,
        super::time::from_ms(at_ms),
    )
}
