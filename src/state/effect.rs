//! Work the state asks for. The effect runner does it and answers, where
//! there is an answer, with a [`super::Msg`].

use crate::loader::ReadStamp;
use crate::model::{Change, Course, Lesson, Origin};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Read lesson `lesson` (an index into the open course) from `origin`.
    Load {
        origin: Origin,
        lesson: usize,
    },
    /// Highlight the code of `lesson` (in the background) for a page of
    /// the dark or the light palette.
    Highlight {
        lesson: Arc<Lesson>,
        dark: bool,
    },
    /// Make sure the search index of course `course` (its lessons at
    /// `origins`) is complete; `page`: the open lesson as it was read, whose
    /// text is taken from the page rather than read again.
    BuildIndex {
        course: usize,
        origins: Vec<Origin>,
        page: Option<PageText>,
    },
    /// Search the open course (`origins`, its lessons) for `query` as
    /// typed (its last word a prefix), by the index alone; answered with
    /// [`super::Msg::CourseResults`] of the same `generation`.
    CourseSearch {
        query: String,
        generation: u64,
        origins: std::sync::Arc<[Origin]>,
    },
    /// The snippets of some hits of search `generation` (those on screen),
    /// by lesson; answered with [`super::Msg::CourseSnippets`].
    CourseSnippets {
        query: String,
        generation: u64,
        lessons: Vec<(usize, Origin)>,
    },
    /// A change to the learner's progress, for the store.
    Write(Change),
    /// The cards due for review in the whole library (`open`: the courses
    /// open in this session).
    LoadDue {
        open: Vec<Arc<Course>>,
    },
    /// The checks of `courses` (just `lesson` of the first, when given)
    /// that a drill of `kind` takes, for a drill session.
    LoadDrill {
        courses: Vec<Arc<Course>>,
        kind: crate::model::DrillKind,
        lesson: Option<String>,
        stuck_after: u32,
    },
    /// Every chapter with checks of `courses` and of the rest of the
    /// library, with its figures, for the quiz dashboard.
    LoadQuizzes {
        courses: Vec<Arc<Course>>,
        stuck_after: u32,
    },
    /// The store's figures of course `course` for the stats screen.
    LoadStats {
        course: Arc<Course>,
    },
    /// Course `index` of the library, `course`: its progress and where to
    /// start.
    SwitchCourse {
        index: usize,
        course: Arc<Course>,
    },
    /// Every course of the learner's library, with its figures (`open`:
    /// those open in this session, counted as they are now).
    LoadLibrary {
        open: Vec<Arc<Course>>,
    },
    /// Read a course of the library that is not open, from its folder.
    OpenCourse {
        slug: String,
        root: Option<std::path::PathBuf>,
    },
    /// Read the whole listing of the course folder `dir` (after a first
    /// look at it, see [`crate::loader::first_look`]), in the background,
    /// with its count (of `files` lesson files) as it goes.
    ReadListing {
        dir: std::path::PathBuf,
        files: usize,
    },
    /// Check folders shown from their last listing against their files,
    /// in the background (a folder that changed comes back).
    Revalidate {
        dirs: Vec<std::path::PathBuf>,
    },
    /// Every mark, highlight and note of the learner's library; answered
    /// with [`super::Msg::NotesRead`].
    LoadNotes,
    /// Course `course`'s progress as the store has it now (another
    /// machine's changes merged); answered with
    /// [`super::Msg::ProgressMerged`].
    LoadProgress {
        course: String,
    },
    /// A picture decoded and scaled to its cells, in the background.
    DrawPicture(crate::model::PictureKey),
    // -- the terminal's, carried out by the runtime itself --
    SetMouse(bool),
    Suspend,
    /// A note's text to the learner's editor (`$EDITOR`), the terminal
    /// given to it meanwhile; answered with [`super::Msg::NoteEdited`].
    EditNote(String),
    /// Put text on the terminal's clipboard (OSC 52).
    Clipboard(String),
    /// Open a web or mail address in the browser.
    OpenUrl(String),
    /// A picture's file opened in the system's viewer.
    OpenPicture(std::path::PathBuf),
}

/// The open lesson as read, for the index to take its text from (see
/// [`ReadStamp`]): only if its file is still as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    pub read: ReadStamp,
    pub lesson: Arc<Lesson>,
}

impl Effect {
    /// The terminal's own (mouse, suspend, clipboard, browser): carried
    /// out by the runtime, not the runner.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            Effect::SetMouse(_)
                | Effect::Suspend
                | Effect::EditNote(_)
                | Effect::Clipboard(_)
                | Effect::OpenUrl(_)
                | Effect::OpenPicture(_)
        )
    }

    /// A write to the store: held back until the first frame is on screen.
    pub fn is_write(&self) -> bool {
        matches!(self, Effect::Write(_))
    }

    /// Reads the store: waits while the store is still being opened.
    pub fn reads_store(&self) -> bool {
        matches!(
            self,
            Effect::LoadDue { .. }
                | Effect::LoadNotes
                | Effect::LoadProgress { .. }
                | Effect::LoadDrill { .. }
                | Effect::LoadQuizzes { .. }
                | Effect::SwitchCourse { .. }
                | Effect::LoadStats { .. }
                | Effect::LoadLibrary { .. }
        )
    }
}
