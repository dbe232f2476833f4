//! Work the state asks for. The effect runner does it and answers, where
//! there is an answer, with a [`super::Msg`].

use crate::model::{Change, Origin};

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
    /// A change to the learner's progress, for the store.
    Write(Change),
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
    /// The terminal's own (mouse, suspend, clipboard, browser): carried
    /// out by the runtime, not the runner.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            Effect::SetMouse(_) | Effect::Suspend | Effect::Clipboard(_) | Effect::OpenUrl(_)
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
            Effect::LoadDue | Effect::SwitchCourse(_) | Effect::LoadStats | Effect::LoadLibrary
        )
    }
}
