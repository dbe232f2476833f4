//! Incremental search within the open lesson, smart-case as in less -i
//! and vim.

use super::doc::Doc;

/// A match: a line of the page and a byte range of that line's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Search {
    pub query: String,
    pub hits: Vec<Match>,
    /// Index into `hits` of the current match.
    pub current: Option<usize>,
}

/// Byte ranges of `needle` in `hay`. A query with capitals is exact;
/// otherwise ASCII case is ignored.
pub fn find_all(hay: &str, needle: &str, out: &mut Vec<(usize, usize)>) {
    if needle.is_empty() {
        return;
    }
    let insensitive = !needle.chars().any(char::is_uppercase) && needle.is_ascii();
    if !insensitive {
        out.extend(hay.match_indices(needle).map(|(i, m)| (i, i + m.len())));
        return;
    }
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    let mut i = 0;
    while i + n.len() <= h.len() {
        if h[i..i + n.len()].eq_ignore_ascii_case(n) && hay.is_char_boundary(i) {
            out.push((i, i + n.len()));
            i += n.len();
        } else {
            i += 1;
        }
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
        for line in 0..doc.total() {
            let Some(text) = doc.line_text(line) else {
                break;
            };
            found.clear();
            find_all(&text, &self.query, &mut found);
            self.hits
                .extend(found.iter().map(|&(start, end)| Match { line, start, end }));
        }
        self.current = self.current.filter(|&c| c < self.hits.len());
    }

    /// First match at or below line `from`, wrapping around.
    pub fn first_from(&mut self, from: usize) -> Option<usize> {
        if self.hits.is_empty() {
            self.current = None;
            return None;
        }
        let i = self.hits.iter().position(|h| h.line >= from).unwrap_or(0);
        self.current = Some(i);
        Some(self.hits[i].line)
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
        Some(self.hits[i].line)
    }

    /// Matches on one line: (start, end, is_current).
    pub fn on_line(&self, line: usize) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        let start = self.hits.partition_point(|h| h.line < line);
        self.hits[start..]
            .iter()
            .enumerate()
            .take_while(move |(_, h)| h.line == line)
            .map(move |(k, h)| (h.start, h.end, self.current == Some(start + k)))
    }
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
}
