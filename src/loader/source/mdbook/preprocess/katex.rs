//! mdbook-katex typesets `$…$` (inline) and `$$…$$` (display) as math.
//! lectern shows the TeX source instead, never its delimiters: inline math
//! as inline code, display math as a code block labelled as math. Code is
//! left alone, and `\$` is a dollar sign, as mdbook-katex reads them.

use super::fences::{Piece, pieces};
use crate::model::Block;

/// What a display fence is written with, until `label` names it.
const MARK: &str = "katex-display";

pub const LABEL: &str = "math (TeX source)";

/// `text` with its math as code.
pub fn rewrite(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Prose(p) => prose(p, &mut out),
            Piece::Fence(f) => out.push_str(f.raw),
        }
    }
    out
}

/// How many `c` `s` starts with.
fn run(s: &str, c: char) -> usize {
    s.len() - s.trim_start_matches(c).len()
}

fn prose(p: &str, out: &mut String) {
    let mut rest = p;
    while let Some(i) = rest.find(['`', '$', '\\']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('\\') {
            // An escape, `\$` included, is markdown's to read.
            let n = rest[1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&rest[..1 + n]);
            rest = &rest[1 + n..];
        } else if rest.starts_with('`') {
            // A code span as CommonMark closes it: as many backticks.
            let n = run(rest, '`');
            let ticks = &rest[..n];
            let end = rest[n..]
                .match_indices(ticks)
                .find(|(j, _)| run(&rest[n + j..], '`') == n)
                .map_or(n, |(j, _)| n + j + n);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if let Some(r) = rest.strip_prefix("$$") {
            match r.find("$$") {
                Some(j) => {
                    display(r[..j].trim(), out);
                    rest = &r[j + 2..];
                }
                None => {
                    out.push_str("$$");
                    rest = r;
                }
            }
        } else {
            let r = &rest[1..];
            let end = r
                .find(['$', '\n'])
                .filter(|&j| j > 0 && r[j..].starts_with('$'));
            match end {
                Some(j) if !r[..j].ends_with('\\') => {
                    inline(&r[..j], out);
                    rest = &r[j + 1..];
                }
                _ => {
                    out.push('$');
                    rest = r;
                }
            }
        }
    }
    out.push_str(rest);
}

fn inline(tex: &str, out: &mut String) {
    let ticks = "`".repeat(longest_run(tex) + 1);
    let pad = if tex.starts_with('`') || tex.ends_with('`') {
        " "
    } else {
        ""
    };
    out.push_str(&format!("{ticks}{pad}{tex}{pad}{ticks}"));
}

fn display(tex: &str, out: &mut String) {
    let fence = "`".repeat(longest_run(tex).max(2) + 1);
    out.push_str(&format!("\n\n{fence}{MARK}\n{tex}\n{fence}\n\n"));
}

fn longest_run(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Each display of math in `blocks` labelled as math.
pub fn label(blocks: &mut [Block]) {
    super::code_blocks(blocks, &mut |c| {
        if c.lang.as_deref() == Some(MARK) {
            c.lang = Some("latex".to_string());
            c.label = Some(LABEL.to_string());
        }
    });
}
