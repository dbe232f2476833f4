//! Course-wide search: a prompt and the lessons that match, best first.
//! The index itself is the runtime's, searched off the loop: each search
//! asked for carries a generation number, and only the answer to the last
//! one asked is taken, so typing never waits for a search and a late
//! answer never shows over a newer one. The hits come by the index alone;
//! their snippets (a read of the lesson file each) are asked for the hits
//! on screen only, and a hit shows its title until its snippet is in.

use super::{Action, Effect};
use crate::model::{Course, Origin};
use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

/// A matching lesson, as the runtime found it.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseHit {
    /// Index into the open course.
    pub lesson: usize,
    /// Every word of the query is in the lesson's title.
    pub in_title: bool,
    /// Where in the lesson it matched, once read (see [`Snippet`]).
    pub found: Option<Snippet>,
}

/// Where a hit matched, read from its lesson's file.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    /// Text around the match, on one line, already sanitised.
    pub text: String,
    /// Byte ranges of `text` where the query matched.
    pub marks: Vec<(usize, usize)>,
    /// The page section (anchor block) of the match.
    pub block: u32,
    /// The first matched word as written there, for the in-page search.
    pub word: String,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct CourseSearch {
    pub query: String,
    pub results: Vec<CourseHit>,
    /// Lessons matched in all (`results` are the best of them).
    pub total: usize,
    pub cursor: usize,
    /// The number of the last search asked for; answers to any other are
    /// dropped.
    pub generation: u64,
    /// The query `results` answer (it lags `query` while a search runs),
    /// and the generation they came with.
    answered: String,
    shown: u64,
    /// Hits (by lesson) whose snippets were asked for, for `answered`.
    asked: HashSet<usize>,
    /// The course's lessons as last searched: shared with every search
    /// while they stay the same, not copied for each key typed (10,000
    /// paths took 1.2 ms a key).
    origins: Option<Arc<[Origin]>>,
}

/// Most lessons a course search lists (ranked by the index alone; only
/// those on screen have their files read).
pub const COURSE_HITS: usize = 50;

/// Rows of the overlay that one hit takes: its heading and its snippet.
pub const HIT_ROWS: usize = 2;

/// Rows of a `height`-row terminal the overlay lists hits in: all but the
/// header and footer, the box's border, the prompt and the status line.
pub fn list_rows(height: u16) -> usize {
    usize::from(height).saturating_sub(6)
}

pub enum Searched {
    Nothing,
    /// Enter on a hit: open its lesson at the match and find the word.
    Open {
        lesson: usize,
        block: u32,
        word: String,
    },
    Close,
}

impl CourseSearch {
    /// `None` when the prompt has no use for the key. `course`: the open
    /// one; `height`: the terminal's.
    pub fn update(
        &mut self,
        a: &Action,
        course: &Course,
        height: u16,
        fx: &mut Vec<Effect>,
    ) -> Option<Searched> {
        match a {
            a @ (Action::Input(_)
            | Action::InputBackspace
            | Action::InputKillLine
            | Action::InputKillWord) => {
                let before = self.query.clone();
                super::line_edit::edit_query(&mut self.query, a);
                if self.query != before {
                    self.search(course, fx);
                }
            }
            Action::LineDown => {
                let n = self.results.len();
                self.cursor = (self.cursor + 1).min(n.saturating_sub(1));
                self.want_snippets(course, height, fx);
            }
            Action::LineUp => {
                self.cursor = self.cursor.saturating_sub(1);
                self.want_snippets(course, height, fx);
            }
            Action::Open => return Some(self.open()),
            Action::Back => return Some(Searched::Close),
            _ => return None,
        }
        Some(Searched::Nothing)
    }

    /// Enter: the chosen hit at its match, or (its snippet not in yet) at
    /// its start with the query's first word to find.
    fn open(&self) -> Searched {
        let Some(hit) = self.results.get(self.cursor) else {
            return Searched::Close;
        };
        let (block, word) = match &hit.found {
            Some(f) => (f.block, f.word.clone()),
            None => {
                let first = self.query.split_whitespace().next().unwrap_or_default();
                (0, first.trim_matches(['"', '*']).to_string())
            }
        };
        Searched::Open {
            lesson: hit.lesson,
            block,
            word,
        }
    }

    /// Asks for results of the query as it stands (again as the index
    /// grows: what is indexed so far is searched), as a new generation.
    pub fn search(&mut self, course: &Course, fx: &mut Vec<Effect>) {
        self.generation += 1;
        if self.query.trim().is_empty() {
            self.results.clear();
            self.total = 0;
            self.cursor = 0;
            self.answered.clear();
            self.asked.clear();
        } else {
            let same = self.origins.as_deref().is_some_and(|o| {
                o.len() == course.lessons.len()
                    && o.iter()
                        .zip(&course.lessons)
                        .all(|(o, l)| o.same_as(&l.origin))
            });
            if !same {
                self.origins = Some(course.origins().into());
            }
            fx.push(Effect::CourseSearch {
                query: self.query.clone(),
                generation: self.generation,
                origins: self.origins.clone().unwrap_or_default(),
            });
        }
    }

    /// The hits of search `generation`, unless a later one was asked for;
    /// then the snippets of those on screen are asked for.
    pub fn results(
        &mut self,
        generation: u64,
        hits: Vec<CourseHit>,
        total: usize,
        course: &Course,
        height: u16,
        fx: &mut Vec<Effect>,
    ) {
        if generation != self.generation {
            return;
        }
        // The same lesson stays chosen as more of the course comes in, and
        // keeps the snippet it had.
        let chosen = self.results.get(self.cursor).map(|h| h.lesson);
        let same = self.answered == self.query;
        let before = std::mem::replace(&mut self.results, hits);
        if same {
            for hit in &mut self.results {
                hit.found = before
                    .iter()
                    .find(|b| b.lesson == hit.lesson)
                    .and_then(|b| b.found.clone());
            }
        } else {
            self.answered = self.query.clone();
        }
        // Those asked for the hits before are answered for them alone
        // (the runner drops what a new search makes old): asked again.
        self.asked = self
            .results
            .iter()
            .filter(|h| h.found.is_some())
            .map(|h| h.lesson)
            .collect();
        self.shown = generation;
        self.total = total;
        self.cursor = chosen
            .and_then(|l| self.results.iter().position(|h| h.lesson == l))
            .unwrap_or(0);
        self.want_snippets(course, height, fx);
    }

    /// Snippets read for search `generation`: each hit's, or `None` for
    /// one that no longer matches (its file changed), which goes.
    pub fn snippets(&mut self, generation: u64, found: Vec<(usize, Option<Snippet>)>) {
        if generation != self.generation {
            return;
        }
        let chosen = self.results.get(self.cursor).map(|h| h.lesson);
        for (lesson, snippet) in found {
            let Some(at) = self.results.iter().position(|h| h.lesson == lesson) else {
                continue;
            };
            match snippet {
                Some(s) => self.results[at].found = Some(s),
                None => {
                    self.results.remove(at);
                    self.total = self.total.saturating_sub(1);
                }
            }
        }
        self.cursor = chosen
            .and_then(|l| self.results.iter().position(|h| h.lesson == l))
            .unwrap_or(self.cursor)
            .min(self.results.len().saturating_sub(1));
    }

    /// The hits on screen in `rows` rows: the window that keeps the
    /// cursor in view.
    pub fn window(&self, rows: usize) -> Range<usize> {
        let room = rows / HIT_ROWS;
        let first = self.cursor.saturating_sub(room.saturating_sub(1));
        first..(first + room).min(self.results.len()).max(first)
    }

    /// Asks for the snippets of the hits on screen not yet asked for.
    fn want_snippets(&mut self, course: &Course, height: u16, fx: &mut Vec<Effect>) {
        let window = self.window(list_rows(height));
        self.want(window, course, fx);
    }

    /// Asks for the snippets of hits `window` not yet asked for (those on
    /// screen, or all of them for a screen that shows all).
    pub fn want(&mut self, window: Range<usize>, course: &Course, fx: &mut Vec<Effect>) {
        // A newer search is under way: its hits ask for theirs.
        if self.shown != self.generation {
            return;
        }
        let window = window.start.min(self.results.len())..window.end.min(self.results.len());
        let lessons: Vec<_> = self.results[window]
            .iter()
            .filter(|h| h.found.is_none() && !self.asked.contains(&h.lesson))
            .filter_map(|h| Some((h.lesson, course.lessons.get(h.lesson)?.origin.clone())))
            .collect();
        if lessons.is_empty() {
            return;
        }
        self.asked.extend(lessons.iter().map(|l| l.0));
        fx.push(Effect::CourseSnippets {
            query: self.answered.clone(),
            generation: self.generation,
            lessons,
        });
    }
}

/// A course search's hits or snippets, to its overlay if it is open.
pub(super) fn reply(s: &mut super::State, msg: super::Msg, fx: &mut Vec<Effect>) {
    let Some(super::Overlay::CourseSearch(cs)) = &mut s.overlay else {
        return;
    };
    match msg {
        super::Msg::CourseResults {
            generation,
            hits,
            total,
        } => {
            let course = s.library.course();
            cs.results(generation, hits, total, course, s.size.height, fx);
        }
        super::Msg::CourseSnippets { generation, found } => cs.snippets(generation, found),
        _ => {}
    }
}

/// Opens a course search's hit with its block on top and the matched
/// word found from there, so `n`/`N` go on through the lesson.
pub(super) fn open_hit(
    s: &mut super::State,
    lesson: usize,
    block: u32,
    word: String,
    fx: &mut Vec<Effect>,
) {
    let anchor = crate::model::Anchor { block, line: 0 };
    if lesson == s.reader.lesson && s.reader.doc().is_some() {
        let g = s.geometry();
        let line = s.reader.line_of(anchor, &g);
        s.reader.set_top(line, &g);
        s.reader.search_at_top(word, &g);
    } else {
        s.reader.pending.search = Some(word);
        s.reader.pending.anchor = Some(anchor);
        super::open::open(s, lesson, fx);
    }
}

#[cfg(test)]
mod tests;

/// `done` of `total` lessons of course `course` are in the index.
pub(super) fn indexed(
    s: &mut super::State,
    course: usize,
    (done, total): (usize, usize),
    fx: &mut Vec<Effect>,
) {
    if course == s.library.current {
        let complete = done >= total;
        s.library.index_ready = complete;
        s.library.indexing = (!complete).then_some((done, total));
        // What is indexed so far is searched (the runner keeps one
        // search waiting at a time, the latest).
        if let Some(super::Overlay::CourseSearch(cs)) = &mut s.overlay {
            cs.search(s.library.course(), fx);
        }
    }
}
