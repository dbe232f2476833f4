//! What the learner has done with one check question: kept by the reader
//! (and a review card) while the lesson is open, drawn by the layout from
//! a borrow, rebuilt from the store's progress when the lesson opens.

use super::{Answer, Check, CheckKind, CheckProgress, LessonProgress};

/// What the reader has done with one of the open lesson's checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckState {
    /// File-order index of the option chosen last (a single choice).
    pub chosen: Option<usize>,
    /// Show the right answer and every option's explanation.
    pub revealed: bool,
    /// Display position under the keyboard cursor (for several answers,
    /// one past the last option is the Submit line).
    pub cursor: Option<usize>,
    pub attempts: u32,
    pub first_try: Option<bool>,
    /// The answer was shown since the lesson opened (a retry does not
    /// hide that): answers from then on are practice, never a right
    /// first try.
    pub seen_answer: bool,
    /// Several answers: the options ticked (file order).
    pub picked: Vec<usize>,
    /// Several answers or a typed one: submitted (and scored).
    pub submitted: bool,
    /// A typed answer, as submitted or being typed.
    pub typed: String,
    /// A tracing question: whether the reader said it compiles.
    pub compiles: Option<bool>,
}

impl CheckState {
    /// As the store left it: the last answer shown, nothing selected.
    pub fn resumed(check: &Check, p: Option<&CheckProgress>) -> CheckState {
        let Some(p) = p else {
            return CheckState::default();
        };
        let mut s = CheckState {
            attempts: super::drill::round_attempts(p),
            first_try: super::drill::round_first(p),
            seen_answer: p.revealed,
            ..CheckState::default()
        };
        match Answer::from_stored(&check.kind, p.last_choice, p.last_text.as_deref()) {
            Some(Answer::Choice(v)) if !check.is_multi() => s.chosen = v.first().copied(),
            Some(Answer::Choice(v)) => {
                s.picked = v;
                s.submitted = true;
            }
            Some(Answer::Text(t)) => {
                s.typed = t;
                s.submitted = true;
            }
            Some(Answer::Tracing { compiles, text }) => {
                s.compiles = Some(compiles);
                s.typed = text;
                s.submitted = true;
            }
            None => {}
        }
        s
    }

    /// Every check of a lesson as the store left it, in the lesson's order.
    pub fn all_resumed(checks: &[Check], p: &LessonProgress) -> Vec<CheckState> {
        // Progress told lesson by lesson (from before checks had ids) is
        // the one check's with the empty id.
        let unanswered = p.checks.values().all(|c| c.attempts == 0);
        let lesson_wide = (unanswered && p.attempts > 0).then_some(CheckProgress {
            attempts: p.attempts,
            first_try_correct: p.first_try_correct,
            last_choice: p.last_choice,
            last_text: None,
            last_correct: p.last_correct,
            ..CheckProgress::default()
        });
        checks
            .iter()
            .map(|c| {
                let own = p.checks.get(&c.id);
                let wide = lesson_wide.as_ref().filter(|_| c.id.is_empty());
                let mut state = CheckState::resumed(c, wide.or(own));
                // A reveal kept for the check holds whichever answers it has.
                state.seen_answer |= own.is_some_and(|o| o.revealed);
                state
            })
            .collect()
    }

    /// Whether an answer is shown (given, and not retried since).
    pub fn answered(&self) -> bool {
        self.chosen.is_some() || self.submitted
    }

    /// The answer shown to `check`, if one was given.
    pub fn answer(&self, check: &Check) -> Option<Answer> {
        match &check.kind {
            CheckKind::Choice { multi: false } => self.chosen.map(|c| Answer::Choice(vec![c])),
            CheckKind::Choice { multi: true } => {
                self.submitted.then(|| Answer::Choice(self.picked.clone()))
            }
            CheckKind::Short { .. } => self.submitted.then(|| Answer::Text(self.typed.clone())),
            CheckKind::Tracing { .. } => self.submitted.then(|| Answer::Tracing {
                compiles: self.compiles.unwrap_or(true),
                text: self.typed.clone(),
            }),
        }
    }
}
