//! The markdown `body` as model blocks, for lessons without a `reader`
//! tree (or with a schema this version does not know).

mod chunks;
mod html_block;
mod inline;
mod parts;

use super::convert::MAX_DEPTH;
use super::sanitize::{clean, clean_owned};
use crate::model::{Block, Run, Table};
use html_block::{HtmlTable, html_event};
use inline::{Inline, image};
use parts::{Notes, alert, fence};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

enum Frame {
    Root(Vec<Block>),
    Quote(Vec<Block>),
    List {
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    Item(Vec<Block>),
    /// A footnote's definition, by its name.
    Note(String, Vec<Block>),
}

impl Frame {
    fn blocks(&mut self) -> Option<&mut Vec<Block>> {
        match self {
            Frame::Root(b) | Frame::Quote(b) | Frame::Item(b) | Frame::Note(_, b) => Some(b),
            Frame::List { .. } => None,
        }
    }
}

/// A table being read.
struct Reading {
    table: Table,
    /// Its header is one this piece repeats (see [`chunks`]): its cells
    /// are already in the table.
    repeated_head: bool,
    in_head: bool,
}

struct Builder {
    stack: Vec<Frame>,
    /// One entry per container start: whether it pushed a frame (deep
    /// nesting is flattened rather than followed).
    pushed: Vec<bool>,
    inline: Option<Inline>,
    heading: Option<(u8, Option<String>)>,
    /// A code block being read: language, badges, text.
    code: Option<(Option<String>, Vec<String>, String)>,
    table: Option<Reading>,
    /// The event being read opens a piece that goes on with the table the
    /// last piece ended in.
    continues_table: bool,
    /// What the HTML pass is skipping (a comment, a `<style>`) that an
    /// earlier event opened.
    skip: super::html::Skip,
    /// How many quotes `<blockquote>` opened that are still open.
    html_quotes: usize,
    /// An HTML table being read.
    html_table: Option<HtmlTable>,
    /// Inside an image: its alt text is collected, not shown as text.
    alt: Option<String>,
    /// The address and title of the image being read.
    image_src: (String, String),
    notes: Notes,
    /// The text of an HTML block's `<pre>` so far.
    pre: Option<String>,
    /// The captions of the `<Listing>`s open, shown where each closes.
    listings: Vec<Vec<Run>>,
}

/// Footnotes: numbered in the order they are first cited, listed at the
/// end of the lesson.
impl Builder {
    fn top(&mut self) -> &mut Vec<Block> {
        if !matches!(
            self.stack.last(),
            Some(Frame::Root(_) | Frame::Quote(_) | Frame::Item(_) | Frame::Note(..))
        ) {
            // Content directly inside a list (never produced by a
            // conforming parser, but cheap to tolerate): give it an item.
            self.stack.push(Frame::Item(Vec::new()));
        }
        self.stack
            .last_mut()
            .and_then(Frame::blocks)
            .expect("a block frame is on top")
    }

    fn inline(&mut self) -> &mut Inline {
        self.inline.get_or_insert_with(Inline::default)
    }

    /// Closes an implicit paragraph (tight list items have no Paragraph
    /// events around their text).
    fn flush(&mut self) {
        if let Some(inline) = self.inline.take() {
            let (runs, images) = inline.finish_with_images();
            if let Some(images) = images.filter(|_| self.heading.is_none()) {
                // A paragraph of pictures alone is the pictures.
                let top = self.top();
                top.extend(images.into_iter().map(|i| Block::Image(Box::new(i))));
            } else if !runs.is_empty() {
                let block = match self.heading.take() {
                    Some((level, id)) => Block::Heading { level, id, runs },
                    None => Block::Paragraph(runs),
                };
                self.top().push(block);
            }
        }
    }

    fn open(&mut self, frame: Frame) {
        self.flush();
        let ok = self.stack.len() < MAX_DEPTH;
        if ok {
            self.stack.push(frame);
        }
        self.pushed.push(ok);
    }

    fn close(&mut self) {
        self.flush();
        if !self.pushed.pop().unwrap_or(false) || self.stack.len() <= 1 {
            return;
        }
        let Some(mut frame) = self.stack.pop() else {
            return;
        };
        // A closed container's vectors are kept as long as the lesson is
        // open: at their length, not at what doubling left (an item of
        // one paragraph held room for four blocks).
        match &mut frame {
            Frame::List { items, .. } => items.shrink_to_fit(),
            other => other.blocks().into_iter().for_each(Vec::shrink_to_fit),
        }
        match frame {
            Frame::Quote(blocks) => self.top().push(Block::Quote(blocks)),
            Frame::List { start, items } => self.top().push(Block::List { start, items }),
            Frame::Item(blocks) => {
                if let Some(Frame::List { items, .. }) = self.stack.last_mut() {
                    items.push(blocks);
                } else {
                    self.top().extend(blocks);
                }
            }
            Frame::Note(name, blocks) => self.notes.defs.push((name, blocks)),
            Frame::Root(blocks) => self.stack.push(Frame::Root(blocks)),
        }
    }
}

/// The markdown extensions lessons are read with.
pub(super) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
        | Options::ENABLE_HEADING_ATTRIBUTES
}

pub fn parse(text: &str) -> Vec<Block> {
    // A body under this is read whole, as it always was: the pieces only
    // bound what a long one costs. A body with footnotes is read whole
    // too: a note's reference is only one where its definition is seen.
    let piece = match text.len() >= chunks::WHOLE_BELOW && !text.contains("[^") {
        true => chunks::PIECE,
        false => usize::MAX,
    };
    parse_in(text, piece)
}

/// [`parse`], in pieces of about `piece` bytes.
fn parse_in(text: &str, piece: usize) -> Vec<Block> {
    let options = options();
    // Reference links find their definitions in any piece.
    let defs = match piece < text.len() && text.contains("]:") {
        true => chunks::definitions(text, piece, options),
        false => Default::default(),
    };
    let mut b = Builder {
        stack: vec![Frame::Root(Vec::new())],
        pushed: Vec::new(),
        inline: None,
        heading: None,
        code: None,
        table: None,
        continues_table: false,
        skip: Default::default(),
        html_quotes: 0,
        html_table: None,
        alt: None,
        image_src: Default::default(),
        notes: Notes::default(),
        pre: None,
        listings: Vec::new(),
    };
    if piece == usize::MAX {
        Parser::new_ext(text, options).for_each(|event| event_in(&mut b, event));
    } else {
        chunks::each_event(text, piece, options, &defs, |event, goes_on| {
            // Only a table that opens a piece goes on with the last one.
            b.continues_table = goes_on;
            event_in(&mut b, event);
        });
    }
    b.flush();
    while b.stack.len() > 1 {
        b.pushed.push(true);
        b.close();
    }
    match b.stack.pop() {
        Some(Frame::Root(mut blocks)) => {
            blocks.extend(b.notes.blocks());
            blocks.shrink_to_fit();
            blocks
        }
        _ => Vec::new(),
    }
}

fn event_in(b: &mut Builder, event: Event) {
    {
        match event {
            Event::Start(tag) => start(b, tag),
            Event::End(tag) => end(b, tag),
            // The inside of an inline `<script>` or `<style>` comes as text.
            Event::Text(_) | Event::Code(_) if matches!(b.skip, super::html::Skip::Raw(_)) => {}
            Event::Text(t) | Event::Code(t) if b.alt.is_some() => {
                b.alt.get_or_insert_default().push_str(&t)
            }
            Event::Text(t) => match &mut b.code {
                Some((_, _, code)) => code.push_str(&clean(&t)),
                None => b.inline().push(&t, false),
            },
            Event::Code(t) => b.inline().push(&t, true),
            Event::Html(t) | Event::InlineHtml(t) if b.code.is_some() => {
                if let Some((_, _, code)) = &mut b.code {
                    code.push_str(&clean(&t));
                }
            }
            Event::Html(t) => html_event(b, &t, true),
            Event::InlineHtml(t) => html_event(b, &t, false),
            Event::InlineMath(t) | Event::DisplayMath(t) => b.inline().push(&t, true),
            Event::SoftBreak => b.inline().push(" ", false),
            Event::HardBreak => b.inline().push("\n", false),
            Event::Rule => {
                b.flush();
                b.top().push(Block::Rule);
            }
            Event::FootnoteReference(r) => {
                let n = b.notes.number(&r);
                b.inline().push(&format!("[{n}]"), false)
            }
            Event::TaskListMarker(done) => {
                b.inline().push(if done { "[x] " } else { "[ ] " }, false)
            }
        }
    }
}

/// Inline markdown (a check's question or option) as runs: its
/// paragraphs joined by line breaks.
pub(super) fn inline(text: &str) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for block in parse(text) {
        let runs = match block {
            Block::Paragraph(r) | Block::Heading { runs: r, .. } => r,
            other => vec![Run::plain(crate::model::Lesson::block_text(&other))],
        };
        if !out.is_empty() {
            out.push(Run::plain("\n"));
        }
        out.extend(runs);
    }
    if out.is_empty() && !text.trim().is_empty() {
        out.push(Run::plain(text.trim()));
    }
    out
}

fn start(b: &mut Builder, tag: Tag) {
    match tag {
        Tag::Paragraph => b.flush(),
        Tag::Heading { level, id, .. } => {
            b.flush();
            let id = id.map(|i| clean_owned(&i));
            let level = match level {
                HeadingLevel::H1 => 1,
                HeadingLevel::H2 => 2,
                HeadingLevel::H3 => 3,
                HeadingLevel::H4 => 4,
                HeadingLevel::H5 => 5,
                HeadingLevel::H6 => 6,
            };
            b.heading = Some((level, id));
        }
        Tag::BlockQuote(kind) => {
            b.open(Frame::Quote(Vec::new()));
            if let Some(kind) = kind {
                b.top().push(alert(kind));
            }
        }
        Tag::HtmlBlock => b.flush(),
        Tag::CodeBlock(kind) => {
            b.flush();
            let (lang, badges) = match kind {
                CodeBlockKind::Fenced(info) => fence(&info),
                CodeBlockKind::Indented => (None, Vec::new()),
            };
            b.code = Some((lang, badges, String::new()));
        }
        Tag::List(start) => b.open(Frame::List {
            start,
            items: Vec::new(),
        }),
        Tag::Item => b.open(Frame::Item(Vec::new())),
        Tag::Table(_) => {
            b.flush();
            let before = match b.continues_table {
                true => b.top().pop_if(|last| matches!(last, Block::Table(_))),
                false => None,
            };
            b.table = Some(match before {
                Some(Block::Table(t)) => Reading {
                    table: *t,
                    repeated_head: true,
                    in_head: false,
                },
                _ => Reading {
                    table: Table::default(),
                    repeated_head: false,
                    in_head: false,
                },
            });
        }
        Tag::TableHead => {
            if let Some(t) = &mut b.table {
                t.in_head = true;
            }
        }
        Tag::TableCell => b.inline = Some(Inline::default()),
        Tag::Emphasis => b.inline().italic += 1,
        Tag::Strong => b.inline().bold += 1,
        Tag::Strikethrough => b.inline().strike += 1,
        Tag::Link { dest_url, .. } => {
            let url = clean_owned(&dest_url);
            b.inline().links.push(Some(url.into()));
        }
        Tag::Image {
            dest_url, title, ..
        } => {
            b.alt = Some(String::new());
            b.image_src = (clean_owned(&dest_url), clean_owned(&title));
        }
        Tag::FootnoteDefinition(name) => b.open(Frame::Note(name.to_string(), Vec::new())),
        _ => {}
    }
}

fn end(b: &mut Builder, tag: TagEnd) {
    match tag {
        TagEnd::HtmlBlock => html_block::end_block(b),
        TagEnd::Paragraph | TagEnd::Heading(_) => b.flush(),
        TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item | TagEnd::FootnoteDefinition => {
            b.close()
        }
        TagEnd::CodeBlock => {
            if let Some((lang, badges, mut text)) = b.code.take() {
                if text.ends_with('\n') {
                    text.pop();
                }
                b.top().push(Block::code(crate::model::CodeBlock {
                    lang,
                    label: None,
                    text,
                    badges,
                    numbered: false,
                    marks: Vec::new(),
                }));
            }
        }
        TagEnd::TableCell => {
            let runs = b.inline.take().map(|i| i.fitted().runs).unwrap_or_default();
            if let Some(t) = b.table.as_mut().filter(|t| !(t.in_head && t.repeated_head)) {
                t.table.push_cell(runs);
            }
        }
        TagEnd::TableRow | TagEnd::TableHead => {
            if let Some(t) = &mut b.table {
                if !(t.in_head && t.repeated_head) {
                    t.table.end_row();
                }
                t.in_head = false;
            }
        }
        TagEnd::Table => {
            if let Some(mut t) = b.table.take() {
                t.table.fit();
                b.top().push(Block::Table(Box::new(t.table)));
            }
        }
        TagEnd::Emphasis => b.inline().italic = b.inline().italic.saturating_sub(1),
        TagEnd::Strong => b.inline().bold = b.inline().bold.saturating_sub(1),
        TagEnd::Strikethrough => b.inline().strike = b.inline().strike.saturating_sub(1),
        TagEnd::Link => {
            b.inline().links.pop();
        }
        TagEnd::Image => {
            let alt = b.alt.take().unwrap_or_default();
            let (src, title) = std::mem::take(&mut b.image_src);
            let tag = crate::loader::html::ImgTag {
                src,
                alt: clean(alt.trim()).into_owned(),
                ..Default::default()
            };
            let caption = Some(title).filter(|t| !t.trim().is_empty());
            image(b.inline(), tag, caption);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(runs: &[Run]) -> String {
        runs.iter().map(|r| r.text.as_str()).collect()
    }

    #[test]
    fn headings_paragraphs_and_styles() {
        let blocks = parse("## Title\n\nSome **bold** and *it* and `code` [link](http://x).\n");
        assert!(
            matches!(&blocks[0], Block::Heading { level: 2, runs, .. } if texts(runs) == "Title")
        );
        let Block::Paragraph(runs) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert!(runs.iter().any(|r| r.bold && r.text == "bold"));
        assert!(runs.iter().any(|r| r.italic && r.text == "it"));
        assert!(runs.iter().any(|r| r.code && r.text == "code"));
        assert!(
            runs.iter()
                .any(|r| r.href.as_deref() == Some("http://x") && r.text == "link")
        );
    }

    #[test]
    fn nested_lists_and_quotes() {
        let blocks = parse("3. one\n   - inner\n4. two\n\n> quoted\n> > deeper\n");
        let Block::List {
            start: Some(3),
            items,
        } = &blocks[0]
        else {
            panic!("{blocks:?}")
        };
        assert_eq!(items.len(), 2);
        assert!(matches!(&items[0][1], Block::List { start: None, .. }));
        let Block::Quote(inner) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert!(matches!(&inner[1], Block::Quote(_)));
    }

    #[test]
    fn code_tables_and_rules() {
        let blocks = parse("```rust title\nfn main() {}\n```\n\n|a|b|\n|-|-|\n|1|2|\n\n---\n");
        assert_eq!(
            blocks[0],
            Block::code(crate::model::CodeBlock {
                lang: Some("rust".into()),
                label: None,
                text: "fn main() {}".into(),
                badges: Vec::new(),
                numbered: false,
                marks: Vec::new(),
            })
        );
        let Block::Table(table) = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert_eq!(table.header().len(), 2);
        let row = table.rows().next().unwrap();
        assert_eq!(row.get(1).unwrap().text(), "2");
        assert_eq!(blocks[2], Block::Rule);
    }

    #[test]
    fn hostile_nesting_is_flattened_not_lost() {
        let deep = format!("{}deep text", "> ".repeat(5000));
        let blocks = parse(&deep);
        let all = format!("{blocks:?}");
        assert!(all.contains("deep text"));
        let lists = format!("{}x", "- ".repeat(3000));
        assert!(format!("{:?}", parse(&lists)).contains('x'));
    }

    #[test]
    fn entities_cannot_smuggle_control_characters() {
        let md = "&#27;[2J &#x9b;1m [l](&#x1b;]0;t) `x`\n\n```&#x1b;x\n&#7;\n```\n";
        let all = format!("{:?}", parse(md));
        // Debug output spells control characters as escapes.
        assert!(
            !all.contains("\\u{1b}") && !all.contains("\\u{9b}"),
            "{all}"
        );
        assert!(all.contains("\u{241b}[2J"), "{all}");
        assert!(all.contains("\u{241b}x"), "the fence's language: {all}");
    }
}
