//! The store's schema and the migrations that bring any older file up to it.
//!
//! The version lives in `PRAGMA user_version`, so a file says by itself
//! which migrations it has had. Migrations only ever add: a file written by
//! an older lectern keeps every row it had.

use rusqlite::{Connection, TransactionBehavior};

use super::review;

/// The schema version this build writes.
pub(crate) const CURRENT: u32 = 2;

/// One step: run inside a transaction that also bumps `user_version`, so a
/// crash mid-migration leaves the file at the previous version, not between.
type Step = fn(&Connection) -> rusqlite::Result<()>;

/// `MIGRATIONS[i]` takes a file from version `i` to `i + 1`. Later tables
/// (the course index, ...) are added by appending steps here.
const MIGRATIONS: [Step; CURRENT as usize] = [v1_progress_and_attempts, v2_review_cards];

/// Version 1: reading progress, the last lesson per course, and every
/// attempt. Times are Unix milliseconds so they sort as integers.
fn v1_progress_and_attempts(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE lesson_progress (
             course       TEXT    NOT NULL,
             lesson       TEXT    NOT NULL,
             read         INTEGER NOT NULL DEFAULT 0,
             completed    INTEGER NOT NULL DEFAULT 0,
             anchor_block INTEGER,
             anchor_line  INTEGER,
             PRIMARY KEY (course, lesson)
         ) WITHOUT ROWID;
         CREATE TABLE course_state (
             course      TEXT PRIMARY KEY NOT NULL,
             last_lesson TEXT
         ) WITHOUT ROWID;
         CREATE TABLE attempt (
             id      INTEGER PRIMARY KEY AUTOINCREMENT,
             course  TEXT    NOT NULL,
             lesson  TEXT    NOT NULL,
             at_ms   INTEGER NOT NULL,
             option  INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             review  INTEGER NOT NULL DEFAULT 0
         );
         CREATE INDEX attempt_by_lesson ON attempt (course, lesson, at_ms, id);",
    )
}

/// Version 2: the spaced-review card of each lesson. Files from version 1
/// already hold attempts, so their cards are rebuilt by replaying them.
fn v2_review_cards(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE review (
             course         TEXT    NOT NULL,
             lesson         TEXT    NOT NULL,
             due_ms         INTEGER NOT NULL,
             stability      REAL    NOT NULL,
             difficulty     REAL    NOT NULL,
             elapsed_days   INTEGER NOT NULL,
             scheduled_days INTEGER NOT NULL,
             reps           INTEGER NOT NULL,
             lapses         INTEGER NOT NULL,
             state          INTEGER NOT NULL,
             last_review_ms INTEGER NOT NULL,
             PRIMARY KEY (course, lesson)
         ) WITHOUT ROWID;
         CREATE INDEX review_by_due ON review (due_ms);",
    )?;
    review::replay_all(conn)
}

pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// What `migrate` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Migrated {
    /// The file is at `CURRENT` (now or already).
    Current,
    /// A newer lectern wrote this file; it is left exactly as it is.
    Newer(u32),
}

/// Brings a file up to `CURRENT`.
///
/// The version is read again under the write lock: two lecterns starting at
/// once on an old file must not both run the same migration.
pub(crate) fn migrate(conn: &mut Connection) -> rusqlite::Result<Migrated> {
    let seen = user_version(conn)?;
    if seen > CURRENT {
        return Ok(Migrated::Newer(seen));
    }
    if seen == CURRENT {
        return Ok(Migrated::Current);
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let from = user_version(&tx)?;
    if from > CURRENT {
        return Ok(Migrated::Newer(from));
    }
    upgrade(&tx, from, CURRENT)?;
    tx.commit()?;
    Ok(Migrated::Current)
}

/// Runs the steps from version `from` to `to`; the caller owns the
/// transaction.
pub(crate) fn upgrade(conn: &Connection, from: u32, to: u32) -> rusqlite::Result<()> {
    for step in &MIGRATIONS[from as usize..to as usize] {
        step(conn)?;
    }
    if to != from {
        conn.pragma_update(None, "user_version", to)?;
    }
    Ok(())
}

/// A fresh in-memory database at the current schema.
pub(crate) fn memory() -> rusqlite::Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    migrate(&mut conn)?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_database_reaches_current_version() {
        let conn = memory().unwrap();
        assert_eq!(user_version(&conn).unwrap(), CURRENT);
    }

    #[test]
    fn migrating_twice_is_a_no_op() {
        let mut conn = memory().unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
        assert_eq!(user_version(&conn).unwrap(), CURRENT);
    }

    #[test]
    fn newer_file_is_left_alone() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", CURRENT + 5)
            .unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Newer(CURRENT + 5));
        let tables: u32 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0);
    }

    #[test]
    fn every_step_up_from_every_version_lands_on_current() {
        for start in 0..=CURRENT {
            let mut conn = Connection::open_in_memory().unwrap();
            upgrade(&conn, 0, start).unwrap();
            assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
            assert_eq!(user_version(&conn).unwrap(), CURRENT);
        }
    }
}
