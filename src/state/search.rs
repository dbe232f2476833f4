//! Search: incremental within the open lesson, and across the course
//! through an index of each lesson's text.

use super::Doc;

/// A match: page line, byte range within that line's text.
pub type Hit = (usize, usize, usize);

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Search {
    pub query: String,
    pub hits: Vec<Hit>,
    /// Index into `hits` of the current match.
    pub current: Option<usize>,
}

/// Smart case, as in less -i and vim: a query with capitals is exact.
fn find_all(hay: &str, needle: &str, out: &mut Vec<(usize, usize)>) {
    if needle.is_empty() {
        return;
    }
    let insensitive = !needle.chars().any(char::is_uppercase) && needle.is_ascii();
    if insensitive {
        let h = hay.as_bytes();
        let n = needle.as_bytes();
        if n.len() > h.len() {
            return;
        }
        let mut i = 0;
        while i + n.len() <= h.len() {
            if h[i..i + n.len()].eq_ignore_ascii_case(n) && hay.is_char_boundary(i) {
                out.push((i, i + n.len()));
                i += n.len();
            } else {
                i += 1;
            }
        }
    } else {
        out.extend(hay.match_indices(needle).map(|(i, m)| (i, i + m.len())));
    }
}

impl Search {
    pub fn active(&self) -> bool {
        !self.query.is_empty()
    }

    /// Recomputes matches over every line (after typing or re-wrapping).
    pub fn refresh(&mut self, doc: Option<&Doc>) {
        self.hits.clear();
        let Some(doc) = doc else { return };
        if self.query.is_empty() {
            self.current = None;
            return;
        }
        let mut found = Vec::new();
        for i in 0..doc.total() {
            let Some(line) = doc.line(i) else { break };
            found.clear();
            find_all(&line.text(), &self.query, &mut found);
            self.hits.extend(found.iter().map(|&(s, e)| (i, s, e)));
        }
        self.current = self.current.filter(|&c| c < self.hits.len());
    }

    /// First match at or below line `from`, wrapping around.
    pub fn first_from(&mut self, from: usize) -> Option<usize> {
        if self.hits.is_empty() {
            self.current = None;
            return None;
        }
        let i = self.hits.iter().position(|h| h.0 >= from).unwrap_or(0);
        self.current = Some(i);
        Some(self.hits[i].0)
    }

    pub fn step(&mut self, forward: bool) -> Option<usize> {
        if self.hits.is_empty() {
            return None;
        }
        let n = self.hits.len();
        let i = match (self.current, forward) {
            (None, _) => 0,
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
        };
        self.current = Some(i);
        Some(self.hits[i].0)
    }

    /// Matches on one line: (start, end, is_current).
    pub fn on_line(&self, line: usize) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        let start = self.hits.partition_point(|h| h.0 < line);
        self.hits[start..]
            .iter()
            .enumerate()
            .take_while(move |(_, h)| h.0 == line)
            .map(move |(k, h)| (h.1, h.2, self.current == Some(start + k)))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CourseHit {
    pub lesson: usize,
    pub snippet: String,
    pub count: usize,
}

/// The course-wide search: a prompt and its results. The index itself is
/// the runtime's (a database); the state only knows whether it is ready.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CourseSearch {
    pub query: String,
    pub results: Vec<CourseHit>,
    pub cursor: usize,
    pub ready: bool,
}

const SNIPPET: usize = 60;

/// Most lessons a course search lists.
pub const COURSE_HITS: usize = 200;

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
            find_all(&text, q, &mut found);
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
    fn smart_case() {
        let mut v = Vec::new();
        find_all("Foo foo FOO", "foo", &mut v);
        assert_eq!(v.len(), 3);
        v.clear();
        find_all("Foo foo FOO", "Foo", &mut v);
        assert_eq!(v, [(0, 3)]);
        v.clear();
        find_all("日本語 日本", "日本", &mut v);
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn snippets_respect_char_boundaries() {
        let text = "日本語".repeat(40);
        let s = snippet(&text, 90, 3);
        assert!(s.starts_with('…') && s.ends_with('…'));
    }
}
