//! Fault paths that need the store's insides: a connection to shrink, a
//! lock to hold, a read-only open that root's permissions cannot give.

use super::*;
use chrono::TimeZone;
use rusqlite::{OpenFlags, TransactionBehavior};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

fn options(read_only: bool) -> open::Options {
    open::Options {
        read_only,
        now: t0(),
    }
}

fn saved_store(dir: &Path) {
    let mut store = Store::open(Some(dir));
    store.mark_read("c", "l");
    store.record_attempt("c", "l", 1, false, false, t0());
    assert!(store.is_persistent());
    assert_eq!(store.take_warning(), None);
}

fn attempts_on_disk(dir: &Path) -> i64 {
    let conn = Connection::open_with_flags(dir.join(open::FILE), OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap();
    conn.query_row("SELECT count(*) FROM attempt", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn read_only_file_is_readable_and_writes_stay_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    saved_store(dir.path());
    let before = std::fs::read(dir.path().join(open::FILE)).unwrap();

    let mut store = Store::open_with(dir.path(), options(true));
    assert!(!store.is_persistent());
    let warning = store.take_warning().expect("a read-only store is reported");
    assert!(warning.contains("read-only"), "{warning}");
    assert_eq!(store.take_warning(), None);

    // what was saved is there
    let p = store.progress("c", "l");
    assert!(p.read);
    assert_eq!(p.attempts, 1);
    assert!(p.due.is_some());

    // writes work for the session
    store.mark_completed("c", "l");
    store.record_attempt("c", "l", 2, true, true, t0() + chrono::Duration::days(1));
    assert!(store.progress("c", "l").completed);
    assert_eq!(store.attempts("c", "l").len(), 2);
    assert_eq!(store.take_warning(), None, "one warning for one fault");
    drop(store);

    assert_eq!(std::fs::read(dir.path().join(open::FILE)).unwrap(), before);
}

#[test]
fn full_disk_becomes_a_warning_and_data_stays_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(Some(dir.path()));
    store.mark_read("c", "l");
    // No room to grow: SQLite answers SQLITE_FULL as on a full disk.
    let disk = store.disk.as_ref().unwrap();
    let pages: i64 = disk
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    disk.pragma_update(None, "max_page_count", pages).unwrap();

    let long = "x".repeat(4096);
    for i in 0..20 {
        store.record_attempt("c", &long, i, false, false, t0());
    }
    let warning = store.take_warning().expect("a full disk is reported");
    assert!(warning.contains("disk full"), "{warning}");
    assert_eq!(store.take_warning(), None);
    assert!(!store.is_persistent());
    // the session still sees everything
    assert_eq!(store.attempts("c", &long).len(), 20);
    assert!(store.progress("c", "l").read);

    // once there is room again, what was kept is written out
    store
        .disk
        .as_ref()
        .unwrap()
        .pragma_update(None, "max_page_count", 1_000_000)
        .unwrap();
    store.retry_at = None;
    store.mark_completed("c", "l");
    assert!(store.is_persistent());
    drop(store);
    assert_eq!(attempts_on_disk(dir.path()), 20);
}

#[test]
fn a_lock_held_too_long_keeps_writes_in_memory_then_saves_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(Some(dir.path()));
    store.record_attempt("c", "l", 0, true, false, t0());

    let mut other = Connection::open(dir.path().join(open::FILE)).unwrap();
    let lock = other
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    let started = Instant::now();
    store.record_attempt("c", "l", 1, false, false, t0());
    assert!(started.elapsed() >= open::BUSY_TIMEOUT);
    let warning = store.take_warning().expect("a held lock is reported");
    assert!(warning.contains("busy"), "{warning}");
    assert_eq!(store.attempts("c", "l").len(), 2);

    // during the back-off, writes do not wait for the lock again
    let started = Instant::now();
    store.record_attempt("c", "l", 2, false, false, t0());
    assert!(started.elapsed() < open::BUSY_TIMEOUT);
    assert_eq!(store.attempts("c", "l").len(), 3);

    lock.rollback().unwrap();
    drop(other);
    // dropping the store makes the last try
    drop(store);
    assert_eq!(attempts_on_disk(dir.path()), 3);
}

#[test]
fn newer_schema_is_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    saved_store(dir.path());
    let path = dir.path().join(open::FILE);
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", schema::CURRENT + 1)
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let mut store = Store::open(Some(dir.path()));
    let warning = store.take_warning().unwrap();
    assert!(warning.contains("newer lectern"), "{warning}");
    assert!(store.progress("c", "l").read);
    store.mark_completed("c", "l");
    assert!(store.progress("c", "l").completed);
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn unusable_directory_falls_back_to_memory() {
    let dir = tempfile::tempdir().unwrap();
    // a file where the directory should be
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, b"keep me").unwrap();
    let mut store = Store::open(Some(&blocker.join("sub")));
    assert!(!store.is_persistent());
    assert!(store.take_warning().is_some());
    store.mark_read("c", "l");
    assert!(store.progress("c", "l").read);
    assert_eq!(std::fs::read(&blocker).unwrap(), b"keep me");
}
