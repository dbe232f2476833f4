//! The reading place as text: saved beside its block and line when the
//! page is left, and gone to when the lesson opens at that block and line
//! (see [`Change::Place`]).

use super::super::{Effect, State};
use super::{canonical, make, put_on_top, top_place};
use crate::model::anchor::{Status, place};
use crate::model::{Change, LessonKey};

/// The longest page whose place is kept as text too (a book's longest
/// chapter is a few thousand lines).
const MAX_PLACED_LINES: usize = 50_000;

/// The open course's progress arrived: the page goes to its saved place,
/// and from there to its words.
pub(in crate::state) fn progress_read(
    s: &mut State,
    progress: std::collections::HashMap<String, crate::model::LessonProgress>,
) {
    super::super::open::progress_read(s, progress);
    to_saved_place(s);
}

/// The open lesson, still at its saved place (block and line), goes to
/// its words, wherever they are now: text added above them moves them,
/// not the reader. Once a lesson opening; an orphan stays where it is.
pub(super) fn to_saved_place(s: &mut State) {
    let Some(key) = s.shown_key() else { return };
    let notes = &s.reader.notes;
    let (Some(target), None) = (notes.places.get(&key), notes.placed.as_ref()) else {
        return;
    };
    let target = target.clone();
    let saved = s.library.progress.get(&key.lesson).and_then(|p| p.anchor);
    let g = s.geometry();
    // Saved with that block and line (its words in that block, or the
    // next after a blank line): a place older than the position is not.
    let with_it = |a: &crate::model::Anchor| target.block == a.block || target.block == a.block + 1;
    let at_it = |a: &crate::model::Anchor| s.reader.line_of(*a, &g) == s.reader.top;
    let Some(anchor) = saved.filter(|a| with_it(a) && at_it(a)) else {
        return;
    };
    s.reader.notes.placed = Some(key);
    s.reader.finish_layout();
    let Some(c) = canonical(s) else { return };
    let placed = place(&c.text, &target);
    match placed.status {
        // The lesson as it was: its block and line say the very line.
        Status::Ok => {}
        Status::Moved | Status::Fuzzy => put_on_top(s, &target),
        Status::Orphan => {
            let line = s.reader.line_of(anchor, &g);
            s.reader.set_top(line, &g);
        }
    }
}

/// The reading place as text, kept beside its block and line.
pub(in crate::state) fn save_place(s: &mut State, key: LessonKey, fx: &mut Vec<Effect>) {
    // Leaving a lesson lays it out once more, at the canonical width: a
    // page past this many lines keeps its block and line alone.
    let lines = s.reader.doc().map_or(0, |d| d.page.lines.len());
    if lines > MAX_PLACED_LINES {
        return;
    }
    if let Some(target) = top_place(s) {
        make(
            s,
            Change::Place {
                key,
                target,
                at: None,
            },
            fx,
        );
    }
}
