//! Ranked search over the index: lessons where every term matches, those
//! with every term in the title first, then in a heading, then anywhere;
//! by BM25 within each; course order for ties. Snippets come from the
//! lesson files as they are now.

use std::collections::HashMap;

use super::Index;
use super::file_stamps::Stamp;
use super::query::Query;
use super::rank::Ranked;
use super::text::{extract, sections};
use super::text_plan::Plan;
use crate::model::{Lesson, Origin};

/// Where every term of a hit matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Title,
    Heading,
    Body,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Heading => "heading",
            Field::Body => "body",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Index into the origins searched.
    pub lesson: usize,
    pub field: Field,
    /// BM25, higher is better.
    pub score: f64,
    /// The page section (an anchor's block) of the best matching text.
    pub block: u32,
    /// Text around the match, on one line, unsanitised.
    pub snippet: String,
    /// Byte ranges of `snippet` where terms matched.
    pub marks: Vec<(usize, usize)>,
    /// The first matched word as written there, for the reader to find.
    pub word: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// Lessons matched in all, `hits` being the best of them.
    pub total: usize,
}

/// A query's best lessons by the index alone, no file read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    /// (index into the origins searched, where every term matched), best
    /// first.
    pub hits: Vec<(usize, Field)>,
    /// Lessons matched in all.
    pub total: usize,
}

/// Characters of a snippet.
const SNIPPET: usize = 100;

impl Index {
    /// The best `limit` lessons of `origins` for `q`, from the index
    /// alone: no lesson file is read, so the cost is the query's, not
    /// `limit` parses. Their snippets are [`Index::snippet`]'s, asked for
    /// the hits on screen only. A hit whose file changed since it was
    /// indexed is in until its snippet says otherwise.
    pub fn rank_only(&mut self, origins: &[Origin], q: &Query, limit: usize) -> Ranking {
        if q.is_empty() {
            return Ranking::default();
        }
        let ids = self.ids_of(origins);
        let ranked = self.ranked_or_none(q, &ids, limit);
        Ranking {
            hits: ranked.best.iter().take(limit).map(|h| (h.0, h.1)).collect(),
            total: ranked.total,
        }
    }

    /// The snippet of the lesson at `origin` for `q`, from its file as it
    /// is (indexed again first if it changed); `None` if it no longer
    /// matches. Its `lesson`, `field` and `score` are left to the caller.
    pub fn snippet(&mut self, origin: &Origin, q: &Query) -> Option<Hit> {
        self.hit(origin, q)
    }

    /// The folder of the index's file when another connection can open
    /// it (a worker's); `None` for an index in memory, which only this
    /// connection sees.
    pub fn shared_dir(&self) -> Option<std::path::PathBuf> {
        let dir = self.dir.clone()?;
        let on_disk = self.conn().path().is_some_and(|p| !p.is_empty());
        on_disk.then_some(dir)
    }

    /// The best `limit` lessons of `origins` for `q`, with snippets, from
    /// what is indexed (a hit whose file changed is indexed again first).
    pub fn search(&mut self, origins: &[Origin], q: &Query, limit: usize) -> Found {
        if q.is_empty() {
            return Found::default();
        }
        let ids = self.plan(origins).ids;
        let ranked = self.ranked_or_none(q, &ids, limit);
        let found = self.hits(origins, q, &ranked, limit, false);
        self.unless_short(origins, q, &ids, ranked, found, limit, false)
    }

    /// [`Index::search`], with every lesson's file checked for changes at
    /// the same time (on a thread of its own, joined by this one once the
    /// query is done: 10,000 stats cost about as much as the query). The
    /// lessons found changed or never indexed come back instead of hits:
    /// index them, then search again.
    pub fn search_fresh(
        &mut self,
        origins: &[Origin],
        q: &Query,
        limit: usize,
    ) -> Result<Found, Vec<Origin>> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (plan, ranked, chunks) = std::thread::scope(|s| {
            let helper = s.spawn(|| super::text_plan::stamps(origins, &next));
            let plan = self.plan(origins);
            let ranked = self.ranked_or_none(q, &plan.ids, limit);
            // Done with the query: help with the stats.
            let mut chunks = super::text_plan::stamps(origins, &next);
            chunks.extend(helper.join().unwrap_or_default());
            (plan, ranked, chunks)
        });
        self.settle(q, &plan, ranked, chunks, limit)
    }

    /// The end of a fresh search: the lessons whose stamps (`chunks`, as
    /// [`super::text_plan::stamps`] gives them) say they changed, or the hits.
    pub(super) fn settle(
        &mut self,
        q: &Query,
        plan: &Plan,
        ranked: Ranked,
        chunks: Vec<(usize, Vec<Option<Stamp>>)>,
        limit: usize,
    ) -> Result<Found, Vec<Origin>> {
        let origins = plan.origins;
        // A chunk lost to a panic leaves its lessons unstamped: stale.
        let mut now = vec![None; origins.len()];
        for (at, stamps) in chunks {
            now[at..at + stamps.len()].copy_from_slice(&stamps);
        }
        let stale = plan.stale_at(&now);
        if !stale.is_empty() {
            return Err(stale);
        }
        let found = self.hits(origins, q, &ranked, limit, true);
        Ok(self.unless_short(origins, q, &plan.ids, ranked, found, limit, true))
    }

    /// The best `limit` of `ranked` that still match, with snippets.
    /// `checked`: every file was just found unchanged, so the first
    /// `limit` are read side by side, a thread a core (reading and
    /// marking 20 lessons took 14 ms on one).
    fn hits(
        &mut self,
        origins: &[Origin],
        q: &Query,
        ranked: &Ranked,
        limit: usize,
        checked: bool,
    ) -> Found {
        let mut hits = Vec::with_capacity(limit.min(ranked.best.len()));
        let mut rest = ranked.best.as_slice();
        if checked {
            let (first, after) = rest.split_at(limit.min(rest.len()));
            hits.extend(read_side_by_side(origins, q, first));
            rest = after;
        }
        for &(lesson, field, score) in rest {
            if hits.len() == limit {
                break;
            }
            if let Some(h) = self.hit(&origins[lesson], q) {
                hits.push(Hit {
                    lesson,
                    field,
                    score,
                    ..h
                });
            }
        }
        Found {
            hits,
            total: ranked.total,
        }
    }

    /// `found`, or when too few of a partly scored ranking still matched
    /// (a file changed under it), the hits of the whole ranking.
    #[allow(clippy::too_many_arguments)]
    fn unless_short(
        &mut self,
        origins: &[Origin],
        q: &Query,
        ids: &HashMap<i64, usize>,
        ranked: Ranked,
        found: Found,
        limit: usize,
        checked: bool,
    ) -> Found {
        if found.hits.len() >= limit || ranked.best.len() >= ranked.total {
            return found;
        }
        let whole = self.ranked_or_none(q, ids, usize::MAX);
        self.hits(origins, q, &whole, limit, checked)
    }

    /// The snippet of one hit, from the file as it is. A file changed
    /// since it was indexed is indexed again, and dropped if it no longer
    /// matches.
    fn hit(&mut self, origin: &Origin, q: &Query) -> Option<Hit> {
        if !self.holds(origin) {
            let _ = self.insert(&[extract(origin)]);
        }
        let lesson = crate::loader::load_lesson(origin).ok()?;
        best(&lesson, q)
    }
}

/// The hits among `ranked` (lessons whose files are unchanged), in order,
/// read on every core.
fn read_side_by_side(origins: &[Origin], q: &Query, ranked: &[(usize, Field, f64)]) -> Vec<Hit> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let read = |k: usize| {
        let mut out = Vec::new();
        for &(lesson, field, score) in ranked.iter().skip(k).step_by(workers) {
            let loaded = crate::loader::load_lesson(&origins[lesson]).ok();
            if let Some(h) = loaded.and_then(|l| best(&l, q)) {
                out.push(Hit {
                    lesson,
                    field,
                    score,
                    ..h
                });
            }
        }
        out
    };
    let mut hits: Vec<Hit> = std::thread::scope(|s| {
        let others: Vec<_> = (1..workers).map(|k| s.spawn(move || read(k))).collect();
        let mut all = read(0);
        for t in others {
            all.extend(t.join().unwrap_or_default());
        }
        all
    });
    // Back in rank order (the places are distinct).
    let rank: HashMap<usize, usize> = ranked.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    hits.sort_by_key(|h| rank.get(&h.lesson).copied());
    hits
}

/// The section of `lesson` where most terms match, as a hit (its rank
/// left to the caller); `None` if some term matches nowhere.
pub fn best(lesson: &Lesson, q: &Query) -> Option<Hit> {
    let mut seen = vec![false; q.terms.len()];
    // ((terms matched, prose), section, its text, its marks)
    type Best = ((usize, bool), u32, String, Vec<(usize, usize)>);
    let mut best: Option<Best> = None;
    let mut lower = String::new();
    for (at, text) in sections(lesson) {
        if !q.may_match(&text, &mut lower) {
            continue;
        }
        let (marks, hit) = q.marks(&text);
        let n = hit.iter().filter(|&&h| h).count();
        for (s, h) in seen.iter_mut().zip(&hit) {
            *s |= *h;
        }
        // Words a reader reads before code they would skim: a code block
        // (a lesson about lesson files shows their JSON) only when no
        // prose holds as many of the words.
        let key = (n, !is_code(lesson, at));
        // The title only when nothing else matches: the snippet should
        // show something the title, shown beside it, does not.
        let better = best.as_ref().is_none_or(|b| b.1 == 0 || key > b.0);
        if n > 0 && better {
            best = Some((key, at, text, marks));
        }
    }
    if !seen.iter().all(|&s| s) {
        return None;
    }
    let (_, block, text, marks) = best?;
    let word = marks
        .first()
        .map(|&(s, e)| text[s..e].to_string())
        .unwrap_or_default();
    let (snippet, marks) = window(&text, &marks);
    Some(Hit {
        lesson: 0,
        field: super::search::Field::Body,
        score: 0.0,
        block,
        snippet,
        marks,
        word,
    })
}

/// Whether page section `at` of `lesson` is a code block.
fn is_code(lesson: &Lesson, at: u32) -> bool {
    matches!(
        super::text::block_at(lesson, at),
        Some(crate::model::Block::Code { .. })
    )
}

/// About [`SNIPPET`] characters of `text` around its first mark, on one
/// line, with the marks moved to match.
fn window(text: &str, marks: &[(usize, usize)]) -> (String, Vec<(usize, usize)>) {
    let first = marks.first().map_or(0, |m| m.0);
    let back = text[..first]
        .char_indices()
        .rev()
        .nth(SNIPPET / 3)
        .map_or(0, |(i, _)| i);
    // Start at a word.
    let start = if back == 0 {
        0
    } else {
        text[back..first]
            .find(char::is_whitespace)
            .map_or(first, |i| back + i + 1)
    };
    let end = text[start..]
        .char_indices()
        .nth(SNIPPET)
        .map_or(text.len(), |(i, _)| start + i);
    let mut out = String::new();
    let mut moved = Vec::new();
    if start > 0 {
        out.push('…');
    }
    // Whitespace runs become one space, the marks shifting with them.
    let mut map = Vec::with_capacity(end - start + 1);
    let mut space = false;
    for (i, c) in text[start..end].char_indices() {
        map.push((start + i, out.len()));
        if c.is_whitespace() || c.is_control() {
            if !space {
                out.push(' ');
            }
            space = true;
        } else if crate::model::sanitize::is_invisible(c) {
            // Never trust content: what cannot be seen is not shown.
        } else {
            out.push(c);
            space = false;
        }
    }
    map.push((end, out.len()));
    let at = |b: usize| map.iter().find(|m| m.0 >= b).map_or(out.len(), |m| m.1);
    for &(s, e) in marks.iter().filter(|m| m.0 >= start && m.1 <= end) {
        moved.push((at(s), at(e)));
    }
    if end < text.len() {
        out.push('…');
    }
    (out, moved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_keeps_its_marks_on_the_words() {
        let text = format!(
            "{} the  KV\ncache grows {}",
            "a ".repeat(80),
            "b ".repeat(80)
        );
        let q = Query::parse("cache kv", false);
        let (marks, _) = q.marks(&text);
        let (s, m) = window(&text, &marks);
        assert!(s.starts_with('…') && s.ends_with('…'));
        let shown: Vec<&str> = m.iter().map(|&(a, b)| &s[a..b]).collect();
        assert_eq!(shown, vec!["KV", "cache"]);
        assert!(s.contains("the KV cache grows"));
    }

    #[test]
    fn windows_respect_char_boundaries() {
        let text = "日本語 ".repeat(60) + "cafè " + &"語".repeat(200);
        let q = Query::parse("cafe", false);
        let (marks, _) = q.marks(&text);
        let (s, m) = window(&text, &marks);
        assert_eq!(&s[m[0].0..m[0].1], "cafè");
    }
}
