//! What a command's PATH argument names.

use crate::loader::{self, Diagnostic, Origin};
use crate::model::Course;
use std::path::Path;

/// A lesson or course named on the command line, or a built-in lesson
/// named `builtin:FILE`.
pub(super) enum Target {
    Lesson(Origin),
    Courses(Vec<Course>),
}

pub(super) fn resolve(path: Option<&Path>) -> Result<Target, Diagnostic> {
    let Some(path) = path else {
        return Ok(Target::Courses(vec![loader::builtin_course()]));
    };
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
        let lib = loader::open_paths(&[path.to_path_buf()])?;
        Ok(Target::Courses(lib.courses))
    } else {
        Ok(Target::Lesson(Origin::File(path.to_path_buf())))
    }
}
