//! Recording answers: the JSON lesson's one check (by option, as before
//! lessons had several), and any check of a lesson by its id.

use chrono::{DateTime, Utc};

use super::Store;
use super::write::Op;

/// One answer to one check, as [`Store::record_check`] keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckAnswer<'a> {
    pub course: &'a str,
    pub lesson: &'a str,
    pub check: &'a str,
    /// The option chosen, or [`crate::model::NO_OPTION`].
    pub option: u32,
    pub answer: Option<&'a str>,
    pub correct: bool,
    pub review: bool,
    /// After the answer was revealed: practice, never a first try.
    pub revealed: bool,
}

impl Store {
    /// Records an answer. The lesson's first answer creates its review card;
    /// a review answer moves the card (right = FSRS Good, wrong = Again);
    /// answering again inside the lesson leaves the card alone.
    pub fn record_attempt(
        &mut self,
        course: &str,
        lesson: &str,
        option: u32,
        correct: bool,
        review: bool,
        now: DateTime<Utc>,
    ) {
        self.record_check(
            &CheckAnswer {
                course,
                lesson,
                check: "",
                option,
                answer: None,
                correct,
                review,
                revealed: false,
            },
            now,
        );
    }

    /// Records an answer to one of a lesson's checks: each check has its
    /// own attempts and its own review card.
    pub fn record_check(&mut self, a: &CheckAnswer<'_>, now: DateTime<Utc>) {
        self.write(Op::Attempt {
            course: a.course.to_owned(),
            lesson: a.lesson.to_owned(),
            check: a.check.to_owned(),
            option: a.option,
            answer: a.answer.map(str::to_owned),
            correct: a.correct,
            review: a.review,
            revealed: a.revealed,
            at: now,
        });
    }
}

impl Store {
    /// Keeps that check `check`'s answer was shown (a reveal, or a peek
    /// at its lesson from a review card): its later answers, in this
    /// session or another, are practice.
    pub fn record_reveal(&mut self, course: &str, lesson: &str, check: &str, now: DateTime<Utc>) {
        self.write(Op::Reveal {
            course: course.to_owned(),
            lesson: lesson.to_owned(),
            check: check.to_owned(),
            at: now,
        });
    }

    /// The learner's own random seed, made once with the store: what the
    /// options of every check are shuffled by. 0 when the store is gone.
    pub fn seed(&self) -> u64 {
        self.read(|conn| {
            conn.query_row("SELECT seed FROM learner WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(i64::unsigned_abs)
        })
    }
}

impl Store {
    /// How the last review answer to check `check` felt, 1 (again) to 4
    /// (easy): its card is scheduled again as FSRS would have with it.
    pub fn rate_review(&mut self, course: &str, lesson: &str, check: &str, rating: u8) {
        self.write(Op::Rate {
            course: course.to_owned(),
            lesson: lesson.to_owned(),
            check: check.to_owned(),
            rating,
        });
    }
}
