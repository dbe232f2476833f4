//! The document model: one shape for a lesson whatever file it came from.
//!
//! Nothing here knows about terminals, widths or colours; the loader builds
//! these values and the layout turns them into lines.

pub mod anchor;
pub mod card;
mod change;
mod check;
mod check_state;
mod course;
pub mod day;
mod diag;
pub mod drill;
mod image;
mod lesson;
pub mod link;
mod order;
mod origin;
mod progress;
pub mod quizzes;
pub mod sanitize;
mod table;

pub use change::Change;
pub use check::{
    Answer, Check, CheckKind, CheckOption, CheckProgress, NO_OPTION, Verdict, normalize_output,
    sample_checks,
};
pub use check_state::CheckState;
pub use course::{Course, LessonEntry, LessonKey, LessonStatus, ModuleEntry, reading_order};
pub use day::{Days, ROLLOVER_HOUR};
pub use diag::{Diagnostic, Severity};
pub use drill::DrillKind;
pub use image::{Drawn, Graphic, Graphics, Image, ImageFile, PictureKey, Protocol};
pub use lesson::{
    Block, CodeBlock, Column, Figure, FigureBody, Fold, Lesson, LessonMeta, Link, Module, Run,
    Source, runs_text,
};
pub use order::{pinned, teaching_order};
pub use origin::Origin;
pub use progress::{
    DueCards, LessonProgress, MisconceptionFigure, ReviewFigures, ShelfFigure, SyncNews,
};
pub(crate) use progress::{Summary, Tally, first_tries};
pub use table::{Cell, Row, Table};

/// A reading position that survives re-wrapping: which top-level block of
/// the page, and how far into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Anchor {
    pub block: u32,
    pub line: u32,
}

/// The longest search query, in bytes, in every search lectern has (the
/// course's, the page's, `lectern search`): far past any phrase a person
/// types, and a bound on the work a pasted text can ask for. Longer input
/// is refused (the CLI) or stops growing (a prompt), never searched.
pub const MAX_QUERY_BYTES: usize = 256;
