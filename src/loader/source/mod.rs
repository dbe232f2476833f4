//! The formats a lesson can be written in, each a module that turns a
//! file's bytes into the same model: a [`Headed`] for the course view and
//! a [`Loaded`] lesson for the reader. Layout and UI never learn which
//! format a lesson came from; a new format (mdBook, …) is one more module
//! and one more line in [`FORMATS`].

mod json;
pub(crate) mod markdown;
pub(crate) mod mdbook;

use super::course::Headed;
use super::{Diagnostic, Loaded, Origin};
use std::ffi::OsStr;
use std::path::Path;

/// A lesson file's format, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
}

/// Every format, with the file extensions (any case) it reads.
pub const FORMATS: &[(Format, &[&str])] = &[
    (Format::Json, &["json"]),
    (Format::Markdown, &["md", "markdown"]),
];

/// The format of a file named `name`, if lectern reads it.
pub fn format_of(name: &OsStr) -> Option<Format> {
    let ext = Path::new(name).extension()?;
    FORMATS
        .iter()
        .find(|(_, exts)| exts.iter().any(|x| ext.eq_ignore_ascii_case(x)))
        .map(|&(f, _)| f)
}

/// The format of the lesson at `origin`: built-in lessons are JSON, and so
/// is a file with a name no format claims (its loader says what is wrong).
pub fn format_of_origin(origin: &Origin) -> Format {
    origin
        .path()
        .and_then(|p| format_of(p.as_os_str()))
        .unwrap_or(Format::Json)
}

/// Whether the lesson at `origin` is a markdown file (ordered by its name,
/// not by a `position`).
pub fn is_markdown(origin: &Origin) -> bool {
    format_of_origin(origin) == Format::Markdown
}

/// The lesson in `bytes`, read from `origin`.
pub fn load(origin: &Origin, bytes: &[u8]) -> Result<Loaded, Diagnostic> {
    let mut loaded = match format_of_origin(origin) {
        Format::Json => super::load_bytes(&origin.name(), bytes),
        // A chapter of an mdBook is read through mdBook's preprocessing.
        Format::Markdown => match mdbook::load(origin, bytes) {
            Some(chapter) => chapter,
            None => Ok(markdown::load(origin, bytes)),
        },
    }?;
    // Outside a book (whose chapters found theirs), a lesson's pictures
    // are in its own folder.
    if let Some(dir) = origin.path().and_then(Path::parent) {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let at = super::image_files::Places {
            dir: &dir,
            src: &dir,
            root: &dir,
        };
        super::image_files::resolve(&mut loaded.lesson.blocks, &at);
        let said = super::image_lint::findings(&loaded.lesson);
        loaded.findings.extend(said);
    }
    Ok(loaded)
}

/// The header of the lesson in `bytes`, read from `origin`.
pub fn head(origin: Origin, bytes: &[u8]) -> Headed {
    match format_of_origin(&origin) {
        Format::Json => json::head(origin, bytes),
        Format::Markdown => match mdbook::head(&origin, bytes) {
            Some(h) => h,
            None => markdown::head(origin, bytes),
        },
    }
}

/// The lesson files of the course folder `dir`. A folder with JSON lessons
/// is a JSON course: its markdown files (a README) are about the course,
/// not lessons. A folder of markdown files is a markdown course, and the
/// markdown files of its folders (at any depth) are its modules' lessons.
pub fn lesson_files(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let (walk, dirs) = super::walk::folder(dir)?;
    let is = |f: Format| move |p: &std::path::PathBuf| format_of(p.as_os_str()) == Some(f);
    if walk.files.iter().any(is(Format::Json)) {
        return Ok(walk.files.into_iter().filter(is(Format::Json)).collect());
    }
    let mut files = walk.files;
    if !files.is_empty() {
        markdown::nested(dir, dirs, &mut files);
    }
    Ok(files)
}

/// [`super::walk::tree`] with the same rule: markdown files beside JSON
/// lessons are not lessons.
pub fn lesson_tree(root: &Path) -> super::walk::Walk {
    let mut walk = super::walk::tree(root);
    let json_dirs: std::collections::HashSet<&Path> = walk
        .files
        .iter()
        .filter(|p| format_of(p.as_os_str()) == Some(Format::Json))
        .filter_map(|p| p.parent())
        .collect();
    let keep: Vec<bool> = walk
        .files
        .iter()
        .map(|p| {
            format_of(p.as_os_str()) != Some(Format::Markdown)
                || p.parent().is_none_or(|d| !json_dirs.contains(d))
        })
        .collect();
    let mut keep = keep.into_iter();
    walk.files.retain(|_| keep.next().unwrap_or(true));
    walk
}

#[cfg(test)]
mod tests {
    use super::super::{course, open_paths, read_head};
    use super::*;
    use std::fs;

    fn book() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let b = d.path().join("my-book");
        fs::create_dir_all(b.join("02-part/inner")).unwrap();
        fs::create_dir_all(b.join(".git")).unwrap();
        fs::write(b.join("README.md"), "# The Book\n\nHello.\n").unwrap();
        fs::write(b.join("01-start.md"), "# Start here\n").unwrap();
        fs::write(b.join("03-end.md"), "no heading at all\n").unwrap();
        fs::write(b.join("02-part/index.md"), "# Part Two\n").unwrap();
        fs::write(b.join("02-part/a.md"), "# A\n").unwrap();
        fs::write(b.join("02-part/inner/b.md"), "# B\n").unwrap();
        fs::write(b.join(".git/notes.md"), "# hidden\n").unwrap();
        fs::write(b.join("notes.txt"), "not a lesson").unwrap();
        d
    }

    #[test]
    fn a_folder_of_markdown_is_a_course_in_file_order() {
        let d = book();
        let lib = open_paths(&[d.path().join("my-book")]).unwrap();
        assert_eq!(lib.courses.len(), 1);
        let c = &lib.courses[0];
        assert_eq!((c.slug.as_str(), c.title.as_str()), ("my-book", "The Book"));
        let slugs: Vec<&str> = c.lessons.iter().map(|l| l.slug.as_str()).collect();
        assert_eq!(
            slugs,
            [
                "README",
                "01-start",
                "02-part/index",
                "02-part/a",
                "02-part/inner/b",
                "03-end"
            ]
        );
        let titles: Vec<&str> = c.lessons.iter().map(|l| l.title.as_str()).collect();
        assert_eq!(
            titles[5], "End",
            "a file without a heading is named by its file"
        );
        let modules = c.modules();
        let m = modules[1].module.as_ref().unwrap();
        assert_eq!((m.index, m.title.as_str()), (1, "Part Two"));
        assert_eq!(
            modules[1].lessons.len(),
            3,
            "nested folders join their module"
        );
        assert_eq!(c.lessons[4].position, Some(5));
    }

    #[test]
    fn a_lesson_has_the_same_keys_however_it_is_opened() {
        let d = book();
        let file = d.path().join("my-book/02-part/inner/b.md");
        // Opened alone, a file is a lesson of its own folder, never of a
        // folder above it that the learner did not name.
        let lib = open_paths(std::slice::from_ref(&file)).unwrap();
        let (ci, li) = lib.start.unwrap();
        assert_eq!(lib.courses[ci].lessons[li].slug, "b");
        assert_eq!(lib.courses[ci].slug, "inner");
        // Inside the folder named, its path from there, read either way.
        let lib = open_paths(&[d.path().join("my-book")]).unwrap();
        assert!(
            lib.courses[0]
                .lessons
                .iter()
                .any(|l| l.slug == "02-part/inner/b")
        );
        let head = read_head(Origin::File(file.clone()));
        let lesson = super::super::load(&Origin::File(file.clone()))
            .unwrap()
            .lesson;
        assert_eq!(head.entry.slug, "02-part/inner/b");
        assert_eq!(lesson.meta.slug, head.entry.slug);
        assert_eq!(lesson.meta.course_slug, "my-book");
        assert_eq!(lesson.meta.course_title, "The Book");
        assert_eq!(lesson.meta.title, "B");
        assert!(
            lesson.blocks.is_empty(),
            "the title heading is not shown twice"
        );
    }

    #[test]
    fn notes_beside_stray_notes_in_a_parent_are_a_course_of_their_own() {
        let home = tempfile::tempdir().unwrap();
        fs::write(home.path().join("todo.md"), "# Todo\n").unwrap();
        for (dir, file) in [("notes", "a.md"), ("recipes", "bread.md")] {
            fs::create_dir(home.path().join(dir)).unwrap();
            fs::write(home.path().join(dir).join(file), "# Page\n\ntext\n").unwrap();
        }
        let notes = open_paths(&[home.path().join("notes")]).unwrap();
        let recipes = open_paths(&[home.path().join("recipes")]).unwrap();
        assert_eq!(notes.courses[0].slug, "notes");
        assert_eq!(recipes.courses[0].slug, "recipes");
        assert_eq!(notes.courses[0].lessons[0].slug, "a");
    }

    #[test]
    fn markdown_beside_json_lessons_is_not_a_lesson() {
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join("README.md"), "# About this course\n").unwrap();
        fs::write(d.path().join("a.json"), "{}").unwrap();
        let files = course::lesson_files(d.path()).unwrap();
        assert_eq!(files, [d.path().join("a.json")]);
        let tree = lesson_tree(d.path());
        assert_eq!(tree.files, [d.path().join("a.json")]);
    }
}
