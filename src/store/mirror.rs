//! An in-memory copy of the file, for a session whose file cannot take
//! writes: the reader keeps seeing everything saved before, plus what this
//! session adds.

use rusqlite::{Connection, params_from_iter, types::Value};

use super::schema;

/// Copies what `src` holds into a fresh in-memory database at the current
/// schema, reading `src` only.
///
/// The copy is made at `src`'s own version and then migrated, so a file
/// that is read-only *and* old still shows its data the current way. Tables
/// and columns are matched by name, which also lets a file from a newer
/// lectern show what this one understands. The copy is best effort: if
/// `src` cannot be read, the session starts from empty and the error says
/// why. No database at all comes back only if SQLite cannot even open one
/// in memory.
pub(crate) fn copy(src: &Connection) -> (Option<Connection>, Option<rusqlite::Error>) {
    let mut mem = match Connection::open_in_memory() {
        Ok(mem) => mem,
        Err(e) => return (None, Some(e)),
    };
    match fill(&mut mem, src) {
        Ok(()) => (Some(mem), None),
        Err(e) => (schema::memory().ok(), Some(e)),
    }
}

fn fill(mem: &mut Connection, src: &Connection) -> rusqlite::Result<()> {
    // By its tables, not its word: a `.dump` copy says version 0.
    let version = schema::effective_version(src)?;
    let tx = mem.transaction()?;
    schema::upgrade(&tx, 0, version)?;
    for table in names(
        &tx,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        [],
    )? {
        let ours = names(&tx, "SELECT name FROM pragma_table_info(?1)", [&table])?;
        let theirs = names(src, "SELECT name FROM pragma_table_info(?1)", [&table])?;
        let common: Vec<_> = ours.into_iter().filter(|c| theirs.contains(c)).collect();
        if common.is_empty() {
            continue;
        }
        let cols = common
            .iter()
            .map(|c| format!("\"{}\"", c.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(", ");
        let marks = vec!["?"; common.len()].join(", ");
        let quoted = format!("\"{}\"", table.replace('"', "\"\""));
        let mut read = src.prepare(&format!("SELECT {cols} FROM {quoted}"))?;
        // The file's rows over what the steps made (the learner's seed).
        let mut write = tx.prepare(&format!(
            "INSERT OR REPLACE INTO {quoted} ({cols}) VALUES ({marks})"
        ))?;
        let mut rows = read.query([])?;
        while let Some(row) = rows.next()? {
            let values = (0..common.len())
                .map(|i| row.get::<_, Value>(i))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            write.execute(params_from_iter(values))?;
        }
    }
    schema::upgrade(&tx, version, schema::CURRENT)?;
    tx.commit()
}

fn names<P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    params: P,
) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map(params, |row| row.get(0))?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_rows_and_brings_old_files_up_to_date() {
        let src = Connection::open_in_memory().unwrap();
        schema::upgrade(&src, 0, 1).unwrap();
        src.execute_batch(
            "INSERT INTO attempt (course, lesson, at_ms, option, correct, review)
             VALUES ('c', 'l', 1000, 2, 0, 0);
             INSERT INTO course_state VALUES ('c', 'l');",
        )
        .unwrap();
        let (mem, err) = copy(&src);
        assert!(err.is_none(), "{err:?}");
        let mem = mem.unwrap();
        assert_eq!(
            schema::user_version(&mem).unwrap(),
            i64::from(schema::CURRENT)
        );
        let n: i64 = mem
            .query_row("SELECT count(*) FROM attempt", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        // version 2's backfill ran on the copy
        let cards: i64 = mem
            .query_row("SELECT count(*) FROM review", [], |r| r.get(0))
            .unwrap();
        assert_eq!(cards, 1);
    }

    #[test]
    fn foreign_columns_are_skipped() {
        let src = Connection::open_in_memory().unwrap();
        src.execute_batch("CREATE TABLE attempt (nonsense)")
            .unwrap();
        src.pragma_update(None, "user_version", 1).unwrap();
        let (mem, err) = copy(&src);
        // no column in common: nothing to copy, but no failure either
        assert!(err.is_none());
        let mem = mem.unwrap();
        assert_eq!(
            schema::user_version(&mem).unwrap(),
            i64::from(schema::CURRENT)
        );
    }
}
