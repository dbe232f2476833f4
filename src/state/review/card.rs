//! The card as the review screen draws it (below its header, which stays
//! put), so that scrolling is clamped to what is drawn; and the shuffle
//! of its options.

use super::Review;
use crate::layout::{self, Line, Role, Style};
use crate::model::{Check, Verdict, runs_text};
use crate::state::State;

use crate::model::drill::next_random;

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

/// The card below its header: the check without its title, the reminder
/// of the tempting option chosen last time once answered, and a hint
/// after a wrong answer. Empty until the card's lesson is loaded.
pub fn card_body(s: &State, r: &Review, width: u16) -> Vec<Line> {
    if r.note_card().is_some() {
        return super::note_card::body(s, r, width);
    }
    let Some(d) = s.reader.doc() else {
        return Vec::new();
    };
    let Some(check) = d.lesson.checks.get(r.check) else {
        return Vec::new();
    };
    let shown = r.shown(check);
    // The card's own code is highlighted under its place in the lesson.
    let mut lines = layout::check_lines(&shown, width, &r.card, r.view(), &d.code).lines;
    lines.remove(0);
    if let Some(reminder) = r.reminder.as_ref().filter(|_| r.answered()) {
        lines.push(Line::default());
        let style = Style::new(Role::KeyIdea);
        let wrapped = layout::wrap::wrap(&[(reminder.as_str(), style)], usize::from(width.max(1)));
        lines.extend(wrapped.into_iter().map(|spans| Line { spans }));
    }
    if r.rateable {
        let ask = "How did it feel? 1 again · 2 hard (or a guess) · 3 good (Enter) · 4 easy";
        lines.push(Line::default());
        let style = Style::new(Role::Question);
        lines.extend(
            layout::wrap::wrap(&[(ask, style)], usize::from(width.max(1)))
                .into_iter()
                .map(|spans| Line { spans }),
        );
    }
    let wrong = r
        .card
        .answer(check)
        .is_some_and(|a| check.score_answer(&a) == Verdict::Wrong);
    if wrong {
        let hint = "o re-reads the lesson at this question (R brings you back) · Enter next card";
        lines.push(Line::default());
        let style = Style::new(Role::Dim);
        lines.extend(
            layout::wrap::wrap(&[(hint, style)], usize::from(width.max(1)))
                .into_iter()
                .map(|spans| Line { spans }),
        );
    }
    lines
}

/// Rows the card's header takes (title, source, a blank line).
pub const HEADER_ROWS: usize = 3;

/// The furthest the card scrolls: its last line at the screen's bottom.
pub(super) fn max_top(s: &State, r: &Review) -> usize {
    let g = s.geometry();
    let body = card_body(s, r, g.text_width).len();
    body.saturating_sub(g.rows().saturating_sub(HEADER_ROWS))
}

/// The explanation of the tempting option the learner chose the last
/// time they answered this check wrong, if that was its last answer:
/// brought back after the next answer.
pub(in crate::state) fn reminder(s: &State, check: &Check) -> Option<String> {
    let slug = &s.reader.doc()?.lesson.meta.slug;
    let p = s.library.progress.get(slug)?.checks.get(&check.id)?;
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

/// The footer's keys for the review card as it stands, where they differ
/// from the review's table: only keys that work are offered (a typed card
/// takes no digits; once answered, digits rate or do nothing).
pub fn card_hint(s: &State) -> Option<&'static str> {
    let r = s.review.as_ref().filter(|r| r.active() && !r.done())?;
    if r.note_card().is_some() {
        return Some(super::note_card::hint(r));
    }
    if r.rateable {
        return Some("1 again · 2 hard · 3 good (Enter) · 4 easy · o re-read");
    }
    if r.answered() {
        return Some("Enter next card · o re-read · Esc end the review");
    }
    if r.typing {
        return Some("Enter answer · Ctrl-U clear · Esc stop typing");
    }
    match super::card_check(s).map(|c| &c.kind) {
        Some(crate::model::CheckKind::Short { .. }) => {
            Some("i type the answer · o peek at the lesson · Esc end the review")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Check;

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
