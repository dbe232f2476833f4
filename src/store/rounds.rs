//! Rounds and drills in the store: the schema step that keeps them, the
//! write of a reset, and each check's progress read round by round.
//!
//! A reset deletes nothing: it notes when a new round of a lesson's
//! checks began (`round_start`), and a check's round is 1 plus the resets
//! of its lesson. Its first try ever (the score) is read from all its
//! attempts as before; the current round's first try, its attempts and
//! its last answer only from those made since the latest reset. Each row
//! carries its time, never a row id, so that changes merged from another
//! machine order the same way: an attempt's place in time is its device's
//! clock never running back (`ord_ms`, see [`super::sync`]), then its
//! device and its place in that device's log.
//!
//! An answer stands as a first try when it came no later than the first
//! reveal of its check: within one machine, an answer given after a
//! reveal says so itself (its `revealed` flag), so the times decide only
//! between machines, and an answer in the same millisecond as a reveal
//! on another one is given the benefit of the doubt.

use rusqlite::{Connection, params};

use super::schema::has_column;
use crate::model::{CheckProgress, NO_OPTION};

/// Version 8: whether an attempt was given in a drill (practice of what
/// was missed), and when each new round of a lesson's checks began.
pub(super) fn v8_drills_and_rounds(conn: &Connection) -> rusqlite::Result<()> {
    if !has_column(conn, "attempt", "drill")? {
        conn.execute_batch("ALTER TABLE attempt ADD COLUMN drill INTEGER NOT NULL DEFAULT 0;")?;
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS round_start (
             course TEXT    NOT NULL,
             lesson TEXT    NOT NULL,
             at_ms  INTEGER NOT NULL,
             PRIMARY KEY (course, lesson, at_ms)
         ) WITHOUT ROWID;",
    )
}

/// A new round of `lessons` of `course` from `at_ms`; the same reset
/// replayed (a journal, a merge) is kept once.
pub(super) fn reset(
    conn: &Connection,
    course: &str,
    lessons: &[String],
    at_ms: i64,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT OR IGNORE INTO round_start (course, lesson, at_ms) VALUES (?1, ?2, ?3)",
    )?;
    for lesson in lessons {
        stmt.execute(params![course, lesson, at_ms])?;
    }
    Ok(())
}

/// Each check of `course` (or of just `lesson`) with a trace: its
/// attempts, first try ever, and the current round's figures.
const CHECK_PROGRESS: &str = "
WITH
  since AS (
    SELECT lesson, count(*) AS resets, max(at_ms) AS at_ms FROM round_start
    WHERE course = ?1 AND (?2 IS NULL OR lesson = ?2) GROUP BY lesson
  ),
  tried AS (
    SELECT t.id, t.device, t.seq, t.lesson, t.check_id, t.option, t.answer, t.correct,
           t.revealed, t.review, coalesce(t.ord_ms, t.at_ms) AS at_ms,
           (s.at_ms IS NULL OR coalesce(t.ord_ms, t.at_ms) >= s.at_ms) AS in_round
    FROM attempt t LEFT JOIN since s ON s.lesson = t.lesson
    WHERE t.course = ?1 AND (?2 IS NULL OR t.lesson = ?2)
  ),
  ranked AS (
    SELECT *,
      row_number() OVER (PARTITION BY lesson, check_id ORDER BY at_ms, device, seq, id) AS first,
      row_number() OVER (PARTITION BY lesson, check_id
                         ORDER BY at_ms DESC, device DESC, seq DESC, id DESC) AS last,
      row_number() OVER (PARTITION BY lesson, check_id, in_round, review
                         ORDER BY at_ms, device, seq, id) AS in_order,
      count(*) OVER (PARTITION BY lesson, check_id) AS n,
      sum(in_round) OVER (PARTITION BY lesson, check_id) AS n_round,
      sum(NOT correct) OVER (PARTITION BY lesson, check_id) AS misses
    FROM tried
  )
SELECT f.lesson, f.check_id, f.n,
       f.correct AND NOT f.revealed AND (v.at_ms IS NULL OR f.at_ms <= v.at_ms),
       iif(l.in_round, l.option, NULL), iif(l.in_round, l.answer, NULL),
       iif(l.in_round, l.correct, NULL),
       v.at_ms IS NOT NULL AND (s.at_ms IS NULL OR v.at_ms >= s.at_ms),
       1 + coalesce(s.resets, 0), f.n_round,
       (SELECT r.correct AND NOT r.revealed
               AND (v.at_ms IS NULL OR r.at_ms <= v.at_ms
                    OR (s.at_ms IS NOT NULL AND v.at_ms < s.at_ms))
        FROM ranked r
        WHERE r.lesson = f.lesson AND r.check_id = f.check_id AND r.in_round
          AND NOT r.review AND r.in_order = 1),
       f.misses, l.correct,
       f.revealed OR (v.at_ms IS NOT NULL AND f.at_ms > v.at_ms)
FROM ranked f
JOIN ranked l ON l.lesson = f.lesson AND l.check_id = f.check_id AND l.last = 1
LEFT JOIN reveal v ON v.course = ?1 AND v.lesson = f.lesson AND v.check_id = f.check_id
LEFT JOIN since s ON s.lesson = f.lesson
WHERE f.first = 1
UNION ALL
-- Shown and never answered: only the reveal to remember.
SELECT v.lesson, v.check_id, 0, NULL, NULL, NULL, NULL,
       s.at_ms IS NULL OR v.at_ms >= s.at_ms, 1 + coalesce(s.resets, 0), 0, NULL, 0, NULL, 0
FROM reveal v LEFT JOIN since s ON s.lesson = v.lesson
WHERE v.course = ?1 AND (?2 IS NULL OR v.lesson = ?2)
  AND NOT EXISTS (SELECT 1 FROM attempt a WHERE a.course = ?1
                  AND a.lesson = v.lesson AND a.check_id = v.check_id)";

/// Each answered (or shown) check of `course`, or of just `lesson`.
pub(super) fn check_progress(
    conn: &Connection,
    course: &str,
    lesson: Option<&str>,
) -> rusqlite::Result<Vec<(String, String, CheckProgress)>> {
    let mut stmt = conn.prepare_cached(CHECK_PROGRESS)?;
    let rows = stmt.query_map(params![course, lesson], |row| {
        let option: Option<u32> = row.get(4)?;
        Ok((
            row.get(0)?,
            row.get(1)?,
            CheckProgress {
                attempts: row.get(2)?,
                first_try_correct: row.get(3)?,
                last_choice: option.filter(|&o| o != NO_OPTION),
                last_text: row.get(5)?,
                last_correct: row.get(6)?,
                revealed: row.get(7)?,
                round: row.get(8)?,
                round_attempts: row.get::<_, Option<u32>>(9)?.unwrap_or(0),
                round_first: row.get(10)?,
                misses: row.get::<_, Option<u32>>(11)?.unwrap_or(0),
                latest_correct: row.get(12)?,
                first_seen: row.get::<_, Option<bool>>(13)?.unwrap_or(false),
            },
        ))
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use crate::model::{Change, LessonKey};
    use crate::store::Store;
    use chrono::{DateTime, Duration, TimeZone, Utc};

    fn t(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    fn answer(check: &str, correct: bool, drill: bool, at: i64) -> Change {
        Change::Attempt {
            key: LessonKey::new("c", "l"),
            check: check.into(),
            option: u32::from(!correct),
            answer: None,
            correct,
            review: false,
            revealed: false,
            drill,
            at: Some(t(at)),
        }
    }

    fn reset(at: i64) -> Change {
        Change::Reset {
            course: "c".into(),
            lessons: vec!["l".into()],
            at: Some(t(at)),
        }
    }

    fn attempts_kept(store: &Store) -> usize {
        store.attempts("c", "l").len()
    }

    #[test]
    fn a_reset_deletes_nothing_keeps_the_first_try_and_counts_each_round() {
        let mut store = Store::in_memory();
        for change in [
            answer("a", false, false, 0),
            answer("b", true, false, 1),
            answer("a", true, true, 2),
        ] {
            store.apply(&change);
        }
        let p = store.progress("c", "l");
        let a = &p.checks["a"];
        assert_eq!(
            (a.first_try_correct, a.round, a.round_attempts),
            (Some(false), 1, 2)
        );
        assert_eq!((a.misses, a.latest_correct), (1, Some(true)));

        store.apply(&reset(10));
        assert_eq!(attempts_kept(&store), 3, "nothing deleted");
        let p = store.progress("c", "l");
        for id in ["a", "b"] {
            let c = &p.checks[id];
            assert_eq!(
                (c.round, c.round_attempts, c.round_first),
                (2, 0, None),
                "{id}"
            );
            assert_eq!(
                (c.last_choice, c.last_correct),
                (None, None),
                "shown unanswered"
            );
        }
        assert_eq!(
            p.checks["a"].first_try_correct,
            Some(false),
            "first round kept"
        );
        assert_eq!(p.checks["b"].first_try_correct, Some(true));
        assert_eq!(p.answered(["a", "b"]), 0);

        store.apply(&answer("a", true, false, 11));
        store.apply(&answer("a", false, false, 12));
        let p = store.progress("c", "l");
        let a = &p.checks["a"];
        assert_eq!(
            (a.round_first, a.round_attempts, a.attempts),
            (Some(true), 2, 4)
        );
        assert_eq!(a.first_try_correct, Some(false), "the score never moves");
        assert_eq!((a.misses, a.last_correct), (2, Some(false)));
        // The same reset replayed (a journal, a merge) is one round.
        store.apply(&reset(10));
        assert_eq!(store.progress("c", "l").checks["a"].round, 2);
    }

    #[test]
    fn a_drill_answer_is_its_own_attempt_and_never_a_first_try() {
        let mut store = Store::in_memory();
        store.apply(&answer("a", false, false, 0));
        store.apply(&answer("a", true, true, 1));
        let kept: i64 = store.read(|conn| {
            conn.query_row("SELECT count(*) FROM attempt WHERE drill", [], |r| r.get(0))
        });
        assert_eq!(kept, 1);
        let a = &store.progress("c", "l").checks["a"];
        assert_eq!(
            (a.first_try_correct, a.round_first),
            (Some(false), Some(false))
        );
    }

    #[test]
    fn right_drill_answers_clear_a_misconception() {
        let mut store = Store::in_memory();
        store.apply(&answer("a", false, false, 0));
        store.apply(&answer("a", false, true, 1));
        assert_eq!(store.misconceptions(Some("c"), 2).len(), 1);
        store.apply(&answer("a", true, true, 2));
        store.apply(&answer("a", true, true, 3));
        assert!(store.misconceptions(Some("c"), 2).is_empty());
    }

    #[test]
    fn a_reveal_before_the_round_leaves_its_first_try_to_score() {
        let mut store = Store::in_memory();
        store.apply(&Change::Reveal {
            key: LessonKey::new("c", "l"),
            check: "a".into(),
            at: Some(t(0)),
        });
        store.apply(&answer("a", true, false, 1));
        store.apply(&reset(5));
        store.apply(&answer("a", true, false, 6));
        let a = &store.progress("c", "l").checks["a"];
        assert_eq!((a.first_try_correct, a.first_seen), (Some(false), true));
        assert_eq!((a.round_first, a.revealed), (Some(true), false));
    }
}
