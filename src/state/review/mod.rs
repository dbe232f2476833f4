//! A spaced-review session inside the reader: due check questions one at
//! a time, options shuffled so their position cannot be memorised. The
//! card as drawn, and its scrolling, are in `card.rs`.

mod card;
pub(super) mod drill;
mod keys;
mod note_card;

pub(super) use card::reminder;
pub use card::{card_body, card_hint, shuffle};
pub use drill::{Drill, DrillScope};

use super::attempt::{self, Answered};
use super::open::open;
use super::{Action, Effect, State};
use crate::layout::CheckView;
use crate::model::{Answer, Check, CheckKind, CheckState, DueCards, Lesson, Verdict};
use chrono::{DateTime, Utc};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    /// `(course, lesson)` indices of the cards due, in the order asked:
    /// a review spans every course of the library.
    pub queue: Vec<(usize, usize)>,
    /// The check id of each card of `queue` (none: the lesson's first).
    pub ids: Vec<Option<String>>,
    pub pos: usize,
    /// Which of the card's lesson's checks it is.
    pub check: usize,
    /// Display order of the current card's options (file indices).
    pub order: Vec<usize>,
    /// The card's answer so far, as the reader's check keeps one (its
    /// cursor none until an arrow moves it, so Enter on a fresh card
    /// answers nothing).
    pub card: CheckState,
    /// Typing the card's answer.
    pub typing: bool,
    pub right: usize,
    pub wrong: usize,
    /// Paused to re-read the current card's lesson.
    pub rereading: bool,
    /// When nothing is due: when the next card comes, and how many wait
    /// (in all, and per course title).
    pub next: Option<DateTime<Utc>>,
    pub scheduled: usize,
    pub scheduled_by: Vec<(String, usize)>,
    /// The explanation of the tempting option chosen last time, shown
    /// once the card is answered.
    pub reminder: Option<String>,
    /// The card (by its place in `queue`) whose lesson was opened before
    /// it was answered: its answer is after a peek.
    pub peeked: Option<usize>,
    /// The card was answered right (and not after a peek): the learner
    /// may say how it felt before going on.
    pub rateable: bool,
    /// The card's first line under its header, when it is taller than
    /// the screen (the drawing clamps it).
    pub top: usize,
    /// Where the learner was when the review began: `(course, lesson,
    /// place)`, where Esc brings them back.
    pub before: Option<(usize, usize, crate::model::Anchor)>,
    /// A drill rather than a review: its kind and what is left.
    pub drill: Option<Drill>,
    /// A note's card (see [`Review::note_card`]) shows its answer.
    pub note_answer: bool,
    seed: u64,
}

impl Review {
    pub fn new(queue: Vec<(usize, usize)>, seed: u64) -> Review {
        Review {
            ids: vec![None; queue.len()],
            queue,
            seed: seed.max(1),
            ..Review::default()
        }
    }

    /// Whether the card has been answered.
    pub fn answered(&self) -> bool {
        self.card.answered()
    }

    /// How the card is drawn (beside `card`): the check at its place in
    /// its lesson, its own keys offered and never the page's (r, a), and
    /// once answered everything shown.
    pub fn view(&self) -> CheckView {
        CheckView {
            index: self.check,
            count: 1,
            typing: self.typing,
            printed: true,
            reveal: self.answered(),
            ..CheckView::default()
        }
    }

    /// The id of the note the current card is, if it is a note's.
    pub fn note_card(&self) -> Option<&str> {
        let id = self.ids.get(self.pos)?.as_deref()?;
        crate::model::card::card_note(id)
    }

    pub fn current(&self) -> Option<(usize, usize)> {
        self.queue.get(self.pos).copied()
    }

    pub fn done(&self) -> bool {
        self.pos >= self.queue.len()
    }

    /// Whether the review has the screen (not paused to re-read).
    pub fn active(&self) -> bool {
        !self.rereading
    }

    /// Prepares the card for a freshly loaded lesson: the check it names
    /// (else the first), options shuffled.
    pub fn deal(&mut self, lesson: &Lesson) {
        let id = self.ids.get(self.pos).cloned().flatten();
        self.check = id
            .and_then(|id| lesson.checks.iter().position(|c| c.id == id))
            .unwrap_or(0);
        self.card = CheckState::default();
        self.typing = false;
        self.reminder = None;
        self.top = 0;
        self.rateable = false;
        self.note_answer = false;
        self.order = match lesson.checks.get(self.check) {
            _ if self.note_card().is_some() => Vec::new(),
            Some(c) if self.drill.is_some() => crate::model::drill::reshuffled(c, &mut self.seed),
            Some(c) => shuffle(c.options.len(), &mut self.seed, &c.order),
            None => Vec::new(),
        };
    }

    /// The check as it is shown in review: same options, shuffled.
    pub fn shown(&self, check: &Check) -> Check {
        let mut c = check.clone();
        if Check::is_permutation(&self.order, c.options.len()) {
            c.order = self.order.clone();
        }
        c
    }
}

/// The review's keys while it has the screen.
pub(super) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(r) = &s.review else { return false };
    if r.typing {
        typing(s, a, fx);
        return true;
    }
    if r.note_card().is_some() && note_card::update(s, a, fx) {
        return true;
    }
    let Some(r) = &mut s.review else { return false };
    match a {
        Action::Answer(pos) if r.rateable => keys::rate(s, *pos, fx),
        Action::Answer(pos) => answer(s, *pos, fx),
        Action::LineDown | Action::LineUp => {
            let n = r.order.len()
                + usize::from(matches!(
                    card_kind(s),
                    Some(CheckKind::Choice { multi: true })
                ));
            let Some(r) = &mut s.review else { return true };
            if n > 0 && !r.answered() {
                let down = *a == Action::LineDown;
                r.card.cursor = Some(match r.card.cursor {
                    None if down => 0,
                    None => n - 1,
                    Some(c) if down => (c + 1).min(n - 1),
                    Some(c) => c.saturating_sub(1),
                });
            }
        }
        Action::ReviewNext | Action::Open => next_card(s, fx),
        Action::Toggle => keys::toggle(s, fx),
        Action::TypeAnswer => keys::type_answer(s),
        Action::ReviewReread => keys::reread(s, fx),
        Action::PageDown | Action::PageUp | Action::Scroll(_) => {
            let page = s.geometry().page();
            let by = match a {
                Action::PageDown => page,
                Action::PageUp => -page,
                Action::Scroll(n) => *n as isize,
                _ => 0,
            };
            let max = s.review.as_ref().map_or(0, |r| card::max_top(s, r));
            if let Some(r) = &mut s.review {
                r.top = r.top.min(max).saturating_add_signed(by).min(max);
            }
        }
        Action::Back => keys::end(s, fx),
        Action::Drill(kind, scope) => drill::start(s, *kind, *scope, fx),
        _ => return false,
    }
    true
}

/// The kind of the card's check, once its lesson is loaded.
fn card_kind(s: &State) -> Option<CheckKind> {
    let k = s.review.as_ref()?.check;
    Some(s.reader.doc()?.lesson.checks.get(k)?.kind.clone())
}

/// Typing the card's answer: the reader's prompt keys.
fn typing(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    let Some(r) = &mut s.review else { return };
    let t = &mut r.card.typed;
    match a {
        a if super::line_edit::edit(t, a) => {}
        Action::Back => {
            t.clear();
            r.typing = false;
        }
        Action::Open if !t.trim().is_empty() => {
            r.typing = false;
            r.card.submitted = true;
            let answer = match r.card.compiles {
                Some(compiles) => Answer::Tracing {
                    compiles,
                    text: t.clone(),
                },
                None => Answer::Text(t.clone()),
            };
            scored(s, answer, fx);
        }
        _ => {}
    }
}

/// R: back to a review paused to re-read, or a new review.
pub(super) fn start(s: &mut State, fx: &mut Vec<Effect>) {
    match &mut s.review {
        Some(r) if r.rereading => {
            r.rereading = false;
            open_card(s, false, fx);
        }
        _ => fx.push(Effect::LoadDue {
            open: s.library.courses.clone(),
        }),
    }
}

/// The cards due arrived: the review begins with the first.
pub(super) fn ready(s: &mut State, due: DueCards, seed: u64, fx: &mut Vec<Effect>) {
    let courses = &s.library.courses;
    let cards: Vec<((usize, usize), Option<String>)> = due
        .cards
        .iter()
        .filter_map(|(c, l, k)| {
            let ci = courses.iter().position(|x| x.slug == *c)?;
            Some(((ci, courses[ci].index_of(l)?), k.clone()))
        })
        .collect();
    let (queue, ids): (Vec<_>, Vec<_>) = cards.into_iter().unzip();
    let mut review = Review::new(queue, seed);
    review.ids = ids;
    review.next = due.next;
    review.scheduled = due.scheduled;
    review.scheduled_by = due
        .scheduled_by
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .filter_map(|(slug, n)| {
            let c = courses.iter().find(|c| c.slug == slug)?;
            Some((c.title.clone(), n))
        })
        .collect();
    let place = (s.library.current, s.reader.lesson, s.reader.anchor());
    review.before = Some(s.review.take().and_then(|r| r.before).unwrap_or(place));
    s.review = Some(review);
    s.contents.focused = false;
    s.overlay = None;
    open_card(s, true, fx);
}

/// Opens the current card: its lesson, in its course (switching to that
/// course first when it is another). `deal`: open it even when it is the
/// lesson on screen, so that its options are shuffled for the card.
pub(super) fn open_card(s: &mut State, deal: bool, fx: &mut Vec<Effect>) {
    let Some((course, lesson)) = s.review.as_ref().and_then(Review::current) else {
        return;
    };
    if course != s.library.current {
        fx.push(crate::state::courses::switch_course(s, course));
    } else if deal || lesson != s.reader.lesson || s.reader.doc().is_none() {
        open(s, lesson, fx);
    }
}

/// The card's check, when the card on screen is the lesson loaded.
fn card_check(s: &State) -> Option<&Check> {
    let r = s.review.as_ref()?;
    if r.current() != Some((s.library.current, s.reader.lesson)) {
        return None;
    }
    s.reader.doc()?.lesson.checks.get(r.check)
}

/// Option `pos` (in the card's shuffled order): a single choice answers,
/// several answers tick it, a tracing card says whether it compiles.
fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some(check) = card_check(s).cloned() else {
        return;
    };
    let Some(r) = &mut s.review else { return };
    if r.answered() {
        return;
    }
    match check.kind {
        CheckKind::Tracing { .. } => {
            if pos < 2 {
                r.card.compiles = Some(pos == 0);
                r.typing = true;
            }
            return;
        }
        CheckKind::Short { .. } => {
            r.typing = true;
            return;
        }
        CheckKind::Choice { .. } => {}
    }
    if check.is_multi() && pos == r.order.len() {
        return next_card(s, fx);
    }
    let Some(&index) = r.order.get(pos) else {
        s.notice = Some(format!("There is no option {}.", pos + 1));
        return;
    };
    if check.is_multi() {
        match r.card.picked.iter().position(|&i| i == index) {
            Some(at) => {
                r.card.picked.remove(at);
            }
            None => r.card.picked.push(index),
        }
        return;
    }
    r.card.cursor = Some(pos);
    r.card.chosen = Some(index);
    let reminder = reminder(s, &check);
    if let Some(r) = &mut s.review {
        r.reminder = reminder;
    }
    scored(s, Answer::Choice(vec![index]), fx);
}

/// The card's answer given: counted and recorded as a review.
fn scored(s: &mut State, answer: Answer, fx: &mut Vec<Effect>) {
    let Some(check) = card_check(s) else { return };
    let Some(key) = s.shown_key() else { return };
    let correct = check.score_answer(&answer) == Verdict::Right;
    let id = check.id.clone();
    let Some(r) = &mut s.review else { return };
    if correct {
        r.right += 1;
    } else {
        r.wrong += 1;
    }
    let how = Answered {
        review: true,
        revealed: r.peeked == Some(r.pos),
        drill: r.drill.is_some(),
    };
    // A drill's answer is practice: no rating moves a card.
    r.rateable = correct && !how.revealed && !how.drill;
    drill::answered(r, correct);
    attempt::record(s, key, &id, &answer, correct, how, fx);
    // The verdict and why are below the options: shown.
    if let Some(r) = &s.review {
        let max = card::max_top(s, r);
        if let Some(r) = &mut s.review {
            r.top = max;
        }
    }
}

/// Enter: answer with what is selected (submit, start typing), or go on
/// to the next card once answered.
fn next_card(s: &mut State, fx: &mut Vec<Effect>) {
    let kind = card_kind(s);
    let Some(r) = &mut s.review else { return };
    if r.done() {
        return;
    }
    if !r.answered() && !r.order.is_empty() || !r.answered() && kind.is_some() {
        let n = r.order.len();
        match kind {
            // Enter on an option ticks it, as on the page; on Submit submits.
            Some(CheckKind::Choice { multi: true }) if r.card.cursor.is_some_and(|p| p < n) => {
                let pos = r.card.cursor.unwrap_or(0);
                return answer(s, pos, fx);
            }
            Some(CheckKind::Choice { multi: true }) if !r.card.picked.is_empty() => {
                r.card.submitted = true;
                let mut picked = r.card.picked.clone();
                picked.sort_unstable();
                return scored(s, Answer::Choice(picked), fx);
            }
            Some(CheckKind::Short { .. }) => r.typing = true,
            Some(CheckKind::Tracing { .. }) => match r.card.cursor {
                Some(pos) => return answer(s, pos, fx),
                None => s.notice = Some("Does it compile? 1 for yes, 2 for no.".into()),
            },
            Some(CheckKind::Choice { multi: false }) if r.card.cursor.is_some() => {
                let pos = r.card.cursor.unwrap_or(0);
                return answer(s, pos, fx);
            }
            Some(CheckKind::Choice { multi: true }) => {
                s.notice = Some("Tick every right answer (digits or j/k), then Enter.".into())
            }
            _ => s.notice = Some("Choose an option first: a digit, or j/k then Enter.".into()),
        }
        return;
    }
    r.pos += 1;
    open_card(s, true, fx);
}
