//! The learner's library: every course opened, by slug (so a course that
//! moved keeps its progress), with its title, where it was opened from
//! and when it was last read. Issue 12's "search the whole library" lists
//! its courses with [`Store::library`].

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use super::{Store, open, read};

/// A course of the learner's library, as the store remembers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryCourse {
    pub slug: String,
    pub title: String,
    /// Where it was last opened from; `None` for the built-in course.
    pub root: Option<PathBuf>,
    /// Lessons it had when last opened.
    pub lessons: u32,
    pub last_read: DateTime<Utc>,
}

impl LibraryCourse {
    /// The course's folder was there when last opened and is gone now.
    pub fn is_gone(&self) -> bool {
        self.root.as_ref().is_some_and(|r| !r.exists())
    }
}

impl Store {
    /// Every course ever opened, the most recently read first.
    pub fn library(&self) -> Vec<LibraryCourse> {
        self.read(read::library)
    }

    /// The course read last, straight from the file in `dir` (read-only,
    /// without opening the store): where `lectern` with no arguments
    /// starts. `None` when there is no file or it cannot say.
    pub fn last_course(dir: &Path) -> Option<LibraryCourse> {
        let db = dir.join(open::FILE);
        if !db.is_file() {
            return None;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags).ok()?;
        conn.query_row(
            "SELECT slug, title, root, lessons, last_read_ms FROM library
             ORDER BY last_read_ms DESC, slug LIMIT 1",
            [],
            read::library_row,
        )
        .optional()
        .ok()
        .flatten()
    }
}
