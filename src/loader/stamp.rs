//! A lesson file's stamp (size, mtime, ctime and inode, to the
//! nanosecond), and a lesson loaded with the stamp its file had when its
//! bytes were read: the index takes that lesson's text from the page the
//! reader shows rather than parse the file a second time, for as long as
//! the file keeps this stamp (see the index's module docs for the rule).

use std::path::Path;

use super::walk;
use crate::model::{Diagnostic, Lesson, Origin};

/// What a file's metadata says of its contents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stamp {
    pub size: i64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: i64,
}

/// How close to the moment it was read a file's ctime must be for the
/// stamp alone not to be trusted: coarse file-system clocks tick in up to
/// a few milliseconds (FAT: two seconds).
pub const RACY_NS: i64 = 2_000_000_000;

pub(crate) fn nanos(secs: i64, nsec: i64) -> i64 {
    // Before 1970 is negative, and fine.
    secs.saturating_mul(1_000_000_000).saturating_add(nsec)
}

pub fn stamp(path: &Path) -> Option<Stamp> {
    Some(stamp_of(&std::fs::metadata(path).ok()?))
}

/// [`stamp`] from metadata already at hand.
pub fn stamp_of(m: &std::fs::Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    Stamp {
        size: m.len() as i64,
        mtime_ns: nanos(m.mtime(), m.mtime_nsec()),
        ctime_ns: nanos(m.ctime(), m.ctime_nsec()),
        ino: m.ino() as i64,
    }
}

pub fn now_ns() -> i64 {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
}

/// A lesson file's stamp as the reader read it (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadStamp {
    origin: Origin,
    stamp: Stamp,
    seen_ns: i64,
    /// The bytes' digest, for a file changed within the clock's grain of
    /// the read: the stamp alone is not trusted then.
    digest: Option<u64>,
}

/// The lesson at `origin`, as [`super::load_lesson`] reads it, and for a
/// file the stamp taken just before its bytes were read (a change while
/// they are read leaves the stamp behind the file, so it is read again).
pub fn load_stamped(origin: &Origin) -> (Result<Lesson, Diagnostic>, Option<ReadStamp>) {
    let Origin::File(p) = origin else {
        return (super::load_lesson(origin), None);
    };
    let seen_ns = now_ns();
    // The stamp of the open file, taken before its bytes are read.
    let Ok((bytes, meta)) = walk::read_regular_with_meta(p) else {
        // The loader says why it cannot be read.
        return (super::load_lesson(origin), None);
    };
    let stamp = stamp_of(&meta);
    let racy = stamp.ctime_ns.saturating_add(RACY_NS) >= seen_ns;
    let read = ReadStamp {
        origin: origin.clone(),
        stamp,
        seen_ns,
        digest: racy.then(|| walk::digest(&bytes)),
    };
    let lesson = super::load_from(origin, &bytes).map(|l| l.lesson);
    (lesson, Some(read))
}

impl ReadStamp {
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    pub fn stamp(&self) -> Stamp {
        self.stamp
    }

    /// When the file was read.
    pub fn seen_ns(&self) -> i64 {
        self.seen_ns
    }

    pub fn digest(&self) -> Option<u64> {
        self.digest
    }

    /// Whether the file still has the stamp it had when it was read.
    pub fn still_holds(&self) -> bool {
        let Origin::File(p) = &self.origin else {
            return false;
        };
        stamp(p) == Some(self.stamp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamped_lesson_holds_until_its_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "# One\n\nText.\n").unwrap();
        let origin = Origin::File(path.clone());
        let (lesson, read) = load_stamped(&origin);
        let read = read.unwrap();
        assert_eq!(lesson.unwrap().meta.title, "One");
        assert_eq!(read.origin(), &origin);
        assert_eq!(Some(read.stamp()), stamp(&path));
        // Just written: racy, so its bytes' digest is kept too.
        assert!(read.digest().is_some());
        assert!(read.still_holds());
        std::fs::write(&path, "# Two, longer\n\nText.\n").unwrap();
        assert!(!read.still_holds());
    }

    #[test]
    fn a_file_that_cannot_be_read_has_no_stamp() {
        let origin = Origin::File("/no/such/lesson.json".into());
        let (lesson, read) = load_stamped(&origin);
        assert!(lesson.is_err());
        assert_eq!(read, None);
    }
}
