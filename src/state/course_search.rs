//! Course-wide search: a prompt and the lessons that match, best first.
//! The index itself is the runtime's; the state knows only how far it
//! has got, and searches what is indexed so far.

use super::{Action, Effect};

/// A matching lesson, as the runtime found it.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseHit {
    /// Index into the open course.
    pub lesson: usize,
    /// Text around the match, on one line, already sanitised.
    pub snippet: String,
    /// Byte ranges of `snippet` where the query matched.
    pub marks: Vec<(usize, usize)>,
    /// The page section (anchor block) of the match.
    pub block: u32,
    /// The first matched word as written there, for the in-page search.
    pub word: String,
    /// Every word of the query is in the lesson's title.
    pub in_title: bool,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct CourseSearch {
    pub query: String,
    pub results: Vec<CourseHit>,
    /// Lessons matched in all (`results` are the best of them).
    pub total: usize,
    pub cursor: usize,
}

/// Most lessons a course search lists: each one's snippet is read from
/// its file, so this bounds the work of a key press.
pub const COURSE_HITS: usize = 50;

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
    /// `None` when the prompt has no use for the key.
    pub fn update(&mut self, a: &Action, fx: &mut Vec<Effect>) -> Option<Searched> {
        match a {
            a @ (Action::Input(_)
            | Action::InputBackspace
            | Action::InputKillLine
            | Action::InputKillWord) => self.edit(fx, |q| {
                super::line_edit::edit_query(q, a);
            }),
            Action::LineDown => {
                let n = self.results.len();
                self.cursor = (self.cursor + 1).min(n.saturating_sub(1));
            }
            Action::LineUp => self.cursor = self.cursor.saturating_sub(1),
            Action::Open => {
                return Some(match self.results.get(self.cursor) {
                    Some(hit) => Searched::Open {
                        lesson: hit.lesson,
                        block: hit.block,
                        word: hit.word.clone(),
                    },
                    None => Searched::Close,
                });
            }
            Action::Back => return Some(Searched::Close),
            _ => return None,
        }
        Some(Searched::Nothing)
    }

    fn edit(&mut self, fx: &mut Vec<Effect>, change: impl FnOnce(&mut String)) {
        let before = self.query.clone();
        change(&mut self.query);
        if self.query != before {
            self.search(fx);
        }
    }

    /// Asks for results of the query as it stands (again as the index
    /// grows: what is indexed so far is searched).
    pub fn search(&mut self, fx: &mut Vec<Effect>) {
        if self.query.trim().is_empty() {
            self.results.clear();
            self.total = 0;
            self.cursor = 0;
        } else {
            fx.push(Effect::CourseSearch(self.query.clone()));
        }
    }

    pub fn results(&mut self, query: &str, hits: Vec<CourseHit>, total: usize) {
        if query == self.query {
            // The same lesson stays chosen as more of the course comes in.
            let chosen = self.results.get(self.cursor).map(|h| h.lesson);
            self.results = hits;
            self.total = total;
            self.cursor = chosen
                .and_then(|l| self.results.iter().position(|h| h.lesson == l))
                .unwrap_or(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_asks_for_results_and_ctrl_u_clears() {
        let mut cs = CourseSearch::default();
        let mut fx = Vec::new();
        for c in "ab cd".chars() {
            cs.update(&Action::Input(c), &mut fx);
        }
        assert_eq!(fx.last(), Some(&Effect::CourseSearch("ab cd".into())));
        cs.update(&Action::InputKillWord, &mut fx);
        assert_eq!(cs.query, "ab ");
        fx.clear();
        cs.update(&Action::InputKillLine, &mut fx);
        assert_eq!(cs.query, "");
        assert!(fx.is_empty());
        // Nothing to delete: nothing asked.
        cs.update(&Action::InputKillWord, &mut fx);
        assert!(fx.is_empty());
    }
}
