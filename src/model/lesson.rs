use super::table::Table;
use compact_str::CompactString;

/// A run of inline text with the flags the format defines.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// Inline up to 24 bytes, on the heap past them: most runs of a
    /// styled lesson are a few words, and a `String` of its own made each
    /// one an allocation of 32 bytes beside the run.
    pub text: CompactString,
    pub bold: bool,
    pub italic: bool,
    pub strike: bool,
    pub code: bool,
    pub kbd: bool,
    /// Highlighted (HTML's `mark`, a quiz's highlight markers).
    pub mark: bool,
    /// Boxed to its length: a run is 48 bytes, not 56, and most have none.
    pub href: Option<Box<str>>,
}

impl Run {
    pub fn plain(text: impl Into<CompactString>) -> Self {
        Run {
            text: text.into(),
            ..Run::default()
        }
    }
}

/// Concatenated text of runs, for search and plain summaries.
pub fn runs_text(runs: &[Run]) -> String {
    runs.iter().map(|r| r.text.as_str()).collect()
}

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading {
        level: u8,
        id: Option<String>,
        runs: Vec<Run>,
    },
    Paragraph(Vec<Run>),
    /// `start: None` is a bullet list; each item holds blocks so markdown
    /// can nest lists and paragraphs inside items.
    List {
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    /// Boxed: four strings' worth, it made every block 96 bytes, and a
    /// page of short paragraphs and list items is mostly blocks.
    Code(Box<CodeBlock>),
    /// Boxed: the largest variant by far, it would make every block its size.
    Figure(Box<Figure>),
    Quote(Vec<Block>),
    /// Folded text (HTML's `details`): boxed, it is rare.
    Fold(Box<Fold>),
    /// A named place links can open at (`#id`), shown as a small label:
    /// the Rust Reference's rule ids, which it draws in its margin.
    Label {
        id: Box<str>,
        text: Box<str>,
    },
    Rule,
    /// Boxed: a picture is rare beside paragraphs, and its strings would
    /// make every block its size.
    Image(Box<super::Image>),
    /// Boxed, and compact inside (see [`Table`]).
    Table(Box<Table>),
    /// A block whose type this version does not know, or a known block's
    /// fields it does not know: its readable text, in order.
    Unknown {
        kind: String,
        text: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CodeBlock {
    pub lang: Option<String>,
    pub label: Option<String>,
    pub text: String,
    /// What the source says of the code beside its language (mdBook
    /// and rustdoc fence attributes: `ignore`, `does not compile`),
    /// shown as small badges on the frame, never as its name.
    pub badges: Vec<String>,
    /// Drawn with its lines numbered: a tracing question's program, whose
    /// answer may be the line of its error.
    pub numbered: bool,
    /// Highlighted stretches: (line, start, end), byte offsets in the line
    /// (0-based) — what a quiz marks with `` `[…]` `` in its code.
    pub marks: Vec<(usize, usize, usize)>,
}

impl Block {
    pub fn code(code: CodeBlock) -> Block {
        Block::Code(Box::new(code))
    }

    /// The blocks this one holds directly, for walks that only look
    /// inside (a quote's, a fold's body); a list's items are walked by
    /// item, as their paths say (see `layout::page::Highlights`).
    pub fn inner_mut(&mut self) -> Option<&mut Vec<Block>> {
        match self {
            Block::Quote(inner) => Some(inner),
            Block::Fold(fold) => Some(&mut fold.body),
            _ => None,
        }
    }

    /// [`Block::inner_mut`], to read.
    pub fn inner(&self) -> Option<&[Block]> {
        match self {
            Block::Quote(inner) => Some(inner),
            Block::Fold(fold) => Some(&fold.body),
            _ => None,
        }
    }
}

/// Text a book folds away (HTML `details`): its summary is always shown,
/// its body when the reader opens the page's folds (`z`). Books put their
/// speaker notes and their hints and answers there, which read as the
/// page's own text when shown unfolded and unmarked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fold {
    pub summary: Vec<Run>,
    /// It had no summary: speaker notes, as mdBook books write them
    /// (shown as "Notes").
    pub notes: bool,
    pub body: Vec<Block>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub label: Option<String>,
    pub title: Option<String>,
    pub caption: Option<String>,
    pub alt: Option<String>,
    pub body: FigureBody,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FigureBody {
    Compare {
        left: Column,
        right: Column,
    },
    /// Figure types we cannot draw: shown by `alt` when present, else by
    /// every string the figure holds.
    Unknown {
        kind: String,
        text: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Column {
    pub title: String,
    pub items: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    pub index: u32,
    pub slug: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Link {
    pub slug: String,
    pub title: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Drawn from the structured `reader` tree.
    Reader,
    /// Parsed from the markdown `body`.
    Markdown,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LessonMeta {
    pub course_slug: String,
    pub course_title: String,
    pub slug: String,
    pub title: String,
    pub module: Option<Module>,
    pub position: Option<u32>,
    pub of: Option<u32>,
    pub minutes: Option<u32>,
    pub key_idea: Option<String>,
    pub answer: Option<String>,
    pub prev: Option<Link>,
    pub next: Option<Link>,
    pub licence: Option<String>,
    pub cite: Option<String>,
    pub authorship: Option<String>,
    pub review_status: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub meta: LessonMeta,
    pub source: Source,
    pub hero: Option<Figure>,
    pub blocks: Vec<Block>,
    /// The lesson's checks in page order; a JSON lesson has at most one.
    pub checks: Vec<super::Check>,
}

impl Lesson {
    /// The first check. Screens that still show one check per lesson
    /// (the JSON format's case) read it through here.
    pub fn check(&self) -> Option<&super::Check> {
        self.checks.first()
    }

    /// The lesson's code where its page has it, and nothing else: each
    /// block without code is a rule in its place, so a code block's path
    /// (its place among blocks, items and quotes) stays the same. What the
    /// highlighter takes to its thread: the whole lesson cloned there was
    /// its model twice over.
    pub fn code_only(&self) -> Lesson {
        Lesson {
            meta: self.meta.clone(),
            source: self.source,
            hero: None,
            blocks: code_only(&self.blocks),
            checks: self.checks.clone(),
        }
    }

    /// Every top-level block's text, for search.
    pub fn block_text(block: &Block) -> String {
        let mut out = String::new();
        collect_block_text(block, &mut out);
        out
    }
}

impl Lesson {
    /// Whether any block of the lesson, nested ones too, is a fold.
    pub fn has_folds(&self) -> bool {
        fn any(blocks: &[Block]) -> bool {
            blocks.iter().any(|b| match b {
                Block::Fold(_) => true,
                Block::List { items, .. } => items.iter().any(|i| any(i)),
                other => other.inner().is_some_and(any),
            })
        }
        any(&self.blocks)
    }
}

fn code_only(blocks: &[Block]) -> Vec<Block> {
    // Past the last block with code, no place is needed at all.
    let end = blocks.iter().rposition(has_code).map_or(0, |i| i + 1);
    let kept = blocks[..end].iter().map(|b| match b {
        Block::Code(_) => b.clone(),
        Block::List { start, items } if has_code(b) => Block::List {
            start: *start,
            items: items.iter().map(|item| code_only(item)).collect(),
        },
        Block::Quote(inner) if has_code(b) => Block::Quote(code_only(inner)),
        Block::Fold(fold) if has_code(b) => Block::Fold(Box::new(Fold {
            body: code_only(&fold.body),
            ..Fold::default()
        })),
        _ => Block::Rule,
    });
    kept.collect()
}

fn has_code(block: &Block) -> bool {
    match block {
        Block::Code(_) => true,
        Block::List { items, .. } => items.iter().flatten().any(has_code),
        other => other
            .inner()
            .is_some_and(|inner| inner.iter().any(has_code)),
    }
}

fn collect_block_text(block: &Block, out: &mut String) {
    let mut push = |s: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(s);
    };
    match block {
        Block::Heading { runs, .. } | Block::Paragraph(runs) => push(&runs_text(runs)),
        Block::List { items, .. } => {
            for item in items {
                for b in item {
                    collect_block_text(b, out);
                }
            }
        }
        Block::Code(c) => push(&c.text),
        Block::Figure(f) => push(&f.plain_text()),
        Block::Quote(blocks) => {
            for b in blocks {
                collect_block_text(b, out);
            }
        }
        Block::Fold(fold) => {
            push(&runs_text(&fold.summary));
            for b in &fold.body {
                collect_block_text(b, out);
            }
        }
        Block::Rule | Block::Label { .. } => {}
        Block::Image(image) => {
            push(&image.alt);
            if let Some(c) = &image.caption {
                push(c);
            }
        }
        Block::Table(table) => {
            for row in table.all_rows() {
                for cell in row.cells() {
                    push(&cell.text());
                }
            }
        }
        Block::Unknown { text, .. } => push(&text.join(" ")),
    }
}

impl Figure {
    pub fn plain_text(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        parts.extend(self.title.as_deref());
        match &self.body {
            FigureBody::Compare { left, right } => {
                for col in [left, right] {
                    parts.push(&col.title);
                    parts.extend(col.items.iter().map(String::as_str));
                }
            }
            FigureBody::Unknown { text, .. } => parts.extend(text.iter().map(String::as_str)),
        }
        parts.extend(self.caption.as_deref());
        parts.join(" ")
    }
}
#[cfg(test)]
#[test]
fn runs_and_blocks_stay_small() {
    // Most of a styled lesson's memory is runs and blocks (tests/memory.rs):
    // a field that grows one of them shows here first.
    assert_eq!((size_of::<Run>(), size_of::<Block>()), (48, 56));
}
