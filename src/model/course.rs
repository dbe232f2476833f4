use super::lesson::Module;
use super::{Diagnostic, Origin};
use std::fmt;
use std::path::PathBuf;

/// Whether a lesson can be opened.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonStatus {
    Ok,
    /// The lesson failed to load: why, and where in the file.
    Broken(Diagnostic),
}

/// Which lesson of which course: the slugs progress is kept under.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LessonKey {
    pub course: String,
    pub lesson: String,
}

impl fmt::Display for LessonKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.course, self.lesson)
    }
}

/// What the course view needs of a lesson without parsing its body.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonEntry {
    pub origin: Origin,
    pub slug: String,
    pub title: String,
    pub position: Option<u32>,
    pub minutes: Option<u32>,
    /// Boxed: a course holds thousands of entries, and most of an
    /// entry's size would otherwise be this rarely read field.
    pub module: Option<Box<Module>>,
    pub status: LessonStatus,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModuleEntry {
    pub module: Option<Module>,
    /// Indices into `Course::lessons`.
    pub lessons: Vec<usize>,
}

/// A course: lessons in reading order, grouped by module.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Course {
    pub slug: String,
    pub title: String,
    pub root: Option<PathBuf>,
    pub lessons: Vec<LessonEntry>,
}

impl Course {
    /// Lessons in position order; lessons without a position go last, by
    /// file name, so a broken file still has a stable place.
    pub fn sort(&mut self) {
        self.lessons.sort_by(|a, b| {
            (a.position.is_none(), a.position, &a.origin).cmp(&(
                b.position.is_none(),
                b.position,
                &b.origin,
            ))
        });
    }

    /// Consecutive runs of lessons that share a module.
    pub fn modules(&self) -> Vec<ModuleEntry> {
        let mut out: Vec<ModuleEntry> = Vec::new();
        for (i, l) in self.lessons.iter().enumerate() {
            match out.last_mut() {
                Some(m)
                    if m.module.as_ref().map(|m| m.index) == l.module.as_ref().map(|m| m.index) =>
                {
                    m.lessons.push(i)
                }
                _ => out.push(ModuleEntry {
                    module: l.module.as_deref().cloned(),
                    lessons: vec![i],
                }),
            }
        }
        out
    }

    /// Where each lesson comes from, in reading order.
    pub fn origins(&self) -> Vec<Origin> {
        self.lessons.iter().map(|l| l.origin.clone()).collect()
    }

    pub fn index_of(&self, slug: &str) -> Option<usize> {
        self.lessons.iter().position(|l| l.slug == slug)
    }

    /// Saturates: `minutes` comes from the files, so it can be anything.
    pub fn total_minutes(&self) -> u32 {
        self.lessons
            .iter()
            .filter_map(|l| l.minutes)
            .fold(0, u32::saturating_add)
    }
}
