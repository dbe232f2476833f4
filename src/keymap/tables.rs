//! The key tables: one per screen, and the shared layers they sit on,
//! one binding a line: its keys, its action, and its footer hint if it
//! has one. What an action does is its [`Action::description_on`], not
//! written here. The first binding that matches wins, so a screen's own
//! table comes before its layers.

use super::Binding;
use super::key::Key::{self, Char, Code, Ctrl, Digit, Printable};
use crate::model::DrillKind;
use crate::state::Action::{self, *};
use crate::state::{DrillScope, Screen};
use ratatui::crossterm::event::KeyCode::{
    Backspace, Down, End, Enter, Esc, Home, Left, PageDown as PgDn, PageUp as PgUp, Right, Tab, Up,
};

const fn bind(keys: &'static [Key], action: Action) -> Binding {
    Binding {
        keys,
        action,
        hint: None,
    }
}

/// The action of the digit keys: the digit pressed picks the option.
const PICK: Action = Answer(0);
/// The action of the digit keys on the page: the digit pressed goes into
/// the count (`0` is a count's next digit: 10G).
const COUNT: Action = Count(0);
/// The action of a prompt's printable keys: the character typed goes in.
const TYPE: Action = Input(' ');

/// Every screen but the prompts.
#[rustfmt::skip]
const GLOBAL: &[Binding] = &[
    bind(&[Char('q')], Close).hint("quit"),
    bind(&[Ctrl('c')], Quit),
    bind(&[Char('?')], Help).hint("help"),
    bind(&[Code(Esc)], Back),
    bind(&[Ctrl('z')], Suspend),
];

/// Moving through the course and opening the other screens.
#[rustfmt::skip]
const COURSE: &[Binding] = &[
    bind(&[Char(']')], NextLesson).hint("next lesson"),
    bind(&[Char('[')], PrevLesson),
    bind(&[Code(Tab)], ToggleContents).hint("contents"),
    bind(&[Char('s')], CourseSearchStart),
    bind(&[Char('R')], Review),
    bind(&[Char('D')], Drill(DrillKind::Missed, DrillScope::Course)),
    bind(&[Char('X')], ResetRound),
    bind(&[Char('S')], Stats),
    bind(&[Char('Q')], Quizzes),
    bind(&[Char('C')], CoursesOpen),
    bind(&[Char('#')], ToggleHiddenLines),
    bind(&[Char('z')], ToggleFolds),
    bind(&[Char('T')], ToggleMouse),
];

/// Marks, highlights and notes on the page (src/state/notes).
#[rustfmt::skip]
const NOTES: &[Binding] = &[
    bind(&[Char('m')], MarkSet),
    bind(&[Char('\'')], MarkJump),
    bind(&[Char('v')], SelectWords),
    bind(&[Char('V')], SelectLines),
    bind(&[Char('H')], NotesList),
];

/// Selecting text: vim's motions move its free end.
#[rustfmt::skip]
const SELECT: &[Binding] = &[
    bind(&[Code(Enter)], Open).hint("highlight"),
    bind(&[Char('i')], TypeAnswer).hint("note"),
    bind(&[Char('w'), Char('l'), Code(Right)], WordNext),
    bind(&[Char('b'), Char('h'), Code(Left)], WordPrev),
    bind(&[Char('j'), Code(Down)], LineDown).hint("extend"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Char('0'), Code(Home)], LineStart),
    bind(&[Char('$'), Code(End)], LineEnd),
    bind(&[Char('}')], NextHeading),
    bind(&[Char('{')], PrevHeading),
    bind(&[Ctrl('d'), Ctrl('f'), Code(PgDn)], PageDown),
    bind(&[Ctrl('u'), Ctrl('b'), Code(PgUp)], PageUp),
    bind(&[Char('g')], Top),
    bind(&[Char('G')], Bottom),
    bind(&[Digit], COUNT),
    bind(&[Char('o')], SwapEnds),
    bind(&[Char('v')], SelectWords),
    bind(&[Char('V')], SelectLines),
    bind(&[Char('y')], Copy),
    bind(&[Char('d')], Delete),
];

/// Waiting for a mark's letter.
#[rustfmt::skip]
const MARKS: &[Binding] = &[
    bind(&[Code(Esc)], Back).hint("cancel"),
    bind(&[Ctrl('c')], Quit),
    bind(&[Printable], TYPE),
];

/// Typing a note: Ctrl-J a new line (the prompt's keys come after:
/// Enter keeps it).
#[rustfmt::skip]
const NOTE: &[Binding] = &[
    bind(&[Ctrl('j')], Input('\n')).hint("new line"),
    bind(&[Ctrl('e')], EditNote).hint("editor"),
    bind(&[Ctrl('r')], ToggleCard).hint("card"),
];

/// The notes list: typed text filters it.
#[rustfmt::skip]
const NOTES_LIST: &[Binding] = &[
    bind(&[Code(Down), Ctrl('n')], LineDown).hint("choose"),
    bind(&[Code(Up), Ctrl('p')], LineUp),
    bind(&[Code(Tab)], ToggleContents).hint("order"),
    bind(&[Ctrl('r')], ToggleCard).hint("card"),
];

/// Down a page, where Space does not tick an option.
#[rustfmt::skip]
const PAGE_DOWN: &[Binding] = &[
    bind(&[Char(' '), Code(PgDn), Ctrl('d'), Ctrl('f')], PageDown).hint("page"),
];

/// The page's keys shared by reading and the check.
#[rustfmt::skip]
const PAGE: &[Binding] = &[
    bind(&[Char('b'), Code(PgUp), Ctrl('u'), Ctrl('b')], PageUp),
    bind(&[Char('g'), Code(Home)], Top),
    bind(&[Char('G'), Code(End)], Bottom),
    bind(&[Char('/')], SearchStart).hint("search"),
    bind(&[Char('n')], SearchNext),
    bind(&[Char('N')], SearchPrev),
    bind(&[Char('r')], Retry),
    bind(&[Char('a')], Reveal),
    bind(&[Char('e')], ExplainAll),
];

/// The page's tools: copying what is on screen, and its links.
#[rustfmt::skip]
const TOOLS: &[Binding] = &[
    bind(&[Char('y')], Copy),
    bind(&[Char('L')], Links),
    bind(&[Char('O')], OpenPicture),
    bind(&[Code(Backspace)], LinkBack),
];

#[rustfmt::skip]
const READING: &[Binding] = &[
    bind(&[Char('j'), Code(Down), Code(Enter)], LineDown),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Char('}')], NextHeading),
    bind(&[Char('{')], PrevHeading),
];

/// Reading: a count for the next motion, as in less and vim.
#[rustfmt::skip]
const COUNTS: &[Binding] = &[
    bind(&[Digit, Char('0')], COUNT),
    bind(&[Char('M')], MarkRead),
];

/// From the page or a check to the next check.
#[rustfmt::skip]
const JUMP: &[Binding] = &[
    bind(&[Char('c')], JumpToCheck).hint("check"),
];

/// A check with the focus (after `c`, a reveal or a click): choose an
/// option, or start typing.
#[rustfmt::skip]
const CHECK: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("choose"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter)], Open),
    bind(&[Char('i')], TypeAnswer),
];

/// The check's digits answer; on the page they are a count.
#[rustfmt::skip]
const ANSWERS: &[Binding] = &[
    bind(&[Digit], PICK).hint("answer"),
];

/// A check with several right answers: tick them all, then submit.
#[rustfmt::skip]
const CHOICES: &[Binding] = &[
    bind(&[Digit], PICK).hint("tick"),
    bind(&[Char(' ')], Toggle),
    bind(&[Code(Enter)], Open).hint("submit"),
    bind(&[Code(PgDn), Ctrl('d'), Ctrl('f')], PageDown),
    bind(&[Char('j'), Code(Down)], LineDown),
    bind(&[Char('k'), Code(Up)], LineUp),
];

/// A review card: answered with the page's keys, then rated.
#[rustfmt::skip]
const REVIEW: &[Binding] = &[
    bind(&[Digit], PICK).hint("answer"),
    bind(&[Char('j'), Code(Down)], LineDown),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter), Char('n')], ReviewNext).hint("next"),
    bind(&[Char(' ')], Toggle),
    bind(&[Char('i')], TypeAnswer),
    bind(&[Code(PgDn), Ctrl('d'), Ctrl('f')], PageDown),
    bind(&[Char('b'), Code(PgUp), Ctrl('u'), Ctrl('b')], PageUp),
    bind(&[Char('o')], ReviewReread).hint("re-read"),
    bind(&[Char('D')], Drill(DrillKind::Missed, DrillScope::Course)),
];

#[rustfmt::skip]
const CONTENTS: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("move"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter), Char('l')], Open).hint("open"),
];

/// The contents: pages of entries.
#[rustfmt::skip]
const LIST_PAGES: &[Binding] = &[
    bind(&[Char(' '), Code(PgDn), Ctrl('d'), Ctrl('f')], PageDown),
    bind(&[Char('b'), Code(PgUp), Ctrl('u'), Ctrl('b')], PageUp),
    bind(&[Char('g'), Code(Home)], Top),
    bind(&[Char('G'), Code(End)], Bottom),
];

/// Scrolling a boxed screen (help, stats).
#[rustfmt::skip]
const BOXED: &[Binding] = &[
    bind(&[Char('j'), Code(Down), Code(Enter)], LineDown),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Char(' '), Code(PgDn), Ctrl('d'), Ctrl('f')], PageDown).hint("scroll"),
    bind(&[Char('b'), Code(PgUp), Ctrl('u'), Ctrl('b')], PageUp),
    bind(&[Char('g'), Code(Home)], Top),
];

/// The stats screen: a misconception's number opens its lesson.
#[rustfmt::skip]
const STATS: &[Binding] = &[
    bind(&[Char('S')], Stats),
    bind(&[Digit], PICK).hint("open lesson"),
];

/// The quiz dashboard: chapters to drill.
#[rustfmt::skip]
const QUIZZES: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("move"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter)], Open).hint("drill"),
    bind(&[Char('w')], QuizSort).hint("weakest first"),
    bind(&[Char('X')], ResetRound).hint("new round"),
    bind(&[Char('Q')], Quizzes),
];

#[rustfmt::skip]
const COURSES: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("move"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Char('g'), Code(Home)], Top),
    bind(&[Char('G'), Code(End)], Bottom),
    bind(&[Code(Enter)], Open).hint("open"),
];

/// Choosing what to copy.
#[rustfmt::skip]
const COPY: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("choose"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter), Char('y')], Open).hint("copy"),
    bind(&[Digit], PICK),
];

/// The page's links.
#[rustfmt::skip]
const LINKS: &[Binding] = &[
    bind(&[Char('j'), Code(Down)], LineDown).hint("choose"),
    bind(&[Char('k'), Code(Up)], LineUp),
    bind(&[Code(Enter)], Open).hint("open"),
    bind(&[Char('y')], Copy).hint("copy"),
    bind(&[Digit], PICK),
];

/// Every prompt: typed text goes into the query.
#[rustfmt::skip]
const PROMPT: &[Binding] = &[
    bind(&[Code(Enter)], Open).hint("accept"),
    bind(&[Code(Esc)], Back).hint("cancel"),
    bind(&[Ctrl('c')], Quit),
    bind(&[Code(Backspace)], InputBackspace),
    bind(&[Printable], TYPE),
];

#[rustfmt::skip]
const COURSE_SEARCH: &[Binding] = &[
    bind(&[Code(Down), Ctrl('n')], LineDown).hint("choose"),
    bind(&[Code(Up), Ctrl('p')], LineUp),
];

/// Editing a line being typed, as in a shell (src/state/line_edit.rs).
#[rustfmt::skip]
const LINE_EDIT: &[Binding] = &[
    bind(&[Ctrl('u')], InputKillLine),
    bind(&[Ctrl('w')], InputKillWord),
];

/// Typing a check's answer (the prompt's keys come after these: Enter
/// submits it, Esc cancels it).
#[rustfmt::skip]
const ANSWER: &[Binding] = &[
    bind(&[Ctrl('j')], Input('\n')),
];

/// A screen's tables, most specific first.
pub fn layers(screen: Screen) -> &'static [&'static [Binding]] {
    match screen {
        Screen::Reading => &[
            READING, COUNTS, JUMP, NOTES, PAGE_DOWN, PAGE, TOOLS, COURSE, GLOBAL,
        ],
        Screen::Check => &[CHECK, ANSWERS, JUMP, PAGE_DOWN, PAGE, TOOLS, COURSE, GLOBAL],
        Screen::Choices => &[CHOICES, JUMP, PAGE, TOOLS, COURSE, GLOBAL],
        Screen::Answer => &[ANSWER, LINE_EDIT, PROMPT],
        Screen::Contents => &[CONTENTS, LIST_PAGES, COURSE, GLOBAL],
        Screen::Review => &[REVIEW, GLOBAL],
        Screen::Help => &[BOXED, GLOBAL],
        Screen::Stats => &[STATS, BOXED, GLOBAL],
        Screen::Quizzes => &[QUIZZES, LIST_PAGES, GLOBAL],
        Screen::Courses => &[COURSES, GLOBAL],
        Screen::Copy => &[COPY, GLOBAL],
        Screen::Links => &[LINKS, GLOBAL],
        Screen::Search => &[PROMPT],
        Screen::CourseSearch => &[COURSE_SEARCH, LINE_EDIT, PROMPT],
        Screen::Marks => &[MARKS],
        Screen::Select => &[SELECT, GLOBAL],
        Screen::Note => &[NOTE, LINE_EDIT, PROMPT],
        Screen::Notes => &[NOTES_LIST, LINE_EDIT, PROMPT],
    }
}
