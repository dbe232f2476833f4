//! The page's own keys: moving (with a count, as in less and vim), the
//! in-page search prompt, and the keys that move through the course or
//! open another screen.

use super::Overlay;
use super::course_search::CourseSearch;
use super::courses::Picker;
use super::open;
use super::open::want_index;
use super::reader::{Focus, Search};
use super::screens::{Screen, quit};
use super::{Action, Effect, State, contents, copy, links, review};

/// The count after digit `d`; a leading 0 is no count.
pub(super) fn counting(count: Option<u32>, d: u32) -> Option<u32> {
    match count {
        None if d == 0 => None,
        None => Some(d),
        // Past this, a count only means "to the end" anyway.
        Some(n) => Some(n.saturating_mul(10).saturating_add(d).min(99_999)),
    }
}

/// The count typed before `a` on `screen`, taken: any key but a digit
/// uses it or drops it (Esc included). `None` when `a` is a digit of it,
/// kept for the next key. The page and the selection on it count the
/// same way, with this one count.
pub(super) fn take_count(s: &mut State, a: &Action, screen: Screen) -> Option<Option<u32>> {
    let count = s.reader.count.take();
    let digit = match (a, screen) {
        (Action::Count(d), Screen::Reading | Screen::Select) => *d,
        // `0` after a digit is part of the count (`10w`), where `0` alone
        // is a motion.
        (Action::LineStart, Screen::Select) if count.is_some() => 0,
        _ => return Some(count),
    };
    s.reader.count = counting(count, digit);
    None
}

/// Whether a count typed before `a` on `screen` moves by it.
pub(super) fn counts_for(screen: Screen, a: &Action) -> bool {
    match screen {
        Screen::Reading => a.is_motion(),
        Screen::Check | Screen::Choices => {
            a.is_motion() && !matches!(a, Action::LineDown | Action::LineUp)
        }
        Screen::Select => super::notes::select::takes_count(a),
        _ => false,
    }
}

/// A motion with a count: `3j` three lines, `2 Space` two pages, `10G`
/// (or `10g`) line 10, `3}` three headings on.
/// In a selection, the count moves its free end (`3w`, `2}`).
pub(super) fn counted(s: &mut State, a: &Action, n: u32, fx: &mut Vec<Effect>) {
    if matches!(s.overlay, Some(Overlay::Select(_))) {
        return super::notes::select::moved(s, a, Some(n));
    }
    let g = s.geometry();
    let n = n as usize;
    let r = &mut s.reader;
    match a {
        Action::LineDown => r.scroll(n as isize, &g),
        Action::LineUp => r.scroll(-(n as isize), &g),
        Action::PageDown => r.scroll(g.page().saturating_mul(n as isize), &g),
        Action::PageUp => r.scroll(-g.page().saturating_mul(n as isize), &g),
        Action::Top | Action::Bottom => r.set_top(n - 1, &g),
        // `3]`: three lessons on, opened once (not each on the way).
        Action::NextLesson | Action::PrevLesson => {
            let (at, last) = (r.lesson, s.course().lessons.len().saturating_sub(1));
            let to = if *a == Action::NextLesson {
                (at + n).min(last)
            } else {
                at.saturating_sub(n)
            };
            if to != at {
                open::open(s, to, fx);
            }
        }
        _ => {
            for _ in 0..n.min(1000) {
                page(s, a, fx);
            }
        }
    }
}

/// Typing an in-page search.
pub(super) fn search_prompt(s: &mut State, a: &Action, origin: usize) {
    let g = s.geometry();
    let r = &mut s.reader;
    match a {
        Action::Input(_) | Action::InputBackspace
            if super::line_edit::edit_query(&mut r.search.query, a) =>
        {
            r.search_from_top(&g);
        }
        Action::Open => {
            r.focus = Focus::Page;
            if r.search.active() && r.search.hits.is_empty() && r.search_in_folds(&g) {
                s.notice = Some("Found in folded text: the folds are open (z closes them).".into());
            } else if r.search.active() && r.search.hits.is_empty() {
                s.notice = Some(format!("Pattern not found: {}", r.search.query));
                r.search = Search::default();
                r.set_top(origin, &g);
            }
        }
        Action::Back => {
            r.focus = Focus::Page;
            r.search = Search::default();
            r.set_top(origin, &g);
        }
        _ => {}
    }
}

/// The page's own keys: moving, the course, finding, the other screens.
pub(super) fn page(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    let g = s.geometry();
    let r = &mut s.reader;
    match a {
        Action::LineDown => r.scroll(1, &g),
        Action::LineUp => r.scroll(-1, &g),
        Action::Scroll(n) => r.scroll(*n as isize, &g),
        Action::PageDown => r.scroll(g.page(), &g),
        Action::PageUp => r.scroll(-g.page(), &g),
        Action::Top => r.set_top(0, &g),
        Action::Bottom => r.set_top(usize::MAX, &g),
        Action::NextHeading => {
            if let Some(line) = r.next_heading() {
                r.set_top(line, &g);
            }
        }
        Action::PrevHeading => r.set_top(r.prev_heading(), &g),
        Action::SearchStart => {
            r.focus = Focus::Search { origin: r.top };
            r.search = Search::default();
        }
        Action::SearchNext | Action::SearchPrev => {
            if !r.search.active() {
                s.notice = Some("No search yet: press / to search.".into());
            } else if let Some(line) = r.search.step(*a == Action::SearchNext) {
                r.show_line(line, &g);
            } else {
                s.notice = Some(format!("Pattern not found: {}", r.search.query));
            }
        }
        Action::Back => r.search = Search::default(),
        Action::Close => quit(s, fx),
        _ => course(s, a, fx),
    }
}

/// Keys that move through the course or open another screen.
fn course(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    let lesson = s.reader.lesson;
    match a {
        Action::NextLesson if lesson + 1 < s.course().lessons.len() => {
            open::open(s, lesson + 1, fx)
        }
        Action::NextLesson => s.notice = Some("This is the last lesson of the course.".into()),
        Action::PrevLesson if lesson > 0 => open::open(s, lesson - 1, fx),
        Action::PrevLesson => s.notice = Some("This is the first lesson of the course.".into()),
        Action::ToggleContents => contents::toggle(s),
        Action::ContentsClick(row) => contents::click(s, *row, fx),
        Action::CourseSearchStart => {
            if s.contents.focused {
                contents::leave(s);
            }
            s.overlay = Some(Overlay::CourseSearch(CourseSearch::default()));
            want_index(s, fx);
        }
        Action::CoursesOpen => {
            s.overlay = Some(Overlay::Courses(Picker::new(s)));
            fx.push(Effect::LoadLibrary {
                open: s.library.courses.clone(),
            });
        }
        Action::Review => review::start(s, fx),
        Action::Drill(kind, scope) => review::drill::start(s, *kind, *scope, fx),
        Action::ResetRound => super::rounds::reset(s, fx),
        Action::ExplainAll => super::rounds::explain_all(s, fx),
        Action::MarkRead => s.notice = open::mark_read(s, fx).then(|| "Marked read.".into()),
        Action::Copy => copy::start(s, fx),
        Action::Links => links::start(s),
        Action::OpenPicture => super::pictures::open(s, fx),
        Action::LinkBack => links::back(s, fx),
        Action::MarkSet | Action::MarkJump => {
            let set = *a == Action::MarkSet;
            s.overlay = Some(Overlay::Marks(super::notes::marks::MarkPrompt { set }));
        }
        Action::SelectWords => super::notes::select::start(s, false),
        Action::SelectLines => super::notes::select::start(s, true),
        Action::NotesList => super::notes::list::start(s),
        Action::MarginClick(row) => super::notes::editor::clicked(s, *row),
        _ => {}
    }
}
