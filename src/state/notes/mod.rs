//! Marks, highlights and notes: the learner's, of the whole library, read
//! from the store once; those of the open lesson placed on its page by
//! the one anchoring rule ([`crate::model::anchor::place`]) whenever the
//! page is laid out again. Every change is a [`Change`] for the store.
//!
//! Its screens each have a file: the mark prompt (`m`, `'`), the
//! selection (`v`, `V`), the note editor and the notes list (`H`).

pub mod editor;
pub mod list;
pub mod marks;
mod place;
pub mod select;

use place::to_saved_place;
pub(super) use place::{progress_read, save_place};

use super::{Effect, State};
use crate::layout::flow::{Flow, anchoring, flow};
use crate::model::anchor::{Placed, Selector, Status, place};
use crate::model::{Change, LessonKey};
use chrono::{DateTime, Utc};

/// A highlight (with a note, or none) of a lesson's text.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub key: LessonKey,
    pub id: String,
    pub target: Selector,
    pub note: String,
    /// The note, a question, is a review card too.
    pub card: bool,
    /// When it was made (`None` for one made this session, not stamped
    /// yet: newer than any).
    pub at: Option<DateTime<Utc>>,
    /// How it was last placed, once its lesson has been open.
    pub status: Option<Status>,
}

/// A mark: a letter at a place of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub key: LessonKey,
    pub letter: char,
    pub target: Selector,
}

/// A note of the open lesson, placed on its page.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// Which of [`Notes::notes`].
    pub note: usize,
    pub placed: Placed,
    /// (doc line, from byte, to byte) of each line it covers.
    pub lines: Vec<(usize, usize, usize)>,
}

#[derive(Debug, Default)]
pub struct Notes {
    /// Whether the store has been asked for them.
    pub asked: bool,
    pub marks: Vec<Mark>,
    pub notes: Vec<Note>,
    /// Random per session (from the runner): new ids are this and a count.
    id_base: u64,
    made: u64,
    /// The open lesson's notes on its page.
    pub shown: Vec<Shown>,
    /// What `shown` was placed for: lesson, width, page lines, doc lines.
    shown_for: Option<(String, u16, usize, usize)>,
    /// Where the last jump came from, for `''`.
    pub back: Option<(LessonKey, Selector)>,
    /// A jump to a lesson that is being opened.
    pub going: Option<(LessonKey, Selector)>,
    /// Each lesson's reading place as text (see [`Change::Place`]).
    pub places: std::collections::HashMap<LessonKey, Selector>,
    /// Each course of the library's folder, by slug (`None`: built in).
    pub roots: std::collections::HashMap<String, Option<std::path::PathBuf>>,
    /// The lesson whose text place has been looked at since it opened.
    placed: Option<LessonKey>,
}

impl Notes {
    /// A new note's id: random for the session, then counted.
    fn new_id(&mut self) -> String {
        self.made += 1;
        format!("{:016x}-{}", self.id_base, self.made)
    }

    /// The store's notes arrived (`base`: this session's random id base).
    pub fn read(&mut self, changes: Vec<Change>, base: u64) {
        self.id_base = base;
        for change in changes {
            self.take(change);
        }
        self.shown_for = None;
    }

    /// A change made or read: kept as the last of its id.
    fn take(&mut self, change: Change) {
        match change {
            Change::Mark {
                key,
                letter,
                target,
                deleted,
                ..
            } => {
                self.marks.retain(|m| m.letter != letter);
                if !deleted {
                    self.marks.push(Mark {
                        key,
                        letter,
                        target,
                    });
                }
            }
            Change::Place { key, target, .. } => {
                self.places.insert(key, target);
            }
            Change::Annotation {
                key,
                id,
                target,
                note,
                card,
                deleted,
                at,
            } => {
                self.notes.retain(|n| n.id != id);
                if !deleted {
                    self.notes.push(Note {
                        key,
                        id,
                        target,
                        note,
                        card,
                        at,
                        status: None,
                    });
                }
            }
            _ => {}
        }
        self.shown_for = None;
    }

    /// The shown note whose highlight covers doc line `line`, if any.
    pub fn on_line(&self, line: usize) -> impl Iterator<Item = &Shown> {
        self.shown
            .iter()
            .filter(move |s| s.lines.iter().any(|l| l.0 == line))
    }
}

/// The keys of the notes' screens: `false` when none of them is open.
pub(super) fn update(s: &mut State, a: &super::Action, fx: &mut Vec<Effect>) -> bool {
    marks::update(s, a, fx)
        || select::update(s, a, fx)
        || editor::update(s, a, fx)
        || list::update(s, a, fx)
}

/// A lesson arrived: the notes are asked for (once), a jump lands, or
/// the lesson goes to its place as text.
pub(super) fn loaded(s: &mut State, fx: &mut Vec<Effect>) {
    want(s, fx);
    s.reader.notes.placed = None;
    if s.reader.notes.going.is_some() {
        arrived(s, fx);
    } else {
        to_saved_place(s);
    }
}

/// The store's notes arrived, with the library's folders.
pub(super) fn read(
    s: &mut State,
    changes: Vec<Change>,
    base: u64,
    roots: Vec<(String, Option<std::path::PathBuf>)>,
) {
    s.reader.notes.read(changes, base);
    s.reader.notes.roots = roots.into_iter().collect();
    to_saved_place(s);
}

/// Asks the store for the notes once, when the first lesson is open.
fn want(s: &mut State, fx: &mut Vec<Effect>) {
    if !s.reader.notes.asked {
        s.reader.notes.asked = true;
        fx.push(Effect::LoadNotes);
    }
}

/// Makes `change` (a mark or an annotation): kept here and written.
pub(super) fn make(s: &mut State, change: Change, fx: &mut Vec<Effect>) {
    s.reader.notes.take(change.clone());
    fx.push(Effect::Write(change));
}

/// What a note says: its text, and whether it is a review card.
pub(super) struct Said {
    pub note: String,
    pub card: bool,
}

/// A new annotation of the open lesson at `target`, or a new note on the
/// annotation `id`.
pub(super) fn annotate(
    s: &mut State,
    target: Selector,
    said: Said,
    id: Option<String>,
    fx: &mut Vec<Effect>,
) {
    let Some(key) = s.shown_key() else { return };
    let id = id.unwrap_or_else(|| s.reader.notes.new_id());
    make(
        s,
        Change::Annotation {
            key,
            id,
            target,
            note: said.note,
            card: said.card,
            deleted: false,
            at: None,
        },
        fx,
    );
}

/// Annotation `i` of the library as a review card (`card`) or not: only a
/// note that asks a question can be one (`false` when it is not).
pub(super) fn set_card(s: &mut State, i: usize, card: bool, fx: &mut Vec<Effect>) -> bool {
    let Some(n) = s.reader.notes.notes.get(i).cloned() else {
        return false;
    };
    if card && !crate::model::card::asks(&n.note) {
        return false;
    }
    make(s, written(n, card, false), fx);
    true
}

/// Deletes annotation `i` of the library: a tombstone, written.
pub(super) fn delete(s: &mut State, i: usize, fx: &mut Vec<Effect>) {
    let Some(n) = s.reader.notes.notes.get(i).cloned() else {
        return;
    };
    let card = n.card;
    make(s, written(n, card, true), fx);
}

/// Annotation `n` written again, a card or not, deleted or not.
fn written(n: Note, card: bool, deleted: bool) -> Change {
    Change::Annotation {
        key: n.key,
        id: n.id,
        target: n.target,
        note: n.note,
        card,
        deleted,
        at: None,
    }
}

/// The open page's flowing text, once the page is laid out whole.
pub(super) fn page_flow(s: &State) -> Option<Flow> {
    let doc = s.reader.doc()?;
    (!doc.partial()).then(|| flow(&doc.page))
}

/// The open lesson's text as anchors know it ([`anchoring`]): the same
/// whatever the screen, folds closed or open.
pub(super) fn canonical(s: &State) -> Option<Flow> {
    Some(anchoring(&s.reader.doc()?.lesson))
}

/// The selectors of characters `start..end` of the page's flow `f`, in
/// the canonical text `c`.
pub(super) fn select_in(f: &Flow, c: &Flow, start: usize, end: usize) -> Selector {
    let (a, b) = f.to_flow(c, start, end);
    let block = c.word_at(a).map_or(0, |w| c.words[w].block);
    Selector::of(&c.text, a, b, block)
}

/// The page line doc line `top` is on (a check's: the line it stands before).
pub(super) fn page_line(doc: &super::Doc, top: usize) -> usize {
    let n = doc.page.lines.len();
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if doc.doc_line(mid) <= top {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The selector of the place at the top of the screen: the words from
/// the first one on the top line to the end of its line (and a little
/// further, to be told apart), in its block.
pub(super) fn top_place(s: &State) -> Option<Selector> {
    let doc = s.reader.doc()?;
    let f = page_flow(s)?;
    let c = canonical(s)?;
    let at = f.word_on_line(page_line(doc, s.reader.top))?;
    let first = f.words[at];
    let last = f.words[at..]
        .iter()
        .take(12)
        .take_while(|w| w.block == first.block)
        .last()
        .copied()
        .unwrap_or(first);
    Some(select_in(&f, &c, first.start as usize, last.end()))
}

/// Places the open lesson's notes on its page, when its layout changed
/// (called after every key and message).
pub(super) fn refresh(s: &mut State) {
    let Some(doc) = s.reader.doc() else {
        s.reader.notes.shown.clear();
        s.reader.notes.shown_for = None;
        return;
    };
    let stamp = (
        doc.lesson.meta.slug.clone(),
        doc.page.width,
        doc.page.lines.len(),
        doc.total(),
    );
    if doc.partial() || s.reader.notes.shown_for.as_ref() == Some(&stamp) {
        return;
    }
    let Some(key) = s.shown_key() else { return };
    // A lesson without notes costs nothing: no flowing text is made.
    if !s.reader.notes.notes.iter().any(|n| n.key == key) {
        s.reader.notes.shown.clear();
        s.reader.notes.shown_for = Some(stamp);
        return;
    }
    let f = flow(&doc.page);
    let Some(c) = canonical(s) else { return };
    let mut shown = Vec::new();
    for (i, n) in s.reader.notes.notes.iter().enumerate() {
        if n.key != key {
            continue;
        }
        let placed = place(&c.text, &n.target);
        let (a, b) = c.to_flow(&f, placed.start, placed.end);
        let lines = f
            .ranges(a, b)
            .into_iter()
            .map(|(l, a, b)| (doc.doc_line(l), a, b))
            .collect();
        shown.push(Shown {
            note: i,
            placed,
            lines,
        });
    }
    for sh in &shown {
        s.reader.notes.notes[sh.note].status = Some(sh.placed.status);
    }
    s.reader.notes.shown = shown;
    s.reader.notes.shown_for = Some(stamp);
}

/// Goes to `target` in lesson `key`: on this page, or opening its lesson
/// (of this course, another open in this session, or one of the library
/// read from its folder).
pub(in crate::state) fn go(s: &mut State, key: LessonKey, target: Selector, fx: &mut Vec<Effect>) {
    if s.shown_key().as_ref() == Some(&key) {
        return put_on_top(s, &target);
    }
    let current = s.course().slug == key.course;
    s.reader.notes.going = Some((key.clone(), target));
    if current {
        match s.course().index_of(&key.lesson) {
            Some(i) => super::open::open(s, i, fx),
            None => {
                s.reader.notes.going = None;
                s.notice = Some("That lesson is no longer in its course.".into());
            }
        }
        return;
    }
    let root = s.reader.notes.roots.get(&key.course).cloned();
    match s.library.courses.iter().position(|c| c.slug == key.course) {
        Some(i) => fx.push(super::courses::switch_course(s, i)),
        // Read from its folder; it opens where it was left, then the jump.
        None if root.is_some() => fx.push(Effect::OpenCourse {
            slug: key.course.clone(),
            root: root.flatten(),
        }),
        None => {
            s.reader.notes.going = None;
            s.notice = Some(format!(
                "That mark is in the course “{}”, which is not in the library.",
                crate::model::sanitize::clean_owned(&key.course)
            ));
        }
    }
}

/// A lesson arrived: the jump that opened it lands.
fn arrived(s: &mut State, fx: &mut Vec<Effect>) {
    let Some((key, target)) = s.reader.notes.going.clone() else {
        return;
    };
    if s.shown_key().as_ref() == Some(&key) {
        s.reader.notes.going = None;
        s.reader.finish_layout();
        put_on_top(s, &target);
    } else if s.course().slug == key.course && s.reader.doc().is_some() {
        // A course switched to for the jump opened where it was left.
        go(s, key, target, fx);
    }
}

/// Puts `target` at the top of the screen; an orphan leaves the page.
pub(super) fn put_on_top(s: &mut State, target: &Selector) {
    s.reader.finish_layout();
    let (Some(f), Some(c)) = (page_flow(s), canonical(s)) else {
        return;
    };
    let placed = place(&c.text, target);
    let g = s.geometry();
    if placed.status == Status::Orphan {
        s.notice = Some("That place is no longer in the lesson (its text was removed).".into());
        return;
    }
    let Some(w) = f.word_at(c.to_flow(&f, placed.start, placed.end).0) else {
        return;
    };
    let Some(doc) = s.reader.doc() else { return };
    let line = doc.doc_line(f.words[w].line as usize);
    s.reader.set_top(line, &g);
}
