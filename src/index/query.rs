//! Queries as people type them: every word must match, in any order;
//! `"quoted phrases"` match as phrases; a trailing `*` (and, while
//! typing, the word being typed) matches word beginnings; case and
//! accents are folded the way the index's tokenizer folds them.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// One thing that must match: a word, or a phrase of words in a row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Term {
    /// Folded words, in order.
    pub words: Vec<String>,
    /// Whether the last word may be the beginning of a longer one.
    pub prefix: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub terms: Vec<Term>,
}

/// `input` cut to [`crate::model::MAX_QUERY_BYTES`] (at a character):
/// what a prompt can hold, and all a search ever reads.
fn within_limit(input: &str) -> &str {
    let mut end = input.len().min(crate::model::MAX_QUERY_BYTES);
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    // Not in the middle of a word, which would search for its beginning.
    if end < input.len() && !input[end..].starts_with(char::is_whitespace) {
        if let Some(space) = input[..end].rfind(char::is_whitespace) {
            end = space;
        }
    }
    &input[..end]
}

/// Whether `c` is part of a word, as SQLite's unicode61 tokenizer sees it
/// (letters, digits, private use); everything else separates words.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || ('\u{e000}'..='\u{f8ff}').contains(&c)
}

/// Whether `c` is of a script written without spaces between words (Han,
/// kana, Thai, Lao, Khmer, Myanmar) or whose words take their endings
/// without one (Hangul). The tokenizer would take a whole run of such
/// text for one word, so `日本語` could not be found by `日本`: each such
/// character is a word of its own, in the index and in a query alike, and
/// a run of them a phrase, which then finds any part of the run.
pub fn is_unsegmented(c: char) -> bool {
    matches!(c,
        '\u{0e00}'..='\u{0eff}' // Thai, Lao
        | '\u{1000}'..='\u{109f}' // Myanmar
        | '\u{1780}'..='\u{17ff}' // Khmer
        | '\u{1100}'..='\u{11ff}' // Hangul jamo
        | '\u{3040}'..='\u{30ff}' // Hiragana, Katakana
        | '\u{31f0}'..='\u{31ff}'
        | '\u{3130}'..='\u{318f}' // Hangul compatibility jamo
        | '\u{3400}'..='\u{4dbf}' // CJK extension A
        | '\u{4e00}'..='\u{9fff}' // CJK unified ideographs
        | '\u{ac00}'..='\u{d7af}' // Hangul syllables
        | '\u{f900}'..='\u{faff}' // CJK compatibility ideographs
        | '\u{ff66}'..='\u{ff9f}' // halfwidth Katakana
        | '\u{20000}'..='\u{3134f}') // CJK extensions B to G
        && is_word_char(c)
}

/// `text` as the index's tokenizer is given it: each unsegmented
/// character ([`is_unsegmented`]) set apart by spaces. Borrowed when there
/// is none (ASCII, most text, is not even looked through).
pub fn for_index(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(is_unsegmented) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for c in text.chars() {
        if is_unsegmented(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A word folded: lower case, accents removed (as `remove_diacritics 2`).
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    fold_into(word, &mut out);
    out
}

/// [`fold`], appended to `out`: marking a lesson's words folds them all,
/// and one buffer for all of them (with ASCII words, most of them, not
/// decomposed) took the snippets of 20 hits from 10 ms to under 2.
fn fold_into(word: &str, out: &mut String) {
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else if word.chars().next().is_some_and(is_unsegmented) {
        // As the tokenizer keeps it (decomposed, a Hangul syllable would be
        // its jamo, which the index never holds).
        out.push_str(word);
    } else {
        out.extend(
            word.nfd()
                .filter(|c| !is_combining_mark(*c))
                .flat_map(char::to_lowercase),
        );
    }
}

/// The words of `text` with their byte ranges.
pub fn words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, first) = chars.by_ref().find(|&(_, c)| is_word_char(c))?;
        if is_unsegmented(first) {
            return Some((start, start + first.len_utf8()));
        }
        let mut end = text.len();
        while let Some(&(i, c)) = chars.peek() {
            if !is_word_char(c) || is_unsegmented(c) {
                end = i;
                break;
            }
            chars.next();
        }
        Some((start, end))
    })
}

impl Query {
    /// Parses `input`. `typing`: the last word, with nothing after it yet,
    /// is matched as a prefix (the search-as-you-type screen).
    pub fn parse(input: &str, typing: bool) -> Query {
        let input = within_limit(input);
        let mut terms: Vec<Term> = Vec::new();
        // A term said twice asks nothing more of a lesson: kept once, so
        // the work is linear in the query (a word repeated 20,000 times
        // took 22 s).
        let mut seen = std::collections::HashSet::new();
        let mut rest = input;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            rest = &rest[start..];
            let (chunk, quoted, unclosed, after) = if let Some(inner) = rest.strip_prefix('"') {
                // An unclosed quote runs to the end: a phrase being typed.
                match inner.find('"') {
                    Some(end) => (&inner[..end], true, false, &inner[end + 1..]),
                    None => (inner, true, true, ""),
                }
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '"')
                    .unwrap_or(rest.len());
                (&rest[..end], false, false, &rest[end..])
            };
            let mut after = after;
            let star = if quoted {
                after.strip_prefix('*').inspect(|a| after = a).is_some()
            } else {
                chunk.ends_with('*')
            };
            let words: Vec<String> = words(chunk).map(|(s, e)| fold(&chunk[s..e])).collect();
            if !words.is_empty() {
                // Still being typed: the last word, nothing after it.
                let open = typing && after.is_empty() && (!quoted || unclosed);
                // A one-letter beginning matches nearly every lesson, and
                // ranking them all is the slowest query there is (120 ms
                // over 10,000 lessons, against 12 ms for two letters).
                let long = words.last().is_some_and(|w| w.chars().count() >= 2);
                let term = Term {
                    words,
                    prefix: (star || open) && long,
                };
                if seen.insert(term.clone()) {
                    terms.push(term);
                }
            }
            rest = after;
        }
        Query { terms }
    }

    /// Why `input` is not searched, if it is too long to be.
    pub fn refusal(input: &str) -> Option<String> {
        let max = crate::model::MAX_QUERY_BYTES;
        (input.len() > max).then(|| {
            format!(
                "the query is {} bytes long; a search takes at most {max}",
                input.len()
            )
        })
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The FTS5 expression: every term, each a quoted phrase (so no word
    /// is taken for an operator).
    pub fn fts(&self) -> String {
        self.terms
            .iter()
            .map(|t| {
                let phrase = t.words.join(" ").replace('"', "");
                if t.prefix {
                    format!("\"{phrase}\" *")
                } else {
                    format!("\"{phrase}\"")
                }
            })
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    /// The same expression with every term restricted to `columns`.
    pub fn fts_in(&self, columns: &str) -> String {
        format!("{{{columns}}} : ({})", self.fts())
    }

    /// Whether some term may match in `text`: `false` only when none can,
    /// for an ASCII text (its words fold to their lowercase) that holds no
    /// term's first word anywhere. Most of a hit's sections hold none of
    /// the words: this spares [`Query::marks`] folding them word by word
    /// (of the snippets of 20 hits, most of their time). `lower`: a buffer.
    pub fn may_match(&self, text: &str, lower: &mut String) -> bool {
        if !text.is_ascii() {
            return true;
        }
        lower.clear();
        lower.push_str(text);
        lower.make_ascii_lowercase();
        self.terms
            .iter()
            .any(|t| t.words.first().is_none_or(|w| lower.contains(w.as_str())))
    }

    /// Byte ranges in `text` where the terms match, and for each term
    /// whether it matched at all.
    pub fn marks(&self, text: &str) -> (Vec<(usize, usize)>, Vec<bool>) {
        let mut folded = String::with_capacity(text.len());
        // (start, end) in `text`, (start, end) in `folded`.
        let ws: Vec<((usize, usize), (usize, usize))> = words(text)
            .map(|(s, e)| {
                let at = folded.len();
                fold_into(&text[s..e], &mut folded);
                ((s, e), (at, folded.len()))
            })
            .collect();
        let word = |i: usize| &folded[ws[i].1.0..ws[i].1.1];
        let mut marks = Vec::new();
        let mut hit = vec![false; self.terms.len()];
        for (t, term) in self.terms.iter().enumerate() {
            let n = term.words.len();
            for i in 0..ws.len().saturating_sub(n - 1) {
                let all = term.words.iter().enumerate().all(|(k, w)| {
                    let got = word(i + k);
                    if term.prefix && k + 1 == n {
                        got.starts_with(w.as_str())
                    } else {
                        got == w
                    }
                });
                if all {
                    hit[t] = true;
                    marks.push((ws[i].0.0, ws[i + n - 1].0.1));
                }
            }
        }
        marks.sort_unstable();
        marks.dedup();
        (marks, hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsegmented_text_is_a_phrase_of_its_characters() {
        let q = Query::parse("日本", false);
        assert_eq!(q.terms, [term(&["日", "本"], false)]);
        assert_eq!(q.fts(), "\"日 本\"");
        let (marks, hit) = q.marks("これは日本語のテキストです");
        assert_eq!(hit, [true]);
        assert_eq!(marks, [(9, 15)]);
        assert_eq!(for_index("日本語 and café"), " 日  本  語  and café");
        assert!(matches!(for_index("plain"), std::borrow::Cow::Borrowed(_)));
        // Hangul kept as written, not decomposed.
        let k = Query::parse("한국어", false);
        assert_eq!(k.terms, [term(&["한", "국", "어"], false)]);
        assert_eq!(k.marks("저는 한국어를 배워요").1, [true]);
        // A word of a spaced script beside them is still one word.
        let mixed = Query::parse("Rust言語", false);
        assert_eq!(mixed.terms, [term(&["rust", "言", "語"], false)]);
    }

    #[test]
    fn a_repeated_word_is_one_term_and_a_long_query_is_cut_and_refused() {
        let q = Query::parse(&"cache ".repeat(20_000), false);
        assert_eq!(q.terms, [term(&["cache"], false)]);
        let long = "é".repeat(200);
        assert!(Query::refusal(&long).unwrap().contains("at most 256"));
        assert_eq!(Query::refusal("short"), None);
        let q = Query::parse(&long, false);
        assert_eq!(q.terms[0].words[0].chars().count(), 128);
    }

    fn term(words: &[&str], prefix: bool) -> Term {
        Term {
            words: words.iter().map(|w| w.to_string()).collect(),
            prefix,
        }
    }

    #[test]
    fn words_in_any_order_are_separate_terms() {
        let a = Query::parse("stale regression", false);
        let b = Query::parse("regression   stale", false);
        assert_eq!(a.terms.len(), 2);
        assert_eq!(a.fts(), "\"stale\" AND \"regression\"");
        assert_eq!(b.fts(), "\"regression\" AND \"stale\"");
    }

    #[test]
    fn quotes_make_a_phrase_and_an_open_quote_runs_to_the_end() {
        let q = Query::parse("\"kv cache\" grows", false);
        assert_eq!(
            q.terms,
            vec![term(&["kv", "cache"], false), term(&["grows"], false)]
        );
        let open = Query::parse("x \"kv ca", true);
        assert_eq!(open.terms[1], term(&["kv", "ca"], true));
        // A hyphenated word is a phrase, as the tokenizer splits it.
        assert_eq!(
            Query::parse("kv-cache", false).terms,
            vec![term(&["kv", "cache"], false)]
        );
    }

    #[test]
    fn a_star_or_the_word_being_typed_is_a_prefix() {
        assert_eq!(
            Query::parse("regr*", false).terms,
            vec![term(&["regr"], true)]
        );
        assert!(!Query::parse("regr", false).terms[0].prefix);
        assert!(Query::parse("regr", true).terms[0].prefix);
        // A space after the word: it is finished.
        assert!(!Query::parse("regr ", true).terms[0].prefix);
        assert!(!Query::parse("\"a b\"", true).terms[0].prefix);
        assert_eq!(Query::parse("\"a bc\"*", false).fts(), "\"a bc\" *");
        // One letter is a word, not a beginning.
        assert_eq!(Query::parse("b*", false).fts(), "\"b\"");
        assert_eq!(Query::parse("b", true).fts(), "\"b\"");
    }

    proptest::proptest! {
        #[test]
        fn an_ascii_word_folds_as_the_tokenizer_folds_it(w in "[ -~]{0,24}") {
            let slow: String = w
                .nfd()
                .filter(|c| !is_combining_mark(*c))
                .flat_map(char::to_lowercase)
                .collect();
            proptest::prop_assert_eq!(fold(&w), slow);
        }
    }

    proptest::proptest! {
        #[test]
        fn a_text_that_cannot_match_has_no_marks(
            text in "[ -~]{0,60}",
            query in "[a-cA-C \"*]{0,12}",
        ) {
            let q = Query::parse(&query, false);
            let mut lower = String::new();
            if !q.may_match(&text, &mut lower) {
                let (marks, hit) = q.marks(&text);
                proptest::prop_assert!(marks.is_empty() && !hit.contains(&true));
            }
        }
    }

    #[test]
    fn a_section_is_looked_at_when_a_word_may_be_in_it() {
        let q = Query::parse("Buffer \"cheap worker\"", false);
        let mut lower = String::new();
        assert!(q.may_match("The BUFFERS fill", &mut lower));
        assert!(q.may_match("a cheap thing", &mut lower));
        assert!(!q.may_match("nothing of either", &mut lower));
        // Not ASCII: looked at word by word (folding may make it match).
        assert!(q.may_match("un büffer", &mut lower));
    }

    #[test]
    fn case_and_accents_fold() {
        assert_eq!(fold("Régression"), "regression");
        assert_eq!(fold("ÉCOLE"), "ecole");
        assert_eq!(Query::parse("Café", false).fts(), "\"cafe\"");
        let (marks, hit) = Query::parse("cafe", false).marks("Un CAFÉ noir");
        assert_eq!(marks, vec![(3, 8)]);
        assert_eq!(hit, vec![true]);
    }

    #[test]
    fn operators_and_punctuation_are_only_words() {
        let q = Query::parse("NOT a OR \"b\" (c) ^d", false);
        assert_eq!(
            q.fts(),
            "\"not\" AND \"a\" AND \"or\" AND \"b\" AND \"c\" AND \"d\""
        );
        assert!(Query::parse("  \"\" *** ", true).is_empty());
    }

    #[test]
    fn marks_find_phrases_and_prefixes() {
        let q = Query::parse("\"kv cache\" gro*", false);
        let text = "The KV cache grows; a cache, kv.";
        let (marks, hit) = q.marks(text);
        assert_eq!(hit, vec![true, true]);
        let shown: Vec<&str> = marks.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(shown, vec!["KV cache", "grows"]);
    }
}
