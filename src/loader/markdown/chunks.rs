//! A long markdown body in bounded pieces. pulldown-cmark builds a tree of
//! a whole text's blocks before its first event (about 11 bytes per byte
//! of prose, 33 of a table's rows): cut where no block can span the cut,
//! each piece costs what the piece holds, and what the body holds costs
//! only the model.
//!
//! A cut is made only at the start of a line that no open block can
//! continue: after a blank line, at the first column, not a list item's
//! marker (a loose list goes on after a blank line), outside a fence and
//! outside an HTML block that blank lines do not end (a comment, `<pre>`,
//! `<script>`, `<style>`, `<textarea>`, `<?`, `<!`). A table is cut
//! between two rows: the piece after the cut starts with the table's
//! header and delimiter again, and the builder adds its rows to the table
//! before (see [`Piece::continues_table`]).

use std::borrow::Cow;

/// Pieces are cut at the first safe line past this many bytes.
pub(super) const PIECE: usize = 16 * 1024;

pub(super) struct Piece<'a> {
    pub(super) text: Cow<'a, str>,
    /// The piece starts with the header of the table the piece before
    /// ended in, repeated; its rows belong to that table.
    pub(super) continues_table: bool,
}

/// The pieces of `text`, each at least `size` bytes but the last.
pub(super) struct Pieces<'a> {
    text: &'a str,
    at: usize,
    size: usize,
    /// The header and delimiter lines of a table cut in two, for the
    /// piece that goes on with its rows.
    carry: Option<&'a str>,
}

pub(super) fn pieces(text: &str, size: usize) -> Pieces<'_> {
    Pieces {
        text,
        at: 0,
        size,
        carry: None,
    }
}

/// What the lines read so far leave open.
#[derive(Default)]
struct Scan<'a> {
    /// A fence's character and length.
    fence: Option<(u8, usize)>,
    /// What ends the raw HTML block open, lower case.
    html: Option<&'static str>,
    /// The header and delimiter lines of the table whose rows these are.
    table: Option<&'a str>,
    blank: bool,
    /// The line before, when it could be a table's header (it starts a
    /// block with `|`).
    header: Option<(usize, &'a str)>,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            return None;
        }
        let head = self.carry.take();
        let mut scan = Scan {
            // The piece starts as a block does: after a blank line, or
            // in the rows of a table.
            blank: true,
            table: head,
            ..Scan::default()
        };
        let mut cut = rest.len();
        let mut line_start = 0;
        for line in rest.split_inclusive('\n') {
            if line_start >= self.size {
                let row = scan.table.is_some() && line.starts_with('|');
                if row || scan.can_cut(line) {
                    cut = line_start;
                    self.carry = scan.table.filter(|_| row);
                    break;
                }
            }
            scan.read(self.text, self.at + line_start, line);
            line_start += line.len();
        }
        let piece = &rest[..cut];
        self.at += cut;
        let text = match head {
            Some(head) => Cow::Owned(format!("{head}{piece}")),
            None => Cow::Borrowed(piece),
        };
        Some(Piece {
            text,
            continues_table: head.is_some(),
        })
    }
}

impl<'a> Scan<'a> {
    fn can_cut(&self, line: &str) -> bool {
        let first = line.as_bytes().first().copied().unwrap_or(b' ');
        self.blank
            && self.fence.is_none()
            && self.html.is_none()
            && !first.is_ascii_whitespace()
            && !first.is_ascii_digit()
            && !matches!(first, b'-' | b'*' | b'+' | b'|')
    }

    /// Takes in one line (`line` starts at byte `at` of `text`).
    fn read(&mut self, text: &'a str, at: usize, line: &'a str) {
        let trimmed = line.trim_start();
        if let Some((c, n)) = self.fence {
            let run = trimmed.bytes().take_while(|&b| b == c).count();
            if run >= n && trimmed[run..].trim().is_empty() {
                self.fence = None;
            }
            return;
        }
        if let Some(end) = self.html {
            if line.to_ascii_lowercase().contains(end) {
                self.html = None;
            }
            self.blank = false;
            return;
        }
        let was_blank = self.blank;
        self.blank = trimmed.is_empty();
        let header = self.header.take();
        if self.blank {
            self.table = None;
            return;
        }
        if self.table.is_some() && line.starts_with('|') {
            return;
        }
        self.table = None;
        if let Some(c) = fence_open(trimmed) {
            self.fence = Some(c);
            return;
        }
        if let Some(end) = html_open(trimmed) {
            self.html = Some(end);
            return;
        }
        if let Some((start, head)) = header {
            if delimiter_cells(line) == Some(cells(head)) {
                self.table = Some(&text[start..at + line.len()]);
                return;
            }
        }
        if was_blank && plain_header(line) {
            self.header = Some((at, line));
        }
    }
}

/// A fence's character and length, when `trimmed` opens one.
fn fence_open(trimmed: &str) -> Option<(u8, usize)> {
    let c = *trimmed.as_bytes().first()?;
    let n = trimmed.bytes().take_while(|&b| b == c).count();
    (matches!(c, b'`' | b'~') && n >= 3).then_some((c, n))
}

/// What ends an HTML block that blank lines do not end, when `trimmed`
/// opens one whose end is not on the same line.
fn html_open(trimmed: &str) -> Option<&'static str> {
    let lower = trimmed.get(..trimmed.len().min(12))?.to_ascii_lowercase();
    let end = [
        ("<!--", "-->"),
        ("<pre", "</pre>"),
        ("<script", "</script>"),
        ("<style", "</style>"),
        ("<textarea", "</textarea>"),
        ("<?", "?>"),
        ("<!", ">"),
    ]
    .into_iter()
    .find(|(open, _)| lower.starts_with(open))?
    .1;
    let after = &trimmed.to_ascii_lowercase()[2..];
    (!after.contains(end)).then_some(end)
}

/// A line that can be a table's header here: it starts with `|`, and
/// holds nothing (a backslash, a backtick) that makes its cells harder
/// to count than by its pipes.
fn plain_header(line: &str) -> bool {
    line.starts_with('|') && !line.contains(['\\', '`'])
}

fn cells(header: &str) -> usize {
    let inner = header.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').count()
}

/// The number of cells of a table's delimiter row (`|:-|--:|`).
fn delimiter_cells(line: &str) -> Option<usize> {
    let t = line.trim();
    if !t.starts_with('|') {
        return None;
    }
    let inner = t.trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut n = 0;
    for cell in inner.split('|') {
        let c = cell.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        if c.is_empty() || !c.bytes().all(|b| b == b'-') {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// Reference definitions (`[label]: url "title"`) by their label, cased
/// and spaced as labels match.
pub(super) type Definitions = std::collections::HashMap<String, (String, String)>;

/// Every piece's reference definitions, the first of a label winning as
/// in one text: read by a first pass of the pieces, each tree dropped
/// before the next is built.
pub(super) fn definitions(
    text: &str,
    size: usize,
    options: pulldown_cmark::Options,
) -> Definitions {
    let mut defs = Definitions::new();
    for piece in pieces(text, size) {
        let parser = pulldown_cmark::Parser::new_ext(&piece.text, options);
        for (label, def) in parser.reference_definitions().iter() {
            let title = def.title.as_deref().unwrap_or("");
            defs.entry(label_key(label))
                .or_insert_with(|| (def.dest.to_string(), title.to_string()));
        }
    }
    defs
}

/// The definition of a reference its own piece does not define.
pub(super) fn lookup<'a>(
    defs: &Definitions,
    label: &str,
) -> Option<(pulldown_cmark::CowStr<'a>, pulldown_cmark::CowStr<'a>)> {
    let (dest, title) = defs.get(&label_key(label))?;
    Some((dest.clone().into(), title.clone().into()))
}

fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::super::parse_in;
    use super::*;

    /// Blocks that blank lines do not end, tables, loose lists, and
    /// references defined after their use.
    const HOSTILE: &str = "\
Intro [a link][later] and [Later].

```text
fenced

not a cut
```

~~~~
``` still fenced

~~~~

<!-- a comment

still the comment -->

<pre>
pre

text
</pre>

- loose

- list

1. one

2. two

> quote

> another

|h|i|
|-|:-:|
|1|2|
|3|`4`|
|5|*6*|
| 7 | 8 |

|not|a|table|
|-|-|

|x|y|
|-|-|
|a|b|
after the table

| lone |

    indented

    code

[later]: http://later.example \"Title\"
";

    fn corpus() -> Vec<String> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        let mut texts = vec![HOSTILE.to_string()];
        let mut dirs = vec![std::path::PathBuf::from(root)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    texts.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        let all = texts.join("\n\n");
        texts.push(all);
        texts.retain(|t| !t.contains("[^"));
        texts
    }

    #[test]
    fn pieces_read_as_the_whole_text_reads() {
        for text in corpus() {
            let whole = parse_in(&text, usize::MAX);
            for size in [1, 40, 300] {
                assert_eq!(parse_in(&text, size), whole, "pieces of {size}:\n{text}");
            }
        }
    }

    #[test]
    fn long_texts_are_cut_and_tables_go_on() {
        let n = pieces(HOSTILE, 1).count();
        assert!(n >= 10, "{n} pieces");
        let table = format!("|a|b|\n|-|-|\n{}", "|1|2|\n".repeat(10_000));
        let cut: Vec<Piece> = pieces(&table, 1000).collect();
        assert!(cut.len() > 40, "{} pieces", cut.len());
        assert!(cut[1..].iter().all(|p| p.continues_table));
        assert!(cut[1].text.starts_with("|a|b|\n|-|-|\n|1|2|\n"));
        assert!(cut.iter().all(|p| p.text.len() < 1100));
        let blocks = parse_in(&table, 1000);
        assert_eq!(blocks, parse_in(&table, usize::MAX));
        assert_eq!(blocks.len(), 1);
    }
}
