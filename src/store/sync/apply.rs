//! The rules that make merging commutative, for the changes that need
//! one beyond "add it once": the last writer wins (by time, then device,
//! then place in the device's log) for a note, a mark, a place in a
//! lesson, a course's last lesson and a course's title; a rating belongs
//! to the attempt it rates, whichever of the two arrives first.

use rusqlite::{Connection, params};

use super::{Origin, Touched};
use crate::model::Change;

/// Whether `change` is the newest of the thing it changes (kept as such
/// if so); a change of a thing with no last writer always is.
pub(crate) fn order(conn: &Connection, change: &Change, o: &Origin) -> rusqlite::Result<bool> {
    let (kind, key) = match change {
        Change::Mark { id, .. } | Change::Annotation { id, .. } => ("note", id.clone()),
        Change::Place { key, .. } => ("note", crate::store::notes::place_id(key)),
        // A grade is a row of its own by note and time: two machines'
        // at the same millisecond settle as any last writer.
        Change::Grade { note, .. } => ("note", crate::store::notes::grade_id(note, o.at_ms)),
        Change::Position { key, .. } => ("anchor", format!("{}\n{}", key.course, key.lesson)),
        Change::LastLesson { key } => ("last", key.course.clone()),
        _ => return Ok(true),
    };
    wins(conn, kind, &key, o)
}

/// Keeps `o` as the last writer of `key` (a thing of `kind`) if it is
/// later than the one kept; whether it was.
fn wins(conn: &Connection, kind: &str, key: &str, o: &Origin) -> rusqlite::Result<bool> {
    let changed = conn
        .prepare_cached(
            "INSERT INTO sync_order (kind, key, ord) VALUES (?1, ?2, ?3)
         ON CONFLICT (kind, key) DO UPDATE SET ord = excluded.ord
         WHERE excluded.ord > sync_order.ord",
        )?
        .execute(params![kind, key, o.ord()])?;
    Ok(changed > 0)
}

/// A rating of the attempt `o.of` of `o`'s device: the latest given for
/// it stands; its card is built again once its attempt is there.
pub(crate) fn rate(
    conn: &Connection,
    o: &Origin,
    rating: u8,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    let Some(of) = o.of else { return Ok(()) };
    let latest = conn
        .prepare_cached(
            "INSERT INTO rating (device, attempt, seq, rating) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (device, attempt) DO UPDATE SET seq = excluded.seq, rating = excluded.rating
         WHERE excluded.seq > rating.seq",
        )?
        .execute(params![o.device, of, o.seq, rating])?;
    if latest == 0 {
        return Ok(());
    }
    let mut stmt = conn.prepare_cached(
        "UPDATE attempt SET rating = ?3 WHERE device = ?1 AND seq = ?2
         RETURNING course, lesson, check_id",
    )?;
    let rows = stmt.query_map(params![o.device, of, rating], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    for key in rows {
        touched.insert(key?);
    }
    Ok(())
}

/// A course of the library: kept once by slug, read last at the latest
/// time any machine read it, titled by the last writer, counted by the
/// last writer that knew its count; its folder is where this machine has
/// it (another machine's folder only for a course this one never opened).
pub(crate) fn remember(
    conn: &Connection,
    change: &Change,
    origin: Option<&Origin>,
) -> rusqlite::Result<()> {
    let Change::Remember {
        slug,
        title,
        root,
        lessons,
        at,
    } = change
    else {
        return Ok(());
    };
    let (titled, counted, here) = match origin {
        Some(o) => (
            wins(conn, "library", slug, o)?,
            *lessons > 0 && wins(conn, "lessons", slug, o)?,
            o.own,
        ),
        None => (true, *lessons > 0, true),
    };
    let root = root.as_deref().map(|r| r.to_string_lossy());
    let at = crate::store::time::to_ms(at.unwrap_or_else(chrono::Utc::now));
    conn.prepare_cached(
        "INSERT INTO library (slug, title, root, lessons, last_read_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (slug) DO UPDATE
         SET title = iif(?6, excluded.title, title),
             root = iif(?8, excluded.root, root),
             lessons = iif(?7, excluded.lessons, lessons),
             last_read_ms = max(last_read_ms, excluded.last_read_ms)",
    )?
    .execute(params![
        slug, title, root, lessons, at, titled, counted, here
    ])?;
    Ok(())
}
