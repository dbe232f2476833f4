//! A spaced-review session inside the reader: due check questions one at
//! a time, options shuffled so their position cannot be memorised.

use super::check::Answered;
use super::open::open;
use super::{Action, Effect, State};
use crate::model::{Check, DueCards, Verdict, runs_text};
use chrono::{DateTime, Utc};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    /// `(course, lesson)` indices of the cards due, in the order asked:
    /// a review spans every course of the library.
    pub queue: Vec<(usize, usize)>,
    pub pos: usize,
    /// Display order of the current card's options (file indices).
    pub order: Vec<usize>,
    pub chosen: Option<usize>,
    /// The option under the keyboard cursor; none until an arrow moves it,
    /// so Enter on a fresh card answers nothing.
    pub cursor: Option<usize>,
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
    seed: u64,
}

/// xorshift64*: enough to shuffle four options; not for anything secret.
fn next_random(seed: &mut u64) -> u64 {
    let mut x = *seed | 1;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *seed = x;
    x.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// A permutation of `0..n` that differs from `avoid` when it can, so the
/// layout the reader learned while reading is not the one shown.
pub fn shuffle(n: usize, seed: &mut u64, avoid: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for _ in 0..4 {
        for i in (1..n).rev() {
            let j = (next_random(seed) % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
        if n < 2 || v != avoid {
            break;
        }
    }
    v
}

impl Review {
    pub fn new(queue: Vec<(usize, usize)>, seed: u64) -> Review {
        Review {
            queue,
            seed: seed.max(1),
            ..Review::default()
        }
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

    /// Prepares the card for a freshly loaded lesson's check.
    pub fn deal(&mut self, check: Option<&Check>) {
        self.chosen = None;
        self.cursor = None;
        self.reminder = None;
        self.order = match check {
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
    let Some(r) = &mut s.review else { return false };
    match a {
        Action::Answer(pos) => answer(s, *pos, fx),
        Action::LineDown | Action::LineUp => {
            let n = r.order.len();
            if n > 0 && r.chosen.is_none() {
                let down = *a == Action::LineDown;
                r.cursor = Some(match r.cursor {
                    None if down => 0,
                    None => n - 1,
                    Some(c) if down => (c + 1).min(n - 1),
                    Some(c) => c.saturating_sub(1),
                });
            }
        }
        Action::ReviewNext | Action::Open => next_card(s, fx),
        Action::ReviewReread => {
            if r.current().is_some() {
                r.rereading = true;
                s.reader.top = 0;
                s.notice = Some("Re-reading the lesson: press R to return to your review.".into());
            }
        }
        Action::Back => {
            s.review = None;
            s.notice = Some("Review ended.".into());
        }
        _ => return false,
    }
    true
}

/// R: back to a review paused to re-read, or a new review.
pub(super) fn start(s: &mut State, fx: &mut Vec<Effect>) {
    match &mut s.review {
        Some(r) if r.rereading => {
            r.rereading = false;
            open_card(s, false, fx);
        }
        _ => fx.push(Effect::LoadDue),
    }
}

/// The cards due arrived: the review begins with the first.
pub(super) fn ready(s: &mut State, due: DueCards, seed: u64, fx: &mut Vec<Effect>) {
    let courses = &s.library.courses;
    let queue: Vec<(usize, usize)> = due
        .cards
        .iter()
        .filter_map(|(c, l)| {
            let ci = courses.iter().position(|x| x.slug == *c)?;
            Some((ci, courses[ci].index_of(l)?))
        })
        .collect();
    let mut review = Review::new(queue, seed);
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
    s.review = Some(review);
    s.contents.focused = false;
    s.overlay = None;
    open_card(s, true, fx);
}

/// Opens the current card: its lesson, in its course (switching to that
/// course first when it is another). `deal`: open it even when it is the
/// lesson on screen, so that its options are shuffled for the card.
fn open_card(s: &mut State, deal: bool, fx: &mut Vec<Effect>) {
    let Some((course, lesson)) = s.review.as_ref().and_then(Review::current) else {
        return;
    };
    if course != s.library.current {
        fx.push(Effect::SwitchCourse(course));
    } else if deal || lesson != s.reader.lesson || s.reader.doc.is_none() {
        open(s, lesson, fx);
    }
}

/// The explanation of the tempting option the learner chose the last
/// time they answered this lesson's check wrong, if that was its last
/// answer: brought back after the next answer.
pub(super) fn reminder(s: &State, check: &Check) -> Option<String> {
    let slug = &s.reader.doc.as_ref()?.lesson.meta.slug;
    let p = s.library.progress.get(slug)?;
    if p.last_correct != Some(false) {
        return None;
    }
    let option = check.options.get(p.last_choice? as usize)?;
    let why = option.tempting.as_ref()?;
    Some(format!(
        "Last time you chose “{}”: {}",
        runs_text(&option.text),
        runs_text(why)
    ))
}

fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some(check) = s.reader.doc.as_ref().and_then(|d| d.lesson.check()) else {
        return;
    };
    let Some(key) = s.lesson_key() else { return };
    let now = (s.library.current, s.reader.lesson);
    let reminder = reminder(s, check);
    let Some(r) = &mut s.review else { return };
    if r.chosen.is_some() || r.current() != Some(now) {
        return;
    }
    let Some(&index) = r.order.get(pos) else {
        s.notice = Some(format!("There is no option {}.", pos + 1));
        return;
    };
    let correct = check.score(index) == Verdict::Right;
    r.chosen = Some(index);
    r.cursor = Some(pos);
    r.reminder = reminder;
    if correct {
        r.right += 1;
    } else {
        r.wrong += 1;
    }
    let how = Answered {
        review: true,
        revealed: false,
    };
    super::check::record(s, key, index, correct, how, fx);
}

fn next_card(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(r) = &mut s.review else { return };
    if r.done() {
        return;
    }
    if r.chosen.is_none() && !r.order.is_empty() {
        match r.cursor {
            Some(pos) => answer(s, pos, fx),
            None => s.notice = Some("Choose an option first: a digit, or j/k then Enter.".into()),
        }
        return;
    }
    r.pos += 1;
    open_card(s, true, fx);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_are_permutations_and_avoid_the_reading_order() {
        let mut seed = 42;
        for n in 0..8 {
            let identity: Vec<usize> = (0..n).collect();
            let v = shuffle(n, &mut seed, &identity);
            assert!(Check::is_permutation(&v, n));
            if n >= 3 {
                assert_ne!(v, identity);
            }
        }
    }
}
