//! What the index holds of some lessons, and whether their files still
//! hold it: the stored rows (path, stamp, text row) matched to the
//! lessons by path, and the lessons' stamps taken now.

use std::collections::HashMap;

use super::file_stamps::{RACY_NS, Stamp, Stamper, stamp};
use super::{Index, key_ref};
use crate::loader::walk;
use crate::model::Origin;

#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    stamp: Stamp,
    seen_ns: i64,
    digest: Option<u64>,
}

impl Known {
    /// The columns `size, mtime_ns, ctime_ns, ino, seen_ns, digest` of a
    /// `text_doc` row, from column `at` on.
    pub(super) fn from_row(r: &rusqlite::Row, at: usize) -> rusqlite::Result<Known> {
        Ok(Known {
            stamp: Stamp {
                size: r.get(at)?,
                mtime_ns: r.get(at + 1)?,
                ctime_ns: r.get(at + 2)?,
                ino: r.get(at + 3)?,
            },
            seen_ns: r.get(at + 4)?,
            digest: r.get::<_, Option<i64>>(at + 5)?.map(|d| d as u64),
        })
    }

    /// As seven numbers, for a plan kept ([`super::text_plan_file`]).
    pub(super) fn words(&self) -> [i64; 7] {
        let s = self.stamp;
        let (has, d) = self.digest.map_or((0, 0), |d| (1, d as i64));
        [s.size, s.mtime_ns, s.ctime_ns, s.ino, self.seen_ns, has, d]
    }

    /// [`Known::words`] back.
    pub(super) fn from_words(w: [i64; 7]) -> Known {
        Known {
            stamp: Stamp {
                size: w[0],
                mtime_ns: w[1],
                ctime_ns: w[2],
                ino: w[3],
            },
            seen_ns: w[4],
            digest: (w[5] != 0).then_some(w[6] as u64),
        }
    }

    /// Whether the file at `origin` still holds the text stored for it.
    pub(super) fn holds(&self, origin: &Origin) -> bool {
        let now = match origin {
            Origin::File(p) => stamp(p),
            Origin::Builtin(_) => None,
        };
        self.holds_at(origin, now)
    }

    /// [`Known::holds`], with the file's stamp `now` already taken.
    fn holds_at(&self, origin: &Origin, now: Option<Stamp>) -> bool {
        let Origin::File(p) = origin else {
            // A built-in lesson's key carries its length: it is a new key
            // when the binary changes.
            return true;
        };
        if now != Some(self.stamp) {
            return false;
        }
        if self.stamp.ctime_ns.saturating_add(RACY_NS) < self.seen_ns {
            return true;
        }
        self.digest.is_some()
            && walk::read_regular(p).is_ok_and(|b| Some(walk::digest(&b)) == self.digest)
    }
}

/// What the index holds of some lessons: the row of each one's text by
/// its place among them, and the stored stamps to check them by.
pub(super) struct Plan<'a> {
    pub origins: &'a [Origin],
    pub ids: HashMap<i64, usize>,
    /// Places of the lessons stored, with what was stored of each.
    pub check: Vec<(usize, Known)>,
    /// Lessons with no text stored at all.
    pub missing: Vec<Origin>,
}

impl Plan<'_> {
    /// The lessons whose files changed since their text was stored (a
    /// stat each), and those never stored.
    pub fn stale(&self) -> Vec<Origin> {
        let mut stamper = Stamper::default();
        let now: Vec<Option<Stamp>> = self
            .origins
            .iter()
            .map(|o| o.path().and_then(|p| stamper.stamp(p)))
            .collect();
        self.stale_at(&now)
    }

    /// [`Plan::stale`], with every lesson's stamp taken (`None` for one
    /// that is gone, or was not looked at).
    pub fn stale_at(&self, now: &[Option<Stamp>]) -> Vec<Origin> {
        let mut out = self.missing.clone();
        out.extend(
            self.check
                .iter()
                .filter(|(i, k)| !k.holds_at(&self.origins[*i], now.get(*i).copied().flatten()))
                .map(|(i, _)| self.origins[*i].clone()),
        );
        out
    }
}

impl Plan<'_> {
    /// Once every lesson was found to hold what is stored (a racy one by
    /// its bytes), with stats taken after `looked`: the racy ones whose
    /// last change was long before `looked` are to be trusted by their
    /// stamp from now on, as if read at `looked` (a change since would
    /// have moved their ctime). How many there were. Without it a lesson
    /// indexed just after it was written is read again by every search.
    pub fn trust_verified(&mut self, looked: i64) -> usize {
        let mut n = 0;
        for (_, k) in &mut self.check {
            let racy = k.stamp.ctime_ns.saturating_add(RACY_NS) >= k.seen_ns;
            if racy && k.stamp.ctime_ns.saturating_add(RACY_NS) < looked {
                k.seen_ns = looked;
                n += 1;
            }
        }
        n
    }
}

/// The stamps of `origins` now, by chunks claimed from `next`, so that
/// threads done with other work join in: `(first place, stamps)` each.
pub(super) fn stamps(
    origins: &[Origin],
    next: &std::sync::atomic::AtomicUsize,
) -> Vec<(usize, Vec<Option<Stamp>>)> {
    const CHUNK: usize = 256;
    let mut stamper = Stamper::default();
    let mut out = Vec::new();
    loop {
        let at = next.fetch_add(CHUNK, std::sync::atomic::Ordering::Relaxed);
        let Some(chunk) = origins.get(at..(at + CHUNK).min(origins.len())) else {
            return out;
        };
        if chunk.is_empty() {
            return out;
        }
        let got = chunk
            .iter()
            .map(|o| o.path().and_then(|p| stamper.stamp(p)))
            .collect();
        out.push((at, got));
    }
}

/// The rows of the index's lesson files as stored, read before it is known
/// which lessons they are wanted for (so that a search reads them while
/// the lessons' listing is decoded): every path in one buffer.
#[derive(Default)]
pub(super) struct Stored {
    paths: Vec<u8>,
    /// (where the path is in `paths`, text row, what was stored).
    rows: Vec<((usize, usize), i64, Known)>,
}

impl Stored {
    /// What is stored of `origins`: the row of each, matched by path.
    pub(super) fn plan<'a>(&self, origins: &'a [Origin]) -> Plan<'a> {
        let mut by_path: HashMap<&[u8], usize, foldhash::fast::RandomState> =
            HashMap::with_capacity_and_hasher(self.rows.len(), Default::default());
        by_path.extend(
            self.rows
                .iter()
                .enumerate()
                .map(|(i, ((s, e), _, _))| (&self.paths[*s..*e], i)),
        );
        let mut plan = Plan {
            origins,
            ids: HashMap::with_capacity(origins.len()),
            check: Vec::with_capacity(origins.len()),
            missing: Vec::new(),
        };
        for (i, o) in origins.iter().enumerate() {
            match by_path.get(key_ref(o).as_ref()) {
                Some(&r) => {
                    let (_, id, known) = self.rows[r];
                    plan.ids.insert(id, i);
                    plan.check.push((i, known));
                }
                None => plan.missing.push(o.clone()),
            }
        }
        plan
    }
}

impl Index {
    /// What the index holds of `origins`, without looking at the files.
    pub(super) fn plan<'a>(&mut self, origins: &'a [Origin]) -> Plan<'a> {
        self.stored().plan(origins)
    }

    /// See [`Stored`]; nothing if the index cannot be read (it is dropped
    /// if damaged).
    pub(super) fn stored(&mut self) -> Stored {
        let mut out = Stored::default();
        if let Err(e) = self.read_stored(&mut out) {
            self.drop_if_damaged(&e);
            out = Stored::default();
        }
        out
    }

    fn read_stored(&self, out: &mut Stored) -> rusqlite::Result<()> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT path, size, mtime_ns, ctime_ns, ino, seen_ns, digest, rowid FROM text_doc",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let Ok(Some(path)) = r.get_ref(0)?.as_blob_or_null() else {
                continue;
            };
            let at = out.paths.len();
            out.paths.extend_from_slice(path);
            let known = Known::from_row(r, 1)?;
            out.rows.push(((at, out.paths.len()), r.get(7)?, known));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(ctime_ns: i64, seen_ns: i64) -> Known {
        Known::from_words([10, ctime_ns, ctime_ns, 1, seen_ns, 1, 99])
    }

    #[test]
    fn a_racy_lesson_verified_long_after_its_change_is_trusted_from_then_on() {
        let s = 1_000_000_000;
        let origins = vec![Origin::File("/c/a.json".into()); 4];
        let mut plan = Plan {
            origins: &origins,
            ids: HashMap::new(),
            check: vec![
                // Racy (indexed just after it was written), changed long ago.
                (0, known(100 * s, 100 * s + 1)),
                // Racy, and changed just before the stats were taken.
                (1, known(199 * s, 199 * s + 1)),
                // Not racy: left as it was.
                (2, known(10 * s, 50 * s)),
                // Racy, read in the same instant as its change.
                (3, known(150 * s, 150 * s)),
            ],
            missing: Vec::new(),
        };
        assert_eq!(plan.trust_verified(200 * s), 2);
        let seen: Vec<i64> = plan.check.iter().map(|(_, k)| k.seen_ns).collect();
        assert_eq!(seen, [200 * s, 199 * s + 1, 50 * s, 200 * s]);
        // Trusted now: no second time.
        assert_eq!(plan.trust_verified(200 * s), 0);
        let racy = |k: &Known| k.stamp.ctime_ns.saturating_add(RACY_NS) >= k.seen_ns;
        assert!(!racy(&plan.check[0].1) && racy(&plan.check[1].1));
    }
}
