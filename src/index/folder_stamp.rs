//! Whether a large folder still holds the files it held when it was last
//! listed, from one stat of the folder: adding, removing or renaming a
//! file moves the folder's mtime and ctime. A later search of an unchanged
//! folder then takes its files from the listing instead of reading the
//! folder (10,000 names read and sorted cost more than the query).

use std::path::Path;

use rusqlite::params;

use super::Index;
use super::file_stamps::{RACY_NS, Stamp, now_ns, stamp};
use crate::loader::walk::os_bytes;

/// A folder's stamp, and when it was taken (before its files were read).
#[derive(Debug, Clone, Copy)]
pub(super) struct Seen {
    stamp: Stamp,
    seen_ns: i64,
}

/// The stamp of `dir` now, to be stored once its files are listed.
pub(super) fn look(dir: &Path) -> Option<Seen> {
    let seen_ns = now_ns();
    Some(Seen {
        stamp: stamp(dir)?,
        seen_ns,
    })
}

impl Index {
    pub(super) fn store_folder(&mut self, dir: &Path, seen: Option<Seen>) {
        let key = os_bytes(dir.as_os_str());
        let conn = self.conn();
        // Best effort: without it a later search only reads the folder.
        let _ = match seen {
            Some(Seen { stamp: st, seen_ns }) => conn.execute(
                "INSERT OR REPLACE INTO folder (dir, mtime_ns, ctime_ns, ino, seen_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![key, st.mtime_ns, st.ctime_ns, st.ino, seen_ns],
            ),
            None => conn.execute("DELETE FROM folder WHERE dir = ?1", [key]),
        };
    }

    /// Whether `dir` is as it was when its listing was made: the same
    /// stamp, stored long enough after its last change that a change
    /// within the clock's grain cannot hide (see the module docs of the
    /// index).
    pub fn folder_unchanged(&self, dir: &Path) -> bool {
        let Some(now) = stamp(dir) else {
            return false;
        };
        let row = self
            .conn()
            .prepare_cached("SELECT mtime_ns, ctime_ns, ino, seen_ns FROM folder WHERE dir = ?1")
            .and_then(|mut s| {
                s.query_row([os_bytes(dir.as_os_str())], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                })
            });
        row.is_ok_and(|(mtime_ns, ctime_ns, ino, seen_ns)| {
            (mtime_ns, ctime_ns, ino) == (now.mtime_ns, now.ctime_ns, now.ino)
                && ctime_ns.saturating_add(RACY_NS) < seen_ns
        })
    }
}
