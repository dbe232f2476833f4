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

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use std::io::Read;
use std::sync::Arc;

use super::Index;
use super::listing_search::Files;
use super::text_plan::{Known, Plan};
use crate::loader::walk::{digest, os_bytes};
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
    pub(super) generation: Generation,
    listing: (u64, u64),
    rows: Vec<(i64, Known)>,
}

/// (4: postcard.)
const MAGIC: &[u8; 8] = b"LECTPLN4";
/// What every plan starts with, whatever its version.
pub(super) const ANY_MAGIC: &[u8] = b"LECTPLN";

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

/// A plan as kept: the generation, the listing's digests, each course
/// (slug, title, count), each lesson's row and file name.
#[derive(Serialize, Deserialize)]
struct KeptDoc {
    epoch: i64,
    n: i64,
    sums: (u64, u64),
    courses: Vec<(String, String, usize)>,
    rows: Vec<Row>,
}

/// One lesson: its text row, [`Known`] (as words), its record in the
/// listing (where, how long, its digest) and its file's name in the folder.
#[derive(Serialize, Deserialize)]
struct Row {
    id: i64,
    known: [i64; 7],
    record: (u64, u64, u64),
    name: Vec<u8>,
}

/// The file: the magic, the [`KeptDoc`] in `postcard`, and a digest of
/// both.
pub(super) fn encode(
    plan: &Plan,
    generation: Generation,
    files: &Files,
    dir: &Path,
) -> Option<Vec<u8>> {
    // Every lesson, in order, or nothing.
    let n = plan.origins.len();
    let in_order = plan.check.iter().enumerate().all(|(i, (p, _))| i == *p);
    let whole = plan.check.len() == n && files.records.len() == n && files.origins.len() == n;
    if !in_order || !whole || !plan.missing.is_empty() {
        return None;
    }
    let mut ids = vec![None; n];
    for (&id, &place) in &plan.ids {
        *ids.get_mut(place)? = Some(id);
    }
    let within = os_bytes(dir.as_os_str()).len() + 1;
    let mut rows = Vec::with_capacity(n);
    for (((id, (_, known)), record), o) in ids
        .into_iter()
        .zip(&plan.check)
        .zip(&files.records)
        .zip(files.origins.iter())
    {
        rows.push(Row {
            id: id?,
            known: known.words(),
            record: *record,
            name: os_bytes(o.path()?.as_os_str()).get(within..)?.to_vec(),
        });
    }
    let doc = KeptDoc {
        epoch: generation.epoch,
        n: generation.n,
        sums: files.sums,
        courses: files.courses.clone(),
        rows,
    };
    let mut out = MAGIC.to_vec();
    out = postcard::to_extend(&doc, out).ok()?;
    let sum = digest(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Some(out)
}

/// The plan and the listing's lessons it was made for, from [`encode`]'s
/// bytes; `None` unless they check out.
pub(super) fn decode(bytes: &[u8], listing: &Path, dir: &Path) -> Option<(Files, Kept)> {
    let (all, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if !all.starts_with(MAGIC) || u64::from_le_bytes(sum.try_into().ok()?) != digest(all) {
        return None;
    }
    let doc: KeptDoc = postcard::from_bytes(&all[MAGIC.len()..]).ok()?;
    let n = doc.rows.len();
    if doc.courses.iter().map(|c| c.2).sum::<usize>() != n {
        return None;
    }
    let mut rows = Vec::with_capacity(n);
    let mut records = Vec::with_capacity(n);
    let mut origins = Vec::with_capacity(n);
    for r in doc.rows {
        if r.name.is_empty() || r.name.contains(&b'/') {
            return None;
        }
        rows.push((r.id, Known::from_words(r.known)));
        records.push(r.record);
        origins.push(Origin::File(super::listing_file::joined(dir, &r.name)));
    }
    let files = Files {
        origins: Arc::new(origins),
        sums: doc.sums,
        courses: doc.courses,
        records,
        bytes: None,
        file: listing.to_path_buf(),
    };
    let generation = Generation {
        epoch: doc.epoch,
        n: doc.n,
    };
    let kept = Kept {
        generation,
        listing: doc.sums,
        rows,
    };
    Some((files, kept))
}

/// The plan kept for the listing `listing` of `dir`, with that listing's
/// lessons, if the plan checks out and the listing is still the one it
/// was made for (by the digests at the head of its file: the listing is
/// not read, and each record shown is checked by its own digest).
pub(super) fn read(listing: &Path, dir: &Path) -> Option<(Files, Kept)> {
    let (files, kept) = decode(&super::listing_file::read(&file_of(listing))?, listing, dir)?;
    let mut prefix = [0; super::listing_file::PREFIX];
    super::listing_file::open(listing)?
        .0
        .read_exact(&mut prefix)
        .ok()?;
    (super::listing_file::sums(&prefix)? == files.sums).then_some((files, kept))
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

/// Keeps `plan`, made for the lessons of `files` (of folder `dir`) from
/// the index at `generation`. Best effort, like the listing: without it a
/// later search only makes the plan again.
pub(super) fn keep(files: &Files, generation: Option<Generation>, plan: &Plan, dir: &Path) {
    if let Some(bytes) = generation.and_then(|g| encode(plan, g, files, dir)) {
        let _ = super::listing_file::replace(&file_of(&files.file), &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(n: i64) -> Known {
        Known::from_words([n, n + 1, n + 2, n + 3, n + 4, 1, n * 7])
    }

    const AT: Generation = Generation { epoch: 7, n: 3 };

    fn files(n: usize) -> Files {
        Files {
            origins: Arc::new(
                (0..n)
                    .map(|i| Origin::File(format!("/c/{i}.json").into()))
                    .collect(),
            ),
            sums: (1, 2),
            courses: vec![("c".into(), "C".into(), n - 1), ("d".into(), "D".into(), 1)],
            records: (0..n as u64).map(|i| (100 + 10 * i, 10, i * 31)).collect(),
            bytes: None,
            file: "/x/l.bin".into(),
        }
    }

    fn plan(files: &Files) -> Plan<'_> {
        let n = files.origins.len();
        Plan {
            origins: &files.origins,
            ids: (0..n).map(|i| (30 - i as i64, i)).collect(),
            check: (0..n).map(|i| (i, known(i as i64))).collect(),
            missing: Vec::new(),
        }
    }

    fn back(body: &[u8]) -> Option<(Files, Kept)> {
        decode(body, Path::new("/x/l.bin"), Path::new("/c"))
    }

    #[test]
    fn a_plan_kept_is_the_plan_and_the_listing_read_back() {
        let f = files(3);
        let p = plan(&f);
        let body = encode(&p, AT, &f, Path::new("/c")).unwrap();
        let (g, kept) = back(&body).unwrap();
        assert_eq!(g.origins, f.origins);
        assert_eq!(
            (g.sums, &g.courses, &g.records),
            (f.sums, &f.courses, &f.records)
        );
        assert!(g.bytes.is_none());
        let again = kept.plan(&g.origins, (1, 2), Some(AT)).unwrap();
        assert_eq!(again.ids, p.ids);
        assert_eq!(format!("{:?}", again.check), format!("{:?}", p.check));
        // Another listing, generation or count of lessons: not this plan.
        let later = Generation { n: 4, ..AT };
        let other = Generation { epoch: 8, ..AT };
        let not = |o: &[Origin], listing, g| back(&body).unwrap().1.plan(o, listing, g).is_none();
        assert!(not(&f.origins, (1, 3), Some(AT)));
        assert!(not(&f.origins, (1, 2), Some(later)));
        assert!(not(&f.origins, (1, 2), Some(other)));
        assert!(not(&f.origins, (1, 2), None));
        assert!(not(&f.origins[..2], (1, 2), Some(AT)));
    }

    #[test]
    fn a_damaged_or_partial_plan_is_none() {
        let f = files(2);
        let mut p = plan(&f);
        let body = encode(&p, AT, &f, Path::new("/c")).unwrap();
        for at in [0, 9, 60, body.len() / 2, body.len() - 1] {
            let mut bad = body.clone();
            bad[at] ^= 1;
            assert!(back(&bad).is_none(), "byte {at}");
        }
        for len in [0, 7, 40, body.len() - 3] {
            assert!(back(&body[..len]).is_none(), "{len} bytes");
        }
        // A lesson outside the folder (not a name in it) is no plan.
        let mut outside = files(2);
        outside.origins = Arc::new(vec![
            Origin::File("/c/a.json".into()),
            Origin::File("/c/sub/b.json".into()),
        ]);
        let body = encode(&plan(&outside), AT, &outside, Path::new("/c")).unwrap();
        assert!(back(&body).is_none());
        p.missing.push(f.origins[0].clone());
        assert!(encode(&p, AT, &f, Path::new("/c")).is_none());
        p.missing.clear();
        p.check.pop();
        assert!(encode(&p, AT, &f, Path::new("/c")).is_none());
        p.check.push((1, known(2)));
        p.ids.retain(|_, place| *place != 1);
        assert!(encode(&p, AT, &f, Path::new("/c")).is_none());
    }
}
