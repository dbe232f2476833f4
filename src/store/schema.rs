//! The store's schema and the migrations that bring any older file up to it.
//!
//! The version lives in `PRAGMA user_version`, so a file says by itself
//! which migrations it has had. Migrations only ever add: a file written by
//! an older lectern keeps every row it had.
//!
//! The version is a hint, not a verdict: a file copied with `sqlite3 .dump`
//! says 0 whatever it holds, and a hand-edited one may say -1. Every step
//! only adds what is missing (`IF NOT EXISTS`), so a file whose tables and
//! version disagree is repaired in place by running them all, in one
//! transaction; only a version above ours means "leave it alone".

use rusqlite::{Connection, TransactionBehavior};

use super::review;

/// The schema version this build writes.
pub(crate) const CURRENT: u32 = 9;

/// One step: run inside a transaction that also bumps `user_version`, so a
/// crash mid-migration leaves the file at the previous version, not between.
type Step = fn(&Connection) -> rusqlite::Result<()>;

/// `MIGRATIONS[i]` takes a file from version `i` to `i + 1`. Later tables
/// (the course index, ...) are added by appending steps here.
const MIGRATIONS: [Step; CURRENT as usize] = [
    v1_progress_and_attempts,
    v2_review_cards,
    v3_library,
    v4_checks,
    v5_journals_replayed,
    v6_reveals_and_seed,
    v7_notes,
    super::rounds::v8_drills_and_rounds,
    super::sync::schema::v9_sync,
];

/// Version 1: reading progress, the last lesson per course, and every
/// attempt. Times are Unix milliseconds so they sort as integers.
fn v1_progress_and_attempts(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS lesson_progress (
             course       TEXT    NOT NULL,
             lesson       TEXT    NOT NULL,
             read         INTEGER NOT NULL DEFAULT 0,
             completed    INTEGER NOT NULL DEFAULT 0,
             anchor_block INTEGER,
             anchor_line  INTEGER,
             PRIMARY KEY (course, lesson)
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS course_state (
             course      TEXT PRIMARY KEY NOT NULL,
             last_lesson TEXT
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS attempt (
             id      INTEGER PRIMARY KEY AUTOINCREMENT,
             course  TEXT    NOT NULL,
             lesson  TEXT    NOT NULL,
             at_ms   INTEGER NOT NULL,
             option  INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             review  INTEGER NOT NULL DEFAULT 0
         );
         CREATE INDEX IF NOT EXISTS attempt_by_lesson ON attempt (course, lesson, at_ms, id);",
    )
}

/// Version 2: the spaced-review card of each lesson. Files without one
/// may already hold attempts: their cards are rebuilt by replaying them
/// once the attempts say which check each belongs to (version 4).
fn v2_review_cards(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS review (
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
         CREATE INDEX IF NOT EXISTS review_by_due ON review (due_ms);",
    )
}

/// Version 3: the library (every course opened: its slug, title, where
/// it lives, when last read), and whether an attempt came after the answer
/// was revealed (practice, never a first-try score).
fn v3_library(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS library (
             slug         TEXT    PRIMARY KEY NOT NULL,
             title        TEXT    NOT NULL,
             root         TEXT,
             lessons      INTEGER NOT NULL DEFAULT 0,
             last_read_ms INTEGER NOT NULL
         ) WITHOUT ROWID;",
    )?;
    let has_revealed: bool = conn.query_row(
        "SELECT count(*) FROM pragma_table_info('attempt') WHERE name = 'revealed'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !has_revealed {
        conn.execute_batch("ALTER TABLE attempt ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0;")?;
    }
    Ok(())
}

/// Version 4: a lesson holds several checks. Attempts and cards say
/// which (`check_id`; an older file's rows belong to the check with the
/// empty id, a JSON lesson's one check), and a typed answer is kept as
/// text. The card table's key grows, so it is rebuilt with its rows; a
/// file whose cards are missing gets them from its attempts.
fn v4_checks(conn: &Connection) -> rusqlite::Result<()> {
    if !has_column(conn, "attempt", "check_id")? {
        conn.execute_batch(
            "ALTER TABLE attempt ADD COLUMN check_id TEXT NOT NULL DEFAULT '';
             DROP INDEX IF EXISTS attempt_by_lesson;
             CREATE INDEX attempt_by_lesson ON attempt (course, lesson, check_id, at_ms, id);",
        )?;
    }
    if !has_column(conn, "attempt", "answer")? {
        conn.execute_batch("ALTER TABLE attempt ADD COLUMN answer TEXT;")?;
    }
    // How many checks a lesson held when last opened: the contents show
    // "answered of all" without reading the lesson.
    if !has_column(conn, "lesson_progress", "checks")? {
        conn.execute_batch("ALTER TABLE lesson_progress ADD COLUMN checks INTEGER;")?;
    }
    if !has_column(conn, "review", "check_id")? {
        conn.execute_batch(
            "CREATE TABLE review_v4 (
                 course         TEXT    NOT NULL,
                 lesson         TEXT    NOT NULL,
                 check_id       TEXT    NOT NULL DEFAULT '',
                 due_ms         INTEGER NOT NULL,
                 stability      REAL    NOT NULL,
                 difficulty     REAL    NOT NULL,
                 elapsed_days   INTEGER NOT NULL,
                 scheduled_days INTEGER NOT NULL,
                 reps           INTEGER NOT NULL,
                 lapses         INTEGER NOT NULL,
                 state          INTEGER NOT NULL,
                 last_review_ms INTEGER NOT NULL,
                 PRIMARY KEY (course, lesson, check_id)
             ) WITHOUT ROWID;
             INSERT INTO review_v4
                 SELECT course, lesson, '', due_ms, stability, difficulty, elapsed_days,
                        scheduled_days, reps, lapses, state, last_review_ms FROM review;
             DROP TABLE review;
             ALTER TABLE review_v4 RENAME TO review;
             CREATE INDEX IF NOT EXISTS review_by_due ON review (due_ms);",
        )?;
    }
    let count = |t: &str| -> rusqlite::Result<i64> {
        conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0))
    };
    // Every answered check has a card: none at all means they were lost.
    if count("review")? == 0 && count("attempt")? > 0 {
        review::replay_all(conn)?;
    }
    Ok(())
}

/// Version 5: the journals (`progress.db.pending-*`) whose changes are in
/// the file, by name, each recorded in the transaction that wrote them. A
/// session killed after that commit and before it removed its journal
/// leaves one the next start must not replay: its answers would count
/// twice. Nothing about the changes themselves tells them apart, since two
/// real answers may be alike to the millisecond. A name is dropped once its
/// journal is gone.
fn v5_journals_replayed(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS journal_replayed (
             name TEXT PRIMARY KEY NOT NULL
         ) WITHOUT ROWID;",
    )
}

/// Version 6: how right review answers felt; the checks whose answer was shown (each once, the first
/// time), so an answer after a reveal is never a first try, whatever
/// session gives it; and the learner's own random seed, so options are
/// shuffled the same way each time for this learner (and differently for
/// another).
fn v6_reveals_and_seed(conn: &Connection) -> rusqlite::Result<()> {
    // How a right review answer felt (FSRS's rating, 1 to 4), when the
    // learner said; none is Good.
    if !has_column(conn, "attempt", "rating")? {
        conn.execute_batch("ALTER TABLE attempt ADD COLUMN rating INTEGER;")?;
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS reveal (
             course   TEXT NOT NULL,
             lesson   TEXT NOT NULL,
             check_id TEXT NOT NULL,
             at_ms    INTEGER NOT NULL,
             PRIMARY KEY (course, lesson, check_id)
         ) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS learner (
             id   INTEGER PRIMARY KEY CHECK (id = 1),
             seed INTEGER NOT NULL
         );
         INSERT OR IGNORE INTO learner (id, seed)
             VALUES (1, abs(random() % 9007199254740991) + 1);",
    )
}

/// Version 7: marks, highlights and notes, each the last change of its
/// id (a tombstone too, never a row removed), kept whole as its JSON so a
/// log of them carries them anywhere (see [`super::notes`]).
fn v7_notes(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS note (
             id      TEXT    PRIMARY KEY NOT NULL,
             kind    TEXT    NOT NULL,
             course  TEXT    NOT NULL,
             lesson  TEXT    NOT NULL,
             at_ms   INTEGER NOT NULL,
             deleted INTEGER NOT NULL DEFAULT 0,
             body    TEXT    NOT NULL
         ) WITHOUT ROWID;
         CREATE INDEX IF NOT EXISTS note_by_lesson ON note (course, lesson);",
    )
}

pub(super) fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
        [table, column],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )
}

/// The tables this build reads and writes.
const TABLES: [&str; 16] = [
    "lesson_progress",
    "course_state",
    "attempt",
    "review",
    "library",
    "journal_replayed",
    "reveal",
    "learner",
    "note",
    "round_start",
    "sync_self",
    "sync_record",
    "sync_device",
    "sync_file",
    "sync_order",
    "rating",
];

fn has_table(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

/// Whether every table of the current schema is there.
fn complete(conn: &Connection) -> rusqlite::Result<bool> {
    for t in TABLES {
        if !has_table(conn, t)? {
            return Ok(false);
        }
    }
    Ok(has_column(conn, "review", "check_id")?
        && has_column(conn, "attempt", "answer")?
        && has_column(conn, "lesson_progress", "checks")?
        && has_column(conn, "attempt", "rating")?
        && has_column(conn, "attempt", "drill")?
        && has_column(conn, "attempt", "ord_ms")?)
}

/// `PRAGMA user_version` as stored: any 32-bit value, negative ones too.
pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// The version a file's tables show it has (its stated one when it is
/// newer than ours): what a copy of it is built at.
pub(crate) fn effective_version(conn: &Connection) -> rusqlite::Result<u32> {
    if user_version(conn)? > i64::from(CURRENT) {
        return Ok(CURRENT);
    }
    let v4 = has_column(conn, "review", "check_id")?;
    let v5 = v4 && has_table(conn, "journal_replayed")?;
    let v6 = v5 && has_table(conn, "reveal")? && has_table(conn, "learner")?;
    let v7 = v6 && has_table(conn, "note")?;
    let v8 = v7 && has_table(conn, "round_start")? && has_column(conn, "attempt", "drill")?;
    let v9 = v8 && has_table(conn, "sync_record")? && has_column(conn, "attempt", "ord_ms")?;
    Ok(if v9 {
        9
    } else if v8 {
        8
    } else if v7 {
        7
    } else if v6 {
        6
    } else if v5 {
        5
    } else if v4 {
        4
    } else if has_table(conn, "library")? {
        3
    } else if has_table(conn, "review")? {
        2
    } else if has_table(conn, "attempt")? {
        1
    } else {
        0
    })
}

/// What `migrate` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Migrated {
    /// The file is at `CURRENT` (now or already).
    Current,
    /// A newer lectern wrote this file; it is left exactly as it is.
    Newer(i64),
}

/// Brings a file up to `CURRENT`.
///
/// The version is read again under the write lock: two lecterns starting at
/// once on an old file must not both run the same migration.
pub(crate) fn migrate(conn: &mut Connection) -> rusqlite::Result<Migrated> {
    let current = i64::from(CURRENT);
    let seen = user_version(conn)?;
    if seen > current {
        return Ok(Migrated::Newer(seen));
    }
    if seen == current && complete(conn)? {
        return Ok(Migrated::Current);
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let from = user_version(&tx)?;
    if from > current {
        return Ok(Migrated::Newer(from));
    }
    // Every step, whatever the version said: each adds only what is
    // missing, so a `.dump` copy (version 0) keeps its rows and a file
    // without its review table gets one, rebuilt from its attempts.
    upgrade(&tx, 0, CURRENT)?;
    tx.pragma_update(None, "user_version", CURRENT)?;
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
        assert_eq!(user_version(&conn).unwrap(), i64::from(CURRENT));
    }

    #[test]
    fn migrating_twice_is_a_no_op() {
        let mut conn = memory().unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
        assert_eq!(user_version(&conn).unwrap(), i64::from(CURRENT));
    }

    fn attempts_and_cards(conn: &Connection) -> (i64, i64) {
        let n = |t| {
            conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0))
                .unwrap()
        };
        (n("attempt"), n("review"))
    }

    fn answered() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        upgrade(&conn, 0, CURRENT).unwrap();
        conn.execute_batch(
            "INSERT INTO attempt (course, lesson, at_ms, option, correct, review)
             VALUES ('c', 'l', 1000, 2, 1, 0);",
        )
        .unwrap();
        review::replay_all(&conn).unwrap();
        conn
    }

    #[test]
    fn files_whose_version_is_wrong_are_adopted_with_their_rows() {
        for version in [0, -1, 1] {
            let mut conn = answered();
            conn.pragma_update(None, "user_version", version).unwrap();
            assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current, "{version}");
            assert_eq!(user_version(&conn).unwrap(), i64::from(CURRENT));
            assert_eq!(attempts_and_cards(&conn), (1, 1), "{version}");
        }
    }

    #[test]
    fn a_missing_review_table_is_rebuilt_in_place() {
        let mut conn = answered();
        conn.execute_batch("DROP TABLE review").unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
        assert_eq!(attempts_and_cards(&conn), (1, 1));
        assert_eq!(effective_version(&conn).unwrap(), CURRENT);
    }

    /// A file as version 3 left it: one card per lesson, no check ids.
    fn version_3() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        upgrade(&conn, 0, 3).unwrap();
        conn.execute_batch(
            "INSERT INTO attempt (course, lesson, at_ms, option, correct, review)
             VALUES ('c', 'l', 1000, 2, 1, 0);
             INSERT INTO review VALUES ('c', 'l', 99000, 1.5, 5.0, 0, 1, 1, 0, 2, 1000);",
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
        conn
    }

    #[test]
    fn a_version_3_file_keeps_its_attempts_and_cards_under_the_empty_check() {
        let mut conn = version_3();
        assert_eq!(effective_version(&conn).unwrap(), 3);
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
        assert_eq!(attempts_and_cards(&conn), (1, 1));
        let (check, due): (String, i64) = conn
            .query_row("SELECT check_id, due_ms FROM review", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        // Under the empty check; since version 9 built again from its
        // attempt, as every machine that merges that attempt builds it.
        let made = review::schedule(None, true, super::super::time::from_ms(1000));
        assert_eq!((check.as_str(), due), ("", made.due.timestamp_millis()));
        let (check, answer): (String, Option<String>) = conn
            .query_row("SELECT check_id, answer FROM attempt", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((check.as_str(), answer), ("", None));
        assert_eq!(effective_version(&conn).unwrap(), CURRENT);
    }

    #[test]
    fn a_version_3_file_that_says_0_is_adopted_too() {
        let mut conn = version_3();
        conn.pragma_update(None, "user_version", 0).unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), Migrated::Current);
        assert_eq!(attempts_and_cards(&conn), (1, 1));
    }

    #[test]
    fn newer_file_is_left_alone() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", CURRENT + 5)
            .unwrap();
        assert_eq!(
            migrate(&mut conn).unwrap(),
            Migrated::Newer(i64::from(CURRENT + 5))
        );
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
            assert_eq!(user_version(&conn).unwrap(), i64::from(CURRENT));
        }
    }
}
