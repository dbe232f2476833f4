//! Whether a lesson file still holds what the index read from it: see the
//! index's module docs for the rule.

use std::path::Path;

use crate::loader::Headed;
use crate::loader::walk;

/// What a file's metadata says of its contents; see the module docs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Stamp {
    pub size: i64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: i64,
}

/// How close to the moment it was indexed a file's ctime must be for the
/// stamp alone not to be trusted: coarse file-system clocks tick in up to
/// a few milliseconds (FAT: two seconds).
pub(super) const RACY_NS: i64 = 2_000_000_000;

fn nanos(secs: i64, nsec: i64) -> i64 {
    // Before 1970 is negative, and fine.
    secs.saturating_mul(1_000_000_000).saturating_add(nsec)
}

pub(super) fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(Stamp {
        size: m.len() as i64,
        mtime_ns: nanos(m.mtime(), m.mtime_nsec()),
        ctime_ns: nanos(m.ctime(), m.ctime_nsec()),
        ino: m.ino() as i64,
    })
}

pub(super) fn now_ns() -> i64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
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
