//! JSON paths (`reader.blocks[3].runs[0].text`) and finding where one
//! starts in the source text, so findings can name a line and column.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

/// 1-based line and column (in characters) of byte offset `at`. For many
/// offsets in one text, [`line_cols`] is one pass for all of them.
pub fn line_col(src: &[u8], at: usize) -> (usize, usize) {
    line_cols(src, &[at])[0]
}

/// Byte offset where the value at `path` starts, or where the deepest
/// existing ancestor starts when the path leads to a missing field. For
/// many paths in one text, [`locate_all`] is one pass for all of them.
pub fn locate(src: &[u8], path: &JsonPath) -> usize {
    locate_all(src, &[path])[0]
}

/// [`line_col`] of every offset in `at`, in one pass over `src`: lint may
/// locate tens of thousands of findings in one file.
pub fn line_cols(src: &[u8], at: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..at.len()).collect();
    order.sort_unstable_by_key(|&i| at[i]);
    let mut out = vec![(1, 1); at.len()];
    let (mut pos, mut line, mut col) = (0, 1, 1);
    for i in order {
        let target = at[i].min(src.len());
        #[cfg(test)]
        crate::work::add(target.saturating_sub(pos));
        for &b in &src[pos..target] {
            if b == b'\n' {
                line += 1;
                col = 1;
            } else if b & 0xc0 != 0x80 {
                // One character per byte that is not a continuation byte.
                col += 1;
            }
        }
        pos = pos.max(target);
        out[i] = (line, col);
    }
    out
}

/// [`locate`] for every path of `paths`, in one pass over `src`: the paths
/// are merged into a tree, and only values on the way to one of them are
/// looked into; everything else is skipped as it is met.
pub fn locate_all(src: &[u8], paths: &[&JsonPath]) -> Vec<usize> {
    let mut tree = vec![Node::default()];
    for p in paths {
        let mut n = 0;
        for seg in &p.0 {
            n = match tree[n].children.get(seg) {
                Some(&c) => c,
                None => {
                    tree.push(Node::default());
                    let c = tree.len() - 1;
                    tree[n].children.insert(seg.clone(), c);
                    c
                }
            };
        }
    }
    let mut s = Scanner { src, pos: 0 };
    s.ws();
    tree[0].at = Some(s.pos);
    s.visit(&mut tree, 0);
    paths
        .iter()
        .map(|p| {
            let (mut n, mut best) = (0, tree[0].at.unwrap_or(0));
            for seg in &p.0 {
                match tree[n]
                    .children
                    .get(seg)
                    .and_then(|&c| Some((c, tree[c].at?)))
                {
                    Some((c, at)) => (n, best) = (c, at),
                    None => break,
                }
            }
            best
        })
        .collect()
}

/// A step of some path being located, and where its value starts once met.
#[derive(Default)]
struct Node {
    children: std::collections::HashMap<Seg, usize>,
    at: Option<usize>,
}

struct Scanner<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        #[cfg(test)]
        crate::work::add(1);
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

    /// Skips the value at `pos`, recording where the values of `node`'s
    /// children start (the first of a repeated key, as [`locate`] finds).
    /// Recursion follows the paths only, so it is as deep as the longest.
    fn visit(&mut self, tree: &mut [Node], node: usize) {
        let close = match self.peek() {
            Some(b'{') => b'}',
            Some(b'[') => b']',
            _ => return self.skip_value(),
        };
        self.pos += 1;
        let mut index = 0;
        loop {
            self.ws();
            if self.peek() == Some(close) {
                self.pos += 1;
                return;
            }
            let seg = if close == b'}' {
                if self.peek() != Some(b'"') {
                    return;
                }
                let raw = self.string();
                let key = if raw.contains(&b'\\') {
                    let quoted = [b"\"".as_slice(), raw, b"\""].concat();
                    serde_json::from_slice::<String>(&quoted).ok()
                } else {
                    std::str::from_utf8(raw).ok().map(str::to_owned)
                };
                self.ws();
                if self.peek() != Some(b':') {
                    return;
                }
                self.pos += 1;
                self.ws();
                key.map(Seg::Key)
            } else {
                index += 1;
                Some(Seg::Index(index - 1))
            };
            if self.peek().is_none() {
                return;
            }
            let child = seg.and_then(|seg| tree[node].children.get(&seg).copied());
            match child {
                Some(c) if tree[c].at.is_none() => {
                    tree[c].at = Some(self.pos);
                    self.visit(tree, c);
                }
                _ => self.skip_value(),
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b) if b == close => {
                    self.pos += 1;
                    return;
                }
                _ => return,
            }
        }
    }
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
    fn locating_all_at_once_agrees_with_one_at_a_time() {
        // `locate` is `locate_all` of one path: the paths must not disturb
        // each other's walk through the shared tree.
        let src = SRC.to_string();
        let dup = "{\"a\": {\"x\": 1}, \"a\": {\"y\": 2}, \"l\": [[1, 2], {\"k\": [3]}]}";
        for src in [src.as_str(), dup, "", "[1, {\"a\": ", "{\"a\": [1, 2}"] {
            let paths: Vec<JsonPath> = [
                "a",
                "b.c[1].d",
                "b.c[0]",
                "eA",
                "b.zzz",
                "b.c[7]",
                "a.x",
                "a.y",
                "l[0][1]",
                "l[1].k[0]",
                "l[1].k[9]",
                "l.x",
                "a[0]",
                "",
                "zz.top",
            ]
            .iter()
            .map(|p| JsonPath::parse(p))
            .collect();
            let refs: Vec<&JsonPath> = paths.iter().collect();
            let all = locate_all(src.as_bytes(), &refs);
            let one: Vec<usize> = paths.iter().map(|p| locate(src.as_bytes(), p)).collect();
            assert_eq!(all, one, "{src:?}");
            let naive = |at: usize| {
                let before = &src.as_bytes()[..at];
                let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                let start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                (
                    line,
                    String::from_utf8_lossy(&before[start..]).chars().count() + 1,
                )
            };
            let lc: Vec<_> = one.iter().map(|&at| naive(at)).collect();
            assert_eq!(line_cols(src.as_bytes(), &one), lc);
        }
    }

    /// A lesson with `n` blocks, and a finding's path in each.
    fn blocks(n: usize) -> (String, Vec<JsonPath>) {
        let body: Vec<String> = (0..n)
            .map(|i| format!("{{\"type\": \"unknown{i}\", \"text\": \"é{i}\"}}"))
            .collect();
        let src = format!("{{\"reader\": {{\"blocks\": [\n{}\n]}}}}", body.join(",\n"));
        let paths = (0..n)
            .map(|i| JsonPath::parse(&format!("reader.blocks[{i}].type")))
            .collect();
        (src, paths)
    }

    fn steps_to_locate(n: usize) -> usize {
        let (src, paths) = blocks(n);
        let refs: Vec<&JsonPath> = paths.iter().collect();
        crate::work::of(|| {
            let found = line_cols(src.as_bytes(), &locate_all(src.as_bytes(), &refs));
            assert_eq!(found.len(), n);
            assert_eq!(found[n - 1].0, n + 1);
        })
    }

    #[test]
    fn locating_every_finding_is_linear_in_the_findings() {
        let (small, large) = (steps_to_locate(1_000), steps_to_locate(4_000));
        let ratio = large as f64 / small as f64;
        // 4x the findings in a file 4x as long: about 4x the steps (the
        // numbers in the file grow a digit); a scan per finding, as lint
        // once did, is 16x.
        assert!(
            ratio < 5.0,
            "4x the findings took {ratio:.1}x the steps ({small} → {large})"
        );
        // And a few looks per byte of the file, not one pass per finding.
        let (src, _) = blocks(4_000);
        assert!(
            large < 4 * src.len(),
            "{large} steps for {} bytes",
            src.len()
        );
    }

    #[test]
    fn survives_truncated_input() {
        let src = b"{\"a\": [1, {\"b\": \"unterminated";
        let _ = locate(src, &JsonPath::parse("a[1].b.c"));
        let _ = locate(b"", &JsonPath::parse("a"));
    }
}
