//! A later search of a folder that holds the files it held when it was
//! listed: its listing is read and decoded, and then every lesson file
//! stat-ed, on a thread, while the query runs on this one. Each of the
//! three is 10-15 ms for 10,000 lessons; one after the other they were
//! most of a later search (see BENCHMARKS.md, issue 12). Which text row
//! is which lesson's comes from the plan kept with the listing
//! ([`kept`]) when it is still the index's.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use super::Index;
use super::fresh::now_ns;
use super::kept;
use super::listing;
use super::plan::stamps;
use super::query::Query;
use super::search::Found;
use crate::model::{LessonEntry, Origin};

/// What a search of a folder by its listing found: the hits, each with
/// its lesson as listed, or the lessons found changed since they were
/// indexed.
pub struct Listed {
    pub found: Result<(Found, Vec<Shown>), Vec<Origin>>,
}

/// A hit's lesson as listed.
#[derive(Debug, Clone)]
pub struct Shown {
    pub course_slug: String,
    pub course_title: String,
    /// Its number in its course, from 1.
    pub position: usize,
    pub entry: LessonEntry,
}

impl Index {
    /// `q` searched in folder `dir` by its listing; `None` when the folder
    /// changed since it was listed, has no listing, or holds its lessons
    /// in folders of its own (those folders may have changed).
    pub fn search_listed(&mut self, dir: &Path, q: &Query, limit: usize) -> Option<Listed> {
        if q.is_empty() || !self.folder_unchanged(dir) {
            return None;
        }
        let file = self.listing_file(dir)?;
        let next = AtomicUsize::new(0);
        // Before any file is stat-ed: see
        // [`super::plan::Plan::trust_verified`].
        let looked = now_ns();
        let (tx, rx) = std::sync::mpsc::channel();
        let found = std::thread::scope(|s| {
            let reader = s.spawn(|| {
                let Some(listed) = read_flat(&file, dir) else {
                    let _ = tx.send(None);
                    return Vec::new();
                };
                let kept = kept::read(&kept::file_of(&file));
                let origins = Arc::clone(&listed.origins);
                let _ = tx.send(Some((listed, kept)));
                stamps(&origins, &next)
            });
            // One read of the index: the generation vouches for the text
            // rows the query matched and the plan was made from.
            let together = self.conn().execute_batch("BEGIN").is_ok();
            let generation = self.generation();
            let matches = self.matches_or_none(q, limit);
            let Ok(Some((listed, kept))) = rx.recv() else {
                let _ = reader.join();
                return None;
            };
            let kept = kept.and_then(|k| k.plan(&listed.origins, listed.sums, generation));
            let made = kept.is_none();
            let mut plan = match kept {
                Some(plan) => plan,
                None => self.stored().plan(&listed.origins),
            };
            if together {
                let _ = self.conn().execute_batch("COMMIT");
            }
            let ranked = self.rank(q, matches, &plan.ids, limit);
            // Done with the query: help with the stats.
            let mut chunks = stamps(&listed.origins, &next);
            chunks.extend(reader.join().unwrap_or_default());
            let found = self.settle(q, &plan, ranked, chunks, limit);
            if found.is_ok() && (plan.trust_verified(looked) > 0 || made) {
                kept::keep(&file, listed.sums, generation, &plan);
            }
            Some(found.map(|f| {
                let shown: Vec<Shown> = f
                    .hits
                    .iter()
                    .filter_map(|h| listed.shown(h.lesson, dir))
                    .collect();
                (f, shown)
            }))
        })?;
        // A record that did not decode: the listing is not to be trusted.
        if let Ok((f, shown)) = &found
            && f.hits.len() != shown.len()
        {
            return None;
        }
        Some(Listed { found })
    }
}

/// A listing read for a search (see [`listing::decode_files`]).
struct Files {
    bytes: Vec<u8>,
    heads: Vec<listing::Head>,
    origins: Arc<Vec<Origin>>,
    /// Which listing it is ([`listing::sums`]).
    sums: (u64, u64),
    records: Vec<std::ops::Range<usize>>,
}

impl Files {
    /// The lesson at `place` (in course order).
    fn shown(&self, place: usize, dir: &Path) -> Option<Shown> {
        let entry = listing::entry(&self.bytes, self.records.get(place)?.clone(), dir)?;
        let mut first = 0;
        for h in &self.heads {
            if place < first + h.count {
                return Some(Shown {
                    course_slug: h.slug.clone(),
                    course_title: h.title.clone(),
                    position: place - first + 1,
                    entry,
                });
            }
            first += h.count;
        }
        None
    }
}

/// The lessons listed in `file` for `dir`, if every one's file is
/// directly in `dir` (so that one stat of the folder told whether any came
/// or went).
fn read_flat(file: &Path, dir: &Path) -> Option<Files> {
    let bytes = std::fs::read(file).ok()?;
    let (heads, files) = listing::decode_files(&bytes, dir)?;
    let sums = listing::sums(&bytes)?;
    let within = crate::loader::walk::os_bytes(dir.as_os_str()).len() + 1;
    let flat = files.iter().all(|(p, _)| {
        crate::loader::walk::os_bytes(p.as_os_str())
            .get(within..)
            .is_some_and(|name| !name.is_empty() && !name.contains(&b'/'))
    });
    if !flat {
        return None;
    }
    let (paths, records): (Vec<_>, Vec<_>) = files.into_iter().unzip();
    Some(Files {
        bytes,
        heads,
        origins: Arc::new(paths.into_iter().map(Origin::File).collect()),
        sums,
        records,
    })
}
