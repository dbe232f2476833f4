//! What can go wrong with the file on disk, how it is told to the reader
//! (once), and how a damaged file is moved out of the way without losing it.

use std::collections::{HashSet, VecDeque};
use std::io;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rusqlite::ErrorCode;

/// Kinds of trouble. A reader is told about each kind once per session:
/// a status bar repeating "disk full" on every page turn helps nobody.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Fault {
    /// The file was damaged and has been moved aside.
    Corrupt,
    /// The file can be read but not written.
    ReadOnly,
    /// The file (or its directory) cannot be used at all.
    Unopenable,
    /// A newer lectern wrote the file; this one must not change it.
    Newer,
    /// No space left (or SQLite's page limit reached).
    Full,
    /// Another process held the write lock past the busy timeout.
    Busy,
    /// Any other failed write.
    Write,
    /// A failed read: shown as empty progress.
    Read,
    /// This device's log in the sync folder could not be written.
    SyncWrite,
    /// The sync folder could not be read.
    SyncRead,
}

impl Fault {
    /// The kind of a failed write or read, from SQLite's result code.
    pub(crate) fn of(err: &rusqlite::Error, otherwise: Fault) -> Fault {
        // No room to grow the WAL's shared-memory file: a full disk, met at
        // the first read of a session, before any write could say SQLITE_FULL.
        if let rusqlite::Error::SqliteFailure(e, _) = err
            && e.extended_code == rusqlite::ffi::SQLITE_IOERR_SHMSIZE
        {
            return Fault::Full;
        }
        match err.sqlite_error_code() {
            Some(ErrorCode::DiskFull) => Fault::Full,
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Fault::Busy,
            Some(ErrorCode::ReadOnly) => Fault::ReadOnly,
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => Fault::Corrupt,
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => Fault::Unopenable,
            _ => otherwise,
        }
    }

    /// The one line a status bar shows. `detail` is the error or path
    /// that makes the line actionable.
    pub(crate) fn message(self, detail: &str) -> String {
        let detail = &short(detail);
        match self {
            Fault::Corrupt => {
                format!("progress store was damaged: kept it as {detail} and started a fresh one")
            }
            Fault::ReadOnly => format!(
                "progress store is read-only ({detail}): this session's progress is kept in memory only"
            ),
            Fault::Unopenable => format!(
                "cannot use the progress store ({detail}): this session's progress is kept in memory only"
            ),
            Fault::Newer => format!(
                "progress store was written by a newer lectern ({detail}): left unchanged, this session's progress is kept in memory only"
            ),
            Fault::Full => format!(
                "disk full, progress not saved ({detail}): kept aside, saved when there is room (or at the next start)"
            ),
            Fault::Busy => format!(
                "progress store busy (another lectern?): progress kept aside, saved when it is free (or at the next start) ({detail})"
            ),
            Fault::Write => {
                format!("could not save progress ({detail}): kept in memory, will retry")
            }
            Fault::Read => format!("could not read saved progress ({detail})"),
            Fault::SyncWrite => format!(
                "cannot write this machine's log in the sync folder ({detail}): its changes are kept here and written there when it can be"
            ),
            Fault::SyncRead => format!("cannot read the sync folder ({detail})"),
        }
    }
}

/// Longest detail a warning quotes: a status bar has one line.
const DETAIL_CHARS: usize = 160;

/// `detail` made fit for one status line: sanitised (a path or an SQLite
/// message may hold anything), its first line only (SQLite can quote a
/// whole multi-line `CREATE TABLE`), and cut short.
pub(crate) fn short(detail: &str) -> String {
    let clean = crate::model::sanitize::clean(detail);
    let first = clean.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first = first.split_whitespace().collect::<Vec<_>>().join(" ");
    if first.chars().count() <= DETAIL_CHARS {
        return first;
    }
    let mut cut: String = first.chars().take(DETAIL_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The warnings not yet shown, each kind at most once.
#[derive(Debug, Default)]
pub(crate) struct Warnings {
    seen: HashSet<Fault>,
    queue: VecDeque<String>,
}

impl Warnings {
    pub(crate) fn report(&mut self, fault: Fault, detail: &str) {
        if self.seen.insert(fault) {
            self.queue.push_back(fault.message(detail));
        }
    }

    pub(crate) fn take(&mut self) -> Option<String> {
        self.queue.pop_front()
    }
}

/// Where a damaged file goes: beside it, stamped with the UTC time, e.g.
/// `progress.db.corrupt-20261129T213000`, with `salt` (random) after the
/// stamp when that name is taken.
pub(crate) fn corrupt_name(db: &Path, now: DateTime<Utc>, salt: Option<u64>) -> PathBuf {
    let stem = format!(
        "{}.corrupt-{}",
        db.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        now.format("%Y%m%dT%H%M%S")
    );
    match salt {
        None => db.with_file_name(stem),
        Some(salt) => db.with_file_name(format!("{stem}-{salt:016x}")),
    }
}

/// A random number, different in every process and every call: enough to
/// keep lecterns started at the same second from choosing the same name.
pub(crate) fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    h.finish()
}

/// Moves `from` to `to` only if nothing is at `to`: a hard link (which
/// fails rather than replace) then an unlink; where links are not
/// supported, a rename to a name checked free just before.
fn move_new(from: &Path, to: &Path) -> io::Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => std::fs::remove_file(from),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
        Err(_) if to.symlink_metadata().is_err() => std::fs::rename(from, to),
        Err(e) => Err(e),
    }
}

/// Moves a damaged database aside, with its WAL and shared-memory files:
/// an old WAL left next to a fresh database would be replayed into it.
/// Nothing is ever overwritten, so every byte the reader had is still on
/// disk, and two lecterns setting files aside at once pick two names.
pub(crate) fn set_aside(db: &Path, now: DateTime<Utc>) -> io::Result<PathBuf> {
    let mut salt = None;
    for _ in 0..64 {
        let target = corrupt_name(db, now, salt);
        salt = Some(random());
        if sidecar(&target, "-wal").symlink_metadata().is_ok() {
            continue;
        }
        match move_new(db, &target) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
        for suffix in ["-wal", "-shm"] {
            let from = sidecar(db, suffix);
            if from.exists() {
                move_new(&from, &sidecar(&target, suffix))?;
            }
        }
        return Ok(target);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name to set the damaged file aside",
    ))
}

/// SQLite's companion files are named by appending to the database's name.
pub(crate) fn sidecar(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn no_room_for_the_shared_memory_file_is_a_full_disk() {
        let e = |code| rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
        let shm = e(rusqlite::ffi::SQLITE_IOERR_SHMSIZE);
        assert_eq!(Fault::of(&shm, Fault::Unopenable), Fault::Full);
        let other = e(rusqlite::ffi::SQLITE_IOERR_READ);
        assert_eq!(Fault::of(&other, Fault::Unopenable), Fault::Unopenable);
    }

    #[test]
    fn each_kind_is_told_once() {
        let mut w = Warnings::default();
        w.report(Fault::Full, "a");
        w.report(Fault::Full, "b");
        w.report(Fault::Busy, "c");
        assert!(w.take().unwrap().contains("disk full"));
        assert!(w.take().unwrap().contains("busy"));
        assert_eq!(w.take(), None);
        w.report(Fault::Full, "again");
        assert_eq!(w.take(), None);
    }

    #[test]
    fn messages_are_one_line() {
        for f in [
            Fault::Corrupt,
            Fault::ReadOnly,
            Fault::Unopenable,
            Fault::Newer,
            Fault::Full,
            Fault::Busy,
            Fault::Write,
            Fault::Read,
        ] {
            assert!(!f.message("x").contains('\n'));
            let sql = "CREATE TABLE review (\n  course TEXT\n)\u{1b}[2J";
            let m = f.message(sql);
            assert!(!m.contains('\n') && !m.contains('\u{1b}'), "{m}");
            assert!(f.message(&"y".repeat(5000)).len() < 600);
        }
    }

    #[test]
    fn corrupt_name_is_timestamped_and_salted_on_demand() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("progress.db");
        let now = Utc.with_ymd_and_hms(2026, 11, 29, 21, 30, 0).unwrap();
        let first = corrupt_name(&db, now, None);
        assert_eq!(
            first.file_name().unwrap(),
            "progress.db.corrupt-20261129T213000"
        );
        assert_ne!(first, corrupt_name(&db, now, Some(random())));
        assert_ne!(random(), random());
    }

    #[test]
    fn set_aside_never_overwrites_an_earlier_copy() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("progress.db");
        let now = Utc.with_ymd_and_hms(2026, 11, 29, 21, 30, 0).unwrap();
        let mut moved = Vec::new();
        for i in 0..3u8 {
            std::fs::write(&db, [i; 10]).unwrap();
            moved.push(set_aside(&db, now).unwrap());
        }
        for (i, m) in moved.iter().enumerate() {
            assert_eq!(std::fs::read(m).unwrap(), [i as u8; 10]);
        }
        assert!(!db.exists());
    }

    #[test]
    fn set_aside_moves_the_wal_too() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("progress.db");
        std::fs::write(&db, b"garbage").unwrap();
        std::fs::write(sidecar(&db, "-wal"), b"wal bytes").unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 29, 21, 30, 0).unwrap();
        let moved = set_aside(&db, now).unwrap();
        assert!(!db.exists());
        assert!(!sidecar(&db, "-wal").exists());
        assert_eq!(std::fs::read(&moved).unwrap(), b"garbage");
        assert_eq!(
            std::fs::read(sidecar(&moved, "-wal")).unwrap(),
            b"wal bytes"
        );
    }

    #[test]
    fn sqlite_codes_map_to_kinds() {
        let full = rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(13), None);
        assert_eq!(Fault::of(&full, Fault::Write), Fault::Full);
        let busy = rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(5), None);
        assert_eq!(Fault::of(&busy, Fault::Write), Fault::Busy);
        assert_eq!(
            Fault::of(&rusqlite::Error::InvalidQuery, Fault::Read),
            Fault::Read
        );
    }
}
