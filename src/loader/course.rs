//! Folders → courses. Only each lesson's header is read here; bodies are
//! parsed when a lesson is opened.

use super::raw::{self, Text, text};
use super::sanitize::clean_owned;
use super::{Diagnostic, Origin};
use crate::model::{Course, LessonEntry, LessonStatus, Module};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Head {
    course: raw::Course,
    lesson: raw::LessonInfo,
    reader: Option<HeadReader>,
}

#[derive(Deserialize)]
struct HeadReader {
    module: Option<raw::Module>,
    #[serde(rename = "courseTitle")]
    course_title: Option<Text>,
}

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

/// Reads a lesson's header (identity, position, module): the whole file is
/// checked for JSON syntax, but no body is built.
pub fn read_head(origin: Origin) -> Headed {
    super::progress::tick();
    let name = origin.name();
    let broken = |origin: Origin, why: Diagnostic| {
        let stem = origin
            .path()
            .and_then(|p| p.file_stem())
            .map_or_else(|| name.clone(), |s| one_line(&s.to_string_lossy()));
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
    };
    let bytes = match super::read(&origin) {
        Ok(b) => b,
        Err(e) => {
            let d = Diagnostic::error(&name, format!("cannot read lesson: {e}"));
            return broken(origin, d);
        }
    };
    let mut de = serde_json::Deserializer::from_slice(super::strip_bom(&bytes));
    // A header that parses is not enough: the file must be one JSON value.
    let head = serde_path_to_error::deserialize::<_, Head>(&mut de)
        .ok()
        .filter(|_| de.end().is_ok());
    let head = match head {
        Some(h) => h,
        // The full loader words every problem best; ask it.
        None => {
            let why = match super::load_bytes(&name, &bytes) {
                Err(d) => d,
                Ok(_) => Diagnostic::error(&name, "unreadable lesson header"),
            };
            return Headed {
                digest: Some(super::walk::digest(&bytes)),
                ..broken(origin, why)
            };
        }
    };
    let module = head
        .reader
        .as_ref()
        .and_then(|r| r.module.as_ref())
        .map(|m| Module {
            index: m.index.unwrap_or(0),
            slug: m.slug.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
            title: m.title.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
        });
    let course_title =
        text(head.course.title).or_else(|| head.reader.and_then(|r| text(r.course_title)));
    Headed {
        entry: LessonEntry {
            origin,
            slug: head.lesson.slug.0,
            title: head.lesson.title.0,
            position: head.lesson.position,
            minutes: head.lesson.minutes,
            module: module.map(Box::new),
            status: LessonStatus::Ok,
        },
        course_slug: Some(head.course.slug.0),
        course_title,
        digest: Some(super::walk::digest(&bytes)),
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
pub fn json_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    Ok(super::walk::folder(dir)?.0.files)
}

/// `dir`'s folders, each once (a link back to `dir` is not one).
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    super::walk::folder(dir).map(|(_, d)| d).unwrap_or_default()
}

/// How a folder's courses are obtained: from its files' headers, or from
/// a cache that knows which files changed.
pub type Heads<'a> = dyn FnMut(&Path) -> Result<Vec<Course>, Diagnostic> + 'a;

/// Every lesson header of a folder, read from the files.
pub fn read_dir_heads(dir: &Path) -> Result<Vec<Headed>, Diagnostic> {
    let name = super::walk::shown(dir);
    let files = json_files(dir)
        .map_err(|e| Diagnostic::error(&name, format!("cannot read folder: {e}")))?;
    Ok(files
        .into_iter()
        .map(|f| read_head(Origin::File(f)))
        .collect())
}

/// The courses of one folder (usually one), read from the files.
pub fn scan_dir(dir: &Path) -> Result<Vec<Course>, Diagnostic> {
    Ok(group(read_dir_heads(dir)?, Some(dir.to_path_buf())))
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
    open_paths_with(paths, &mut scan_dir)
}

/// [`open_paths`] with folder headers from `heads` (e.g. a course index).
pub fn open_paths_with(paths: &[PathBuf], heads: &mut Heads) -> Result<Library, Diagnostic> {
    let mut lib = Library::default();
    for p in paths {
        let name = super::walk::shown(p);
        if p.is_dir() {
            let mut courses = heads(p)?;
            if courses.is_empty() {
                for sub in subdirs(p) {
                    courses.extend(heads(&sub)?);
                }
            }
            if courses.is_empty() {
                return Err(Diagnostic::error(
                    &name,
                    "no lesson files (*.json) in this folder",
                ));
            }
            lib.courses.extend(courses);
        } else if p.is_file() {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let courses = heads(dir)?;
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
