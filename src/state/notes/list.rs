//! `H`: every highlight and note of the library, newest first or in
//! course order (Tab), filtered by what is typed, each with its status;
//! Enter opens the page at it.

use super::super::Overlay;
use super::super::{Action, Effect, State};
use super::marks::title_of;
use super::{Note, go};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct NotesList {
    pub query: String,
    pub cursor: usize,
    /// In course order (course, lesson, place) rather than newest first.
    pub by_course: bool,
}

/// One row of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub note: usize,
    pub lesson: String,
    pub quote: String,
    pub text: String,
    /// `ok`, `moved`, `fuzzy`, `orphan`, or "not placed yet" for a lesson
    /// not opened this session.
    pub status: &'static str,
    /// A review card.
    pub card: bool,
}

/// What the list shows, in its order, filtered by its query.
pub fn rows(s: &State, list: &NotesList) -> Vec<Row> {
    let notes = &s.reader.notes.notes;
    let words: Vec<String> = list
        .query
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let mut order: Vec<usize> = (0..notes.len()).rev().collect();
    if list.by_course {
        let place = |n: &Note| {
            let course = s.library.courses.iter().find(|c| c.slug == n.key.course);
            let lesson = course.and_then(|c| c.index_of(&n.key.lesson));
            (n.key.course.clone(), lesson, n.target.start)
        };
        order.sort_by_key(|&i| place(&notes[i]));
    }
    order
        .into_iter()
        .map(|i| {
            let n = &notes[i];
            Row {
                note: i,
                lesson: title_of(s, &n.key),
                quote: n.target.exact.clone(),
                text: n.note.clone(),
                status: n.status.map_or("not placed yet", |st| st.name()),
                card: n.card,
            }
        })
        .filter(|r| {
            let card = if r.card { " card" } else { "" };
            let hay = format!("{} {} {}{card}", r.lesson, r.quote, r.text).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

/// Ctrl-R on a note: a review card, or no longer one.
fn toggle_card(s: &mut State, i: usize, fx: &mut Vec<Effect>) -> &'static str {
    let card = !s.reader.notes.notes[i].card;
    match super::set_card(s, i, card, fx) {
        true if card => {
            "A review card now: R asks it when it is due (today), its highlight the answer."
        }
        true => "No longer a review card (its grades are kept).",
        false => "Only a note that asks a question (ends with ?) can be a review card.",
    }
}

/// `H` on the page.
pub(in crate::state) fn start(s: &mut State) {
    s.overlay = Some(Overlay::Notes(NotesList::default()));
}

/// The list's keys: `false` when it is not open.
pub(in crate::state) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Notes(list)) = &s.overlay else {
        return false;
    };
    let mut list = list.clone();
    let shown = rows(s, &list);
    match a {
        Action::LineDown => list.cursor = (list.cursor + 1).min(shown.len().saturating_sub(1)),
        Action::LineUp => list.cursor = list.cursor.saturating_sub(1),
        Action::ToggleContents => {
            list.by_course = !list.by_course;
            list.cursor = 0;
        }
        Action::ToggleCard => {
            if let Some(r) = shown.get(list.cursor) {
                let id = s.reader.notes.notes[r.note].id.clone();
                s.notice = Some(toggle_card(s, r.note, fx).into());
                // A note changed is the newest: the cursor follows it.
                let notes = &s.reader.notes.notes;
                let at = rows(s, &list).iter().position(|r| notes[r.note].id == id);
                list.cursor = at.unwrap_or(list.cursor);
            }
        }
        Action::Back | Action::Close => {
            s.overlay = None;
            return true;
        }
        Action::Open => {
            s.overlay = None;
            if let Some(n) = shown
                .get(list.cursor)
                .map(|r| s.reader.notes.notes[r.note].clone())
            {
                go(s, n.key, n.target, fx);
            }
            return true;
        }
        a => {
            if super::super::line_edit::edit_query(&mut list.query, a) {
                list.cursor = 0;
            }
        }
    }
    s.overlay = Some(Overlay::Notes(list));
    true
}
