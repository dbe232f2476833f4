//! A long markdown body in bounded pieces. pulldown-cmark builds a tree of
//! a whole text's blocks before its first event (about 11 bytes per byte
//! of prose, 33 of a table's rows): cut where one top-level block ends
//! and the next begins, each piece costs what the piece holds, and what
//! the body holds costs only the model.
//!
//! Where blocks begin is pulldown-cmark's to say, not a scan's guess (a
//! fence, an HTML block, a loose list each decide it their own way): a
//! window of the text ahead is parsed, and the piece ends at the last
//! top-level block it starts past the piece's size after a blank line,
//! but for the window's last block (the window may end inside it). Where
//! such a block begins depends only on the text before it, so the
//! window's answer is the whole text's, and its events up to the cut are
//! the piece's: each byte is parsed about once. A table too long for one
//! piece is cut between two rows: the piece after the cut starts with the
//! table's header and delimiter again, and the builder adds its rows to
//! the table before (see [`each_event`]).

use pulldown_cmark::{Event, Options, Parser, Tag};
use std::borrow::Cow;
use std::ops::Range;

/// Pieces are cut at the last block between this many bytes and twice
/// as many (the window): a window's tree and events are what reading
/// costs (about 100 bytes an event, a table's row has eight), so windows
/// are small; each costs a parser's set-up, little beside a parse.
pub(super) const PIECE: usize = 2 * 1024;

/// A body under this is read whole, as it always was.
pub(super) const WHOLE_BELOW: usize = 64 * 1024;

/// The pieces of `text`, each at least `size` bytes but the last, as
/// [`each_event`] reads them (a piece that goes on with a table starts
/// with its header again): for the reference definitions they hold.
pub(super) struct Pieces<'a> {
    text: &'a str,
    at: usize,
    size: usize,
    options: Options,
    /// The header and delimiter lines of a table cut in two, for the
    /// piece that goes on with its rows.
    carry: Option<String>,
}

pub(super) fn pieces(text: &str, size: usize, options: Options) -> Pieces<'_> {
    Pieces {
        text,
        at: 0,
        size,
        options,
        carry: None,
    }
}

/// Where a window says the piece may end.
/// Offsets in a window, each with the place of its event.
type Places = Vec<(usize, usize)>;

/// Each with the place of the event it comes before.
enum Cut {
    /// Before a top-level block.
    Block(usize, usize),
    /// Before a row of a table whose header and delimiter are these.
    Row(usize, String, usize),
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            return None;
        }
        let head = self.carry.take();
        let mut window = self.size.saturating_mul(2);
        let (end, carry) = loop {
            if window >= rest.len() {
                break (rest.len(), None);
            }
            // The window ends at a line's end.
            let w = rest.as_bytes()[window..].iter().position(|&b| b == b'\n');
            let w = w.map_or(rest.len(), |i| window + i + 1);
            let head = head.as_deref().unwrap_or("");
            let text = format!("{head}{}", &rest[..w]);
            let events: Vec<_> = Parser::new_ext(&text, self.options)
                .into_offset_iter()
                .collect();
            match cut(&events, &text, head.len(), self.size) {
                Some(Cut::Block(at, _)) => break (at, None),
                Some(Cut::Row(at, header, _)) => break (at, Some(header)),
                // One block fills the window: a wider one (each twice
                // the last, so the text is parsed a bounded number of
                // times over).
                None => window = window.saturating_mul(2),
            }
        };
        self.at += end;
        self.carry = carry;
        let piece = &rest[..end];
        Some(match head {
            Some(head) => Cow::Owned(head + piece),
            None => Cow::Borrowed(piece),
        })
    }
}

/// Calls `each` with the events of `text` read in pieces of about `size`
/// bytes, each piece's events read once: those of a window up to the
/// cut, in order (a block's end event has its start's offset, so a block
/// before the cut comes whole). The flag says the event opens a piece
/// that goes on with the table before.
pub(super) fn each_event(
    text: &str,
    size: usize,
    options: Options,
    defs: &Definitions,
    mut each: impl FnMut(Event<'_>, bool),
) {
    let mut at = 0;
    let mut head = String::new();
    while at < text.len() {
        let rest = &text[at..];
        let mut window = size.saturating_mul(2);
        loop {
            let w = match window >= rest.len() {
                true => rest.len(),
                false => rest.as_bytes()[window..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(rest.len(), |i| window + i + 1),
            };
            let read = format!("{head}{}", &rest[..w]);
            let found = |link: pulldown_cmark::BrokenLink| lookup(defs, &link.reference);
            let parser = Parser::new_with_broken_link_callback(&read, options, Some(found));
            let events: Vec<_> = parser.into_offset_iter().collect();
            let cut = match w == rest.len() {
                true => Some(Cut::Block(w, events.len())),
                false => cut(&events, &read, head.len(), size),
            };
            // One block fills the window: a wider one (each twice the
            // last, so the text is parsed a bounded number of times).
            let Some(cut) = cut else {
                window = window.saturating_mul(2);
                continue;
            };
            let goes_on = !head.is_empty();
            let (end, carry, upto, row) = match cut {
                Cut::Block(end, i) => (end, String::new(), i, false),
                Cut::Row(end, header, i) => (end, header, i, true),
            };
            let mut kept = events
                .into_iter()
                .take(upto)
                .map(|(e, _)| as_in_whole(e, defs));
            if let Some(first) = kept.next() {
                each(first, goes_on);
            }
            kept.for_each(|e| each(e, false));
            // A table cut between rows ends here, and goes on in the next.
            if row {
                each(Event::End(pulldown_cmark::TagEnd::Table), false);
            }
            at += end;
            head = carry;
            break;
        }
    }
}

/// Where in `text` (a window of the body after `head` bytes, the header
/// a table goes on with) the piece may end at `size` bytes or more, as
/// an offset in the window.
fn cut(events: &[(Event, Range<usize>)], text: &str, head: usize, size: usize) -> Option<Cut> {
    let mut depth = 0usize;
    // Top-level blocks' starts and their events' places; the last
    // table's start, its first row's, and its rows' with their places.
    let mut blocks: Places = Vec::new();
    let mut table: Option<(usize, Option<usize>, Places)> = None;
    for (i, (event, range)) in events.iter().enumerate() {
        if depth == 0 {
            blocks.push((range.start, i));
        }
        match event {
            Event::Start(Tag::Table(_)) if depth == 0 => {
                table = Some((range.start, None, Vec::new()))
            }
            Event::Start(Tag::TableRow) if depth == 1 => {
                if let Some((_, first, rows)) = &mut table {
                    first.get_or_insert(range.start);
                    rows.push((range.start, i));
                }
            }
            Event::Start(_) if depth == 0 => table = None,
            _ => {}
        }
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    // Offsets in the window of the lines blocks and rows start on (a
    // block's range starts past its indent), past the piece's size; not
    // the last block or row, which the window may have cut short.
    let line_of = |at: usize| {
        let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = text[line..at].trim().is_empty();
        line.checked_sub(head).filter(|&a| a >= size && indent)
    };
    // A block's line must follow a blank one, after which nothing before
    // can go on: a block right after a link definition, say, starts in
    // what began as a paragraph, and alone would read otherwise.
    let usable = |&(at, i): &(usize, usize)| {
        let line = line_of(at)? + head;
        let before = text[..line - 1].rfind('\n').map_or(0, |i| i + 1);
        let blank = text[before..line].trim().is_empty();
        blank.then_some((line - head, i))
    };
    let but_last = |v: &[(usize, usize)]| v.len().checked_sub(1).map(|n| v[..n].to_vec());
    if let Some((at, i)) = but_last(&blocks)?.iter().filter_map(usable).next_back() {
        return Some(Cut::Block(at, i));
    }
    let (start, first, rows) = table?;
    let (row, i) = but_last(&rows)?
        .iter()
        .filter_map(|&(r, i)| Some((line_of(r)?, i)))
        .next_back()?;
    Some(Cut::Row(row, text[start..first?].to_string(), i))
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
    for piece in pieces(text, size, options) {
        let parser = pulldown_cmark::Parser::new_ext(&piece, options);
        for (label, def) in parser.reference_definitions().iter() {
            let title = def.title.as_deref().unwrap_or("");
            defs.entry(label_key(label))
                .or_insert_with(|| (def.dest.to_string(), title.to_string()));
        }
    }
    defs
}

/// A reference link or image with the target the whole text gives it:
/// its label's first definition, which a later piece's own definition of
/// the label must not replace.
fn as_in_whole<'e>(mut event: Event<'e>, defs: &Definitions) -> Event<'e> {
    use pulldown_cmark::LinkType::{
        Collapsed, CollapsedUnknown, Reference, ReferenceUnknown, Shortcut, ShortcutUnknown,
    };
    let first = |link_type, id: &str| match link_type {
        Reference | ReferenceUnknown | Collapsed | CollapsedUnknown | Shortcut
        | ShortcutUnknown => defs.get(&label_key(id)),
        _ => None,
    };
    if let Event::Start(
        Tag::Link {
            link_type,
            id,
            dest_url,
            title,
        }
        | Tag::Image {
            link_type,
            id,
            dest_url,
            title,
        },
    ) = &mut event
        && let Some((d, t)) = first(*link_type, id)
    {
        *dest_url = d.clone().into();
        *title = t.clone().into();
    }
    event
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

a | b
--|:-:
c | d
e | f
- a list
g | h

k | l
--|--
m | n
o | p
1 | 2
q | r

 x | y
---|---
z | w

a|b
-|-|-
one | two

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

    /// Lines that open, go on with or end blocks, in any order.
    const LINES: &[&str] = &[
        "  - nested",
        "\t tab",
        "***",
        "| a | b |",
        "|:-|-:|",
        "<textarea>",
        "</textarea>",
        "<style>",
        "</style>",
        "<![CDATA[",
        "]]>",
        "  [ref]: /u \"t\"",
        "\"title\"",
        "> > deep",
        "1) paren",
        "- [ ] task",
        "<Listing number=\"1\">",
        "</Listing>",
        "a  ",
        "![img](x.png)",
        "",
        "",
        "",
        "text",
        "more text with *style",
        "and | a pipe",
        "|a|b|",
        "|-|-|",
        "|1|2|",
        "|-|",
        "a | b",
        "--|--",
        "x | y",
        "1 | 2",
        "- item",
        "* item",
        "1. one",
        "  indented",
        "    code",
        "> quote",
        "# heading",
        "===",
        "---",
        "```",
        "~~~",
        "````",
        "<!-- open",
        "close -->",
        "<pre>",
        "</pre>",
        "<div>",
        "</div>",
        "<?php",
        "?>",
        "[ref]: http://r.example",
        "see [ref] and [Ref][ref]",
        "`code | span`",
        "\\| escaped",
        "<script>",
        "</script>",
        "<!DOCTYPE x",
        ">",
        "+ plus",
        "| lone",
        "b|c",
    ];

    proptest::proptest! {
        #[test]
        fn any_text_reads_the_same_in_pieces(picks in proptest::collection::vec(0..LINES.len(), 0..80)) {
            let text: String = picks.iter().map(|&i| format!("{}\n", LINES[i])).collect();
            let whole = parse_in(&text, usize::MAX);
            for size in [1, 7, 60] {
                proptest::prop_assert_eq!(&parse_in(&text, size), &whole, "pieces of {}:\n{}", size, text);
            }
        }
    }

    /// Texts the property test found a line scan cutting wrongly: an
    /// HTML block that blank lines do not end, opened inside one they
    /// do; a cut past an indent; a block after a link definition.
    #[test]
    fn texts_a_scan_cut_wrongly_read_the_same() {
        for text in [
            "\n\n</pre>\n<!-- open\n\n<script>\nclose -->\ntext\n\ntext\n",
            "x\n\n    code\n\n- item\n",
            "\n\n\n~~~\n~~~\n[ref]: http://r.example\n</pre>\ntext\n> quote\n",
            // A label defined again in a later piece: the first wins.
            "[ref]: /u\n\ntext\n\n- [ref]: http://r.example\n\n  see [ref] and ![i][ref]\n",
        ] {
            for size in [1, 3, 7] {
                assert_eq!(parse_in(text, size), parse_in(text, usize::MAX), "{text}");
            }
        }
    }

    #[test]
    fn tables_without_outer_pipes_are_cut_too() {
        let table = format!("a | b\n--|--\n{}", "x | 2\n".repeat(1_000));
        let cut: Vec<Cow<str>> = pieces(&table, 500, crate::loader::markdown::options()).collect();
        assert!(cut.len() > 5 && cut[1..].iter().all(|p| p.starts_with("a | b\n--|--\n")));
        assert_eq!(parse_in(&table, 500), parse_in(&table, usize::MAX));
    }

    #[test]
    fn long_texts_are_cut_and_tables_go_on() {
        let n = pieces(HOSTILE, 1, crate::loader::markdown::options()).count();
        assert!(n >= 10, "{n} pieces");
        let table = format!("|a|b|\n|-|-|\n{}", "|1|2|\n".repeat(10_000));
        let cut: Vec<Cow<str>> = pieces(&table, 1000, crate::loader::markdown::options()).collect();
        // Each piece at least the size asked for, at most the window's.
        assert!(cut.len() > 25, "{} pieces", cut.len());
        assert!(
            cut[1..]
                .iter()
                .all(|p| p.starts_with("|a|b|\n|-|-|\n|1|2|\n"))
        );
        assert!(cut.iter().all(|p| p.len() < 2_100));
        let blocks = parse_in(&table, 1000);
        assert_eq!(blocks, parse_in(&table, usize::MAX));
        assert_eq!(blocks.len(), 1);
    }
}
