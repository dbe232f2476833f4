//! Folders → courses. Only each lesson's header is read here; bodies are
//! parsed when a lesson is opened.

use super::progress::Progress;
use super::sanitize::clean_owned;
use super::{Diagnostic, Origin};
use crate::model::{Course, LessonEntry, LessonStatus};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a folder scan learns of one lesson file without parsing its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Headed {
    pub entry: LessonEntry,
    pub course_slug: Option<String>,
    pub course_title: Option<String>,
    /// [`super::walk::digest`] of the bytes read, when they were: a cache
    /// keeps it to tell a rewritten file from the same one.
    pub digest: Option<u64>,
}

/// Reads a lesson's header (identity, position, module) in the format its
/// name says, without building its body.
pub fn read_head(origin: Origin) -> Headed {
    match super::read(&origin) {
        Ok(bytes) => super::source::head(origin, &bytes),
        Err(e) => {
            let d = Diagnostic::error(&origin.name(), super::cannot_read(&e));
            broken(origin, d)
        }
    }
}

/// The entry of a lesson that cannot be opened: named by its file.
pub(super) fn broken(origin: Origin, why: Diagnostic) -> Headed {
    let stem = origin
        .path()
        .and_then(|p| p.file_stem())
        .map_or_else(|| origin.name(), |s| one_line(&s.to_string_lossy()));
    Headed {
        entry: LessonEntry {
            origin,
            slug: stem.clone(),
            title: stem,
            position: None,
            minutes: None,
            module: None,
            status: LessonStatus::Broken(why),
        },
        course_slug: None,
        course_title: None,
        digest: None,
    }
}

/// A file name as a title: sanitised, and on one line (a newline in a name
/// would break the line of the contents it is shown on).
fn one_line(s: &str) -> String {
    clean_owned(s)
        .replace('\n', "\u{240a}")
        .replace('\t', "\u{2409}")
}

/// Groups lessons into courses by `course.slug`; unreadable lessons join
/// the largest course so they still show up (marked broken) in its
/// table of contents.
pub fn group(heads: Vec<Headed>, root: Option<PathBuf>) -> Vec<Course> {
    let mut by_slug: BTreeMap<String, Course> = BTreeMap::new();
    let mut orphans = Vec::new();
    for h in heads {
        match h.course_slug {
            Some(slug) => {
                let c = by_slug.entry(slug.clone()).or_insert_with(|| Course {
                    slug: slug.clone(),
                    title: String::new(),
                    root: root.clone(),
                    lessons: Vec::new(),
                });
                if c.title.is_empty() {
                    c.title = h.course_title.unwrap_or_default();
                }
                c.lessons.push(h.entry);
            }
            None => orphans.push(h.entry),
        }
    }
    let mut courses: Vec<Course> = by_slug.into_values().collect();
    if !orphans.is_empty() {
        match courses.iter_mut().max_by_key(|c| c.lessons.len()) {
            Some(c) => c.lessons.extend(orphans),
            None => {
                let slug = root.as_ref().and_then(|r| r.file_name()).map_or_else(
                    || "course".to_string(),
                    |n| clean_owned(&n.to_string_lossy()),
                );
                courses.push(Course {
                    slug: slug.clone(),
                    title: slug,
                    root: root.clone(),
                    lessons: orphans,
                });
            }
        }
    }
    for c in &mut courses {
        if c.title.is_empty() {
            c.title = c.slug.clone();
        }
        c.sort();
        // Markdown lessons are numbered by where their files sit.
        if c.lessons
            .iter()
            .all(|l| l.position.is_none() && super::is_markdown(&l.origin))
        {
            for (i, l) in c.lessons.iter_mut().enumerate() {
                l.position = u32::try_from(i + 1).ok();
            }
        }
    }
    courses
}

pub fn course_from(origins: Vec<Origin>, root: Option<PathBuf>) -> Course {
    let mut courses = group(origins.into_iter().map(read_head).collect(), root);
    let biggest = (0..courses.len()).max_by_key(|&i| courses[i].lessons.len());
    biggest.map(|i| courses.swap_remove(i)).unwrap_or_default()
}

/// The lesson files directly in `dir`, through the one walker: a FIFO or
/// device named like a lesson is skipped, never opened.
pub fn lesson_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    super::source::lesson_files(dir)
}

/// `dir`'s folders, each once (a link back to `dir` is not one).
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    super::walk::folder(dir).map(|(_, d)| d).unwrap_or_default()
}

/// How a folder's courses are obtained: from its files' headers, or from
/// a cache that knows which files changed.
pub type Heads<'a> = dyn FnMut(&Path) -> Result<Vec<Course>, Diagnostic> + 'a;

/// Every lesson header of a folder, read from the files, each ticked on
/// `progress`.
pub fn read_dir_heads(dir: &Path, progress: &Progress) -> Result<Vec<Headed>, Diagnostic> {
    // A folder read as a course is one the learner named.
    named(dir);
    let name = super::walk::shown(dir);
    let files = lesson_files(dir)
        .map_err(|e| Diagnostic::error(&name, format!("cannot read folder: {e}")))?;
    Ok(super::books_once(|| {
        files
            .into_iter()
            .map(|f| {
                progress.tick();
                read_head(Origin::File(f))
            })
            .collect()
    }))
}

/// The courses of one folder (usually one), read from the files.
pub fn scan_dir(dir: &Path) -> Result<Vec<Course>, Diagnostic> {
    scan_dir_with_progress(dir, &Progress::none())
}

/// [`scan_dir`], each file read ticked on `progress`.
pub fn scan_dir_with_progress(dir: &Path, progress: &Progress) -> Result<Vec<Course>, Diagnostic> {
    Ok(group(
        read_dir_heads(dir, progress)?,
        Some(dir.to_path_buf()),
    ))
}

/// `p` absolute, links resolved; as given when it cannot be.
fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `p`, named by the learner, is a course (a file: its folder is), for
/// the markdown lessons under it (see `source::markdown`).
pub fn named(p: &Path) {
    let dir = if p.is_dir() { Some(p) } else { p.parent() };
    if let Some(dir) = dir
        .filter(|d| !d.as_os_str().is_empty())
        .or(Some(Path::new(".")))
    {
        super::source::markdown::named(&canonical(dir));
    }
}

/// Everything the reader was asked to open.
#[derive(Debug, Default)]
pub struct Library {
    pub courses: Vec<Course>,
    /// The course and lesson to open first, when a lesson file was named.
    pub start: Option<(usize, usize)>,
}

/// Resolves command-line paths: lesson files (inside their course when
/// their folder holds it), course folders, and folders of course folders.
pub fn open_paths(paths: &[PathBuf]) -> Result<Library, Diagnostic> {
    open_paths_with_progress(paths, &Progress::none())
}

/// [`open_paths`], each lesson file read ticked on `progress`.
pub fn open_paths_with_progress(
    paths: &[PathBuf],
    progress: &Progress,
) -> Result<Library, Diagnostic> {
    open_paths_with(paths, &mut |dir| scan_dir_with_progress(dir, progress))
}

/// [`open_paths`] with folder headers from `heads` (e.g. a course index).
pub fn open_paths_with(paths: &[PathBuf], heads: &mut Heads) -> Result<Library, Diagnostic> {
    // Every chapter of a book read here finds the same book.
    super::books_once(|| open_all(paths, heads))
}

fn open_all(paths: &[PathBuf], heads: &mut Heads) -> Result<Library, Diagnostic> {
    let mut lib = Library::default();
    for p in paths {
        let name = super::walk::shown(p);
        // A path in an mdBook is the book (at its chapter, when it names one).
        if let Some(book) = super::source::mdbook::open(p) {
            let (course, start) = book?;
            if let Some(li) = start {
                lib.start.get_or_insert((lib.courses.len(), li));
            }
            lib.courses.push(course);
            continue;
        }
        if p.is_dir() {
            // Stored as the course's root: absolute and canonical, so a
            // course opened by a relative path is found from anywhere.
            let p = &canonical(p);
            super::source::markdown::named(p);
            let mut courses = heads(p)?;
            if courses.is_empty() {
                for sub in subdirs(p) {
                    // A folder of books: each is read as a book.
                    match super::source::mdbook::open(&sub) {
                        Some(book) => courses.push(book?.0),
                        None => courses.extend(heads(&sub)?),
                    }
                }
            }
            if courses.is_empty() {
                return Err(Diagnostic::error(
                    &name,
                    "no lesson files (*.json, *.md) in this folder",
                ));
            }
            lib.courses.extend(courses);
        } else if p.is_file() {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let dir = canonical(dir);
            super::source::markdown::named(&dir);
            let courses = heads(&dir)?;
            // Every lesson here shares the folder: the file name decides.
            let target = p.file_name();
            let found = courses.iter().enumerate().find_map(|(ci, c)| {
                c.lessons
                    .iter()
                    .position(|l| l.origin.path().is_some_and(|lp| lp.file_name() == target))
                    .map(|li| (ci, li))
            });
            let base = lib.courses.len();
            match found {
                Some((ci, li)) => {
                    lib.start.get_or_insert((base, li));
                    lib.courses
                        .push(courses.into_iter().nth(ci).unwrap_or_default());
                }
                None => {
                    lib.start.get_or_insert((base, 0));
                    lib.courses
                        .push(course_from(vec![Origin::File(p.clone())], None));
                }
            }
        } else {
            // A FIFO or device on the command line is named as such.
            let skipped = super::walk::tree(p).skipped;
            let why = skipped.first().map_or("no such file or folder", |s| s.why);
            return Err(Diagnostic::error(&name, why));
        }
    }
    Ok(lib)
}
