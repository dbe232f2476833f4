//! Text anchors that survive a lesson being edited: W3C Web Annotation
//! selectors (a quote with its context, a position, the block path) and
//! the one rule that places them again in a lesson's text.
//!
//! Placing follows Hypothesis: the quote exactly where it was (`ok`), else
//! the quote exactly elsewhere, the occurrence whose context and place fit
//! best (`moved`), else the closest approximate match ranked by quote,
//! prefix and suffix similarity and distance from where it was (`fuzzy`),
//! else nowhere (`orphan`): a quote is never put on text unlike it.
//!
//! Offsets are in characters (Unicode scalar values) of the text given,
//! which is the page's text as [`crate::layout`] flows it (each block's
//! words one space apart, blocks one line apart): re-wrapping the page
//! does not move them.

mod fuzzy;

use serde::{Deserialize, Serialize};

/// How much context a quote keeps on each side, in characters (what
/// Hypothesis keeps).
pub const CONTEXT: usize = 32;

/// The longest quote kept, in characters: a selection of a whole lesson
/// is cut to its start (a highlight is a passage, not a copy).
pub const MAX_QUOTE: usize = 4096;

/// Where a mark, highlight or note stands, as the W3C selectors say it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Selector {
    /// TextQuoteSelector: the text itself, and what stood around it.
    pub exact: String,
    #[serde(default)]
    pub prefix: String,
    #[serde(default)]
    pub suffix: String,
    /// TextPositionSelector: where it started and ended.
    #[serde(default)]
    pub start: u32,
    #[serde(default)]
    pub end: u32,
    /// The block path: which top-level block of the page it was in.
    #[serde(default)]
    pub block: u32,
}

/// How an anchor was placed in the text as it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The quote, exactly, where it was.
    Ok,
    /// The quote, exactly, somewhere else (text added or removed above it,
    /// the paragraph moved).
    Moved,
    /// Text like the quote, near where it was (a word of it changed).
    Fuzzy,
    /// Nowhere: kept with its quote, drawn on no text.
    Orphan,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Moved => "moved",
            Status::Fuzzy => "fuzzy",
            Status::Orphan => "orphan",
        }
    }
}

/// Where an anchor is now: characters `start..end` of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub start: usize,
    pub end: usize,
    pub status: Status,
}

impl Selector {
    /// The selectors of characters `start..end` of `text` (in block
    /// `block`), its quote cut to [`MAX_QUOTE`].
    pub fn of(text: &[char], start: usize, end: usize, block: u32) -> Selector {
        let end = end.min(text.len()).min(start.saturating_add(MAX_QUOTE));
        let start = start.min(end);
        let collect = |r: std::ops::Range<usize>| text[r].iter().collect::<String>();
        Selector {
            exact: collect(start..end),
            prefix: collect(start.saturating_sub(CONTEXT)..start),
            suffix: collect(end..(end + CONTEXT).min(text.len())),
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
            block,
        }
    }
}

/// Places `sel` in `text`: the one rule every screen and command uses.
pub fn place(text: &[char], sel: &Selector) -> Placed {
    let quote: Vec<char> = sel.exact.chars().collect();
    let orphan = Placed {
        start: 0,
        end: 0,
        status: Status::Orphan,
    };
    if quote.is_empty() || quote.len() > text.len() {
        return orphan;
    }
    let hint = sel.start as usize;
    if text.get(hint..hint + quote.len()) == Some(&quote[..]) {
        return Placed {
            start: hint,
            end: hint + quote.len(),
            status: Status::Ok,
        };
    }
    let ctx = Context::of(sel, text.len());
    let exact = occurrences(text, &quote)
        .map(|at| (ctx.score(text, at, at + quote.len(), 0.0), at))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, at)) = exact {
        return Placed {
            start: at,
            end: at + quote.len(),
            status: Status::Moved,
        };
    }
    match fuzzy::best(text, &quote, &ctx) {
        Some((start, end)) => Placed {
            start,
            end,
            status: Status::Fuzzy,
        },
        None => orphan,
    }
}

/// Every start of `quote` in `text` (a quote of 4,096 characters at most,
/// so this is bounded by the text's length times the quote's).
fn occurrences<'a>(text: &'a [char], quote: &'a [char]) -> impl Iterator<Item = usize> + 'a {
    let first = quote[0];
    (0..=text.len() - quote.len())
        .filter(move |&i| text[i] == first && text[i..i + quote.len()] == *quote)
}

/// What a candidate is ranked by besides its quote: its context and its
/// distance from where the anchor was.
struct Context {
    prefix: Vec<char>,
    suffix: Vec<char>,
    hint: usize,
    len: usize,
}

/// Hypothesis's weights: the quote most, its context, then its place.
const QUOTE_WEIGHT: f64 = 50.0;
const CONTEXT_WEIGHT: f64 = 20.0;
const PLACE_WEIGHT: f64 = 2.0;

impl Context {
    fn of(sel: &Selector, len: usize) -> Context {
        Context {
            prefix: sel.prefix.chars().collect(),
            suffix: sel.suffix.chars().collect(),
            hint: sel.start as usize,
            len,
        }
    }

    /// A candidate at `start..end` whose quote is `quote_errors` edits
    /// from the quote (as a share of its length), scored 0 to 1.
    fn score(&self, text: &[char], start: usize, end: usize, quote_errors: f64) -> f64 {
        let before = &text[start.saturating_sub(self.prefix.len())..start];
        let after = &text[end..(end + self.suffix.len()).min(text.len())];
        let prefix = similarity(&self.prefix, before);
        let suffix = similarity(&self.suffix, after);
        let place = 1.0 - start.abs_diff(self.hint) as f64 / self.len.max(1) as f64;
        let total = QUOTE_WEIGHT * (1.0 - quote_errors)
            + CONTEXT_WEIGHT * (prefix + suffix)
            + PLACE_WEIGHT * place;
        total / (QUOTE_WEIGHT + 2.0 * CONTEXT_WEIGHT + PLACE_WEIGHT)
    }

    /// How alike the context on both sides is, 0 to 1 (1 without any).
    fn context_similarity(&self, text: &[char], start: usize, end: usize) -> f64 {
        let before = &text[start.saturating_sub(self.prefix.len())..start];
        let after = &text[end..(end + self.suffix.len()).min(text.len())];
        (similarity(&self.prefix, before) + similarity(&self.suffix, after)) / 2.0
    }
}

/// 1 minus the edit distance of `a` and `b` as a share of the longer: 1
/// for equal texts (two empty ones too), 0 for nothing alike.
fn similarity(a: &[char], b: &[char]) -> f64 {
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 1.0;
    }
    1.0 - fuzzy::distance(a, b) as f64 / longest as f64
}

#[cfg(test)]
mod tests;
