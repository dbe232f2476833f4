//! The store's writes held back while the frame is drawn, within reach of
//! a signal that ends the process.

use crate::loader;
use crate::model::Change;
use crate::store::Store;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Writes held back until the frame is drawn, shared with the signal
/// thread: when the main loop is stuck (a long layout, a blocked read)
/// and a signal's grace runs out, the process ends from that thread, and
/// an answer still held here would be lost. [`Unwritten::rescue`] keeps
/// them in a journal beside the store instead, replayed at the next start.
#[derive(Clone, Default)]
pub struct Unwritten(Arc<Mutex<VecDeque<Change>>>);

impl Unwritten {
    pub(super) fn lock(&self) -> MutexGuard<'_, VecDeque<Change>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn hold(&self, change: &Change) {
        self.lock().push_back(change.clone());
    }

    /// Every write still held, kept in a new journal of the store in
    /// `dir`; the line to tell the learner, if there were any. Waits a
    /// moment for a write the loop is making, never longer.
    pub fn rescue(&self, dir: Option<&std::path::Path>, place: Option<Change>) -> Option<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(300);
        let held = loop {
            match self.0.try_lock() {
                Ok(mut held) => break std::mem::take(&mut *held),
                Err(std::sync::TryLockError::Poisoned(p)) => {
                    break std::mem::take(&mut *p.into_inner());
                }
                Err(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(_) => return None,
            }
        };
        let mut held = held;
        held.extend(place);
        if held.is_empty() {
            return None;
        }
        let mut store = Store::journal_only(dir?);
        for change in &held {
            store.apply(change);
        }
        let (n, at) = store.kept_aside();
        let changes = if n == 1 { "change" } else { "changes" };
        Some(match at {
            Some(at) if n > 0 => format!(
                "{n} {changes} to your progress kept in {} (lectern was stopped before it saved them), saved at the next start",
                loader::walk::shown(&at)
            ),
            _ => format!("{changes} to your progress could not be saved nor kept aside"),
        })
    }
}
