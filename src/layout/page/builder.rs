//! The line builder every block kind writes through: prefixes (quote bars,
//! list markers, frames) that nest, and lines that never overflow.

use super::code::Highlights;
use crate::layout::Lines;
use crate::layout::style::{Line, Role, Span, Style};
use crate::layout::wrap::{self, truncate, width};
use crate::model::{Block, Run};

struct Prefix {
    first: Vec<Span>,
    rest: Vec<Span>,
    used: bool,
}

pub(super) struct Builder<'a> {
    pub(super) width: usize,
    pub(super) lines: Lines,
    prefixes: Vec<Prefix>,
    pub(super) headings: Vec<usize>,
    pub(super) code: &'a Highlights,
    /// Where the block being laid out sits in the lesson (see
    /// [`Highlights`]): highlighted code is found by it.
    pub(super) path: Vec<usize>,
    /// Whether folds are laid out open: the reader's choice, or the
    /// measure of a closed fold's body as it would open (every fold of
    /// the page opens at once).
    pub(super) folds_open: bool,
    /// The pictures laid out so far.
    pub(super) pictures: Vec<super::picture::PicturePlace>,
    /// The closed folds laid out so far.
    pub(super) folded: Vec<super::Folded>,
}

impl<'a> Builder<'a> {
    pub(super) fn new(width: usize, code: &'a Highlights) -> Self {
        Builder {
            width: width.max(1),
            lines: Lines::default(),
            prefixes: Vec::new(),
            headings: Vec::new(),
            code,
            path: Vec::new(),
            folds_open: code.open_folds,
            pictures: Vec::new(),
            folded: Vec::new(),
        }
    }

    pub(super) fn prefix_width(&self) -> usize {
        self.prefixes
            .iter()
            .map(|p| width_of(if p.used { &p.rest } else { &p.first }))
            .sum()
    }

    /// Columns left for content; prefixes may take at most half the line.
    pub(super) fn avail(&self) -> usize {
        self.width - self.prefix_width().min(self.width / 2)
    }

    pub(super) fn emit(&mut self, content: Vec<Span>) {
        let mut spans = Vec::new();
        for p in &mut self.prefixes {
            spans.extend(if p.used {
                p.rest.iter().cloned()
            } else {
                p.first.iter().cloned()
            });
            p.used = true;
        }
        let (mut spans, mut pw) = truncate(&spans, self.width / 2);
        let cut_mid_word = spans
            .last()
            .is_some_and(|s| !s.text.ends_with(char::is_whitespace));
        if cut_mid_word && pw > 0 && !content.is_empty() {
            // A prefix cut short can end mid-marker ("1" of "10. "): end it
            // with a space, or text starting with a joining character
            // would fuse with it (a digit then U+FE0F is one wide emoji).
            let (cut, w) = truncate(&spans, pw - 1);
            spans = cut;
            spans.push(Span::new(" ", Role::Text));
            pw = w + 1;
        }
        if content.is_empty() {
            // Blank lines keep bars (quotes, figures) but not indents.
            while spans.last().is_some_and(|s| s.text.trim().is_empty()) {
                spans.pop();
            }
            if let Some(last) = spans.last_mut() {
                let trimmed = last.text.trim_end().to_string();
                last.text = trimmed;
            }
        }
        let room = self.width - pw;
        if width_of(&content) <= room {
            spans.extend(content);
        } else {
            spans.extend(truncate(&content, room).0);
        }
        self.lines.push(Line { spans });
    }

    pub(super) fn blank(&mut self) {
        if self.lines.last_is_blank() {
            return;
        }
        self.emit(Vec::new());
    }

    pub(super) fn push_prefix(&mut self, first: Vec<Span>, rest: Vec<Span>) {
        self.prefixes.push(Prefix {
            first,
            rest,
            used: false,
        });
    }

    pub(super) fn pop_prefix(&mut self) {
        self.prefixes.pop();
    }

    /// Lays out `inner` behind the same prefix on every line.
    pub(super) fn barred(&mut self, bar: Span, inner: impl FnOnce(&mut Self)) {
        self.push_prefix(vec![bar.clone()], vec![bar]);
        inner(self);
        self.pop_prefix();
    }

    pub(super) fn wrapped(&mut self, pieces: &[(String, Style)]) {
        let refs: Vec<(&str, Style)> = pieces.iter().map(|(t, s)| (t.as_str(), *s)).collect();
        for line in wrap::wrap(&refs, self.avail()) {
            self.emit(line);
        }
    }

    pub(super) fn text(&mut self, text: &str, style: impl Into<Style>) {
        self.wrapped(&[(text.to_string(), style.into())]);
    }

    pub(super) fn runs(&mut self, runs: &[Run], base: Style) {
        self.wrapped(&super::text::marked_pieces(runs, base, self.code.plain));
    }

    /// Blocks in a row, a blank line apart; each one's index extends the
    /// path for what it holds.
    pub(super) fn blocks(&mut self, blocks: &[Block]) {
        for (i, b) in blocks.iter().enumerate() {
            // A label stands right over what it names.
            if i > 0 && !matches!(blocks[i - 1], Block::Label { .. }) {
                self.blank();
            }
            self.path.push(i);
            self.block(b);
            self.path.pop();
        }
    }

    pub(super) fn block(&mut self, block: &Block) {
        match block {
            Block::Heading { level, runs, .. } => self.heading(*level, runs),
            Block::Paragraph(runs) => self.runs(runs, Style::new(Role::Text)),
            Block::List { start, items } => self.list(*start, items),
            Block::Code(c) => self.code(c),
            Block::Figure(f) => self.figure(f),
            Block::Quote(inner) => self.barred(Span::new("│ ", Role::Quote), |b| b.blocks(inner)),
            Block::Fold(fold) => self.fold(fold),
            Block::Label { text, .. } => self.label(text),
            Block::Rule => {
                let n = self.avail();
                self.emit(vec![Span::new("─".repeat(n), Role::Rule)]);
            }
            Block::Table(table) => self.table(table),
            Block::Unknown { kind, text } => self.unknown(kind, text),
            Block::Image(image) => self.picture(image),
        }
    }
}

pub(super) fn width_of(spans: &[Span]) -> usize {
    spans.iter().map(|s| width(&s.text)).sum()
}

/// Lines of wrapped text with a style, for other layout stages.
pub(crate) fn wrap_text(
    text: &[(String, Style)],
    prefix: &[Span],
    rest: &[Span],
    w: usize,
) -> Vec<Line> {
    let none = Highlights::default();
    let mut b = Builder::new(w, &none);
    b.push_prefix(prefix.to_vec(), rest.to_vec());
    b.wrapped(text);
    b.lines.iter().collect()
}
