//! Opening lessons and courses: what is asked of the runtime, and what is
//! done with what it brings back.

use super::library::{CourseView, Placed};
use super::reader::Page;
use super::{Effect, Opened, State};
use crate::model::{Change, Course, LessonProgress, LessonStatus};
use std::collections::HashMap;
use std::path::Path;

/// Asks for lesson `index` of the open course to be loaded.
pub fn open(s: &mut State, index: usize, fx: &mut Vec<Effect>) {
    save_position(s, fx);
    let Some(entry) = s.course().lessons.get(index) else {
        return;
    };
    let origin = entry.origin.clone();
    let status = entry.status.clone();
    s.reader.lesson = index;
    s.contents.cursor = index;
    s.contents.heading = None;
    if let LessonStatus::Broken(diag) = status {
        s.reader.turn_to(Page::Broken(diag));
        return;
    }
    s.reader.asked();
    if let Some(key) = s.lesson_key() {
        fx.push(Effect::Write(Change::LastLesson { key }));
        remember(s, fx);
    }
    fx.push(Effect::Load {
        origin,
        lesson: index,
    });
}

pub(super) fn loaded(s: &mut State, opened: Opened, fx: &mut Vec<Effect>) {
    // A lesson asked for before the page or the course moved on.
    let entry = s.course().lessons.get(opened.index);
    if opened.index != s.reader.lesson || entry.is_none_or(|e| e.origin != opened.origin) {
        return;
    }
    // Read once when the course opened and kept current since: no query
    // per lesson.
    let progress = match &opened.lesson {
        Ok(l) => s.library.progress.get(&l.meta.slug).cloned(),
        Err(_) => None,
    }
    .unwrap_or_default();
    let in_review = s.review.as_ref().is_some_and(|r| r.active());
    if in_review {
        if let (Some(r), Ok(l)) = (&mut s.review, &opened.lesson) {
            r.deal(l);
        }
    }
    let g = s.geometry();
    let pictures = s.prefs.pictures;
    let r = &mut s.reader;
    let lesson = match opened.lesson {
        Err(diag) => return r.turn_to(Page::Broken(diag)),
        Ok(lesson) => lesson,
    };
    let pending = std::mem::take(&mut r.pending);
    let fragment = pending.fragment.as_deref();
    let at_heading = fragment.and_then(|f| super::links::heading(&lesson, f));
    let anchor = pending.anchor.or(at_heading).or(progress.anchor);
    // Drawn from its first screen when that is all the frame shows.
    let at_top = anchor.is_none()
        && pending.search.is_none()
        && !pending.check
        && pending.check_id.is_none()
        && !in_review;
    r.show(lesson, &progress, &g, at_top, pictures);
    r.read = opened.read;
    r.top = anchor.map_or(0, |a| r.line_of(a, &g));
    if let Some(q) = pending.search {
        // A course search's hit: its block is on top, the word found from there.
        match pending.anchor {
            Some(_) => r.search_at_top(q, &g),
            None => r.search_for(q, &g),
        }
    }
    if pending.check {
        r.jump_to_check(&g);
    }
    if let Some(id) = &pending.check_id {
        show_check_by_id(r, id, &g);
    }
    note_checks(s, fx);
    highlight(s, fx);
}

/// The open lesson's code highlighted for the palette in use (the runner
/// knows whether there is code worth it).
pub(super) fn highlight(s: &State, fx: &mut Vec<Effect>) {
    if let Some(doc) = s.reader.doc() {
        fx.push(Effect::Highlight {
            lesson: doc.lesson.clone(),
            dark: s.prefs.dark,
        });
    }
}

/// The open lesson's check `id` on screen (the focus not given: answering
/// is the learner's to start).
pub(super) fn show_check_by_id(r: &mut super::reader::Reader, id: &str, g: &super::Geometry) {
    let k = r
        .doc()
        .and_then(|d| d.lesson.checks.iter().position(|c| c.id == id));
    if let Some(k) = k {
        r.show_check(k, g);
        super::attempt::leave(r);
    }
}

/// Remembers how many checks the open lesson holds, when the store does
/// not know yet: the contents show "answered of all" from it.
fn note_checks(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(n) = s.reader.doc().map(|d| d.lesson.checks.len() as u32) else {
        return;
    };
    let Some(key) = s.shown_key() else { return };
    let p = s.library.progress.entry(key.lesson.clone()).or_default();
    if p.check_count.unwrap_or(0) != n {
        p.check_count = Some(n);
        fx.push(Effect::Write(Change::Checks { key, count: n }));
    }
}

/// The store's progress, arriving after the open lesson was drawn from
/// none. Nothing has been read from the keyboard yet, so the lesson goes
/// to its saved place and answer; a lesson already read to its end this
/// session stays read.
pub(super) fn progress_read(s: &mut State, mut progress: HashMap<String, LessonProgress>) {
    for (lesson, p) in std::mem::take(&mut s.library.progress) {
        if p.read || p.check_count.is_some() {
            let e = progress.entry(lesson).or_default();
            e.read |= p.read;
            e.check_count = p.check_count.or(e.check_count);
        }
    }
    s.library.progress = progress;
    let Some(slug) = s.reader.doc().map(|d| d.lesson.meta.slug.clone()) else {
        return;
    };
    let Some(p) = s.library.progress.get(&slug).cloned() else {
        return;
    };
    let g = s.geometry();
    s.reader.resume(&p);
    s.reader.relayout(&g);
    if let Some(a) = p.anchor {
        s.reader.top = s.reader.line_of(a, &g);
    }
}

/// The lesson opened alone takes its place in its courses. Nothing was
/// read from the keyboard meanwhile: only where it stands changes.
pub(super) fn course_read(
    s: &mut State,
    courses: Vec<Course>,
    start: Option<(usize, usize)>,
    fx: &mut Vec<Effect>,
) {
    if let Some(lesson) = s.library.read(courses, start) {
        s.reader.lesson = lesson;
        s.contents.cursor = lesson;
        remember(s, fx);
    }
}

/// A folder's courses read again (or read whole in place of an outline).
pub(super) fn refresh(s: &mut State, dir: &Path, fresh: Vec<Course>, fx: &mut Vec<Effect>) {
    let was_outline = !s.library.is_full();
    let slug = s.lesson_key().map(|k| k.lesson);
    let n_before = s.course().lessons.len();
    match s
        .library
        .refresh(dir, fresh, slug.as_deref(), s.reader.lesson)
    {
        Placed::At(i) => {
            s.reader.lesson = i;
            if was_outline {
                s.contents.cursor = i;
            }
        }
        // The open lesson's file is gone: the one now in its place opens
        // (with no position saved for it: the place was in another lesson).
        Placed::Replaced(i) => {
            s.reader.turn_to(Page::Loading);
            open(s, i, fx);
        }
        Placed::Empty => s.reader.lesson = 0,
    }
    let n = s.course().lessons.len();
    if n != n_before {
        s.contents.cursor = s.contents.cursor.min(n.saturating_sub(1));
    }
    if was_outline {
        remember(s, fx);
        // Indexing starts once a course is open: an outline was not one.
        if !s.library.index_ready && s.course().lessons.len() > 1 {
            want_index(s, fx);
        }
    }
}

/// Another course of the library, with its progress, opens at `start`.
pub(super) fn course_ready(
    s: &mut State,
    course: usize,
    progress: HashMap<String, LessonProgress>,
    start: usize,
    fx: &mut Vec<Effect>,
) {
    save_position(s, fx);
    s.library.current = course;
    s.library.progress = progress;
    s.library.index_ready = false;
    s.library.indexing = None;
    // A review going on in several courses switched here for its card.
    let card = s
        .review
        .as_ref()
        .filter(|r| r.active())
        .and_then(|r| r.current())
        .filter(|&(c, _)| c == course)
        .map(|(_, l)| l);
    if card.is_none() {
        s.review = None;
    }
    s.reader.turn_to(Page::Loading);
    s.reader.lesson = 0;
    s.contents.focused = false;
    open(s, card.unwrap_or(start), fx);
}

/// The open course goes into the learner's library. A lesson opened
/// alone does not know its course's folder yet (it is remembered once
/// that is read); an outline does not know how many lessons it has (0
/// leaves the count the library had).
fn remember(s: &State, fx: &mut Vec<Effect>) {
    let c = s.course();
    let lessons = match s.library.view {
        CourseView::Alone => return,
        CourseView::Outline { .. } => 0,
        CourseView::Full => c.lessons.len(),
    };
    fx.push(Effect::Write(Change::Remember {
        slug: c.slug.clone(),
        title: c.title.clone(),
        root: c.root.clone(),
        lessons: u32::try_from(lessons).unwrap_or(u32::MAX),
        at: None,
    }));
}

pub(super) fn mark_read_at_end(s: &mut State, fx: &mut Vec<Effect>) {
    if s.reader.marked_read || !s.reader.at_end(&s.geometry()) {
        return;
    }
    mark_read(s, fx);
}

/// Marks the open lesson read (once per opening); whether there was one.
pub(super) fn mark_read(s: &mut State, fx: &mut Vec<Effect>) -> bool {
    if s.reader.doc().is_none() {
        return false;
    }
    if s.reader.marked_read {
        return true;
    }
    if let Some(key) = s.shown_key() {
        s.reader.marked_read = true;
        s.library
            .progress
            .entry(key.lesson.clone())
            .or_default()
            .read = true;
        fx.push(Effect::Write(Change::Read { key }));
    }
    true
}

/// The write that would save the reading place as it is now, if a lesson
/// is open: what a forced end of the process (its loop stuck) keeps aside
/// when it cannot wait for the orderly quit that saves it.
pub fn place_to_save(s: &State) -> Option<Change> {
    let key = s.shown_key()?;
    Some(Change::Position {
        key,
        anchor: s.reader.anchor(),
    })
}

pub(super) fn save_position(s: &mut State, fx: &mut Vec<Effect>) {
    if let Some(key) = s.shown_key() {
        let anchor = s.reader.anchor();
        // The course's progress map is what reopening a lesson reads.
        s.library
            .progress
            .entry(key.lesson.clone())
            .or_default()
            .anchor = Some(anchor);
        fx.push(Effect::Write(Change::Position {
            key: key.clone(),
            anchor,
        }));
        super::notes::save_place(s, key, fx);
    }
}

/// Indexing starts once a course is open (the runner holds it until the
/// frame is drawn, and runs it at low priority), and each time the
/// course search opens, to catch files changed since.
pub(super) fn want_index(s: &mut State, fx: &mut Vec<Effect>) {
    if s.library.indexing.is_none() {
        s.library.indexing = Some((0, 0));
        fx.push(Effect::BuildIndex {
            course: s.library.current,
            origins: s.course().origins(),
            page: s.page_text(),
        });
    }
}
