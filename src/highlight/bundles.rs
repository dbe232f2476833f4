//! The syntaxes build.rs made (`build/bundles.rs`): an index of every
//! syntax of the one set, read as it is (no syntax decoded to look one
//! up), and each syntax's dump. A code block's syntax is decoded with its
//! closure (the syntaxes it embeds) as a set of their own, kept while
//! the sets loaded stay within a budget.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use syntect::parsing::{Regex, SyntaxSet};

/// A syntax of the set, as a code block's language is looked up by.
pub(super) struct Syntax {
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    /// What a first line it highlights matches (`^#!.*\bbash\b`…).
    first_line: Option<&'static str>,
    /// Its closure, a number into `CLOSURES`.
    closure: usize,
    /// Its place in the whole set, and so in the set of its closure.
    at: usize,
}

include!(concat!(env!("OUT_DIR"), "/syntax_index.rs"));

static DUMP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/syntaxes.bin"));

/// The sets loaded are kept while their dumps add up to no more than this
/// (the whole set's is 0.9 MB); past it, the least recently used go. The
/// newest is always kept: its size was known before it was decoded.
const KEEP_BYTES: usize = 1 << 20;

/// The sets loaded: (closure, size of its dump, set), the most recently
/// used last.
static KEPT: Mutex<Vec<(usize, usize, Arc<SyntaxSet>)>> = Mutex::new(Vec::new());

impl Syntax {
    /// Its place in the set [`load`] gives.
    pub(super) fn at(&self) -> usize {
        self.at
    }
}

/// The set of `syntax`'s closure, loaded or taken from those kept.
pub(super) fn load(syntax: &Syntax) -> Option<Arc<SyntaxSet>> {
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = kept.iter().position(|k| k.0 == syntax.closure) {
        let hit = kept.remove(i);
        let set = Arc::clone(&hit.2);
        kept.push(hit);
        return Some(set);
    }
    let dump = set_of(CLOSURES.get(syntax.closure)?)?;
    let set = Arc::new(syntect::dumps::from_uncompressed_data(&dump).ok()?);
    kept.push((syntax.closure, dump.len(), Arc::clone(&set)));
    while kept.len() > 1 && kept.iter().map(|k| k.1).sum::<usize>() > KEEP_BYTES {
        kept.remove(0);
    }
    Some(set)
}

/// The dump of a set holding `members` (ascending places in the whole
/// set) at their places, and the stub at every other place below the
/// last: syntect's format, bincode 1's of a set, is the number of its
/// syntaxes (eight bytes, little-endian), each syntax, then the number of
/// its paths (none here).
fn set_of(members: &[u16]) -> Option<Vec<u8>> {
    let count = usize::from(*members.last()?) + 1;
    let piece = |(start, end): (usize, usize)| DUMP.get(start..end);
    let stub = piece(STUB)?;
    let mut size = 16 + (count - members.len()) * stub.len();
    for &m in members {
        size += piece(*DUMPS.get(usize::from(m))?)?.len();
    }
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&u64::try_from(count).ok()?.to_le_bytes());
    let mut next = members.iter().map(|&m| usize::from(m)).peekable();
    for (i, &place) in DUMPS.iter().enumerate().take(count) {
        let dump = if next.next_if_eq(&i).is_some() {
            piece(place)?
        } else {
            stub
        };
        out.extend_from_slice(dump);
    }
    out.extend_from_slice(&0u64.to_le_bytes());
    Some(out)
}

/// The syntax whose first-line pattern `line` matches (`#!/bin/bash`,
/// `<?xml …`): syntect's own first, then bat's, the last to match
/// winning in each, as syntect's `find_syntax_by_first_line` does. The
/// patterns are compiled the first time a line is tried.
pub(super) fn by_first_line(line: &str) -> Option<&'static Syntax> {
    static PATTERNS: OnceLock<Vec<(Regex, usize)>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        let (syntects, bats) = SYNTAXES.split_at(SYNTECT_COUNT.min(SYNTAXES.len()));
        let part = |part: &'static [Syntax]| {
            part.iter()
                .rev()
                .filter_map(|s| Some((Regex::new(s.first_line?.to_string()), s.at)))
        };
        part(syntects).chain(part(bats)).collect()
    });
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    patterns
        .iter()
        .find(|(re, _)| re.search(line, 0, line.len(), None))
        .map(|&(_, i)| &SYNTAXES[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::parsing::{ParseState, SyntaxReference};

    /// The whole set the bundles were split from (embedded in the tests
    /// only).
    fn whole() -> SyntaxSet {
        let dump = include_bytes!(concat!(env!("OUT_DIR"), "/set.bin"));
        syntect::dumps::from_uncompressed_data(dump).unwrap()
    }

    /// A few lines that lead many syntaxes into what they embed: a fenced
    /// block (Markdown), tags with a script and a style (HTML and those
    /// built on it), PHP, a heredoc of SQL, a doc comment, a template.
    const SAMPLE: &str = "#!/usr/bin/env bash
<?php echo \"x\"; ?>
<html><head><style>p { color: red; }</style><script>let r = /a+/g;</script></head></html>
```rust
fn main() { let s = \"x\"; }
```
cat <<SQL
select * from t where a = 'b';
SQL
/** @param x a doc comment */ x = `template ${1 + 2}` // end
";

    /// The scope operations of each line of `SAMPLE`.
    fn parsed(syntax: &SyntaxReference, set: &SyntaxSet) -> Vec<String> {
        let mut state = ParseState::new(syntax);
        SAMPLE
            .split_inclusive('\n')
            .map(|line| format!("{:?}", state.parse_line(line, set)))
            .collect()
    }

    #[test]
    fn every_syntax_parses_through_its_bundle_as_through_the_whole_set() {
        let whole = whole();
        assert_eq!(whole.syntaxes().len(), SYNTAXES.len());
        for (i, entry) in SYNTAXES.iter().enumerate() {
            let syntax = &whole.syntaxes()[i];
            assert_eq!((entry.name, entry.at), (syntax.name.as_str(), i));
            let dump = set_of(CLOSURES[entry.closure]).unwrap();
            let bundle: SyntaxSet = syntect::dumps::from_uncompressed_data(&dump).unwrap();
            let own = &bundle.syntaxes()[entry.at];
            assert_eq!(own.name, syntax.name);
            assert_eq!(
                parsed(own, &bundle),
                parsed(syntax, &whole),
                "{}",
                syntax.name
            );
        }
    }

    #[test]
    fn a_closure_holds_only_what_its_syntax_reaches() {
        let closure = |name: &str| -> Vec<&str> {
            let entry = SYNTAXES.iter().find(|s| s.name == name).unwrap();
            let members = CLOSURES[entry.closure].iter();
            members.map(|&m| SYNTAXES[usize::from(m)].name).collect()
        };
        assert_eq!(closure("Rust"), ["Rust"]);
        assert_eq!(closure("TOML"), ["TOML"]);
        let html = closure("HTML");
        for name in ["HTML", "CSS", "JavaScript"] {
            assert!(html.contains(&name), "{html:?}");
        }
        assert!(html.len() < 10, "{html:?}");
    }

    #[test]
    fn loaded_bundles_are_kept_within_their_budget() {
        for entry in &SYNTAXES {
            let set = load(entry).unwrap();
            assert_eq!(set.syntaxes()[entry.at].name, entry.name);
        }
        let kept = KEPT.lock().unwrap();
        let bytes: usize = kept.iter().map(|k| k.1).sum();
        assert!(
            kept.len() == 1 || bytes <= KEEP_BYTES,
            "{} kept, {bytes} bytes",
            kept.len()
        );
    }
}
