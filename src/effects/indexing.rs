//! The course index's work: the lessons whose text is stale, read in
//! the background in chunks, but the open one, whose text is taken from
//! its page when its file is as it was read (see
//! [`ReadStamp`](crate::loader::ReadStamp)).

use super::{INDEX_CHUNK, Reply, Runner};
use crate::index::Extract;
use crate::model::Origin;
use crate::state::{Msg, PageText};

impl Runner {
    /// Course `course`'s lessons at `origins` indexed where stale; the
    /// open one's text taken from `page` if that is still as it was read.
    pub(super) fn build_index(
        &mut self,
        course: usize,
        origins: &[Origin],
        page: Option<PageText>,
    ) -> Option<Msg> {
        let mut stale = self.index.stale(origins);
        let open = page.filter(|p| stale.contains(p.read.origin()));
        let text = open.and_then(|p| {
            let text = crate::index::extract_read(&p.read, &p.lesson)?;
            Some((p.read.origin().clone(), text))
        });
        if let Some((origin, open)) = text {
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
