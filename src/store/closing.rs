//! The end of a session: what is still kept aside is said once.

use super::{Fault, Store, fault};

impl Store {
    /// The end of the session: a last try for writes the file refused
    /// earlier (the lock or the disk space may be back by now), and one
    /// line on what is still kept aside, if anything is.
    pub fn close(&mut self) -> Option<String> {
        self.closed = true;
        if self.pending.is_empty() {
            return None;
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
