//! The end of a session: what is still kept aside is said once.

use super::{Fault, Store, fault};

impl Store {
    /// The end of the session: a last try for writes the file refused
    /// earlier (the lock or the disk space may be back by now), and one
    /// line on what is still kept aside, if anything is.
    pub fn close(&mut self) -> Option<String> {
        self.closed = true;
        if self.pending.is_empty() {
            return self.memory_only_word();
        }
        self.retry_at = None;
        if self.flush(None) {
            return None;
        }
        let n = self.pending.len();
        let changes = if n == 1 { "change" } else { "changes" };
        let why = match self.refused {
            Some(Fault::Busy) => "the progress store was locked by another program",
            Some(Fault::Full) => "the disk was full",
            _ => "the progress store refused them",
        };
        let kept = self.journal.as_ref().filter(|j| j.kept >= n);
        Some(match (kept.and_then(|j| j.path()), &self.journal_failed) {
            (Some(path), None) => format!(
                "{n} {changes} to your progress not saved yet ({why}): kept in {}, saved at the next start",
                crate::loader::walk::shown(path)
            ),
            (_, failed) => format!(
                "{n} {changes} to your progress could not be saved ({why}) nor kept aside: {}",
                fault::short(failed.as_deref().unwrap_or("no journal"))
            ),
        })
    }
}

impl Store {
    /// The closing word of a session the file could not take at all.
    fn memory_only_word(&self) -> Option<String> {
        let n = self.kept_in_memory;
        let why = match self.memory_only? {
            _ if n == 0 => return None,
            Fault::Newer => "the progress store is a newer lectern's",
            Fault::ReadOnly => "the progress store is read-only",
            _ => "the progress store could not be used",
        };
        let changes = if n == 1 { "change" } else { "changes" };
        Some(format!(
            "{n} {changes} to your progress not saved ({why}): they were kept in memory only"
        ))
    }
}
