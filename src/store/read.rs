//! The store's queries. Each returns SQLite's error as is; the caller turns
//! a failure into empty progress and a warning.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::time::{from_ms, to_ms};
use super::{Anchor, Attempt, LessonProgress, LibraryCourse, Misconception};
use crate::model::{Days, NO_OPTION};
use std::path::PathBuf;

pub(crate) fn last_lesson(conn: &Connection, course: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT last_lesson FROM course_state WHERE course = ?1",
        [course],
        |row| row.get(0),
    )
    .optional()
    .map(Option::flatten)
}

/// The saved place in one lesson: a query far cheaper to prepare than
/// [`progress`], for the first frame.
pub(crate) fn position(
    conn: &Connection,
    course: &str,
    lesson: &str,
) -> rusqlite::Result<Option<Anchor>> {
    conn.query_row(
        "SELECT anchor_block, anchor_line FROM lesson_progress
         WHERE course = ?1 AND lesson = ?2 AND anchor_block IS NOT NULL",
        [course, lesson],
        |row| {
            Ok(Anchor {
                block: row.get(0)?,
                line: row.get::<_, Option<u32>>(1)?.unwrap_or(0),
            })
        },
    )
    .optional()
}

pub(crate) fn attempts(
    conn: &Connection,
    course: &str,
    lesson: &str,
) -> rusqlite::Result<Vec<Attempt>> {
    let mut stmt = conn.prepare_cached(
        "SELECT at_ms, option, correct, review, check_id, answer FROM attempt
         WHERE course = ?1 AND lesson = ?2 ORDER BY coalesce(ord_ms, at_ms), device, seq, id",
    )?;
    let rows = stmt.query_map(params![course, lesson], |row| {
        Ok(Attempt {
            at: from_ms(row.get(0)?),
            option: row.get(1)?,
            correct: row.get(2)?,
            review: row.get(3)?,
            check: row.get(4)?,
            answer: row.get(5)?,
        })
    })?;
    rows.collect()
}

/// Progress of every lesson of `course` that has any trace in the store,
/// or of just `lesson` when given: one query either way, so a course's
/// table of contents costs one round trip however long the course is.
pub(crate) fn progress(
    conn: &Connection,
    course: &str,
    lesson: Option<&str>,
) -> rusqlite::Result<HashMap<String, LessonProgress>> {
    let mut stmt = conn.prepare_cached(
        "WITH
           keys AS (
             SELECT lesson FROM lesson_progress WHERE course = ?1
             UNION SELECT lesson FROM attempt WHERE course = ?1
             UNION SELECT lesson FROM review WHERE course = ?1
           ),
           wanted AS (SELECT lesson FROM keys WHERE ?2 IS NULL OR lesson = ?2),
           ranked AS (
             SELECT lesson, option, correct, revealed,
                    row_number() OVER (PARTITION BY lesson ORDER BY coalesce(ord_ms, at_ms),
                                       device, seq, id) AS first,
                    row_number() OVER (PARTITION BY lesson ORDER BY coalesce(ord_ms, at_ms) DESC,
                                       device DESC, seq DESC, id DESC) AS last,
                    count(*) OVER (PARTITION BY lesson) AS n
             FROM attempt WHERE course = ?1 AND (?2 IS NULL OR lesson = ?2)
           )
         SELECT k.lesson, p.read, p.completed, p.anchor_block, p.anchor_line,
                f.n, f.correct AND NOT f.revealed, l.option, l.correct, r.due_ms, p.checks
         FROM wanted k
         LEFT JOIN lesson_progress p ON p.course = ?1 AND p.lesson = k.lesson
         LEFT JOIN ranked f ON f.lesson = k.lesson AND f.first = 1
         LEFT JOIN ranked l ON l.lesson = k.lesson AND l.last = 1
         LEFT JOIN (SELECT lesson, min(due_ms) AS due_ms FROM review
                    WHERE course = ?1 GROUP BY lesson) r ON r.lesson = k.lesson",
    )?;
    let rows = stmt.query_map(params![course, lesson], |row| {
        Ok((row.get::<_, String>(0)?, lesson_progress(row)?))
    })?;
    let mut out: HashMap<String, LessonProgress> = rows.collect::<rusqlite::Result<_>>()?;
    for row in super::rounds::check_progress(conn, course, lesson)? {
        let (lesson, check, p) = row;
        out.entry(lesson).or_default().checks.insert(check, p);
    }
    Ok(out)
}

fn lesson_progress(row: &Row<'_>) -> rusqlite::Result<LessonProgress> {
    let block: Option<u32> = row.get(3)?;
    let line: Option<u32> = row.get(4)?;
    Ok(LessonProgress {
        read: row.get::<_, Option<bool>>(1)?.unwrap_or(false),
        completed: row.get::<_, Option<bool>>(2)?.unwrap_or(false),
        anchor: block.map(|block| Anchor {
            block,
            line: line.unwrap_or(0),
        }),
        attempts: row.get::<_, Option<u32>>(5)?.unwrap_or(0),
        first_try_correct: row.get(6)?,
        last_choice: row.get(7)?,
        last_correct: row.get(8)?,
        due: row.get::<_, Option<i64>>(9)?.map(from_ms),
        check_count: row.get(10)?,
        checks: Default::default(),
    })
}

/// A card due: `(course, lesson, check id, when)`.
pub(crate) type DueCheck = (String, String, String, DateTime<Utc>);

pub(crate) fn due(
    conn: &Connection,
    course: Option<&str>,
    now: DateTime<Utc>,
) -> rusqlite::Result<Vec<DueCheck>> {
    let mut stmt = conn.prepare_cached(
        "SELECT course, lesson, check_id, due_ms FROM review
         WHERE due_ms <= ?2 AND (?1 IS NULL OR course = ?1)
         ORDER BY due_ms, course, lesson, check_id",
    )?;
    let rows = stmt.query_map(params![course, to_ms(now)], |row| {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?, from_ms(row.get(3)?)))
    })?;
    rows.collect()
}

/// Cards due in `[from, to)`: half-open so that adjacent windows (today,
/// tomorrow, ...) never count a card twice.
pub(crate) fn due_between(
    conn: &Connection,
    course: Option<&str>,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> rusqlite::Result<usize> {
    conn.query_row(
        "SELECT count(*) FROM review
         WHERE due_ms >= ?2 AND due_ms < ?3 AND (?1 IS NULL OR course = ?1)",
        params![course, to_ms(from), to_ms(to)],
        |row| row.get::<_, i64>(0),
    )
    .map(|n| usize::try_from(n).unwrap_or(0))
}

/// Learner-days in a row, ending today or yesterday, with at least one
/// attempt (see [`crate::model::Days`]). Yesterday counts as still alive:
/// the reader may not have opened lectern yet today.
pub(crate) fn streak<Tz: chrono::TimeZone>(
    conn: &Connection,
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> rusqlite::Result<u32> {
    let today = days.day(now);
    let mut stmt =
        conn.prepare_cached("SELECT at_ms FROM attempt WHERE at_ms >= 0 ORDER BY at_ms DESC")?;
    let mut rows = stmt.query([])?;
    let mut streak = 0;
    let mut expect = today;
    let mut last = None;
    while let Some(row) = rows.next()? {
        let d = days.day(from_ms(row.get(0)?));
        if d > today || last == Some(d) {
            continue;
        }
        last = Some(d);
        if streak == 0 && Some(d) == today.pred_opt() {
            expect = d;
        }
        if d != expect {
            break;
        }
        streak += 1;
        expect = expect.pred_opt().unwrap_or(expect);
    }
    Ok(streak)
}

/// When each review answer was given: a check's, or a note card's grade.
pub(crate) fn review_times(
    conn: &Connection,
    course: Option<&str>,
    since: DateTime<Utc>,
) -> rusqlite::Result<Vec<DateTime<Utc>>> {
    let mut stmt = conn.prepare_cached(
        "SELECT at_ms FROM attempt
         WHERE review = 1 AND at_ms >= ?2 AND (?1 IS NULL OR course = ?1)
         UNION ALL SELECT at_ms FROM note
         WHERE kind = 'grade' AND at_ms >= ?2 AND (?1 IS NULL OR course = ?1)
         ORDER BY at_ms",
    )?;
    let rows = stmt.query_map(params![course, to_ms(since)], |row| {
        Ok(from_ms(row.get(0)?))
    })?;
    rows.collect()
}

/// Every course of the library, most recently read first.
pub(crate) fn library(conn: &Connection) -> rusqlite::Result<Vec<LibraryCourse>> {
    let mut stmt = conn.prepare_cached(
        "SELECT slug, title, root, lessons, last_read_ms FROM library
         ORDER BY last_read_ms DESC, slug",
    )?;
    let rows = stmt.query_map([], library_row)?;
    // A row that does not read (edited by hand: a count stored as text)
    // costs that course, never the whole library.
    Ok(rows.filter_map(Result::ok).collect())
}

/// Column `i` as text, whatever SQLite holds there: a file edited by hand
/// may hold a title as a BLOB, which must not hide the course.
fn text_at(row: &Row<'_>, i: usize) -> rusqlite::Result<String> {
    use rusqlite::types::ValueRef;
    Ok(match row.get_ref(i)? {
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        ValueRef::Null => String::new(),
    })
}

pub(crate) fn library_row(row: &Row<'_>) -> rusqlite::Result<LibraryCourse> {
    Ok(LibraryCourse {
        slug: row.get(0)?,
        // The file may have been edited by hand: its text is shown.
        title: crate::model::sanitize::clean_owned(&text_at(row, 1)?),
        root: row.get::<_, Option<String>>(2)?.map(PathBuf::from),
        lessons: row.get(3)?,
        last_read: from_ms(row.get(4)?),
    })
}

/// When the first card due at or after `from` comes, and how many there
/// are of each of `courses`.
pub(crate) fn upcoming(
    conn: &Connection,
    courses: &[&str],
    from: DateTime<Utc>,
) -> rusqlite::Result<(Option<DateTime<Utc>>, Vec<usize>)> {
    let mut stmt = conn.prepare_cached("SELECT course, due_ms FROM review WHERE due_ms >= ?1")?;
    let mut rows = stmt.query([to_ms(from)])?;
    let (mut next, mut n) = (None::<i64>, vec![0; courses.len()]);
    while let Some(row) = rows.next()? {
        let course: String = row.get(0)?;
        if let Some(i) = courses.iter().position(|c| *c == course) {
            let due: i64 = row.get(1)?;
            next = Some(next.map_or(due, |m| m.min(due)));
            n[i] += 1;
        }
    }
    Ok((next.map(from_ms), n))
}

/// Wrong options chosen at least `min_times` times, most often first,
/// with when each was last chosen. A lesson whose last two answers were
/// both right has outgrown its misconceptions: it is left out.
pub(crate) fn misconceptions(
    conn: &Connection,
    course: Option<&str>,
    min_times: u32,
) -> rusqlite::Result<Vec<Misconception>> {
    let mut stmt = conn.prepare_cached(
        "WITH
           ranked AS (
             SELECT course, lesson, check_id, correct,
                    row_number() OVER (PARTITION BY course, lesson, check_id
                                       ORDER BY coalesce(ord_ms, at_ms) DESC,
                                                device DESC, seq DESC, id DESC) AS k
             FROM attempt WHERE ?1 IS NULL OR course = ?1
           ),
           mastered AS (
             SELECT course, lesson, check_id FROM ranked WHERE k <= 2
             GROUP BY course, lesson, check_id HAVING count(*) = 2 AND sum(correct) = 2
           )
         SELECT a.course, a.lesson, a.option, count(*) AS times, max(a.at_ms), a.check_id
         FROM attempt a
         WHERE a.correct = 0 AND (?1 IS NULL OR a.course = ?1) AND a.option != ?3
           AND NOT EXISTS (SELECT 1 FROM mastered m
                           WHERE m.course = a.course AND m.lesson = a.lesson
                             AND m.check_id = a.check_id)
         GROUP BY a.course, a.lesson, a.check_id, a.option HAVING times >= ?2
         ORDER BY times DESC, a.course, a.lesson, a.check_id, a.option",
    )?;
    // A threshold of 0 is taken as 1: an option never chosen is not a
    // misconception, and the query only sees options that were chosen.
    let rows = stmt.query_map(params![course, min_times.max(1), NO_OPTION], |row| {
        Ok(Misconception {
            course: row.get(0)?,
            lesson: row.get(1)?,
            check: row.get(5)?,
            option: row.get(2)?,
            times: row.get(3)?,
            last: from_ms(row.get(4)?),
        })
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_title_stored_as_a_blob_or_a_row_that_does_not_read_hides_no_other_course() {
        let conn = super::super::schema::memory().unwrap();
        conn.execute_batch(
            "INSERT INTO library VALUES ('a', CAST('Blob title' AS BLOB), NULL, 3, 2);
             INSERT INTO library VALUES ('b', 'Plain', NULL, 'many', 1);
             INSERT INTO library VALUES ('c', 'Kept', NULL, 1, 0);",
        )
        .unwrap();
        let lib = super::library(&conn).unwrap();
        let titles: Vec<&str> = lib.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["Blob title", "Kept"]);
    }
}
