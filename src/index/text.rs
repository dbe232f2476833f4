//! The searchable text of lessons: read from the files, stored in a
//! contentless FTS5 table (the words' positions only, not the text:
//! snippets are made from the files themselves, so they can never show
//! text a file no longer holds), and kept fresh by each file's stamp.

use rusqlite::params;

use super::file_stamps::{RACY_NS, Stamp, now_ns, stamp, stamp_of};
use super::text_plan::Known;
use super::{Index, key_of};
use crate::loader::stamp::ReadStamp;
use crate::loader::{self, walk};
use crate::model::{Block, Lesson, Origin};

/// A lesson's text split into the columns ranked apart.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    pub title: String,
    pub heading: String,
    pub body: String,
}

/// One lesson read for the index, ready to be stored.
#[derive(Debug, Clone)]
pub struct Extract {
    pub(super) key: Vec<u8>,
    pub(super) stamp: Stamp,
    pub(super) seen_ns: i64,
    pub(super) digest: Option<u64>,
    pub(super) text: Columns,
}

/// The page's anchorable section of `blocks[i]`: after the header and
/// the hero (see `layout::Page::blocks`).
pub fn anchor_block(lesson: &Lesson, i: usize) -> u32 {
    (1 + usize::from(lesson.hero.is_some()) + i) as u32
}

/// The block at page section `at`, found by its place (looking for it
/// among all blocks made a long lesson's search quadratic); `None` for the
/// title, the hero and checks.
pub fn block_at(lesson: &Lesson, at: u32) -> Option<&Block> {
    let i = at.checked_sub(anchor_block(lesson, 0))?;
    lesson.blocks.get(i as usize)
}

/// The texts a search looks in, each with the page section it is at.
pub fn sections(lesson: &Lesson) -> Vec<(u32, String)> {
    let mut out = Vec::with_capacity(lesson.blocks.len() + 3);
    out.push((0, lesson.meta.title.clone()));
    if let Some(h) = &lesson.hero {
        out.push((1, h.plain_text()));
    }
    for (i, b) in lesson.blocks.iter().enumerate() {
        out.push((anchor_block(lesson, i), Lesson::block_text(b)));
    }
    for c in &lesson.checks {
        // A check is drawn at its anchor, else after the last block.
        let at = anchor_block(
            lesson,
            c.anchor.unwrap_or(usize::MAX).min(lesson.blocks.len()),
        );
        out.push((at, crate::layout::check_text(c)));
    }
    out
}

pub fn columns(lesson: &Lesson) -> Columns {
    let mut c = Columns {
        title: lesson.meta.title.clone(),
        ..Columns::default()
    };
    for (at, text) in sections(lesson).into_iter().skip(1) {
        let heading = matches!(block_at(lesson, at), Some(Block::Heading { .. }));
        let col = if heading { &mut c.heading } else { &mut c.body };
        col.push_str(&text);
        col.push('\n');
    }
    c
}

/// What [`extract`] would find, from `lesson` (the one the loader read
/// under `read`), if the file still has the stamp it had then: never text
/// of a file that has changed since. The page's lesson is taken rather than
/// the file parsed a second time (a large lesson's model twice over).
pub fn extract_read(read: &ReadStamp, lesson: &Lesson) -> Option<Extract> {
    read.still_holds().then(|| Extract {
        key: key_of(read.origin()),
        stamp: read.stamp(),
        seen_ns: read.seen_ns(),
        digest: read.digest(),
        text: columns(lesson),
    })
}

/// The lesson at `origin` as it is now, with the stamp it was read at.
/// A file that cannot be read or parsed is stored with no text, so it is
/// not read again until it changes.
pub fn extract(origin: &Origin) -> Extract {
    let seen_ns = now_ns();
    let key = key_of(origin);
    let (stamp, bytes) = match origin {
        // The open file's stamp, taken before its bytes are read; one that
        // cannot be read is stored by its stamp, with no text.
        Origin::File(p) => match walk::read_regular_with_meta(p) {
            Ok((bytes, meta)) => (stamp_of(&meta), bytes),
            Err(_) => (stamp(p).unwrap_or_default(), Vec::new()),
        },
        Origin::Builtin(_) => (Stamp::default(), Vec::new()),
    };
    let lesson = match origin {
        // In the format its name says (markdown, an mdBook's chapter), not
        // always as JSON.
        Origin::File(_) => loader::load_from(origin, &bytes).map(|l| l.lesson),
        Origin::Builtin(_) => loader::load_lesson(origin),
    };
    // A change within the clock's grain of now would keep the stamp: the
    // bytes settle it then (see the module docs of the index).
    let racy = stamp.ctime_ns.saturating_add(RACY_NS) >= seen_ns;
    Extract {
        key,
        stamp,
        seen_ns,
        digest: racy.then(|| walk::digest(&bytes)),
        text: lesson.as_ref().map(columns).unwrap_or_default(),
    }
}

impl Index {
    /// Lessons of `origins` whose text is not indexed, or was indexed from
    /// a file that has changed since.
    pub fn stale(&mut self, origins: &[Origin]) -> Vec<Origin> {
        self.plan(origins).stale()
    }

    /// Whether the text stored for `origin` is that of the file as it is.
    pub(super) fn holds(&self, origin: &Origin) -> bool {
        let row = self
            .conn()
            .prepare_cached(
                "SELECT size, mtime_ns, ctime_ns, ino, seen_ns, digest FROM text_doc WHERE path = ?1",
            )
            .and_then(|mut s| {
                s.query_row([key_of(origin)], |r| Known::from_row(r, 0))
            });
        row.is_ok_and(|k| k.holds(origin))
    }

    /// Stores lessons' text, in one transaction, replacing what a key had.
    pub fn insert(&mut self, docs: &[Extract]) -> rusqlite::Result<()> {
        // Nothing changes: the plans kept stay good.
        if docs.is_empty() {
            return Ok(());
        }
        let r = self.insert_once(docs);
        match r {
            Err(e) if self.drop_if_damaged(&e) => self.insert_once(docs),
            r => r,
        }
    }

    fn insert_once(&mut self, docs: &[Extract]) -> rusqlite::Result<()> {
        let tx = self.conn_mut().transaction()?;
        // The one writer of text rows: see `kept`.
        super::text_plan_file::moved(&tx)?;
        {
            let mut old = tx.prepare_cached("SELECT rowid FROM text_doc WHERE path = ?1")?;
            let mut drop_doc = tx.prepare_cached("DELETE FROM text_doc WHERE rowid = ?1")?;
            let mut drop_text = tx.prepare_cached("DELETE FROM lesson_fts WHERE rowid = ?1")?;
            let mut doc = tx.prepare_cached(
                "INSERT INTO text_doc (path, size, mtime_ns, ctime_ns, ino, seen_ns, digest)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut text = tx.prepare_cached(
                "INSERT INTO lesson_fts (rowid, title, heading, body) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for d in docs {
                if let Ok(id) = old.query_row([&d.key], |r| r.get::<_, i64>(0)) {
                    drop_text.execute([id])?;
                    drop_doc.execute([id])?;
                }
                let st = d.stamp;
                doc.execute(params![
                    d.key,
                    st.size,
                    st.mtime_ns,
                    st.ctime_ns,
                    st.ino,
                    d.seen_ns,
                    d.digest.map(|x| x as i64)
                ])?;
                let id = tx.last_insert_rowid();
                let c = &d.text;
                let indexed = super::query::for_index;
                text.execute(params![
                    id,
                    indexed(&c.title),
                    indexed(&c.heading),
                    indexed(&c.body)
                ])?;
            }
        }
        tx.commit()
    }

    /// Brings the text of every lesson of `origins` up to date, reading
    /// files on every core; `progress(done, total)` after each batch.
    pub fn fill(&mut self, origins: &[Origin], progress: &mut dyn FnMut(usize, usize)) {
        let stale = self.stale(origins);
        self.fill_stale(&stale, progress);
    }

    /// [`Index::fill`] for the lessons [`Index::stale`] named.
    pub fn fill_stale(&mut self, stale: &[Origin], progress: &mut dyn FnMut(usize, usize)) {
        let total = stale.len();
        if total == 0 {
            return;
        }
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Extract>>(workers * 2);
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..workers {
                let (tx, next) = (tx.clone(), &next);
                // One book's SUMMARY read once per worker, not per chapter
                // (4,000 chapters: 9.0 s, now 0.19).
                s.spawn(move || {
                    crate::loader::books_once(|| {
                        loop {
                            let at = next.fetch_add(BATCH, std::sync::atomic::Ordering::Relaxed);
                            let Some(chunk) = stale.get(at..(at + BATCH).min(stale.len())) else {
                                break;
                            };
                            let texts = chunk.iter().map(extract).collect();
                            if chunk.is_empty() || tx.send(texts).is_err() {
                                break;
                            }
                        }
                    })
                });
            }
            drop(tx);
            let mut done = 0;
            for batch in rx {
                // A cache that cannot be written only means a slower search.
                let _ = self.insert(&batch);
                done += batch.len();
                progress(done, total);
            }
        });
    }
}

/// Lessons read per batch by one worker.
const BATCH: usize = 50;
