//! What the runtime reports back: results of effects and of background
//! work. Only model and layout types travel here.

use super::{CourseHit, Snippet};
use crate::layout::Highlights;
use crate::loader::ReadStamp;
use crate::model::{Course, Diagnostic, DueCards, Lesson, LessonProgress, Origin, ReviewFigures};
use std::collections::HashMap;
use std::path::PathBuf;

/// A lesson as the runtime hands it over after loading: lesson `index` of
/// the open course, read from `origin` (dropped if that is no longer the
/// lesson there), with its file's stamp as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    pub index: usize,
    pub origin: Origin,
    pub lesson: Result<Lesson, Diagnostic>,
    pub read: Option<ReadStamp>,
}

/// What came back from the learner's editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edited {
    /// The note as saved, made safe as lesson text is.
    Text(String),
    /// Neither `$EDITOR` nor `$VISUAL` is set.
    NoEditor,
    /// Why the editor gave nothing back (it failed, its file could not
    /// be written or read).
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// The frame is on screen: the page drawn from its first screen is
    /// laid out whole now, before the next key.
    Drawn,
    /// The terminal said what its background is: dark or not.
    Background(bool),
    /// A lesson finished loading (or failed to).
    Loaded(Box<Opened>),
    /// The open course's progress, read from the store after the lesson
    /// was first drawn without it.
    ProgressRead(HashMap<String, LessonProgress>),
    /// Code highlighting for the lesson `slug` is ready.
    Highlighted(String, Highlights),
    /// How pictures are drawn: the terminal answered what it can draw.
    Drawing(super::pictures::Drawing),
    /// A picture drawn to its cells, or why it could not be.
    Picture(
        crate::model::PictureKey,
        Result<std::sync::Arc<crate::model::Drawn>, String>,
    ),
    /// How far indexing course `course` (of the library) has got: it is
    /// complete when `done == total`.
    Indexed {
        course: usize,
        done: usize,
        total: usize,
    },
    /// Results of course search `generation`: the best hits (their
    /// snippets not read yet), and how many lessons matched in all.
    CourseResults {
        generation: u64,
        hits: Vec<CourseHit>,
        total: usize,
    },
    /// Snippets of hits of course search `generation`, by lesson (`None`:
    /// it no longer matches).
    CourseSnippets {
        generation: u64,
        found: Vec<(usize, Option<Snippet>)>,
    },
    /// How far the whole listing of the open course's folder has been read
    /// (lesson files `done` of `total`).
    Reading {
        done: usize,
        total: usize,
    },
    /// The store had something to say (once per fault).
    Notice(String),
    /// Cards due for review (across the open courses) and a shuffle seed.
    ReviewReady(DueCards, u64),
    /// `R`: the cards due in the whole library, with the courses of it
    /// that were not open (read for the review), and a shuffle seed.
    LibraryDue {
        courses: Vec<crate::model::Course>,
        due: Box<DueCards>,
        seed: u64,
    },
    /// The checks a drill of this kind takes, and a shuffle seed.
    DrillReady {
        cards: Box<DueCards>,
        kind: crate::model::DrillKind,
        seed: u64,
    },
    /// The quiz dashboard's chapters, course by course, and the courses
    /// of the library they come from that were not open.
    QuizzesReady {
        chapters: Vec<crate::model::quizzes::Chapter>,
        courses: Vec<crate::model::Course>,
    },
    StatsReady(ReviewFigures),
    /// The courses of a folder, read again because its files changed (or
    /// read for the first time, in place of an outline).
    CourseRefreshed(PathBuf, Vec<Course>),
    /// The courses of the lesson opened alone, and which course and lesson
    /// it is in them.
    CourseRead(Vec<Course>, Option<(usize, usize)>),
    /// The learner's library, for the course picker and the stats screen.
    LibraryRead(Vec<crate::model::ShelfFigure>),
    /// A course of the library, read from its folder to be opened.
    CourseAdded(Box<Course>),
    /// The learner's marks and annotations (each id's last change), a
    /// random number new ids of this session start from, and the folder of
    /// each course of the library (for a mark in a course not open).
    NotesRead(
        Vec<crate::model::Change>,
        u64,
        Vec<(String, Option<PathBuf>)>,
    ),
    /// Other machines' changes were merged into the store (see
    /// `lectern sync`): what they brought.
    Synced(crate::model::SyncNews),
    /// Course `.0`'s progress read again after a merge: the open lesson's
    /// checks and the contents show it, the page stays where it is.
    ProgressMerged(String, HashMap<String, LessonProgress>),
    /// The note being written, back from the learner's editor.
    NoteEdited(Edited),
    /// Another course's progress and where to start in it.
    CourseReady {
        course: usize,
        progress: HashMap<String, LessonProgress>,
        start: usize,
    },
}
