//! Fault paths that need the store's insides: a connection to shrink, a
//! lock to hold, a read-only open that root's permissions cannot give.

use super::*;
use crate::model::LessonKey;
use chrono::TimeZone;
use rusqlite::{OpenFlags, TransactionBehavior};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

fn options(read_only: bool) -> open::Options {
    open::Options {
        read_only,
        ..open::Options::at(t0())
    }
}

fn saved_store(dir: &Path) {
    let mut store = Store::open(Some(dir));
    store.apply(&Change::Read {
        key: LessonKey::new("c", "l"),
    });
    store.apply(&Change::option_attempt("c", "l", 1, false, false, t0()));
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
    store.apply(&Change::Completed {
        key: LessonKey::new("c", "l"),
    });
    store.apply(&Change::option_attempt(
        "c",
        "l",
        2,
        true,
        true,
        t0() + chrono::Duration::days(1),
    ));
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
    store.apply(&Change::Read {
        key: LessonKey::new("c", "l"),
    });
    // No room to grow: SQLite answers SQLITE_FULL as on a full disk.
    let disk = store.disk.as_ref().unwrap();
    let pages: i64 = disk
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    disk.pragma_update(None, "max_page_count", pages).unwrap();

    let long = "x".repeat(4096);
    for i in 0..20 {
        store.apply(&Change::option_attempt("c", &long, i, false, false, t0()));
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
    store.apply(&Change::Completed {
        key: LessonKey::new("c", "l"),
    });
    assert!(store.is_persistent());
    drop(store);
    assert_eq!(attempts_on_disk(dir.path()), 20);
}

#[test]
fn a_lock_held_too_long_keeps_writes_in_memory_then_saves_them() {
    let dir = tempfile::tempdir().unwrap();
    // Its own wait, short: the lock is held past any wait.
    let wait = std::time::Duration::from_millis(50);
    let mut store = Store::open_waiting(Some(dir.path()), wait);
    store.apply(&Change::option_attempt("c", "l", 0, true, false, t0()));

    let mut other = Connection::open(dir.path().join(open::FILE)).unwrap();
    let lock = other
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .unwrap();
    // A lower bound: it waited for the lock before giving up (a busy
    // machine only makes the wait longer).
    let started = Instant::now();
    store.apply(&Change::option_attempt("c", "l", 1, false, false, t0()));
    assert!(started.elapsed() >= wait);
    let warning = store.take_warning().expect("a held lock is reported");
    assert!(warning.contains("busy"), "{warning}");
    assert_eq!(store.attempts("c", "l").len(), 2);

    // During the back-off, writes do not try the file again: a try that
    // failed would have moved the back-off on (no clock is read for this).
    let backoff = store.retry_at.expect("backing off");
    store.apply(&Change::option_attempt("c", "l", 2, false, false, t0()));
    assert_eq!(store.retry_at, Some(backoff));
    assert_eq!(store.pending.len(), 2);
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
    store.apply(&Change::Completed {
        key: LessonKey::new("c", "l"),
    });
    assert!(store.progress("c", "l").completed);
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A session the file could not take at all (a newer lectern's, or a
/// read-only file) is told so again at quit when it changed the
/// learner's progress, not left to the warning at its start.
#[test]
fn progress_kept_in_memory_only_is_said_at_quit() {
    let dir = tempfile::tempdir().unwrap();
    saved_store(dir.path());
    let conn = Connection::open(dir.path().join(open::FILE)).unwrap();
    conn.pragma_update(None, "user_version", schema::CURRENT + 1)
        .unwrap();
    drop(conn);
    let mut store = Store::open(Some(dir.path()));
    store.apply(&Change::Position {
        key: LessonKey::new("c", "l"),
        anchor: Anchor::default(),
    });
    assert_eq!(
        store.close(),
        None,
        "a page's place alone is not worth a word"
    );
    let mut store = Store::open(Some(dir.path()));
    store.apply(&Change::option_attempt("c", "l", 0, true, false, t0()));
    store.apply(&Change::Read {
        key: LessonKey::new("c", "l2"),
    });
    let word = store.close().expect("a closing word");
    assert!(
        word.starts_with("2 changes to your progress not saved"),
        "{word}"
    );
    assert!(word.contains("newer lectern"), "{word}");

    let mut store = Store::open_with(dir.path(), options(true));
    store.apply(&Change::option_attempt("c", "l", 0, true, false, t0()));
    let word = store.close().expect("a closing word");
    assert!(
        word.contains("1 change ") && word.contains("read-only"),
        "{word}"
    );
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
    store.apply(&Change::Read {
        key: LessonKey::new("c", "l"),
    });
    assert!(store.progress("c", "l").read);
    assert_eq!(std::fs::read(&blocker).unwrap(), b"keep me");
}

mod disk_that_fills_and_empties {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Step {
        Position(u8, u8, u32, u32),
        Read(u8, u8),
        Completed(u8, u8),
        LastLesson(u8, u8),
        Attempt(u8, u8, u32, bool, bool),
        /// The disk fills up (true) or has room again (false).
        Full(bool),
    }

    fn step() -> impl Strategy<Value = Step> {
        let c = 0..2u8;
        let l = 0..3u8;
        prop_oneof![
            1 => (c.clone(), l.clone(), 0..50u32, 0..50u32).prop_map(|(c, l, b, n)| Step::Position(c, l, b, n)),
            1 => (c.clone(), l.clone()).prop_map(|(c, l)| Step::Read(c, l)),
            1 => (c.clone(), l.clone()).prop_map(|(c, l)| Step::Completed(c, l)),
            1 => (c.clone(), l.clone()).prop_map(|(c, l)| Step::LastLesson(c, l)),
            3 => (c, l, 0..4u32, any::<bool>(), any::<bool>())
                .prop_map(|(c, l, o, ok, r)| Step::Attempt(c, l, o, ok, r)),
            2 => any::<bool>().prop_map(Step::Full),
        ]
    }

    /// Long names, so that a few writes need a new page and a full disk
    /// refuses them.
    fn names(c: u8, l: u8) -> (String, String) {
        (
            format!("course-{c}"),
            format!("lesson-{l}-{}", "x".repeat(1500)),
        )
    }

    fn apply(s: &mut Store, step: &Step, now: DateTime<Utc>) {
        match *step {
            Step::Position(c, l, block, line) => {
                let (c, l) = names(c, l);
                s.apply(&Change::Position {
                    key: LessonKey::new(&c, &l),
                    anchor: Anchor { block, line },
                });
            }
            Step::Read(c, l) => {
                let (c, l) = names(c, l);
                s.apply(&Change::Read {
                    key: LessonKey::new(&c, &l),
                });
            }
            Step::Completed(c, l) => {
                let (c, l) = names(c, l);
                s.apply(&Change::Completed {
                    key: LessonKey::new(&c, &l),
                });
            }
            Step::LastLesson(c, l) => {
                let (c, l) = names(c, l);
                s.apply(&Change::LastLesson {
                    key: LessonKey::new(&c, &l),
                });
            }
            Step::Attempt(c, l, option, correct, review) => {
                let (c, l) = names(c, l);
                s.apply(&Change::option_attempt(
                    &c, &l, option, correct, review, now,
                ));
            }
            Step::Full(_) => {}
        }
    }

    fn set_full(s: &Store, full: bool) {
        let disk = s.disk.as_ref().unwrap();
        let limit: i64 = if full {
            disk.query_row("PRAGMA page_count", [], |r| r.get(0))
                .unwrap()
        } else {
            1_000_000
        };
        disk.pragma_update(None, "max_page_count", limit).unwrap();
    }

    fn same(a: &Store, b: &Store) {
        let far = t0() + chrono::Duration::days(100_000);
        assert_eq!(a.due(None, far), b.due(None, far));
        assert_eq!(a.misconceptions(None, 1), b.misconceptions(None, 1));
        assert_eq!(a.streak(far), b.streak(far));
        for c in 0..2 {
            let (course, _) = names(c, 0);
            assert_eq!(a.course_progress(&course), b.course_progress(&course));
            assert_eq!(a.last_lesson(&course), b.last_lesson(&course));
            for l in 0..3 {
                let (_, lesson) = names(c, l);
                assert_eq!(a.attempts(&course, &lesson), b.attempts(&course, &lesson));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Whenever the disk refuses writes and later takes them again,
        /// the session sees every write throughout, and the file ends up
        /// holding exactly what a store that never failed holds.
        #[test]
        fn nothing_is_lost(steps in proptest::collection::vec(step(), 1..40)) {
            let dir = tempfile::tempdir().unwrap();
            let mut store = Store::open(Some(dir.path()));
            let mut reference = Store::in_memory();
            for (i, step) in steps.iter().enumerate() {
                let now = t0() + chrono::Duration::hours(i as i64 * 7);
                if let Step::Full(full) = step {
                    set_full(&store, *full);
                }
                store.retry_at = None;
                apply(&mut store, step, now);
                apply(&mut reference, step, now);
                same(&store, &reference);
            }
            set_full(&store, false);
            store.retry_at = None;
            drop(store);
            let reopened = Store::open(Some(dir.path()));
            prop_assert!(reopened.is_persistent());
            same(&reopened, &reference);
        }
    }
}

#[test]
fn position_alone_agrees_with_course_progress() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(Some(dir.path()));
    assert_eq!(store.position("c", "l"), None);
    store.apply(&Change::Read {
        key: LessonKey::new("c", "l"),
    });
    assert_eq!(store.position("c", "l"), None, "read, no place saved");
    let at = Anchor { block: 7, line: 2 };
    store.apply(&Change::Position {
        key: LessonKey::new("c", "l"),
        anchor: at,
    });
    drop(store);
    let store = Store::open(Some(dir.path()));
    assert_eq!(store.position("c", "l"), Some(at));
    assert_eq!(store.course_progress("c")["l"].anchor, Some(at));
    assert_eq!(store.position("c", "other"), None);
    assert_eq!(store.position("other", "l"), None);
}
