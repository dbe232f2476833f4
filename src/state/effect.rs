//! Work the state asks for. The effect runner does it and answers, where
//! there is an answer, with a [`super::Msg`].

use crate::model::{Anchor, LessonKey, Origin};

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Read lesson `lesson` (an index into the open course) from `origin`.
    Load {
        origin: Origin,
        lesson: usize,
    },
    /// Highlight the code of the open lesson (in the background).
    Highlight,
    /// Make sure the open course's search index is complete.
    BuildIndex,
    /// Search the open course (`origins`, its lessons) for `query` as
    /// typed (its last word a prefix), by the index alone; answered with
    /// [`super::Msg::CourseResults`] of the same `generation`.
    CourseSearch {
        query: String,
        generation: u64,
        origins: Vec<Origin>,
    },
    /// The snippets of some hits of search `generation` (those on screen),
    /// by lesson; answered with [`super::Msg::CourseSnippets`].
    CourseSnippets {
        query: String,
        generation: u64,
        lessons: Vec<(usize, Origin)>,
    },
    SavePosition {
        key: LessonKey,
        anchor: Anchor,
    },
    MarkRead(LessonKey),
    /// The open lesson holds `count` checks (the contents show it later).
    NoteChecks {
        key: LessonKey,
        count: u32,
    },
    SetLastLesson(LessonKey),
    /// The open course goes into (or up in) the learner's library.
    RememberCourse {
        slug: String,
        title: String,
        root: Option<std::path::PathBuf>,
        lessons: usize,
    },
    RecordAttempt {
        key: LessonKey,
        /// Which of the lesson's checks ("" for a JSON lesson's one).
        check: String,
        /// The option chosen, or [`crate::model::NO_OPTION`].
        option: u32,
        /// Every other kind of answer, as text.
        answer: Option<String>,
        correct: bool,
        review: bool,
        /// Given after the answer was revealed: practice only.
        revealed: bool,
    },
    /// The answer of check `check` was shown: kept, so that every later
    /// answer to it is practice (see `state::attempt`).
    RecordReveal {
        key: LessonKey,
        check: String,
    },
    /// How the last review answer to check `check` felt, 1 (again) to 4
    /// (easy): FSRS schedules its card with that rating.
    RateCard {
        key: LessonKey,
        check: String,
        rating: u8,
    },
    /// The cards of the open course due for review.
    LoadDue,
    /// The figures of the stats screen.
    LoadStats,
    /// Course `n` of the library: its progress and where to start.
    SwitchCourse(usize),
    /// Every course of the learner's library, with its figures.
    LoadLibrary,
    /// Read a course of the library that is not open, from its folder.
    OpenCourse {
        slug: String,
        root: Option<std::path::PathBuf>,
    },
    // -- the terminal's, carried out by the runtime itself --
    SetMouse(bool),
    Suspend,
    /// Put text on the terminal's clipboard (OSC 52).
    Clipboard(String),
    /// Open a web or mail address in the browser.
    OpenUrl(String),
}

impl Effect {
    /// A write to the store: held back until the first frame is on screen.
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Effect::SavePosition { .. }
                | Effect::RememberCourse { .. }
                | Effect::MarkRead(_)
                | Effect::NoteChecks { .. }
                | Effect::SetLastLesson(_)
                | Effect::RecordAttempt { .. }
                | Effect::RecordReveal { .. }
                | Effect::RateCard { .. }
        )
    }

    /// Reads the store: waits while the store is still being opened.
    pub fn reads_store(&self) -> bool {
        matches!(
            self,
            Effect::LoadDue | Effect::SwitchCourse(_) | Effect::LoadStats | Effect::LoadLibrary
        )
    }
}
