//! The store's side of syncing: its device, its log kept up to date, the
//! folder looked at and merged. Only a store whose changes are durable
//! takes part (the file, written; or a store in memory only, for the
//! session): records kept aside while the file refuses writes get their
//! sequence numbers when they reach it, so no number is ever given twice.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::look::{self, Cursor, Cursors, Look};
use super::{FOLDER, Link, Merged, Status, me, own};
use crate::store::Store;
use crate::store::fault::Fault;

/// Looks at the folder in one `lectern sync` (each takes up to a look's
/// budget): a few years of another machine's changes.
const MAX_LOOKS: usize = 1000;

/// The most of this device's own log read back into a store that is
/// behind it: years of changes are a few MB.
const OWN_LOG_BUDGET: u64 = 256 << 20;

/// What a look at the sync folder needs: its logs' folder, this device's
/// log's name (not read: its changes are in the store), the cursors.
#[derive(Debug, Clone)]
pub struct Plan {
    pub folder: PathBuf,
    pub own: String,
    pub cursors: Cursors,
}

impl Plan {
    /// Reads the other devices' logs from the cursors (files only: run it
    /// anywhere, then [`Store::sync_merge`] what it found), a chunk small
    /// enough to merge between two keys.
    pub fn look(&self) -> Look {
        look::look(&self.folder, &self.own, &self.cursors, look::Budget::LOOK)
    }
}

impl Store {
    /// The connection changes are made durable in, when syncing may use
    /// it (see the module documentation).
    fn durable(&mut self) -> Option<&mut Connection> {
        if self.dir.is_none() {
            return self.shadow.as_mut();
        }
        let in_step = self.disk_writable && self.shadow.is_none() && self.pending.is_empty();
        self.disk.as_mut().filter(|_| in_step)
    }

    /// This data directory's device id and the learner's name for it.
    pub fn device(&self) -> Option<(String, Option<String>)> {
        self.read(|conn| {
            let id = me(conn)?;
            let name = super::status::name(conn, &id)?;
            Ok(Some((id, name)))
        })
    }

    /// From now on this device's changes go to its log in `dir` (the sync
    /// folder: in `dir/lectern/`), which is first brought up to date: what
    /// the store has and the log has not (lectern ended between the two,
    /// the log deleted or cut, the folder not writable) is appended. A log
    /// ahead of the store (a data directory put back from a backup) is
    /// read back into it first, so no number is given twice.
    pub fn sync_to(&mut self, dir: &Path) {
        let folder = dir.join(FOLDER);
        // A sync tool copying the live database damages it.
        if let Some(data) = &self.dir
            && within(data, dir)
        {
            let why = format!(
                "{} holds the progress database, which a sync tool would damage: \
                 choose a sync folder outside the data folder",
                dir.display()
            );
            self.warn(Fault::SyncWrite, &why);
            return;
        }
        let Some(conn) = self.durable() else { return };
        let Ok(me) = me(conn) else { return };
        let mut link = Link {
            folder,
            me,
            appended: 0,
            len: 0,
        };
        let log = link.log();
        link.appended = own::last_written(&log, &link.me)
            .ok()
            .flatten()
            .unwrap_or(0);
        let known: i64 = conn
            .query_row(
                "SELECT coalesce(max(seq), 0) FROM sync_record WHERE device = ?1",
                [&link.me],
                |r| r.get(0),
            )
            .unwrap_or(0);
        if link.appended > known {
            let mut budget = look::Budget {
                bytes: OWN_LOG_BUDGET,
                records: usize::MAX,
            };
            if let Ok(read) = look::read(&log, Cursor::default(), &mut budget) {
                let back = Look {
                    records: read.records,
                    ..Look::default()
                };
                let _ = super::merge::merge(conn, &back);
            }
        }
        link.len = std::fs::metadata(&log).map_or(0, |m| m.len());
        self.sync = Some(link);
        self.sync_append();
    }

    /// Appends this device's records not yet in its log (all it lacks, if
    /// it was deleted or cut since: shorter than this session left it); a
    /// folder that cannot be written is said once, and tried again at the
    /// next write.
    pub(crate) fn sync_append(&mut self) {
        let Some(link) = self.sync.as_mut() else {
            return;
        };
        let log = link.log();
        let len = std::fs::metadata(&log).map_or(0, |m| m.len());
        if len < link.len {
            link.appended = own::last_written(&log, &link.me)
                .ok()
                .flatten()
                .unwrap_or(0);
            link.len = len;
        }
        let after = link.appended;
        let Some(conn) = self.durable() else { return };
        let Ok((lines, last)) = own::unwritten(conn, after) else {
            return;
        };
        let Some(link) = self.sync.as_mut().filter(|_| !lines.is_empty()) else {
            return;
        };
        let log = link.log();
        match own::append(&log, &lines) {
            Ok(len) => {
                link.appended = last;
                link.len = len;
            }
            Err(e) => self.warn(Fault::SyncWrite, &format!("{}: {e}", log.display())),
        }
    }

    /// A look at this device's own log between writes: one deleted or cut
    /// is written again from where it ends now; appends that failed are
    /// tried again.
    pub fn sync_check(&mut self) {
        self.sync_append();
    }

    /// What a look at the sync folder needs, when the store syncs.
    pub fn sync_plan(&self) -> Option<Plan> {
        let link = self.sync.as_ref()?;
        let cursors = self.read(|conn| {
            let mut stmt =
                conn.prepare_cached("SELECT name, offset, tail, damaged FROM sync_file")?;
            let rows = stmt.query_map([], |r| {
                let cursor = Cursor {
                    offset: r.get::<_, i64>(1)?.unsigned_abs(),
                    tail: r.get(2)?,
                    damaged: r.get(3)?,
                };
                Ok((r.get::<_, String>(0)?, cursor))
            })?;
            rows.collect::<rusqlite::Result<Cursors>>()
        });
        Some(Plan {
            folder: link.folder.clone(),
            own: format!("{}.log", link.me),
            cursors,
        })
    }

    /// Merges what a look found, at once or not now: the reader's loop
    /// never waits for another lectern's write. `Err` says why not now
    /// (the store busy, or writes kept aside): the same look again later
    /// merges the same.
    pub fn sync_merge(&mut self, look: &Look) -> Result<Merged, String> {
        self.merge_waiting(look, std::time::Duration::ZERO)
    }

    /// [`Store::sync_merge`], waiting up to `wait` for the store's lock.
    fn merge_waiting(&mut self, look: &Look, wait: std::time::Duration) -> Result<Merged, String> {
        let patience = self.busy_timeout;
        let Some(conn) = self.durable() else {
            return Err("the progress store cannot take other machines' changes now".into());
        };
        let _ = conn.busy_timeout(wait);
        let merged = super::merge::merge(conn, look);
        let _ = conn.busy_timeout(patience);
        let merged = merged.map_err(|e| e.to_string())?;
        if let Some(problem) = &merged.problem {
            self.warn(Fault::SyncRead, problem);
        }
        Ok(merged)
    }

    /// Looks at the sync folder and merges what is new, until all of it
    /// is (within a budget); this device's log brought up to date first.
    pub fn sync_now(&mut self) -> Merged {
        let mut merged = Merged::default();
        self.sync_check();
        for _ in 0..MAX_LOOKS {
            let Some(plan) = self.sync_plan() else { break };
            let look = look::look(&plan.folder, &plan.own, &plan.cursors, look::Budget::NOW);
            match self.merge_waiting(&look, self.busy_timeout) {
                Ok(m) => merged.add(m),
                Err(e) => {
                    merged.problem = Some(e);
                    break;
                }
            }
            if !look.more {
                break;
            }
        }
        merged
    }

    /// Every device whose changes this machine has, this one first.
    pub fn sync_status(&self) -> Status {
        self.read(super::status::status)
    }

    /// The learner names this device: a record of its log, so every
    /// machine knows it by that name.
    pub fn name_device(&mut self, name: &str) -> Result<(), String> {
        let name = super::record::name_of(name).ok_or("a name needs a letter or a digit")?;
        let Some(conn) = self.durable() else {
            return Err("the progress store cannot be written".into());
        };
        own::name(conn, &name).map_err(|e| e.to_string())?;
        self.sync_append();
        Ok(())
    }
}

/// Whether `inner` is `outer` or inside it (each as the file system
/// resolves it, when it can).
fn within(inner: &Path, outer: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    real(inner).starts_with(real(outer))
}
