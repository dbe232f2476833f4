//! JSON paths (`reader.blocks[3].runs[0].text`) and finding where one
//! starts in the source text, so findings can name a line and column.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonPath(pub Vec<Seg>);

impl JsonPath {
    pub fn key(&self, k: &str) -> JsonPath {
        let mut p = self.clone();
        p.0.push(Seg::Key(k.to_string()));
        p
    }

    pub fn index(&self, i: usize) -> JsonPath {
        let mut p = self.clone();
        p.0.push(Seg::Index(i));
        p
    }

    /// Parses the form printed by `Display` (and by serde_path_to_error).
    pub fn parse(s: &str) -> JsonPath {
        let mut segs = Vec::new();
        for part in s.split('.').filter(|p| !p.is_empty()) {
            let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
            if !key.is_empty() {
                segs.push(Seg::Key(key.to_string()));
            }
            for idx in rest.split('[') {
                if let Ok(i) = idx.trim_end_matches(']').parse() {
                    segs.push(Seg::Index(i));
                }
            }
        }
        JsonPath(segs)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str(".");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of byte offset `at`.
pub fn line_col(src: &[u8], at: usize) -> (usize, usize) {
    let at = at.min(src.len());
    let before = &src[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, col)
}

/// Byte offset where the value at `path` starts, or where the deepest
/// existing ancestor starts when the path leads to a missing field.
pub fn locate(src: &[u8], path: &JsonPath) -> usize {
    let mut s = Scanner { src, pos: 0 };
    s.ws();
    let mut found = s.pos;
    for seg in &path.0 {
        s.ws();
        let here = s.pos;
        let ok = match seg {
            Seg::Key(k) => s.enter_key(k),
            Seg::Index(i) => s.enter_index(*i),
        };
        if !ok {
            return here;
        }
        s.ws();
        found = s.pos;
    }
    found
}

struct Scanner<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Skips a string starting at `pos` (on the quote); returns its raw body.
    fn string(&mut self) -> &[u8] {
        self.pos += 1;
        let start = self.pos;
        while let Some(b) = self.peek() {
            match b {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return &self.src[start..self.pos - 1];
                }
                _ => self.pos += 1,
            }
        }
        &self.src[start.min(self.src.len())..]
    }

    /// Skips one value iteratively, so hostile nesting cannot overflow.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        loop {
            self.ws();
            match self.peek() {
                None => return,
                Some(b'"') => {
                    self.string();
                }
                Some(b'{' | b'[') => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                Some(b'}' | b']') => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                }
                Some(b',' | b':') if depth > 0 => {
                    self.pos += 1;
                    continue;
                }
                Some(_) => {
                    while matches!(self.peek(), Some(b) if !b",:]} \n\r\t".contains(&b)) {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return;
            }
        }
    }

    fn enter_key(&mut self, key: &str) -> bool {
        if self.peek() != Some(b'{') {
            return false;
        }
        self.pos += 1;
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return false;
            }
            let raw = self.string().to_vec();
            self.ws();
            if self.peek() != Some(b':') {
                return false;
            }
            self.pos += 1;
            self.ws();
            if key_matches(&raw, key) {
                return true;
            }
            self.skip_value();
            self.ws();
            if self.peek() != Some(b',') {
                return false;
            }
            self.pos += 1;
        }
    }

    fn enter_index(&mut self, index: usize) -> bool {
        if self.peek() != Some(b'[') {
            return false;
        }
        self.pos += 1;
        for _ in 0..index {
            self.ws();
            self.skip_value();
            self.ws();
            if self.peek() != Some(b',') {
                return false;
            }
            self.pos += 1;
        }
        self.ws();
        !matches!(self.peek(), Some(b']') | None)
    }
}

fn key_matches(raw: &[u8], key: &str) -> bool {
    if !raw.contains(&b'\\') {
        return raw == key.as_bytes();
    }
    let quoted = [b"\"".as_slice(), raw, b"\""].concat();
    serde_json::from_slice::<String>(&quoted).is_ok_and(|k| k == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str =
        "{\n  \"a\": 1,\n  \"b\": {\"c\": [10, {\"d\": \"x\"}]},\n  \"e\\u0041\": true\n}";

    fn at(path: &str) -> (usize, usize) {
        line_col(
            SRC.as_bytes(),
            locate(SRC.as_bytes(), &JsonPath::parse(path)),
        )
    }

    #[test]
    fn finds_nested_values() {
        assert_eq!(at("a"), (2, 8));
        assert_eq!(at("b.c[1].d"), (3, 25));
        assert_eq!(at("b.c[0]"), (3, 15));
        assert_eq!(at("eA"), (4, 14));
    }

    #[test]
    fn missing_paths_stop_at_the_parent() {
        assert_eq!(at("b.zzz"), (3, 8));
        assert_eq!(at("b.c[7]"), (3, 14));
    }

    #[test]
    fn paths_round_trip() {
        for p in ["reader.blocks[3].runs[0].text", "a", "x[0][1].y"] {
            assert_eq!(JsonPath::parse(p).to_string(), p);
        }
        assert_eq!(JsonPath::default().to_string(), ".");
    }

    #[test]
    fn survives_truncated_input() {
        let src = b"{\"a\": [1, {\"b\": \"unterminated";
        let _ = locate(src, &JsonPath::parse("a[1].b.c"));
        let _ = locate(b"", &JsonPath::parse("a"));
    }
}
