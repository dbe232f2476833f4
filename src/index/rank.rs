//! Ranking a query's matches: those with every term in the title first,
//! then in a heading (or the title), then anywhere. Title and heading
//! matches are ranked by BM25 over those two columns, the others by BM25
//! over the whole lesson; course order for ties.
//!
//! Scoring is most of a query's time: `bm25()` looks up each match's
//! column sizes, and a common word matches thousands of lessons (two
//! words in 6,000 of the 10,000 generated ones: 15-20 ms of a 25 ms
//! query). Finding which lessons match costs far less than scoring them,
//! so when the title and heading matches fill the hits asked for, the
//! others are only counted.

use std::collections::{HashMap, HashSet};

use super::Index;
use super::query::Query;
use super::search::Field;

/// Column weights of bm25(): a title word counts ten body words.
const RANK: &str = "bm25(lesson_fts, 10.0, 4.0, 1.0)";

/// A query's matches among some lessons, best first.
#[derive(Debug, Default)]
pub(super) struct Ranked {
    /// (place among the lessons, where every term matched, BM25, higher
    /// is better): every match, or (when `total` is more) the best ones.
    pub best: Vec<(usize, Field, f64)>,
    /// Matches in all.
    pub total: usize,
}

/// Which text rows match a query, found before it is known which of
/// them are the lessons asked about (so that it can run while their
/// listing is read): every term in the title, in the title or a heading
/// (scored), and anywhere: scored too when the title and heading matches
/// cannot fill the hits, else only found.
#[derive(Debug, Default)]
pub(super) struct Matches {
    title: Vec<i64>,
    heading: Vec<(i64, f64)>,
    anywhere: Anywhere,
}

#[derive(Debug, Default)]
enum Anywhere {
    #[default]
    None,
    Found(Vec<i64>),
    Scored(Vec<(i64, f64)>),
}

impl Index {
    /// The matches of `q` among the lessons of `ids` (text row -> place),
    /// at least the best `need` of them ranked; none if the index cannot
    /// be read (it is dropped if damaged).
    pub(super) fn ranked_or_none(
        &mut self,
        q: &Query,
        ids: &HashMap<i64, usize>,
        need: usize,
    ) -> Ranked {
        let m = self.matches_or_none(q, need);
        self.rank(q, m, ids, need)
    }

    /// See [`Matches`], for the best `need` hits; none if the index cannot
    /// be read.
    pub(super) fn matches_or_none(&mut self, q: &Query, need: usize) -> Matches {
        if q.is_empty() {
            return Matches::default();
        }
        let found = (|| {
            let title = self.matching(&q.fts_in("title"))?;
            let heading = self.scored(&q.fts_in("title heading"))?;
            // Some of these rows may be other courses' lessons: fewer
            // than `need` here are fewer among the lessons too.
            let anywhere = if heading.len() < need {
                Anywhere::Scored(self.scored(&q.fts())?)
            } else {
                Anywhere::Found(self.matching(&q.fts())?)
            };
            Ok(Matches {
                title,
                heading,
                anywhere,
            })
        })();
        found.unwrap_or_else(|e: rusqlite::Error| {
            self.drop_if_damaged(&e);
            Matches::default()
        })
    }

    /// `m` among the lessons of `ids`, at least the best `need` ranked.
    pub(super) fn rank(
        &mut self,
        q: &Query,
        m: Matches,
        ids: &HashMap<i64, usize>,
        need: usize,
    ) -> Ranked {
        let title: HashSet<i64> = m.title.into_iter().collect();
        let mut heading = m.heading;
        heading.retain(|h| ids.contains_key(&h.0));
        let mut body = match m.anywhere {
            Anywhere::Found(all) => {
                let total = all.iter().filter(|id| ids.contains_key(id)).count();
                if heading.len() >= need || total == heading.len() {
                    return tiered(heading, Vec::new(), &title, ids, total);
                }
                // Too few among the lessons after all.
                self.scored(&q.fts()).unwrap_or_else(|e| {
                    self.drop_if_damaged(&e);
                    Vec::new()
                })
            }
            Anywhere::Scored(all) => all,
            Anywhere::None => Vec::new(),
        };
        body.retain(|b| ids.contains_key(&b.0));
        let total = body.len().max(heading.len());
        let top: HashSet<i64> = heading.iter().map(|h| h.0).collect();
        body.retain(|b| !top.contains(&b.0));
        tiered(heading, body, &title, ids, total)
    }

    /// The text rows that match `expr`.
    fn matching(&self, expr: &str) -> rusqlite::Result<Vec<i64>> {
        let mut only = self
            .conn()
            .prepare_cached("SELECT rowid FROM lesson_fts WHERE lesson_fts MATCH ?1")?;
        let rows = only.query_map([expr], |r| r.get::<_, i64>(0))?;
        rows.collect()
    }

    /// The text rows that match `expr`, with their scores (higher is
    /// better).
    fn scored(&self, expr: &str) -> rusqlite::Result<Vec<(i64, f64)>> {
        let mut all = self.conn().prepare_cached(&format!(
            "SELECT rowid, {RANK} FROM lesson_fts WHERE lesson_fts MATCH ?1"
        ))?;
        let rows = all.query_map([expr], |r| Ok((r.get::<_, i64>(0)?, -r.get::<_, f64>(1)?)))?;
        rows.collect()
    }
}

/// Title matches, then heading ones, then `body`, each by score, ties in
/// course order.
fn tiered(
    heading: Vec<(i64, f64)>,
    body: Vec<(i64, f64)>,
    title: &HashSet<i64>,
    ids: &HashMap<i64, usize>,
    total: usize,
) -> Ranked {
    let tiers = heading
        .into_iter()
        .map(|(id, s)| {
            let f = if title.contains(&id) {
                Field::Title
            } else {
                Field::Heading
            };
            (id, f, s)
        })
        .chain(body.into_iter().map(|(id, s)| (id, Field::Body, s)));
    let mut best: Vec<_> = tiers
        .filter_map(|(id, f, s)| Some((*ids.get(&id)?, f, s)))
        .collect();
    best.sort_by(|a, b| a.1.cmp(&b.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
    Ranked { best, total }
}
