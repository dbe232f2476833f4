//! Every check of a course with what the learner did with it, and the
//! quiz dashboard's figures made from them: each chapter with checks, its
//! first-try score, round, missed, stuck and due counts. `lectern stats
//! --json`, the drill and the dashboard all read these rows, and count
//! with the rules of [`super::drill`], so their figures agree.

use super::check::CheckProgress;
use super::course::Course;
use super::drill::{DrillKind, round, round_first};
use chrono::{DateTime, Utc};

/// One check of a course, in the course's order.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRow {
    pub lesson: String,
    pub check: String,
    pub kind: &'static str,
    /// None: never answered, nor shown.
    pub progress: Option<CheckProgress>,
    pub due: Option<DateTime<Utc>>,
}

/// A chapter (a lesson with checks) as the dashboard lists it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chapter {
    pub course: String,
    pub course_title: String,
    pub lesson: String,
    pub title: String,
    /// Where the chapter stands in its course's reading order.
    pub position: usize,
    pub checks: usize,
    /// Checks with a first try ever (right, wrong or revealed), and those
    /// right: the first-try score, which no round or drill moves.
    pub first_answered: usize,
    pub first_right: usize,
    /// The chapter's current round (the highest of its checks').
    pub round: u32,
    /// The current round's first tries: answered, and right.
    pub round_answered: usize,
    pub round_right: usize,
    pub missed: usize,
    pub last_wrong: usize,
    pub unanswered: usize,
    pub stuck: usize,
    /// Cards due by the end of the study day.
    pub due: usize,
}

impl Chapter {
    /// What a drill of `kind` would take of this chapter.
    pub fn count(&self, kind: DrillKind) -> usize {
        match kind {
            DrillKind::Missed => self.missed,
            DrillKind::LastWrong => self.last_wrong,
            DrillKind::Unanswered => self.unanswered,
            DrillKind::Stuck => self.stuck,
        }
    }

    /// The drill Enter starts on this chapter: what was missed, else what
    /// was wrong last, else what is not answered yet.
    pub fn drill_kind(&self) -> DrillKind {
        [DrillKind::Stuck, DrillKind::Missed, DrillKind::LastWrong]
            .into_iter()
            .find(|k| self.count(*k) > 0)
            .unwrap_or(DrillKind::Unanswered)
    }
}

/// The chapters of `course` with checks, in reading order, from its
/// check rows; a card counts as due when due by `due_by`.
pub fn chapters(
    course: &Course,
    rows: &[CheckRow],
    stuck_after: u32,
    due_by: DateTime<Utc>,
) -> Vec<Chapter> {
    let mut out: Vec<Chapter> = Vec::new();
    for row in rows {
        if out.last().is_none_or(|c| c.lesson != row.lesson) {
            let (position, title) = course
                .lessons
                .iter()
                .enumerate()
                .find(|(_, l)| l.slug == row.lesson)
                .map_or((usize::MAX, row.lesson.clone()), |(i, l)| {
                    (i, l.title.clone())
                });
            out.push(Chapter {
                course: course.slug.clone(),
                course_title: course.title.clone(),
                lesson: row.lesson.clone(),
                title,
                position,
                round: 1,
                ..Chapter::default()
            });
        }
        let Some(c) = out.last_mut() else { continue };
        add(c, row, stuck_after, due_by);
    }
    out
}

fn add(c: &mut Chapter, row: &CheckRow, stuck_after: u32, due_by: DateTime<Utc>) {
    let p = row.progress.as_ref();
    let takes = |k: DrillKind| usize::from(k.takes(p, stuck_after));
    c.checks += 1;
    if let Some(first) = p.and_then(|p| p.first_try_correct) {
        c.first_answered += 1;
        c.first_right += usize::from(first);
    }
    c.round = c.round.max(p.map_or(1, round));
    if let Some(first) = p.and_then(round_first) {
        c.round_answered += 1;
        c.round_right += usize::from(first);
    }
    c.missed += takes(DrillKind::Missed);
    c.last_wrong += takes(DrillKind::LastWrong);
    c.unanswered += takes(DrillKind::Unanswered);
    c.stuck += takes(DrillKind::Stuck);
    c.due += usize::from(row.due.is_some_and(|d| d <= due_by));
}

/// Weakest first: the lowest first-try score of the current round, then
/// the most stuck, then the most missed; chapters not answered yet (no
/// score to judge) last, each group in reading order.
pub fn weakest_first(chapters: &mut [Chapter]) {
    chapters.sort_by(weaker);
}

/// The order of [`weakest_first`]: `Less` when `a` is the weaker.
pub fn weaker(a: &Chapter, b: &Chapter) -> std::cmp::Ordering {
    let unscored = |c: &Chapter| c.round_answered == 0;
    unscored(a)
        .cmp(&unscored(b))
        // a.right / a.answered against b's, without dividing.
        .then_with(|| {
            (a.round_right * b.round_answered.max(1))
                .cmp(&(b.round_right * a.round_answered.max(1)))
        })
        .then_with(|| b.stuck.cmp(&a.stuck))
        .then_with(|| b.missed.cmp(&a.missed))
        .then_with(|| (&a.course, a.position).cmp(&(&b.course, b.position)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + h * 3600, 0).unwrap()
    }

    fn progress(first: bool, latest: bool, misses: u32) -> CheckProgress {
        CheckProgress {
            attempts: 1 + misses,
            first_try_correct: Some(first),
            latest_correct: Some(latest),
            misses,
            round: 1,
            round_attempts: 1 + misses,
            ..CheckProgress::default()
        }
    }

    fn row(lesson: &str, check: &str, p: Option<CheckProgress>, due: Option<i64>) -> CheckRow {
        CheckRow {
            lesson: lesson.into(),
            check: check.into(),
            kind: "choice",
            progress: p,
            due: due.map(at),
        }
    }

    fn course() -> Course {
        let mut c = Course {
            slug: "c".into(),
            title: "C".into(),
            ..Course::default()
        };
        for (slug, title) in [("a", "Alpha"), ("b", "Beta"), ("z", "Zeta")] {
            c.lessons.push(crate::model::LessonEntry {
                origin: crate::model::Origin::Builtin("x"),
                slug: slug.into(),
                title: title.into(),
                position: None,
                minutes: None,
                module: None,
                status: crate::model::LessonStatus::Ok,
            });
        }
        c
    }

    #[test]
    fn a_chapter_counts_its_checks_by_the_drills_rules() {
        let rows = [
            row("a", "1", Some(progress(false, true, 1)), Some(0)),
            row("a", "2", Some(progress(true, false, 4)), Some(48)),
            row("a", "3", None, None),
            row("b", "1", Some(progress(false, false, 5)), None),
        ];
        let ch = chapters(&course(), &rows, 4, at(1));
        assert_eq!(ch.len(), 2);
        let a = &ch[0];
        assert_eq!((a.title.as_str(), a.position, a.checks), ("Alpha", 0, 3));
        assert_eq!((a.first_answered, a.first_right), (2, 1));
        assert_eq!((a.round, a.round_answered, a.round_right), (1, 2, 1));
        assert_eq!(
            (a.missed, a.last_wrong, a.unanswered, a.stuck),
            (1, 1, 1, 1)
        );
        assert_eq!(a.due, 1, "one due by now, one in two days");
        assert_eq!(a.drill_kind(), DrillKind::Stuck);
        let b = &ch[1];
        assert_eq!(
            (b.missed, b.stuck, b.drill_kind()),
            (1, 1, DrillKind::Stuck)
        );
    }

    #[test]
    fn a_new_round_is_scored_apart_from_the_first() {
        let mut p = progress(false, true, 1);
        p.round = 2;
        p.round_attempts = 1;
        p.round_first = Some(true);
        let ch = chapters(&course(), &[row("a", "1", Some(p), None)], 4, at(0));
        assert_eq!((ch[0].first_answered, ch[0].first_right), (1, 0));
        assert_eq!(
            (ch[0].round, ch[0].round_answered, ch[0].round_right),
            (2, 1, 1)
        );
        assert_eq!(ch[0].missed, 0, "right on the new round's first try");
    }

    #[test]
    fn weakest_first_puts_the_lowest_score_first_and_the_unanswered_last() {
        let rows = [
            row("a", "1", Some(progress(true, true, 0)), None),
            row("b", "1", Some(progress(false, false, 1)), None),
            row("b", "2", Some(progress(true, true, 0)), None),
            row("z", "1", None, None),
        ];
        let mut ch = chapters(&course(), &rows, 4, at(0));
        weakest_first(&mut ch);
        let order: Vec<&str> = ch.iter().map(|c| c.lesson.as_str()).collect();
        assert_eq!(order, ["b", "a", "z"]);
        assert_eq!(ch[2].drill_kind(), DrillKind::Unanswered);
    }
}
