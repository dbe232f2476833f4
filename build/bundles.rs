//! The one set cut into its syntaxes, so that a code block decodes its own
//! syntax and those it embeds, not the whole set (issue 31, item 7).
//!
//! A built set is linked: a reference from one syntax to a context of
//! another (an `embed`, an `include` by scope or by name) is a (syntax,
//! context) pair of indices into that set. So each syntax is kept as
//! syntect dumps it, at its place in the whole set, with its closure (the
//! syntaxes it reaches through such pairs); at run time a set of a
//! closure is put together with every other place below its last member
//! held by an empty stand-in (`src/highlight/bundles.rs`): the indices
//! stay those of the whole set, so it highlights as the whole set does,
//! and no syntax is stored twice. (Closures renumbered and built as sets
//! of their own were 4.1 MB against the whole set's 0.9: HTML, JavaScript
//! and CSS once in each of the forty bundles that embed them.)

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use syntect::parsing::{
    Regex, Scope, SyntaxDefinition, SyntaxReference, SyntaxSet, SyntaxSetBuilder,
};

/// A syntax of the set, as the runtime looks for it.
pub struct Entry {
    pub name: String,
    pub file_extensions: Vec<String>,
    pub first_line_match: Option<String>,
    /// Its closure, a number into `Split::closures`.
    pub closure: usize,
}

pub struct Split {
    /// Each syntax as syntect dumps it, in the set's order.
    pub syntaxes: Vec<Vec<u8>>,
    /// What stands at the places of the syntaxes a closure leaves out.
    pub stub: Vec<u8>,
    /// The distinct closures, each ascending.
    pub closures: Vec<Vec<usize>>,
    pub entries: Vec<Entry>,
}

/// `scratch`: a file the dumps are written to on their way (syntect
/// writes an uncompressed dump only to a file).
pub fn split(set: &SyntaxSet, scratch: &Path) -> Split {
    let reaches: Vec<BTreeSet<usize>> = set
        .clone()
        .into_builder()
        .syntaxes()
        .iter()
        .map(|s| referenced(serde_json::to_value(s).expect("a syntax serialises")))
        .collect();
    let mut closure_of: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    let mut closures = Vec::new();
    let mut entries = Vec::new();
    for (i, syntax) in set.syntaxes().iter().enumerate() {
        let members = closure(i, &reaches);
        let closure = *closure_of.entry(members.clone()).or_insert_with(|| {
            closures.push(members);
            closures.len() - 1
        });
        entries.push(Entry {
            name: syntax.name.clone(),
            file_extensions: syntax.file_extensions.clone(),
            // Compiled on first use at run time, where one that fails
            // would panic: such a pattern is left out.
            first_line_match: syntax
                .first_line_match
                .clone()
                .filter(|p| Regex::try_compile(p).is_none()),
            closure,
        });
    }
    let syntaxes = set
        .syntaxes()
        .iter()
        .map(|s| dump(&without_variables(s), scratch))
        .collect();
    Split {
        syntaxes,
        stub: dump(&stub(), scratch),
        closures,
        entries,
    }
}

/// The syntaxes a linked syntax refers to (itself included).
fn referenced(mut def: Value) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    super::syntaxes::each_pair(&mut def, &mut |syntax, _| {
        out.insert(*syntax);
    });
    out
}

/// Syntax `i` and every syntax it reaches, in the set's order.
fn closure(i: usize, reaches: &[BTreeSet<usize>]) -> Vec<usize> {
    let mut seen = BTreeSet::from([i]);
    let mut todo = vec![i];
    while let Some(at) = todo.pop() {
        for &next in &reaches[at] {
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    seen.into_iter().collect()
}

/// A syntax without its variables: they were substituted into its
/// patterns when it was read, and a built set keeps them only to be
/// built again. (Its contexts are private to syntect: the syntax goes
/// through JSON to be changed.)
fn without_variables(s: &SyntaxReference) -> SyntaxReference {
    let mut v = serde_json::to_value(s).expect("a syntax serialises");
    v["variables"] = Value::Object(Default::default());
    serde_json::from_value(v).expect("a syntax deserialises")
}

/// A hidden syntax of no name, scope or contexts, built as syntect builds
/// any: were a context of it asked for, syntect would find none and say
/// so (an empty dump of its contexts would not decode: a panic).
fn stub() -> SyntaxReference {
    let mut builder = SyntaxSetBuilder::new();
    builder.add(SyntaxDefinition {
        name: String::new(),
        file_extensions: Vec::new(),
        scope: Scope::new("").expect("the empty scope"),
        first_line_match: None,
        hidden: true,
        variables: HashMap::new(),
        contexts: HashMap::new(),
    });
    builder.build().syntaxes()[0].clone()
}

fn dump(s: &SyntaxReference, scratch: &Path) -> Vec<u8> {
    syntect::dumps::dump_to_uncompressed_file(s, scratch).expect("a syntax is written");
    std::fs::read(scratch).expect("a syntax is read back")
}
