//! Syncing while the reader runs. Once the store is open (after the first
//! frame), this device's log is brought up to date and a thread looks at
//! the sync folder: at once, then every few seconds, reading the other
//! devices' logs only when one of them changed (a listing of a few files;
//! this device's own log is left out, or every answer would wake it). What
//! it reads comes back as a reply; the runner merges it into the store on
//! the loop (the store is the loop's), and the state hears what changed.
//! One look at a time: the next waits for the cursors the merge moved on.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use super::{Reply, Runner, Sink, Work};
use crate::model::SyncNews;
use crate::state::Msg;
use crate::store::sync::store::Plan;
use crate::store::sync::{Look, Merged};

/// How often the folder's listing is looked at.
const EVERY: Duration = Duration::from_secs(3);

/// The most files of the folder listed.
const MAX_FILES: usize = 1000;

/// The watching thread's side of the runner.
pub(super) struct Watch {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    turn: Mutex<Turn>,
    wake: Condvar,
}

#[derive(Default)]
struct Turn {
    /// The next look's plan, handed over once the last look is merged.
    plan: Option<Plan>,
    /// The last look was not merged (the store busy): look again even if
    /// nothing changed.
    again: bool,
    stop: bool,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.shared.turn().stop = true;
        self.shared.wake.notify_all();
    }
}

impl Shared {
    fn turn(&self) -> std::sync::MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits a while (or until woken); true when the watcher is to stop.
    fn pause(&self) -> bool {
        let turn = self.turn();
        let (turn, _) = self
            .wake
            .wait_timeout(turn, EVERY)
            .unwrap_or_else(PoisonError::into_inner);
        turn.stop
    }
}

impl Runner {
    /// Syncs through the folder `dir` from now on, if there is one and the
    /// store is open: this device's log brought up to date, then the
    /// folder looked at (in the background, the first time at once).
    pub fn start_sync(&mut self, dir: Option<&Path>) {
        let (Some(dir), Some(store)) = (dir, self.store.as_mut()) else {
            return;
        };
        store.sync_to(dir);
        let Some(plan) = store.sync_plan() else {
            return;
        };
        match &self.work {
            Work::Inline => {
                let look = plan.look();
                self.inline.push_back(Reply::Synced(Box::new(look)));
            }
            Work::Threads(sink) => {
                let shared = Arc::new(Shared::default());
                shared.turn().plan = Some(plan);
                let (mine, sink) = (Arc::clone(&shared), Arc::clone(sink));
                super::spawn(move || watch(&mine, &sink));
                self.watch = Some(Watch { shared });
            }
        }
    }

    /// What a look found, merged; what it brought, for the state, if it
    /// brought anything. The next look starts from where this one ended.
    pub(super) fn synced(&mut self, look: &Look) -> Option<Msg> {
        let store = self.store.as_mut()?;
        let merged = store.sync_merge(look);
        store.sync_check();
        let plan = store.sync_plan();
        if let Some(w) = &self.watch {
            let mut turn = w.shared.turn();
            turn.again = merged.is_err();
            turn.plan = plan;
            w.shared.wake.notify_all();
        }
        news(&merged.ok()?).map(Msg::Synced)
    }
}

/// The footer's line and what to read again, when something came.
fn news(merged: &Merged) -> Option<SyncNews> {
    let said = merged.summary()?;
    Some(SyncNews {
        said,
        courses: merged.courses.iter().cloned().collect(),
        notes: merged.notes,
    })
}

/// The watching thread: waits for a plan, then for a change in the
/// folder, looks, and hands the look over; until nobody listens.
fn watch(shared: &Shared, sink: &Sink) {
    let mut seen: Option<Vec<(String, u64, Option<SystemTime>)>> = None;
    let mut more = false;
    loop {
        let (plan, again) = {
            let mut turn = shared.turn();
            loop {
                if turn.stop {
                    return;
                }
                if let Some(plan) = turn.plan.take() {
                    break (plan, std::mem::take(&mut turn.again));
                }
                turn = shared
                    .wake
                    .wait(turn)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        // More to read: no need to wait for a change. Not merged (the
        // store busy): again after a while, changed or not.
        if std::mem::take(&mut more) {
            seen = None;
        }
        if again {
            seen = None;
            if shared.pause() {
                return;
            }
        }
        loop {
            let now = listing(&plan.folder, &plan.own);
            if seen.as_ref() != Some(&now) {
                seen = Some(now);
                break;
            }
            if shared.pause() {
                return;
            }
        }
        let look = plan.look();
        more = look.more;
        if !sink(Reply::Synced(Box::new(look))) {
            return;
        }
    }
}

/// The other devices' logs in `folder`: name, length, time of change.
fn listing(folder: &PathBuf, own: &str) -> Vec<(String, u64, Option<SystemTime>)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            (name.ends_with(".log") && name != own)
                .then(|| (name, meta.len(), meta.modified().ok()))
        })
        .take(MAX_FILES)
        .collect();
    files.sort();
    files
}
