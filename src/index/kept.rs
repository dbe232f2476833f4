//! A later search's plan, kept: which text row holds each lesson of a
//! folder's listing, and the stamp it was read at. Making it from the
//! index (every `text_doc` row read, matched to the lessons by path) was
//! a quarter of a later search of 10,000 lessons (see BENCHMARKS.md,
//! issue 12); kept in a file beside the listing, it is one read.
//!
//! It cannot go stale: it names the listing it was made for (by the
//! listing's digests) and the index's [`Generation`], which the one writer
//! of `text_doc` ([`Index::insert`]) moves in the same transaction as any
//! change to the text rows. A plan of another listing or generation is not
//! used, and one that does not check out is made again. (Triggers on
//! `text_doc` would move it for any writer, but made FTS5 flush its
//! pending words at every row: the first search of 10,000 lessons took
//! 2.5 s more.)

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::Index;
use super::plan::{Known, Plan};
use crate::loader::walk::digest;
use crate::model::Origin;

/// The generation's table (module docs). The epoch is new with each
/// index made, so a plan kept for an index since deleted and made again
/// is not taken for one of the new index.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS text_generation (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch INTEGER NOT NULL,
    n     INTEGER NOT NULL
);
INSERT OR IGNORE INTO text_generation (id, epoch, n) VALUES (1, random(), 0);
";

/// Moves the generation on, in the transaction `tx` that changes text
/// rows (before them: see the module docs).
pub(super) fn moved(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute("UPDATE text_generation SET n = n + 1 WHERE id = 1", [])
        .map(|_| ())
}

/// Which text rows the index holds: another value after any change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Generation {
    epoch: i64,
    n: i64,
}

/// A kept plan as read, before it is known whether it is the plan of the
/// listing and the index read now.
pub(super) struct Kept {
    generation: Generation,
    listing: (u64, u64),
    rows: Vec<(i64, Known)>,
}

const MAGIC: &[u8; 8] = b"LECTPLN1";
/// Bytes of the magic, the generation, the listing's digests and the count.
const HEAD: usize = 8 * 6;
/// Bytes of one lesson: its text row, then [`Known`].
const ROW: usize = 8 * 8;

impl Kept {
    /// The plan for `origins`, listed with digests `listing`, from the
    /// index at `generation`, if this is the plan kept for them.
    pub(super) fn plan<'a>(
        self,
        origins: &'a [Origin],
        listing: (u64, u64),
        generation: Option<Generation>,
    ) -> Option<Plan<'a>> {
        let same = Some(self.generation) == generation && listing == self.listing;
        if !same || origins.len() != self.rows.len() {
            return None;
        }
        let mut ids = HashMap::with_capacity(self.rows.len());
        // In place (the same size): 10,000 rows are 160 pages the first
        // time they are touched.
        let check = self
            .rows
            .into_iter()
            .enumerate()
            .map(|(place, (id, known))| {
                ids.insert(id, place);
                (place, known)
            })
            .collect();
        Some(Plan {
            origins,
            ids,
            check,
            missing: Vec::new(),
        })
    }
}

/// Where the plan of the listing `listing` is kept.
pub(super) fn file_of(listing: &Path) -> PathBuf {
    listing.with_extension("plan")
}

fn encode(plan: &Plan, generation: Generation, listing: (u64, u64)) -> Option<Vec<u8>> {
    // Every lesson, in order, or nothing.
    let in_order = plan.check.iter().enumerate().all(|(i, (p, _))| i == *p);
    if !in_order || plan.check.len() != plan.origins.len() || !plan.missing.is_empty() {
        return None;
    }
    let mut rows = vec![None; plan.origins.len()];
    for (&id, &place) in &plan.ids {
        *rows.get_mut(place)? = Some(id);
    }
    let mut out = Vec::with_capacity(HEAD + ROW * rows.len() + 8);
    out.extend_from_slice(MAGIC);
    for v in [
        generation.epoch,
        generation.n,
        listing.0 as i64,
        listing.1 as i64,
        rows.len() as i64,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for (id, (_, known)) in rows.into_iter().zip(&plan.check) {
        out.extend_from_slice(&id?.to_le_bytes());
        for v in known.words() {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&digest(&out).to_le_bytes());
    Some(out)
}

fn word(b: &[u8], i: usize) -> i64 {
    i64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap_or_default())
}

fn decode(bytes: &[u8]) -> Option<Kept> {
    let (all, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if all.len() < HEAD || !all.starts_with(MAGIC) || word(sum, 0) as u64 != digest(all) {
        return None;
    }
    let (head, rows) = all.split_at(HEAD);
    let count = usize::try_from(word(head, 5)).ok()?;
    if rows.len() != count.checked_mul(ROW)? {
        return None;
    }
    let rows = rows
        .chunks_exact(ROW)
        .map(|r| {
            (
                word(r, 0),
                Known::from_words(std::array::from_fn(|i| word(r, i + 1))),
            )
        })
        .collect();
    Some(Kept {
        generation: Generation {
            epoch: word(head, 1),
            n: word(head, 2),
        },
        listing: (word(head, 3) as u64, word(head, 4) as u64),
        rows,
    })
}

/// The plan kept in `file`, if it checks out.
pub(super) fn read(file: &Path) -> Option<Kept> {
    decode(&std::fs::read(file).ok()?)
}

impl Index {
    /// The index's generation now (read in the same transaction as what
    /// it is to vouch for).
    pub(super) fn generation(&self) -> Option<Generation> {
        self.conn()
            .query_row(
                "SELECT epoch, n FROM text_generation WHERE id = 1",
                [],
                |r| {
                    Ok(Generation {
                        epoch: r.get(0)?,
                        n: r.get(1)?,
                    })
                },
            )
            .ok()
    }
}

/// Keeps `plan`, made for the lessons of listing `file` (with digests
/// `listing`) from the index at `generation`. Best effort, like the
/// listing: without it a later search only makes the plan again.
pub(super) fn keep(file: &Path, listing: (u64, u64), generation: Option<Generation>, plan: &Plan) {
    if let Some(bytes) = generation.and_then(|g| encode(plan, g, listing)) {
        let _ = super::listing::replace(&file_of(file), &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(n: i64) -> Known {
        Known::from_words([n, n + 1, n + 2, n + 3, n + 4, 1, n * 7])
    }

    const AT: Generation = Generation { epoch: 7, n: 3 };

    #[test]
    fn a_plan_kept_is_the_plan_read_back() {
        let origins: Vec<Origin> = (0..3)
            .map(|i| Origin::File(format!("/c/{i}.json").into()))
            .collect();
        let plan = Plan {
            origins: &origins,
            ids: HashMap::from([(30, 0), (10, 1), (20, 2)]),
            check: (0..3).map(|i| (i, known(i as i64))).collect(),
            missing: Vec::new(),
        };
        let body = encode(&plan, AT, (1, 2)).unwrap();
        let back = decode(&body)
            .unwrap()
            .plan(&origins, (1, 2), Some(AT))
            .unwrap();
        assert_eq!(back.ids, plan.ids);
        assert_eq!(format!("{:?}", back.check), format!("{:?}", plan.check));
        // Another listing, generation or count of lessons: not this plan.
        let later = Generation { n: 4, ..AT };
        let other = Generation { epoch: 8, ..AT };
        let not = |o: &[Origin], listing, g| decode(&body).unwrap().plan(o, listing, g).is_none();
        assert!(not(&origins, (1, 3), Some(AT)));
        assert!(not(&origins, (1, 2), Some(later)));
        assert!(not(&origins, (1, 2), Some(other)));
        assert!(not(&origins, (1, 2), None));
        assert!(not(&origins[..2], (1, 2), Some(AT)));
    }

    #[test]
    fn a_damaged_or_partial_plan_is_none() {
        let origins = vec![Origin::File("/c/a.json".into()); 2];
        let mut plan = Plan {
            origins: &origins,
            ids: HashMap::from([(1, 0), (2, 1)]),
            check: vec![(0, known(1)), (1, known(2))],
            missing: Vec::new(),
        };
        let body = encode(&plan, AT, (0, 0)).unwrap();
        for at in [0, 9, HEAD + 5, body.len() - 1] {
            let mut bad = body.clone();
            bad[at] ^= 1;
            assert!(decode(&bad).is_none(), "byte {at}");
        }
        for len in [0, 7, HEAD, body.len() - 3] {
            assert!(decode(&body[..len]).is_none(), "{len} bytes");
        }
        plan.missing.push(origins[0].clone());
        assert!(encode(&plan, AT, (0, 0)).is_none());
        plan.missing.clear();
        plan.check.pop();
        assert!(encode(&plan, AT, (0, 0)).is_none());
        plan.check.push((1, known(2)));
        plan.ids.remove(&2);
        assert!(encode(&plan, AT, (0, 0)).is_none());
    }
}
