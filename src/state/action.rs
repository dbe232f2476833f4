//! What a key, a click or a signal asks for, and what the state asks the
//! outside world to do in return.

use crate::loader::Origin;
use crate::model::Anchor;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Quit,
    Help,
    /// Close an overlay, leave a mode, or clear the search.
    Back,
    LineDown,
    LineUp,
    PageDown,
    PageUp,
    Top,
    Bottom,
    NextHeading,
    PrevHeading,
    NextLesson,
    PrevLesson,
    ToggleToc,
    TocDown,
    TocUp,
    TocOpen,
    /// A click on row `y` of the table of contents.
    TocClick(u16),
    SearchStart,
    SearchNext,
    SearchPrev,
    CourseSearchStart,
    /// Typing into whichever prompt is open.
    Input(char),
    InputBackspace,
    InputEnter,
    ResultDown,
    ResultUp,
    JumpToCheck,
    /// Answer with the option at display position `n` (0-based).
    Answer(usize),
    OptionDown,
    OptionUp,
    AnswerSelected,
    Retry,
    Reveal,
    ToggleMouse,
    Review,
    Stats,
    /// Mouse wheel: positive scrolls down.
    Scroll(i32),
    /// A click on the page at screen row `y`.
    PageClick(u16),
    Resize(u16, u16),
    /// A lesson finished loading (or failed to).
    Loaded(Box<crate::state::Opened>),
    /// The open course's progress, read from the store after the lesson was
    /// first drawn without it.
    ProgressRead(std::collections::HashMap<String, crate::store::LessonProgress>),
    /// Code highlighting for the lesson `slug` is ready.
    Highlighted(String, crate::layout::Highlights),
    /// The course-wide search index is ready.
    Indexed,
    /// Results of a course-wide search for the query given.
    CourseResults(String, Vec<crate::state::CourseHit>),
    /// The store had something to say (once per fault).
    Notice(String),
    Suspend,
    /// Lessons due for review (slugs, oldest first) and a shuffle seed.
    ReviewReady(Vec<String>, u64),
    ReviewNext,
    ReviewReread,
    StatsReady(crate::stats::Reviews),
    CoursesOpen,
    /// The courses of a folder, read again because its files changed.
    CourseRefreshed(std::path::PathBuf, Vec<crate::model::Course>),
    /// The courses of the lesson opened alone (see `State::course_pending`)
    /// and which course and lesson it is in them.
    CourseRead(Vec<crate::model::Course>, Option<(usize, usize)>),
    /// Another course's progress and where to start in it.
    CourseReady {
        course: usize,
        progress: std::collections::HashMap<String, crate::store::LessonProgress>,
        start: usize,
    },
}

/// Work the state wants done; the runtime does it and may answer with an
/// action.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Load {
        origin: Origin,
        lesson: usize,
    },
    Highlight,
    BuildIndex,
    CourseSearch(String),
    SavePosition {
        course: String,
        lesson: String,
        anchor: Anchor,
    },
    MarkRead {
        course: String,
        lesson: String,
    },
    SetLastLesson {
        course: String,
        lesson: String,
    },
    RecordAttempt {
        course: String,
        lesson: String,
        option: u32,
        correct: bool,
        review: bool,
    },
    SetMouse(bool),
    Suspend,
    LoadDue,
    LoadStats,
    SwitchCourse(usize),
}
