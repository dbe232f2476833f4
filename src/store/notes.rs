//! Marks, highlights and notes in the store: each id's last change, kept
//! whole. A change older than the one kept (replayed from a journal, or
//! from another machine's log) loses: the last writer wins, by time.

use rusqlite::{Connection, params};

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
    Ok(())
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
            deleted,
            at: Some(Utc.timestamp_opt(1_700_000_000 + secs, 0).unwrap()),
        }
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
