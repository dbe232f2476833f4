//! A drill: the review's cards, chosen by what the learner did (missed,
//! last wrong, unanswered, stuck) instead of by the schedule, in a
//! shuffled order with options shuffled again (pinned ones stay). Its
//! answers are practice, kept as drill attempts: they never move a
//! first-try score or a card's schedule. It ends with a summary and an
//! offer to drill again what is still wrong.

use super::{Review, open_card, ready as review_ready};
use crate::model::drill::shuffle_queue;
use crate::model::{DrillKind, DueCards};
use crate::state::{Effect, State};

/// Which checks a drill asked for covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DrillScope {
    /// The lesson on the page (a chapter).
    Lesson,
    /// The course open.
    #[default]
    Course,
    /// Every course open (`lectern drill` with no PATH: the library).
    Library,
}

/// What a drill session keeps beside the review's cards.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Drill {
    pub kind: DrillKind,
    /// Cards answered wrong in this drill, as the queue holds them: what
    /// is left, and what `D` drills again.
    pub left: Vec<((usize, usize), Option<String>)>,
}

/// `D` (or `lectern drill`): at the end of a drill with cards left, those
/// again; else the checks of `scope` that a drill of `kind` takes, read
/// from the store.
pub(in crate::state) fn start(
    s: &mut State,
    kind: DrillKind,
    scope: DrillScope,
    fx: &mut Vec<Effect>,
) {
    let again = s
        .review
        .as_ref()
        .filter(|r| r.done())
        .and_then(|r| r.drill.as_ref())
        .filter(|d| !d.left.is_empty())
        .cloned();
    if let Some(d) = again {
        let (queue, ids) = d.left.into_iter().unzip();
        let seed = s.review.as_ref().map_or(1, |r| r.seed);
        return begin(s, queue, ids, d.kind, seed, fx);
    }
    let courses = match scope {
        DrillScope::Library => s.library.courses.clone(),
        _ => vec![s.library.courses[s.library.current].clone()],
    };
    let lesson = (scope == DrillScope::Lesson)
        .then(|| s.lesson_key().map(|k| k.lesson))
        .flatten();
    fx.push(Effect::LoadDrill {
        courses,
        kind,
        lesson,
        stuck_after: s.prefs.stuck_after,
    });
}

/// The drill's checks arrived: shuffled, then the first card.
pub(in crate::state) fn ready(
    s: &mut State,
    cards: DueCards,
    kind: DrillKind,
    mut seed: u64,
    fx: &mut Vec<Effect>,
) {
    let mut cards = cards.cards;
    seed = seed.max(1);
    shuffle_queue(&mut cards, &mut seed);
    review_ready(
        s,
        DueCards {
            cards,
            ..DueCards::default()
        },
        seed,
        fx,
    );
    // Its card's lesson is opened again (`open_card`), and dealt as a
    // drill's once loaded.
    if let Some(r) = &mut s.review {
        r.drill = Some(Drill {
            kind,
            left: Vec::new(),
        });
    }
}

/// A drill of the cards `queue` (with their check ids) in this session.
fn begin(
    s: &mut State,
    queue: Vec<(usize, usize)>,
    ids: Vec<Option<String>>,
    kind: DrillKind,
    seed: u64,
    fx: &mut Vec<Effect>,
) {
    let before = s.review.as_ref().and_then(|r| r.before);
    let mut r = Review::new(queue, seed);
    r.ids = ids;
    r.before = before;
    r.drill = Some(Drill {
        kind,
        left: Vec::new(),
    });
    s.review = Some(r);
    open_card(s, true, fx);
}

/// A drill card answered: a wrong one is left for the next drill.
pub(super) fn answered(r: &mut Review, correct: bool) {
    let card = r
        .current()
        .map(|c| (c, r.ids.get(r.pos).cloned().flatten()));
    if let (Some(d), Some(card), false) = (&mut r.drill, card, correct) {
        d.left.push(card);
    }
}
