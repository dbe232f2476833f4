//! The preprocessors lectern knows, by the names books give them in
//! `book.toml` (`[preprocessor.NAME]`): one module each, run on a
//! chapter's text after mdBook's own (`expand`) and before the markdown
//! pass, and on its blocks after it. What each one draws on the web is
//! shown as lectern can show it in a terminal: boxes as boxes, diagrams
//! and math as their labelled source. A preprocessor lectern does not
//! know is named by lint, and its syntax is kept as written.

mod admonish;
mod course;
mod fences;
mod grammar;
mod katex;
mod mermaid;
mod notation;
mod spec;
mod std_links;
mod test_summary;

pub use course::Front;
pub use spec::Rules;

use super::outline::Outline;
use crate::model::Block;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What preprocessors may ask of the chapter they read and its book,
/// each asked for only by those that need it.
pub trait Chapter {
    /// The chapter's folder, relative to the book's `src`.
    fn dir(&self) -> &Path;
    /// The book's rule ids (mdbook-spec's).
    fn rules(&self) -> Arc<Rules>;
    /// The book's SUMMARY.md, and the chapter's entry in it.
    fn place(&self) -> Option<(Arc<Outline>, usize)>;
    /// The front matter of the chapter of entry `i` (mdbook-course's).
    fn front(&self, i: usize) -> Front;
    /// The text of each chapter of the book, in SUMMARY.md's order, as
    /// written (mdbook-spec's grammar summary reads them all).
    fn texts(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The chapter `file` (relative to the book's `src`) of `book`.
pub struct InBook<'a> {
    book: &'a super::Book,
    file: &'a Path,
    dir: &'a Path,
    /// Each entry's front matter, read once.
    fronts: RefCell<HashMap<usize, Front>>,
}

impl<'a> InBook<'a> {
    pub fn new(book: &'a super::Book, file: &'a Path) -> InBook<'a> {
        InBook {
            book,
            file,
            dir: file.parent().unwrap_or(Path::new("")),
            fronts: RefCell::default(),
        }
    }
}

impl Chapter for InBook<'_> {
    fn dir(&self) -> &Path {
        self.dir
    }

    fn rules(&self) -> Arc<Rules> {
        self.book.rules()
    }

    fn place(&self) -> Option<(Arc<Outline>, usize)> {
        let outline = self.book.outline().ok()?;
        let i = outline.entry_of(self.file)?;
        Some((outline, i))
    }

    fn front(&self, i: usize) -> Front {
        if let Some(f) = self.fronts.borrow().get(&i) {
            return f.clone();
        }
        let read = || {
            let outline = self.book.outline().ok()?;
            let path = outline.summary.entries.get(i)?.path.as_ref()?;
            let bytes = crate::loader::walk::read_regular(&self.book.src.join(path)).ok()?;
            course::front_matter(&String::from_utf8_lossy(&bytes)).map(|(f, _)| f)
        };
        let f = read().unwrap_or_default();
        self.fronts.borrow_mut().insert(i, f.clone());
        f
    }

    fn texts(&self) -> Vec<String> {
        let Ok(outline) = self.book.outline() else {
            return Vec::new();
        };
        // A budget on the whole book read: the Reference is about 2 MB.
        const MAX_BOOK_BYTES: usize = 64 << 20;
        let mut total = 0;
        let files = outline
            .summary
            .entries
            .iter()
            .filter_map(|e| e.path.as_ref());
        files
            .filter_map(|p| crate::loader::walk::read_regular(&self.book.src.join(p)).ok())
            .take_while(|bytes| {
                total += bytes.len();
                total <= MAX_BOOK_BYTES
            })
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .collect()
    }
}

/// A preprocessor lectern runs itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// mdbook-admonish: ```` ```admonish ```` fences as boxes.
    Admonish,
    /// mdbook-katex: `$…$` and `$$…$$` as labelled math source.
    Katex,
    /// mdbook-mermaid: ```` ```mermaid ```` fences as labelled source.
    Mermaid,
    /// mdbook-spec: the Reference's rule ids, boxes and rule links.
    Spec,
    /// mdbook-course: front matter as data, `{{%… outline}}` as tables.
    Course,
    /// aquascope: `@Perm{…}` badges (its fences: `aquascope`, which
    /// quizzes share).
    Aquascope,
}

/// Each known preprocessor by the name `book.toml` gives it.
const TABLE: &[(&str, Known)] = &[
    ("admonish", Known::Admonish),
    ("katex", Known::Katex),
    ("mermaid", Known::Mermaid),
    ("spec", Known::Spec),
    ("course", Known::Course),
    ("aquascope", Known::Aquascope),
];

/// Preprocessors run elsewhere, or whose source reads well as written:
/// mdBook's own (`links` is `expand`, `index` names README.md pages),
/// mdbook-quiz (`expand`'s `{{#quiz}}`), the Rust Book's listings (the HTML pass) and notes (a
/// quote either way), gettext (translations; the source is the book),
/// svgbob (its diagrams are ASCII art, drawn as code).
const ELSEWHERE: &[&str] = &[
    "links",
    "index",
    "quiz",
    "trpl-listing",
    "trpl-note",
    "gettext",
    "svgbob",
];

/// The preprocessors one book names.
#[derive(Debug, Clone, Default)]
pub struct Preprocessors {
    known: Vec<Known>,
    /// Named in `book.toml`, in its order, and not known to lectern.
    unknown: Vec<String>,
}

impl Preprocessors {
    /// From the names of `book.toml`'s `[preprocessor.NAME]` tables.
    pub fn named<'a>(names: impl IntoIterator<Item = &'a str>) -> Preprocessors {
        let mut p = Preprocessors::default();
        for name in names {
            match TABLE.iter().find(|(n, _)| *n == name) {
                Some((_, k)) => p.known.push(*k),
                None if ELSEWHERE.contains(&name) => {}
                None => p.unknown.push(name.to_string()),
            }
        }
        p
    }

    pub fn has(&self, k: Known) -> bool {
        self.known.contains(&k)
    }

    /// The rules the chapter files `chapters` define (see `spec`).
    pub fn rules<'a>(src: &Path, chapters: impl IntoIterator<Item = &'a Path>) -> Rules {
        spec::index(src, chapters)
    }

    /// The names lectern does not know.
    pub fn unknown(&self) -> &[String] {
        &self.unknown
    }

    /// A chapter's text, rewritten by each known preprocessor before the
    /// markdown pass.
    pub fn text(&self, text: String, chapter: &dyn Chapter) -> String {
        let mut text = text;
        if self.has(Known::Course) {
            text = course::rewrite(&text, chapter);
        }
        if self.has(Known::Spec) {
            // The grammar summary's chapter (mdbook-spec knows it by its
            // name, "Grammar summary"; lectern by the mark it holds).
            let summary = text.contains(grammar::MARK);
            if summary {
                text = grammar::rewrite(&text, chapter);
            }
            if text.contains(test_summary::MARK) {
                text = test_summary::rewrite(&text, chapter);
            }
            text = spec::rewrite(&text, chapter.dir(), &chapter.rules(), summary);
        }
        if self.has(Known::Aquascope) && text.contains("@Perm") {
            text = in_prose(&text, super::aquascope::permissions);
        }
        if self.has(Known::Admonish) && text.contains("admonish") {
            text = admonish::rewrite(&text);
        }
        if self.has(Known::Katex) && text.contains('$') {
            text = katex::rewrite(&text);
        }
        text
    }

    /// A chapter's blocks, finished by each known preprocessor.
    pub fn blocks(&self, blocks: &mut [Block], chapter: &dyn Chapter) {
        if self.has(Known::Spec) {
            spec::labels(blocks, &chapter.rules());
        }
        if self.has(Known::Katex) {
            katex::label(blocks);
        }
        if self.has(Known::Mermaid) {
            mermaid::label(blocks);
        }
    }
}

/// `text` with `f` applied to its prose, its fenced code left alone.
fn in_prose(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in fences::pieces(text) {
        match piece {
            fences::Piece::Prose(p) => out.push_str(&f(p)),
            fences::Piece::Fence(c) => out.push_str(c.raw),
        }
    }
    out
}

/// Every code block of `blocks`, nested ones too.
fn code_blocks(blocks: &mut [Block], f: &mut impl FnMut(&mut crate::model::CodeBlock)) {
    for b in blocks {
        match b {
            Block::Code(c) => f(c),
            Block::List { items, .. } => items.iter_mut().for_each(|i| code_blocks(i, f)),
            other => other
                .inner_mut()
                .into_iter()
                .for_each(|i| code_blocks(i, f)),
        }
    }
}

#[cfg(test)]
mod tests;
