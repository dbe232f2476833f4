//! The files one chapter's expansion reads: each path looked up, and each
//! file read, once however often it is included (100,000 includes of one
//! file looked it up and read it 100,000 times), and only when the book
//! may show it (see `inside`).

use super::super::inside::{Refused, inside};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[derive(Default)]
pub struct Files {
    /// Each path as written (tidied) → its real path, or why not.
    found: HashMap<PathBuf, Result<PathBuf, Refused>>,
    /// Each real path read → its text.
    texts: HashMap<PathBuf, Rc<str>>,
}

impl Files {
    /// The real path of `target`, when it is inside `root`.
    pub fn find(&mut self, root: &Path, target: &Path) -> Result<PathBuf, Refused> {
        if let Some(known) = self.found.get(target) {
            return known.clone();
        }
        let found = inside(root, target);
        self.found.insert(target.to_path_buf(), found.clone());
        found
    }

    /// How many bytes reading `canon` gives (or gave).
    pub fn len(&self, canon: &Path) -> std::io::Result<u64> {
        match self.texts.get(canon) {
            Some(t) => Ok(t.len() as u64),
            None => std::fs::metadata(canon).map(|m| m.len()),
        }
    }

    /// The text of `canon`: a regular file, read once.
    pub fn text(&mut self, canon: &Path) -> std::io::Result<Rc<str>> {
        if let Some(t) = self.texts.get(canon) {
            return Ok(t.clone());
        }
        let bytes = crate::loader::walk::read_regular(canon)?;
        let text: Rc<str> = String::from_utf8_lossy(&bytes).into();
        self.texts.insert(canon.to_path_buf(), text.clone());
        Ok(text)
    }
}
