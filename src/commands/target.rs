//! What a command's PATH argument names.

use crate::loader::{self, Origin, Progress};
use crate::model::Course;
use crate::model::sanitize::clean;
use std::io::Read;
use std::path::Path;

/// A lesson or course named on the command line, or a built-in lesson
/// named `builtin:FILE`.
pub(super) enum Target {
    Lesson(Origin),
    Courses(Vec<Course>),
}

/// A folder's lesson files read are ticked on `progress`.
pub(super) fn resolve(path: Option<&Path>, progress: &Progress) -> super::Result<Target> {
    let Some(path) = path else {
        return Ok(Target::Courses(vec![loader::builtin_course()]));
    };
    if let Some(why) = unfit(path) {
        return Err(why.into());
    }
    let s = path.to_string_lossy();
    if let Some(name) = s.strip_prefix("builtin:")
        && let Some((n, _)) = loader::BUILTIN
            .iter()
            .find(|(n, _)| *n == name || n.trim_end_matches(".json") == name)
    {
        return Ok(Target::Lesson(Origin::Builtin(n)));
    }
    // A file of an mdBook that is not a chapter (book.toml, SUMMARY.md, a
    // listing) names the book.
    if path.is_file()
        && let Some(book) = loader::open_book(path)
    {
        let (course, start) = book?;
        if start.is_none() {
            return Ok(Target::Courses(vec![course]));
        }
    }
    if path.is_dir() {
        let lib = loader::open_paths_with_progress(&[path.to_path_buf()], progress)?;
        Ok(Target::Courses(lib.courses))
    } else {
        Ok(Target::Lesson(Origin::File(path.to_path_buf())))
    }
}

/// Why `path`, named on the command line, can be no lesson or course:
/// a missing path, a path that cannot be looked at, or a file of another
/// kind, each said of the path as a whole (a lesson's own mistakes are
/// said at their line and column by the loader). `-` and `builtin:`
/// names are not paths.
pub(super) fn unfit(path: &Path) -> Option<String> {
    let s = path.to_string_lossy();
    if s == "-" || s.starts_with("builtin:") {
        return None;
    }
    let name = clean(&s);
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(format!("{name}: no such file or folder"));
        }
        Err(e) => return Some(format!("{name}: cannot be looked at: {e}")),
    };
    // A folder's own problems (no lesson files in it) are the loader's.
    if meta.is_dir() {
        return None;
    }
    if let Some(why) = crate::own::refusal(&meta) {
        return Some(format!("{name}: {why}: lectern reads files and folders"));
    }
    let claimed = loader::format_of(path.as_os_str()).is_some();
    if claimed || starts_like_json(path) || loader::open_book(path).is_some() {
        return None;
    }
    Some(format!(
        "{name}: not a lesson: lectern reads .json and .md lesson files, \
         course folders and mdBooks"
    ))
}

/// Whether the file's first byte past white space opens a JSON object:
/// a lesson under a name no format claims is read as JSON.
fn starts_like_json(path: &Path) -> bool {
    let mut head = [0u8; 512];
    let Ok((file, _)) = crate::own::open_regular(path) else {
        return false;
    };
    let n = file.take(head.len() as u64).read(&mut head).unwrap_or(0);
    head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}
