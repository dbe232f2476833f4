//! Which screen has the keys, and the routing of actions and messages to
//! it. The one place screens are listed: a new screen adds its variant
//! here and its own file.

use super::course_search::{CourseSearch, Searched};
use super::courses::{Picked, Picker};
use super::help::Help;
use super::open::{self, save_position};
use super::reader::{Focus, Search};
use super::stats::StatsView;
use super::{Action, Effect, Msg, State, check, contents, review, scrolled};

/// The screens, as the key tables and the help name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    Reading,
    Contents,
    /// Typing a search in the lesson.
    Search,
    CourseSearch,
    Check,
    Help,
    Stats,
    Review,
    /// Choosing a course of the library.
    Courses,
}

impl Screen {
    pub fn title(self) -> &'static str {
        match self {
            Screen::Reading => "Reading",
            Screen::Contents => "Table of contents",
            Screen::Search => "Search in lesson",
            Screen::CourseSearch => "Search the course",
            Screen::Check => "Check question",
            Screen::Help => "Help",
            Screen::Stats => "Stats",
            Screen::Review => "Review",
            Screen::Courses => "Courses",
        }
    }

    /// A prompt takes typed text, not commands.
    pub fn is_prompt(self) -> bool {
        matches!(self, Screen::Search | Screen::CourseSearch)
    }
}

/// A screen over the page, with its own state.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help(Help),
    Stats(StatsView),
    Courses(Picker),
    CourseSearch(CourseSearch),
}

impl State {
    /// The screen that has the keys.
    pub fn screen(&self) -> Screen {
        match &self.overlay {
            Some(Overlay::Help(_)) => return Screen::Help,
            Some(Overlay::Stats(_)) => return Screen::Stats,
            Some(Overlay::Courses(_)) => return Screen::Courses,
            Some(Overlay::CourseSearch(_)) => return Screen::CourseSearch,
            None => {}
        }
        if self.active_review().is_some() {
            return Screen::Review;
        }
        if self.contents.focused {
            return Screen::Contents;
        }
        match self.reader.focus {
            Focus::Page => Screen::Reading,
            Focus::Check => Screen::Check,
            Focus::Search { .. } => Screen::Search,
        }
    }
}

/// An action in, the state changed, effects out.
pub fn update(s: &mut State, a: Action) -> Vec<Effect> {
    let mut fx = Vec::new();
    if a.clears_notice() && !s.screen().is_prompt() {
        s.notice = None;
    }
    if !global(s, &a, &mut fx) && !overlay(s, &a, &mut fx) {
        base(s, &a, &mut fx);
    }
    after(s, &mut fx);
    fx
}

/// A message from the runtime in, the state changed, effects out.
pub fn receive(s: &mut State, msg: Msg) -> Vec<Effect> {
    let mut fx = Vec::new();
    let g = s.geometry();
    match msg {
        Msg::Drawn => {
            s.reader.finish_layout();
        }
        Msg::Loaded(opened) => open::loaded(s, *opened, &mut fx),
        Msg::ProgressRead(progress) => open::progress_read(s, progress),
        Msg::Highlighted(slug, code) => s.reader.set_code(&slug, code, &g),
        Msg::Indexed => {
            s.library.index_ready = true;
            if let Some(Overlay::CourseSearch(cs)) = &mut s.overlay {
                cs.search(true, &mut fx);
            }
        }
        Msg::CourseResults(query, hits) => {
            if let Some(Overlay::CourseSearch(cs)) = &mut s.overlay {
                cs.results(&query, hits);
            }
        }
        Msg::Notice(text) => s.notice = Some(text),
        Msg::ReviewReady(slugs, seed) => review::ready(s, &slugs, seed, &mut fx),
        Msg::StatsReady(figures) => {
            if let Some(Overlay::Stats(v)) = &mut s.overlay {
                v.figures = Some(figures);
            }
        }
        Msg::CourseRefreshed(dir, courses) => open::refresh(s, &dir, courses, &mut fx),
        Msg::CourseRead(courses, start) => open::course_read(s, courses, start),
        Msg::CourseReady {
            course,
            progress,
            start,
        } => open::course_ready(s, course, progress, start, &mut fx),
    }
    after(s, &mut fx);
    fx
}

fn after(s: &mut State, fx: &mut Vec<Effect>) {
    if !s.screen().is_prompt() {
        open::mark_read_at_end(s, fx);
    }
}

/// What every screen means the same way.
fn global(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    match a {
        Action::Quit => quit(s, fx),
        Action::Suspend => fx.push(Effect::Suspend),
        Action::Resize(w, h) => {
            s.size = super::Size {
                width: *w,
                height: *h,
            };
            // Contents beside the page that no longer fit beside it close,
            // rather than becoming an overlay nobody asked for.
            if s.contents.open && !s.contents.focused && !s.geometry().toc_side {
                s.contents.open = false;
            }
            s.relayout();
        }
        Action::ToggleMouse => {
            s.prefs.mouse = !s.prefs.mouse;
            s.notice = Some(if s.prefs.mouse {
                "Mouse on: the wheel scrolls (m to give the mouse back to the terminal).".into()
            } else {
                "Mouse off: select text with the mouse (m to turn scrolling back on).".into()
            });
            fx.push(Effect::SetMouse(s.prefs.mouse));
        }
        Action::ToggleHiddenLines => s.reader.toggle_hidden_lines(&s.geometry()),
        Action::Help => s.overlay = Some(Overlay::Help(Help::default())),
        Action::Stats => {
            s.overlay = Some(Overlay::Stats(StatsView::default()));
            fx.push(Effect::LoadStats);
        }
        _ => return false,
    }
    true
}

fn quit(s: &mut State, fx: &mut Vec<Effect>) {
    save_position(s, fx);
    s.quit = true;
}

/// An open overlay takes every key; `false` when none is open.
fn overlay(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let g = s.geometry();
    let closing = matches!(a, Action::Back | Action::Close);
    let courses = s.library.courses.len();
    let ready = s.library.index_ready;
    match &mut s.overlay {
        None => return false,
        Some(Overlay::Help(Help { top }) | Overlay::Stats(StatsView { top, .. })) => {
            if closing {
                s.overlay = None;
            } else {
                scrolled::scroll(top, a, &g);
            }
        }
        Some(Overlay::Courses(p)) => match p.update(a, courses) {
            Some(Picked::Course(i)) => {
                s.overlay = None;
                if i != s.library.current || s.reader.doc.is_none() {
                    fx.push(Effect::SwitchCourse(i));
                }
            }
            Some(Picked::Nothing) => {}
            None if closing => s.overlay = None,
            None => {}
        },
        Some(Overlay::CourseSearch(cs)) => match cs.update(a, ready, fx) {
            Some(Searched::Open { lesson, query }) => {
                s.overlay = None;
                open_hit(s, lesson, query, fx);
            }
            Some(Searched::Close) => s.overlay = None,
            Some(Searched::Nothing) | None => {}
        },
    }
    true
}

fn open_hit(s: &mut State, lesson: usize, query: String, fx: &mut Vec<Effect>) {
    if lesson == s.reader.lesson && s.reader.doc.is_some() {
        let g = s.geometry();
        s.reader.search_for(query, &g);
    } else {
        s.reader.pending.search = Some(query);
        open::open(s, lesson, fx);
    }
}

/// The screen under the overlays: the review, the contents, the reader.
fn base(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    if s.active_review().is_some() && review::update(s, a, fx) {
        return;
    }
    if s.contents.focused && contents::update(s, a, fx) {
        return;
    }
    match s.reader.focus {
        Focus::Search { origin } => return search_prompt(s, a, origin),
        Focus::Check => {
            if check::update_focused(s, a, fx) {
                return;
            }
        }
        Focus::Page => {}
    }
    if !check::update(s, a, fx) {
        page(s, a, fx);
    }
}

/// Typing an in-page search.
fn search_prompt(s: &mut State, a: &Action, origin: usize) {
    let g = s.geometry();
    let r = &mut s.reader;
    match a {
        Action::Input(c) => {
            r.search.query.push(*c);
            r.search_from_top(&g);
        }
        Action::InputBackspace => {
            r.search.query.pop();
            r.search_from_top(&g);
        }
        Action::Open => {
            r.focus = Focus::Page;
            if r.search.active() && r.search.hits.is_empty() {
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
fn page(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
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
            if !s.library.index_ready {
                fx.push(Effect::BuildIndex);
            }
        }
        Action::CoursesOpen if s.library.courses.len() > 1 => {
            let cursor = s.library.current;
            s.overlay = Some(Overlay::Courses(Picker { cursor }));
        }
        Action::CoursesOpen => {
            s.notice =
                Some("Only one course is open: name several paths or a folder of courses.".into())
        }
        Action::Review => review::start(s, fx),
        _ => {}
    }
}
