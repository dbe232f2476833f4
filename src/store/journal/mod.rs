//! Writes the file refused (a held lock, a full disk), kept on disk beside
//! it until they reach it: `progress.db.pending-<random>`, one
//! [`Change`] per line, as JSON (journals of older lecterns, in the shape
//! before it, are read by [`old_lines`]). Each session has its own journal and holds an `flock` on it
//! while it runs, so the next lectern to start replays only the journals of
//! sessions that are over, and a journal is removed only once its changes
//! are in the file.
//!
//! A kill can come between the commit that puts a journal's changes in the
//! file and the removal of the journal. So that such a journal is not
//! replayed (its answers counted twice), that commit also records the
//! journal's name in the file (`journal_replayed`), and a replay skips a
//! journal whose name is recorded; names are forgotten once their journal
//! is gone. A kill while a line is being appended leaves at most that line
//! cut short: it was never said to be kept, and replay drops it.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::fault;
use super::write;
use crate::model::Change;

mod old_lines;

/// This session's journal: made on the first change it keeps.
#[derive(Debug)]
pub(crate) struct Journal {
    db: PathBuf,
    file: Option<(PathBuf, File)>,
    /// Changes written to it and not yet in the file.
    pub kept: usize,
    /// An append failed part way: the next line starts on a line of its
    /// own, not glued to the piece (which would spoil both).
    torn: bool,
}

fn prefix(db: &Path) -> String {
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    format!("{name}.pending-")
}

fn lock(file: &File, wait: bool) -> bool {
    // std's file locks are flock(2) on Unix: held by the open file.
    if wait {
        file.lock().is_ok()
    } else {
        file.try_lock().is_ok()
    }
}

impl Journal {
    pub(crate) fn new(db: &Path) -> Journal {
        Journal {
            db: db.to_path_buf(),
            file: None,
            kept: 0,
            torn: false,
        }
    }

    /// Where the journal is, once there is one.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(p, _)| p.as_path())
    }

    /// Its file's name, which the file records with the changes it holds.
    pub(crate) fn name(&self) -> Option<String> {
        Some(name_of(self.path()?))
    }

    /// Appends `change`, durably: a kill or a crash after this loses nothing.
    pub(crate) fn keep(&mut self, change: &Change) -> io::Result<()> {
        if self.file.is_none() {
            let path =
                self.db
                    .with_file_name(format!("{}{:016x}", prefix(&self.db), fault::random()));
            let file = File::options().append(true).create_new(true).open(&path)?;
            // Locked before anything is written: an empty journal is never
            // replayed, a non-empty one only once its session is over.
            lock(&file, true);
            self.file = Some((path, file));
        }
        let Some((_, file)) = self.file.as_mut() else {
            return Ok(());
        };
        let mut line = if self.torn { "\n" } else { "" }.to_string();
        line.push_str(&serde_json::to_string(change)?);
        line.push('\n');
        self.torn = true;
        let written = file
            .write_all(line.as_bytes())
            .and_then(|()| file.sync_data());
        if written.is_err() && self.kept == 0 {
            // Nothing kept in it yet (a full disk): no journal is left
            // behind empty or torn; the next change tries a new one.
            self.clear();
        }
        written?;
        self.torn = false;
        self.kept += 1;
        Ok(())
    }

    /// Everything kept is in the file now: the journal goes.
    pub(crate) fn clear(&mut self) {
        if let Some((path, _)) = self.file.take() {
            let _ = std::fs::remove_file(path);
        }
        self.kept = 0;
        self.torn = false;
    }
}

impl super::Store {
    /// A store that keeps every write in a new journal beside the file in
    /// `dir` and opens nothing else: the last act of a process whose main
    /// loop is stuck (a signal's grace ran out), which has no time for the
    /// file's lock or its checks. The next start replays it.
    pub fn journal_only(dir: &Path) -> super::Store {
        let mut store = super::Store::empty();
        // As for a file that will come back: writes are journaled.
        store.reopen = true;
        store.journal = Some(Journal::new(&dir.join(super::open::FILE)));
        store
    }

    /// How many changes a [`super::Store::journal_only`] kept, and where; it ends
    /// quietly (the caller says it).
    pub fn kept_aside(mut self) -> (usize, Option<PathBuf>) {
        self.closed = true;
        let journal = self.journal.as_ref();
        let at = journal.and_then(Journal::path).map(Path::to_path_buf);
        (journal.map_or(0, |j| j.kept), at)
    }
}

/// Applies every journal of an ended session to `conn`, each in one
/// transaction that also records its name, and removes it; one whose name
/// is recorded already is only removed. Returns how many changes reached
/// the file.
pub(crate) fn replay(db: &Path, conn: &mut Connection) -> usize {
    let Some(dir) = db.parent() else { return 0 };
    let prefix = prefix(db);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut journals: Vec<(Option<std::time::SystemTime>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| is_journal_name(&e.file_name().to_string_lossy(), &prefix))
        .map(|e| (e.metadata().and_then(|m| m.modified()).ok(), e.path()))
        .collect();
    // Oldest first: a session's journal and the one its signal left both
    // hold positions, and the later must win.
    journals.sort();
    let mut done = 0;
    for (_, path) in journals {
        // Only a regular file, opened without blocking: a FIFO or a link
        // to a device under a journal's name is not lectern's.
        let Ok((file, _)) = crate::own::open_regular_rw(&path) else {
            continue;
        };
        // Held by a session still running: its changes are its own.
        if !lock(&file, false) {
            continue;
        }
        // Its session saved it and removed it between our open and our
        // lock: what it holds is in the file already.
        if path.symlink_metadata().is_err() {
            continue;
        }
        match save(conn, &path, &file) {
            Saved::Changes(n) => {
                done += n;
                // A kill before this leaves a journal whose name is recorded.
                let _ = std::fs::remove_file(&path);
            }
            // Its session is over (the lock was had) and it never held a
            // change: what a full disk left. Nothing in it to lose.
            Saved::Empty if stale(&file) => {
                let _ = std::fs::remove_file(&path);
            }
            Saved::Empty | Saved::Left => {}
        }
    }
    // Best effort: a name kept a while longer only costs a row.
    let _ = write::forget_journals(conn, |name| dir.join(name).symlink_metadata().is_err());
    done
}

/// What became of a journal [`save`] was given.
#[derive(Debug, PartialEq, Eq)]
enum Saved {
    /// This many changes reached the file (0: they were there already).
    Changes(usize),
    /// It holds nothing.
    Empty,
    /// To be left where it is: unreadable, over the size a journal can
    /// reach, not a journal at all, or the file refused its changes.
    Left,
}

/// The most a journal can hold: a session's changes the file refused,
/// each a short line. A file past it under a journal's name is not one.
const MAX_JOURNAL_BYTES: u64 = 64 * 1024 * 1024;

/// Puts what the journal at `path` holds in the file, unless its name is
/// recorded there already.
fn save(conn: &mut Connection, path: &Path, file: &File) -> Saved {
    let len = file.metadata().map_or(0, |m| m.len());
    let Ok(bytes) = crate::own::read_capped(file, len, MAX_JOURNAL_BYTES, "a journal") else {
        return Saved::Left;
    };
    // Empty: its session may not have locked it yet (see `keep`).
    if bytes.is_empty() {
        return Saved::Empty;
    }
    let changes = read_changes(&bytes);
    // Not one line of lectern's: another program's file, whatever its name.
    if changes.is_empty() {
        return Saved::Left;
    }
    match write::replay_kept(conn, &changes, &name_of(path)) {
        Ok(true) => Saved::Changes(changes.len()),
        Ok(false) => Saved::Changes(0),
        Err(_) => Saved::Left,
    }
}

/// Whether an empty journal was made long enough ago that its session,
/// which locks it as soon as it makes it, cannot be about to write it.
fn stale(file: &File) -> bool {
    file.metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(60))
}

/// Whether `name` is one lectern gives a journal: the prefix, then the
/// 16 hex digits of [`fault::random`].
fn is_journal_name(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A journal's name as the file records it.
fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The changes of a journal's lines. A line that is not one (cut short by
/// a kill or a crash, or what a failed append left) is the change that was
/// being kept when it happened, never one that was kept: it is dropped, and
/// the lines around it are kept. Bytes, not text: a line cut inside a
/// character must not cost the whole journal.
fn read_changes(bytes: &[u8]) -> Vec<Change> {
    bytes
        .split(|&b| b == b'\n')
        .filter_map(|l| {
            serde_json::from_slice(l)
                .ok()
                .or_else(|| old_lines::decode(l))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn answer(option: u32) -> Change {
        Change::Attempt {
            key: crate::model::LessonKey::new("c", "l"),
            check: "q".into(),
            option,
            answer: Some("déjà".into()),
            correct: false,
            review: true,
            revealed: false,
            drill: false,
            at: Some(chrono::Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()),
        }
    }

    fn encode(change: &Change) -> String {
        serde_json::to_string(change).unwrap()
    }

    fn store(dir: &Path) -> (PathBuf, Connection) {
        let db = dir.join(super::super::open::FILE);
        let mut conn = Connection::open(&db).unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        (db, conn)
    }

    fn count(conn: &Connection, sql: &str) -> i64 {
        conn.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn a_start_killed_after_saving_a_journal_and_before_removing_it_counts_it_once() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = store(dir.path());
        let mut journal = Journal::new(&db);
        // Alike in everything: two answers all the same.
        journal.keep(&answer(1)).unwrap();
        journal.keep(&answer(1)).unwrap();
        let path = journal.path().unwrap().to_path_buf();
        drop(journal); // its session ends, the journal stays
        // The start that saves it is killed before it removes it.
        let file = File::open(&path).unwrap();
        assert_eq!(save(&mut conn, &path, &file), Saved::Changes(2));
        drop(file);
        let reps = count(&conn, "SELECT reps FROM review");
        // The next start finds it saved: it only removes it.
        assert_eq!(replay(&db, &mut conn), 0);
        assert!(!path.exists());
        assert_eq!(count(&conn, "SELECT count(*) FROM attempt"), 2);
        assert_eq!(count(&conn, "SELECT reps FROM review"), reps);
        assert_eq!(count(&conn, "SELECT count(*) FROM journal_replayed"), 0);
    }

    #[test]
    fn a_replay_saves_a_journal_once_and_records_it_until_it_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = store(dir.path());
        let mut journal = Journal::new(&db);
        journal.keep(&answer(1)).unwrap();
        let path = journal.path().unwrap().to_path_buf();
        drop(journal);
        let saved = || File::open(&path).unwrap();
        assert_eq!(save(&mut conn, &path, &saved()), Saved::Changes(1));
        assert_eq!(
            save(&mut conn, &path, &saved()),
            Saved::Changes(0),
            "recorded"
        );
        assert_eq!(count(&conn, "SELECT count(*) FROM journal_replayed"), 1);
        assert_eq!(count(&conn, "SELECT count(*) FROM attempt"), 1);
        // Kept while the journal is there, forgotten once it is not.
        assert_eq!(replay(&db, &mut conn), 0);
        assert!(!path.exists());
        assert_eq!(count(&conn, "SELECT count(*) FROM journal_replayed"), 0);
        assert_eq!(count(&conn, "SELECT count(*) FROM attempt"), 1);
    }

    #[test]
    fn what_only_looks_like_a_journal_is_neither_waited_on_nor_removed() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = store(dir.path());
        let name = |tail: &str| dir.path().join(format!("progress.db.pending-{tail}"));
        let fifo = name("00000000000000f1");
        crate::own::mkfifo(&fifo);
        std::os::unix::fs::symlink("/dev/zero", name("00000000000000f2")).unwrap();
        std::fs::write(name("00000000000000f3"), b"my shopping list\n").unwrap();
        std::fs::write(name("notes.txt"), encode(&answer(1))).unwrap();
        // Returns at once (a FIFO read would block, /dev/zero never ends).
        assert_eq!(replay(&db, &mut conn), 0);
        for tail in [
            "00000000000000f1",
            "00000000000000f2",
            "00000000000000f3",
            "notes.txt",
        ] {
            assert!(name(tail).symlink_metadata().is_ok(), "{tail} was removed");
        }
        assert_eq!(count(&conn, "SELECT count(*) FROM attempt"), 0);
    }

    #[test]
    fn an_empty_journal_of_an_ended_session_goes_once_it_is_old() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = store(dir.path());
        let young = dir.path().join("progress.db.pending-00000000000000a1");
        let old = dir.path().join("progress.db.pending-00000000000000a2");
        std::fs::write(&young, b"").unwrap();
        let f = File::create(&old).unwrap();
        let ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        f.set_modified(ago).unwrap();
        replay(&db, &mut conn);
        assert!(young.exists(), "its session may be about to lock it");
        assert!(!old.exists());
    }

    #[test]
    fn a_line_a_failed_append_cut_short_spoils_no_other() {
        let dir = tempfile::tempdir().unwrap();
        let (db, _conn) = store(dir.path());
        let mut journal = Journal::new(&db);
        journal.keep(&answer(1)).unwrap();
        let path = journal.path().unwrap().to_path_buf();
        // What a full disk let through of the next line, then the error.
        let line = encode(&answer(2));
        let mut file = File::options().append(true).open(&path).unwrap();
        file.write_all(&line.as_bytes()[..line.len() / 2]).unwrap();
        journal.torn = true;
        journal.keep(&answer(3)).unwrap();
        let changes = read_changes(&std::fs::read(&path).unwrap());
        assert_eq!(changes, [answer(1), answer(3)]);
    }

    #[test]
    fn lines_cut_inside_a_character_or_followed_by_zeros_are_dropped_alone() {
        let whole = format!("{}\n{}\n", encode(&answer(1)), encode(&answer(2)));
        let cut = encode(&answer(3));
        let inside = cut.find('é').unwrap() + 1;
        let mut bytes = whole.into_bytes();
        bytes.extend_from_slice(&cut.as_bytes()[..inside]);
        assert_eq!(read_changes(&bytes), [answer(1), answer(2)]);
        bytes.extend_from_slice(&[0; 300]);
        assert_eq!(read_changes(&bytes), [answer(1), answer(2)]);
    }

    /// Every line an older lectern wrote, as it wrote it (a course's
    /// slug under "course", its title under "lesson"; an attempt from
    /// before checks had ids or reveals were kept), beside a line of now.
    const OLD_JOURNAL: &str = concat!(
        r#"{"op":"remember","course":"c","lesson":"A course","root":"/x/y","lessons":12,"at_ms":1772355600000}"#,
        "\n",
        r#"{"op":"position","course":"c","lesson":"l","block":3,"line":9}"#,
        "\n",
        r#"{"op":"read","course":"c","lesson":"l"}"#,
        "\n",
        r#"{"op":"completed","course":"c","lesson":"l2"}"#,
        "\n",
        r#"{"op":"last","course":"c","lesson":"l"}"#,
        "\n",
        r#"{"op":"checks","course":"c","lesson":"l","count":2}"#,
        "\n",
        r#"{"op":"attempt","course":"c","lesson":"l","option":1,"correct":false,"review":false,"at_ms":1772355601000}"#,
        "\n",
        r#"{"op":"reveal","course":"c","lesson":"l","check":"q","at_ms":1772355602000}"#,
        "\n",
        r#"{"op":"attempt","course":"c","lesson":"l","check":"q","option":4294967295,"answer":"déjà","correct":true,"review":true,"revealed":true,"at_ms":1772355603000}"#,
        "\n",
        r#"{"op":"rate","course":"c","lesson":"l","check":"q","rating":4}"#,
        "\n",
        r#"{"change":"read","course":"c","lesson":"l3"}"#,
        "\n",
    );

    #[test]
    fn a_journal_an_older_lectern_wrote_is_read_whole() {
        use crate::model::{Anchor, LessonKey, NO_OPTION};
        let changes = read_changes(OLD_JOURNAL.as_bytes());
        let key = LessonKey::new("c", "l");
        let at = |s: i64| Some(chrono::Utc.timestamp_opt(1_772_355_600 + s, 0).unwrap());
        assert_eq!(
            changes,
            [
                Change::Remember {
                    slug: "c".into(),
                    title: "A course".into(),
                    root: Some("/x/y".into()),
                    lessons: 12,
                    at: at(0),
                },
                Change::Position {
                    key: key.clone(),
                    anchor: Anchor { block: 3, line: 9 },
                },
                Change::Read { key: key.clone() },
                Change::Completed {
                    key: LessonKey::new("c", "l2"),
                },
                Change::LastLesson { key: key.clone() },
                Change::Checks {
                    key: key.clone(),
                    count: 2,
                },
                Change::Attempt {
                    key: key.clone(),
                    check: String::new(),
                    option: 1,
                    answer: None,
                    correct: false,
                    review: false,
                    revealed: false,
                    drill: false,
                    at: at(1),
                },
                Change::Reveal {
                    key: key.clone(),
                    check: "q".into(),
                    at: at(2),
                },
                Change::Attempt {
                    key: key.clone(),
                    check: "q".into(),
                    option: NO_OPTION,
                    answer: Some("déjà".into()),
                    correct: true,
                    review: true,
                    revealed: true,
                    drill: false,
                    at: at(3),
                },
                Change::Rate {
                    key,
                    check: "q".into(),
                    rating: 4,
                },
                Change::Read {
                    key: LessonKey::new("c", "l3"),
                },
            ]
        );
    }

    #[test]
    fn an_old_journal_left_by_an_ended_session_is_replayed_into_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = store(dir.path());
        let path = dir.path().join("progress.db.pending-00000000000000b1");
        std::fs::write(&path, OLD_JOURNAL).unwrap();
        assert_eq!(replay(&db, &mut conn), 11);
        assert!(!path.exists());
        assert_eq!(count(&conn, "SELECT count(*) FROM attempt"), 2);
        assert_eq!(count(&conn, "SELECT count(*) FROM reveal"), 1);
        assert_eq!(
            count(&conn, "SELECT count(*) FROM attempt WHERE rating = 4"),
            1
        );
        assert_eq!(
            count(&conn, "SELECT lessons FROM library WHERE slug = 'c'"),
            12
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM lesson_progress WHERE read AND anchor_block = 3 AND checks = 2"
            ),
            1
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM course_state WHERE last_lesson = 'l'"
            ),
            1
        );
    }
}
