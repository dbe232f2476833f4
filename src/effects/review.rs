//! What `R` reviews: every course of the learner's library with cards due
//! today, those not open in this session read from their folders first.

use crate::loader;
use crate::model::{Course, Days};
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// The courses of the library, not among `open`, that have cards due by
/// `until` and can still be read.
pub(super) fn shelved_due(
    store: &Store,
    open: &[Arc<Course>],
    until: DateTime<Utc>,
) -> Vec<Course> {
    let due = store.due(None, until);
    shelved_where(store, open, |slug| {
        due.iter().any(|(s, _, at)| s == slug && *at < until)
    })
}

/// Every course of the library not among `open` that can still be read.
pub(super) fn shelved(store: &Store, open: &[Arc<Course>]) -> Vec<Course> {
    shelved_where(store, open, |_| true)
}

/// The courses of the library not among `open` whose slug `wanted`
/// takes, read from their folders (those that can be).
fn shelved_where(
    store: &Store,
    open: &[Arc<Course>],
    wanted: impl Fn(&str) -> bool,
) -> Vec<Course> {
    store
        .library()
        .into_iter()
        .filter(|c| !open.iter().any(|o| o.slug == c.slug))
        .filter(|c| wanted(&c.slug))
        .filter_map(|c| {
            let found = match &c.root {
                None => vec![loader::builtin_course()],
                Some(root) => loader::open_paths(std::slice::from_ref(root)).ok()?.courses,
            };
            found.into_iter().find(|x| x.slug == c.slug)
        })
        .collect()
}

/// Every card due today in the whole library, and the courses to add.
pub(super) fn library_due<Tz: chrono::TimeZone>(
    store: &Store,
    open: &[Arc<Course>],
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> (Vec<Course>, crate::model::DueCards) {
    let added = shelved_due(store, open, days.end_of_day(now));
    let all: Vec<Course> = open
        .iter()
        .map(|c| (**c).clone())
        .chain(added.clone())
        .collect();
    (added, store.due_today(&all, now, days))
}
