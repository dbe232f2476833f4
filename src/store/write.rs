//! Every change the store makes, as a value: a change the disk refused can
//! be kept, applied to the in-memory copy, and replayed on the disk later.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, TransactionBehavior, params};

use super::{Anchor, review, time::to_ms};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Position {
        course: String,
        lesson: String,
        anchor: Anchor,
    },
    Read {
        course: String,
        lesson: String,
    },
    Completed {
        course: String,
        lesson: String,
    },
    LastLesson {
        course: String,
        lesson: String,
    },
    /// How many checks the lesson holds (as last opened).
    Checks {
        course: String,
        lesson: String,
        count: u32,
    },
    Attempt {
        course: String,
        lesson: String,
        /// Which of the lesson's checks ("" for a JSON lesson's one).
        check: String,
        option: u32,
        /// A typed (or several-option) answer, as text.
        answer: Option<String>,
        correct: bool,
        review: bool,
        /// After the answer was revealed: practice, not a first try.
        revealed: bool,
        at: DateTime<Utc>,
    },
    /// The answer of check `check` was shown: from then on its answers
    /// are practice, in every session.
    Reveal {
        course: String,
        lesson: String,
        check: String,
        at: DateTime<Utc>,
    },
    /// How the last review answer to check `check` felt (FSRS's rating,
    /// 1 again to 4 easy): its card is scheduled again with it.
    Rate {
        course: String,
        lesson: String,
        check: String,
        rating: u8,
    },
    /// A course opened: the library remembers it (by slug, so a course
    /// that moved keeps its progress and is found where it is now).
    Remember {
        slug: String,
        title: String,
        root: Option<String>,
        lessons: u32,
        at: DateTime<Utc>,
    },
}

/// Applies `ops` in one write transaction: all of them or none.
///
/// `BEGIN IMMEDIATE` takes the write lock before anything is read, so an
/// attempt's card update builds on the newest card even when another
/// lectern is writing the same file; waiting for the lock is bounded by the
/// connection's busy timeout.
pub(crate) fn commit<'a>(
    conn: &mut Connection,
    ops: impl IntoIterator<Item = &'a Op>,
) -> rusqlite::Result<()> {
    journaled(conn, ops, None, false).map(drop)
}

/// [`commit`], for a session's changes that are kept in its journal
/// `name` too: the same transaction records that name, so whether the
/// journal's changes are in the file is never in doubt, whenever a kill
/// comes. Applied whatever is recorded: they are this session's own.
pub(crate) fn commit_kept<'a>(
    conn: &mut Connection,
    ops: impl IntoIterator<Item = &'a Op>,
    name: Option<&str>,
) -> rusqlite::Result<()> {
    journaled(conn, ops, name, false).map(drop)
}

/// The changes of an ended session's journal `name`, unless its name is
/// recorded (then false: they are in the file already).
pub(crate) fn replay_kept(conn: &mut Connection, ops: &[Op], name: &str) -> rusqlite::Result<bool> {
    journaled(conn, ops, Some(name), true)
}

fn journaled<'a>(
    conn: &mut Connection,
    ops: impl IntoIterator<Item = &'a Op>,
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
    for op in ops {
        apply(&tx, op)?;
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

fn apply(conn: &Connection, op: &Op) -> rusqlite::Result<()> {
    match op {
        Op::Position {
            course,
            lesson,
            anchor,
        } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, anchor_block, anchor_line)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (course, lesson) DO UPDATE
                 SET anchor_block = excluded.anchor_block, anchor_line = excluded.anchor_line",
                params![course, lesson, anchor.block, anchor.line],
            )?;
        }
        Op::Read { course, lesson } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, read) VALUES (?1, ?2, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1",
                params![course, lesson],
            )?;
        }
        // A completed lesson has been read, whichever order the app says so.
        Op::Completed { course, lesson } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, read, completed) VALUES (?1, ?2, 1, 1)
                 ON CONFLICT (course, lesson) DO UPDATE SET read = 1, completed = 1",
                params![course, lesson],
            )?;
        }
        Op::LastLesson { course, lesson } => {
            conn.execute(
                "INSERT INTO course_state (course, last_lesson) VALUES (?1, ?2)
                 ON CONFLICT (course) DO UPDATE SET last_lesson = excluded.last_lesson",
                params![course, lesson],
            )?;
        }
        Op::Checks {
            course,
            lesson,
            count,
        } => {
            conn.execute(
                "INSERT INTO lesson_progress (course, lesson, checks) VALUES (?1, ?2, ?3)
                 ON CONFLICT (course, lesson) DO UPDATE SET checks = excluded.checks",
                params![course, lesson, count],
            )?;
        }
        Op::Attempt { .. } => attempt(conn, op)?,
        Op::Reveal { .. } | Op::Rate { .. } => seen_or_rated(conn, op)?,
        Op::Remember {
            slug,
            title,
            root,
            lessons,
            at,
        } => {
            conn.execute(
                "INSERT INTO library (slug, title, root, lessons, last_read_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (slug) DO UPDATE
                 SET title = excluded.title, root = excluded.root,
                     lessons = CASE WHEN excluded.lessons > 0 THEN excluded.lessons ELSE lessons END,
                     last_read_ms = max(last_read_ms, excluded.last_read_ms)",
                params![slug, title, root, lessons, to_ms(*at)],
            )?;
        }
    }
    Ok(())
}

/// A reveal kept, or a review answer's rating and the card it changes.
fn seen_or_rated(conn: &Connection, op: &Op) -> rusqlite::Result<()> {
    match op {
        // The first reveal is the one that counts: answers after it.
        Op::Reveal {
            course,
            lesson,
            check,
            at,
        } => conn
            .execute(
                "INSERT OR IGNORE INTO reveal (course, lesson, check_id, at_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![course, lesson, check, to_ms(*at)],
            )
            .map(drop),
        Op::Rate {
            course,
            lesson,
            check,
            rating,
        } => {
            conn.execute(
                "UPDATE attempt SET rating = ?4 WHERE id = (
                     SELECT id FROM attempt
                     WHERE course = ?1 AND lesson = ?2 AND check_id = ?3 AND review
                     ORDER BY at_ms DESC, id DESC LIMIT 1)",
                params![course, lesson, check, rating],
            )?;
            review::replay(conn, (course, lesson, check))
        }
        _ => Ok(()),
    }
}

/// An attempt and the card change it makes, in the caller's transaction.
fn attempt(conn: &Connection, op: &Op) -> rusqlite::Result<()> {
    let Op::Attempt {
        course,
        lesson,
        check,
        option,
        answer,
        correct,
        review,
        revealed,
        at,
    } = op
    else {
        return Ok(());
    };
    conn.execute(
        "INSERT INTO attempt
             (course, lesson, check_id, at_ms, option, answer, correct, review, revealed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            course,
            lesson,
            check,
            to_ms(*at),
            option,
            answer,
            correct,
            review,
            revealed
        ],
    )?;
    // Seen the answer first: the card learns nothing it can trust from a
    // right answer, so it counts as a lapse.
    let key = (course.as_str(), lesson.as_str(), check.as_str());
    review::record(conn, key, *correct && !*revealed, *review, *at)
}
