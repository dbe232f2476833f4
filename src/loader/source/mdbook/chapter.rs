//! One chapter of a book as a lesson: its place from SUMMARY.md (title,
//! module, neighbours), its text through mdBook's preprocessing, parsed
//! by the markdown pass, with its quizzes' checks where their directives
//! stood. And `lint` for books: what mdBook would stumble on, located.

use super::super::super::course::Headed;
use super::super::super::markdown as md;
use super::super::super::sanitize::clean_owned;
use super::expand::{Expander, SENTINEL};
use super::inside::{Refused, inside};
use super::summary::Summary;
use super::{Book, aquascope, find, hrefs, one_line, preprocess};
use crate::loader::{Loaded, Origin, walk};
use crate::model::{
    Block, Check, Diagnostic, Lesson, LessonEntry, LessonMeta, LessonStatus, Link, Severity, Source,
};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Where a chapter stands in its book.
struct Place {
    slug: String,
    /// The chapter's file, relative to the book's `src`.
    file: PathBuf,
    title: Option<String>,
    module: Option<crate::model::Module>,
    position: Option<u32>,
    of: Option<u32>,
    prev: Option<Link>,
    next: Option<Link>,
}

fn link(s: &Summary, i: usize) -> Option<Link> {
    let e = s.entries.get(i)?;
    Some(Link {
        slug: Book::slug(e.path.as_deref()?),
        title: one_line(&e.title),
    })
}

/// The chapter `path` of `book` (read from its SUMMARY.md); a markdown
/// file of the book that SUMMARY.md does not list is named by its path.
fn place(book: &Book, path: &Path) -> Place {
    let rel = std::fs::canonicalize(path).ok().and_then(|c| {
        let src = std::fs::canonicalize(&book.src).ok()?;
        c.strip_prefix(src).ok().map(Path::to_path_buf)
    });
    let rel = rel.unwrap_or_else(|| path.file_name().map(PathBuf::from).unwrap_or_default());
    let mut p = Place {
        slug: Book::slug(&rel),
        file: rel.clone(),
        title: None,
        module: None,
        position: None,
        of: None,
        prev: None,
        next: None,
    };
    let Ok(outline) = book.outline() else {
        return p;
    };
    let Some(i) = outline.entry_of(&rel) else {
        return p;
    };
    let s = &outline.summary;
    let (prev, next) = outline.neighbours(i);
    p.title = Some(one_line(&s.entries[i].title));
    p.module = outline.modules[i].clone();
    p.position = u32::try_from(i + 1).ok();
    p.of = u32::try_from(s.entries.len()).ok();
    p.prev = prev.and_then(|j| link(s, j));
    p.next = next.and_then(|j| link(s, j));
    p
}

/// Why the chapter file at `path` may not be shown: its real path is
/// outside the book (a link out of it).
fn outside(book: &Book, path: &Path, name: &str) -> Option<Diagnostic> {
    (inside(&book.canon_root, path) == Err(Refused::Outside)).then(|| {
        let why = "outside the book (a link out of it): chapters are read from inside it only";
        Diagnostic::error(name, why)
    })
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)).into_owned()
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| one_line(&s.to_string_lossy()))
}

/// The header of a chapter, from SUMMARY.md alone.
pub(crate) fn head(origin: &Origin, bytes: &[u8]) -> Option<Headed> {
    let path = origin.path()?;
    let book = find(path)?;
    let p = place(&book, path);
    let status = match outside(&book, path, &origin.name()) {
        Some(d) => LessonStatus::Broken(d),
        None => LessonStatus::Ok,
    };
    Some(Headed {
        entry: LessonEntry {
            origin: origin.clone(),
            slug: p.slug,
            title: p.title.unwrap_or_else(|| stem(path)),
            position: p.position,
            minutes: None,
            module: p.module.map(Box::new),
            status,
        },
        course_slug: Some(book.slug.clone()),
        course_title: Some(book.title.clone()),
        digest: Some(walk::digest(bytes)),
    })
}

/// The chapter at `origin`, if it is in a book. A markdown file of the
/// book that SUMMARY.md does not list (SUMMARY.md itself, a README beside
/// the listings) is no lesson: the reader opens the book instead.
pub(crate) fn load(origin: &Origin, bytes: &[u8]) -> Option<Result<Loaded, Diagnostic>> {
    let path = origin.path()?;
    let book = find(path)?;
    if let Some(d) = outside(&book, path, &origin.name()) {
        return Some(Err(d));
    }
    let loaded = read(&book, path, bytes).0;
    if loaded.lesson.meta.position.is_none() {
        let why = "not a chapter of its book (SUMMARY.md does not list it): open the book";
        return Some(Err(Diagnostic::error(&origin.name(), why)));
    }
    Some(Ok(loaded))
}

/// The chapter, and what lint would say of its includes and quizzes.
fn read(book: &Book, path: &Path, bytes: &[u8]) -> (Loaded, Vec<Diagnostic>) {
    let text = text_of(bytes);
    let expanded = Expander::new(&book.canon_root, path, &book.budgets)
        .strangers(book.preprocessors.unknown())
        .run(path, &text);
    // The Rust Book's `<Listing>` tags are the markdown HTML pass's (html.rs).
    let text = clean_owned(&aquascope::chapter(&expanded.text));
    let p = place(book, path);
    let here = preprocess::InBook::new(book, &p.file);
    let text = book.preprocessors.text(text, &here);
    let mut blocks = md::parse(&text);
    book.preprocessors.blocks(&mut blocks, &here);
    let dir = std::fs::canonicalize(path.parent().unwrap_or(Path::new("")));
    let src = std::fs::canonicalize(&book.src).unwrap_or_else(|_| book.src.clone());
    let at = crate::loader::image_files::Places {
        dir: dir.as_deref().unwrap_or(&src),
        src: &src,
        root: &book.canon_root,
    };
    crate::loader::image_files::resolve(&mut blocks, &at);
    hrefs::heading_ids(&mut blocks);
    // `{{#title}}` names mdBook's browser tab only: the page is named by
    // SUMMARY.md, and its own first heading stays.
    let title = p.title.clone();
    // The header shows the title: a first heading that says it goes.
    if let Some(Block::Heading { runs, .. }) = blocks.first() {
        let heading = crate::model::runs_text(runs);
        let same = |t: &Option<String>| {
            t.as_ref()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(heading.trim()))
        };
        if same(&title) {
            blocks.remove(0);
        }
    }
    let base = hrefs::Base {
        src: &book.src,
        dir: p.file.parent().map(Path::to_path_buf).unwrap_or_default(),
        site: book.site.as_deref(),
    };
    hrefs::chapter_links(&mut blocks, &base);
    let (blocks, checks) = place_checks(blocks, expanded.quizzes);
    let meta = LessonMeta {
        course_slug: book.slug.clone(),
        course_title: book.title.clone(),
        slug: p.slug,
        title: title.unwrap_or_else(|| stem(path)),
        module: p.module,
        position: p.position,
        of: p.of,
        minutes: Some(super::reading_minutes(bytes.len() as u64)),
        prev: p.prev,
        next: p.next,
        ..LessonMeta::default()
    };
    let lesson = Lesson {
        meta,
        source: Source::Markdown,
        hero: None,
        blocks,
        checks,
    };
    let loaded = Loaded {
        lesson,
        findings: Vec::new(),
    };
    (loaded, expanded.problems)
}

/// The sentinel a block is, or holds (a quiz inside a list item): its
/// number read from the text, so a page of thousands of quizzes is not
/// searched once per quiz.
fn quiz_in(block: &Block, n: usize) -> Option<usize> {
    if n == 0 {
        return None;
    }
    let text = Lesson::block_text(block);
    #[cfg(test)]
    crate::work::add(text.len());
    let at = text.find(SENTINEL)? + SENTINEL.len();
    let digits = text[at..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len() - at);
    let q: usize = text[at..at + digits].parse().ok()?;
    (q < n && text[at + digits..].starts_with('-')).then_some(q)
}

/// `block` without the sentinel paragraphs nested in it.
fn strip(block: Block) -> Block {
    let is_sentinel = |b: &Block| matches!(b, Block::Paragraph(r) if crate::model::runs_text(r).starts_with(SENTINEL));
    let keep = |v: Vec<Block>| {
        v.into_iter()
            .filter(|b| !is_sentinel(b))
            .map(strip)
            .collect()
    };
    match block {
        Block::Quote(v) => Block::Quote(keep(v)),
        Block::Fold(mut fold) => {
            fold.body = keep(std::mem::take(&mut fold.body));
            Block::Fold(fold)
        }
        Block::List { start, items } => Block::List {
            start,
            items: items.into_iter().map(keep).collect(),
        },
        other => other,
    }
}

/// The page without its sentinels, and the checks anchored where they
/// stood, in page order, each id once.
fn place_checks(blocks: Vec<Block>, quizzes: Vec<Vec<Check>>) -> (Vec<Block>, Vec<Check>) {
    let n = quizzes.len();
    let mut anchors: Vec<Option<usize>> = vec![None; n];
    let mut out = Vec::with_capacity(blocks.len());
    for b in blocks {
        match (quiz_in(&b, n), &b) {
            (Some(q), Block::Paragraph(_)) => anchors[q] = Some(out.len()),
            (Some(q), _) => {
                out.push(strip(b));
                anchors[q] = Some(out.len());
            }
            (None, _) => out.push(b),
        }
    }
    let mut seen = HashSet::new();
    // The next suffix to try for each id: a quiz used many times is not
    // numbered from 2 again for each of its uses.
    let mut suffix: HashMap<String, usize> = HashMap::new();
    let mut checks = Vec::new();
    for (q, list) in quizzes.into_iter().enumerate() {
        for mut c in list {
            c.anchor = Some(anchors[q].unwrap_or(out.len()));
            let mut id = c.id.clone();
            let k = suffix.entry(c.id.clone()).or_insert(2);
            while !seen.insert(id.clone()) {
                id = format!("{}~{k}", c.id);
                *k += 1;
            }
            c.id = id;
            checks.push(c);
        }
    }
    checks.sort_by_key(|c| c.anchor);
    (out, checks)
}

/// `lint` of a path in a book: the whole book, or the one chapter named.
/// `None` when the path is in no book.
pub(crate) fn lint(path: &Path) -> Option<Vec<Diagnostic>> {
    let book = find(path)?;
    let mut out: Vec<Diagnostic> = book.config_problem.iter().cloned().collect();
    out.extend(book.strangers.iter().cloned());
    if path.is_file()
        && super::super::format_of(path.as_os_str()) == Some(super::super::Format::Markdown)
    {
        let canon = std::fs::canonicalize(path).ok();
        if canon != std::fs::canonicalize(book.summary_path()).ok() {
            out.extend(lint_chapter(&book, path));
            return Some(out);
        }
    }
    let outline = match book.outline() {
        Ok(found) => found,
        Err(d) => {
            out.push(d);
            return Some(out);
        }
    };
    let s = &outline.summary;
    let name = book.summary_path().display().to_string();
    let at = |line, column, severity, message: String| Diagnostic {
        line,
        column,
        severity,
        ..Diagnostic::error(&name, message)
    };
    for (line, column, m) in &s.problems {
        out.push(at(*line, *column, Severity::Warning, m.clone()));
    }
    let mut files = HashSet::new();
    for e in &s.entries {
        let Some(p) = &e.path else { continue };
        let file = book.src.join(p);
        if !files.insert(super::summary::normal(p)) {
            out.push(at(
                e.line,
                e.column,
                Severity::Error,
                format!("duplicate chapter file: {}", p.display()),
            ));
        } else if let Some(problem) = book.chapter_problem(p) {
            out.push(at(e.line, e.column, Severity::Error, problem));
        } else {
            out.extend(lint_chapter(&book, &file));
        }
    }
    Some(out)
}

fn lint_chapter(book: &Book, file: &Path) -> Vec<Diagnostic> {
    match walk::read_regular(file) {
        Ok(bytes) => read(book, file, &bytes).1,
        Err(e) => vec![Diagnostic::error(
            &file.display().to_string(),
            format!("cannot read chapter: {e}"),
        )],
    }
}
