//! The index's rows of lesson headers: read for a folder, written back
//! for the files read again.

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::params;

use super::Index;
use super::file_stamps::{Fresh, Row, Stamp};
use crate::loader::walk::os_from_bytes;
use crate::loader::{Headed, Origin};
use crate::model::{LessonEntry, LessonStatus, Module};

impl Index {
    pub(super) fn rows(&self, dir: &[u8]) -> rusqlite::Result<HashMap<Vec<u8>, Row>> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT path, size, mtime_ns, course_slug, course_title, slug, title, position, minutes,
                    module_index, module_slug, module_title, broken, ctime_ns, ino, digest, seen_ns
             FROM lesson_file WHERE dir = ?1",
        )?;
        let rows = stmt.query_map([dir], |r| {
            let path: Vec<u8> = r.get(0)?;
            let module_index: Option<u32> = r.get(9)?;
            // A diagnostic kept whole; one that no longer decodes reads as
            // a fault of the row, and the folder is read again.
            let broken: Option<crate::model::Diagnostic> = r
                .get::<_, Option<String>>(12)?
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|e| {
                    rusqlite::Error::FromSqlConversionFailure(
                        12,
                        rusqlite::types::Type::Text,
                        e.into(),
                    )
                })?;
            let text = |i| {
                r.get::<_, Option<String>>(i)
                    .ok()
                    .flatten()
                    .unwrap_or_default()
            };
            let digest: Option<i64> = r.get(15)?;
            let head = Headed {
                entry: LessonEntry {
                    origin: Origin::File(PathBuf::from(os_from_bytes(&path))),
                    slug: r.get(5)?,
                    title: r.get(6)?,
                    position: r.get(7)?,
                    minutes: r.get(8)?,
                    module: module_index.map(|index| {
                        Box::new(Module {
                            index,
                            slug: text(10),
                            title: text(11),
                        })
                    }),
                    status: broken.map_or(LessonStatus::Ok, LessonStatus::Broken),
                },
                course_slug: r.get(3)?,
                course_title: r.get(4)?,
                digest: digest.map(|d| d as u64),
            };
            let stamp = Stamp {
                size: r.get(1)?,
                mtime_ns: r.get(2)?,
                ctime_ns: r.get(13)?,
                ino: r.get(14)?,
            };
            let row = Row {
                stamp,
                digest: head.digest,
                seen_ns: r.get(16)?,
                head,
            };
            Ok((path, row))
        })?;
        rows.collect()
    }

    pub(super) fn store<'a>(
        &mut self,
        dir: &[u8],
        fresh: &[Fresh],
        racy: &[(Vec<u8>, i64)],
        gone: impl Iterator<Item = &'a Vec<u8>>,
    ) -> rusqlite::Result<()> {
        let tx = self.conn_mut().transaction()?;
        for path in gone {
            tx.execute("DELETE FROM lesson_file WHERE path = ?1", [path])?;
        }
        // Checked by their bytes just now: not racy again until they change.
        for (path, seen_ns) in racy {
            tx.execute(
                "UPDATE lesson_file SET seen_ns = ?2 WHERE path = ?1",
                params![path, seen_ns],
            )?;
        }
        for f in fresh {
            let (h, st) = (&f.head, f.stamp);
            let e = &h.entry;
            let broken = match &e.status {
                LessonStatus::Ok => None,
                LessonStatus::Broken(why) => serde_json::to_string(why).ok(),
            };
            tx.execute(
                // An upsert keeps the row id, which the text is keyed by.
                "INSERT INTO lesson_file
                 (path, dir, size, mtime_ns, course_slug, course_title, slug, title, position, minutes,
                  module_index, module_slug, module_title, broken, has_text,
                  ctime_ns, ino, digest, seen_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 0,
                         ?15, ?16, ?17, ?18)
                 ON CONFLICT(path) DO UPDATE SET
                   dir = excluded.dir, size = excluded.size, mtime_ns = excluded.mtime_ns,
                   course_slug = excluded.course_slug, course_title = excluded.course_title,
                   slug = excluded.slug, title = excluded.title, position = excluded.position,
                   minutes = excluded.minutes, module_index = excluded.module_index,
                   module_slug = excluded.module_slug, module_title = excluded.module_title,
                   broken = excluded.broken, has_text = 0, ctime_ns = excluded.ctime_ns,
                   ino = excluded.ino, digest = excluded.digest, seen_ns = excluded.seen_ns",
                params![
                    f.path,
                    dir,
                    st.size,
                    st.mtime_ns,
                    h.course_slug,
                    h.course_title,
                    e.slug,
                    e.title,
                    e.position,
                    e.minutes,
                    e.module.as_ref().map(|m| m.index),
                    e.module.as_ref().map(|m| m.slug.as_str()),
                    e.module.as_ref().map(|m| m.title.as_str()),
                    broken,
                    st.ctime_ns,
                    st.ino,
                    h.digest.map(|d| d as i64),
                    f.seen_ns,
                ],
            )?;
        }
        tx.commit()
    }
}
