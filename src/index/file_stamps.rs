//! Whether a lesson file still holds what the index read from it: see the
//! index's module docs for the rule.

use std::path::Path;

use crate::loader::Headed;
use crate::loader::walk;

use crate::loader::stamp::nanos;
pub(super) use crate::loader::stamp::{RACY_NS, Stamp, now_ns, stamp, stamp_of};

/// [`stamp`] for many files, most of them in one folder: each by its name
/// relative to its folder, opened once. A later search stats every lesson
/// file; looking each one's whole path up again was half the cost of the
/// stat (`perf record`, 10,000 files: see BENCHMARKS.md, issue 12).
#[derive(Default)]
pub(super) struct Stamper {
    dir: Option<(std::path::PathBuf, Option<std::os::fd::OwnedFd>)>,
}

impl Stamper {
    pub(super) fn stamp(&mut self, path: &Path) -> Option<Stamp> {
        use rustix::fs::{Mode, OFlags};
        // Most files are in the folder of the one before: its name is the
        // rest of its path (parsing the path into parts cost a tenth of
        // the stat).
        if let Some((d, Some(fd))) = &self.dir
            && let Some(name) = walk::os_bytes(path.as_os_str())
                .strip_prefix(walk::os_bytes(d.as_os_str()))
                .and_then(|r| r.strip_prefix(b"/"))
                .filter(|n| !n.is_empty() && !n.contains(&b'/'))
        {
            use std::os::unix::ffi::OsStrExt;
            return stamp_at(fd, std::ffi::OsStr::from_bytes(name));
        }
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return stamp(path);
        };
        if self.dir.as_ref().is_none_or(|(d, _)| d != parent) {
            let fd = rustix::fs::open(
                parent,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .ok();
            self.dir = Some((parent.to_path_buf(), fd));
        }
        let Some((_, Some(fd))) = &self.dir else {
            return stamp(path);
        };
        stamp_at(fd, name)
    }
}

// The fields' widths differ from one platform to another.
#[allow(trivial_numeric_casts)]
fn stamp_at(dir: &std::os::fd::OwnedFd, name: &std::ffi::OsStr) -> Option<Stamp> {
    // Following a symlink, as `std::fs::metadata` does.
    let m = rustix::fs::statat(dir, name, rustix::fs::AtFlags::empty()).ok()?;
    Some(Stamp {
        size: m.st_size as i64,
        mtime_ns: nanos(m.st_mtime as i64, m.st_mtime_nsec as i64),
        ctime_ns: nanos(m.st_ctime as i64, m.st_ctime_nsec as i64),
        ino: m.st_ino as i64,
    })
}

/// A lesson file read again, to be stored.
pub(super) struct Fresh {
    pub path: Vec<u8>,
    pub stamp: Stamp,
    pub seen_ns: i64,
    pub head: Headed,
}

/// A lesson file as the index last saw it.
pub(super) struct Row {
    pub stamp: Stamp,
    pub digest: Option<u64>,
    pub seen_ns: i64,
    pub head: Headed,
}

impl Row {
    /// Whether the file still holds what was indexed: by its stamp, and
    /// for a racy one by its bytes too.
    pub(super) fn holds(&self, now: Stamp, path: &Path) -> bool {
        if self.stamp != now {
            return false;
        }
        if now.ctime_ns.saturating_add(RACY_NS) < self.seen_ns {
            return true;
        }
        self.digest.is_some()
            && walk::read_regular(path).is_ok_and(|b| Some(walk::digest(&b)) == self.digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_by_folder_is_the_stamp_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        let b = dir.path().join("sub").join("b.json");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(&a, "one").unwrap();
        std::fs::write(&b, "two two").unwrap();
        let link = dir.path().join("l.json");
        std::os::unix::fs::symlink(&b, &link).unwrap();
        let mut s = Stamper::default();
        let (here, up) = (dir.path().join("."), dir.path().join(".."));
        for p in [&a, &b, &a, &link, &here, &a, &up, &a] {
            assert_eq!(s.stamp(p), stamp(p), "{}", p.display());
            assert!(s.stamp(p).is_some());
        }
        assert_eq!(s.stamp(&dir.path().join("gone.json")), None);
        assert_eq!(s.stamp(&dir.path().join("nodir").join("x")), None);
    }
}
