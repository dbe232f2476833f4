//! mdBook folders as courses. A book is a folder with a `book.toml` (its
//! `[book] src`, `src` by default, holds `SUMMARY.md`) or with a
//! `src/SUMMARY.md`. Its course comes from `book.toml` and `SUMMARY.md`
//! alone (each chapter file is only looked at for its size): the title is
//! `[book] title`, the lessons are the SUMMARY's chapters in its order,
//! the modules its parts, or its top-level chapters when it has none. A
//! chapter is read when it is opened, through mdBook's preprocessing
//! (`expand`), with its `{{#quiz}}` files as checks (`quiz`).

mod aquascope;
mod chapter;
mod expand;
mod hrefs;
pub(crate) mod inside;
mod lines;
mod outline;
mod preprocess;
mod quiz;
mod reach;
mod scope;
mod summary;

pub(crate) use chapter::{head, lint, load};
pub(crate) use reach::lint as lint_reach;
pub(crate) use scope::scope;

use super::super::sanitize::clean_owned;
use crate::model::{Course, Diagnostic, LessonEntry, LessonStatus, Severity};
use expand::Budgets;
use inside::{Refused, inside};
use outline::Outline;
use preprocess::Preprocessors;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// How many folders above a path are looked at for its book.
const MAX_UP: usize = 12;

/// A book found on disk, before its chapters are read.
#[derive(Debug, Clone)]
pub struct Book {
    /// The book's folder, as found from the path given.
    pub root: PathBuf,
    /// Canonical: what includes must stay inside.
    canon_root: PathBuf,
    pub src: PathBuf,
    pub title: String,
    pub slug: String,
    /// What is wrong with `book.toml`, if anything.
    config_problem: Option<Diagnostic>,
    /// Why `src` is not read (it is outside the book), said in place of
    /// the chapters.
    src_problem: Option<Diagnostic>,
    /// SUMMARY.md, read the first time it is needed (shared by clones).
    outline: Arc<OnceLock<Result<Arc<Outline>, Diagnostic>>>,
    /// The book's web address (`[output.html] site-url`), when it is a
    /// whole one (mdBook also takes a bare path): where links out of the
    /// book go.
    site: Option<String>,
    /// The preprocessors `book.toml` names.
    preprocessors: Preprocessors,
    /// Lint's word on each of them lectern does not know.
    strangers: Vec<Diagnostic>,
    /// mdbook-spec's rule ids, read from every chapter the first time a
    /// chapter needs them (shared by clones).
    rules: Arc<OnceLock<Arc<preprocess::Rules>>>,
    /// What the chapters read through this book may still include.
    budgets: Arc<Mutex<Budgets>>,
}

#[derive(Deserialize, Default)]
struct Config {
    #[serde(default)]
    book: BookTable,
    #[serde(default)]
    output: Output,
    /// `[preprocessor.NAME]` tables: what each holds is the tool's own.
    #[serde(default)]
    preprocessor: toml::Table,
}

#[derive(Deserialize, Default)]
struct BookTable {
    title: Option<String>,
    src: Option<toml::Spanned<String>>,
}

#[derive(Deserialize, Default)]
struct Output {
    #[serde(default)]
    html: Html,
}

#[derive(Deserialize, Default)]
struct Html {
    #[serde(rename = "git-repository-url")]
    repository: Option<String>,
    #[serde(rename = "site-url")]
    site: Option<String>,
}

/// The folders to look in for a book holding `path`: the path's own
/// (lexically, so messages name files as they were given), then, for a
/// relative path, the real folders above the working one.
fn ancestors(path: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let start = if path.is_dir() {
        Some(path)
    } else {
        path.parent()
    };
    for a in start.into_iter().flat_map(Path::ancestors).take(MAX_UP) {
        out.push(if a.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            a.to_path_buf()
        });
    }
    if path.is_relative() {
        if let Some(last) = out.last().and_then(|l| std::fs::canonicalize(l).ok()) {
            out.extend(last.ancestors().skip(1).take(MAX_UP).map(Path::to_path_buf));
        }
    }
    out.truncate(MAX_UP * 2);
    out
}

/// The book `path` is in or is, if any.
pub fn find(path: &Path) -> Option<Book> {
    for dir in ancestors(path) {
        let toml = dir.join("book.toml");
        if toml.is_file() {
            return Some(scope::book(&dir, || from_config(dir.clone(), toml)));
        }
        if dir.join("src").join("SUMMARY.md").is_file() {
            let src = dir.join("src");
            return Some(scope::book(&dir, || {
                book(dir.clone(), src, Config::default(), None)
            }));
        }
    }
    None
}

fn from_config(dir: PathBuf, toml: PathBuf) -> Book {
    let text = crate::loader::walk::read_regular(&toml)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let (config, problem) = match toml::from_str::<Config>(&text) {
        Ok(c) => (c, None),
        Err(e) => {
            let (line, column) = summary::line_col(&text, e.span().map_or(0, |r| r.start));
            let message = format!(
                "book.toml does not parse: {}",
                e.message().trim().replace('\n', " ")
            );
            let d = Diagnostic {
                line,
                column,
                severity: Severity::Error,
                ..Diagnostic::error(&toml.display().to_string(), message)
            };
            (Config::default(), Some(d))
        }
    };
    let src_at = config.book.src.as_ref().map_or(0, |s| s.span().start);
    let src = dir.join(
        config
            .book
            .src
            .as_ref()
            .map_or("src", |s| s.get_ref().as_str()),
    );
    let mut b = book(dir, src, config, problem);
    b.strangers = strangers(&b.preprocessors, &text, &toml);
    if inside(&b.canon_root, &b.src) == Err(Refused::Outside) {
        let (line, column) = summary::line_col(&text, src_at);
        let message = format!(
            "`src` names a folder outside the book ({}): chapters are read from inside it only",
            b.src.display()
        );
        b.src_problem = Some(Diagnostic {
            line,
            column,
            ..Diagnostic::error(&toml.display().to_string(), message)
        });
    }
    b
}

/// A warning for each preprocessor `book.toml` (`text`, at `toml`) names
/// that lectern does not know, where its table starts.
fn strangers(p: &Preprocessors, text: &str, toml: &Path) -> Vec<Diagnostic> {
    p.unknown()
        .iter()
        .map(|name| {
            let at = text.find(&format!("[preprocessor.{name}]")).unwrap_or(0);
            let (line, column) = summary::line_col(text, at);
            let message = format!(
                "preprocessor `{name}` is one lectern does not know: what it would add is shown as written"
            );
            Diagnostic {
                line,
                column,
                severity: Severity::Warning,
                ..Diagnostic::error(&toml.display().to_string(), message)
            }
        })
        .collect()
}

fn book(root: PathBuf, src: PathBuf, c: Config, problem: Option<Diagnostic>) -> Book {
    let canon_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    let folder = canon_root
        .file_name()
        .map_or_else(|| "book".to_string(), |n| clean_owned(&n.to_string_lossy()));
    let title = c
        .book
        .title
        .map(|t| one_line(&t))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| folder.clone());
    let site = c
        .output
        .html
        .site
        .filter(|u| crate::model::link::is_web(u) && !u.starts_with("mailto:"));
    Book {
        root: canon_root.clone(),
        slug: slug_for(c.output.html.repository.as_deref(), &title, &folder),
        site,
        preprocessors: Preprocessors::named(c.preprocessor.keys().map(String::as_str)),
        strangers: Vec::new(),
        rules: Arc::default(),
        canon_root,
        src,
        title,
        config_problem: problem,
        src_problem: None,
        outline: Arc::default(),
        budgets: Arc::new(Mutex::new(Budgets::book())),
    }
}

/// A course's slug keys its progress: the book's repository (`owner-repo`)
/// when `book.toml` names one, so a copy anywhere and a fork with the same
/// title are told apart; else its title; else its folder's name.
fn slug_for(repository: Option<&str>, title: &str, folder: &str) -> String {
    let from_repo = repository.and_then(|url| {
        let parts: Vec<&str> = url
            .trim_end_matches('/')
            .trim_end_matches(".git")
            .rsplit('/')
            .take(2)
            .collect();
        (parts.len() == 2).then(|| slugify(&format!("{}-{}", parts[1], parts[0])))
    });
    from_repo
        .filter(|s| !s.is_empty())
        .or_else(|| Some(slugify(title)).filter(|s| !s.is_empty()))
        .unwrap_or_else(|| slugify(folder))
}

fn slugify(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A chapter's reading time from its file's size, the same in the
/// contents (which reads no chapter) and on its page: about 6 bytes a
/// word, 200 words a minute.
fn reading_minutes(bytes: u64) -> u32 {
    u32::try_from(bytes.div_ceil(1200).max(1)).unwrap_or(u32::MAX)
}

fn one_line(s: &str) -> String {
    clean_owned(s.trim()).replace(['\n', '\t'], " ")
}

impl Book {
    pub fn summary_path(&self) -> PathBuf {
        self.src.join("SUMMARY.md")
    }

    /// SUMMARY.md, read and parsed once per book.
    fn outline(&self) -> Result<Arc<Outline>, Diagnostic> {
        let read = || {
            if let Some(d) = &self.src_problem {
                return Err(d.clone());
            }
            let path = self.summary_path();
            let bytes = crate::loader::walk::read_regular(&path).map_err(|e| {
                Diagnostic::error(
                    &path.display().to_string(),
                    format!("cannot read the book's SUMMARY.md: {e}"),
                )
            })?;
            let text = String::from_utf8_lossy(&bytes);
            #[cfg(test)]
            crate::work::add(text.len());
            Ok(Arc::new(Outline::new(summary::parse(&text))))
        };
        self.outline.get_or_init(read).clone()
    }

    /// The rule ids of the book's chapters (see `preprocess`).
    fn rules(&self) -> Arc<preprocess::Rules> {
        let read = || {
            let outline = self.outline().ok();
            let entries = outline.iter().flat_map(|o| o.summary.entries.iter());
            let files = entries.filter_map(|e| e.path.as_deref());
            Arc::new(Preprocessors::rules(&self.src, files))
        };
        self.rules.get_or_init(read).clone()
    }

    /// What is wrong with the chapter file `p` (as SUMMARY.md names it),
    /// `None` for a regular file inside the book.
    fn chapter_problem(&self, p: &Path) -> Option<String> {
        let shown = p.display().to_string();
        let file = self.src.join(p);
        match inside(&self.canon_root, &file) {
            Err(Refused::Outside) => Some(format!(
                "chapter file {shown} is outside the book: chapters are read from inside it only"
            )),
            _ => crate::loader::walk::chapter_problem(&shown, &file),
        }
    }

    /// A chapter's lesson slug: its path in `src`, without `.md`.
    fn slug(path: &Path) -> String {
        let rel = summary::normal(&path.with_extension(""));
        let parts: Vec<String> = rel
            .iter()
            .map(|c| clean_owned(&c.to_string_lossy()))
            .collect();
        parts.join("/")
    }

    /// The course: one lesson per chapter of SUMMARY.md, in its order.
    pub fn course(&self) -> Result<Course, Diagnostic> {
        let outline = self.outline()?;
        let s = &outline.summary;
        let summary_name = self.summary_path().display().to_string();
        let lessons = s
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let title = one_line(&e.title);
                let (origin, slug, status, minutes) = match &e.path {
                    Some(p) => {
                        let file = self.src.join(p);
                        let problem = self.chapter_problem(p);
                        let size = std::fs::metadata(&file)
                            .ok()
                            .filter(|m| m.is_file() && problem.is_none())
                            .map(|m| m.len());
                        let status = match problem {
                            None => LessonStatus::Ok,
                            Some(problem) => LessonStatus::Broken(Diagnostic {
                                line: e.line,
                                column: e.column,
                                ..Diagnostic::error(&summary_name, problem)
                            }),
                        };
                        let minutes = size.map(reading_minutes);
                        (
                            crate::model::Origin::File(file),
                            Self::slug(p),
                            status,
                            minutes,
                        )
                    }
                    None => (
                        crate::model::Origin::File(
                            self.src.join(format!("SUMMARY.md#draft-{}", i + 1)),
                        ),
                        format!("draft-{}", slugify(&title)),
                        LessonStatus::Broken(Diagnostic {
                            line: e.line,
                            column: e.column,
                            severity: Severity::Warning,
                            ..Diagnostic::error(&summary_name, "not yet written (a draft chapter)")
                        }),
                        None,
                    ),
                };
                LessonEntry {
                    origin,
                    slug,
                    title,
                    position: u32::try_from(i + 1).ok(),
                    minutes,
                    module: outline.modules[i].clone().map(Box::new),
                    status,
                }
            })
            .collect();
        Ok(Course {
            slug: self.slug.clone(),
            title: self.title.clone(),
            root: Some(self.root.clone()),
            lessons,
        })
    }
}

/// The course of the book `path` is in, and the lesson `path` is, if it
/// names a chapter. `None` when `path` is in no book.
pub fn open(path: &Path) -> Option<Result<(Course, Option<usize>), Diagnostic>> {
    let book = find(path)?;
    Some(book.course().map(|course| {
        let start = path
            .is_file()
            .then(|| chapter_of(&book, &course, path))
            .flatten();
        (course, start)
    }))
}

/// Which lesson of `course` the file `path` is.
fn chapter_of(book: &Book, course: &Course, path: &Path) -> Option<usize> {
    let canon = std::fs::canonicalize(path).ok()?;
    let src = std::fs::canonicalize(&book.src).ok()?;
    let rel = canon.strip_prefix(&src).ok()?;
    let slug = Book::slug(rel);
    course
        .lessons
        .iter()
        .position(|l| l.slug == slug && matches!(l.status, LessonStatus::Ok))
}

#[cfg(test)]
mod tests;
