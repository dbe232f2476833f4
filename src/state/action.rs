//! What a key, a click or a signal asks for: intents only. What the
//! runtime reports back is a [`super::Msg`]; what the state asks the
//! runtime to do is an [`super::Effect`].

/// Grouped as the help screen groups them. An action that makes no sense
/// on the current screen is ignored there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    // -- anywhere --
    Quit,
    /// Close an overlay, leave a mode, or clear the search.
    Back,
    /// `q`: quits from the page; closes an overlay, as in less's help.
    Close,
    Help,
    Suspend,
    ToggleMouse,
    /// Show or hide the hidden (`# `) lines of rust examples.
    ToggleHiddenLines,
    Resize(u16, u16),

    // -- moving on the page (and in lists, on screens that have one) --
    LineDown,
    LineUp,
    PageDown,
    PageUp,
    Top,
    Bottom,
    /// Mouse wheel: positive scrolls down.
    Scroll(i32),
    NextHeading,
    PrevHeading,
    /// A digit typed on the page: part of a count for the next motion
    /// (`3j`, `10G`), as in less and vim.
    Count(u32),
    /// Mark the open lesson read without reading to its end.
    MarkRead,

    // -- the course --
    NextLesson,
    PrevLesson,
    ToggleContents,
    /// Enter on a list: open what is under the cursor.
    Open,
    /// A click on screen row `y` of the contents.
    ContentsClick(u16),
    CoursesOpen,

    // -- finding --
    SearchStart,
    SearchNext,
    SearchPrev,
    CourseSearchStart,
    /// Typing into whichever prompt is open.
    Input(char),
    InputBackspace,
    /// Ctrl-U: the whole query, as in a shell.
    InputKillLine,
    /// Ctrl-W: the word before the cursor, as in a shell.
    InputKillWord,

    // -- the check --
    JumpToCheck,
    /// Answer with the option at display position `n` (0-based).
    Answer(usize),
    Retry,
    Reveal,
    /// Several answers: tick or untick the option under the cursor.
    Toggle,
    /// Start typing the focused check's answer.
    TypeAnswer,
    /// A click on the page at screen row `y`.
    PageClick(u16),

    // -- review and stats --
    Review,
    /// Enter or Space in review: answer the selected option, or go on.
    ReviewNext,
    ReviewReread,
    Stats,
    /// `y`: copy the code on screen to the clipboard.
    Copy,
    /// `L`: the page's links; Backspace: back from a followed link.
    Links,
    LinkBack,
}

impl Action {
    /// Moves the page: what a count repeats, and what can bring the end
    /// of a lesson on screen (reading it).
    pub fn is_motion(&self) -> bool {
        matches!(
            self,
            Action::LineDown
                | Action::LineUp
                | Action::PageDown
                | Action::PageUp
                | Action::Top
                | Action::Bottom
                | Action::Scroll(_)
                | Action::NextHeading
                | Action::PrevHeading
                | Action::SearchNext
                | Action::SearchPrev
        )
    }

    /// Whether the action comes from a key press that should clear the
    /// notice in the footer (a new command replaces the old message).
    pub fn clears_notice(&self) -> bool {
        !matches!(
            self,
            Action::Resize(..)
                | Action::Scroll(_)
                | Action::PageClick(_)
                | Action::ContentsClick(_)
                | Action::Input(_)
                | Action::InputBackspace
                | Action::InputKillLine
                | Action::InputKillWord
        )
    }
}
