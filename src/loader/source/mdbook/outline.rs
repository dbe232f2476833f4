//! A book's SUMMARY.md as its chapters' places: parsed once per book (see
//! `scope`), with each entry's module, the chapters before and after it,
//! and which entry a chapter file is, so opening a chapter looks its
//! place up rather than reading and walking the whole summary again.

use super::summary::{self, Section, Summary};
use super::{Book, one_line, slugify};
use crate::model::Module;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug)]
pub struct Outline {
    pub summary: Summary,
    /// Each entry's module (see [`modules`]).
    pub modules: Vec<Option<Module>>,
    /// The first entry naming each chapter file (its path normalised),
    /// made on the second look-up: a chapter opened alone looks once.
    by_path: OnceLock<HashMap<PathBuf, usize>>,
    looked: AtomicBool,
    /// For each entry, the nearest entries before and after it that have
    /// a file (drafts are skipped).
    prev: Vec<Option<usize>>,
    next: Vec<Option<usize>>,
}

impl Outline {
    pub fn new(summary: Summary) -> Outline {
        let written = |i: usize| summary.entries[i].path.is_some();
        let n = summary.entries.len();
        let mut prev = Vec::with_capacity(n);
        let mut last = None;
        for i in 0..n {
            prev.push(last);
            if written(i) {
                last = Some(i);
            }
        }
        let mut next = vec![None; n];
        last = None;
        for i in (0..n).rev() {
            next[i] = last;
            if written(i) {
                last = Some(i);
            }
        }
        Outline {
            modules: modules(&summary),
            summary,
            by_path: OnceLock::new(),
            looked: AtomicBool::new(false),
            prev,
            next,
        }
    }

    /// The entry of the chapter file `rel` (relative to `src`).
    pub fn entry_of(&self, rel: &Path) -> Option<usize> {
        let entries = &self.summary.entries;
        let path_of = |i: usize| entries[i].path.as_deref().map(summary::normal);
        if self.by_path.get().is_none() && !self.looked.swap(true, Ordering::Relaxed) {
            return (0..entries.len()).find(|&i| path_of(i).as_deref() == Some(rel));
        }
        let by_path = self.by_path.get_or_init(|| {
            let mut by_path = HashMap::new();
            for i in 0..entries.len() {
                if let Some(p) = path_of(i) {
                    by_path.entry(p).or_insert(i);
                }
            }
            by_path
        });
        by_path.get(rel).copied()
    }

    /// The chapters before and after entry `i`, drafts skipped.
    pub fn neighbours(&self, i: usize) -> (Option<usize>, Option<usize>) {
        (self.prev[i], self.next[i])
    }
}

/// Each entry's module: its part, or (in a book without parts) the
/// top-level chapter it is under. Prefix and suffix chapters have none.
fn modules(s: &Summary) -> Vec<Option<Module>> {
    let by_parts = !s.parts.is_empty();
    let mut top: Option<Module> = None;
    let mut count = 0;
    s.entries
        .iter()
        .map(|e| {
            if e.section != Section::Numbered {
                return None;
            }
            if by_parts {
                return e.part.map(|p| Module {
                    index: p as u32 + 1,
                    slug: slugify(&s.parts[p]),
                    title: one_line(&s.parts[p]),
                });
            }
            if e.depth == 0 {
                count += 1;
                top = Some(Module {
                    index: count,
                    slug: e
                        .path
                        .as_deref()
                        .map_or_else(|| slugify(&e.title), Book::slug),
                    title: one_line(&e.title),
                });
            }
            top.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_skip_drafts_and_files_are_found_by_path() {
        let s =
            summary::parse("- [A](a.md)\n- [D]()\n- [D2]()\n- [B](./b.md)\n- [A again](a.md)\n");
        let o = Outline::new(s);
        assert_eq!(
            o.entry_of(Path::new("b.md")),
            Some(3),
            "looked for along the entries"
        );
        assert_eq!(
            o.entry_of(Path::new("./b.md")),
            None,
            "paths are normalised"
        );
        assert_eq!(
            o.entry_of(Path::new("a.md")),
            Some(0),
            "the first entry naming it"
        );
        assert_eq!(o.neighbours(0), (None, Some(3)));
        assert_eq!(o.neighbours(3), (Some(0), Some(4)));
        assert_eq!(o.neighbours(4), (Some(3), None));
        assert_eq!(o.modules.len(), 5);
    }
}
