//! The one syntax set the binary carries: syntect's default syntaxes, then
//! those of bat's set (two-face) whose names syntect's lack. Two whole sets
//! embedded were largely the same grammars twice.
//!
//! bat's syntaxes come out of its set already linked: a reference to a
//! context is a (syntax, context) pair of indices into that set, and the
//! set's builder keeps such pairs as they are. Moved into this set, each
//! pair is renumbered: to the syntax's new place if it was kept, else to
//! the context of the same name in syntect's syntax of the same name
//! (bat's Python in Twig becomes syntect's Python). A syntax of bat's is
//! kept beside syntect's of the same name only when a kept one needs a
//! context that syntect's lacks.

use serde_json::Value;
use syntect::parsing::{SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

/// The set, and how many of its first syntaxes are syntect's (looked in
/// before bat's, as when they were two sets).
pub struct Merged {
    pub set: SyntaxSet,
    pub syntect_count: usize,
}

pub fn merged() -> Merged {
    let mut ours: Vec<SyntaxDefinition> = SyntaxSet::load_defaults_newlines()
        .into_builder()
        .syntaxes()
        .to_vec();
    let bats: Vec<Value> = two_face::syntax::extra_newlines()
        .into_builder()
        .syntaxes()
        .iter()
        .map(|s| serde_json::to_value(s).expect("a syntax serialises"))
        .collect();
    let names: Vec<&str> = bats
        .iter()
        .map(|v| v["name"].as_str().unwrap_or(""))
        .collect();
    let same: Vec<Option<usize>> = names
        .iter()
        .map(|n| ours.iter().position(|s| s.name == *n))
        .collect();
    let kept = kept(&bats, &ours, &same);
    let mut place = vec![None; bats.len()];
    for (new, &old) in kept.iter().enumerate() {
        place[old] = Some(ours.len() + new);
    }
    lend_extensions(&mut ours, &bats, &same, &place);
    let mut builder = SyntaxSetBuilder::new();
    ours.iter().cloned().for_each(|s| builder.add(s));
    for &old in &kept {
        let mut v = bats[old].clone();
        each_pair(&mut v, &mut |syntax, context| {
            if let Some(new) = place[*syntax] {
                *syntax = new;
            } else {
                let ours_i = same[*syntax].expect("a syntax not kept has syntect's twin");
                *context = context_in(&ours[ours_i], context_name(&bats[*syntax], *context))
                    .expect("kept() keeps a syntax whose context syntect's twin lacks");
                *syntax = ours_i;
            }
        });
        builder.add(serde_json::from_value(v).expect("a renumbered syntax deserialises"));
    }
    Merged {
        set: builder.build(),
        syntect_count: ours.len(),
    }
}

/// The file extensions of bat's syntaxes that are not kept, given to
/// syntect's of the same name where no syntax of syntect's claims them as
/// an extension or a name (bat's Bash knows `ash` and `PKGBUILD`, bat's
/// Clojure `cljs`): a block of such a language was highlighted by bat's.
fn lend_extensions(
    ours: &mut [SyntaxDefinition],
    bats: &[Value],
    same: &[Option<usize>],
    place: &[Option<usize>],
) {
    for (i, v) in bats.iter().enumerate().filter(|&(i, _)| place[i].is_none()) {
        let Some(twin) = same[i] else { continue };
        let extensions = v["file_extensions"].as_array().into_iter().flatten();
        for ext in extensions.filter_map(Value::as_str) {
            let claimed = ours.iter().any(|s| {
                s.name.eq_ignore_ascii_case(ext)
                    || s.file_extensions
                        .iter()
                        .any(|e| e.eq_ignore_ascii_case(ext))
            });
            if !claimed {
                ours[twin].file_extensions.push(ext.to_string());
            }
        }
    }
}

/// The indices of bat's syntaxes to keep, in bat's order: those syntect
/// has no syntax of that name for, and those one of them refers to by a
/// context syntect's syntax of that name lacks (bat's HTML for its Email:
/// syntect's HTML has no `tag-generic-attribute-value`).
fn kept(bats: &[Value], ours: &[SyntaxDefinition], same: &[Option<usize>]) -> Vec<usize> {
    let mut keep: Vec<bool> = same.iter().map(Option::is_none).collect();
    loop {
        let mut more = Vec::new();
        for i in (0..bats.len()).filter(|&i| keep[i]) {
            let mut v = bats[i].clone();
            each_pair(&mut v, &mut |syntax, context| {
                let twin = same[*syntax].filter(|_| !keep[*syntax]);
                if let Some(t) = twin {
                    if context_in(&ours[t], context_name(&bats[*syntax], *context)).is_none() {
                        more.push(*syntax);
                    }
                }
            });
        }
        if more.is_empty() {
            return (0..bats.len()).filter(|&i| keep[i]).collect();
        }
        more.into_iter().for_each(|i| keep[i] = true);
    }
}

/// Calls `f` on each (syntax, context) pair in a serialised syntax. The
/// pairs are private to syntect but serialised as objects of those two
/// fields.
pub fn each_pair(v: &mut Value, f: &mut impl FnMut(&mut usize, &mut usize)) {
    match v {
        Value::Object(m) if m.len() == 2 && m.contains_key("syntax_index") => {
            let at = |m: &serde_json::Map<String, Value>, k: &str| {
                m[k].as_u64().expect("an index") as usize
            };
            let (mut syntax, mut context) = (at(m, "syntax_index"), at(m, "context_index"));
            f(&mut syntax, &mut context);
            m["syntax_index"] = syntax.into();
            m["context_index"] = context.into();
        }
        Value::Object(m) => m.values_mut().for_each(|x| each_pair(x, f)),
        Value::Array(a) => a.iter_mut().for_each(|x| each_pair(x, f)),
        _ => {}
    }
}

/// The name of context `index` of a serialised syntax: a built set
/// numbers a syntax's contexts in the order of their names.
fn context_name(syntax: &Value, index: usize) -> &str {
    let mut names: Vec<&str> = syntax["contexts"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    names.sort_unstable();
    names[index]
}

fn context_in(s: &SyntaxDefinition, name: &str) -> Option<usize> {
    let mut names: Vec<&str> = s.contexts.keys().map(String::as_str).collect();
    names.sort_unstable();
    names.iter().position(|n| *n == name)
}
