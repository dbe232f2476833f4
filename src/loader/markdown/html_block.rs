//! HTML blocks as the model's blocks: a `<pre>` as code, a `<Listing>`'s
//! file name and caption, `<hr>` as a rule, `<blockquote>` as a quote and
//! a table whose cells hold only text as a table. The rest goes through
//! the inline pass, as styles and lines.

use super::super::html::{self, Known, Piece};
use super::super::sanitize::{clean, clean_owned};
use super::inline::Inline;
use super::{Builder, Frame};
use crate::model::{Block, Fold, Run, Table};

/// An HTML table being read: its rows of cells so far. The open cell's
/// text is the builder's inline text.
#[derive(Default)]
pub(super) struct HtmlTable {
    rows: Vec<Vec<Vec<Run>>>,
    in_cell: bool,
}

/// HTML, through the safe pass: in a block, its lines stay lines, and a
/// `<pre>` is preformatted text, shown as a code block (its spaces and
/// lines as they are; tags inside it, `<code>` or `<em>`, only dropped).
pub(super) fn html_event(b: &mut Builder, t: &str, block: bool) {
    let mut pieces = Vec::new();
    html::pass(t, &mut b.skip, &mut pieces);
    for p in pieces {
        piece(b, p, block);
    }
}

fn piece(b: &mut Builder, p: Piece, block: bool) {
    if let Some(pre) = &mut b.pre {
        match p {
            // Decoded entities are cleaned like any code.
            Piece::Text(s) => pre.push_str(&clean(&s)),
            Piece::Newline => pre.push('\n'),
            Piece::Close(Known::Pre) => end_pre(b),
            _ => {}
        }
        return;
    }
    if !block {
        return b.inline().html(p, false);
    }
    if b.html_table.is_some() {
        return table_piece(b, p);
    }
    match p {
        Piece::Open(Known::Pre, _) => {
            b.flush();
            b.pre = Some(String::new());
        }
        Piece::Listing(l) => open_listing(b, l),
        Piece::Close(Known::Listing) => {
            b.flush();
            if let Some(caption) = b.listings.pop().filter(|c| !c.is_empty()) {
                b.top().push(Block::Paragraph(caption));
            }
        }
        Piece::Open(Known::Hr, _) => {
            b.flush();
            b.top().push(Block::Rule);
        }
        Piece::Open(Known::Quote | Known::Details, _) => {
            b.open(Frame::Quote(Vec::new()));
            b.html_quotes += 1;
        }
        // Only a quote this pass opened is closed by its tag: a stray
        // `</blockquote>` must not end a markdown container.
        Piece::Close(k @ (Known::Quote | Known::Details))
            if b.html_quotes > 0 && matches!(b.stack.last(), Some(Frame::Quote(_))) =>
        {
            b.html_quotes -= 1;
            b.close();
            if k == Known::Details {
                fold_last(b.top());
            }
        }
        Piece::Open(Known::Table, _) => {
            b.flush();
            b.html_table = Some(HtmlTable::default());
        }
        p => b.inline().html(p, true),
    }
}

/// The quote a `details` was read as, made a fold: its summary line (the
/// inline pass starts it with [`SUMMARY`]) becomes the fold's, what
/// follows it its body. One without a summary is a book's speaker notes.
fn fold_last(blocks: &mut [Block]) {
    let Some(last) = blocks.last_mut() else {
        return;
    };
    let Block::Quote(inner) = last else { return };
    let mut body = std::mem::take(inner);
    let summary = match body.first_mut() {
        Some(Block::Paragraph(runs))
            if runs.first().is_some_and(|r| r.text.starts_with(SUMMARY)) =>
        {
            let (summary, rest) = split_summary(std::mem::take(runs));
            match rest {
                Some(rest) => body[0] = Block::Paragraph(rest),
                None => drop(body.remove(0)),
            }
            summary
        }
        _ => Vec::new(),
    };
    let notes = summary.is_empty();
    *last = Block::Fold(Box::new(Fold {
        summary,
        notes,
        body,
    }));
}

/// A paragraph led by a summary: the summary's runs (up to the line break
/// the summary's end made) and what came after it on that paragraph.
fn split_summary(mut runs: Vec<Run>) -> (Vec<Run>, Option<Vec<Run>>) {
    runs[0].text = runs[0].text[SUMMARY.len()..].into();
    let Some(at) = runs.iter().position(|r| r.text.contains('\n')) else {
        return (runs, None);
    };
    let mut rest = runs.split_off(at);
    let text = rest[0].text.clone();
    let (head, tail) = text.split_once('\n').unwrap_or((&text, ""));
    if !head.is_empty() {
        runs.push(Run {
            text: head.into(),
            ..rest[0].clone()
        });
    }
    rest[0].text = tail.trim_start().into();
    rest.retain(|r| !r.text.is_empty());
    runs.retain(|r| !r.text.trim().is_empty());
    (runs, (!rest.is_empty()).then_some(rest))
}

/// What the inline pass starts a summary's line with.
pub(super) const SUMMARY: &str = "▸ ";

/// A piece inside an HTML table: rows and cells are collected, what a
/// cell holds is its inline text, and the rest (whitespace between cells)
/// is not shown.
fn table_piece(b: &mut Builder, p: Piece) {
    let in_cell = b.html_table.as_ref().is_some_and(|t| t.in_cell);
    match p {
        Piece::Open(Known::Row, _) => {
            end_cell(b);
            if let Some(t) = &mut b.html_table {
                t.rows.push(Vec::new());
            }
        }
        Piece::Close(Known::Row | Known::Cell | Known::HeadCell) => end_cell(b),
        Piece::Open(k @ (Known::Cell | Known::HeadCell), _) => {
            end_cell(b);
            open_cell(b);
            if k == Known::HeadCell {
                b.inline().bold += 1;
            }
        }
        Piece::Close(Known::Table) => end_table(b),
        Piece::Text(s) if !in_cell && s.trim().is_empty() => {}
        Piece::Newline if !in_cell => {}
        p => {
            // Text outside any cell is a cell of its own, as shown.
            if !in_cell {
                open_cell(b);
            }
            b.inline().html(p, false);
        }
    }
}

fn open_cell(b: &mut Builder) {
    b.inline = Some(Inline::default());
    if let Some(t) = &mut b.html_table {
        t.in_cell = true;
    }
}

fn end_cell(b: &mut Builder) {
    let Some(t) = b.html_table.as_mut().filter(|t| t.in_cell) else {
        return;
    };
    t.in_cell = false;
    let runs = b.inline.take().map(Inline::finish).unwrap_or_default();
    if t.rows.is_empty() {
        t.rows.push(Vec::new());
    }
    if let Some(row) = t.rows.last_mut() {
        row.push(runs);
    }
}

/// The table as a table, its first row the header.
fn end_table(b: &mut Builder) {
    end_cell(b);
    let Some(t) = b.html_table.take() else { return };
    let rows: Vec<_> = t.rows.into_iter().filter(|r| !r.is_empty()).collect();
    if !rows.is_empty() {
        b.top().push(Block::Table(Box::new(Table::from_rows(rows))));
    }
}

/// An HTML block ends: a `<pre>` it never closed ends with it, and a
/// table still open is cut by markdown (a blank line, a list in a cell),
/// so it is no simple table: what it held so far is shown as paragraphs
/// and the rest of its tags as lines.
pub(super) fn end_block(b: &mut Builder) {
    end_pre(b);
    end_cell(b);
    if let Some(t) = b.html_table.take() {
        for cell in t.rows.into_iter().flatten().filter(|c| !c.is_empty()) {
            b.top().push(Block::Paragraph(cell));
        }
    }
    b.flush();
}

/// A `<Listing>` shows its file name where it opens, as the Rust book
/// does, and keeps its caption (`Listing 15-14: …`) for where it closes.
fn open_listing(b: &mut Builder, l: html::Listing) {
    b.flush();
    let italic = |text: String| Run {
        text: text.into(),
        italic: true,
        ..Run::default()
    };
    if let Some(file) = l
        .file
        .map(|f| clean_owned(f.trim()))
        .filter(|f| !f.is_empty())
    {
        b.top()
            .push(Block::Paragraph(vec![italic(format!("Filename: {file}"))]));
    }
    let mut caption = Vec::new();
    if let Some(n) = l
        .number
        .map(|n| clean_owned(n.trim()))
        .filter(|n| !n.is_empty())
    {
        caption.push(Run {
            text: format!("Listing {n}").into(),
            bold: true,
            italic: true,
            ..Run::default()
        });
    }
    if let Some(text) = l.caption.filter(|c| !c.trim().is_empty()) {
        if !caption.is_empty() {
            caption.push(italic(": ".into()));
        }
        // A caption is markdown (`code`); one holding a tag is shown as
        // text, so a caption cannot nest listings without end.
        let runs = if text.contains('<') {
            vec![Run::plain(clean_owned(&text))]
        } else {
            super::inline(&text)
        };
        caption.extend(runs.into_iter().map(|r| Run { italic: true, ..r }));
    }
    b.listings.push(caption);
}

/// Ends an HTML block's `<pre>`, if one is open, as a code block.
fn end_pre(b: &mut Builder) {
    let Some(text) = b.pre.take() else { return };
    let text = text.strip_prefix('\n').unwrap_or(&text).trim_end();
    if text.trim().is_empty() {
        return;
    }
    b.top().push(Block::code(crate::model::CodeBlock {
        lang: None,
        label: None,
        text: text.to_string(),
        badges: Vec::new(),
        numbered: false,
        marks: Vec::new(),
    }));
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use crate::model::{Block, Lesson};

    fn text(blocks: &[Block]) -> String {
        blocks
            .iter()
            .map(Lesson::block_text)
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn a_table_in_one_block_is_a_table() {
        let blocks = parse(
            "<table>\n<tr><th>k</th><th>v</th></tr>\n<tr><td>a <b>b</b></td><td>c</td></tr>\n</table>\n",
        );
        let [Block::Table(t)] = blocks.as_slice() else {
            panic!("{blocks:?}")
        };
        assert_eq!(t.header().len(), 2);
        let row = t.rows().next().unwrap();
        assert_eq!(row.get(0).unwrap().text(), "a b");
        assert!(
            row.get(0)
                .unwrap()
                .runs()
                .iter()
                .any(|r| r.bold && r.text == "b")
        );
    }

    #[test]
    fn a_table_cut_by_markdown_is_its_content() {
        let blocks = parse(
            "<table>\n<tr>\n<td>\n\n- one\n- two\n\n</td>\n<td>x</td>\n</tr>\n</table>\n\nafter\n",
        );
        let all = text(&blocks);
        assert!(matches!(blocks[0], Block::List { .. }), "{blocks:?}");
        assert!(!all.contains('<'), "{all}");
        assert!(all.contains('x') && all.ends_with("after"), "{all}");
    }

    #[test]
    fn rules_quotes_and_boxes() {
        let blocks = parse(
            "<hr>\n\n<blockquote><p>said <mark>this</mark></p></blockquote>\n\n- <input type=\"checkbox\" checked> done\n",
        );
        assert_eq!(blocks[0], Block::Rule);
        let Block::Quote(inner) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        let Block::Paragraph(runs) = &inner[0] else {
            panic!("{inner:?}")
        };
        assert!(runs.iter().any(|r| r.mark && r.text == "this"));
        assert_eq!(text(&blocks[2..]), "☑ done");
    }

    #[test]
    fn details_are_folds_with_their_summary_or_marked_as_notes() {
        let blocks = parse(
            "<details>\n\nSay this **aloud**.\n\n</details>\n\n<details><summary>Hint</summary>\n\nLook up.\n\n</details>\n",
        );
        let [Block::Fold(notes), Block::Fold(hint)] = blocks.as_slice() else {
            panic!("{blocks:?}")
        };
        assert!(notes.notes && notes.summary.is_empty());
        assert!(!hint.notes);
        assert_eq!(crate::model::runs_text(&hint.summary), "Hint");
        let (notes, hint) = (&notes.body, &hint.body);
        assert_eq!(text(notes), "Say this aloud.");
        assert_eq!(text(hint), "Look up.");
    }

    #[test]
    fn a_details_on_one_line_keeps_its_summary_apart_from_its_body() {
        let blocks = parse("<details><summary>Why <em>not</em>?</summary>Because.</details>\n");
        let [Block::Fold(fold)] = blocks.as_slice() else {
            panic!("{blocks:?}")
        };
        assert_eq!(crate::model::runs_text(&fold.summary), "Why not?");
        assert_eq!(text(&fold.body), "Because.");
    }

    #[test]
    fn a_stray_closing_quote_ends_nothing() {
        let blocks = parse("> quoted\n>\n> </blockquote>\n>\n> still quoted\n");
        let [Block::Quote(inner)] = blocks.as_slice() else {
            panic!("{blocks:?}")
        };
        assert!(text(inner).contains("still quoted"));
    }

    #[test]
    fn styles_and_scripts_show_nothing() {
        let blocks = parse(
            "<style>\nh1 { x: y; }\n\np { z: w; }\n</style>\n\nText <script>var a = 1;</script>here.\n",
        );
        assert_eq!(text(&blocks), "Text here.");
    }
}
