//! What a key, a click or a signal asks for: intents only. What the
//! runtime reports back is a [`super::Msg`]; what the state asks the
//! runtime to do is an [`super::Effect`].

use super::Screen;

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
    /// Open or close the page's folded text (HTML `details`).
    ToggleFolds,
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
    /// Open the picture on screen in the system's viewer.
    OpenPicture,

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
    /// A click in the page's margin at screen row `y` (a note's marker).
    MarginClick(u16),

    // -- review and stats --
    Review,
    /// `D`: drill the checks this kind takes, over this scope.
    Drill(crate::model::DrillKind, super::DrillScope),
    /// `X`: a new round of the lesson's checks (nothing is deleted).
    ResetRound,
    /// `e`: every option's explanation of an answered check.
    ExplainAll,
    /// `Q`: the quiz dashboard.
    Quizzes,
    /// On the dashboard: weakest first, or course by course.
    QuizSort,
    /// Enter or Space in review: answer the selected option, or go on.
    ReviewNext,
    ReviewReread,
    Stats,
    /// `y`: copy the code on screen to the clipboard.
    Copy,
    /// `L`: the page's links; Backspace: back from a followed link.
    Links,
    LinkBack,

    // -- marks, highlights and notes --
    /// `m` then a letter: a mark at the top line.
    MarkSet,
    /// `'` then a letter: back to that mark (`''`: where the jump came from).
    MarkJump,
    /// `v`: select text word by word; `V`: line by line.
    SelectWords,
    SelectLines,
    /// `H`: every highlight and note of the library.
    NotesList,
    WordNext,
    WordPrev,
    LineStart,
    LineEnd,
    /// `o`: the selection's cursor to its other end.
    SwapEnds,
    /// `d`: delete the highlights in the selection.
    Delete,
    /// Ctrl-E: the note being written, in the learner's `$EDITOR`.
    EditNote,
    /// Ctrl-R: a note that asks a question as a review card, or not.
    ToggleCard,
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
                | Action::MarginClick(_)
                | Action::ContentsClick(_)
                | Action::Input(_)
                | Action::InputBackspace
                | Action::InputKillLine
                | Action::InputKillWord
        )
    }
}

impl Action {
    /// What the action does on the page, as the help screen, the man page
    /// and the README say it: one text per action, so no key table
    /// repeats it. [`Action::description_on`] says it for a screen where
    /// the action means something else (the next option of a check).
    pub fn description(&self) -> &'static str {
        match self {
            Action::Quit => "quit from anywhere",
            Action::Back => "close, leave the check, clear the search",
            Action::Close => "quit (on an overlay: close it)",
            Action::Help => "show this help",
            Action::Suspend => "suspend to the shell",
            Action::ToggleMouse => "mouse on/off (off lets the terminal select text)",
            Action::ToggleHiddenLines => "show or hide rust examples' hidden lines",
            Action::ToggleFolds => "open or close folded notes and hints",
            Action::Resize(..) => "the terminal's new size",
            Action::LineDown => "down one line",
            Action::LineUp => "up one line",
            Action::PageDown => "down one page",
            Action::PageUp => "up one page",
            Action::Top => "top of the lesson",
            Action::Bottom => "end of the lesson (the check question)",
            Action::Scroll(_) => "scroll with the mouse wheel",
            Action::NextHeading => "next heading",
            Action::PrevHeading => "previous heading",
            Action::Count(_) => "a count for the next motion: 3j 10G 2Space",
            Action::MarkRead => "mark this lesson read",
            Action::OpenPicture => "open the picture on screen in the system's viewer",
            Action::NextLesson => "next lesson (course order)",
            Action::PrevLesson => "previous lesson",
            Action::ToggleContents => "show or hide the table of contents",
            Action::Open => "open what is under the cursor",
            Action::ContentsClick(_) => "open the entry clicked",
            Action::CoursesOpen => "choose another course of the library",
            Action::SearchStart => "search this lesson",
            Action::SearchNext => "next match",
            Action::SearchPrev => "previous match",
            Action::CourseSearchStart => "search the whole course",
            Action::Input('\n') => "a new line (a program's output)",
            Action::Input(_) => "type the search",
            Action::InputBackspace => "delete a character",
            Action::InputKillLine => "clear what is typed",
            Action::InputKillWord => "delete a word",
            Action::JumpToCheck => "go to the next check question",
            Action::Answer(_) => "answer with that option",
            Action::Retry => "retry the check",
            Action::Reveal => "reveal the answer and every explanation",
            Action::Toggle => "tick or untick the selected option",
            Action::TypeAnswer => "type the answer (short answers, tracing)",
            Action::PageClick(_) => "click on the page: an option, a link, a code block",
            Action::MarginClick(_) => "click on a note's marker in the margin: open the note",
            Action::Review => "review due check questions",
            Action::Drill(..) => "drill the checks missed (again at the end: what is left)",
            Action::ResetRound => "practise the lesson's checks again: a new round",
            Action::ExplainAll => "every option's explanation, once answered",
            Action::Quizzes => {
                "the quiz dashboard: every chapter's score, round, missed, stuck, due"
            }
            Action::QuizSort => "weakest first, or course by course",
            Action::ReviewNext => "answer (several: tick; on Submit, submit), then the next card",
            Action::ReviewReread => {
                "the card's lesson at its question (unanswered: a peek); R returns"
            }
            Action::Stats => "progress and stats",
            Action::Copy => "copy the code on screen (OSC 52)",
            Action::Links => "the page's links: open one",
            Action::LinkBack => "back from a followed link",
            Action::MarkSet => "m then a letter: mark the top line (the marks are listed)",
            Action::MarkJump => "' then a letter: back to that mark, in any lesson; '' back again",
            Action::SelectWords => "select text word by word, to highlight or note it",
            Action::SelectLines => "select whole lines, to highlight or note them",
            Action::NotesList => "every highlight and note, to open one",
            Action::WordNext => "the next word",
            Action::WordPrev => "the word before",
            Action::LineStart => "the line's first word",
            Action::LineEnd => "the line's last word",
            Action::SwapEnds => "to the selection's other end",
            Action::Delete => "delete the highlights in the selection",
            Action::EditNote => "write the note in $EDITOR (else $VISUAL), then back here",
            Action::ToggleCard => {
                "a question as a review card: R asks it, its highlight the answer (again: not)"
            }
        }
    }

    /// What the action does on `screen`: its [`Action::description`],
    /// unless the screen gives it another meaning.
    pub fn description_on(&self, screen: Screen) -> &'static str {
        self.meaning_on(screen)
            .unwrap_or_else(|| self.description())
    }

    /// The meanings an action takes on a list or a prompt, where moving
    /// picks an entry and Enter opens it.
    fn meaning_on(&self, screen: Screen) -> Option<&'static str> {
        use Screen::{Answer, CourseSearch, Marks, Note, Notes, Search, Select};
        Some(match (self, screen) {
            (Action::Back, Search | CourseSearch | Answer | Marks | Notes) => "cancel the prompt",
            (Action::Input(_), Marks) => {
                "the mark's letter (or ' for where the last jump came from)"
            }
            (Action::Input('\n'), Note) => "a new line of the note",
            (Action::InputKillLine, Note) => "clear the line being typed",
            (Action::Input(_), Note) => "type the note",
            (Action::Input(_), Notes) => "type to filter them",
            (Action::Open, Note) => "keep the note",
            (Action::Back, Note) => "drop what was typed",
            (Action::Open, Notes) => "open the page at it",
            (Action::ToggleContents, Notes) => "newest first, or in course order",
            (Action::LineDown, Notes) => "next",
            (Action::LineUp, Notes) => "previous",
            (Action::Back, Select) => "leave the selection",
            (Action::Open, Select) => "highlight the selection",
            (Action::TypeAnswer, Select) => "highlight it with a note (its note, on a highlight)",
            (Action::Copy, Select) => "copy the selection (OSC 52)",
            (Action::LineDown, Select) => "down a line",
            (Action::LineUp, Select) => "up a line",
            (Action::Top, Select) => "to the first word of the lesson (10g: of line 10)",
            (Action::Bottom, Select) => "to the last word of the lesson (10G: of line 10)",
            (Action::NextHeading, Select) => "to the end of the paragraph (again: the next one's)",
            (Action::PrevHeading, Select) => {
                "to the start of the paragraph (again: the one before)"
            }
            (Action::PageDown, Select) => "down a page",
            (Action::PageUp, Select) => "up a page",
            (Action::Count(_), Select) => "a count for the next motion: 3w 2j 2} 10G",
            (Action::SelectWords, Select) => "select word by word (again: leave)",
            (Action::SelectLines, Select) => "select whole lines (again: leave)",
            _ => return self.list_meaning(screen),
        })
    }

    /// [`Action::meaning_on`] on the lists, the checks and the boxed
    /// screens.
    fn list_meaning(&self, screen: Screen) -> Option<&'static str> {
        use Screen::{
            Answer, Check, Choices, Contents, CourseSearch, Courses, Help, Links, Quizzes, Review,
            Search, Stats,
        };
        Some(match (self, screen) {
            (Action::Open, Search | CourseSearch | Answer) => "accept",
            (Action::LineDown, Check | Choices | Review) => "next option",
            (Action::LineUp, Check | Choices | Review) => "previous option",
            (Action::LineDown, Contents) => "next entry",
            (Action::LineUp, Contents) => "previous entry",
            (Action::LineDown, Courses) => "next course",
            (Action::LineUp, Courses) => "previous course",
            (Action::LineDown, CourseSearch) => "next result",
            (Action::LineUp, CourseSearch) => "previous result",
            (Action::LineDown, Screen::Copy | Links) => "next",
            (Action::LineUp, Screen::Copy | Links) => "previous",
            (Action::PageDown, Contents) => "down one page of entries",
            (Action::PageUp, Contents) => "up one page of entries",
            (Action::PageDown, Review) => "scroll the card down a page",
            (Action::PageUp, Review) => "scroll the card up a page",
            (Action::Top, Help | Stats) => "back to the top",
            (Action::Top, Contents) => "first entry",
            (Action::Bottom, Contents) => "last entry",
            (Action::Top, Courses) => "first course",
            (Action::Bottom, Courses) => "last course",
            (Action::Open, Contents) => "open the lesson",
            (Action::Open, Courses) => "open the course where you left off",
            (Action::Open, Check) => {
                "answer with the selected option (typed answers: start typing)"
            }
            (Action::Open, Choices) => {
                "tick the selected option; on Submit (or none selected): submit"
            }
            (Action::Open, Screen::Copy) => "copy it",
            (Action::Open, Links) => "open the link",
            (Action::Answer(_), Choices) => "tick or untick that option",
            (Action::Answer(_), Review) => {
                "answer with that option; once right, how it felt: 1 again, 2 hard, 3 good, 4 easy"
            }
            (Action::Answer(_), Stats) => "open the lesson of that misconception",
            (Action::Answer(_), Screen::Copy) => "copy that one",
            (Action::Answer(_), Links) => "open that one",
            (Action::Toggle, Review) => "tick the selected option (several answers), else as Enter",
            (Action::Copy, Links) => "copy its address (OSC 52)",
            (Action::Stats, Stats) => "read the figures again",
            (Action::Quizzes, Quizzes) => "read the figures again",
            (Action::Open, Quizzes) => {
                "drill the chapter (stuck, else missed, else wrong, else new)"
            }
            (Action::ResetRound, Quizzes) => "a new round of the chapter's checks",
            (Action::LineDown, Quizzes) => "next chapter",
            (Action::LineUp, Quizzes) => "previous chapter",
            (Action::Top, Quizzes) => "first chapter",
            (Action::Bottom, Quizzes) => "last chapter",
            _ => return None,
        })
    }
}
