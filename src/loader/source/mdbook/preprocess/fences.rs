//! A chapter's text cut into prose and fenced code, as CommonMark fences
//! it (three or more backticks or tildes, closed by as many or more of the
//! same and nothing else), so a preprocessor rewrites only what it owns:
//! a fence by its info string, prose without touching the code in it.

/// A piece of a chapter's text.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Lines outside any fence, newlines kept.
    Prose(&'a str),
    Fence(Fence<'a>),
}

/// A fenced block, whole.
#[derive(Debug, PartialEq, Eq)]
pub struct Fence<'a> {
    /// The white space before the opening fence.
    pub indent: &'a str,
    /// What follows the fence characters on its first line, trimmed.
    pub info: &'a str,
    /// The lines between the fences, newlines kept.
    pub body: &'a str,
    /// All of it as written, fences and all.
    pub raw: &'a str,
}

/// The opening fence `line` is (its characters and info), if any.
fn opening(line: &str) -> Option<(&str, &str, &str)> {
    let t = line.trim_start();
    let indent = &line[..line.len() - t.len()];
    let c = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.len() - t.trim_start_matches(c).len();
    let info = t[n..].trim();
    // A backtick fence's info may not hold a backtick (it is inline code).
    (n >= 3 && !(c == '`' && info.contains('`'))).then(|| (indent, &t[..n], info))
}

fn closes(line: &str, fence: &str) -> bool {
    let t = line.trim();
    let c = fence.chars().next();
    t.len() >= fence.len() && t.chars().all(|x| Some(x) == c)
}

/// `text` as prose and fences, in order; an unclosed fence runs to the end.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut prose = 0;
    let mut at = 0;
    let mut open: Option<(usize, usize, &str, &str, &str)> = None;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        match open {
            None => {
                if let Some((indent, fence, info)) = opening(line) {
                    if prose < start {
                        out.push(Piece::Prose(&text[prose..start]));
                    }
                    open = Some((start, at, indent, fence, info));
                }
            }
            Some((from, body, indent, fence, info)) if closes(line, fence) => {
                out.push(Piece::Fence(Fence {
                    indent,
                    info,
                    body: &text[body..start],
                    raw: &text[from..at],
                }));
                open = None;
                prose = at;
            }
            Some(_) => {}
        }
    }
    match open {
        Some((from, body, indent, _, info)) => out.push(Piece::Fence(Fence {
            indent,
            info,
            body: &text[body..],
            raw: &text[from..],
        })),
        None if prose < text.len() => out.push(Piece::Prose(&text[prose..])),
        None => {}
    }
    out
}

/// Each line of `body` without the first `indent.len()` columns of white
/// space, as CommonMark takes a fence's indent off its lines.
pub fn dedent<'a>(body: &'a str, indent: &str) -> impl Iterator<Item = &'a str> + 'a {
    let n = indent.len();
    body.lines().map(move |l| {
        let spaces = l.len() - l.trim_start().len();
        &l[spaces.min(n)..]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_and_fences_in_order() {
        let text = "a\n```rust\nx\n```\nb\n  ~~~~ admonish note\n  y\n  ~~~~\n````\nz";
        let got = pieces(text);
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0], Piece::Prose("a\n"));
        let Piece::Fence(f) = &got[1] else { panic!() };
        assert_eq!(
            (f.info, f.body, f.raw),
            ("rust", "x\n", "```rust\nx\n```\n")
        );
        let Piece::Fence(f) = &got[3] else { panic!() };
        assert_eq!((f.indent, f.info, f.body), ("  ", "admonish note", "  y\n"));
        assert_eq!(dedent(f.body, f.indent).collect::<Vec<_>>(), ["y"]);
        let Piece::Fence(f) = &got[4] else { panic!() };
        assert_eq!(f.body, "z", "an unclosed fence runs to the end");
        assert_eq!(pieces("``` a`b\n"), [Piece::Prose("``` a`b\n")]);
    }
}
