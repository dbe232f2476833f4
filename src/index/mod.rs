//! The course index: a cache of every lesson file's header and searchable
//! text, so a course of thousands of lessons opens without reading them
//! all, and a course-wide search is one indexed query.
//!
//! It is a cache, kept as one: `index.db` and `listings/` live in the
//! platform cache directory ([`cache_dir`]), never beside the progress
//! store, so the file a learner backs up and syncs holds only progress.
//! Everything here is derived data, rebuilt from the files whenever it is
//! missing, stale or unreadable; deleting it loses nothing.
//!
//! A file is unchanged when its size, mtime, ctime and inode (to the
//! nanosecond) are as stored. A rewrite that restores the mtime still moves
//! the ctime, which no user can set; only a file changed within a
//! timestamp's granularity of when it was indexed could keep all four, so
//! such a "racy" file is also compared by a digest of its bytes. Paths are
//! stored as their bytes, so a name that is not UTF-8 opens again.

use crate::loader::{self, Diagnostic, Headed, Origin, Progress};
use crate::model::Course;
use rusqlite::Connection;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::loader::walk::{self, os_bytes};

// Lesson headers: the rows of `lesson_file`, and whether a file still
// holds what its row says (its stamp).
mod file_stamps;
mod header_rows;
mod kept_ids;
// The listing of a large folder: its file (encoding, read, write), that
// file with only its head read (a first frame), a later search's lessons
// from it, and the folder's stamp that says it still holds.
mod folder_stamp;
mod listing_file;
mod listing_head;
mod listing_search;
// The searchable text: its rows (`text`), what they hold of some lessons
// against their files now (`text_plan`), that plan kept beside the listing
// (`text_plan_file`), and the search itself.
pub mod query;
mod rank;
pub mod search;
#[cfg(test)]
mod tests_listing_search;
#[cfg(test)]
mod tests_search;
pub mod text;
mod text_plan;
mod text_plan_file;

pub use listing_search::{Listed, Shown};

use file_stamps::{Fresh, RACY_NS, now_ns, stamp};
pub use listing_head::Snapshot;
pub use query::Query;
pub use search::{Field, Found, Hit};
pub use text::{Extract, extract, extract_read};

/// Bumped whenever the tables change; an older file is simply rebuilt.
const VERSION: i64 = 12;

/// How long a write waits for another process's (the reader's indexing
/// and a search side by side).
const BUSY: std::time::Duration = std::time::Duration::from_secs(2);

pub struct Index {
    /// Opened on first use: small folders never need it.
    conn: std::cell::OnceCell<Connection>,
    dir: Option<PathBuf>,
    /// See [`kept_ids`].
    kept_ids: Option<kept_ids::KeptIds>,
}

/// Folders smaller than this are read directly (for a lesson named on the
/// command line, its folder's headers are read before its first frame).
/// From this size a stored listing is cheaper: 30 headers of 10-30 KB
/// lessons took 0.7 ms, their listing a few microseconds.
const SMALL_FOLDER: usize = 16;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS lesson_file (
    path         BLOB PRIMARY KEY NOT NULL,
    dir          BLOB NOT NULL,
    size         INTEGER NOT NULL,
    mtime_ns     INTEGER NOT NULL,
    ctime_ns     INTEGER NOT NULL DEFAULT 0,
    ino          INTEGER NOT NULL DEFAULT 0,
    digest       INTEGER,
    seen_ns      INTEGER NOT NULL DEFAULT 0,
    course_slug  TEXT,
    course_title TEXT,
    slug         TEXT NOT NULL,
    title        TEXT NOT NULL,
    position     INTEGER,
    minutes      INTEGER,
    module_index INTEGER,
    module_slug  TEXT,
    module_title TEXT,
    broken       TEXT,
    has_text     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lesson_file_dir ON lesson_file (dir);
-- A large folder's stamp when it was last listed (folder_stamp.rs).
CREATE TABLE IF NOT EXISTS folder (
    dir      BLOB PRIMARY KEY NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,
    ino      INTEGER NOT NULL,
    seen_ns  INTEGER NOT NULL
);
-- Whose text lesson_fts holds (by row id), and the stamp it was read at.
CREATE TABLE IF NOT EXISTS text_doc (
    rowid    INTEGER PRIMARY KEY,
    path     BLOB UNIQUE NOT NULL,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,
    ino      INTEGER NOT NULL,
    seen_ns  INTEGER NOT NULL,
    digest   INTEGER
);
-- Contentless: the words' positions only. Snippets are made from the
-- files, which also keeps a changed file's old text from being shown.
CREATE VIRTUAL TABLE IF NOT EXISTS lesson_fts USING fts5(
    title, heading, body,
    content = '', contentless_delete = 1,
    -- Two letters typed are a prefix of hundreds of words, whose lists
    -- were merged for every query: 10-20 ms of a key in a course search
    -- at 10,000 lessons. Kept merged, for 8 points of the JSON's size
    -- (19% -> 27%; three letters too would be 39%). BENCHMARKS.md.
    prefix = '2',
    tokenize = 'unicode61 remove_diacritics 2'
);
";

fn connect(dir: Option<&Path>) -> Connection {
    if let Some(dir) = dir {
        let path = dir.join("index.db");
        let _ = std::fs::create_dir_all(dir);
        for _ in 0..2 {
            // A file of that name that lectern cannot prove it made is the
            // learner's: searched in memory, it is never opened to write.
            if !may_open(&path) {
                break;
            }
            match Connection::open(&path).and_then(|c| setup(&c).map(|_| c)) {
                Ok(conn) => return conn,
                // Derived data: a damaged cache is rebuilt from scratch.
                Err(_) => remove(dir),
            }
        }
    }
    let conn = Connection::open_in_memory().expect("SQLite can always open an in-memory database");
    let _ = conn.execute_batch(SCHEMA);
    let _ = conn.execute_batch(text_plan_file::SCHEMA);
    conn
}

/// Whether `path` is missing or a cache lectern made.
fn may_open(path: &Path) -> bool {
    use crate::own::Sqlite;
    match crate::own::sqlite_owner(path) {
        Sqlite::Missing | Sqlite::Ours => true,
        Sqlite::Unmarked => older_index(path),
        Sqlite::Other => false,
    }
}

/// Whether an SQLite file with no application id is an index an older
/// lectern made: every table in it is one of the index's, then or now.
fn older_index(path: &Path) -> bool {
    // An empty file is what SQLite leaves of a first write that failed.
    if path.metadata().is_ok_and(|m| m.len() == 0) {
        return true;
    }
    crate::own::only_tables(path, |t| {
        matches!(
            t,
            "lesson_file"
                | "lesson_text"
                | "dir_listing"
                | "text_doc"
                | "folder"
                | "text_generation"
                | "sqlite_stat1"
        ) || t == "lesson_fts"
            || t.strip_prefix("lesson_fts_").is_some_and(|shadow| {
                matches!(shadow, "data" | "idx" | "content" | "docsize" | "config")
            })
    })
}

/// Removes `dir`'s index, if lectern made it.
fn remove(dir: &Path) {
    crate::own::remove_own_sqlite(&dir.join("index.db"), older_index);
}

/// Whether `e` says the file itself is damaged (not merely busy).
fn is_damage(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    matches!(e.sqlite_error_code(), Some(DatabaseCorrupt | NotADatabase))
}

fn setup(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY)?;
    // Marks the file as lectern's, so that only lectern's is ever removed.
    // Before the switch to WAL, so a new file has it in its header at once
    // (where `own` looks), and checkpointed into an older file's header.
    let id: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
    if id != crate::own::SQLITE_APPLICATION_ID {
        conn.pragma_update(None, "application_id", crate::own::SQLITE_APPLICATION_ID)?;
    }
    conn.pragma_update(None, "journal_mode", "WAL")?;
    if id != crate::own::SQLITE_APPLICATION_ID {
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
    }
    // A cache: a commit need not reach the disk. An OS crash could leave
    // it damaged, which is found (`is_damage`) and rebuilt.
    conn.pragma_update(None, "synchronous", "OFF")?;
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if v != VERSION {
        conn.execute_batch(
            "DROP TABLE IF EXISTS lesson_file; DROP TABLE IF EXISTS lesson_text;\n             DROP TABLE IF EXISTS dir_listing; DROP TABLE IF EXISTS text_doc;\n             DROP TABLE IF EXISTS lesson_fts; DROP TABLE IF EXISTS folder;\n             DROP TABLE IF EXISTS text_generation;",
        )?;
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(text_plan_file::SCHEMA)?;
        conn.pragma_update(None, "user_version", VERSION)?;
    }
    Ok(())
}

impl Index {
    /// The index in `dir`, or in memory when there is none or the file
    /// cannot be used: a cache never stops reading.
    pub fn open(dir: Option<&Path>) -> Index {
        Index {
            conn: std::cell::OnceCell::new(),
            dir: dir.map(Path::to_path_buf),
            kept_ids: None,
        }
    }

    pub fn in_memory() -> Index {
        Index::open(None)
    }

    /// The index in the cache directory. What an older version left in
    /// the data directory `data` (the index and listings) goes, and only
    /// that: a data directory named by the learner may hold their own
    /// `index.db` or `listings/`, which stay exactly as they are.
    pub fn cached(data: Option<&Path>) -> Index {
        if let Some(data) = data {
            remove(data);
            listing_file::remove_old(&data.join("listings"));
        }
        Index::open(cache_dir().as_deref())
    }

    fn conn(&self) -> &Connection {
        self.conn.get_or_init(|| connect(self.dir.as_deref()))
    }

    /// A file found damaged once opened (a bad page past the header) goes,
    /// to be made again on next use: it is derived data. True if it went.
    fn drop_if_damaged(&mut self, e: &rusqlite::Error) -> bool {
        let Some(dir) = self.dir.as_deref().filter(|_| is_damage(e)) else {
            return false;
        };
        // Closed before it is removed.
        drop(self.conn.take());
        self.kept_ids = None;
        remove(dir);
        true
    }

    fn conn_mut(&mut self) -> &mut Connection {
        self.conn();
        self.conn.get_mut().expect("initialised just above")
    }

    /// The courses of `dir`, from headers of every lesson file in it:
    /// unchanged files from the index, changed or new ones read and stored.
    pub fn courses(&mut self, dir: &Path) -> Result<Vec<Course>, Diagnostic> {
        self.courses_with_progress(dir, &Progress::none())
    }

    /// [`Index::courses`], each lesson file read (not those the index
    /// knows) ticked on `progress`.
    pub fn courses_with_progress(
        &mut self,
        dir: &Path,
        progress: &Progress,
    ) -> Result<Vec<Course>, Diagnostic> {
        // Before the files are listed: a change after it is then seen.
        let seen = folder_stamp::look(dir);
        let (heads, large) = self.heads(dir, progress)?;
        let courses = loader::group(heads, Some(dir.to_path_buf()));
        // Best effort, like every write here: a failed one only means a
        // slower start next time.
        if let Some(file) = self.listing_file(dir) {
            if !large {
                // Small now: read directly from here on.
                listing_file::remove(&file);
            } else {
                // Unchanged files but a listing that does not check out
                // (damaged, cut short, older) is written again too:
                // `write` leaves one that is already right alone.
                let written = listing_file::write(&file, dir, &courses).is_ok();
                self.store_folder(dir, seen.filter(|_| written));
            }
        }
        Ok(courses)
    }

    /// Every lesson header of `dir`, and whether the folder is large
    /// enough to be indexed.
    fn heads(
        &mut self,
        dir: &Path,
        progress: &Progress,
    ) -> Result<(Vec<Headed>, bool), Diagnostic> {
        // A folder read as a course is one the learner named.
        loader::named(dir);
        let name = walk::shown(dir);
        let files = loader::lesson_files(dir)
            .map_err(|e| Diagnostic::error(&name, format!("cannot read folder: {e}")))?;
        if files.len() < SMALL_FOLDER {
            let heads = files
                .into_iter()
                .map(|f| {
                    progress.tick();
                    loader::read_head(Origin::File(f))
                })
                .collect();
            return Ok((heads, false));
        }
        let key = os_bytes(dir.as_os_str()).to_vec();
        let mut known = match self.rows(&key) {
            Ok(rows) => rows,
            Err(e) => {
                self.drop_if_damaged(&e);
                HashMap::new()
            }
        };
        let mut out = Vec::with_capacity(files.len());
        let mut fresh = Vec::new();
        let mut racy = Vec::new();
        for f in files {
            // Looked at before the stat: a change after it is racy.
            let seen_ns = now_ns();
            let Some(now) = stamp(&f) else {
                continue;
            };
            let p = os_bytes(f.as_os_str()).to_vec();
            match known.remove(&p) {
                Some(row) if row.holds(now, &f) => {
                    if now.ctime_ns.saturating_add(RACY_NS) >= row.seen_ns {
                        racy.push((p, seen_ns));
                    }
                    out.push(row.head);
                }
                _ => {
                    progress.tick();
                    let h = loader::read_head(Origin::File(f));
                    fresh.push(Fresh {
                        path: p,
                        stamp: now,
                        seen_ns,
                        head: h.clone(),
                    });
                    out.push(h);
                }
            }
        }
        if let Err(e) = self.store(&key, &fresh, &racy, known.keys())
            && self.drop_if_damaged(&e)
        {
            let _ = self.store(&key, &fresh, &racy, known.keys());
        }
        Ok((out, true))
    }

    /// The folder's courses as last seen, without looking at the files:
    /// fast, and possibly stale until [`Index::courses`] checks them again.
    /// Only large folders have one (small ones are read directly).
    pub fn snapshot(&self, dir: &Path) -> Option<Vec<Course>> {
        // Kept beside the index, not in it: one read of a file is several
        // times faster than SQLite following a large value's overflow pages.
        let bytes = listing_file::read(&self.listing_file(dir)?)?;
        listing_file::decode(&bytes, dir)
    }

    /// The folder's listing as last seen, with only its head read: the
    /// courses' titles and sizes at once, any one lesson for one more
    /// read, the whole listing when there is time.
    pub fn peek(&self, dir: &Path) -> Option<Snapshot> {
        let path = self.listing_file(dir)?;
        let (mut file, size) = listing_file::open(&path)?;
        let size = usize::try_from(size).ok()?;
        let mut prefix = [0; listing_file::PREFIX];
        file.read_exact(&mut prefix).ok()?;
        let n =
            listing_file::head_len(&prefix).filter(|&n| n <= size.saturating_sub(prefix.len()))?;
        let mut head = vec![0; n];
        file.read_exact(&mut head).ok()?;
        if !listing_file::head_checks(&prefix, &head) {
            return None;
        }
        let heads = listing_file::heads(&head, dir)?;
        Some(Snapshot {
            path,
            dir: dir.to_path_buf(),
            file,
            body_at: (listing_file::PREFIX + n) as u64,
            size: size as u64,
            heads,
        })
    }

    /// Where the listing of `dir` is kept: `listings/` in the cache
    /// directory, named by a hash of the folder's path (which the file
    /// repeats, so a collision is a miss, not a wrong course).
    fn listing_file(&self, dir: &Path) -> Option<PathBuf> {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        dir.hash(&mut h);
        let cache = self.dir.as_ref()?;
        Some(
            cache
                .join("listings")
                .join(format!("{:016x}.bin", h.finish())),
        )
    }
}

fn key_of(o: &Origin) -> Vec<u8> {
    key_ref(o).into_owned()
}

/// [`key_of`], borrowed from a file's path.
fn key_ref(o: &Origin) -> std::borrow::Cow<'_, [u8]> {
    match o {
        Origin::File(p) => std::borrow::Cow::Borrowed(os_bytes(p.as_os_str())),
        Origin::Builtin(n) => std::borrow::Cow::Owned(
            format!(
                "builtin:{n}:{}",
                loader::BUILTIN
                    .iter()
                    .find(|(b, _)| b == n)
                    .map_or(0, |(_, t)| t.len())
            )
            .into_bytes(),
        ),
    }
}

/// The platform cache directory of lectern: `LECTERN_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/lectern` (on Linux; the platform's own elsewhere).
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LECTERN_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    crate::own::platform_dirs().map(|d| d.cache_dir().to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::file_stamps::{Row, Stamp};
    use super::*;
    use serde_json::json;

    fn write(dir: &Path, name: &str, pos: u32, text: &str) {
        let v = json!({
            "course": {"slug": "c", "title": "C"},
            "lesson": {"slug": name, "title": format!("Lesson {name}"), "position": pos},
            "body": {"format": "markdown", "text": text},
        });
        std::fs::write(dir.join(format!("{name}.json")), v.to_string()).unwrap();
    }

    /// Enough filler lessons that the folder is not read directly.
    fn filler(dir: &Path) {
        for i in 0..SMALL_FOLDER {
            write(dir, &format!("z{i:03}"), 100 + i as u32, "filler");
        }
    }

    #[test]
    fn only_the_files_read_are_ticked() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        for i in 0..300 {
            write(course.path(), &format!("l{i:03}"), i + 1, "text");
        }
        let count = |idx: &mut Index| {
            let heard = std::sync::Mutex::new(Vec::new());
            let progress = Progress::new(|n| heard.lock().unwrap().push(n));
            let courses = idx.courses_with_progress(course.path(), &progress).unwrap();
            assert_eq!(courses[0].lessons.len(), 300);
            drop(progress);
            heard.into_inner().unwrap()
        };
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(count(&mut idx), (1..=300).collect::<Vec<_>>());
        // Unchanged: every header from the index, no file read.
        assert_eq!(count(&mut idx), Vec::<usize>::new());
        write(course.path(), "l007", 8, "text, rewritten at more length");
        assert_eq!(count(&mut idx), [1]);
    }

    #[test]
    fn unchanged_files_come_from_the_index_and_changes_are_seen() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "alpha");
        write(course.path(), "b", 2, "beta");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        let first = idx.courses(course.path()).unwrap();
        assert_eq!(first[0].lessons.len(), 2 + SMALL_FOLDER);
        assert!(data.path().join("index.db").exists());
        // Same files: every header from the index, identical.
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(idx.courses(course.path()).unwrap(), first);
        // A changed file (different size) and a removed one are noticed.
        write(course.path(), "a", 7, "alpha, rewritten at more length");
        std::fs::remove_file(course.path().join("b.json")).unwrap();
        // The snapshot still shows the old listing until it is checked.
        assert_eq!(idx.snapshot(course.path()).unwrap(), first);
        let now = idx.courses(course.path()).unwrap();
        assert_eq!(now[0].lessons.len(), 1 + SMALL_FOLDER);
        let a = now[0].lessons.iter().find(|l| l.slug == "a").unwrap();
        assert_eq!(a.position, Some(7));
        assert_eq!(idx.snapshot(course.path()).unwrap(), now);
    }

    #[test]
    fn a_listing_cut_after_its_head_finds_the_lesson_in_the_files() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "alpha");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        idx.courses(course.path()).unwrap();
        let snapshot = idx.peek(course.path()).unwrap();
        assert_eq!(snapshot.find(0, Some("a")).unwrap().1.slug, "a");
        let file = idx.listing_file(course.path()).unwrap();
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..snapshot.body_at as usize]).unwrap();
        let cut = idx.peek(course.path()).unwrap();
        assert_eq!(cut.find(0, Some("a")).unwrap().1.slug, "a");
        assert!(cut.decode().is_none());
        // The cut listing is gone, to be written whole again.
        assert!(!file.exists());
    }

    #[test]
    fn an_index_damaged_past_its_header_is_rebuilt() {
        let data = tempfile::tempdir().unwrap();
        let course = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "x");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        let first = idx.courses(course.path()).unwrap();
        drop(idx);
        let file = data.path().join("index.db");
        {
            // Checkpointed, so the pages are in the file to be damaged.
            let c = Connection::open(&file).unwrap();
            c.pragma_update(None, "journal_mode", "DELETE").unwrap();
        }
        let mut bytes = std::fs::read(&file).unwrap();
        let page = usize::from(u16::from_be_bytes([bytes[16], bytes[17]]));
        for b in &mut bytes[page..] {
            *b = 0x5a;
        }
        std::fs::write(&file, &bytes).unwrap();
        std::fs::remove_dir_all(data.path().join("listings")).unwrap();
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(idx.courses(course.path()).unwrap(), first);
        let key = os_bytes(course.path().as_os_str()).to_vec();
        assert_eq!(idx.rows(&key).unwrap().len(), first[0].lessons.len());
    }

    #[test]
    fn a_damaged_index_is_rebuilt() {
        let data = tempfile::tempdir().unwrap();
        std::fs::write(data.path().join("index.db"), b"not a database at all").unwrap();
        let course = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "x");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(
            idx.courses(course.path()).unwrap()[0].lessons.len(),
            1 + SMALL_FOLDER
        );
        assert!(idx.rows(os_bytes(course.path().as_os_str())).unwrap().len() > SMALL_FOLDER);
        // Not provably lectern's: indexed in memory, the file untouched.
        assert_eq!(
            std::fs::read(data.path().join("index.db")).unwrap(),
            b"not a database at all"
        );
    }

    #[test]
    fn an_index_damaged_past_a_header_of_lecterns_is_made_again() {
        let data = tempfile::tempdir().unwrap();
        let course = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "x");
        filler(course.path());
        let file = data.path().join("index.db");
        {
            let mut idx = Index::open(Some(data.path()));
            idx.courses(course.path()).unwrap();
        }
        assert_eq!(crate::own::sqlite_owner(&file), crate::own::Sqlite::Ours);
        let mut bytes = std::fs::read(&file).unwrap();
        for b in &mut bytes[100..] {
            *b = 0x55;
        }
        std::fs::write(&file, &bytes).unwrap();
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(
            idx.courses(course.path()).unwrap()[0].lessons.len(),
            1 + SMALL_FOLDER
        );
        drop(idx);
        assert_ne!(std::fs::read(&file).unwrap(), bytes);
    }

    fn write_titled(dir: &Path, name: &str, title: &str) {
        let v = json!({
            "course": {"slug": "c", "title": "C"},
            "lesson": {"slug": name, "title": title, "position": 1},
            "body": {"format": "markdown", "text": "x"},
        });
        std::fs::write(dir.join(format!("{name}.json")), v.to_string()).unwrap();
    }

    fn title_of(courses: &[Course], slug: &str) -> String {
        courses[0]
            .lessons
            .iter()
            .find(|l| l.slug == slug)
            .unwrap()
            .title
            .clone()
    }

    #[test]
    fn garbage_after_the_head_of_a_listing_does_not_stop_reading() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "alpha");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        let first = idx.courses(course.path()).unwrap();
        let file = idx.listing_file(course.path()).unwrap();
        let body_at = idx.peek(course.path()).unwrap().body_at as usize;
        let mut bytes = std::fs::read(&file).unwrap();
        for b in &mut bytes[body_at..] {
            *b = 0xa5;
        }
        std::fs::write(&file, &bytes).unwrap();
        // The head still checks out, so a first frame starts from it; the
        // lesson itself then comes from the files.
        let snapshot = idx.peek(course.path()).unwrap();
        let (place, entry) = snapshot.find(0, Some("a")).unwrap();
        assert_eq!(entry.slug, "a");
        assert_eq!(first[0].lessons[place].slug, "a");
        assert!(snapshot.decode().is_none());
        assert!(idx.snapshot(course.path()).is_none());
        // Read again, the listing is whole again.
        assert_eq!(idx.courses(course.path()).unwrap(), first);
        assert_eq!(idx.snapshot(course.path()).unwrap(), first);
    }

    #[test]
    fn a_listing_left_damaged_is_written_again_though_no_file_changed() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        write(course.path(), "a", 1, "alpha");
        filler(course.path());
        let mut idx = Index::open(Some(data.path()));
        let first = idx.courses(course.path()).unwrap();
        let file = idx.listing_file(course.path()).unwrap();
        let mut bytes = std::fs::read(&file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&file, &bytes).unwrap();
        assert!(idx.snapshot(course.path()).is_none());
        assert_eq!(idx.courses(course.path()).unwrap(), first);
        assert_eq!(idx.snapshot(course.path()).unwrap(), first);
    }

    #[test]
    fn a_same_size_rewrite_with_its_mtime_restored_is_seen() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        write_titled(course.path(), "a", "Old title");
        filler(course.path());
        let path = course.path().join("a.json");
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(
            title_of(&idx.courses(course.path()).unwrap(), "a"),
            "Old title"
        );
        write_titled(course.path(), "a", "New title");
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(mtime).unwrap();
        drop(f);
        let mut idx = Index::open(Some(data.path()));
        assert_eq!(
            title_of(&idx.courses(course.path()).unwrap(), "a"),
            "New title"
        );
    }

    #[test]
    fn a_racy_stamp_is_settled_by_the_digest() {
        let row = |digest| Row {
            stamp: Stamp {
                size: 1,
                mtime_ns: 5,
                ctime_ns: 5,
                ino: 1,
            },
            digest,
            seen_ns: 6,
            head: loader::read_head(Origin::Builtin("none")),
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"now").unwrap();
        let st = row(None).stamp;
        assert!(!row(Some(walk::digest(b"then"))).holds(st, &path));
        assert!(row(Some(walk::digest(b"now"))).holds(st, &path));
        assert!(!row(None).holds(st, &path));
        // Long after the change, the stamp alone is trusted.
        let old = Row {
            seen_ns: 5 + 10 * RACY_NS,
            ..row(None)
        };
        assert!(old.holds(st, &path));
    }

    #[test]
    fn lessons_from_before_1970_and_names_not_utf8_come_back() {
        let course = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        filler(course.path());
        write_titled(course.path(), "old", "Old");
        let old = course.path().join("old.json");
        let f = std::fs::File::options().write(true).open(&old).unwrap();
        let before = std::time::UNIX_EPOCH - std::time::Duration::from_secs(86_400 * 400);
        f.set_modified(before).unwrap();
        drop(f);
        let odd = course.path().join(walk::os_from_bytes(b"caf\xe9.json"));
        std::fs::rename(course.path().join("z000.json"), &odd).unwrap();
        for _ in 0..3 {
            let mut idx = Index::open(Some(data.path()));
            let courses = idx.courses(course.path()).unwrap();
            assert_eq!(courses[0].lessons.len(), SMALL_FOLDER + 1);
            assert_eq!(title_of(&courses, "old"), "Old");
            assert!(
                courses[0]
                    .lessons
                    .iter()
                    .any(|l| l.origin.path() == Some(odd.as_path()))
            );
            let listed = idx.snapshot(course.path()).unwrap();
            assert_eq!(listed, courses);
            assert!(
                listed[0]
                    .lessons
                    .iter()
                    .all(|l| l.origin.path().is_some_and(Path::exists))
            );
        }
    }
}
