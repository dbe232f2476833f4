//! Turning a directory into a usable database: the writable file when it
//! can be had, else a read-only view of it, else nothing (the caller then
//! works in memory). A damaged file is moved aside, never deleted.

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, MAIN_DB, OpenFlags, ffi};

use super::fault::{self, Fault};
use super::schema::{self, Migrated};

/// The store's file inside the data directory.
pub(crate) const FILE: &str = "progress.db";

/// How long a write waits for another lectern's write lock, unless told
/// otherwise ([`super::Store::open_waiting`]). Writes are a few rows, so a
/// lock held longer than this means something is stuck; the reader should
/// not wait on it.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// Between two tries of a busy file, or of the directory's lock.
const PAUSE: Duration = Duration::from_millis(5);

#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Open as a read-only file would be opened. Tests use it: as root,
    /// file permissions do not stop writes.
    pub read_only: bool,
    /// Stamps the name a damaged file is moved to.
    pub now: DateTime<Utc>,
    /// How long a start, and then each write, waits for a file another
    /// lectern is busy with ([`BUSY_TIMEOUT`]); a start waits up to three
    /// times that for the directory, which a start holds while it may
    /// itself wait that long.
    pub busy_timeout: Duration,
}

impl Options {
    /// A start as the reader makes it.
    pub(crate) fn at(now: DateTime<Utc>) -> Options {
        Options {
            read_only: false,
            now,
            busy_timeout: BUSY_TIMEOUT,
        }
    }
}

/// What could be made of the directory.
pub(crate) struct Opened {
    pub disk: Option<Connection>,
    pub writable: bool,
    /// The file could not be had for writing for a reason that passes (a
    /// held lock, a full disk): worth trying again later in the session.
    pub retry: bool,
    pub faults: Vec<(Fault, String)>,
    /// Held until the caller has replayed the journals of ended sessions:
    /// two starts replaying the same journal would record its answers
    /// twice.
    pub lock: DirLock,
}

impl Opened {
    fn nothing(faults: Vec<(Fault, String)>) -> Opened {
        Opened {
            disk: None,
            writable: false,
            retry: false,
            faults,
            lock: DirLock::None,
        }
    }
}

/// Opens the store in `dir`. Everything from the first look at the file to
/// a fresh store in place of a damaged one is done by one lectern at a
/// time, under the directory's lock. SQLite names a file's journal, WAL and
/// shared memory after its path, so a start that opened the damaged file a
/// moment before another moved it aside would go on with the fresh file's
/// companions as if they were its own: racing starts failed on the fresh
/// store with SQLITE_IOERR_DELETE_NOENT (a WAL deleted under it), or lost
/// the switch to WAL with an SQLITE_BUSY that no busy timeout waits out,
/// and went memory-only.
pub(crate) fn open(dir: &Path, options: Options) -> Opened {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Opened::nothing(vec![(Fault::Unopenable, format!("{}: {e}", dir.display()))]);
    }
    let path = dir.join(FILE);
    // SQLite would open a FIFO (and wait on it for ever) or a link to a
    // device: the store, its WAL and its shared memory are regular files
    // or nothing, and what is anything else is left as it is.
    if let Some(why) = not_regular(&path) {
        return Opened::nothing(vec![(Fault::Unopenable, why)]);
    }
    let lock = DirLock::take(dir, options.busy_timeout * 3);
    let mut opened = if options.read_only {
        let refused = format!("{}: opened read-only", path.display());
        fall_back(&path, options, (Fault::ReadOnly, refused), false, &lock)
    } else {
        match patiently(&path, options.busy_timeout) {
            Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
                recover(&path, options, &e, &lock)
            }
            other => settle(&path, options, other, &lock),
        }
    };
    opened.lock = lock;
    opened
}

/// Why the store at `db`, or its WAL or shared memory, cannot be opened
/// as SQLite's files: one of them is there and is not a regular file.
fn not_regular(db: &Path) -> Option<String> {
    ["", "-wal", "-shm"].iter().find_map(|suffix| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        let path = std::path::PathBuf::from(name);
        let meta = std::fs::metadata(&path).ok()?;
        crate::own::refusal(&meta).map(|why| format!("{}: {why}", path.display()))
    })
}

/// [`writable`], tried again while the file is busy, up to `patience`
/// (its busy timeout too).
/// SQLite's busy timeout does not cover every wait: a connection that must
/// turn its read into a write while another holds the write lock is told
/// SQLITE_BUSY at once (switching a file to WAL is such a write).
fn patiently(path: &Path, patience: Duration) -> rusqlite::Result<(Connection, Migrated)> {
    let until = Instant::now() + patience;
    loop {
        let result = writable(path, patience);
        match &result {
            Err(e) if Fault::of(e, Fault::Unopenable) == Fault::Busy && Instant::now() < until => {
                std::thread::sleep(PAUSE);
            }
            _ => return result,
        }
    }
}

/// What the writable open came to, when the file was not damaged.
fn settle(
    path: &Path,
    options: Options,
    result: rusqlite::Result<(Connection, Migrated)>,
    lock: &DirLock,
) -> Opened {
    let e = match result {
        Ok((conn, Migrated::Current)) => {
            return Opened {
                disk: Some(conn),
                writable: true,
                ..Opened::nothing(Vec::new())
            };
        }
        // The file is fine, just not ours to change: read it as is.
        Ok((conn, Migrated::Newer(v))) => {
            return Opened {
                disk: Some(conn),
                ..Opened::nothing(vec![(Fault::Newer, format!("schema version {v}"))])
            };
        }
        Err(e) => e,
    };
    let detail = format!("{}: {e}", path.display());
    match Fault::of(&e, Fault::Unopenable) {
        // Waited for as long as a start may wait: better to start in
        // memory, and try the file again on a later write.
        fault @ (Fault::Busy | Fault::Full) => {
            fall_back(path, options, (fault, detail), true, lock)
        }
        _ => fall_back(path, options, (Fault::ReadOnly, detail), false, lock),
    }
}

/// The file read only, to show what it holds, told as `fault`.
fn fall_back(
    path: &Path,
    options: Options,
    fault: (Fault, String),
    retry: bool,
    lock: &DirLock,
) -> Opened {
    match read_only(path, options.busy_timeout) {
        Ok(conn) => Opened {
            disk: Some(conn),
            retry,
            ..Opened::nothing(vec![fault])
        },
        Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
            match writable(path, options.busy_timeout) {
                Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
                    recover(path, options, &e, lock)
                }
                _ => Opened {
                    retry,
                    ..Opened::nothing(vec![fault])
                },
            }
        }
        // Told as what it is when it passes; else nothing can be read.
        Err(_) if retry => Opened {
            retry,
            ..Opened::nothing(vec![fault])
        },
        Err(_) => Opened::nothing(vec![(Fault::Unopenable, fault.1)]),
    }
}

/// An exclusive lock on the data directory while it is held (`flock` on
/// the directory itself: no lock file to leave behind).
pub(crate) enum DirLock {
    Held(std::fs::File),
    /// The file system has no locks: starts go unlocked, as before locks.
    Unsupported,
    /// Another start held it past the wait (stopped, or stuck on a busy
    /// file): this one may read and write the file, never move it aside.
    Missed,
    /// Not taken (nothing was opened).
    None,
}

impl DirLock {
    fn take(dir: &Path, wait: Duration) -> DirLock {
        let Ok(file) = std::fs::File::open(dir) else {
            return DirLock::Unsupported;
        };
        // `flock` has no timed wait: tried until `wait` runs out. A start
        // holds it for the few milliseconds an open takes.
        let until = Instant::now() + wait;
        loop {
            match file.try_lock() {
                Ok(()) => return DirLock::Held(file),
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(PAUSE);
                }
                Err(std::fs::TryLockError::WouldBlock) => return DirLock::Missed,
                Err(std::fs::TryLockError::Error(_)) => return DirLock::Unsupported,
            }
        }
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        if let DirLock::Held(file) = self {
            let _ = file.unlock();
        }
    }
}

/// The file opened for writing, checked and migrated.
pub(crate) fn writable(
    path: &Path,
    busy_timeout: Duration,
) -> rusqlite::Result<(Connection, Migrated)> {
    // No URI flag on plain paths: a directory named `file:...` is a
    // directory, not a URI.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(busy_timeout)?;
    check(&conn)?;
    // SQLite falls back to read-only by itself when the file is
    // write-protected; that is a fault to report, not a surprise on the
    // first save.
    if conn.is_readonly(MAIN_DB)? {
        return Err(failure(ffi::SQLITE_READONLY, "the file is write-protected"));
    }
    // A newer lectern's file is read as it is: not even its journal mode
    // is changed.
    let seen = schema::user_version(&conn)?;
    if seen > i64::from(schema::CURRENT) {
        return Ok((conn, Migrated::Newer(seen)));
    }
    // WAL: readers never block the writer and a killed writer leaves a
    // consistent file. FULL: a committed attempt survives a power cut too;
    // writes are rare enough that the fsync costs nothing a reader sees.
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    let migrated = schema::migrate(&mut conn)?;
    Ok((conn, migrated))
}

/// The file opened for reading only. When even that cannot set up WAL's
/// shared memory (a read-only directory), it is read as immutable: what was
/// checkpointed into the file is still shown.
fn read_only(path: &Path, busy_timeout: Duration) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let plain = Connection::open_with_flags(path, flags).and_then(|conn| {
        conn.busy_timeout(busy_timeout)?;
        check(&conn)?;
        Ok(conn)
    });
    match plain {
        Err(e) if Fault::of(&e, Fault::Unopenable) != Fault::Corrupt && path.exists() => {
            let uri = format!("file:{}?immutable=1", uri_path(path));
            let conn = Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)?;
            check(&conn)?;
            Ok(conn)
        }
        other => other,
    }
}

/// Damage is found before anything is written: reading alone must not let
/// SQLite checkpoint a WAL into a damaged file on close, so that the file
/// moved aside is exactly what the reader had.
fn check(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    let verdict: String = conn.pragma_query_value(None, "quick_check", |row| row.get(0))?;
    if verdict != "ok" {
        return Err(failure(ffi::SQLITE_CORRUPT, &verdict));
    }
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)?;
    Ok(())
}

/// A damaged file: moved aside with its WAL, and a fresh store in its
/// place. Only under the directory's lock: the start holding it may be in
/// the middle of the same.
fn recover(path: &Path, options: Options, damage: &rusqlite::Error, lock: &DirLock) -> Opened {
    if let DirLock::Missed = lock {
        // Left for the start that holds the lock, or for a later write of
        // this session to find repaired.
        return Opened {
            retry: true,
            ..Opened::nothing(vec![(
                Fault::Busy,
                format!("{} is being repaired by another lectern", path.display()),
            )])
        };
    }
    match fault::set_aside(path, options.now) {
        Ok(moved) => {
            let mut faults = vec![(Fault::Corrupt, moved.display().to_string())];
            match patiently(path, options.busy_timeout) {
                Ok((conn, _)) => Opened {
                    disk: Some(conn),
                    writable: true,
                    ..Opened::nothing(faults)
                },
                Err(e) => {
                    faults.push((Fault::Unopenable, e.to_string()));
                    Opened::nothing(faults)
                }
            }
        }
        Err(e) => Opened::nothing(vec![(
            Fault::Unopenable,
            format!(
                "{} is damaged ({damage}) and could not be moved aside: {e}",
                path.display()
            ),
        )]),
    }
}

fn failure(code: i32, message: &str) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(ffi::Error::new(code), Some(message.to_owned()))
}

/// A path as the path part of an SQLite URI: every byte outside the
/// unreserved set is percent-encoded, so `?`, `#` and `%` in a directory
/// name cannot end the path early.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_that_is_a_fifo_or_a_device_is_not_opened_and_not_moved() {
        for make in ["fifo", "zero", "wal"] {
            let dir = tempfile::tempdir().unwrap();
            let db = dir.path().join(FILE);
            match make {
                "fifo" => crate::own::mkfifo(&db),
                "zero" => std::os::unix::fs::symlink("/dev/zero", &db).unwrap(),
                _ => crate::own::mkfifo(&dir.path().join("progress.db-wal")),
            }
            let opened = open(dir.path(), Options::at(Utc::now()));
            assert!(opened.disk.is_none(), "{make}");
            assert_eq!(opened.faults[0].0, Fault::Unopenable, "{make}");
            assert!(opened.faults[0].1.contains("not a regular file"), "{make}");
            // Left where it is: one entry, as it was made.
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "{make}");
        }
    }

    /// A disk too full for the WAL's shared memory at start: the session
    /// reads the file and opens it again for writing once there is room,
    /// not memory-only to the end as for a read-only file.
    #[test]
    fn a_full_disk_at_start_is_tried_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        drop(writable(&path, BUSY_TIMEOUT).unwrap());
        let full = rusqlite::Error::SqliteFailure(
            ffi::Error::new(ffi::SQLITE_IOERR_SHMSIZE),
            Some("disk I/O error".into()),
        );
        let opened = settle(&path, Options::at(Utc::now()), Err(full), &DirLock::None);
        assert!(opened.retry && !opened.writable && opened.disk.is_some());
        assert_eq!(opened.faults[0].0, Fault::Full);
    }

    fn patient(busy_timeout: Duration) -> Options {
        Options {
            busy_timeout,
            ..Options::at(Utc::now())
        }
    }

    fn beside(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("progress.db."))
            .collect();
        names.sort();
        names
    }

    const GARBAGE: &[u8] = &[0x5a; 8192];

    /// A start that cannot have the directory (another start holds it)
    /// must not move the file aside: the holder may be repairing it.
    #[test]
    fn a_start_without_the_directory_sets_nothing_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        std::fs::write(&path, GARBAGE).unwrap();
        let held = DirLock::take(dir.path(), Duration::ZERO);
        assert!(matches!(held, DirLock::Held(_)));
        let opened = open(dir.path(), patient(Duration::from_millis(10)));
        assert!(opened.disk.is_none() && opened.retry, "tried again later");
        assert_eq!(opened.faults[0].0, Fault::Busy);
        assert_eq!(std::fs::read(&path).unwrap(), GARBAGE);
        assert!(beside(dir.path()).is_empty());
        drop(held);
        // Once it is free, the damaged file is set aside, once.
        let opened = open(dir.path(), patient(BUSY_TIMEOUT));
        assert!(opened.writable);
        assert_eq!(opened.faults[0].0, Fault::Corrupt);
        assert_eq!(beside(dir.path()).len(), 1);
    }

    /// The race that made racing starts go memory-only, in order: a start
    /// comes while another holds the directory to repair the file. It waits,
    /// then finds the repaired store, and has nothing to repair or say.
    #[test]
    fn a_start_waits_for_the_start_repairing_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        std::fs::write(&path, GARBAGE).unwrap();
        let held = DirLock::take(dir.path(), Duration::ZERO);
        let racer = {
            let dir = dir.path().to_path_buf();
            std::thread::spawn(move || open(&dir, patient(Duration::from_secs(30))))
        };
        // What the holder does: the damaged file aside, a fresh store with
        // a first change in it.
        fault::set_aside(&path, Utc::now()).unwrap();
        let (fresh, _) = writable(&path, BUSY_TIMEOUT).unwrap();
        fresh
            .execute("INSERT INTO course_state VALUES ('c', 'l')", [])
            .unwrap();
        drop(held);
        let opened = racer.join().unwrap();
        assert!(opened.writable, "{:?}", opened.faults);
        assert!(opened.faults.is_empty(), "{:?}", opened.faults);
        assert_eq!(beside(dir.path()).len(), 1, "the fresh store stays");
        let kept: i64 = opened
            .disk
            .unwrap()
            .query_row("SELECT count(*) FROM course_state", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, 1);
    }

    /// Switching a file to WAL while another connection holds its write
    /// lock is refused at once, with no busy timeout: a start tries again
    /// until the lock is gone instead of going memory-only.
    #[test]
    fn a_start_waits_out_a_write_lock_the_busy_timeout_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        {
            let (conn, _) = writable(&path, BUSY_TIMEOUT).unwrap();
            let mode: String = conn
                .pragma_update_and_check(None, "journal_mode", "DELETE", |r| r.get(0))
                .unwrap();
            assert_eq!(mode, "delete");
        }
        let mut other = Connection::open(&path).unwrap();
        let (locked, release) = (std::sync::mpsc::channel(), std::sync::mpsc::channel());
        let holder = std::thread::spawn(move || {
            let tx = other
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .unwrap();
            locked.0.send(()).unwrap();
            release.1.recv().unwrap();
            // Held a moment past the start's first try.
            std::thread::sleep(Duration::from_millis(50));
            tx.commit().unwrap();
        });
        locked.1.recv().unwrap();
        let e = writable(&path, BUSY_TIMEOUT).expect_err("refused while the lock is held");
        assert_eq!(Fault::of(&e, Fault::Unopenable), Fault::Busy);
        release.0.send(()).unwrap();
        let opened = open(dir.path(), patient(Duration::from_secs(30)));
        holder.join().unwrap();
        assert!(opened.writable, "{:?}", opened.faults);
        assert!(opened.faults.is_empty(), "{:?}", opened.faults);
    }

    #[test]
    fn uri_path_escapes_what_would_end_the_path() {
        assert_eq!(uri_path(Path::new("/a b/c?d#e%f")), "/a%20b/c%3Fd%23e%25f");
    }
}
