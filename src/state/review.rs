//! A spaced-review session inside the reader: due check questions one at
//! a time, options shuffled so their position cannot be memorised.

use super::open::open;
use super::{Action, Effect, State};
use crate::model::{Check, Verdict};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    /// Lesson indices (course order) due for review, in the order asked.
    pub queue: Vec<usize>,
    pub pos: usize,
    /// Display order of the current card's options (file indices).
    pub order: Vec<usize>,
    pub chosen: Option<usize>,
    pub cursor: usize,
    pub right: usize,
    pub wrong: usize,
    /// Paused to re-read the current card's lesson.
    pub rereading: bool,
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
    pub fn new(queue: Vec<usize>, seed: u64) -> Review {
        Review {
            queue,
            seed: seed.max(1),
            ..Review::default()
        }
    }

    pub fn current(&self) -> Option<usize> {
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
        self.cursor = 0;
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
            if n > 0 {
                r.cursor = if *a == Action::LineDown {
                    (r.cursor + 1).min(n - 1)
                } else {
                    r.cursor.saturating_sub(1)
                };
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
            if let Some(card) = r.current().filter(|&c| c != s.reader.lesson) {
                open(s, card, fx);
            }
        }
        _ => fx.push(Effect::LoadDue),
    }
}

/// The cards due arrived: the review begins with the first.
pub(super) fn ready(s: &mut State, slugs: &[String], seed: u64, fx: &mut Vec<Effect>) {
    let course = s.course();
    let queue: Vec<usize> = slugs.iter().filter_map(|l| course.index_of(l)).collect();
    let review = Review::new(queue, seed);
    let first = review.current();
    s.review = Some(review);
    s.contents.focused = false;
    s.overlay = None;
    if let Some(first) = first {
        open(s, first, fx);
    }
}

fn answer(s: &mut State, pos: usize, fx: &mut Vec<Effect>) {
    let Some(check) = s.reader.doc.as_ref().and_then(|d| d.lesson.check.as_ref()) else {
        return;
    };
    let Some(key) = s.lesson_key() else { return };
    let lesson_now = s.reader.lesson;
    let Some(r) = &mut s.review else { return };
    if r.chosen.is_some() || r.current() != Some(lesson_now) {
        return;
    }
    let Some(&index) = r.order.get(pos) else {
        s.notice = Some(format!("There is no option {}.", pos + 1));
        return;
    };
    let correct = check.score(index) == Verdict::Right;
    r.chosen = Some(index);
    r.cursor = pos;
    if correct {
        r.right += 1;
    } else {
        r.wrong += 1;
    }
    super::check::record(s, key, index, correct, true, fx);
}

fn next_card(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(r) = &mut s.review else { return };
    if r.done() {
        return;
    }
    if r.chosen.is_none() && !r.order.is_empty() {
        let pos = r.cursor;
        answer(s, pos, fx);
        return;
    }
    r.pos += 1;
    if let Some(next) = r.current() {
        open(s, next, fx);
    }
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
