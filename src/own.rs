//! lectern's own files, and only those: how a file lectern keeps (a cache,
//! a journal, the config) is read without ever blocking or reading without
//! end, and what lectern may remove.
//!
//! The data, cache and config folders can be named by the learner
//! (`--data-dir`, `LECTERN_DATA_DIR`, `LECTERN_CACHE_DIR`), so they may hold
//! the learner's own files under any name, `index.db` and `listings/`
//! included. A file is removed only when lectern can prove it wrote it: by
//! its header (a listing's magic, an SQLite file's application id) or, for
//! caches of versions that wrote no id, by holding nothing but lectern's
//! own tables. A folder is removed only once empty (`remove_dir`, never
//! `remove_dir_all`), and a link is never followed to what it names.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// `PRAGMA application_id` of every SQLite file lectern makes ("LCTN").
pub const SQLITE_APPLICATION_ID: i32 = 0x4c43_544e;

/// lectern's folders as the platform names them (data, cache, config),
/// or `None` when it cannot name them as absolute paths: a relative
/// `HOME` would put the learner's progress wherever lectern happened to
/// be started, and a later start elsewhere would not find it.
pub fn platform_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "lectern").filter(|d| {
        d.data_dir().is_absolute() && d.cache_dir().is_absolute() && d.config_dir().is_absolute()
    })
}

/// Why a file of this type is not read (a FIFO would block the open or
/// the read, a device could read without end).
pub fn refusal(meta: &Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a folder, not a file")
    } else if t.is_fifo() {
        Some("not a regular file (a FIFO)")
    } else if t.is_socket() {
        Some("not a regular file (a socket)")
    } else if t.is_char_device() || t.is_block_device() {
        Some("not a regular file (a device)")
    } else {
        Some("not a regular file")
    }
}

fn not_regular(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why.to_string())
}

/// `path` opened for reading only if it is a regular file (a link to one
/// is followed; a FIFO, device or socket is refused before `open`). The
/// open never blocks, in case the file was swapped for a FIFO since the
/// look, and the type is checked again on the open file, whose metadata
/// comes back with it.
pub fn open_regular(path: &Path) -> io::Result<(File, Metadata)> {
    open_checked(path, true)
}

/// [`open_regular`] for reading and writing (a journal, which is locked).
pub fn open_regular_rw(path: &Path) -> io::Result<(File, Metadata)> {
    open_checked(path, false)
}

fn open_checked(path: &Path, read_only: bool) -> io::Result<(File, Metadata)> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(why) = refusal(&std::fs::metadata(path)?) {
        return Err(not_regular(why));
    }
    let file = File::options()
        .read(true)
        .write(!read_only)
        // OFlags' bits are the kernel's `c_uint`; `custom_flags` takes them
        // as the `c_int` open(2) does, and both flags fit in either.
        .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
        .open(path)?;
    let meta = file.metadata()?;
    if let Some(why) = refusal(&meta) {
        return Err(not_regular(why));
    }
    Ok((file, meta))
}

/// The bytes of an open file of `len` bytes, refused past `cap` before a
/// byte is read; a file that grows while it is read stops at the cap.
pub fn read_capped(file: impl Read, len: u64, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let over = || {
        io::Error::other(format!(
            "{what} is over the limit of {} for it",
            shown_size(cap)
        ))
    };
    if len > cap {
        return Err(over());
    }
    let mut buf = Vec::with_capacity(len as usize);
    file.take(cap + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > cap {
        return Err(over());
    }
    Ok(buf)
}

/// A regular file's bytes, up to `cap` (see [`open_regular`]).
pub fn read_regular_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let (file, meta) = open_regular(path)?;
    read_capped(file, meta.len(), cap, what)
}

fn shown_size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{} MiB", bytes / 1024 / 1024)
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// The first `n` bytes of `path` if it is a regular file itself (a link is
/// not followed: what it names is not lectern's to judge or remove).
fn head(path: &Path, n: usize) -> Option<Vec<u8>> {
    let meta = path.symlink_metadata().ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    let (file, _) = open_regular(path).ok()?;
    let mut buf = Vec::with_capacity(n);
    file.take(n as u64).read_to_end(&mut buf).ok()?;
    Some(buf)
}

/// Removes `path` if it is a regular file whose first bytes are `magic`.
/// True if it went.
pub fn remove_if_headed(path: &Path, magic: &[u8]) -> bool {
    head(path, magic.len()).is_some_and(|h| h == magic) && std::fs::remove_file(path).is_ok()
}

/// What the header of an SQLite file says of whose it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sqlite {
    /// Nothing is there.
    Missing,
    /// An SQLite file with lectern's application id.
    Ours,
    /// An SQLite file with no application id: lectern's only if its
    /// tables say so (an older lectern wrote no id).
    Unmarked,
    /// Anything else: another program's database, another kind of file,
    /// a link, a damaged header. Never lectern's to change or remove.
    Other,
}

/// Whose the SQLite file at `path` is, from its 100-byte header.
pub fn sqlite_owner(path: &Path) -> Sqlite {
    if path.symlink_metadata().is_err() {
        return Sqlite::Missing;
    }
    let Some(h) = head(path, 100) else {
        return Sqlite::Other;
    };
    // An empty file is what SQLite itself leaves when a first write
    // failed: nothing anyone could lose, and SQLite takes it as new.
    if h.is_empty() {
        return Sqlite::Unmarked;
    }
    if h.len() < 100 || &h[..16] != b"SQLite format 3\0" {
        return Sqlite::Other;
    }
    match i32::from_be_bytes([h[68], h[69], h[70], h[71]]) {
        SQLITE_APPLICATION_ID => Sqlite::Ours,
        0 => Sqlite::Unmarked,
        _ => Sqlite::Other,
    }
}

/// Whether the unmarked SQLite file at `path` holds only tables whose
/// names `ours` accepts (and at least one): read without a lock or a
/// journal of its own, so looking changes nothing.
pub fn only_tables(path: &Path, ours: impl Fn(&str) -> bool) -> bool {
    use rusqlite::{Connection, OpenFlags};
    let Ok(uri) = url_of(path) else { return false };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
    let Ok(conn) = Connection::open_with_flags(uri, flags) else {
        return false;
    };
    let names: rusqlite::Result<Vec<String>> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect());
    match names {
        Ok(names) => !names.is_empty() && names.iter().all(|n| ours(n)),
        Err(_) => false,
    }
}

/// `file:` URI of `path`, opened immutable: no lock taken, no `-shm` or
/// `-wal` made beside a file that may not be lectern's.
fn url_of(path: &Path) -> Result<String, ()> {
    let abs = std::path::absolute(path).map_err(|_| ())?;
    let s = abs.to_str().ok_or(())?;
    let mut out = String::from("file:");
    for b in s.bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ => out.push(b as char),
        }
    }
    out.push_str("?immutable=1");
    Ok(out)
}

/// Removes an SQLite file lectern can prove it made (see [`Sqlite`]), with
/// its `-wal` and `-shm` companions (only as regular files); `unmarked`
/// says whether an unmarked file is lectern's. True if it went.
pub fn remove_own_sqlite(path: &Path, unmarked: impl Fn(&Path) -> bool) -> bool {
    let ours = match sqlite_owner(path) {
        Sqlite::Ours => true,
        Sqlite::Unmarked => unmarked(path),
        Sqlite::Missing | Sqlite::Other => false,
    };
    if !ours {
        return false;
    }
    for suffix in ["-wal", "-shm"] {
        let mut companion = path.as_os_str().to_owned();
        companion.push(suffix);
        let companion = std::path::PathBuf::from(companion);
        if companion
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_file())
        {
            let _ = std::fs::remove_file(&companion);
        }
    }
    std::fs::remove_file(path).is_ok()
}

/// A FIFO at `path`, for tests of what lectern refuses to wait on.
#[cfg(test)]
pub(crate) fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite(path: &Path, app_id: i32, table: &str) {
        let c = rusqlite::Connection::open(path).unwrap();
        c.pragma_update(None, "application_id", app_id).unwrap();
        c.execute_batch(&format!("CREATE TABLE {table} (x)"))
            .unwrap();
    }

    #[test]
    fn an_sqlite_file_is_known_by_its_application_id() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.db");
        assert_eq!(sqlite_owner(&p), Sqlite::Missing);
        sqlite(&p, SQLITE_APPLICATION_ID, "t");
        assert_eq!(sqlite_owner(&p), Sqlite::Ours);
        let q = d.path().join("b.db");
        sqlite(&q, 0, "t");
        assert_eq!(sqlite_owner(&q), Sqlite::Unmarked);
        let r = d.path().join("c.db");
        sqlite(&r, 7, "t");
        assert_eq!(sqlite_owner(&r), Sqlite::Other);
        let s = d.path().join("d.db");
        std::fs::write(&s, b"my own notes, not a database at all").unwrap();
        assert_eq!(sqlite_owner(&s), Sqlite::Other);
    }

    #[test]
    fn only_a_file_lectern_can_prove_it_made_is_removed() {
        let d = tempfile::tempdir().unwrap();
        let foreign = d.path().join("foreign.db");
        sqlite(&foreign, 0, "invoices");
        assert!(!remove_own_sqlite(&foreign, |p| only_tables(p, |t| t == "text_doc")));
        assert!(foreign.exists());
        let old = d.path().join("old.db");
        sqlite(&old, 0, "text_doc");
        assert!(remove_own_sqlite(&old, |p| only_tables(p, |t| t == "text_doc")));
        assert!(!old.exists());
        let mine = d.path().join("mine.db");
        sqlite(&mine, SQLITE_APPLICATION_ID, "anything");
        std::fs::write(d.path().join("mine.db-wal"), b"x").unwrap();
        assert!(remove_own_sqlite(&mine, |_| false));
        assert!(!mine.exists() && !d.path().join("mine.db-wal").exists());
    }

    #[test]
    fn a_link_to_a_file_of_lecterns_is_not_followed_to_remove_it() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.bin");
        std::fs::write(&real, b"lectern3 and more").unwrap();
        let link = d.path().join("link.bin");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(!remove_if_headed(&link, b"lectern"));
        assert!(real.exists() && link.exists());
        assert!(!remove_if_headed(&d.path().join("nothing"), b"lectern"));
        std::fs::write(d.path().join("x.bin"), b"letters").unwrap();
        assert!(!remove_if_headed(&d.path().join("x.bin"), b"lectern"));
        assert!(remove_if_headed(&real, b"lectern"));
    }

    #[test]
    fn a_fifo_or_a_device_is_refused_without_blocking() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        crate::own::mkfifo(&fifo);
        assert!(read_regular_capped(&fifo, 10, "x").is_err());
        assert!(open_regular_rw(&fifo).is_err());
        let zero = d.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(read_regular_capped(&zero, 10, "x").is_err());
        assert_eq!(sqlite_owner(&zero), Sqlite::Other);
        let big = d.path().join("big");
        std::fs::write(&big, [0u8; 11]).unwrap();
        let e = read_regular_capped(&big, 10, "the file").unwrap_err();
        assert!(e.to_string().contains("over the limit"), "{e}");
    }
}
