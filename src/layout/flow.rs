//! A laid-out page as one flowing text, for anchors (see
//! [`crate::model::anchor`]): each block's words one space apart, blocks
//! one line apart, without what the page draws around them (frames,
//! rules, quote bars, a closed fold's count of lines). The same lesson
//! flows to the same text at any width, and each word knows where on the
//! page it is drawn. A fold the page shows closed leaves its body out: the
//! flow says where, and how much (see [`Flow::to_flow`]).

use super::page::Page;
use super::style::Role;

/// One word of the page: where it is in the flowing text and on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// Its first character in [`Flow::text`].
    pub start: u32,
    /// Its characters.
    pub len: u32,
    /// The page line it is drawn on, and its bytes in that line's text.
    pub line: u32,
    pub byte: u32,
    pub bytes: u32,
    /// The page's block (header, hero, each lesson block) it is in.
    pub block: u32,
}

impl Word {
    pub fn end(&self) -> usize {
        (self.start + self.len) as usize
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flow {
    pub text: Vec<char>,
    pub words: Vec<Word>,
    /// Where closed folds' bodies are left out: after this many
    /// characters of the flow (spaces aside, see [`Flow::key_of`]), that
    /// many of the lesson's, in order.
    pub gaps: Vec<(usize, usize)>,
}

/// What the page draws, not the lesson: frames, rules, bars.
fn drawn_around(role: Role, text: &str) -> bool {
    matches!(role, Role::CodeFrame | Role::FigureFrame | Role::Rule)
        || text
            .chars()
            .all(|c| c.is_whitespace() || ('\u{2500}'..='\u{259f}').contains(&c))
}

/// The page's flowing text. A page of 4 GiB of text (none under the
/// lesson size cap) would stop short rather than wrap an offset.
pub fn flow(page: &Page) -> Flow {
    let mut out = Flow::default();
    let mut block = 0usize;
    // Characters flowed so far, spaces aside; and the next closed fold.
    let mut key = 0usize;
    let mut folds = page.folded.iter().peekable();
    for i in 0..page.lines.len() {
        while page.blocks.get(block + 1).is_some_and(|&s| s <= i) {
            block += 1;
        }
        let fold = folds.peek().filter(|f| f.first <= i);
        let before = out.words.len();
        for (byte, text) in flowing(page, i, fold.is_some()) {
            words_of(&mut out, text, byte, i, block);
        }
        key += out.words[before..]
            .iter()
            .map(|w| w.len as usize)
            .sum::<usize>();
        if let Some(f) = fold.filter(|f| f.last <= i) {
            out.gaps.push((key, f.chars));
            folds.next();
        }
        if u32::try_from(out.text.len()).is_err() {
            break;
        }
    }
    out
}

/// The spans of line `i` that flow, each with where it starts in the
/// line: none of a table's row, whose cells side by side mix their words
/// with their neighbours' at one width and not at another (tables are not
/// flowed), nor what is drawn around the text, nor (`folded`: the summary
/// of a closed fold) the page's count of the lines it hides.
fn flowing(page: &Page, i: usize, folded: bool) -> impl Iterator<Item = (usize, &str)> {
    let row = page
        .lines
        .spans(i)
        .any(|(text, style)| style.role == Role::Rule && text.contains('│'));
    let mut byte = 0usize;
    let spans = page.lines.spans(i).filter(move |_| !row);
    spans.filter_map(move |(text, style)| {
        let at = byte;
        byte += text.len();
        let count = folded && style.role == Role::Dim;
        (!drawn_around(style.role, text) && !count).then_some((at, text))
    })
}

/// How many characters of `page` flow, spaces aside: what its [`flow`]
/// would hold, without making it (a page with every fold open).
pub fn chars(page: &Page) -> usize {
    (0..page.lines.len())
        .flat_map(|i| flowing(page, i, false))
        .map(|(_, text)| text.chars().filter(|c| !c.is_whitespace()).count())
        .sum()
}

/// The lesson's text as anchors refer to it: laid out at
/// [`CANONICAL_WIDTH`] with every fold open, so the same whatever the
/// screen's width and whichever folds the reader has open.
pub fn anchoring(lesson: &crate::model::Lesson) -> Flow {
    let mut view = super::Highlights::default();
    view.open_folds = true;
    flow(&super::page(lesson, CANONICAL_WIDTH, &view))
}

/// Adds the words of one span (at `byte` of line `line`): a word split
/// between two spans (a bold letter inside it) stays one word.
fn words_of(out: &mut Flow, text: &str, byte: usize, line: usize, block: usize) {
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        let b = (byte + at) as u32;
        let joins = out.words.last().is_some_and(|w| {
            w.line == line as u32 && w.byte + w.bytes == b && !starts_word(text, at)
        });
        if joins {
            let w = out.words.last_mut().expect("a word to join");
            w.len += 1;
            w.bytes += c.len_utf8() as u32;
        } else {
            if let Some(last) = out.words.last() {
                out.text.push(if last.block == block as u32 {
                    ' '
                } else {
                    '\n'
                });
            }
            out.words.push(Word {
                start: out.text.len() as u32,
                len: 1,
                line: line as u32,
                byte: b,
                bytes: c.len_utf8() as u32,
                block: block as u32,
            });
        }
        out.text.push(c);
    }
}

/// Whether the character at `at` starts a word (after a space in its span).
fn starts_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_some_and(char::is_whitespace)
}

/// The width a page is laid out at for the text anchors refer to: wide
/// enough that no paragraph, code line or word is broken, so the text is
/// the same whatever the screen (a page at the screen's width is mapped
/// to it by [`Flow::to_flow`]).
pub const CANONICAL_WIDTH: u16 = 4000;

impl Flow {
    /// How many non-space characters come before character `at`: the
    /// same in a page's flow at any width (only the spaces, where lines
    /// break, differ).
    pub fn key_of(&self, at: usize) -> usize {
        let i = self.words.partition_point(|w| w.end() <= at);
        let before: usize = self.words[..i].iter().map(|w| w.len as usize).sum();
        match self.words.get(i) {
            Some(w) if at > w.start as usize => before + (at - w.start as usize),
            _ => before,
        }
    }

    /// The character whose [`Flow::key_of`] is `key` (the end for a key
    /// past the last).
    pub fn at_key(&self, key: usize) -> usize {
        let mut left = key;
        for w in &self.words {
            if left < w.len as usize {
                return w.start as usize + left;
            }
            left -= w.len as usize;
        }
        self.text.len()
    }

    /// Key `k` of this flow in the lesson's whole text (closed folds'
    /// bodies in it): a key at a gap is the first after it.
    fn full_key(&self, k: usize) -> usize {
        let skipped: usize = self.gaps.iter().take_while(|g| g.0 <= k).map(|g| g.1).sum();
        k + skipped
    }

    /// Key `f` of the lesson's whole text in this flow; `Err` with the
    /// key after it for one in a closed fold's body.
    fn own_key(&self, f: usize) -> Result<usize, usize> {
        let mut skipped = 0;
        for &(at, n) in &self.gaps {
            if f < at + skipped {
                break;
            }
            if f < at + skipped + n {
                return Err(at);
            }
            skipped += n;
        }
        Ok(f - skipped)
    }

    /// Characters `start..end` of this flow, in `other` (the same page at
    /// another width, or with other folds open). What `other` leaves out
    /// is left out: a range all in a closed fold is empty there.
    pub fn to_flow(&self, other: &Flow, start: usize, end: usize) -> (usize, usize) {
        let (a, b) = (self.key_of(start), self.key_of(end));
        let start = other.at_key(other.own_key(self.full_key(a)).unwrap_or_else(|k| k));
        // The end after the last character, not before the next word.
        let end = match b.checked_sub(1) {
            Some(last) if b > a => match other.own_key(self.full_key(last)) {
                Ok(k) => other.at_key(k) + 1,
                Err(after) => other.at_key(after).max(start),
            },
            _ => start,
        };
        (start, end.max(start))
    }

    /// The word holding character `at`, or the first after it.
    pub fn word_at(&self, at: usize) -> Option<usize> {
        let i = self.words.partition_point(|w| w.end() <= at);
        (i < self.words.len()).then_some(i)
    }

    /// The first word drawn on page line `line` or after it.
    pub fn word_on_line(&self, line: usize) -> Option<usize> {
        let i = self.words.partition_point(|w| (w.line as usize) < line);
        (i < self.words.len()).then_some(i)
    }

    /// Characters `start..end` as byte ranges of page lines: (line, from,
    /// to), one per line they reach.
    pub fn ranges(&self, start: usize, end: usize) -> Vec<(usize, usize, usize)> {
        let mut out: Vec<(usize, usize, usize)> = Vec::new();
        let first = self.words.partition_point(|w| w.end() <= start);
        for w in self.words[first..]
            .iter()
            .take_while(|w| (w.start as usize) < end)
        {
            let (line, from, to) = (
                w.line as usize,
                w.byte as usize,
                (w.byte + w.bytes) as usize,
            );
            match out.last_mut() {
                Some(last) if last.0 == line => last.2 = to,
                _ => out.push((line, from, to)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson_of(md: &str) -> crate::model::Lesson {
        let text = format!("# Title\n\n{md}\n");
        let origin = crate::model::Origin::File("t.md".into());
        crate::loader::load_from(&origin, text.as_bytes())
            .unwrap()
            .lesson
    }

    #[test]
    fn a_page_flows_to_the_same_text_at_any_width() {
        let lesson = lesson_of(
            "A paragraph of several words that wraps at a narrow width.\n\n\
             > A quote that wraps too, with its bar on every line.\n\n\
             ```\nlet x = 1;\n```",
        );
        let wide = flow(&crate::layout::page(&lesson, 100, &Default::default()));
        let narrow = flow(&crate::layout::page(&lesson, 24, &Default::default()));
        assert_eq!(wide.text, narrow.text);
        let text: String = wide.text.iter().collect();
        assert!(
            text.contains("narrow width.\nA quote that wraps too, with its bar"),
            "{text}"
        );
        assert!(!text.contains('│') && !text.contains('╭'), "{text}");
        assert!(
            narrow.words.iter().map(|w| w.line).max() > wide.words.iter().map(|w| w.line).max()
        );
    }

    #[test]
    fn a_range_maps_between_widths_by_its_characters() {
        let lesson = lesson_of(
            "Words before a long address https://example.org/a/very/long/path/to/somewhere/else then after.\n\n\
             | a | b |\n|---|---|\n| one cell that wraps | two |\n\nThe last paragraph.",
        );
        let wide = flow(&crate::layout::page(
            &lesson,
            CANONICAL_WIDTH,
            &Default::default(),
        ));
        let narrow = flow(&crate::layout::page(&lesson, 20, &Default::default()));
        let text: String = wide.text.iter().collect();
        assert!(!text.contains("wraps"), "tables are not flowed: {text}");
        for quote in ["long address https://example.org", "then after.\nThe last"] {
            let start = text.find(quote).unwrap();
            let start = text[..start].chars().count();
            let end = start + quote.chars().count();
            let (a, b) = wide.to_flow(&narrow, start, end);
            let there: String = narrow.text[a..b]
                .iter()
                .filter(|c| !c.is_whitespace())
                .collect();
            let want: String = quote.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(there, want);
            assert_eq!(narrow.to_flow(&wide, a, b), (start, end));
        }
    }

    #[test]
    fn a_range_of_characters_is_the_bytes_of_the_lines_it_reaches() {
        let lesson = lesson_of("one two three four five six seven");
        let page = crate::layout::page(&lesson, 12, &Default::default());
        let f = flow(&page);
        let text: String = f.text.iter().collect();
        let start = text.find("three").unwrap();
        let end = text.find("six").unwrap() + 3;
        let ranges = f.ranges(start, end);
        let shown: Vec<String> = ranges
            .iter()
            .map(|&(l, a, b)| page.lines.text(l).unwrap()[a..b].to_string())
            .collect();
        assert_eq!(shown.join("|"), "three four|five six");
    }

    #[test]
    fn a_closed_folds_body_is_left_out_of_the_page_and_its_words_map_to_nothing() {
        let lesson = lesson_of(
            "Before the fold.\n\n<details><summary>Hint</summary>\n\n\
             The hidden words of the fold body.\n\n\
             <details><summary>Deeper</summary>\n\nInside twice.\n\n</details>\n\n\
             </details>\n\nAfter the fold comes this text.",
        );
        let all = anchoring(&lesson);
        let closed = flow(&crate::layout::page(&lesson, 30, &Default::default()));
        let text: String = all.text.iter().collect();
        let shown: String = closed.text.iter().collect();
        assert!(
            text.contains("Hint The hidden words") && text.contains("Inside twice"),
            "{text}"
        );
        assert!(
            !shown.contains("hidden") && !shown.contains("folded"),
            "{shown}"
        );
        assert_eq!(closed.gaps.len(), 1, "the outer fold, its inner one in it");
        let find = |quote: &str| {
            let at = text[..text.find(quote).unwrap()].chars().count();
            (at, at + quote.chars().count())
        };
        // After the fold: the same words, both ways.
        let (start, end) = find("After the fold");
        let (a, b) = all.to_flow(&closed, start, end);
        assert_eq!(
            closed.text[a..b].iter().collect::<String>(),
            "After the fold"
        );
        assert_eq!(closed.to_flow(&all, a, b), (start, end));
        // In the fold: nothing on the page while it is closed.
        for quote in ["hidden words", "Inside twice"] {
            let (start, end) = find(quote);
            let (a, b) = all.to_flow(&closed, start, end);
            assert_eq!(a, b, "{quote}");
        }
        // From before the fold into it: the part before it.
        let (start, _) = find("the fold.");
        let (_, end) = find("hidden words");
        let (a, b) = all.to_flow(&closed, start, end);
        let there: String = closed.text[a..b].iter().collect();
        assert!(there.starts_with("the fold.\n▸ Hint"), "{there}");
        assert!(!there.contains("After"), "{there}");
        // With the folds open, the page is the whole text.
        let mut view = crate::layout::Highlights::default();
        view.open_folds = true;
        let open_page = crate::layout::page(&lesson, 30, &view);
        let open = flow(&open_page);
        assert!(open.gaps.is_empty());
        let flowed: usize = open.words.iter().map(|w| w.len as usize).sum();
        assert_eq!(chars(&open_page), flowed, "counted as flowed");
        assert_eq!(
            closed.gaps[0].1,
            flowed - closed.text.iter().filter(|c| !c.is_whitespace()).count()
        );
        let (start, end) = find("hidden words");
        let (a, b) = all.to_flow(&open, start, end);
        assert_eq!(open.text[a..b].iter().collect::<String>(), "hidden words");
    }
}
