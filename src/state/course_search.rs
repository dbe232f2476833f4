//! Course-wide search: a prompt and the lessons that match. The index
//! itself is the runtime's; the state knows only whether it is complete.

use super::{Action, Effect};

#[derive(Debug, Clone, PartialEq)]
pub struct CourseHit {
    pub lesson: usize,
    pub snippet: String,
    pub count: usize,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct CourseSearch {
    pub query: String,
    pub results: Vec<CourseHit>,
    pub cursor: usize,
}

/// Most lessons a course search lists.
pub const COURSE_HITS: usize = 200;

const SNIPPET: usize = 60;

pub enum Searched {
    Nothing,
    /// Enter on a hit: open its lesson and find the query there.
    Open {
        lesson: usize,
        query: String,
    },
    Close,
}

impl CourseSearch {
    /// `None` when the prompt has no use for the key.
    pub fn update(&mut self, a: &Action, ready: bool, fx: &mut Vec<Effect>) -> Option<Searched> {
        match a {
            Action::Input(c) => {
                self.query.push(*c);
                self.search(ready, fx);
            }
            Action::InputBackspace => {
                self.query.pop();
                self.search(ready, fx);
            }
            Action::LineDown => {
                let n = self.results.len();
                self.cursor = (self.cursor + 1).min(n.saturating_sub(1));
            }
            Action::LineUp => self.cursor = self.cursor.saturating_sub(1),
            Action::Open => {
                return Some(match self.results.get(self.cursor) {
                    Some(hit) => Searched::Open {
                        lesson: hit.lesson,
                        query: self.query.trim().to_string(),
                    },
                    None => Searched::Close,
                });
            }
            Action::Back => return Some(Searched::Close),
            _ => return None,
        }
        Some(Searched::Nothing)
    }

    /// Asks for results of the query as it stands (once the index is
    /// complete: it is asked again then).
    pub fn search(&mut self, ready: bool, fx: &mut Vec<Effect>) {
        if self.query.trim().is_empty() {
            self.results.clear();
            self.cursor = 0;
        } else if ready {
            fx.push(Effect::CourseSearch(self.query.clone()));
        }
    }

    pub fn results(&mut self, query: &str, hits: Vec<CourseHit>) {
        if query == self.query {
            self.results = hits;
            self.cursor = 0;
        }
    }
}

fn snippet(text: &str, at: usize, len: usize) -> String {
    let mut start = at.saturating_sub(SNIPPET / 2);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + len + SNIPPET / 2).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.push_str(
        &text[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    );
    if end < text.len() {
        s.push('…');
    }
    s
}

/// Results from (lesson index, lesson text) pairs the index returned:
/// a snippet around the first match and the number of matches.
pub fn course_hits(texts: Vec<(usize, String)>, query: &str) -> Vec<CourseHit> {
    let q = query.trim();
    let mut found = Vec::new();
    texts
        .into_iter()
        .filter_map(|(lesson, text)| {
            found.clear();
            super::reader::find_all(&text, q, &mut found);
            // The index matches any case; smart case may narrow it here.
            let &(s, e) = found.first()?;
            Some(CourseHit {
                lesson,
                snippet: snippet(&text, s, e - s),
                count: found.len(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_respect_char_boundaries() {
        let text = "日本語".repeat(40);
        let s = snippet(&text, 90, 3);
        assert!(s.starts_with('…') && s.ends_with('…'));
    }
}
