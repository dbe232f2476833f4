//! Which screen has the keys, and the routing of actions and messages to
//! it. The one place screens are listed: a new screen adds its variant
//! here and its own file.

use super::course_search::{Searched, open_hit, reply as search_reply};
use super::courses::{self, Picked};
use super::help::Help;
use super::notes;
use super::open::{self, save_position};
use super::overlay::Overlay;
use super::page_keys::{counted, counts_for, page, search_prompt, take_count};
use super::reader::Focus;
use super::stats::StatsView;
use super::{Action, Effect, Msg, State, check, contents, copy, links, quizzes, review, scrolled};

/// The screens, as the key tables and the help name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    Reading,
    Contents,
    /// Typing a search in the lesson.
    Search,
    CourseSearch,
    Check,
    /// A check with several right answers: options are ticked, then
    /// submitted.
    Choices,
    /// Typing a check's answer.
    Answer,
    Help,
    Stats,
    /// The quiz dashboard: every chapter with checks.
    Quizzes,
    Review,
    /// Choosing a course of the library.
    Courses,
    /// Choosing what on screen to copy.
    Copy,
    /// The page's links.
    Links,
    /// `m`, `'`: waiting for a mark's letter; `H`: the notes listed.
    Marks,
    Select,
    Note,
    Notes,
}

impl Screen {
    /// Every screen, in the order the help lists them (the page first,
    /// the help itself last): the one list of them, which the help, the
    /// man page, the README's key list and the guide's check all read.
    pub const ALL: [Screen; 18] = [
        Screen::Reading,
        Screen::Check,
        Screen::Choices,
        Screen::Review,
        Screen::Stats,
        Screen::Quizzes,
        Screen::Contents,
        Screen::Search,
        Screen::CourseSearch,
        Screen::Answer,
        Screen::Courses,
        Screen::Copy,
        Screen::Links,
        Screen::Marks,
        Screen::Select,
        Screen::Note,
        Screen::Notes,
        Screen::Help,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Reading => "Reading",
            Screen::Contents => "Table of contents",
            Screen::Search => "Search in lesson",
            Screen::CourseSearch => "Search the course",
            Screen::Check => "Check question",
            Screen::Choices => "Check with several answers",
            Screen::Answer => "Typing an answer",
            Screen::Help => "Help",
            Screen::Stats => "Stats",
            Screen::Quizzes => "Quiz dashboard",
            Screen::Review => "Review",
            Screen::Courses => "Courses",
            Screen::Copy => "Copy",
            Screen::Links => "Links",
            Screen::Marks => "Marks",
            Screen::Select => "Selecting text",
            Screen::Note => "Writing a note",
            Screen::Notes => "Highlights and notes",
        }
    }

    /// A prompt takes typed text, not commands.
    pub fn is_prompt(self) -> bool {
        matches!(
            self,
            Screen::Search
                | Screen::CourseSearch
                | Screen::Answer
                | Screen::Marks
                | Screen::Note
                | Screen::Notes
        )
    }
}

/// An action in, the state changed, effects out.
pub fn update(s: &mut State, a: Action) -> Vec<Effect> {
    let mut fx = Vec::new();
    let screen = s.screen();
    if a.clears_notice() && !screen.is_prompt() {
        s.notice = None;
    }
    let Some(count) = take_count(s, &a, screen) else {
        return fx;
    };
    let moved = counts_for(screen, &a);
    match count {
        Some(n) if moved || matches!(a, Action::NextLesson | Action::PrevLesson) => {
            counted(s, &a, n, &mut fx)
        }
        _ => {
            if !global(s, &a, &mut fx) && !overlay(s, &a, &mut fx) {
                base(s, &a, &mut fx);
            }
        }
    }
    let g = s.geometry();
    super::attempt::keep_focus(&mut s.reader, &g);
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
        Msg::Background(dark) if dark != s.prefs.dark => {
            s.prefs.dark = dark;
            open::highlight(s, &mut fx);
        }
        Msg::Background(_) => {}
        Msg::Loaded(opened) => {
            open::loaded(s, *opened, &mut fx);
            // A lesson alone is searched on its page: indexing it would
            // parse it a second time beside the reader's copy (twice the
            // peak for a large one). Its course search still indexes it.
            if !s.library.index_ready && s.course().lessons.len() > 1 {
                open::want_index(s, &mut fx);
            }
            notes::loaded(s, &mut fx);
        }
        Msg::ProgressRead(progress) => notes::progress_read(s, progress),
        Msg::Synced(news) => super::synced::synced(s, news, &mut fx),
        Msg::ProgressMerged(course, progress) => super::synced::progress(s, &course, progress),
        Msg::NotesRead(changes, base, roots) => notes::read(s, changes, base, roots),
        Msg::Highlighted(slug, mut code) => {
            // Hidden lines shown (`#`) or folds opened before the colours
            // came stay so.
            if let Some(doc) = s.reader.doc() {
                code.keep_view(&doc.code);
            }
            s.reader.set_code(&slug, code, &g)
        }
        Msg::Picture(key, drawn) => s.reader.pictures.arrived(key, drawn),
        Msg::Drawing(drawing) => super::pictures::drawing(s, drawing),
        Msg::Indexed {
            course,
            done,
            total,
        } => super::course_search::indexed(s, course, (done, total), &mut fx),
        m @ (Msg::CourseResults { .. } | Msg::CourseSnippets { .. }) => search_reply(s, m, &mut fx),
        Msg::Notice(text) => s.notice = Some(text),
        Msg::NoteEdited(edited) => notes::editor::edited(s, edited),
        Msg::Reading { done, total } => s.library.reading = Some((done, total)),
        Msg::ReviewReady(due, seed) => review::ready(s, due, seed, &mut fx),
        Msg::LibraryDue { courses, due, seed } => {
            for c in courses {
                if !s.library.courses.iter().any(|o| o.slug == c.slug) {
                    s.library.courses.push(std::sync::Arc::new(c));
                }
            }
            review::ready(s, *due, seed, &mut fx)
        }
        Msg::DrillReady { cards, kind, seed } => {
            review::drill::ready(s, *cards, kind, seed, &mut fx)
        }
        Msg::QuizzesReady { chapters, courses } => quizzes::ready(s, chapters, courses),
        Msg::StatsReady(figures) => {
            if let Some(Overlay::Stats(v)) = &mut s.overlay {
                v.figures = Some(figures);
            }
        }
        Msg::LibraryRead(rows) => {
            if let Some(Overlay::Courses(p)) = &mut s.overlay {
                p.library(rows.clone());
            }
            if let Some(Overlay::Stats(v)) = &mut s.overlay {
                v.library = rows;
            }
        }
        Msg::CourseAdded(course) => courses::added(s, *course, &mut fx),
        Msg::CourseRefreshed(dir, courses) => open::refresh(s, &dir, courses, &mut fx),
        Msg::CourseRead(courses, start) => open::course_read(s, courses, start, &mut fx),
        Msg::CourseReady {
            course,
            progress,
            start,
        } => open::course_ready(s, course, progress, start, &mut fx),
    }
    after(s, &mut fx);
    fx
}

/// The one rule of read: a lesson is read once its end has been on the
/// page's screen, however it got there (scrolling, `c`, a link, the
/// place it opened at), and not while a review or an overlay hides it.
fn after(s: &mut State, fx: &mut Vec<Effect>) {
    notes::refresh(s);
    if matches!(
        s.screen(),
        Screen::Reading | Screen::Check | Screen::Choices
    ) {
        open::mark_read_at_end(s, fx);
    }
    super::pictures::ask_near(s, fx);
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
            // A taller screen shows more hits: their snippets are read too.
            if let Some(Overlay::CourseSearch(cs)) = &mut s.overlay {
                let shown = cs.window(super::course_search::list_rows(*h));
                cs.want(shown, s.library.course(), fx);
            }
        }
        Action::ToggleMouse => {
            s.prefs.mouse = !s.prefs.mouse;
            s.notice = Some(if s.prefs.mouse {
                "Mouse on: the wheel scrolls (T to give the mouse back to the terminal).".into()
            } else {
                "Mouse off: select text with the mouse (T to turn scrolling back on).".into()
            });
            fx.push(Effect::SetMouse(s.prefs.mouse));
        }
        Action::ToggleHiddenLines => s.reader.toggle_hidden_lines(&s.geometry()),
        Action::ToggleFolds => s.reader.toggle_folds(&s.geometry()),
        Action::Help => s.overlay = Some(Overlay::Help(Help::default())),
        Action::Quizzes => quizzes::open(s, fx),
        Action::Stats => {
            s.overlay = Some(Overlay::Stats(StatsView::default()));
            fx.push(Effect::LoadStats {
                course: s.library.courses[s.library.current].clone(),
            });
            fx.push(Effect::LoadLibrary {
                open: s.library.courses.clone(),
            });
        }
        _ => return false,
    }
    true
}

pub(super) fn quit(s: &mut State, fx: &mut Vec<Effect>) {
    save_position(s, fx);
    s.quit = true;
}

/// An open overlay takes every key; `false` when none is open.
fn overlay(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let g = s.geometry();
    let closing = matches!(a, Action::Back | Action::Close);
    if copy::update(s, a, fx)
        || links::update(s, a, fx)
        || notes::update(s, a, fx)
        || quizzes::update(s, a, fx)
    {
        return true;
    }
    match &mut s.overlay {
        None => return false,
        Some(Overlay::Stats(v)) if matches!(a, Action::Answer(_)) => {
            let Action::Answer(n) = a else { return true };
            let found = v.lesson_of(*n);
            let at = found
                .as_ref()
                .and_then(|(l, _)| s.library.course().index_of(l));
            match (at, found) {
                // A misconception opens at its check.
                (Some(i), Some((_, check))) if i == s.reader.lesson && s.reader.doc().is_some() => {
                    s.overlay = None;
                    open::show_check_by_id(&mut s.reader, &check, &g);
                }
                (Some(i), Some((_, check))) => {
                    s.overlay = None;
                    s.reader.pending.check_id = Some(check);
                    open::open(s, i, fx);
                }
                _ => s.notice = Some(format!("No misconception {}.", n + 1)),
            }
        }
        Some(Overlay::Help(Help { top }) | Overlay::Stats(StatsView { top, .. })) => {
            if closing {
                s.overlay = None;
            } else {
                scrolled::scroll(top, a, &g);
            }
        }
        Some(Overlay::Courses(p)) => match p.update(a) {
            Some(Picked::Course(i)) => {
                let row = p.rows.get(i).cloned();
                s.overlay = None;
                if let Some(row) = row {
                    courses::pick(s, row, fx);
                }
            }
            Some(Picked::Nothing) => {}
            None if closing => s.overlay = None,
            None => {}
        },
        Some(Overlay::CourseSearch(cs)) => {
            match cs.update(a, s.library.course(), s.size.height, fx) {
                Some(Searched::Open {
                    lesson,
                    block,
                    word,
                }) => {
                    s.overlay = None;
                    open_hit(s, lesson, block, word, fx);
                }
                Some(Searched::Close) => s.overlay = None,
                Some(Searched::Nothing) | None => {}
            }
        }
        // The copy picker, the links and the notes' screens: taken above.
        Some(_) => {}
    }
    true
}

/// The screen under the overlays: the review, the contents, the reader.
fn base(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    // The review has the screen: nothing reaches the page behind it (a
    // click, the wheel), but q still quits.
    if s.active_review().is_some() {
        if !review::update(s, a, fx) && *a == Action::Close {
            page(s, a, fx);
        }
        return;
    }
    if s.contents.focused && contents::update(s, a, fx) {
        return;
    }
    match s.reader.focus {
        Focus::Search { origin } => return search_prompt(s, a, origin),
        Focus::Answer => return check::update_typing(s, a, fx),
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
