//! Marks, highlights and notes in the store: each id's last change, kept
//! whole. A change older than the one kept (replayed from a journal, or
//! from another machine's log) loses: the last writer wins, by time. A
//! note's review card (see [`crate::model::card`]) is built from the note
//! and its grades, each kept as a row of its own (none replaces another),
//! into the review table whenever either changes.

use rusqlite::{Connection, OptionalExtension, params};

use super::time::to_ms;
use crate::model::{Change, LessonKey};

/// The most notes read back at once: far past what a learner writes, and
/// a bound on what a hand-edited file can make the reader hold.
const MAX_NOTES: i64 = 100_000;

/// Keeps `change` (a mark or an annotation) unless a later one of its id
/// is kept already; any other change is not this table's.
pub(super) fn apply(conn: &Connection, change: &Change, at_ms: i64) -> rusqlite::Result<()> {
    let (kind, key, id, deleted) = match change {
        Change::Mark {
            key, id, deleted, ..
        } => ("mark", key, id.clone(), *deleted),
        Change::Annotation {
            key, id, deleted, ..
        } => ("annotation", key, id.clone(), *deleted),
        // One place a lesson: its id is its lesson's.
        Change::Place { key, .. } => ("place", key, place_id(key), false),
        // One row a grade, by its note and time: replayed, it is the same.
        Change::Grade { key, note, .. } => ("grade", key, grade_id(note, at_ms), false),
        _ => return Ok(()),
    };
    let LessonKey { course, lesson } = key;
    // Serialising a change of strings and numbers cannot fail; if it did,
    // nothing is written rather than a body that does not read back.
    let Ok(body) = serde_json::to_string(change) else {
        return Ok(());
    };
    conn.prepare_cached(
        "INSERT INTO note (id, kind, course, lesson, at_ms, deleted, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (id) DO UPDATE
         SET kind = excluded.kind, course = excluded.course, lesson = excluded.lesson,
             at_ms = excluded.at_ms, deleted = excluded.deleted, body = excluded.body
         WHERE excluded.at_ms >= note.at_ms",
    )?
    .execute(params![id, kind, course, lesson, at_ms, deleted, body])?;
    match change {
        Change::Annotation { key, id, .. } | Change::Grade { key, note: id, .. } => {
            card(conn, key, id)
        }
        _ => Ok(()),
    }
}

/// The id of a grade of note `note` given at `at_ms`, and the bounds of
/// every grade's id of that note.
pub(crate) fn grade_id(note: &str, at_ms: i64) -> String {
    format!("grade\n{note}\n{at_ms:020}")
}

fn grades_of(note: &str) -> (String, String) {
    // '\u{b}' is the character after '\n': past every id that starts
    // with the note's and a line break.
    (format!("grade\n{note}\n"), format!("grade\n{note}\u{b}"))
}

/// Note `id`'s review card as its note and grades now say: in the review
/// table while the note is a card (not deleted), gone from it otherwise.
fn card(conn: &Connection, key: &LessonKey, id: &str) -> rusqlite::Result<()> {
    let check = crate::model::card::note_card(id);
    let row: Option<(String, i64)> = conn
        .query_row(
            "SELECT body, at_ms FROM note WHERE id = ?1 AND kind = 'annotation' AND deleted = 0",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let is_card = |body: &str| {
        matches!(
            serde_json::from_str::<Change>(body),
            Ok(Change::Annotation { card: true, .. })
        )
    };
    let Some((_, since)) = row.filter(|(body, _)| is_card(body)) else {
        conn.execute(
            "DELETE FROM review WHERE course = ?1 AND lesson = ?2 AND check_id = ?3",
            params![key.course, key.lesson, check],
        )?;
        return Ok(());
    };
    let (from, to) = grades_of(id);
    let mut stmt = conn.prepare_cached(
        "SELECT body FROM note WHERE kind = 'grade' AND id >= ?1 AND id < ?2 ORDER BY id",
    )?;
    let mut grades = Vec::new();
    for body in stmt.query_map([from, to], |r| r.get::<_, String>(0))? {
        if let Ok(Change::Grade {
            rating,
            at: Some(at),
            ..
        }) = serde_json::from_str::<Change>(&body?)
        {
            grades.push((at, rating));
        }
    }
    let card = super::review::graded(&grades, super::time::from_ms(since));
    super::review::save(conn, (&key.course, &key.lesson, &check), &card)
}

/// The id of lesson `key`'s reading place.
pub(crate) fn place_id(key: &LessonKey) -> String {
    format!("place\n{}\n{}", key.course, key.lesson)
}

/// Every mark and annotation not deleted, oldest first; a body that no
/// longer reads (a hand-edited file) is skipped.
pub(super) fn all(conn: &Connection) -> rusqlite::Result<Vec<Change>> {
    let mut stmt =
        conn.prepare("SELECT body FROM note WHERE deleted = 0 ORDER BY at_ms, id LIMIT ?1")?;
    let rows = stmt.query_map([MAX_NOTES], |r| r.get::<_, String>(0))?;
    let mut out = Vec::new();
    for body in rows {
        if let Ok(change) = serde_json::from_str::<Change>(&body?) {
            out.push(change);
        }
    }
    Ok(out)
}

/// When a change of this table was made, as the store keeps it.
pub(super) fn made_ms(change: &Change) -> i64 {
    to_ms(change.at().unwrap_or_else(chrono::Utc::now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::anchor::Selector;
    use chrono::{TimeZone, Utc};

    fn note(id: &str, text: &str, secs: i64, deleted: bool) -> Change {
        Change::Annotation {
            key: LessonKey::new("c", "l"),
            id: id.into(),
            target: Selector {
                exact: "quote".into(),
                ..Selector::default()
            },
            note: text.into(),
            card: text.ends_with('?'),
            deleted,
            at: Some(Utc.timestamp_opt(1_700_000_000 + secs, 0).unwrap()),
        }
    }

    fn grade(id: &str, rating: u8, days: i64) -> Change {
        Change::Grade {
            key: LessonKey::new("c", "l"),
            note: id.into(),
            rating,
            at: Some(Utc.timestamp_opt(1_700_000_000 + days * 86_400, 0).unwrap()),
        }
    }

    /// The card of note `id` in the review table, if any.
    fn card_of(conn: &Connection, id: &str) -> Option<rs_fsrs::Card> {
        let check = crate::model::card::note_card(id);
        super::super::review::load(conn, ("c", "l", &check)).unwrap()
    }

    #[test]
    fn a_question_notes_card_is_built_from_the_note_and_its_grades() {
        let conn = super::super::schema::memory().unwrap();
        // A grade that comes before its note (another machine's order)
        // waits for it.
        kept(&conn, &[grade("q", 3, 1)]);
        assert!(card_of(&conn, "q").is_none());
        kept(&conn, &[note("q", "Why rules?", 0, false)]);
        let once = card_of(&conn, "q").expect("a card");
        assert_eq!(once.reps, 1);
        assert!(once.due > Utc.timestamp_opt(1_700_000_000 + 86_400, 0).unwrap());
        // Replayed (a journal applied twice): the same card.
        kept(&conn, &[grade("q", 3, 1)]);
        assert_eq!(card_of(&conn, "q"), Some(once.clone()));
        // Again after it was due: relearning, sooner than a good one.
        let again = grade("q", 1, 10);
        kept(&conn, &[again]);
        let lapsed = card_of(&conn, "q").unwrap();
        assert_eq!((lapsed.reps, lapsed.lapses), (2, 1));
        // An edit of its text keeps the card and its grades.
        kept(&conn, &[note("q", "Why three rules?", 20, false)]);
        assert_eq!(card_of(&conn, "q"), Some(lapsed));
        // Not a card any more, or deleted: gone from review.
        kept(&conn, &[note("q", "Rules.", 21, false)]);
        assert!(card_of(&conn, "q").is_none());
        kept(
            &conn,
            &[note("q", "Why?", 22, false), note("q", "Why?", 23, true)],
        );
        assert!(card_of(&conn, "q").is_none());
        // A new card is due from when it was made.
        kept(&conn, &[note("n", "New?", 30, false)]);
        let new = card_of(&conn, "n").unwrap();
        assert_eq!(
            (new.reps, new.due),
            (0, Utc.timestamp_opt(1_700_000_030, 0).unwrap())
        );
        // Every grade is a change read back with the notes.
        let grades = all(&conn)
            .unwrap()
            .into_iter()
            .filter(|c| matches!(c, Change::Grade { .. }))
            .count();
        assert_eq!(grades, 2);
    }

    fn kept(conn: &Connection, changes: &[Change]) -> Vec<Change> {
        for c in changes {
            apply(conn, c, made_ms(c)).unwrap();
        }
        all(conn).unwrap()
    }

    #[test]
    fn the_last_writer_wins_whatever_order_changes_come_in() {
        let conn = super::super::schema::memory().unwrap();
        let (old, new) = (note("a", "first", 0, false), note("a", "second", 5, false));
        assert_eq!(kept(&conn, &[new.clone(), old]), vec![new]);
    }

    #[test]
    fn a_tombstone_hides_a_note_and_an_older_edit_does_not_bring_it_back() {
        let conn = super::super::schema::memory().unwrap();
        let changes = [
            note("a", "kept", 0, false),
            note("b", "gone", 1, false),
            note("b", "gone", 9, true),
            note("b", "stale edit", 4, false),
        ];
        assert_eq!(kept(&conn, &changes), vec![changes[0].clone()]);
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM note", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2, "a deletion removes no row");
    }
}
