//! Word wrapping by display width: graphemes, wide (CJK, emoji) and
//! zero-width characters; a word longer than the line is broken, never
//! lost and never allowed to overflow.

use super::style::{Span, Style};
use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Display width of `s`, measured per grapheme as ratatui draws it.
pub fn width(s: &str) -> usize {
    #[cfg(test)]
    crate::work::add(s.len());
    if s.is_ascii() {
        return s.len();
    }
    s.graphemes(true).map(UnicodeWidthStr::width).sum()
}

/// The mark at the end of a line where a token too long for any line was
/// broken, and the narrowest line that shows it.
pub(crate) const BROKEN: &str = "\u{21a9}";
pub(crate) const MARK_MIN: usize = 8;

/// What a grapheme too wide for a one-column line is shown as.
const TOO_WIDE: &str = "\u{2026}";

/// Splits `s` into pieces of at most `max` columns (max ≥ 1).
pub(crate) fn break_word(s: &str, max: usize, first_room: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut w = 0;
    let mut room = first_room.min(max);
    for g in s.graphemes(true) {
        let gw = UnicodeWidthStr::width(g);
        if gw > max {
            // Cannot fit even alone (a wide character on a 1-column
            // line): show a narrow stand-in rather than overflow.
            if w + 1 > room && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
                w = 0;
                room = max;
            }
            cur.push_str(TOO_WIDE);
            w += 1;
            continue;
        }
        if w + gw > room {
            out.push(std::mem::take(&mut cur));
            w = 0;
            room = max;
        }
        cur.push_str(g);
        w += gw;
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

struct Word<'a> {
    pieces: Vec<(Cow<'a, str>, Style)>,
    width: usize,
    space_before: bool,
    /// The style of the space before: a styled run starts on its text,
    /// not on the space that separates it from the word before.
    space_style: Style,
    break_before: bool,
    /// Ends at a soft hyphen and the next word is glued to it: a line
    /// that breaks between them shows `-`.
    hyphen: bool,
}

/// Break opportunities that running text keeps (see `model::sanitize`):
/// a zero-width space and a soft hyphen. Words are split at them and
/// they are dropped, so neither ever reaches a drawn line.
const ZWSP: char = '\u{200b}';
const SHY: char = '\u{ad}';

/// `s` without its break opportunities, for text drawn on one line as it
/// is (a table's natural grid).
pub(crate) fn visible(s: &str) -> Cow<'_, str> {
    if s.contains([ZWSP, SHY]) {
        Cow::Owned(s.chars().filter(|&c| c != ZWSP && c != SHY).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// The part of `c` from byte `from` on, borrowed when `c` is.
fn tail<'a>(c: &Cow<'a, str>, from: usize) -> Cow<'a, str> {
    match c {
        Cow::Borrowed(b) => Cow::Borrowed(&b[from..]),
        Cow::Owned(o) => Cow::Owned(o[from..].to_string()),
    }
}

/// Whitespace that separates words: a no-break space (U+00A0, U+2007,
/// U+202F) joins them instead.
fn is_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}')
}

/// Where UAX #14 lets a line break inside `piece` (a run of characters
/// between spaces): after hyphens and dashes, between CJK characters,
/// never before closing punctuation. Most words are plain ASCII letters
/// with nowhere to break: those are not looked into.
fn breaks_inside(piece: &str) -> impl Iterator<Item = usize> + '_ {
    let simple = piece
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b".,;:!?'\"()".contains(&b));
    let len = piece.len();
    (!simple)
        .then(|| unicode_linebreak::linebreaks(piece).map(|(at, _)| at))
        .into_iter()
        .flatten()
        .filter(move |&at| at > 0 && at < len)
}

fn words<'a>(input: &'a [(&'a str, Style)]) -> Vec<Word<'a>> {
    let mut out: Vec<Word> = Vec::new();
    let mut space = false;
    let mut brk = false;
    let mut gluable = false;
    let mut space_style = input
        .first()
        .map_or(Style::new(super::style::Role::Text), |p| p.1);
    for (text, style) in input {
        let mut rest: &str = text;
        // Where the word being read ends (the next space), found once per
        // word rather than once per piece a break inside it makes: 600 KB
        // of CJK without a space took 30 s looked for from each ideograph.
        let mut word_end = 0;
        while !rest.is_empty() {
            let ws_len = rest.find(|c: char| !is_space(c)).unwrap_or(rest.len());
            if ws_len > 0 {
                let ws = &rest[..ws_len];
                if ws.contains('\n') {
                    brk = true;
                }
                if !space {
                    space_style = *style;
                }
                space = true;
                gluable = false;
                rest = &rest[ws_len..];
                continue;
            }
            let at = text.len() - rest.len();
            if word_end <= at {
                word_end = at + rest.find(is_space).unwrap_or(rest.len());
                #[cfg(test)]
                crate::work::add(word_end - at);
            }
            let mut end = word_end - at;
            // A break UAX #14 allows inside the piece ends it there: the
            // rest is a word of its own, with no space before it.
            let mut brk_inside = false;
            if let Some(at) = breaks_inside(&rest[..end]).next() {
                end = at;
                brk_inside = true;
            }
            let raw = &rest[..end];
            // One at the end of a run (the word goes on in the next run)
            // is a break all the same.
            brk_inside |= raw.ends_with([ZWSP, SHY]);
            let hyphen = brk_inside && raw.ends_with(SHY);
            let piece = match raw {
                _ if raw.contains([ZWSP, SHY]) => visible(raw),
                _ => Cow::Borrowed(raw),
            };
            rest = &rest[end..];
            if piece.is_empty() {
                // A break opportunity alone (its word began in the run
                // before): the word before ends there.
                if let Some(last) = out.last_mut().filter(|_| gluable && !space) {
                    last.hyphen = hyphen;
                }
                gluable = false;
                continue;
            }
            match out.last_mut() {
                Some(last) if gluable && !space => {
                    last.glue(piece, *style);
                    last.hyphen = hyphen;
                }
                _ => out.push(Word {
                    width: width(&piece),
                    pieces: vec![(piece, *style)],
                    space_before: space,
                    space_style,
                    break_before: brk,
                    hyphen,
                }),
            }
            space = false;
            brk = false;
            gluable = !brk_inside;
        }
    }
    // A soft hyphen shows only between two parts of one word.
    for i in 0..out.len() {
        let glued = out
            .get(i + 1)
            .is_some_and(|n| !n.space_before && !n.break_before);
        out[i].hyphen &= glued;
    }
    out
}

impl<'a> Word<'a> {
    /// Adds `piece`, which goes on this word with no break between.
    fn glue(&mut self, piece: Cow<'a, str>, style: Style) {
        // One grapheme, one piece: a combining mark, variation selector or
        // joiner that starts this piece belongs to the previous piece's
        // last character, or the pieces' widths would not add up to the
        // word's ("1" then U+FE0F is one 2-column emoji).
        let (prev, _) = self.pieces.last_mut().expect("a word has a piece");
        let joined = joining_prefix(prev, &piece);
        // Only the pieces that change are measured again: a word of many
        // styled runs stays linear to lay out.
        let before = width(prev);
        if joined > 0 {
            prev.to_mut().push_str(&piece[..joined]);
        }
        let mut after = width(prev);
        if joined < piece.len() {
            let rest = tail(&piece, joined);
            after += width(&rest);
            self.pieces.push((rest, style));
        }
        self.width = self.width - before + after;
    }
}

/// Length of the start of `next` that joins the last grapheme of `prev`.
fn joining_prefix(prev: &str, next: &str) -> usize {
    let Some(last) = prev.graphemes(true).next_back() else {
        return 0;
    };
    let both = format!("{last}{next}");
    let first = both.graphemes(true).next().map_or(0, str::len);
    let n = first.saturating_sub(last.len()).min(next.len());
    if next.is_char_boundary(n) { n } else { 0 }
}

/// `spans` with every grapheme inside one span: characters that join the
/// previous span's last grapheme move into it (a highlighter may split
/// "1" from a following U+FE0F, which together are one 2-column emoji).
pub(crate) fn regroup(spans: &[Span]) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        let mut text = s.text.as_str();
        if let Some(prev) = out.last_mut() {
            let joined = joining_prefix(&prev.text, text);
            prev.text.push_str(&text[..joined]);
            text = &text[joined..];
        }
        if !text.is_empty() {
            out.push(Span::new(text, s.style));
        }
    }
    out
}

fn push_span(line: &mut Vec<Span>, text: &str, style: Style) {
    match line.last_mut() {
        Some(last) if last.style == style => last.text.push_str(text),
        _ => line.push(Span::new(text, style)),
    }
}

/// Wraps styled text into lines of at most `max` columns (max ≥ 1).
/// Whitespace collapses to single spaces; `\n` forces a new line.
pub fn wrap(input: &[(&str, Style)], max: usize) -> Vec<Vec<Span>> {
    let max = max.max(1);
    let mut lines: Vec<Vec<Span>> = Vec::new();
    let mut cur: Vec<Span> = Vec::new();
    let mut w = 0usize;
    // Whether the word last placed ends at a soft hyphen: a line that
    // ends after it ends with `-` (room for it is kept when it is placed).
    let mut hyphen: Option<Style> = None;
    for word in words(input) {
        if word.break_before && (w > 0 || !cur.is_empty()) {
            lines.push(std::mem::take(&mut cur));
            w = 0;
        }
        let gap = usize::from(w > 0 && word.space_before);
        let need = word.width + usize::from(word.hyphen);
        let last_style = word.pieces.last().map(|p| p.1);
        let after = std::mem::replace(&mut hyphen, last_style.filter(|_| word.hyphen));
        if let Some(style) = after.filter(|_| w > 0 && w + need > max) {
            // The word breaks at its soft hyphen.
            if w < max {
                push_span(&mut cur, "-", style);
            }
            lines.push(std::mem::take(&mut cur));
            w = 0;
        }
        if w + gap + need <= max {
            if gap == 1 {
                push_span(&mut cur, " ", word.space_style);
                w += 1;
            }
            for (text, style) in &word.pieces {
                push_span(&mut cur, text, *style);
            }
            w += word.width;
            continue;
        }
        if need <= max {
            lines.push(std::mem::take(&mut cur));
            for (text, style) in &word.pieces {
                push_span(&mut cur, text, *style);
            }
            w = word.width;
            continue;
        }
        // Longer than a whole line: start it on the current line when
        // there is useful room, and break it by graphemes.
        if w > 0 && max - w < 4 + gap {
            lines.push(std::mem::take(&mut cur));
            w = 0;
        } else if w > 0 && gap == 1 {
            push_span(&mut cur, " ", word.space_style);
            w += 1;
        }
        for (text, style) in &word.pieces {
            let tw = width(text);
            if w < max && tw <= max - w && tw > 0 {
                // Fits as it is (most runs of a long word do).
                push_span(&mut cur, text, *style);
                w += tw;
                continue;
            }
            // Where a token is broken, a mark says so (on lines wide
            // enough to spare its column).
            let mark = usize::from(max >= MARK_MIN);
            let chunks = break_word(text, max - mark, (max - w).saturating_sub(mark));
            let last = chunks.len().saturating_sub(1);
            for (i, chunk) in chunks.iter().enumerate() {
                // An empty first chunk means no room left on this line:
                // the next chunk starts the next one (taking a new line
                // for it too would leave a blank line inside the word).
                if chunk.is_empty() {
                    continue;
                }
                if i > 0 || (w >= max) {
                    lines.push(std::mem::take(&mut cur));
                    w = 0;
                }
                push_span(&mut cur, chunk, *style);
                w += width(chunk);
                if mark == 1 && i < last {
                    push_span(&mut cur, BROKEN, Style::new(super::style::Role::Dim));
                    w += 1;
                }
            }
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Cuts a line's spans to at most `max` columns (used for prefixes and
/// fixed-width rows that must never overflow).
pub fn truncate(spans: &[Span], max: usize) -> (Vec<Span>, usize) {
    let mut out = Vec::new();
    let mut w = 0;
    for s in spans {
        let sw = width(&s.text);
        if w + sw <= max {
            out.push(s.clone());
            w += sw;
            continue;
        }
        let mut text = String::new();
        for g in s.text.graphemes(true) {
            let gw = UnicodeWidthStr::width(g);
            if w + gw > max {
                break;
            }
            text.push_str(g);
            w += gw;
        }
        if !text.is_empty() {
            out.push(Span::new(text, s.style));
        }
        break;
    }
    (out, w)
}

/// Expands tabs to the next multiple of `stop` columns.
pub(crate) fn expand_tabs(s: &str, stop: usize) -> std::borrow::Cow<'_, str> {
    if !s.contains('\t') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0;
    for g in s.graphemes(true) {
        if g == "\t" {
            let n = stop - col % stop;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else if g == "\n" {
            // Tab stops count from the start of each line.
            out.push('\n');
            col = 0;
        } else {
            out.push_str(g);
            col += UnicodeWidthStr::width(g);
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::style::Role;

    fn plain(s: &str, max: usize) -> Vec<String> {
        wrap(&[(s, Style::new(Role::Text))], max)
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    fn fits(lines: &[String], max: usize) {
        for l in lines {
            assert!(width(l) <= max, "{l:?} is wider than {max}");
        }
    }

    #[test]
    fn zero_width_spaces_are_breaks_never_text() {
        let url = "example.com/\u{200b}very/\u{200b}long/\u{200b}path";
        assert_eq!(plain(url, 20), ["example.com/very/", "long/path"]);
        assert_eq!(plain(url, 80), ["example.com/very/long/path"]);
        // A zero-width space alone in its run ends the word before it.
        let two = wrap(
            &[
                ("abc\u{200b}", Style::new(Role::Text)),
                ("def", Style::new(Role::Code)),
            ],
            4,
        );
        let text: Vec<String> = two
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect();
        assert_eq!(text, ["abc", "def"]);
    }

    #[test]
    fn soft_hyphens_break_with_a_hyphen_and_show_nothing_elsewhere() {
        let word = "super\u{ad}cali\u{ad}fragilistic";
        assert_eq!(plain(word, 80), ["supercalifragilistic"]);
        assert_eq!(plain(word, 12), ["supercali-", "fragilistic"]);
        assert_eq!(plain(word, 6), ["super-", "cali-", "fragil", "istic"]);
        // Room is kept for the hyphen: "ab cali-" is 8 columns.
        assert_eq!(plain("ab cali\u{ad}fornia", 7), ["ab", "cali-", "fornia"]);
        for max in 1..24 {
            let lines = plain("a super\u{ad}cali\u{ad}fragilistic\u{200b}word", max);
            fits(&lines, max);
            assert!(lines.iter().all(|l| !l.contains(['\u{ad}', '\u{200b}'])));
        }
    }

    #[test]
    fn greedy_words() {
        assert_eq!(plain("the quick brown fox", 9), ["the quick", "brown fox"]);
        assert_eq!(plain("exact fit", 9), ["exact fit"]);
        assert_eq!(plain("  spaces   collapse  ", 80), ["spaces collapse"]);
        assert_eq!(plain("", 10), [""]);
    }

    #[test]
    fn width_one_and_two() {
        let l = plain("ab cd", 1);
        assert_eq!(l, ["a", "b", "c", "d"]);
        let l = plain("abc de", 2);
        assert_eq!(l, ["ab", "c", "de"]);
    }

    #[test]
    fn long_tokens_break_and_keep_every_character() {
        let url = "https://example.org/a/very/long/path/that/never/ends";
        let l = plain(&format!("see {url} now"), 12);
        fits(&l, 12);
        assert_eq!(l.concat().replace(' ', ""), format!("see{url}now"));
    }

    #[test]
    fn cjk_and_emoji_use_two_columns() {
        let l = plain("日本語のテキストを折り返す", 7);
        fits(&l, 7);
        assert_eq!(l[0], "日本語");
        assert_eq!(l.concat(), "日本語のテキストを折り返す");
        let l = plain("👩‍👩‍👧 family", 3);
        fits(&l, 3);
        // A wide character cannot fit one column: a stand-in, not overflow.
        let l = plain("日x", 1);
        fits(&l, 1);
        assert_eq!(l.len(), 2);
    }

    #[test]
    fn combining_marks_stay_with_their_letter() {
        let s = "e\u{301}e\u{301}e\u{301}e\u{301}";
        assert_eq!(width(s), 4);
        let l = plain(s, 2);
        assert_eq!(l, ["e\u{301}e\u{301}", "e\u{301}e\u{301}"]);
    }

    #[test]
    fn newlines_force_breaks_and_styles_glue() {
        assert_eq!(plain("one\ntwo", 80), ["one", "two"]);
        let bold = Style::new(Role::Text).with(crate::layout::style::BOLD);
        let lines = wrap(&[("foo", bold), ("bar baz", Style::new(Role::Text))], 6);
        let texts: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect();
        assert_eq!(texts, ["foobar", "baz"]);
    }

    #[test]
    fn a_grapheme_split_across_runs_stays_in_one_span() {
        let bold = Style::new(Role::Text).with(crate::layout::style::BOLD);
        let input = [("a1", Style::new(Role::Text)), ("\u{fe0f}b", bold)];
        assert_eq!(width("a1\u{fe0f}b"), 4);
        for max in 1..6 {
            for line in wrap(&input, max) {
                let text: String = line.iter().map(|s| s.text.as_str()).collect();
                assert!(width(&text) <= max, "{text:?} is wider than {max}");
            }
        }
        let line = &wrap(&input, 80)[0];
        assert_eq!(line[0].text, "a1\u{fe0f}");
        assert_eq!(line[1].text, "b");
    }

    #[test]
    fn regroup_moves_joining_characters_back() {
        let spans = [
            Span::new("x1", Role::Text),
            Span::new("\u{fe0f}", Role::Code),
            Span::new("\u{20e3}y", Role::Text),
        ];
        let out = regroup(&spans);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].text, "x1\u{fe0f}\u{20e3}");
        assert_eq!(out[1].text, "y");
    }

    #[test]
    fn a_long_word_of_many_runs_fills_every_line() {
        let bold = Style::new(Role::Text).with(crate::layout::style::BOLD);
        let input: Vec<(&str, Style)> = (0..100)
            .map(|i| {
                (
                    "ab",
                    if i % 2 == 0 {
                        bold
                    } else {
                        Style::new(Role::Text)
                    },
                )
            })
            .collect();
        let lines = wrap(&input, 7);
        let texts: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect();
        assert_eq!(texts.concat(), "ab".repeat(100));
        assert!(
            texts[..texts.len() - 1].iter().all(|t| width(t) == 7),
            "{texts:?}"
        );
        assert!(lines.iter().flatten().all(|s| !s.text.is_empty()));
    }

    #[test]
    fn tabs_expand_to_stops() {
        assert_eq!(expand_tabs("a\tb", 4), "a   b");
        assert_eq!(expand_tabs("\tx", 4), "    x");
        assert_eq!(expand_tabs("abcdefghi\n\tx", 4), "abcdefghi\n    x");
    }

    #[test]
    fn truncate_respects_wide_chars() {
        let spans = [Span::new("日本語", Role::Text)];
        let (out, w) = truncate(&spans, 5);
        assert_eq!(out[0].text, "日本");
        assert_eq!(w, 4);
    }
}

#[cfg(test)]
mod linebreak_tests {
    use super::*;
    use crate::layout::style::Role;

    fn lines(s: &str, max: usize) -> Vec<String> {
        wrap(&[(s, Style::new(Role::Text))], max)
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn breaks_after_hyphens_and_dashes() {
        assert_eq!(
            lines("a well-known thing", 8),
            ["a well-", "known", "thing"]
        );
        assert_eq!(lines("one—two", 5), ["one—", "two"]);
        // Where a word fits, it is not broken.
        assert_eq!(lines("well-known", 20), ["well-known"]);
    }

    #[test]
    fn never_at_a_no_break_space() {
        assert_eq!(
            lines("it is 10\u{a0}km away", 9),
            ["it is", "10\u{a0}km", "away"]
        );
    }

    #[test]
    fn between_cjk_characters_but_not_before_closing_punctuation() {
        let l = lines("日本語の文章です。次の文", 10);
        for line in &l {
            assert!(width(line) <= 10, "{l:?}");
            assert!(!line.starts_with('。'), "{l:?}");
        }
        assert_eq!(l.concat(), "日本語の文章です。次の文");
        assert!(l[0].chars().count() > 1, "{l:?}");
    }

    #[test]
    fn plain_words_are_not_looked_into() {
        assert_eq!(breaks_inside("hello").count(), 0);
        assert_eq!(breaks_inside("a-b").collect::<Vec<_>>(), [2]);
    }
}
