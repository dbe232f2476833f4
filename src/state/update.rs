//! Actions in, state changed, effects out. Clamping and scrolling happen
//! here so drawing is a pure function of the state.

use super::action::{Action, Effect};
use super::keymap::Mode;
use super::{Opened, State};
use crate::layout::CheckMarks;
use crate::model::LessonStatus;
use crate::store::LessonProgress;
use std::collections::HashMap;

pub fn update(s: &mut State, action: Action) -> Vec<Effect> {
    let mut fx = Vec::new();
    match action {
        Action::Quit => {
            save_position(s, &mut fx);
            s.quit = true;
        }
        Action::Suspend => fx.push(Effect::Suspend),
        Action::Help => {
            s.help_top = 0;
            enter(s, Mode::Help);
        }
        Action::Stats => {
            enter(s, Mode::Stats);
            fx.push(Effect::LoadStats);
        }
        Action::Back => back(s),
        Action::LineDown | Action::LineUp | Action::PageDown | Action::PageUp
            if s.mode == Mode::Help =>
        {
            // The help box has a border: two rows fewer than the page.
            let help_page = (s.rows().saturating_sub(3)).max(1) as isize;
            let by = match action {
                Action::LineDown => 1,
                Action::LineUp => -1,
                Action::PageDown => help_page,
                _ => -help_page,
            };
            s.help_top = s.help_top.saturating_add_signed(by);
        }
        Action::LineDown => scroll(s, 1),
        Action::LineUp => scroll(s, -1),
        Action::Scroll(n) => scroll(s, n as isize),
        Action::PageDown => scroll(s, page(s)),
        Action::PageUp => scroll(s, -page(s)),
        Action::Top => set_top(s, 0),
        Action::Bottom => set_top(s, usize::MAX),
        Action::NextHeading => {
            let top = s.top;
            let next = s.doc.as_ref().and_then(|d| {
                d.page
                    .headings
                    .iter()
                    .copied()
                    .chain(std::iter::once(d.check_start()))
                    .find(|&h| h > top)
            });
            if let Some(target) = next {
                set_top(s, target);
            }
        }
        Action::PrevHeading => {
            let prev = s
                .doc
                .as_ref()
                .and_then(|d| d.page.headings.iter().rev().find(|&&h| h < s.top).copied());
            set_top(s, prev.unwrap_or(0));
        }
        Action::NextLesson => {
            if s.lesson + 1 < s.course().lessons.len() {
                open(s, s.lesson + 1, &mut fx);
            } else {
                s.notice = Some("This is the last lesson of the course.".into());
            }
        }
        Action::PrevLesson => {
            if s.lesson > 0 {
                open(s, s.lesson - 1, &mut fx);
            } else {
                s.notice = Some("This is the first lesson of the course.".into());
            }
        }
        Action::ToggleToc => {
            if s.mode == Mode::Toc {
                s.toc_open = false;
                s.mode = Mode::Reading;
            } else {
                s.toc_open = true;
                s.toc_cursor = s.lesson;
                s.mode = Mode::Toc;
            }
            s.relayout();
        }
        Action::TocDown => {
            s.toc_cursor = (s.toc_cursor + 1).min(s.course().lessons.len().saturating_sub(1))
        }
        Action::TocUp => s.toc_cursor = s.toc_cursor.saturating_sub(1),
        Action::TocOpen => {
            let target = s.toc_cursor;
            close_toc_overlay(s);
            if target != s.lesson || s.doc.is_none() {
                open(s, target, &mut fx);
            }
        }
        Action::TocClick(row) => {
            if let Some(i) = super::toc::lesson_at(s, row) {
                s.toc_cursor = i;
                close_toc_overlay(s);
                if i != s.lesson {
                    open(s, i, &mut fx);
                }
            }
        }
        Action::SearchStart => {
            s.search_origin = Some(s.top);
            s.base_mode = s.mode;
            s.mode = Mode::Search;
            s.search.query.clear();
            s.search.refresh(s.doc.as_ref());
        }
        Action::SearchNext | Action::SearchPrev => {
            if !s.search.active() {
                s.notice = Some("No search yet: press / to search.".into());
            } else if let Some(line) = s.search.step(action == Action::SearchNext) {
                show_line(s, line);
            } else {
                s.notice = Some(format!("Pattern not found: {}", s.search.query));
            }
        }
        Action::CourseSearchStart => {
            if s.mode == Mode::Toc {
                close_toc_overlay(s);
            }
            s.base_mode = s.mode;
            s.mode = Mode::CourseSearch;
            s.course_search.query.clear();
            s.course_search.results.clear();
            if !s.course_search.ready {
                fx.push(Effect::BuildIndex);
            }
        }
        Action::Input(c) => match s.mode {
            Mode::Search => {
                s.search.query.push(c);
                incremental(s);
            }
            Mode::CourseSearch => {
                s.course_search.query.push(c);
                course_search(s, &mut fx);
            }
            _ => {}
        },
        Action::InputBackspace => match s.mode {
            Mode::Search => {
                s.search.query.pop();
                incremental(s);
            }
            Mode::CourseSearch => {
                s.course_search.query.pop();
                course_search(s, &mut fx);
            }
            _ => {}
        },
        Action::InputEnter if s.mode == Mode::Courses => {
            s.mode = Mode::Reading;
            if s.course_cursor != s.course || s.doc.is_none() {
                fx.push(Effect::SwitchCourse(s.course_cursor));
            }
        }
        Action::InputEnter => match s.mode {
            Mode::Search => {
                s.mode = s.base_mode;
                let origin = s.search_origin.take();
                if s.search.active() && s.search.hits.is_empty() {
                    s.notice = Some(format!("Pattern not found: {}", s.search.query));
                    s.search = Default::default();
                    if let Some(top) = origin {
                        s.top = top.min(s.max_top());
                    }
                }
            }
            Mode::CourseSearch => {
                let hit = s.course_search.results.get(s.course_search.cursor).cloned();
                s.mode = s.base_mode;
                if let Some(hit) = hit {
                    let q = s.course_search.query.trim().to_string();
                    if hit.lesson == s.lesson && s.doc.is_some() {
                        s.search.query = q;
                        s.search.refresh(s.doc.as_ref());
                        if let Some(line) = s.search.first_from(0) {
                            show_line(s, line);
                        }
                    } else {
                        s.pending_search = Some(q);
                        open(s, hit.lesson, &mut fx);
                    }
                }
            }
            _ => {}
        },
        Action::ResultDown if s.mode == Mode::Courses => {
            s.course_cursor = (s.course_cursor + 1).min(s.courses.len().saturating_sub(1));
        }
        Action::ResultUp if s.mode == Mode::Courses => {
            s.course_cursor = s.course_cursor.saturating_sub(1)
        }
        Action::ResultDown => {
            let n = s.course_search.results.len();
            s.course_search.cursor = (s.course_search.cursor + 1).min(n.saturating_sub(1));
        }
        Action::ResultUp => s.course_search.cursor = s.course_search.cursor.saturating_sub(1),
        Action::JumpToCheck => jump_to_check(s),
        Action::Answer(pos) if s.mode == Mode::Review => super::review::answer(s, pos, &mut fx),
        Action::Answer(pos) => super::quiz::answer(s, pos, &mut fx),
        Action::OptionDown | Action::OptionUp if s.mode == Mode::Review => {
            if let Some(r) = &mut s.review {
                let n = r.order.len();
                if n > 0 {
                    r.cursor = if action == Action::OptionDown {
                        (r.cursor + 1).min(n - 1)
                    } else {
                        r.cursor.saturating_sub(1)
                    };
                }
            }
        }

        Action::OptionDown | Action::OptionUp => {
            let n = s
                .doc
                .as_ref()
                .and_then(|d| d.lesson.check.as_ref())
                .map_or(0, |c| c.order.len());
            if n > 0 {
                let cur = s.quiz.cursor.unwrap_or(0);
                s.quiz.cursor = Some(if action == Action::OptionDown {
                    (cur + 1).min(n - 1)
                } else {
                    cur.saturating_sub(1)
                });
                s.relayout_check();
            }
        }
        Action::AnswerSelected => {
            let pos = s.quiz.cursor.unwrap_or(0);
            super::quiz::answer(s, pos, &mut fx);
        }
        Action::Retry => {
            if s.quiz.chosen.is_some() || s.quiz.revealed {
                s.quiz.chosen = None;
                s.quiz.revealed = false;
                s.relayout_check();
                s.notice = Some("Try again: your first answer still counts as your score.".into());
            }
        }
        Action::Reveal => {
            if has_check(s) {
                s.quiz.revealed = true;
                s.relayout_check();
                jump_to_check(s);
            }
        }
        Action::ToggleMouse => {
            s.mouse = !s.mouse;
            s.notice = Some(if s.mouse {
                "Mouse on: the wheel scrolls (m to give the mouse back to the terminal).".into()
            } else {
                "Mouse off: select text with the mouse (m to turn scrolling back on).".into()
            });
            fx.push(Effect::SetMouse(s.mouse));
        }
        Action::Review => match &mut s.review {
            Some(r) if r.rereading => {
                r.rereading = false;
                let card = r.current();
                s.mode = Mode::Review;
                if let Some(card) = card.filter(|&c| c != s.lesson) {
                    open(s, card, &mut fx);
                }
            }
            _ => fx.push(Effect::LoadDue),
        },
        Action::ReviewReady(slugs, seed) => {
            let course = s.course();
            let queue: Vec<usize> = slugs
                .iter()
                .filter_map(|slug| course.index_of(slug))
                .collect();
            s.review = Some(super::review::Review::new(queue, seed));
            s.mode = Mode::Review;
            if let Some(first) = s.review.as_ref().and_then(|r| r.current()) {
                open(s, first, &mut fx);
            }
        }
        Action::ReviewNext => super::review::next_card(s, &mut fx),
        Action::ReviewReread => {
            if let Some(r) = &mut s.review {
                if r.current().is_some() {
                    r.rereading = true;
                    s.mode = Mode::Reading;
                    s.top = 0;
                    s.notice =
                        Some("Re-reading the lesson: press R to return to your review.".into());
                }
            }
        }
        Action::StatsReady(r) => s.reviews = Some(r),
        Action::CourseRefreshed(dir, fresh) => refresh_courses(s, &dir, fresh, &mut fx),
        Action::CourseRead(courses, start) => course_read(s, courses, start),
        Action::CoursesOpen => {
            if s.courses.len() > 1 {
                s.course_cursor = s.course;
                enter(s, Mode::Courses);
            } else {
                s.notice = Some(
                    "Only one course is open: name several paths or a folder of courses.".into(),
                );
            }
        }
        Action::CourseReady {
            course,
            progress,
            start,
        } => {
            save_position(s, &mut fx);
            s.course = course;
            s.progress = progress;
            s.course_search = Default::default();
            s.review = None;
            s.doc = None;
            s.lesson = 0;
            s.mode = Mode::Reading;
            open(s, start, &mut fx);
        }
        Action::PageClick(row) => super::quiz::page_click(s, row, &mut fx),
        Action::Resize(w, h) => {
            s.width = w;
            s.height = h;
            // Contents beside the page that no longer fit beside it close,
            // rather than becoming an overlay nobody asked for.
            if s.toc_open && s.mode != Mode::Toc && !s.geometry().toc_side {
                s.toc_open = false;
            }
            s.relayout();
        }
        Action::Loaded(opened) => loaded(s, *opened, &mut fx),
        Action::ProgressRead(progress) => progress_read(s, progress),
        Action::Highlighted(slug, code) => {
            let current = s.doc.as_ref().is_some_and(|d| d.lesson.meta.slug == slug);
            if current {
                s.set_code(code);
            }
        }
        Action::Indexed => {
            s.course_search.ready = true;
            course_search(s, &mut fx);
        }
        Action::CourseResults(query, hits) => {
            if query == s.course_search.query {
                s.course_search.results = hits;
                s.course_search.cursor = 0;
            }
        }
        Action::Notice(msg) => s.notice = Some(msg),
    }
    if !matches!(s.mode, Mode::Search | Mode::CourseSearch) {
        mark_read_at_end(s, &mut fx);
    }
    fx
}

fn enter(s: &mut State, mode: Mode) {
    if s.mode != mode {
        s.base_mode = match s.mode {
            Mode::Help | Mode::Stats | Mode::Courses => s.base_mode,
            m => m,
        };
        s.mode = mode;
    }
}

fn back(s: &mut State) {
    match s.mode {
        Mode::Help | Mode::Stats | Mode::Courses => s.mode = s.base_mode,
        Mode::Toc => close_toc_overlay(s),
        Mode::Search => {
            s.search = Default::default();
            s.mode = s.base_mode;
            if let Some(top) = s.search_origin.take() {
                s.top = top.min(s.max_top());
            }
        }
        Mode::CourseSearch => s.mode = s.base_mode,
        Mode::Quiz => {
            s.mode = Mode::Reading;
            s.quiz.cursor = None;
            s.relayout_check();
        }
        Mode::Review => {
            s.review = None;
            s.mode = Mode::Reading;
            s.notice = Some("Review ended.".into());
        }
        Mode::Reading => {
            if s.search.active() {
                s.search = Default::default();
            }
            s.notice = None;
        }
    }
}

fn close_toc_overlay(s: &mut State) {
    s.mode = Mode::Reading;
    // Beside the page the contents may stay; over it, they go away.
    if !s.geometry().toc_side {
        s.toc_open = false;
        s.relayout();
    }
}

pub(super) fn page(s: &State) -> isize {
    s.rows().saturating_sub(1).max(1) as isize
}

fn scroll(s: &mut State, by: isize) {
    let top = s.top.saturating_add_signed(by);
    set_top(s, top);
}

fn set_top(s: &mut State, top: usize) {
    s.top = top.min(s.max_top());
}

/// Scrolls so `line` is on screen with a little context above it.
fn show_line(s: &mut State, line: usize) {
    let rows = s.rows();
    if line < s.top || line >= s.top + rows {
        let context = (rows / 4).min(3);
        set_top(s, line.saturating_sub(context));
    }
}

fn incremental(s: &mut State) {
    s.search.refresh(s.doc.as_ref());
    if let Some(line) = s.search.first_from(s.top) {
        show_line(s, line);
    }
}

pub(super) fn has_check(s: &State) -> bool {
    s.doc.as_ref().is_some_and(|d| {
        d.lesson
            .check
            .as_ref()
            .is_some_and(|c| !c.options.is_empty())
    })
}

pub(super) fn jump_to_check(s: &mut State) {
    let Some(start) = s.doc.as_ref().map(|d| d.check_start()) else {
        return;
    };
    set_top(s, start);
    if has_check(s) {
        s.mode = Mode::Quiz;
        if s.quiz.cursor.is_none() {
            s.quiz.cursor = Some(0);
            s.relayout_check();
        }
    }
}

fn mark_read_at_end(s: &mut State, fx: &mut Vec<Effect>) {
    if s.marked_read || s.doc.is_none() || s.partial() || s.top + s.rows() < s.total() {
        return;
    }
    if let Some((course, lesson)) = s.lesson_key() {
        s.marked_read = true;
        s.progress.entry(lesson.clone()).or_default().read = true;
        fx.push(Effect::MarkRead { course, lesson });
    }
}

fn save_position(s: &mut State, fx: &mut Vec<Effect>) {
    if s.doc.is_none() {
        return;
    }
    if let Some((course, lesson)) = s.lesson_key() {
        let anchor = s.anchor();
        // The course's progress map is what reopening a lesson reads.
        s.progress.entry(lesson.clone()).or_default().anchor = Some(anchor);
        fx.push(Effect::SavePosition {
            course,
            lesson,
            anchor,
        });
    }
}

/// Asks for lesson `index` of the open course to be loaded.
pub fn open(s: &mut State, index: usize, fx: &mut Vec<Effect>) {
    save_position(s, fx);
    let Some(entry) = s.course().lessons.get(index) else {
        return;
    };
    let origin = entry.origin.clone();
    let status = entry.status.clone();
    s.lesson = index;
    s.toc_cursor = index;
    s.loading = true;
    if let LessonStatus::Broken(msg) = status {
        s.search = Default::default();
        s.quiz = CheckMarks::default();
        if s.mode == Mode::Quiz {
            s.mode = Mode::Reading;
        }
        s.doc = None;
        s.broken = Some(msg);
        s.loading = false;
        s.top = 0;
        return;
    }
    if let Some((course, lesson)) = s.lesson_key() {
        fx.push(Effect::SetLastLesson { course, lesson });
    }
    fx.push(Effect::Load {
        origin,
        lesson: index,
    });
}

fn loaded(s: &mut State, opened: Opened, fx: &mut Vec<Effect>) {
    if opened.index != s.lesson {
        return;
    }
    s.loading = false;
    s.marked_read = false;
    s.search = Default::default();
    if s.mode == Mode::Review {
        if let (Some(r), Ok(l)) = (&mut s.review, &opened.lesson) {
            r.deal(l.check.as_ref());
        }
    }
    if s.mode == Mode::Quiz {
        s.mode = Mode::Reading;
    }
    let p = opened.progress;
    s.quiz = resumed_check(&p);
    match opened.lesson {
        Err(msg) => {
            s.doc = None;
            s.broken = Some(msg);
            s.top = 0;
        }
        Ok(lesson) => {
            s.broken = None;
            let wants_code = crate::highlight::lesson_wants(&lesson);
            let anchor = s.pending_anchor.take().or(p.anchor);
            let at_top = anchor.is_none()
                && s.pending_search.is_none()
                && !s.pending_check
                && s.mode == Mode::Reading;
            if at_top {
                s.set_doc_first_screen(lesson);
            } else {
                s.set_doc(lesson);
            }
            s.top = anchor.map_or(0, |a| s.line_of(a));
            if let Some(q) = s.pending_search.take() {
                s.search.query = q;
                s.search.refresh(s.doc.as_ref());
                if let Some(line) = s.search.first_from(0) {
                    show_line(s, line);
                }
            }
            if std::mem::take(&mut s.pending_check) {
                jump_to_check(s);
            }
            if wants_code {
                fx.push(Effect::Highlight);
            }
        }
    }
}

fn resumed_check(p: &LessonProgress) -> CheckMarks {
    CheckMarks {
        chosen: p.last_choice.map(|c| c as usize),
        revealed: false,
        cursor: None,
        attempts: p.attempts,
        first_try: p.first_try_correct,
    }
}

/// The store's progress, arriving after the open lesson was drawn from
/// none. Nothing has been read from the keyboard yet, so the lesson goes
/// to its saved place and answer; a lesson already read to its end this
/// session stays read.
fn progress_read(s: &mut State, mut progress: HashMap<String, LessonProgress>) {
    for (lesson, p) in std::mem::take(&mut s.progress) {
        if p.read {
            progress.entry(lesson).or_default().read = true;
        }
    }
    s.progress = progress;
    let Some(slug) = s.doc.as_ref().map(|d| d.lesson.meta.slug.clone()) else {
        return;
    };
    let Some(p) = s.progress.get(&slug).cloned() else {
        return;
    };
    s.quiz = resumed_check(&p);
    s.relayout_check();
    if let Some(a) = p.anchor {
        s.top = s.line_of(a);
    }
}

fn course_search(s: &mut State, fx: &mut Vec<Effect>) {
    if s.course_search.query.trim().is_empty() {
        s.course_search.results.clear();
        s.course_search.cursor = 0;
    } else if s.course_search.ready {
        fx.push(Effect::CourseSearch(s.course_search.query.clone()));
    }
}

/// Replaces a folder's courses with a newer reading of them, keeping the
/// open course and lesson by slug.
/// The lesson opened alone takes its place in its courses. Nothing was
/// read from the keyboard meanwhile: only where it stands changes.
fn course_read(s: &mut State, courses: Vec<crate::model::Course>, start: Option<(usize, usize)>) {
    s.course_pending = false;
    let Some((course, lesson)) =
        start.filter(|&(c, l)| courses.get(c).is_some_and(|c| l < c.lessons.len()))
    else {
        return;
    };
    s.courses = courses;
    s.course = course;
    s.lesson = lesson;
    s.toc_cursor = lesson;
}

fn refresh_courses(
    s: &mut State,
    dir: &std::path::Path,
    fresh: Vec<crate::model::Course>,
    fx: &mut Vec<Effect>,
) {
    // An outline (see `State::course_pending`) is replaced by its course.
    let was_pending = std::mem::take(&mut s.course_pending);
    let course_slug = s.course().slug.clone();
    let lesson_slug = s.lesson_key().map(|(_, l)| l);
    let mut fresh = Some(fresh);
    let mut courses = Vec::with_capacity(s.courses.len());
    for c in std::mem::take(&mut s.courses) {
        if c.root.as_deref() == Some(dir) {
            courses.extend(fresh.take().unwrap_or_default());
        } else {
            courses.push(c);
        }
    }
    if courses.is_empty() {
        courses.push(crate::loader::builtin_course());
    }
    s.courses = courses;
    s.course = s
        .courses
        .iter()
        .position(|c| c.slug == course_slug)
        .unwrap_or(0);
    let n = s.course().lessons.len();
    s.toc_cursor = s.toc_cursor.min(n.saturating_sub(1));
    s.course_search.ready = false;
    match lesson_slug.and_then(|slug| s.course().index_of(&slug)) {
        Some(i) => {
            s.lesson = i;
            if was_pending {
                s.toc_cursor = i;
            }
        }
        // The open lesson's file is gone: the one now in its place opens
        // (with no position saved for it: the place was in another lesson).
        None if n > 0 => {
            let place = if was_pending {
                s.pending_place
            } else {
                s.lesson
            };
            let i = place.min(n - 1);
            s.doc = None;
            open(s, i, fx);
        }
        None => s.lesson = 0,
    }
}
