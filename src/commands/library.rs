//! The learner's library as the commands see it: every course the store
//! remembers, found where it was last opened (or said to be gone).

use crate::loader::{self, Progress};
use crate::model::Course;
use crate::store::{LibraryCourse, Store};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A course of the library.
pub(super) enum Shelf {
    /// Found where it was last opened.
    Here(Course),
    /// Its folder is gone (or no longer holds it): its progress is kept
    /// and shown, its lessons cannot be.
    Gone(LibraryCourse),
}

/// Every course of the library, most recently read first; the built-in
/// course alone when the library is empty. The lesson files read are
/// ticked on `progress`.
pub(super) fn shelves(store: &Store, progress: &Progress) -> Vec<Shelf> {
    let lib = store.library();
    if lib.is_empty() {
        return vec![Shelf::Here(loader::builtin_course())];
    }
    // A folder of several courses is read once for all of them.
    let mut read: HashMap<PathBuf, Vec<Course>> = HashMap::new();
    lib.into_iter()
        .map(|entry| {
            let Some(root) = entry.root.clone() else {
                let builtin = loader::builtin_course();
                return if builtin.slug == entry.slug {
                    Shelf::Here(builtin)
                } else {
                    Shelf::Gone(entry)
                };
            };
            if entry.is_gone() {
                return Shelf::Gone(entry);
            }
            let courses = read.entry(root.clone()).or_insert_with(|| {
                loader::open_paths_with_progress(&[root], progress)
                    .map(|l| l.courses)
                    .unwrap_or_default()
            });
            match courses.iter().find(|c| c.slug == entry.slug) {
                Some(c) => Shelf::Here(c.clone()),
                None => Shelf::Gone(entry),
            }
        })
        .collect()
}

/// The folders to open to have every course of the library that is still
/// there, and whether the built-in course is one of them.
pub(super) fn paths(shelves: &[Shelf]) -> (Vec<PathBuf>, bool) {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut builtin = false;
    for s in shelves {
        if let Shelf::Here(c) = s {
            match &c.root {
                Some(root) if !paths.contains(root) => paths.push(root.clone()),
                Some(_) => {}
                None => builtin = true,
            }
        }
    }
    (paths, builtin)
}

/// The paths a reader command (`review`, `drill`) opens: PATH, or with
/// none every course of the library (and the built-in guide when it is
/// one of them); an error when PATH is no lesson or course, or when
/// there is no terminal to read in.
pub(super) fn reader_paths(
    command: &str,
    path: Option<&Path>,
    common: &crate::cli::Common,
) -> Result<Vec<PathBuf>, String> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return Err(format!("{command} needs a terminal: stdout is not one"));
    }
    if let Some(why) = super::no_terminal() {
        return Err(why);
    }
    if let Some(p) = path {
        return match super::target::unfit(p) {
            Some(why) => Err(why),
            None => Ok(vec![p.to_path_buf()]),
        };
    }
    let dir = Store::data_dir(common.data_dir.as_deref());
    let (mut paths, builtin) = paths(&shelves(&Store::open(dir.as_deref()), &Progress::none()));
    if builtin {
        paths.push(PathBuf::from(crate::tui::BUILTIN));
    }
    Ok(paths)
}
