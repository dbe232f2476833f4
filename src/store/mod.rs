//! The progress store: where the reader is in each lesson, what they
//! answered, and when each lesson comes back for review.
//!
//! It is an SQLite file (`progress.db`) in the data directory. Whatever goes
//! wrong with that file, reading goes on: the store falls back to an
//! in-memory copy, says so once through [`Store::take_warning`], and never
//! deletes or overwrites what the reader had saved. No method returns an
//! error or panics because of the file.
//!
//! A change the file refuses for a while (another program holds its lock,
//! the disk is full) is also kept in a small journal beside it
//! (`progress.db.pending-*`), tried again every `RETRY_AFTER`, and
//! replayed by the next lectern to start if this one ends first; a file
//! that could not be opened for writing at all for such a reason is
//! opened again once it can be. [`Store::close`] says what is still kept
//! aside at the end (dropping the store says it on stderr otherwise).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use rusqlite::Connection;

mod closing;
mod fault;
mod figures;
mod journal;
mod learner;
mod library;
mod mirror;
mod notes;
mod open;
mod plan;
mod read;
mod review;
mod rounds;
mod schema;
pub mod sync;
mod time;
mod write;

pub(crate) use figures::{reviews, shelf_figures, summary};
pub use library::LibraryCourse;

use crate::model::Change;
use fault::{Fault, Warnings};

/// The schema version this build reads and writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: u32 = schema::CURRENT;

pub use open::BUSY_TIMEOUT;

/// Reading positions are the model's anchors (block + line within it).
pub use crate::model::Anchor;

/// One answer to a lesson's check question. Times are kept to the
/// millisecond.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub at: DateTime<Utc>,
    pub option: u32,
    pub correct: bool,
    /// Given during a spaced review rather than while reading the lesson.
    pub review: bool,
    /// Which of the lesson's checks it answers ("" for a JSON lesson's).
    pub check: String,
    /// A typed (or several-option) answer, as text.
    pub answer: Option<String>,
}

use crate::model::Days;
pub use crate::model::LessonProgress;

/// A wrong option the reader keeps choosing: "you chose option `option` of
/// lesson `lesson` `times` times".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misconception {
    pub course: String,
    pub lesson: String,
    /// The check of the lesson whose option it is.
    pub check: String,
    pub option: u32,
    pub times: u32,
    /// When it was last chosen.
    pub last: DateTime<Utc>,
}

/// After a write to the file fails, the next ones go to memory for this
/// long before the file is tried again: each try may wait the whole busy
/// timeout, and the reader should not feel that on every page turn.
const RETRY_AFTER: Duration = Duration::from_secs(10);

/// The progress store. See the module documentation for how it fails.
#[derive(Debug)]
pub struct Store {
    /// The file, when one could be opened at all.
    disk: Option<Connection>,
    /// Whether writes still go to the file this session.
    disk_writable: bool,
    /// The in-memory copy that serves reads and takes writes while the file
    /// cannot. `None` while the file is in step.
    shadow: Option<Connection>,
    /// Writes the shadow has and the file has not yet; replayed, in order,
    /// in one transaction, on the next write that reaches the file.
    pending: Vec<Change>,
    retry_at: Option<Instant>,
    /// Reads take `&self` and may fail too.
    warnings: RefCell<Warnings>,
    /// The data directory, to open the file again once it can be written.
    dir: Option<PathBuf>,
    /// The file could not be opened for writing for a passing reason (a
    /// held lock, a full disk): it is tried again on later writes.
    reopen: bool,
    /// How long a write waits for another program's lock on the file.
    busy_timeout: Duration,
    /// Pending writes, on disk, while the file refuses them.
    journal: Option<journal::Journal>,
    /// Why the journal could not keep a change, if it could not.
    journal_failed: Option<String>,
    /// What the file last refused writes for, for the closing word.
    refused: Option<Fault>,
    /// Why a store opened from a file keeps the session in memory only
    /// (newer, read-only, unusable), and how many changes to the learner's
    /// progress only memory holds: said again at quit, not lost unsaid.
    memory_only: Option<Fault>,
    kept_in_memory: usize,
    closed: bool,
    /// This device's log in the sync folder, when there is one.
    sync: Option<sync::Link>,
}

impl Store {
    /// The data directory: `explicit` (`--data-dir`), else
    /// `$LECTERN_DATA_DIR`, else the platform's (XDG on Linux). `None` when
    /// the platform has no home directory to put one in.
    pub fn data_dir(explicit: Option<&Path>) -> Option<PathBuf> {
        if let Some(dir) = explicit {
            return Some(dir.to_path_buf());
        }
        if let Some(dir) = std::env::var_os("LECTERN_DATA_DIR").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir));
        }
        crate::own::platform_dirs().map(|p| p.data_dir().to_path_buf())
    }

    /// The store in `dir` (created if missing), or in memory for `None`.
    /// Never fails: see [`Store::take_warning`] for what went wrong.
    pub fn open(dir: Option<&Path>) -> Store {
        Store::open_waiting(dir, BUSY_TIMEOUT)
    }

    /// [`Store::open`], waiting up to `busy_timeout` (not
    /// [`BUSY_TIMEOUT`]) for a file another program holds, at the start
    /// and on each write: tests of a held lock need not wait out the
    /// reader's.
    pub fn open_waiting(dir: Option<&Path>, busy_timeout: Duration) -> Store {
        let options = open::Options {
            busy_timeout,
            ..open::Options::at(Utc::now())
        };
        match dir {
            Some(dir) => Store::open_with(dir, options),
            None => {
                let mut store = Store::in_memory();
                // The platform could not name an absolute folder (no home,
                // or a relative HOME): said, never silently forgotten.
                let why = "no data folder: HOME is not an absolute path; set LECTERN_DATA_DIR";
                store.warn(Fault::Unopenable, why);
                store
            }
        }
    }

    /// A store that lasts as long as the session.
    pub fn in_memory() -> Store {
        let mut store = Store::empty();
        match schema::memory() {
            // No learner to be stable for: one fixed seed, so a session
            // (and a test) without a file shows options alike every time.
            Ok(conn) => {
                let _ = conn.execute("UPDATE learner SET seed = 1", []);
                store.shadow = Some(conn)
            }
            Err(e) => store.warn(Fault::Unopenable, &e.to_string()),
        }
        store
    }

    fn empty() -> Store {
        Store {
            disk: None,
            disk_writable: false,
            shadow: None,
            pending: Vec::new(),
            retry_at: None,
            warnings: RefCell::default(),
            dir: None,
            reopen: false,
            busy_timeout: BUSY_TIMEOUT,
            journal: None,
            journal_failed: None,
            refused: None,
            memory_only: None,
            kept_in_memory: 0,
            closed: false,
            sync: None,
        }
    }

    pub(crate) fn open_with(dir: &Path, options: open::Options) -> Store {
        let opened = open::open(dir, options);
        let mut store = Store::empty();
        store.disk = opened.disk;
        store.disk_writable = opened.writable;
        store.reopen = opened.retry;
        store.dir = Some(dir.to_path_buf());
        store.busy_timeout = options.busy_timeout;
        let db = dir.join(open::FILE);
        if let Some(disk) = store.disk.as_mut().filter(|_| opened.writable) {
            journal::replay(&db, disk);
        }
        drop(opened.lock);
        store.journal = Some(journal::Journal::new(&db));
        for (fault, detail) in opened.faults {
            if matches!(fault, Fault::Busy | Fault::Full) {
                store.refused = Some(fault);
                store.retry_at = Some(Instant::now() + RETRY_AFTER);
            }
            if matches!(fault, Fault::Newer | Fault::ReadOnly | Fault::Unopenable) && !store.reopen
            {
                store.memory_only.get_or_insert(fault);
            }
            store.warn(fault, &detail);
        }
        // A file that cannot be written is copied now, so the session
        // starts from what the reader had.
        if !store.disk_writable {
            store.ensure_shadow();
        }
        store
    }

    /// The next warning not yet shown: one line, each kind of fault once
    /// per session.
    pub fn take_warning(&mut self) -> Option<String> {
        self.warnings.get_mut().take()
    }

    /// Whether everything written so far this session is in the file.
    pub fn is_persistent(&self) -> bool {
        self.disk.is_some() && self.disk_writable && self.pending.is_empty()
    }

    /// Makes `change`, in one transaction (all of it or none): in the
    /// file, or, while the file refuses it, in memory and in the journal
    /// (see the module documentation). A change without its time is made
    /// now.
    pub fn apply(&mut self, change: &Change) {
        self.write(change.clone().stamped(Utc::now()));
    }

    pub fn last_lesson(&self, course: &str) -> Option<String> {
        self.read(|conn| read::last_lesson(conn, course))
    }

    /// When each review answer since `since` was given (of `course`, or
    /// of every course).
    pub fn review_times(&self, course: Option<&str>, since: DateTime<Utc>) -> Vec<DateTime<Utc>> {
        self.read(|conn| read::review_times(conn, course, since))
    }

    /// Oldest first.
    pub fn attempts(&self, course: &str, lesson: &str) -> Vec<Attempt> {
        self.read(|conn| read::attempts(conn, course, lesson))
    }

    pub fn progress(&self, course: &str, lesson: &str) -> LessonProgress {
        self.read(|conn| read::progress(conn, course, Some(lesson)))
            .remove(lesson)
            .unwrap_or_default()
    }

    /// Every lesson of `course` the store knows anything about, by slug.
    /// The saved place in `lesson`, alone (see [`Store::course_progress`]
    /// for everything).
    pub fn position(&self, course: &str, lesson: &str) -> Option<Anchor> {
        self.read(|conn| read::position(conn, course, lesson))
    }

    /// Every mark and annotation of the library not deleted, oldest first
    /// (each id's last change).
    pub fn notes(&self) -> Vec<Change> {
        self.read(notes::all)
    }

    pub fn course_progress(&self, course: &str) -> HashMap<String, LessonProgress> {
        self.read(|conn| read::progress(conn, course, None))
    }

    /// `(course, lesson, due)` of every card due at or before `now`, oldest
    /// first (a lesson with several checks comes once per check due).
    pub fn due(
        &self,
        course: Option<&str>,
        now: DateTime<Utc>,
    ) -> Vec<(String, String, DateTime<Utc>)> {
        self.due_checks(course, now)
            .into_iter()
            .map(|(c, l, _, at)| (c, l, at))
            .collect()
    }

    /// [`Store::due`] with each card's check id.
    pub fn due_checks(&self, course: Option<&str>, now: DateTime<Utc>) -> Vec<read::DueCheck> {
        self.read(|conn| read::due(conn, course, now))
    }

    /// Cards due from `from` (inclusive) to `to` (exclusive).
    pub fn due_between(
        &self,
        course: Option<&str>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> usize {
        self.read(|conn| read::due_between(conn, course, from, to))
    }

    /// Consecutive learner-days (local, from the rollover hour) with at
    /// least one attempt, ending today or yesterday.
    pub fn streak(&self, now: DateTime<Utc>) -> u32 {
        self.streak_in(now, &Days::default())
    }

    /// [`Store::streak`] with days cut as `days` says.
    pub fn streak_in<Tz: chrono::TimeZone>(&self, now: DateTime<Utc>, days: &Days<Tz>) -> u32 {
        self.read(|conn| read::streak(conn, now, days))
    }

    /// Of `courses`' cards not due before `from`: when the first comes,
    /// and how many there are of each course.
    pub fn upcoming(
        &self,
        courses: &[&str],
        from: DateTime<Utc>,
    ) -> (Option<DateTime<Utc>>, Vec<usize>) {
        self.read(|conn| read::upcoming(conn, courses, from))
    }

    /// Wrong options chosen at least `min_times` times, most often first.
    pub fn misconceptions(&self, course: Option<&str>, min_times: u32) -> Vec<Misconception> {
        self.read(|conn| read::misconceptions(conn, course, min_times))
    }

    /// Reads from the shadow while there is one (it has this session's
    /// unsaved writes), else from the file. A failed read is empty
    /// progress, not a stopped reader.
    fn read<T: Default>(&self, query: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> T {
        let Some(conn) = self.shadow.as_ref().or(self.disk.as_ref()) else {
            return T::default();
        };
        query(conn).unwrap_or_else(|e| {
            self.warnings
                .borrow_mut()
                .report(Fault::Read, &e.to_string());
            T::default()
        })
    }

    fn write(&mut self, change: Change) {
        if self.flush(Some(&change)) {
            return;
        }
        self.ensure_shadow();
        if let Some(shadow) = self.shadow.as_mut()
            && let Err(e) = write::commit(shadow, [&change])
        {
            self.warn(Fault::Write, &e.to_string());
        }
        // A store in memory only: its changes are as durable as they get.
        if self.dir.is_none() {
            self.sync_append();
        }
        if (self.disk_writable && self.disk.is_some()) || self.reopen {
            if let Some(journal) = self.journal.as_mut()
                && let Err(e) = journal.keep(&change)
            {
                self.journal_failed = Some(e.to_string());
            }
            self.pending.push(change);
        } else if self.memory_only.is_some() && change.is_progress() {
            self.kept_in_memory += 1;
        }
    }

    /// Tries to open the file for writing again (see `reopen`).
    fn reopened(&mut self) -> bool {
        let Some(dir) = self.dir.clone().filter(|_| self.reopen) else {
            return false;
        };
        let options = open::Options {
            busy_timeout: self.busy_timeout,
            ..open::Options::at(Utc::now())
        };
        let opened = open::open(&dir, options);
        if !opened.writable {
            return false;
        }
        self.disk = opened.disk;
        self.disk_writable = true;
        self.reopen = false;
        true
    }

    /// Writes everything pending, then `change`, to the file in one
    /// transaction. True when the file has it all; on failure the file is
    /// left for `RETRY_AFTER` and the caller keeps `change` in memory.
    fn flush(&mut self, change: Option<&Change>) -> bool {
        if self.retry_at.is_some_and(|at| Instant::now() < at) {
            return false;
        }
        if !self.disk_writable && !self.reopened() {
            if self.reopen {
                self.retry_at = Some(Instant::now() + RETRY_AFTER);
            }
            return false;
        }
        let Some(disk) = self.disk.as_mut() else {
            return false;
        };
        // Whatever the journal holds goes in with this commit, and so does
        // its name: a kill before the journal is removed cannot replay it.
        let journal = self.journal.as_ref().and_then(journal::Journal::name);
        match write::commit_kept(disk, self.pending.iter().chain(change), journal.as_deref()) {
            Ok(()) => {
                self.pending.clear();
                if let Some(journal) = self.journal.as_mut() {
                    journal.clear();
                }
                self.shadow = None;
                self.retry_at = None;
                self.refused = None;
                self.sync_append();
                true
            }
            Err(e) => {
                let fault = match Fault::of(&e, Fault::Write) {
                    fault @ (Fault::Full | Fault::Busy | Fault::ReadOnly) => fault,
                    _ => Fault::Write,
                };
                // A file that turned read-only stays so for the session;
                // its pending writes live on in the shadow only.
                if fault == Fault::ReadOnly {
                    self.disk_writable = false;
                    self.pending.clear();
                }
                self.retry_at = Some(Instant::now() + RETRY_AFTER);
                self.refused = Some(fault);
                self.warn(fault, &e.to_string());
                false
            }
        }
    }

    /// The shadow starts as a copy of the file as it is now; the file
    /// refused the write being made, so the copy does not have it yet.
    fn ensure_shadow(&mut self) {
        if self.shadow.is_some() {
            return;
        }
        let (copy, err) = match &self.disk {
            Some(disk) => mirror::copy(disk),
            None => (schema::memory().ok(), None),
        };
        self.shadow = copy;
        if let Some(e) = err {
            self.warn(Fault::Read, &e.to_string());
        }
    }

    fn warn(&mut self, fault: Fault, detail: &str) {
        self.warnings.get_mut().report(fault, detail);
    }
}

impl Drop for Store {
    /// What [`Store::close`] does, when the session did not ask: said on
    /// stderr, since nobody else will say it.
    fn drop(&mut self) {
        if !self.closed
            && let Some(line) = self.close()
        {
            // Sanitised (it quotes paths), and quiet on a closed stderr.
            crate::out::stderr(&format!("lectern: {line}"));
        }
    }
}

#[cfg(test)]
mod tests;
