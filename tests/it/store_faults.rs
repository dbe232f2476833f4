//! The store against what a red team did to it: racing starts on a damaged
//! file, stores copied or edited by hand, a write lock held until quit.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use lectern::model::{Change, LessonKey};
use lectern::store::Store;
use rusqlite::{Connection, TransactionBehavior};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

/// How long a session here waits for another program's lock: the lock is
/// the test's own and is held past any wait, so the reader's 2 s would only
/// be waited out.
const LOCK_WAIT: Duration = Duration::from_millis(50);

/// The store of a session that meets a held lock.
fn held_out(dir: Option<&Path>) -> Store {
    Store::open_waiting(dir, LOCK_WAIT)
}

fn db(dir: &Path) -> PathBuf {
    dir.join("progress.db")
}

fn named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && !name.ends_with("-wal") && !name.ends_with("-shm")
        })
        .collect();
    found.sort();
    found
}

fn answered(dir: &Path) {
    let mut s = Store::open(Some(dir));
    s.apply(&Change::Read {
        key: LessonKey::new("c", "l"),
    });
    s.apply(&Change::option_attempt("c", "l", 1, true, false, t0()));
    s.apply(&Change::option_attempt("c", "m", 0, false, false, t0()));
    assert!(s.is_persistent());
}

#[test]
fn racing_starts_on_a_garbage_store_keep_the_original_and_set_aside_nothing_healthy() {
    let garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for round in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(db(dir.path()), &garbage).unwrap();
        let starts: Vec<_> = (0..6)
            .map(|i| {
                let dir = dir.path().to_path_buf();
                std::thread::spawn(move || {
                    let mut s = Store::open(Some(&dir));
                    s.apply(&Change::Read {
                        key: LessonKey::new("c", format!("l{i}")),
                    });
                    (s.is_persistent(), s.take_warning())
                })
            })
            .collect();
        let mut told = Vec::new();
        for start in starts {
            let (persistent, warning) = start.join().unwrap();
            assert!(persistent, "round {round}: {warning:?}");
            told.extend(warning);
        }
        // One start found the damage and said so; the others found the
        // fresh store and had nothing to say.
        assert_eq!(told.len(), 1, "round {round}: {told:?}");
        assert!(told[0].contains("damaged"), "round {round}: {told:?}");
        let copies = named(dir.path(), "progress.db.corrupt-");
        assert_eq!(copies.len(), 1, "round {round}: {copies:?}");
        assert_eq!(std::fs::read(&copies[0]).unwrap(), garbage);
        // Nothing of the fresh store (its WAL, its shared memory) went
        // aside with it, and nothing else is beside it.
        let mut beside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("progress.db.") || n.ends_with("-journal"))
            .collect();
        beside.sort();
        let copy = copies[0].file_name().unwrap().to_string_lossy();
        assert_eq!(beside, [copy.as_ref()], "round {round}");
        let mut s = Store::open(Some(dir.path()));
        assert_eq!(s.take_warning(), None, "round {round}");
        for i in 0..6 {
            assert!(
                s.progress("c", &format!("l{i}")).read,
                "round {round}: l{i}"
            );
        }
    }
}

/// `sqlite3 .dump`, replayed: the tables and rows, at user_version 0.
fn dump_copy(from: &Path, to: &Path) {
    let src = Connection::open(db(from)).unwrap();
    let dst = Connection::open(db(to)).unwrap();
    let tables: Vec<(String, String)> = {
        let mut stmt = src
            .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    drop(src);
    for (name, sql) in tables {
        dst.execute_batch(&sql).unwrap();
        dst.execute_batch(&format!(
            "ATTACH '{}' AS old; INSERT INTO main.{name} SELECT * FROM old.{name}; DETACH old;",
            db(from).display()
        ))
        .unwrap();
    }
}

#[test]
fn valid_stores_are_adopted_whatever_their_version_says() {
    let original = tempfile::tempdir().unwrap();
    answered(original.path());
    type Edit = fn(&Connection);
    let edits: [(&str, Edit); 4] = [
        ("version 0", |c| {
            c.pragma_update(None, "user_version", 0).unwrap()
        }),
        ("version -1", |c| {
            c.pragma_update(None, "user_version", -1).unwrap()
        }),
        ("no review table", |c| {
            c.execute_batch("DROP TABLE review").unwrap()
        }),
        ("no table of replayed journals", |c| {
            c.execute_batch("DROP TABLE journal_replayed").unwrap()
        }),
    ];
    for (what, edit) in edits {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(db(original.path()), db(dir.path())).unwrap();
        edit(&Connection::open(db(dir.path())).unwrap());
        let mut s = Store::open(Some(dir.path()));
        assert_eq!(s.take_warning(), None, "{what}");
        assert!(s.is_persistent(), "{what}");
        assert_eq!(s.attempts("c", "l").len(), 1, "{what}");
        assert!(
            s.progress("c", "l").due.is_some(),
            "{what}: its card is back"
        );
        s.apply(&Change::option_attempt("c", "l", 2, true, false, t0()));
        drop(s);
        assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 2);
    }
    let dir = tempfile::tempdir().unwrap();
    dump_copy(original.path(), dir.path());
    let mut s = Store::open(Some(dir.path()));
    assert_eq!(s.take_warning(), None, ".dump copy");
    assert!(s.is_persistent());
    assert_eq!(s.attempts("c", "l").len(), 1);
    assert!(s.progress("c", "l").read);
}

#[test]
fn an_answer_the_lock_keeps_out_until_quit_is_kept_and_saved_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    answered(dir.path());
    let mut s = held_out(Some(dir.path()));
    let mut other = Connection::open(db(dir.path())).unwrap();
    let lock = other
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    s.apply(&Change::option_attempt("c", "l", 3, false, false, t0()));
    let warning = s.take_warning().expect("told it is busy");
    assert!(
        warning.contains("busy") && !warning.contains('\n'),
        "{warning}"
    );
    assert_eq!(s.attempts("c", "l").len(), 2, "the session sees it");
    let said = s.close().expect("told at quit");
    assert!(
        said.contains("kept in") && said.contains("next start"),
        "{said}"
    );
    assert!(!said.contains('\n'));
    drop(s);
    assert_eq!(named(dir.path(), "progress.db.pending-").len(), 1);
    lock.rollback().unwrap();
    drop(other);
    let s = Store::open(Some(dir.path()));
    assert_eq!(s.attempts("c", "l").len(), 2, "replayed from the journal");
    assert!(named(dir.path(), "progress.db.pending-").is_empty());
    drop(s);
    // Replayed once, not at every start.
    assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 2);
}

#[test]
fn a_running_sessions_journal_is_left_to_it() {
    let dir = tempfile::tempdir().unwrap();
    answered(dir.path());
    let mut s = held_out(Some(dir.path()));
    let mut other = Connection::open(db(dir.path())).unwrap();
    let lock = other
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    s.apply(&Change::option_attempt("c", "l", 3, false, false, t0()));
    lock.rollback().unwrap();
    drop(other);
    // Another lectern starts while the first still runs: the journal is
    // the first one's to save.
    let second = Store::open(Some(dir.path()));
    assert_eq!(second.attempts("c", "l").len(), 1);
    assert_eq!(named(dir.path(), "progress.db.pending-").len(), 1);
    drop(second);
    assert_eq!(s.close(), None, "saved at quit now that the lock is gone");
    drop(s);
    assert!(named(dir.path(), "progress.db.pending-").is_empty());
    assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 2);
}

#[test]
fn a_store_locked_at_start_is_written_once_the_lock_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    answered(dir.path());
    // Exclusive locking: the other program holds the file from its first
    // read on, so even opening it for reading is refused.
    let other = Connection::open(db(dir.path())).unwrap();
    other
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;")
        .unwrap();
    let _: i64 = other
        .query_row("SELECT count(*) FROM attempt", [], |r| r.get(0))
        .unwrap();
    let mut s = held_out(Some(dir.path()));
    assert!(!s.is_persistent());
    let warning = s.take_warning().expect("told");
    assert!(warning.contains("busy"), "{warning}");
    s.apply(&Change::option_attempt("c", "l", 3, false, false, t0()));
    assert_eq!(named(dir.path(), "progress.db.pending-").len(), 1);
    drop(other);
    assert_eq!(s.close(), None, "the file has it now");
    drop(s);
    assert!(named(dir.path(), "progress.db.pending-").is_empty());
    assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 2);
}

// ------------------------------------------------- a journal replayed once

/// Another program's write lock on the store, until dropped.
fn locked(dir: &Path) -> Connection {
    let other = Connection::open(db(dir)).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    other
}

/// A session that kept `answers` in its journal (the lock held) and ended;
/// the journal's path and bytes.
fn kept(dir: &Path, answers: &[Change]) -> (PathBuf, Vec<u8>) {
    let mut s = held_out(Some(dir));
    let other = locked(dir);
    for a in answers {
        s.apply(a);
    }
    let said = s.close().expect("kept aside");
    assert!(said.contains("kept in"), "{said}");
    drop((s, other));
    let journals = named(dir, "progress.db.pending-");
    assert_eq!(journals.len(), 1);
    let bytes = std::fs::read(&journals[0]).unwrap();
    (journals[0].clone(), bytes)
}

/// A wrong review answer: each one moves the card.
fn wrong(check: &str, answer: Option<&str>) -> Change {
    Change::Attempt {
        key: LessonKey::new("c", "l"),
        check: check.into(),
        option: 3,
        answer: answer.map(Into::into),
        correct: false,
        review: true,
        revealed: false,
        drill: false,
        at: Some(t0()),
    }
}

/// The attempts, the card's repetitions and the journal names recorded.
fn counted(dir: &Path) -> (i64, i64, i64) {
    let conn = Connection::open(db(dir)).unwrap();
    let n = |sql: &str| conn.query_row(sql, [], |r| r.get(0)).unwrap();
    (
        n("SELECT count(*) FROM attempt WHERE lesson = 'l'"),
        n("SELECT sum(reps) FROM review WHERE lesson = 'l'"),
        n("SELECT count(*) FROM journal_replayed"),
    )
}

#[test]
fn a_journal_saved_at_quit_but_not_removed_before_a_kill_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    answered(dir.path());
    let mut s = held_out(Some(dir.path()));
    let other = locked(dir.path());
    // Two answers alike to the millisecond: both are real.
    s.apply(&Change::option_attempt("c", "l", 3, false, true, t0()));
    s.apply(&Change::option_attempt("c", "l", 3, false, true, t0()));
    let journal = named(dir.path(), "progress.db.pending-");
    assert_eq!(journal.len(), 1);
    let bytes = std::fs::read(&journal[0]).unwrap();
    drop(other);
    assert_eq!(s.close(), None, "saved at quit");
    drop(s);
    let saved = counted(dir.path());
    assert_eq!(saved.0, 3);
    // The kill came after that commit, before the journal was removed.
    std::fs::write(&journal[0], &bytes).unwrap();
    let mut s = Store::open(Some(dir.path()));
    assert_eq!(s.take_warning(), None);
    assert_eq!(s.attempts("c", "l").len(), 3, "each answer once");
    assert_eq!(s.progress("c", "l").attempts, 3);
    drop(s);
    assert!(named(dir.path(), "progress.db.pending-").is_empty());
    // The card moved once per answer, and the name is forgotten with its
    // journal.
    assert_eq!(counted(dir.path()), (saved.0, saved.1, 0));
}

#[test]
fn a_journal_cut_short_by_a_crash_keeps_every_whole_line() {
    let typed = Some("déjà — vu");
    let answers = [wrong("q", typed), wrong("q", typed), wrong("q", typed)];
    // A kill inside a character of the last line; a crash that also left
    // zeros past the end, as some file systems do.
    for tail in [&b""[..], &[0u8; 512][..]] {
        let dir = tempfile::tempdir().unwrap();
        answered(dir.path());
        let (journal, mut bytes) = kept(dir.path(), &answers);
        let last = bytes[..bytes.len() - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .unwrap();
        let inside = last + bytes[last..].iter().position(|&b| b >= 0x80).unwrap() + 1;
        bytes.truncate(inside);
        bytes.extend_from_slice(tail);
        std::fs::write(&journal, &bytes).unwrap();
        let mut s = Store::open(Some(dir.path()));
        assert_eq!(s.take_warning(), None, "dropped without a word");
        let attempts = s.attempts("c", "l");
        assert_eq!(attempts.len(), 3, "the whole lines, and the one before");
        let answers: Vec<_> = attempts.iter().map(|a| a.answer.as_deref()).collect();
        assert_eq!(answers, [None, typed, typed]);
        drop(s);
        assert!(named(dir.path(), "progress.db.pending-").is_empty());
        assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 3);
    }
}

#[test]
fn an_older_store_with_a_journal_beside_it_is_adopted_and_replayed_once() {
    let dir = tempfile::tempdir().unwrap();
    answered(dir.path());
    kept(dir.path(), &[wrong("", None)]);
    // As the lectern before replayed journals were recorded left it.
    let conn = Connection::open(db(dir.path())).unwrap();
    conn.execute_batch("DROP TABLE journal_replayed; PRAGMA user_version = 4;")
        .unwrap();
    drop(conn);
    let mut s = Store::open(Some(dir.path()));
    assert_eq!(s.take_warning(), None);
    assert!(s.is_persistent());
    assert_eq!(s.attempts("c", "l").len(), 2);
    drop(s);
    assert!(named(dir.path(), "progress.db.pending-").is_empty());
    let version: u32 = Connection::open(db(dir.path()))
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, lectern::store::SCHEMA_VERSION);
    assert_eq!(counted(dir.path()).2, 0);
    assert_eq!(Store::open(Some(dir.path())).attempts("c", "l").len(), 2);
}
