//! A later search of a folder that holds the files it held when it was
//! listed: its listing is read and decoded, and then every lesson file
//! stat-ed, on a thread, while the query runs on this one. Each of the
//! three is 10-15 ms for 10,000 lessons; one after the other they were
//! most of a later search (see BENCHMARKS.md, issue 12). Which text row
//! is which lesson's comes from the plan kept with the listing
//! ([`text_plan_file`]) when it is still the index's.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use super::Index;
use super::file_stamps::now_ns;
use super::listing_file;
use super::query::Query;
use super::search::Found;
use super::text_plan::stamps;
use super::text_plan_file;
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
        // [`super::text_plan::Plan::trust_verified`].
        let looked = now_ns();
        let (tx, rx) = std::sync::mpsc::channel();
        let found = std::thread::scope(|s| {
            let reader = s.spawn(|| {
                let (listed, kept) = match text_plan_file::read(&file, dir) {
                    Some((listed, kept)) => (listed, Some(kept)),
                    None => match read_flat(&file, dir) {
                        Some(listed) => (listed, None),
                        None => {
                            let _ = tx.send(None);
                            return Vec::new();
                        }
                    },
                };
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
                text_plan_file::keep(&listed, generation, &plan, dir);
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

/// A folder's listing as a search wants it: every lesson's file, and
/// where to read the record of each one shown. From the listing read whole
/// ([`read_flat`]), or from the plan kept with it ([`text_plan_file::read`]) when
/// the listing is still the one the plan was made from.
pub(super) struct Files {
    pub origins: Arc<Vec<Origin>>,
    /// Which listing it is ([`listing_file::sums`]).
    pub sums: (u64, u64),
    /// (slug, title, lessons) of each course, in order.
    pub courses: Vec<(String, String, usize)>,
    /// Each lesson's record: (where in the listing's file, its length,
    /// its digest).
    pub records: Vec<(u64, u64, u64)>,
    /// The listing's bytes, when read whole (else records are read from
    /// `file` one by one).
    pub bytes: Option<Vec<u8>>,
    pub file: std::path::PathBuf,
}

impl Files {
    /// The lesson at `place` (in course order), its record checked
    /// against its digest.
    fn shown(&self, place: usize, dir: &Path) -> Option<Shown> {
        let &(at, len, sum) = self.records.get(place)?;
        let range = usize::try_from(at).ok()?..usize::try_from(at.checked_add(len)?).ok()?;
        let record = match &self.bytes {
            Some(b) => b.get(range.clone())?.to_vec(),
            None => read_at(&self.file, at, range.len())?,
        };
        let entry =
            listing_file::lesson_at(&record, &listing_file::Found::at(place, range, sum), dir)?;
        let mut first = 0;
        for (slug, title, count) in &self.courses {
            if place < first + count {
                return Some(Shown {
                    course_slug: slug.clone(),
                    course_title: title.clone(),
                    position: place - first + 1,
                    entry,
                });
            }
            first += count;
        }
        None
    }
}

fn read_at(file: &Path, at: u64, len: usize) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut out = vec![0; len];
    listing_file::open(file)?
        .0
        .read_exact_at(&mut out, at)
        .ok()?;
    Some(out)
}

/// The lessons listed in `file` for `dir`, if every one's file is
/// directly in `dir` (so that one stat of the folder told whether any came
/// or went).
fn read_flat(file: &Path, dir: &Path) -> Option<Files> {
    let bytes = listing_file::read(file)?;
    let (heads, files) = listing_file::decode_files(&bytes, dir)?;
    let sums = listing_file::sums(&bytes)?;
    let within = crate::loader::walk::os_bytes(dir.as_os_str()).len() + 1;
    let flat = files.iter().all(|(p, _, _)| {
        crate::loader::walk::os_bytes(p.as_os_str())
            .get(within..)
            .is_some_and(|name| !name.is_empty() && !name.contains(&b'/'))
    });
    if !flat {
        return None;
    }
    let mut origins = Vec::with_capacity(files.len());
    let mut records = Vec::with_capacity(files.len());
    for (path, range, sum) in files {
        origins.push(Origin::File(path));
        records.push((range.start as u64, range.len() as u64, sum));
    }
    Some(Files {
        origins: Arc::new(origins),
        sums,
        courses: heads
            .into_iter()
            .map(|h| (h.slug, h.title, h.count))
            .collect(),
        records,
        bytes: Some(bytes),
        file: file.to_path_buf(),
    })
}
