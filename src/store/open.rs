//! Turning a directory into a usable database: the writable file when it
//! can be had, else a read-only view of it, else nothing (the caller then
//! works in memory). A damaged file is moved aside, never deleted.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, MAIN_DB, OpenFlags, ffi};

use super::fault::{self, Fault};
use super::schema::{self, Migrated};

/// The store's file inside the data directory.
pub(crate) const FILE: &str = "progress.db";

/// How long a write waits for another lectern's write lock. Writes are a
/// few rows, so a lock held longer than this means something is stuck; the
/// reader should not wait on it.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Open as a read-only file would be opened. Tests use it: as root,
    /// file permissions do not stop writes.
    pub read_only: bool,
    /// Stamps the name a damaged file is moved to.
    pub now: DateTime<Utc>,
}

/// What could be made of the directory.
pub(crate) struct Opened {
    pub disk: Option<Connection>,
    pub writable: bool,
    /// The file could not be had for writing for a reason that passes (a
    /// held lock, a full disk): worth trying again later in the session.
    pub retry: bool,
    pub faults: Vec<(Fault, String)>,
}

impl Opened {
    fn nothing(faults: Vec<(Fault, String)>) -> Opened {
        Opened {
            disk: None,
            writable: false,
            retry: false,
            faults,
        }
    }
}

pub(crate) fn open(dir: &Path, options: Options) -> Opened {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Opened::nothing(vec![(Fault::Unopenable, format!("{}: {e}", dir.display()))]);
    }
    let path = dir.join(FILE);
    if options.read_only {
        let refused = format!("{}: opened read-only", path.display());
        return fall_back(&path, options.now, (Fault::ReadOnly, refused), false);
    }
    match writable(&path) {
        Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
            // Lecterns started together on a damaged file must not each
            // set aside what the one before them just made: one at a time,
            // and each looks again once it holds the lock.
            let _lock = DirLock::take(dir);
            match writable(&path) {
                Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
                    recover(&path, options.now, &e)
                }
                other => settle(&path, options.now, other),
            }
        }
        other => settle(&path, options.now, other),
    }
}

/// What the writable open came to, when the file was not damaged.
fn settle(
    path: &Path,
    now: DateTime<Utc>,
    result: rusqlite::Result<(Connection, Migrated)>,
) -> Opened {
    let e = match result {
        Ok((conn, Migrated::Current)) => {
            return Opened {
                disk: Some(conn),
                writable: true,
                retry: false,
                faults: Vec::new(),
            };
        }
        // The file is fine, just not ours to change: read it as is.
        Ok((conn, Migrated::Newer(v))) => {
            return Opened {
                disk: Some(conn),
                writable: false,
                retry: false,
                faults: vec![(Fault::Newer, format!("schema version {v}"))],
            };
        }
        Err(e) => e,
    };
    match Fault::of(&e, Fault::Unopenable) {
        // Waiting at startup would be worse than starting in memory; the
        // file is tried again on a later write.
        fault @ (Fault::Busy | Fault::Full) => {
            fall_back(path, now, (fault, format!("{}: {e}", path.display())), true)
        }
        _ => fall_back(
            path,
            now,
            (Fault::ReadOnly, format!("{}: {e}", path.display())),
            false,
        ),
    }
}

/// The file read only, to show what it holds, told as `fault`.
fn fall_back(path: &Path, now: DateTime<Utc>, fault: (Fault, String), retry: bool) -> Opened {
    match read_only(path) {
        Ok(conn) => Opened {
            disk: Some(conn),
            writable: false,
            retry,
            faults: vec![fault],
        },
        Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
            let _lock = DirLock::take(path.parent().unwrap_or(Path::new(".")));
            match writable(path) {
                Err(e) if Fault::of(&e, Fault::Unopenable) == Fault::Corrupt => {
                    recover(path, now, &e)
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
/// the directory itself: no lock file to leave behind). Best effort: a
/// file system without locks goes unlocked, as before.
struct DirLock(Option<std::fs::File>);

impl DirLock {
    fn take(dir: &Path) -> DirLock {
        let Ok(file) = std::fs::File::open(dir) else {
            return DirLock(None);
        };
        // Held for the few milliseconds a recovery takes.
        let locked = file.lock().is_ok();
        DirLock(locked.then_some(file))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        if let Some(file) = &self.0 {
            let _ = file.unlock();
        }
    }
}

/// The file opened for writing, checked and migrated.
pub(crate) fn writable(path: &Path) -> rusqlite::Result<(Connection, Migrated)> {
    // No URI flag on plain paths: a directory named `file:...` is a
    // directory, not a URI.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
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
fn read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let plain = Connection::open_with_flags(path, flags).and_then(|conn| {
        conn.busy_timeout(BUSY_TIMEOUT)?;
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
/// place.
fn recover(path: &Path, now: DateTime<Utc>, damage: &rusqlite::Error) -> Opened {
    match fault::set_aside(path, now) {
        Ok(moved) => {
            let mut faults = vec![(Fault::Corrupt, moved.display().to_string())];
            match writable(path) {
                Ok((conn, _)) => Opened {
                    disk: Some(conn),
                    writable: true,
                    retry: false,
                    faults,
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

    /// A disk too full for the WAL's shared memory at start: the session
    /// reads the file and opens it again for writing once there is room,
    /// not memory-only to the end as for a read-only file.
    #[test]
    fn a_full_disk_at_start_is_tried_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        drop(writable(&path).unwrap());
        let full = rusqlite::Error::SqliteFailure(
            ffi::Error::new(ffi::SQLITE_IOERR_SHMSIZE),
            Some("disk I/O error".into()),
        );
        let opened = settle(&path, Utc::now(), Err(full));
        assert!(opened.retry && !opened.writable && opened.disk.is_some());
        assert_eq!(opened.faults[0].0, Fault::Full);
    }

    #[test]
    fn uri_path_escapes_what_would_end_the_path() {
        assert_eq!(uri_path(Path::new("/a b/c?d#e%f")), "/a%20b/c%3Fd%23e%25f");
    }
}
