//! The one rule for what a book may read: a file whose real path (every
//! link followed) is inside the book's folder. The chapters SUMMARY.md
//! names, includes, quizzes and `book.toml`'s `src` are all held to it, so
//! neither `../`, an absolute path nor a link shows a file from elsewhere.

use std::path::{Path, PathBuf};

/// Why a path may not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Nothing is there (or a link leads nowhere).
    Missing,
    /// It is, or leads, outside the book.
    Outside,
}

/// The real path of `path`, when it is inside `root` (canonical).
pub fn inside(root: &Path, path: &Path) -> Result<PathBuf, Refused> {
    let canon = std::fs::canonicalize(path).map_err(|_| Refused::Missing)?;
    if canon.starts_with(root) {
        Ok(canon)
    } else {
        Err(Refused::Outside)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_absolute_paths_and_links_out_are_outside() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("book");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(d.path().join("secret.md"), "x").unwrap();
        std::fs::write(root.join("src/in.md"), "x").unwrap();
        std::os::unix::fs::symlink(d.path().join("secret.md"), root.join("src/link.md")).unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        let at = |p: &str| inside(&root, &root.join("src").join(p)).map(|_| ());
        assert_eq!(at("in.md"), Ok(()));
        assert_eq!(at("./../src/in.md"), Ok(()));
        assert_eq!(at("../../secret.md"), Err(Refused::Outside));
        assert_eq!(
            at(&d.path().join("secret.md").display().to_string()),
            Err(Refused::Outside)
        );
        assert_eq!(at("link.md"), Err(Refused::Outside));
        assert_eq!(at("none.md"), Err(Refused::Missing));
    }
}
