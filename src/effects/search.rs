//! Course search off the loop: a worker thread on a connection of its own
//! to the index file, so a key is echoed at once and its hits follow.
//! One search waits at a time, the latest: a newer one (a key typed, an
//! index chunk stored) replaces it, and the snippets asked for older hits
//! go with it. SQLite's WAL lets the worker read while the runner stores
//! index chunks on its own connection. An index in memory (tests, or a
//! cache that cannot be a file) is searched on the runner's thread, as is
//! everything when work runs inline.

use super::{Reply, Runner, Sink, Work};
use crate::index::{Field, Index, Query};
use crate::model::Origin;
use crate::state::{COURSE_HITS, CourseHit, Msg, Snippet};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};

/// A search's work, as the state asked for it.
pub enum Job {
    /// The best hits for `query` among `origins`, by the index alone.
    Search {
        query: String,
        generation: u64,
        origins: Arc<[Origin]>,
    },
    /// The snippets of some hits of search `generation`.
    Snippets {
        query: String,
        generation: u64,
        lessons: Vec<(usize, Origin)>,
    },
}

/// Where course searches run.
pub struct Searcher {
    /// `None`: on the runner's thread, on its index.
    worker: Option<Arc<Shared>>,
}

#[derive(Default)]
struct Shared {
    jobs: Mutex<Jobs>,
    wake: Condvar,
}

#[derive(Default)]
struct Jobs {
    search: Option<Job>,
    snippets: VecDeque<Job>,
    /// The searcher is gone: the worker ends.
    closed: bool,
}

impl Searcher {
    /// Searches on the caller's thread.
    pub fn inline() -> Searcher {
        Searcher { worker: None }
    }

    /// A worker on its own connection to the index in `dir`, answering
    /// through `sink`.
    pub fn worker(dir: PathBuf, sink: Sink) -> Searcher {
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        // Normal priority: the screen waits for its answers.
        super::spawn_awaited(move || work(&theirs, &dir, &sink));
        Searcher {
            worker: Some(shared),
        }
    }

    /// Does `job`: inline on `index`, its answer returned; or on the
    /// worker, its answer sent later (`None` now).
    pub fn ask(&self, job: Job, index: &mut Index) -> Option<Msg> {
        let Some(shared) = &self.worker else {
            return Some(answer(index, job));
        };
        let mut jobs = shared.jobs.lock().unwrap_or_else(|e| e.into_inner());
        match job {
            Job::Search { .. } => {
                // Latest wins: the one waiting and older hits' snippets go.
                jobs.search = Some(job);
                jobs.snippets.clear();
            }
            Job::Snippets { .. } => jobs.snippets.push_back(job),
        }
        shared.wake.notify_one();
        None
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        if let Some(shared) = &self.worker {
            shared.jobs.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
            shared.wake.notify_one();
        }
    }
}

impl Runner {
    /// A course search's work, on the worker when the index is a file it
    /// can open too (its answer comes later), else here.
    pub(super) fn course_search(&mut self, job: Job) -> Option<Msg> {
        let searcher = self.searcher.get_or_insert_with(|| match &self.work {
            Work::Threads(sink) => match self.index.shared_dir() {
                Some(dir) => Searcher::worker(dir, Arc::clone(sink)),
                None => Searcher::inline(),
            },
            Work::Inline => Searcher::inline(),
        });
        searcher.ask(job, &mut self.index)
    }
}

/// The worker: jobs answered in turn, a search before snippets, until the
/// searcher or the reader is gone.
fn work(shared: &Shared, dir: &std::path::Path, sink: &Sink) {
    let mut index = Index::open(Some(dir));
    loop {
        let job = {
            let mut jobs = shared.jobs.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if jobs.closed {
                    return;
                }
                if let Some(job) = jobs.search.take().or_else(|| jobs.snippets.pop_front()) {
                    break job;
                }
                jobs = shared.wake.wait(jobs).unwrap_or_else(|e| e.into_inner());
            }
        };
        if !sink(Reply::Msg(answer(&mut index, job))) {
            return;
        }
    }
}

/// The answer to `job`, from `index`.
pub fn answer(index: &mut Index, job: Job) -> Msg {
    match job {
        Job::Search {
            query,
            generation,
            origins,
        } => {
            let ranking = index.rank_only(&origins, &Query::parse(&query, true), COURSE_HITS);
            let hits = ranking
                .hits
                .into_iter()
                .map(|(lesson, field)| CourseHit {
                    lesson,
                    in_title: field == Field::Title,
                    found: None,
                })
                .collect();
            Msg::CourseResults {
                generation,
                hits,
                total: ranking.total,
            }
        }
        Job::Snippets {
            query,
            generation,
            lessons,
        } => {
            let q = Query::parse(&query, true);
            let found = lessons
                .into_iter()
                .map(|(lesson, origin)| (lesson, snippet(index, &origin, &q)))
                .collect();
            Msg::CourseSnippets { generation, found }
        }
    }
}

/// A hit's snippet, read from its file.
fn snippet(index: &mut Index, origin: &Origin, q: &Query) -> Option<Snippet> {
    let hit = index.snippet(origin, q)?;
    Some(Snippet {
        text: hit.snippet,
        marks: hit.marks,
        block: hit.block,
        word: hit.word,
    })
}
