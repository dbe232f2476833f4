//! Approximate matching: where in a text a quote stands with the fewest
//! edits (Sellers' algorithm: edit distance with a free start), each
//! candidate ranked as Hypothesis ranks them.

use super::Context;

/// The most edits a quote may have and still be found: a third of it
/// (a word changed in a sentence, not another sentence).
fn max_errors(len: usize) -> usize {
    len / 3
}

/// The most cells the search fills (text characters times quote
/// characters): past it, only the text around where the quote was is
/// searched.
const BUDGET: usize = 32 << 20;

/// The most candidates ranked by their context.
const MAX_CANDIDATES: usize = 512;

/// A quote this short is only found fuzzily where its context is alike
/// too: a word with one letter changed is another word.
const SHORT_QUOTE: usize = 24;

/// The best approximate match of `quote` in `text`, if any is close enough.
pub(super) fn best(text: &[char], quote: &[char], ctx: &Context) -> Option<(usize, usize)> {
    let errors = max_errors(quote.len());
    if errors == 0 {
        return None;
    }
    let window = (BUDGET / quote.len()).max(quote.len() * 2);
    let from = ctx
        .hint
        .saturating_sub(window / 2)
        .min(text.len().saturating_sub(window));
    let to = (from + window).min(text.len());
    let mut found = matches(&text[from..to], quote, errors);
    found.sort_unstable_by_key(|m| m.0);
    found.truncate(MAX_CANDIDATES);
    found
        .into_iter()
        .map(|(cost, start, end)| (from + start, from + end, cost))
        .filter(|&(start, end, _)| {
            quote.len() >= SHORT_QUOTE || ctx.context_similarity(text, start, end) >= 0.5
        })
        .map(|(start, end, cost)| {
            let share = cost as f64 / quote.len() as f64;
            (ctx.score(text, start, end, share), start, end)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, start, end)| (start, end))
}

/// Every (edits, start, end) where `quote` ends with at most `max` edits,
/// the best start for each end, keeping only an end better than its
/// neighbours (the bottom of each dip).
fn matches(text: &[char], quote: &[char], max: usize) -> Vec<(usize, usize, usize)> {
    let m = quote.len();
    // (edits, start) of the quote's first `i` characters ending here.
    let mut prev: Vec<(usize, usize)> = (0..=m).map(|i| (i, 0)).collect();
    let mut next = prev.clone();
    let mut out: Vec<(usize, usize, usize)> = Vec::new();
    // The end after the last one of the current run.
    let mut last = 0;
    for j in 1..=text.len() {
        next[0] = (0, j);
        for i in 1..=m {
            let sub = prev[i - 1].0 + usize::from(quote[i - 1] != text[j - 1]);
            let mut cell = (sub, prev[i - 1].1);
            if next[i - 1].0 + 1 < cell.0 {
                cell = (next[i - 1].0 + 1, next[i - 1].1);
            }
            if prev[i].0 + 1 < cell.0 {
                cell = (prev[i].0 + 1, prev[i].1);
            }
            next[i] = cell;
        }
        let (cost, start) = next[m];
        if cost <= max {
            match out.last_mut() {
                // The same run of ends: keep its fewest edits.
                Some(kept) if j == last => {
                    if cost < kept.0 {
                        *kept = (cost, start, j);
                    }
                    last = j + 1;
                }
                _ => {
                    out.push((cost, start, j));
                    last = j + 1;
                }
            }
        }
        std::mem::swap(&mut prev, &mut next);
    }
    out
}

/// The edit distance of `a` and `b` (short texts: a quote's context).
pub(super) fn distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != cb)).min(up + 1).min(row[j] + 1);
            diag = up;
        }
    }
    row[b.len()]
}
