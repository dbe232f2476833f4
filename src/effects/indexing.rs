//! The course index's work: the lessons whose text is stale, read in
//! the background in chunks, but the open one, whose text is taken from
//! its page when its file is as it was read (see
//! [`ReadStamp`](crate::loader::ReadStamp)).

use super::{INDEX_CHUNK, Reply, Runner};
use crate::index::Extract;
use crate::model::Origin;
use crate::state::{Msg, State};

impl Runner {
    pub(super) fn build_index(&mut self, s: &State) -> Option<Msg> {
        let course = s.library.current;
        let mut stale = self.index.stale(&s.course().origins());
        if let Some((origin, open)) = self.open_text(s, &stale) {
            stale.retain(|o| *o != origin);
            self.indexed_from_page += 1;
            // A cache that cannot be written just means a slower search.
            let _ = self.index.insert(&[open]);
        }
        let total = stale.len();
        if total == 0 {
            return Some(Msg::Indexed {
                course,
                done: 0,
                total: 0,
            });
        }
        // Parsing every lesson is the slow part: in the background, in
        // chunks stored between key presses.
        self.background(move |send| {
            crate::loader::books_once(|| index_chunks(&stale, course, total, send))
        });
        Some(Msg::Indexed {
            course,
            done: 0,
            total,
        })
    }

    /// The open lesson's text for the index, taken from the page (on this
    /// thread: it is a walk over the model, far less than a parse) if the
    /// index wants it and its file is as it was read.
    fn open_text(&self, s: &State, stale: &[Origin]) -> Option<(Origin, Extract)> {
        let read = self.read.as_ref()?;
        let doc = s.reader.doc()?;
        let entry = s.course().lessons.get(s.reader.lesson)?;
        // The page shows the lesson read (not one kept from before it).
        let shown = entry.origin == *read.origin() && doc.lesson.meta.slug == entry.slug;
        if !shown || !stale.contains(read.origin()) {
            return None;
        }
        Some((
            entry.origin.clone(),
            crate::index::extract_read(read, &doc.lesson)?,
        ))
    }
}

/// Each chunk of `stale` read and sent on, until the reader stops
/// listening.
fn index_chunks(stale: &[Origin], course: usize, total: usize, send: &dyn Fn(Reply) -> bool) {
    let mut done = 0;
    for chunk in stale.chunks(INDEX_CHUNK) {
        let texts: Vec<Extract> = chunk.iter().map(crate::index::extract).collect();
        done += texts.len();
        let reply = Reply::IndexChunk {
            course,
            texts,
            done,
            total,
        };
        if !send(reply) {
            return;
        }
    }
}
