//! The markdown `body` as model blocks, for lessons without a `reader`
//! tree (or with a schema this version does not know).

use super::convert::MAX_DEPTH;
use super::sanitize::{clean, clean_owned};
use crate::model::{Block, Run};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

enum Frame {
    Root(Vec<Block>),
    Quote(Vec<Block>),
    List {
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    Item(Vec<Block>),
}

impl Frame {
    fn blocks(&mut self) -> Option<&mut Vec<Block>> {
        match self {
            Frame::Root(b) | Frame::Quote(b) | Frame::Item(b) => Some(b),
            Frame::List { .. } => None,
        }
    }
}

#[derive(Default)]
struct Inline {
    runs: Vec<Run>,
    bold: usize,
    italic: usize,
    strike: usize,
    links: Vec<String>,
}

impl Inline {
    fn push(&mut self, text: &str, code: bool) {
        // The body was sanitised before parsing, but entities such as
        // `&#27;` only become characters here.
        let text = &*clean(text);
        let run = Run {
            text: text.to_string(),
            bold: self.bold > 0,
            italic: self.italic > 0,
            strike: self.strike > 0,
            code,
            kbd: false,
            href: self.links.last().cloned(),
        };
        // Adjacent text events of one style are one run.
        match self.runs.last_mut() {
            Some(last) if !code && !last.code && same_style(last, &run) => last.text.push_str(text),
            _ => self.runs.push(run),
        }
    }
}

fn same_style(a: &Run, b: &Run) -> bool {
    (a.bold, a.italic, a.strike, a.kbd, &a.href) == (b.bold, b.italic, b.strike, b.kbd, &b.href)
}

struct Table {
    header: Vec<Vec<Run>>,
    rows: Vec<Vec<Vec<Run>>>,
    in_head: bool,
}

struct Builder {
    stack: Vec<Frame>,
    /// One entry per container start: whether it pushed a frame (deep
    /// nesting is flattened rather than followed).
    pushed: Vec<bool>,
    inline: Option<Inline>,
    heading: Option<u8>,
    code: Option<(Option<String>, String)>,
    table: Option<Table>,
}

impl Builder {
    fn top(&mut self) -> &mut Vec<Block> {
        if !matches!(
            self.stack.last(),
            Some(Frame::Root(_) | Frame::Quote(_) | Frame::Item(_))
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
            if !inline.runs.is_empty() {
                let level = self.heading.take();
                let block = match level {
                    Some(level) => Block::Heading {
                        level,
                        id: None,
                        runs: inline.runs,
                    },
                    None => Block::Paragraph(inline.runs),
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
        let Some(frame) = self.stack.pop() else {
            return;
        };
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
}

pub fn parse(text: &str) -> Vec<Block> {
    let options = options();
    let mut b = Builder {
        stack: vec![Frame::Root(Vec::new())],
        pushed: Vec::new(),
        inline: None,
        heading: None,
        code: None,
        table: None,
    };
    for event in Parser::new_ext(text, options) {
        match event {
            Event::Start(tag) => start(&mut b, tag),
            Event::End(tag) => end(&mut b, tag),
            Event::Text(t) => match &mut b.code {
                Some((_, code)) => code.push_str(&clean(&t)),
                None => b.inline().push(&t, false),
            },
            Event::Code(t) => b.inline().push(&t, true),
            Event::Html(t) | Event::InlineHtml(t) => match &mut b.code {
                Some((_, code)) => code.push_str(&clean(&t)),
                None => b.inline().push(t.trim_end_matches('\n'), false),
            },
            Event::InlineMath(t) | Event::DisplayMath(t) => b.inline().push(&t, true),
            Event::SoftBreak => b.inline().push(" ", false),
            Event::HardBreak => b.inline().push("\n", false),
            Event::Rule => {
                b.flush();
                b.top().push(Block::Rule);
            }
            Event::FootnoteReference(r) => b.inline().push(&format!("[^{r}]"), false),
            Event::TaskListMarker(done) => {
                b.inline().push(if done { "[x] " } else { "[ ] " }, false)
            }
        }
    }
    b.flush();
    while b.stack.len() > 1 {
        b.pushed.push(true);
        b.close();
    }
    match b.stack.pop() {
        Some(Frame::Root(blocks)) => blocks,
        _ => Vec::new(),
    }
}

fn start(b: &mut Builder, tag: Tag) {
    match tag {
        Tag::Paragraph => b.flush(),
        Tag::Heading { level, .. } => {
            b.flush();
            b.heading = Some(match level {
                HeadingLevel::H1 => 1,
                HeadingLevel::H2 => 2,
                HeadingLevel::H3 => 3,
                HeadingLevel::H4 => 4,
                HeadingLevel::H5 => 5,
                HeadingLevel::H6 => 6,
            });
        }
        Tag::BlockQuote(_) => b.open(Frame::Quote(Vec::new())),
        Tag::CodeBlock(kind) => {
            b.flush();
            let lang = match kind {
                CodeBlockKind::Fenced(info) => info.split_whitespace().next().map(clean_owned),
                CodeBlockKind::Indented => None,
            };
            b.code = Some((lang, String::new()));
        }
        Tag::List(start) => b.open(Frame::List {
            start,
            items: Vec::new(),
        }),
        Tag::Item => b.open(Frame::Item(Vec::new())),
        Tag::Table(_) => {
            b.flush();
            b.table = Some(Table {
                header: Vec::new(),
                rows: Vec::new(),
                in_head: false,
            });
        }
        Tag::TableHead => {
            if let Some(t) = &mut b.table {
                t.in_head = true;
            }
        }
        Tag::TableRow => {
            if let Some(t) = &mut b.table {
                t.rows.push(Vec::new());
            }
        }
        Tag::TableCell => b.inline = Some(Inline::default()),
        Tag::Emphasis => b.inline().italic += 1,
        Tag::Strong => b.inline().bold += 1,
        Tag::Strikethrough => b.inline().strike += 1,
        Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
            let url = clean_owned(&dest_url);
            b.inline().links.push(url);
        }
        Tag::FootnoteDefinition(name) => {
            b.flush();
            b.inline().push(&format!("[^{name}]: "), false);
        }
        _ => {}
    }
}

fn end(b: &mut Builder, tag: TagEnd) {
    match tag {
        TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::FootnoteDefinition => b.flush(),
        TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item => b.close(),
        TagEnd::CodeBlock => {
            if let Some((lang, mut text)) = b.code.take() {
                if text.ends_with('\n') {
                    text.pop();
                }
                b.top().push(Block::Code {
                    lang,
                    label: None,
                    text,
                });
            }
        }
        TagEnd::TableCell => {
            let runs = b.inline.take().map(|i| i.runs).unwrap_or_default();
            if let Some(t) = &mut b.table {
                if t.in_head {
                    t.header.push(runs);
                } else if let Some(row) = t.rows.last_mut() {
                    row.push(runs);
                }
            }
        }
        TagEnd::TableHead => {
            if let Some(t) = &mut b.table {
                t.in_head = false;
            }
        }
        TagEnd::Table => {
            if let Some(t) = b.table.take() {
                b.top().push(Block::Table {
                    header: t.header,
                    rows: t.rows,
                });
            }
        }
        TagEnd::Emphasis => b.inline().italic = b.inline().italic.saturating_sub(1),
        TagEnd::Strong => b.inline().bold = b.inline().bold.saturating_sub(1),
        TagEnd::Strikethrough => b.inline().strike = b.inline().strike.saturating_sub(1),
        TagEnd::Link | TagEnd::Image => {
            b.inline().links.pop();
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
            Block::Code {
                lang: Some("rust".into()),
                label: None,
                text: "fn main() {}".into()
            }
        );
        let Block::Table { header, rows } = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert_eq!(header.len(), 2);
        assert_eq!(texts(&rows[0][1]), "2");
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
