//! A code line wider than the page, in rows: broken where a token ends
//! (after a space, between a name and punctuation), and inside a token
//! only when one is wider than a row, with a mark where it was cut.

use crate::layout::style::{Role, Span};
use crate::layout::wrap::{self, BROKEN, MARK_MIN, width};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Where a row starts in the line (a byte offset), and whether the row
/// before it was cut inside a token.
type Cut = (usize, bool);

/// `spans` (one line of code) as rows of at most `max` columns, every
/// character kept; a row cut inside a token ends with [`BROKEN`].
pub(super) fn wrap_code(spans: &[Span], max: usize) -> Vec<Vec<Span>> {
    let text: String = spans.iter().map(|s| s.text.as_str()).collect();
    if width(&text) <= max {
        return vec![spans.to_vec()];
    }
    if max < MARK_MIN {
        return hard_wrap(spans, max);
    }
    split(spans, &cuts(&text, max))
}

/// Whether a row may start at `cur` after `prev`: after a space, after
/// a separator (`,` `;`) or an opening bracket, and before a `.` that
/// follows a name (a method or field); never before what closes, nor
/// inside a number (`0.25`), a string's quotes or an operator.
fn boundary(prev: char, cur: char) -> bool {
    let closes = matches!(cur, ')' | ']' | '}' | ',' | ';');
    match prev {
        _ if cur.is_whitespace() => false,
        p if p.is_whitespace() => true,
        ',' | ';' | '(' | '[' | '{' => !closes,
        p if cur == '.' => p.is_alphabetic() || matches!(p, '_' | ')' | ']'),
        _ => false,
    }
}

/// Where each row after the first starts.
fn cuts(text: &str, max: usize) -> Vec<Cut> {
    let mut out = Vec::new();
    // The current row's graphemes (offset, width), and the indices in it
    // where a row may start.
    let mut row: Vec<(usize, usize)> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    let mut prev: Option<char> = None;
    for (at, g) in text.grapheme_indices(true) {
        let first = g.chars().next().unwrap_or(' ');
        if !row.is_empty() && prev.is_some_and(|p| boundary(p, first)) {
            starts.push(row.len());
        }
        prev = g.chars().last();
        let gw = UnicodeWidthStr::width(g);
        while !row.is_empty() && row.iter().map(|r| r.1).sum::<usize>() + gw > max {
            let (keep, broken) = match starts.last() {
                Some(&k) => (k, false),
                None => (mid_token(&row, max), true),
            };
            out.push((row.get(keep).map_or(at, |r| r.0), broken));
            row.drain(..keep);
            starts.retain_mut(|s| {
                *s = s.saturating_sub(keep);
                *s > 0
            });
        }
        row.push((at, gw));
    }
    out
}

/// How much of a row with no boundary stays on it: what leaves a column
/// for the mark (at least one grapheme).
fn mid_token(row: &[(usize, usize)], max: usize) -> usize {
    let mut w: usize = row.iter().map(|r| r.1).sum();
    let mut k = row.len();
    while k > 1 && w + 1 > max {
        k -= 1;
        w -= row[k].1;
    }
    k
}

/// The spans cut at `cuts` into rows.
fn split(spans: &[Span], cuts: &[Cut]) -> Vec<Vec<Span>> {
    let mut rows = vec![Vec::new()];
    let mut next = cuts.iter().peekable();
    let mut at = 0;
    for s in spans {
        let mut rest = s.text.as_str();
        while let Some(&&(cut, broken)) = next.peek()
            && cut < at + rest.len()
        {
            let (head, tail) = rest.split_at(cut - at);
            let row = rows.last_mut().expect("rows is never empty");
            if !head.is_empty() {
                row.push(Span::new(head, s.style));
            }
            if broken {
                row.push(Span::new(BROKEN, Role::CodeFrame));
            }
            rows.push(Vec::new());
            at = cut;
            rest = tail;
            next.next();
        }
        if !rest.is_empty() {
            rows.last_mut()
                .expect("rows is never empty")
                .push(Span::new(rest, s.style));
        }
        at += rest.len();
    }
    rows
}

/// Breaks a row of styled spans into rows of at most `max` columns,
/// keeping every character: on a page too narrow for a mark.
fn hard_wrap(spans: &[Span], max: usize) -> Vec<Vec<Span>> {
    let mut rows = vec![Vec::new()];
    let mut w = 0;
    for s in spans {
        for chunk in wrap::break_word(&s.text, max, max - w.min(max)) {
            let cw = width(&chunk);
            if w + cw > max && w > 0 {
                rows.push(Vec::new());
                w = 0;
            }
            let row = rows.last_mut().expect("rows is never empty");
            row.push(Span::new(chunk, s.style));
            w += cw;
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, max: usize) -> Vec<String> {
        let spans = [Span::new(text, Role::CodeText)];
        wrap_code(&spans, max)
            .iter()
            .map(|r| r.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn a_long_line_breaks_where_a_token_ends() {
        assert_eq!(
            rows("let total = compute(first_value, second);", 24),
            ["let total = compute(", "first_value, second);"]
        );
        assert_eq!(
            rows(r#"{"a":0.25,"bb":[{"c":1}]}"#, 12),
            [r#"{"a":0.25,"#, r#""bb":[{"#, r#""c":1}]}"#]
        );
        assert_eq!(rows("items.iter().map(f)", 12), ["items.iter()", ".map(f)"]);
        // Every character is kept.
        let line = "    println!(\"{}\", some.method().chained().again());";
        assert_eq!(rows(line, 20).concat(), line);
        assert!(rows(line, 20).iter().all(|r| width(r) <= 20));
    }

    #[test]
    fn a_token_wider_than_a_row_is_cut_with_a_mark() {
        let r = rows("x = aaaaaaaaaaaaaaaaaaaaaaaaaaaa;", 12);
        assert!(r.iter().all(|r| width(r) <= 12), "{r:?}");
        assert!(r[1].ends_with(BROKEN), "{r:?}");
        assert_eq!(
            r.concat().replace(BROKEN, ""),
            "x = aaaaaaaaaaaaaaaaaaaaaaaaaaaa;"
        );
    }

    #[test]
    fn styles_stay_on_their_text_across_rows() {
        let spans = [
            Span::new("fn name_of_it", Role::CodeText),
            Span::new("(arg: u8)", Role::Syntax(1, 2, 3)),
        ];
        let r = wrap_code(&spans, 14);
        assert_eq!(r[0][0].text, "fn name_of_it");
        assert_eq!(r[0][1].text, "(");
        assert_eq!(r[1][0].text, "arg: u8)");
        assert_eq!(r[1][0].style, Role::Syntax(1, 2, 3).into());
    }
}
