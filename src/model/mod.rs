//! The document model: one shape for a lesson whatever file it came from.
//!
//! Nothing here knows about terminals, widths or colours; the loader builds
//! these values and the layout turns them into lines.

mod check;
mod course;
mod lesson;
mod progress;

pub use check::{Check, CheckOption, Verdict};
pub use course::{Course, LessonEntry, LessonStatus, ModuleEntry};
pub use progress::{LessonProgress, ReviewFigures};
pub use lesson::{
    Block, Column, Figure, FigureBody, Lesson, LessonMeta, Link, Module, Run, Source, runs_text,
};

/// A reading position that survives re-wrapping: which top-level block of
/// the page, and how far into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Anchor {
    pub block: u32,
    pub line: u32,
}

// Until the seams branch lands: these move here for real.
pub use crate::loader::{Diagnostic, Origin};

/// A lesson of a course, by the two slugs that name it in the store.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LessonKey {
    pub course: String,
    pub lesson: String,
}
