//! A course folder's whole listing, read in the background after the
//! first frame was drawn from a first look at it, its count sent as it
//! goes, then the courses in place of the outline.

use super::{Reply, Runner, Sink, Work};
use crate::index::Index;
use crate::loader::Progress;
use crate::state::Msg;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Files read between two counts sent: often enough to see it move,
/// seldom enough that the loop does not redraw for every file.
const EVERY: usize = 1000;

impl Runner {
    pub(super) fn read_listing(&mut self, dir: PathBuf, total: usize) {
        match &self.work {
            Work::Threads(sink) => {
                let sink = Arc::clone(sink);
                super::spawn(move || listing(dir, total, &sink));
            }
            Work::Inline => {
                let out = Arc::new(Mutex::new(Vec::new()));
                let into = Arc::clone(&out);
                let sink: Sink = Arc::new(move |r| {
                    into.lock().unwrap_or_else(|p| p.into_inner()).push(r);
                    true
                });
                listing(dir, total, &sink);
                let replies = std::mem::take(&mut *out.lock().unwrap_or_else(|p| p.into_inner()));
                self.inline.extend(replies);
            }
        }
    }
}

/// Reads `dir`'s listing through the index in the cache directory (which
/// keeps it for the next start), telling `sink` how far it has got of
/// `total` files.
fn listing(dir: PathBuf, total: usize, sink: &Sink) {
    let progress = Progress::new(|done| {
        if done.is_multiple_of(EVERY) {
            sink(Reply::Msg(Msg::Reading { done, total }));
        }
    });
    let mut index = Index::open(crate::index::cache_dir().as_deref());
    let msg = match index.courses_with_progress(&dir, &progress) {
        Ok(courses) => Msg::CourseRefreshed(dir, courses),
        Err(e) => Msg::Notice(format!("The course could not be read whole: {e}")),
    };
    sink(Reply::Msg(msg));
}
