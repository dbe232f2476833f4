//! The key tables: one per screen, and the shared layers they sit on.
//! The first binding that matches wins, so a screen's own table comes
//! before its layers.

mod study;

use super::Binding;
use super::key::Key::{self, Char, Code, Ctrl, Printable};
use super::tools::{COPY, LINKS, TOOLS};
use crate::state::{Action, Screen};
use ratatui::crossterm::event::KeyCode::{
    Backspace, Down, End, Enter, Esc, Home, PageDown, PageUp, Tab, Up,
};
use study::{ANSWER, ANSWERS, CHECK, CHOICES, COUNTS, JUMP, LIST_PAGES, MISCONCEPTIONS, REVIEW};

pub(super) const fn bind(
    keys: &'static [Key],
    action: fn(char) -> Action,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        keys,
        action,
        help,
        hint,
    }
}

pub(super) fn digit(c: char) -> Action {
    Action::Answer(c.to_digit(10).map_or(0, |d| d as usize).saturating_sub(1))
}

/// Every screen but the prompts.
static GLOBAL: &[Binding] = &[
    bind(
        &[Char('q')],
        |_| Action::Close,
        "quit (on an overlay: close it)",
        Some("quit"),
    ),
    bind(&[Ctrl('c')], |_| Action::Quit, "quit from anywhere", None),
    bind(
        &[Char('?')],
        |_| Action::Help,
        "show this help",
        Some("help"),
    ),
    bind(
        &[Code(Esc)],
        |_| Action::Back,
        "close, leave the check, clear the search",
        None,
    ),
    bind(
        &[Ctrl('z')],
        |_| Action::Suspend,
        "suspend to the shell",
        None,
    ),
];

/// Moving through the course and opening the other screens.
static COURSE: &[Binding] = &[
    bind(
        &[Char(']')],
        |_| Action::NextLesson,
        "next lesson (course order)",
        Some("next lesson"),
    ),
    bind(
        &[Char('[')],
        |_| Action::PrevLesson,
        "previous lesson",
        None,
    ),
    bind(
        &[Code(Tab)],
        |_| Action::ToggleContents,
        "show or hide the table of contents",
        Some("contents"),
    ),
    bind(
        &[Char('s')],
        |_| Action::CourseSearchStart,
        "search the whole course",
        None,
    ),
    bind(
        &[Char('R')],
        |_| Action::Review,
        "review due check questions",
        None,
    ),
    bind(&[Char('S')], |_| Action::Stats, "progress and stats", None),
    bind(
        &[Char('C')],
        |_| Action::CoursesOpen,
        "choose another course of the library",
        None,
    ),
    bind(
        &[Char('#')],
        |_| Action::ToggleHiddenLines,
        "show or hide rust examples' hidden lines",
        None,
    ),
    bind(
        &[Char('m')],
        |_| Action::ToggleMouse,
        "mouse on/off (off lets the terminal select text)",
        None,
    ),
];

/// Down a page, where Space does not tick an option.
static PAGE_DOWN: &[Binding] = &[bind(
    &[Char(' '), Code(PageDown), Ctrl('d'), Ctrl('f')],
    |_| Action::PageDown,
    "down one page",
    Some("page"),
)];

/// The page's keys shared by reading and the check.
static PAGE: &[Binding] = &[
    bind(
        &[Char('b'), Code(PageUp), Ctrl('u'), Ctrl('b')],
        |_| Action::PageUp,
        "up one page",
        None,
    ),
    bind(
        &[Char('g'), Code(Home)],
        |_| Action::Top,
        "top of the lesson",
        None,
    ),
    bind(
        &[Char('G'), Code(End)],
        |_| Action::Bottom,
        "end of the lesson (the check question)",
        None,
    ),
    bind(
        &[Char('/')],
        |_| Action::SearchStart,
        "search this lesson",
        Some("search"),
    ),
    bind(&[Char('n')], |_| Action::SearchNext, "next match", None),
    bind(&[Char('N')], |_| Action::SearchPrev, "previous match", None),
    bind(&[Char('r')], |_| Action::Retry, "retry the check", None),
    bind(
        &[Char('a')],
        |_| Action::Reveal,
        "reveal the answer and every explanation",
        None,
    ),
];

static READING: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down), Code(Enter)],
        |_| Action::LineDown,
        "down one line",
        None,
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "up one line",
        None,
    ),
    bind(&[Char('}')], |_| Action::NextHeading, "next heading", None),
    bind(
        &[Char('{')],
        |_| Action::PrevHeading,
        "previous heading",
        None,
    ),
];

static CONTENTS: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next entry",
        Some("move"),
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "previous entry",
        None,
    ),
    bind(
        &[Code(Enter), Char('l')],
        |_| Action::Open,
        "open the lesson",
        Some("open"),
    ),
];

/// Scrolling a boxed screen (help, stats).
static BOXED: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down), Code(Enter)],
        |_| Action::LineDown,
        "down one line",
        None,
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "up one line",
        None,
    ),
    bind(
        &[Char(' '), Code(PageDown), Ctrl('d'), Ctrl('f')],
        |_| Action::PageDown,
        "down one page",
        Some("scroll"),
    ),
    bind(
        &[Char('b'), Code(PageUp), Ctrl('u'), Ctrl('b')],
        |_| Action::PageUp,
        "up one page",
        None,
    ),
    bind(
        &[Char('g'), Code(Home)],
        |_| Action::Top,
        "back to the top",
        None,
    ),
];

static STATS: &[Binding] = &[bind(
    &[Char('S')],
    |_| Action::Stats,
    "read the figures again",
    None,
)];

static COURSES: &[Binding] = &[
    bind(
        &[Char('j'), Code(Down)],
        |_| Action::LineDown,
        "next course",
        Some("move"),
    ),
    bind(
        &[Char('k'), Code(Up)],
        |_| Action::LineUp,
        "previous course",
        None,
    ),
    bind(
        &[Char('g'), Code(Home)],
        |_| Action::Top,
        "first course",
        None,
    ),
    bind(
        &[Char('G'), Code(End)],
        |_| Action::Bottom,
        "last course",
        None,
    ),
    bind(
        &[Code(Enter)],
        |_| Action::Open,
        "open the course where you left off",
        Some("open"),
    ),
];

/// Every prompt: typed text goes into the query.
static PROMPT: &[Binding] = &[
    bind(&[Code(Enter)], |_| Action::Open, "accept", Some("accept")),
    bind(
        &[Code(Esc)],
        |_| Action::Back,
        "cancel the prompt",
        Some("cancel"),
    ),
    bind(&[Ctrl('c')], |_| Action::Quit, "quit from anywhere", None),
    bind(
        &[Code(Backspace)],
        |_| Action::InputBackspace,
        "delete a character",
        None,
    ),
    bind(&[Printable], Action::Input, "type the search", None),
];

static COURSE_SEARCH: &[Binding] = &[
    bind(
        &[Code(Down), Ctrl('n')],
        |_| Action::LineDown,
        "next result",
        Some("choose"),
    ),
    bind(
        &[Code(Up), Ctrl('p')],
        |_| Action::LineUp,
        "previous result",
        None,
    ),
];

/// Editing a line being typed, as in a shell (src/state/line_edit.rs).
static LINE_EDIT: &[Binding] = &[
    bind(
        &[Ctrl('u')],
        |_| Action::InputKillLine,
        "clear what is typed",
        None,
    ),
    bind(
        &[Ctrl('w')],
        |_| Action::InputKillWord,
        "delete a word",
        None,
    ),
];

/// A screen's tables, most specific first.
pub fn layers(screen: Screen) -> &'static [&'static [Binding]] {
    static READING_LAYERS: [&[Binding]; 8] = [
        READING, COUNTS, JUMP, PAGE_DOWN, PAGE, TOOLS, COURSE, GLOBAL,
    ];
    static CHECK_LAYERS: [&[Binding]; 8] =
        [CHECK, ANSWERS, JUMP, PAGE_DOWN, PAGE, TOOLS, COURSE, GLOBAL];
    static CHOICES_LAYERS: [&[Binding]; 6] = [CHOICES, JUMP, PAGE, TOOLS, COURSE, GLOBAL];
    static ANSWER_LAYERS: [&[Binding]; 3] = [ANSWER, LINE_EDIT, PROMPT];
    static CONTENTS_LAYERS: [&[Binding]; 4] = [CONTENTS, LIST_PAGES, COURSE, GLOBAL];
    static REVIEW_LAYERS: [&[Binding]; 2] = [REVIEW, GLOBAL];
    static HELP_LAYERS: [&[Binding]; 2] = [BOXED, GLOBAL];
    static STATS_LAYERS: [&[Binding]; 4] = [STATS, MISCONCEPTIONS, BOXED, GLOBAL];
    static COURSES_LAYERS: [&[Binding]; 2] = [COURSES, GLOBAL];
    static COPY_LAYERS: [&[Binding]; 2] = [COPY, GLOBAL];
    static LINKS_LAYERS: [&[Binding]; 2] = [LINKS, GLOBAL];
    static SEARCH_LAYERS: [&[Binding]; 1] = [PROMPT];
    static COURSE_SEARCH_LAYERS: [&[Binding]; 3] = [COURSE_SEARCH, LINE_EDIT, PROMPT];
    match screen {
        Screen::Reading => &READING_LAYERS,
        Screen::Check => &CHECK_LAYERS,
        Screen::Choices => &CHOICES_LAYERS,
        Screen::Answer => &ANSWER_LAYERS,
        Screen::Contents => &CONTENTS_LAYERS,
        Screen::Review => &REVIEW_LAYERS,
        Screen::Help => &HELP_LAYERS,
        Screen::Stats => &STATS_LAYERS,
        Screen::Courses => &COURSES_LAYERS,
        Screen::Copy => &COPY_LAYERS,
        Screen::Links => &LINKS_LAYERS,
        Screen::Search => &SEARCH_LAYERS,
        Screen::CourseSearch => &COURSE_SEARCH_LAYERS,
    }
}
