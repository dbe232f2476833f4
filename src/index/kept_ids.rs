//! The text rows of a course's lessons, kept between searches while the
//! index and the lessons are the same. Matching them reads every stored
//! row and hashes every path: 9.6 ms of a search at 10,000 lessons, the
//! same for a query that finds nothing, paid on every key typed in a
//! course search. Kept, a key pays for its query only (hits drawn 18.9 ms
//! after a key → 12.5, median; BENCHMARKS.md, issue 23).
//!
//! The index is the same while neither this connection nor another has
//! written to it: this connection's count of changes and SQLite's
//! `data_version` (which moves when another connection commits, the
//! runner storing index chunks while the search worker reads) both
//! stand still.

use std::collections::HashMap;
use std::sync::Arc;

use super::Index;
use crate::model::Origin;

/// (index text row -> place among the lessons searched).
pub(super) type Ids = Arc<HashMap<i64, usize>>;

pub(super) struct KeptIds {
    version: (i64, u64),
    origins: Vec<Origin>,
    ids: Ids,
}

impl Index {
    /// The text rows of `origins` (those the index holds), kept while
    /// the index and `origins` are unchanged.
    pub(super) fn ids_of(&mut self, origins: &[Origin]) -> Ids {
        // Opened first, so that the version is read before the rows.
        self.conn();
        let version = self.version();
        if let (Some(v), Some(kept)) = (version, &self.kept_ids) {
            if kept.version == v && same(&kept.origins, origins) {
                return Arc::clone(&kept.ids);
            }
        }
        let ids: Ids = Arc::new(self.plan(origins).ids);
        // Read again: the plan may have found the file damaged and
        // dropped it, and a version read before then would no longer say.
        self.kept_ids = version
            .zip(self.version())
            .filter(|(a, b)| a == b)
            .map(|(v, _)| KeptIds {
                version: v,
                origins: origins.to_vec(),
                ids: Arc::clone(&ids),
            });
        ids
    }

    /// Where the index stands: `None` if that cannot be read.
    fn version(&self) -> Option<(i64, u64)> {
        let conn = self.conn.get()?;
        let data: i64 = conn
            .pragma_query_value(None, "data_version", |r| r.get(0))
            .ok()?;
        Some((data, conn.total_changes()))
    }
}

fn same(a: &[Origin], b: &[Origin]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.same_as(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Query;

    fn lesson(dir: &std::path::Path, name: &str, text: &str) -> Origin {
        let v = serde_json::json!({
            "course": {"slug": "c", "title": "C"},
            "lesson": {"slug": name, "title": name},
            "body": {"format": "markdown", "text": text},
        });
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, v.to_string()).unwrap();
        Origin::File(path)
    }

    fn hits(idx: &mut Index, origins: &[Origin], q: &str) -> Vec<usize> {
        let r = idx.rank_only(origins, &Query::parse(q, true), 50);
        r.hits.into_iter().map(|h| h.0).collect()
    }

    #[test]
    fn lessons_indexed_by_another_connection_are_found_by_the_next_search() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let a = lesson(dir.path(), "a", "a walrus");
        let b = lesson(dir.path(), "b", "another walrus");
        let origins = vec![a.clone(), b];
        let mut runner = Index::open(Some(&cache));
        runner.fill(&[a], &mut |_, _| {});
        let mut worker = Index::open(Some(&cache));
        assert_eq!(hits(&mut worker, &origins, "walrus"), [0]);
        assert_eq!(hits(&mut worker, &origins, "walrus"), [0], "kept");
        runner.fill(&origins, &mut |_, _| {});
        assert_eq!(hits(&mut worker, &origins, "walrus"), [0, 1]);
    }

    #[test]
    fn the_same_connections_writes_and_other_lessons_are_seen_too() {
        let dir = tempfile::tempdir().unwrap();
        let a = lesson(dir.path(), "a", "a walrus");
        let b = lesson(dir.path(), "b", "another walrus");
        let mut idx = Index::open(Some(&dir.path().join("cache")));
        idx.fill(std::slice::from_ref(&a), &mut |_, _| {});
        let both = vec![a.clone(), b.clone()];
        assert_eq!(hits(&mut idx, &both, "walrus"), [0]);
        assert_eq!(hits(&mut idx, &both, "walrus"), [0]);
        idx.fill(&both, &mut |_, _| {});
        assert_eq!(hits(&mut idx, &both, "walrus"), [0, 1]);
        // The lessons in another order: their places are theirs.
        assert_eq!(hits(&mut idx, &[b, a], "walrus"), [0, 1]);
        assert_eq!(hits(&mut idx, &both[1..], "walrus"), [0]);
    }
}
