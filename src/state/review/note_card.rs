//! A note as a review card (Anki's basic card): the note's question is
//! shown; Enter shows its answer, the words it highlights; the learner
//! grades how well they recalled them (1 again, 2 hard, 3 good, 4 easy),
//! and the store schedules the card with FSRS as it does a check's.

use super::{Review, open_card};
use crate::layout::{self, Line, Role, Style};
use crate::model::Change;
use crate::state::notes::Note;
use crate::state::{Action, Effect, State};

/// The note the card is, if the library's notes are read and it is there.
fn note<'a>(s: &'a State, r: &Review) -> Option<&'a Note> {
    let id = r.note_card()?;
    s.reader.notes.notes.iter().find(|n| n.id == id)
}

/// The card's keys; `false` for those the review handles for every card
/// (Esc, scrolling, `D`).
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(r) = &mut s.review else { return false };
    match a {
        Action::ReviewNext | Action::Open | Action::Toggle if !r.note_answer => {
            r.note_answer = true;
            // The answer and the grades are below: shown.
            let max = s.review.as_ref().map_or(0, |r| super::card::max_top(s, r));
            if let Some(r) = &mut s.review {
                r.top = max;
            }
        }
        Action::ReviewNext | Action::Open | Action::Toggle => grade(s, 3, fx),
        Action::Answer(_) if !r.note_answer => {
            s.notice = Some("Recall the answer, then Enter shows it.".into());
        }
        Action::Answer(pos) => match u8::try_from(pos + 1) {
            Ok(rating @ 1..=4) => grade(s, rating, fx),
            _ => s.notice = Some("1 again · 2 hard · 3 good · 4 easy.".into()),
        },
        Action::ReviewReread => reread(s, fx),
        Action::TypeAnswer | Action::LineDown | Action::LineUp => {}
        _ => return false,
    }
    true
}

/// The learner's grade written (a card that is gone is skipped), then
/// the next card.
fn grade(s: &mut State, rating: u8, fx: &mut Vec<Effect>) {
    let Some(r) = &s.review else { return };
    if let Some(n) = note(s, r) {
        fx.push(Effect::Write(Change::Grade {
            key: n.key.clone(),
            note: n.id.clone(),
            rating,
            at: None,
        }));
        if let Some(r) = &mut s.review {
            if rating == 1 {
                r.wrong += 1;
            } else {
                r.right += 1;
            }
        }
    }
    if let Some(r) = &mut s.review {
        r.pos += 1;
    }
    open_card(s, true, fx);
}

/// `o`: the note's words in its lesson; R returns.
fn reread(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(r) = &s.review else { return };
    let Some(n) = note(s, r).cloned() else { return };
    if let Some(r) = &mut s.review {
        r.rereading = true;
    }
    s.notice = Some("Your note's words in the lesson: press R to return to your review.".into());
    crate::state::notes::go(s, n.key, n.target, fx);
}

/// The card below its header: the question, and once shown its answer
/// and the grades.
pub(super) fn body(s: &State, r: &Review, width: u16) -> Vec<Line> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut say = |text: &str, role: Role| {
        for para in text.split('\n') {
            let wrapped = layout::wrap::wrap(&[(para, Style::new(role))], width);
            lines.extend(wrapped.into_iter().map(|spans| Line { spans }));
        }
    };
    let Some(n) = note(s, r) else {
        let gone = if s.reader.notes.notes.is_empty() {
            "Loading…"
        } else {
            "This note is no longer there: Enter skips it."
        };
        say(gone, Role::Text);
        return lines;
    };
    say(&n.note, Role::Question);
    say("", Role::Text);
    if !r.note_answer {
        say(
            "Recall the answer: the words you highlighted. Enter shows them.",
            Role::Dim,
        );
        return lines;
    }
    say("The words you highlighted:", Role::Meta);
    say(&format!("“{}”", n.target.exact), Role::Quote);
    say("", Role::Text);
    say(
        "How well did you recall them? 1 again · 2 hard · 3 good (Enter) · 4 easy",
        Role::Question,
    );
    lines
}

/// The footer's keys for the card as it stands.
pub(super) fn hint(r: &Review) -> &'static str {
    if r.note_answer {
        "1 again · 2 hard · 3 good (Enter) · 4 easy · o the note's words"
    } else {
        "Enter show the answer · o the note's words · Esc end the review"
    }
}
