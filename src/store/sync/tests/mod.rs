//! Syncing between stores through folders, one transport's trouble at a
//! time. Each device has a folder of its own, and the tests carry files
//! between them as the transports do (whole, cut, as conflict copies,
//! twice, deleted), so every case is written out rather than left to a
//! sync tool's timing.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::FOLDER;

mod props;
use crate::model::anchor::Selector;
use crate::model::{Change, LessonKey};
use crate::store::Store;

pub(super) fn t(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap() + Duration::minutes(minutes)
}

/// A device: a store in memory with a sync folder of its own.
pub(super) struct Device {
    pub store: Store,
    pub dir: tempfile::TempDir,
    pub id: String,
}

impl Device {
    pub(super) fn new() -> Device {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::in_memory();
        store.sync_to(dir.path());
        let id = store.device().unwrap().0;
        Device { store, dir, id }
    }

    pub(super) fn logs(&self) -> PathBuf {
        self.dir.path().join(FOLDER)
    }

    /// This device's own log.
    pub(super) fn log(&self) -> PathBuf {
        self.logs().join(format!("{}.log", self.id))
    }

    pub(super) fn log_bytes(&self) -> Vec<u8> {
        std::fs::read(self.log()).unwrap_or_default()
    }

    /// `bytes` put in this device's folder as `name`.
    pub(super) fn receive(&self, name: &str, bytes: &[u8]) {
        std::fs::create_dir_all(self.logs()).unwrap();
        std::fs::write(self.logs().join(name), bytes).unwrap();
    }

    /// `other`'s log, whole, where a sync tool puts it.
    pub(super) fn receive_log_of(&self, other: &Device) {
        self.receive(&format!("{}.log", other.id), &other.log_bytes());
    }

    pub(super) fn answer(&mut self, check: &str, correct: bool, at: DateTime<Utc>) {
        self.store.apply(&answer(check, correct, false, at));
    }

    pub(super) fn attempts(&self) -> usize {
        self.store.attempts("c", "l").len()
    }

    pub(super) fn first_try(&self, check: &str) -> Option<bool> {
        self.store
            .progress("c", "l")
            .checks
            .get(check)
            .and_then(|c| c.first_try_correct)
    }
}

pub(super) fn answer(check: &str, correct: bool, review: bool, at: DateTime<Utc>) -> Change {
    Change::Attempt {
        key: LessonKey::new("c", "l"),
        check: check.into(),
        option: u32::from(!correct),
        answer: None,
        correct,
        review,
        revealed: false,
        drill: false,
        at: Some(at),
    }
}

fn note(id: &str, text: &str, deleted: bool, at: DateTime<Utc>) -> Change {
    Change::Annotation {
        key: LessonKey::new("c", "l"),
        id: id.into(),
        target: Selector {
            exact: "quote".into(),
            ..Selector::default()
        },
        note: text.into(),
        card: text.ends_with('?'),
        deleted,
        at: Some(at),
    }
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn an_answer_made_on_one_device_is_merged_on_the_other_once() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", false, t(0));
    a.answer("q", true, t(1));
    assert_eq!(lines(&a.log()), 2, "each change a line, at once");
    b.receive_log_of(&a);
    let merged = b.store.sync_now();
    assert_eq!(merged.devices[&a.id].answers, 2);
    assert!(merged.courses.contains("c"));
    assert_eq!((b.attempts(), b.first_try("q")), (2, Some(false)));
    // Again, and the same log copied a second time: nothing new.
    b.receive(&format!("{}.log", a.id), &a.log_bytes());
    assert_eq!(b.store.sync_now().total(), 0);
    assert_eq!(b.attempts(), 2);
    // B's own answers never come back to it from its own log.
    b.answer("r", true, t(2));
    assert_eq!(b.store.sync_now().total(), 0);
    assert_eq!(b.store.attempts("c", "l").len(), 3);
}

#[test]
fn a_last_line_cut_by_a_sync_in_progress_waits_and_the_rest_is_read() {
    let (mut a, mut b) = (Device::new(), Device::new());
    for i in 0..3 {
        a.answer("q", i == 2, t(i));
    }
    let whole = a.log_bytes();
    let cut = whole.len() - 10;
    b.receive(&format!("{}.log", a.id), &whole[..cut]);
    let merged = b.store.sync_now();
    assert_eq!(
        (merged.total(), merged.damaged),
        (2, 0),
        "the cut line waits"
    );
    b.receive(&format!("{}.log", a.id), &whole);
    let merged = b.store.sync_now();
    assert_eq!((merged.total(), merged.damaged), (1, 0));
    assert_eq!(b.attempts(), 3);
}

#[test]
fn a_damaged_line_is_skipped_and_counted_and_the_rest_read() {
    let (mut a, mut b) = (Device::new(), Device::new());
    for i in 0..3 {
        a.answer("q", true, t(i));
    }
    let mut bytes = a.log_bytes();
    let second = bytes.iter().position(|b| *b == b'\n').unwrap() + 20;
    bytes[second] ^= 0x20;
    b.receive(&format!("{}.log", a.id), &bytes);
    let merged = b.store.sync_now();
    assert_eq!((merged.total(), merged.damaged), (2, 1));
    assert_eq!(b.store.sync_status().damaged, 1);
    // The same line whole in another copy of the log: taken from there.
    b.receive(&format!("{} (1).log", a.id), &a.log_bytes());
    let merged = b.store.sync_now();
    assert_eq!((merged.total(), b.attempts()), (1, 3));
}

#[test]
fn conflict_copies_are_the_same_devices_records_and_count_once() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", false, t(0));
    let early = a.log_bytes();
    a.answer("q", true, t(1));
    a.store.apply(&note("n1", "why", false, t(2)));
    let id = &a.id;
    b.receive(
        &format!("{id}.sync-conflict-20260301-090000-ABCDEFG.log"),
        &early,
    );
    b.receive(&format!("{id} (1).log"), &a.log_bytes());
    b.receive(
        &format!("{id} (Ana's conflicted copy 2026-03-01).log"),
        &early,
    );
    b.receive(&format!("{id}.log"), &a.log_bytes());
    // A sync tool's temporary file is no log.
    b.receive(&format!(".syncthing.{id}.log.tmp"), &a.log_bytes());
    let merged = b.store.sync_now();
    assert_eq!(merged.devices[id].answers, 2);
    assert_eq!(merged.devices[id].notes, 1);
    assert_eq!(b.attempts(), 2);
    assert_eq!(b.store.notes().len(), 1);
    assert_eq!(b.store.sync_status().files, 4);
}

#[test]
fn a_deleted_log_is_written_again_and_loses_nothing() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", true, t(0));
    a.answer("r", false, t(1));
    b.receive_log_of(&a);
    b.store.sync_now();
    std::fs::remove_file(a.log()).unwrap();
    // Nothing lost here, and the next look writes it whole again.
    assert_eq!(a.attempts(), 2);
    a.store.sync_check();
    assert_eq!(lines(&a.log()), 2);
    a.answer("q", false, t(2));
    assert_eq!(lines(&a.log()), 3);
    // The other device reads the new file: one new answer, none twice.
    b.receive_log_of(&a);
    assert_eq!(b.store.sync_now().total(), 1);
    assert_eq!(b.attempts(), 3);
}

#[test]
fn a_log_cut_short_is_completed_from_the_store() {
    let mut a = Device::new();
    for i in 0..4 {
        a.answer("q", true, t(i));
    }
    let whole = a.log_bytes();
    // Cut inside the third line, as a sync tool restoring an older copy.
    let cut = whole.len() - whole.len() / 3;
    std::fs::write(a.log(), &whole[..cut]).unwrap();
    a.store.sync_check();
    let mut b = Device::new();
    b.receive_log_of(&a);
    let merged = b.store.sync_now();
    assert_eq!(
        (merged.total(), merged.damaged),
        (4, 1),
        "the cut line ended and skipped"
    );
}

#[test]
fn a_change_the_store_made_before_the_folder_was_set_reaches_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::in_memory();
    store.apply(&answer("q", true, false, t(0)));
    store.apply(&note("n", "kept", false, t(1)));
    // As after a kill between the commit and the append: the log is
    // brought up to date at the next start.
    store.sync_to(dir.path());
    let id = store.device().unwrap().0;
    assert_eq!(lines(&dir.path().join(FOLDER).join(format!("{id}.log"))), 2);
}

#[test]
fn a_device_clock_hours_off_still_merges_the_same_everywhere() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", false, t(0));
    // B's clock is five hours behind: its answer says it came first.
    b.answer("q", true, t(-300) + Duration::minutes(1));
    // And it set its clock back between two of its own answers: its own
    // order is its log's, not its clock's.
    b.answer("r", false, t(-290));
    b.answer("r", true, t(-400));
    a.receive_log_of(&b);
    b.receive_log_of(&a);
    a.store.sync_now();
    b.store.sync_now();
    for d in [&a, &b] {
        assert_eq!(d.first_try("q"), Some(true), "by time across devices");
        assert_eq!(d.first_try("r"), Some(false), "by the log within one");
    }
    assert_eq!(a.store.due(None, t(100_000)), b.store.due(None, t(100_000)));
}

#[test]
fn a_rating_that_arrives_before_its_answer_still_rates_it() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.store.apply(&answer("q", true, false, t(0)));
    a.store.apply(&answer("q", true, true, t(3 * 24 * 60)));
    a.store.apply(&Change::Rate {
        key: LessonKey::new("c", "l"),
        check: "q".into(),
        rating: 4,
    });
    // The review answer's line damaged here, whole in a later copy.
    let bytes = a.log_bytes();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let damaged = lines[1].replace("true", "tru3");
    lines[1] = &damaged;
    b.receive(
        &format!("{}.log", a.id),
        format!("{}\n", lines.join("\n")).as_bytes(),
    );
    b.store.sync_now();
    b.receive(&format!("{} (1).log", a.id), &bytes);
    b.store.sync_now();
    assert_eq!(
        b.store.due(None, t(1_000_000)),
        a.store.due(None, t(1_000_000))
    );
}

#[test]
fn notes_are_the_last_writers_with_deletions_kept_whatever_the_order() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.store.apply(&note("n", "first", false, t(0)));
    b.receive_log_of(&a);
    b.store.sync_now();
    b.store.apply(&note("n", "edited on b", false, t(5)));
    a.store.apply(&note("n", "gone", true, t(9)));
    a.store.apply(&note("m", "a's own", false, t(3)));
    a.receive_log_of(&b);
    b.receive_log_of(&a);
    a.store.sync_now();
    b.store.sync_now();
    assert_eq!(a.store.notes(), b.store.notes());
    let notes = a.store.notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(matches!(&notes[0], Change::Annotation { id, .. } if id == "m"));
}

#[test]
fn a_folder_that_cannot_be_written_is_said_once_and_reading_goes_on() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", true, t(0));
    b.receive_log_of(&a);
    // B's log cannot be made: a folder stands where it goes.
    std::fs::create_dir_all(b.log()).unwrap();
    b.answer("r", true, t(1));
    let said = b.store.take_warning().expect("said");
    assert!(said.contains("sync folder"), "{said}");
    b.answer("r", false, t(2));
    assert_eq!(b.store.take_warning(), None, "once");
    assert_eq!(b.store.sync_now().total(), 1, "reading goes on");
    // Once it can be written, everything kept goes there.
    std::fs::remove_dir(b.log()).unwrap();
    b.answer("s", true, t(3));
    assert_eq!(lines(&b.log()), 3);
}

#[test]
fn a_store_put_back_from_a_backup_never_gives_a_number_twice() {
    let dir = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let mut store = Store::open(Some(data.path()));
    store.sync_to(dir.path());
    store.apply(&answer("q", true, false, t(0)));
    drop(store);
    let backup = std::fs::read(data.path().join("progress.db")).unwrap();
    let mut store = Store::open(Some(data.path()));
    store.sync_to(dir.path());
    store.apply(&answer("q", false, false, t(1)));
    store.apply(&answer("r", false, false, t(2)));
    drop(store);
    for f in ["progress.db", "progress.db-wal", "progress.db-shm"] {
        let _ = std::fs::remove_file(data.path().join(f));
    }
    std::fs::write(data.path().join("progress.db"), backup).unwrap();
    let mut store = Store::open(Some(data.path()));
    store.sync_to(dir.path());
    assert_eq!(store.attempts("c", "l").len(), 3, "taken back from the log");
    store.apply(&answer("s", true, false, t(3)));
    let (id, _) = store.device().unwrap();
    let log = dir.path().join(FOLDER).join(format!("{id}.log"));
    let text = std::fs::read_to_string(log).unwrap();
    let seqs: Vec<&str> = text.lines().map(|l| &l[..12]).collect();
    assert_eq!(
        seqs,
        [
            r#"{"seq":1,"de"#,
            r#"{"seq":2,"de"#,
            r#"{"seq":3,"de"#,
            r#"{"seq":4,"de"#
        ]
    );
}

#[test]
fn a_name_travels_with_the_log() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.store.name_device("laptop").unwrap();
    assert_eq!(a.store.device().unwrap().1.as_deref(), Some("laptop"));
    b.receive_log_of(&a);
    b.store.sync_now();
    let status = b.store.sync_status();
    let other = status.others().next().unwrap();
    assert_eq!(
        (other.name.as_deref(), other.id.as_str()),
        (Some("laptop"), a.id.as_str())
    );
    assert!(b.store.name_device(" \n").is_err());
}

#[test]
fn git_line_ends_and_a_replaced_file_are_read_as_the_same_log() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", true, t(0));
    b.receive_log_of(&a);
    b.store.sync_now();
    a.answer("q", false, t(1));
    // A checkout with CRLF line ends: another file, the same records.
    let crlf = String::from_utf8(a.log_bytes())
        .unwrap()
        .replace('\n', "\r\n");
    b.receive(&format!("{}.log", a.id), crlf.as_bytes());
    let merged = b.store.sync_now();
    assert_eq!((merged.total(), merged.damaged), (1, 0));
    assert_eq!(b.attempts(), 2);
}

#[test]
fn a_store_that_syncs_for_the_first_time_brings_its_history() {
    let data = tempfile::tempdir().unwrap();
    // A file as version 8 left it, with an answer, a rating and a note.
    {
        let conn = rusqlite::Connection::open(data.path().join("progress.db")).unwrap();
        crate::store::schema::upgrade(&conn, 0, 8).unwrap();
        conn.execute_batch(
            "INSERT INTO attempt (course, lesson, check_id, at_ms, option, correct, review, rating)
             VALUES ('c', 'l', 'q', 1000, 1, 1, 0, NULL), ('c', 'l', 'q', 90000000, 1, 1, 1, 4);
             INSERT INTO lesson_progress (course, lesson, read, anchor_block) VALUES ('c', 'l', 1, 3);
             INSERT INTO library (slug, title, root, lessons, last_read_ms) VALUES ('c', 'C', NULL, 2, 5);",
        )
        .unwrap();
        crate::store::review::replay_all(&conn).unwrap();
    }
    let mut old = Store::open(Some(data.path()));
    let sync = tempfile::tempdir().unwrap();
    old.sync_to(sync.path());
    let mut fresh = Device::new();
    std::fs::create_dir_all(fresh.logs()).unwrap();
    for entry in std::fs::read_dir(sync.path().join(FOLDER)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), fresh.logs().join(entry.file_name())).unwrap();
    }
    let merged = fresh.store.sync_now();
    assert_eq!(merged.total(), 6, "{merged:?}");
    assert_eq!(fresh.store.attempts("c", "l").len(), 2);
    assert_eq!(fresh.store.due(None, t(100_000)), old.store_due());
    assert!(fresh.store.progress("c", "l").read);
}

impl Store {
    fn store_due(&self) -> Vec<(String, String, DateTime<Utc>)> {
        self.due(None, t(100_000))
    }
}

#[test]
fn two_devices_writing_a_note_at_the_same_millisecond_agree_on_one() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.store.apply(&note("n", "from a", false, t(0)));
    b.store.apply(&note("n", "from b", false, t(0)));
    a.receive_log_of(&b);
    b.receive_log_of(&a);
    a.store.sync_now();
    b.store.sync_now();
    assert_eq!(a.store.notes(), b.store.notes());
    assert_eq!(a.store.notes().len(), 1);
}

#[test]
fn a_sync_folder_that_is_not_there_is_never_made() {
    let dir = tempfile::tempdir().unwrap();
    let unplugged = dir.path().join("usb-stick");
    let mut store = Store::in_memory();
    store.sync_to(&unplugged);
    store.apply(&answer("q", true, false, t(0)));
    assert!(!unplugged.exists());
    let said = store.take_warning().expect("said");
    assert!(said.contains("not there"), "{said}");
    // Plugged in: everything kept goes there at the next write.
    std::fs::create_dir(&unplugged).unwrap();
    store.apply(&answer("q", false, false, t(1)));
    let (id, _) = store.device().unwrap();
    assert_eq!(lines(&unplugged.join(FOLDER).join(format!("{id}.log"))), 2);
}

#[test]
fn a_log_deleted_while_the_reader_runs_is_written_whole_at_the_next_change() {
    let mut a = Device::new();
    a.answer("q", true, t(0));
    a.answer("q", false, t(1));
    std::fs::remove_file(a.log()).unwrap();
    a.answer("r", true, t(2));
    assert_eq!(lines(&a.log()), 3);
}

#[test]
fn a_long_log_is_merged_a_chunk_at_a_time_and_all_of_it() {
    use super::record::{Body, Record, line};
    let b = Device::new();
    let log: String = (1..=2500)
        .map(|seq| {
            let at = t(seq);
            let record = Record {
                device: "feed".into(),
                seq,
                at_ms: at.timestamp_millis(),
                of: None,
                body: Body::Change(answer("q", seq % 2 == 0, false, at)),
            };
            line(&record.to_json())
        })
        .collect();
    b.receive("feed.log", log.as_bytes());
    let mut b = b;
    let look = b.store.sync_plan().unwrap().look();
    let chunk = super::look::Budget::LOOK.records;
    assert!(look.more, "a chunk");
    assert_eq!(look.records.len(), chunk);
    b.store.sync_merge(&look).unwrap();
    assert_eq!(b.attempts(), chunk);
    assert_eq!(b.store.sync_now().total() as usize, 2500 - chunk);
    assert_eq!(b.attempts(), 2500);
}

#[test]
fn a_store_another_lectern_is_writing_is_merged_into_later_never_waited_for() {
    let mut a = Device::new();
    a.answer("q", true, t(0));
    let data = tempfile::tempdir().unwrap();
    // A wait long enough that a merge waiting on the lock would be seen.
    let mut store = Store::open_waiting(Some(data.path()), std::time::Duration::from_secs(60));
    let sync = tempfile::tempdir().unwrap();
    store.sync_to(sync.path());
    std::fs::create_dir_all(sync.path().join(FOLDER)).unwrap();
    std::fs::copy(
        a.log(),
        sync.path().join(FOLDER).join(format!("{}.log", a.id)),
    )
    .unwrap();
    let look = store.sync_plan().unwrap().look();
    let mut other = rusqlite::Connection::open(data.path().join("progress.db")).unwrap();
    let lock = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    assert!(store.sync_merge(&look).is_err(), "not now");
    drop(lock);
    assert_eq!(store.sync_merge(&look).unwrap().total(), 1);
    assert_eq!(store.attempts("c", "l").len(), 1);
}

#[test]
fn a_sync_folder_holding_the_data_folder_is_refused() {
    let sync = tempfile::tempdir().unwrap();
    let data = sync.path().join("lectern-data");
    let mut store = Store::open(Some(&data));
    store.sync_to(sync.path());
    store.apply(&answer("q", true, false, t(0)));
    assert!(!sync.path().join(FOLDER).exists());
    let said = store.take_warning().expect("said");
    assert!(said.contains("holds the progress database"), "{said}");
}

#[test]
fn a_fifo_in_the_folder_is_never_opened() {
    let (mut a, mut b) = (Device::new(), Device::new());
    a.answer("q", true, t(0));
    b.receive_log_of(&a);
    crate::own::mkfifo(&b.logs().join("stuck.log"));
    assert_eq!(b.store.sync_now().total(), 1);
    // Nor this machine's own log, if one stands in its place.
    std::fs::remove_file(b.log()).ok();
    crate::own::mkfifo(&b.log());
    b.answer("r", true, t(1));
    assert!(b.store.take_warning().is_some());
}
