use super::lesson::Module;
use super::{Diagnostic, Origin};
use std::fmt;
use std::path::PathBuf;

/// Whether a lesson can be opened.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonStatus {
    Ok,
    /// The lesson failed to load: why, and where in the file. With a
    /// warning rather than an error, nothing is wrong: there is nothing to
    /// open yet (an mdBook's draft chapter, listed with an empty link).
    Broken(Diagnostic),
}

impl LessonStatus {
    /// A lesson listed but not written yet: shown as such, not as broken.
    pub fn is_unwritten(&self) -> bool {
        matches!(self, LessonStatus::Broken(d) if !d.is_error())
    }
}

/// Which lesson of which course: the slugs progress is kept under.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct LessonKey {
    pub course: String,
    pub lesson: String,
}

impl LessonKey {
    pub fn new(course: impl Into<String>, lesson: impl Into<String>) -> LessonKey {
        LessonKey {
            course: course.into(),
            lesson: lesson.into(),
        }
    }
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
            (a.position.is_none(), a.position)
                .cmp(&(b.position.is_none(), b.position))
                .then_with(|| reading_order(&a.origin, &b.origin))
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

    /// The key progress is kept under for lesson `index` of this course.
    pub fn key(&self, index: usize) -> Option<LessonKey> {
        self.lessons.get(index).map(|l| LessonKey {
            course: self.slug.clone(),
            lesson: l.slug.clone(),
        })
    }

    /// Saturates: `minutes` comes from the files, so it can be anything.
    pub fn total_minutes(&self) -> u32 {
        self.lessons
            .iter()
            .filter_map(|l| l.minutes)
            .fold(0, u32::saturating_add)
    }
}

/// Files in name order, except that a folder's README or index page comes
/// first in it: it introduces what follows.
pub fn reading_order(a: &Origin, b: &Origin) -> std::cmp::Ordering {
    let (Some(pa), Some(pb)) = (a.path(), b.path()) else {
        return a.cmp(b);
    };
    let intro = |c: &std::ffi::OsStr, last: bool| {
        let n = c.to_string_lossy().to_ascii_lowercase();
        last && (n.starts_with("readme.") || n.starts_with("index."))
    };
    let (mut ca, mut cb) = (pa.iter().peekable(), pb.iter().peekable());
    loop {
        match (ca.next(), cb.next()) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                let (ix, iy) = (intro(x, ca.peek().is_none()), intro(y, cb.peek().is_none()));
                return iy.cmp(&ix).then_with(|| x.cmp(y));
            }
            (x, y) => return x.is_some().cmp(&y.is_some()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(slug: &str, position: Option<u32>) -> LessonEntry {
        LessonEntry {
            origin: Origin::File(PathBuf::from(format!("{slug}.json"))),
            slug: slug.into(),
            title: slug.into(),
            position,
            minutes: None,
            module: None,
            status: LessonStatus::Ok,
        }
    }

    #[test]
    fn lessons_are_keyed_by_course_and_lesson_slug() {
        let mut course = Course {
            slug: "rust".into(),
            lessons: vec![entry("b", None), entry("a", Some(1))],
            ..Course::default()
        };
        course.sort();
        let key = course.key(1).unwrap();
        assert_eq!(
            key,
            LessonKey {
                course: "rust".into(),
                lesson: "b".into()
            }
        );
        assert_eq!(key.to_string(), "rust/b");
        assert!(course.key(0).unwrap() < key);
        assert_eq!(course.key(2), None);
    }
}
