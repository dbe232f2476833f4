//! mdbook-spec, the Rust Reference's preprocessor. A line `r[rule.id]`
//! alone names the rule the text after it states: lectern shows the id as
//! a small label of its own line, as the Reference shows it in its margin.
//! `> [!EXAMPLE]` and `> [!EDITION-2024]` open boxes, titled "Example"
//! and "2024 Edition differences" (the kinds GitHub alerts know, such as
//! `[!NOTE]`, the markdown pass draws already). A link whose label is a
//! rule id (`[text][items.static]`, `[items.static]`) goes to the chapter
//! that defines the rule, as mdbook-spec defines every id as a link. A
//! ```` ```grammar ```` block is headed "Syntax" ("Lexer" for the lexer's),
//! as mdbook-spec heads it, and drawn as mdbook-spec draws it
//! ([`super::notation`]). Links to the standard library:
//! [`super::std_links`].

use super::fences::{Piece, pieces};
use crate::model::Block;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// What a book's chapters name for links: each rule id, and each grammar
/// production, → the chapter file (relative to `src`) that defines it,
/// the first if more do.
#[derive(Debug, Default, Clone)]
pub struct Rules {
    pub ids: HashMap<String, PathBuf>,
    /// mdbook-spec defines a link `[Name]` (and `[grammar-Name]`) to
    /// every production of the book's grammar, in every chapter.
    pub productions: HashMap<String, PathBuf>,
}

impl FromIterator<(String, PathBuf)> for Rules {
    /// Rule ids only.
    fn from_iter<I: IntoIterator<Item = (String, PathBuf)>>(ids: I) -> Rules {
        Rules {
            ids: ids.into_iter().collect(),
            productions: HashMap::new(),
        }
    }
}

/// The rule `line` defines, if it is a rule line.
pub fn rule_of(line: &str) -> Option<&str> {
    let id = line
        .trim_end_matches('\r')
        .strip_prefix("r[")?
        .strip_suffix(']')?;
    (!id.is_empty() && !id.contains(']')).then_some(id)
}

/// `text` with rule lines as labels, spec admonitions as boxes, grammar
/// blocks drawn, and a link definition for each rule id it names. `dir`:
/// the chapter's folder, relative to `src`; `summary`: whether the
/// chapter is the grammar summary (whose productions have no notes).
pub fn rewrite(text: &str, dir: &Path, rules: &Rules, summary: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Prose(p) => prose(p, &mut out),
            Piece::Fence(f) => match grammar_kind(f.info) {
                Some(kind) => {
                    out.push_str(&format!("{}**{kind}**\n\n", f.indent));
                    let drawn = super::notation::draw(f.body, !summary);
                    for line in drawn.split_inclusive('\n') {
                        out.push_str(f.indent);
                        out.push_str(line);
                    }
                    out.push('\n');
                }
                None => out.push_str(f.raw),
            },
        }
    }
    let named = named_rules(&out, rules);
    if !named.is_empty() {
        out.push('\n');
        for (id, file) in named {
            let to = relative(dir, file);
            out.push_str(&format!("\n[{id}]: <{}#r-{id}>", to.display()));
        }
        out.push('\n');
    }
    productions(&mut out, dir, rules);
    let std = super::std_links::definitions(&out);
    if !std.is_empty() {
        out.push('\n');
        out.push_str(&std);
        out.push('\n');
    }
    out
}

/// The rule labels of `blocks` (the paragraphs [`label`] writes) made
/// labels that a link to `#r-ID`, as mdbook-spec names a rule's place,
/// opens at.
pub fn labels(blocks: &mut [Block], rules: &Rules) {
    for b in blocks {
        if let Some(inner) = b.inner_mut() {
            labels(inner, rules);
            continue;
        }
        let Block::Paragraph(runs) = b else { continue };
        let [run] = runs.as_slice() else { continue };
        let id = run.text.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
        let Some(id) = id.filter(|id| run.italic && rules.ids.contains_key(*id)) else {
            continue;
        };
        *b = Block::Label {
            id: format!("r-{id}").into(),
            text: id.into(),
        };
    }
}

/// What mdbook-spec heads a ```` ```grammar,CATEGORY ```` block with:
/// "Lexer" for the lexer's productions, else "Syntax".
fn grammar_kind(info: &str) -> Option<&'static str> {
    let mut words = info.split(',').map(str::trim);
    (words.next() == Some("grammar")).then(|| {
        if words.any(|w| w == "lexer") {
            "Lexer"
        } else {
            "Syntax"
        }
    })
}

/// The label of rule `id`: its own paragraph, escaped (the id is a link
/// label too).
fn label(id: &str) -> String {
    let id = id.replace('[', "\\[").replace(']', "\\]");
    format!("*\\[{id}\\]*\n\n")
}

fn prose(p: &str, out: &mut String) {
    // A rule over a heading is labelled under it: the page's first
    // heading still opens the page (and goes when it says its title).
    let mut held: Option<&str> = None;
    for line in p.split_inclusive('\n') {
        let heading = line.starts_with('#');
        if let Some(id) = held.take() {
            if heading {
                out.push_str(line);
                out.push('\n');
                out.push_str(&label(id));
                continue;
            }
            out.push_str(&label(id));
        }
        if let Some(id) = rule_of(line.trim_end_matches('\n')) {
            held = Some(id);
        } else if let Some((lead, title)) = admonition(line) {
            out.push_str(&format!("{lead}> **{title}**\n{lead}>\n"));
        } else if let Some(def) = super::std_links::definition_line(line) {
            out.push_str(&def);
        } else {
            out.push_str(line);
        }
    }
    if let Some(id) = held {
        out.push_str(&label(id));
    }
}

/// The box `line` opens (`> [!EXAMPLE]`): its indent and title, for the
/// kinds GitHub alerts do not know.
fn admonition(line: &str) -> Option<(&str, String)> {
    let t = line.trim_start_matches(' ');
    let lead = &line[..line.len() - t.len()];
    let kind = t.strip_prefix("> [!")?.trim_end().strip_suffix(']')?;
    let lower = kind.to_ascii_lowercase();
    if ["note", "tip", "important", "warning", "caution"].contains(&lower.as_str()) {
        return None;
    }
    let title = match lower.strip_prefix("edition-") {
        Some(edition) => format!("{edition} Edition differences"),
        None => {
            let mut c = lower.chars();
            c.next()?.to_uppercase().chain(c).collect()
        }
    };
    Some((lead, title))
}

/// The rules whose ids `text` writes as a link label (`][id]`, `[id]`),
/// each once, sorted.
fn named_rules<'a>(text: &str, rules: &'a Rules) -> Vec<(&'a str, &'a Path)> {
    let mut out: Vec<(&str, &Path)> = bracketed(text)
        .filter_map(|label| rules.ids.get_key_value(label))
        .map(|(id, file)| (id.as_str(), file.as_path()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// What `text` writes between `[` and the next `]`: the labels a link
/// may name (and other bracketed words, which name nothing).
pub(super) fn bracketed(text: &str) -> impl Iterator<Item = &str> {
    text.split('[')
        .skip(1)
        .filter_map(|s| s.split_once(']').map(|(label, _)| label))
}

/// Link definitions for the productions `text` names as a label (`[Name]`,
/// `[grammar-Name]`), as mdbook-spec defines them, unless the chapter
/// or a rule id defines that label first.
fn productions(out: &mut String, dir: &Path, rules: &Rules) {
    let mut named: Vec<(&str, &str, &Path)> = bracketed(out)
        .filter(|label| !rules.ids.contains_key(*label))
        .filter_map(|label| {
            let name = label.strip_prefix("grammar-").unwrap_or(label);
            let (name, file) = rules.productions.get_key_value(name)?;
            Some((label, name.as_str(), file.as_path()))
        })
        .collect();
    named.sort_unstable();
    named.dedup();
    let defs: String = named
        .into_iter()
        .map(|(label, name, file)| {
            let to = relative(dir, file);
            format!("\n[{label}]: <{}#grammar-{name}>", to.display())
        })
        .collect();
    if !defs.is_empty() {
        out.push('\n');
        out.push_str(&defs);
        out.push('\n');
    }
}

/// `file` as a link from the folder `dir` (both relative to `src`).
fn relative(dir: &Path, file: &Path) -> PathBuf {
    fn normal(p: &Path) -> Vec<Component<'_>> {
        p.components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect()
    }
    let (d, f) = (normal(dir), normal(file));
    let same = d.iter().zip(&f).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in same..d.len() {
        out.push("..");
    }
    for c in &f[same..] {
        out.push(c);
    }
    out
}

/// The rules the chapter files `chapters` (relative to `src`) define, as
/// written (what their includes would add is not looked through).
pub fn index<'a>(src: &Path, chapters: impl IntoIterator<Item = &'a Path>) -> Rules {
    let mut rules = Rules::default();
    for rel in chapters {
        let Ok(bytes) = crate::loader::walk::read_regular(&src.join(rel)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let (ids, productions) = names_in(&text);
        for id in ids {
            rules
                .ids
                .entry(id.to_string())
                .or_insert_with(|| rel.to_path_buf());
        }
        for name in productions {
            rules
                .productions
                .entry(name.to_string())
                .or_insert_with(|| rel.to_path_buf());
        }
    }
    rules
}

/// The rules `text` defines and the productions its grammar blocks
/// define (`Name ->` at the start of a line, `@root` or not), in one look
/// at its lines: read for every chapter of a book before the first frame
/// of any. With the fence parser (`pieces`) as a second pass, a Reference
/// chapter's first frame took 1.19x what it took before productions were
/// read; in this one look, 1.13x (`bench/book-first-frame.sh`).
fn names_in(text: &str) -> (Vec<&str>, Vec<&str>) {
    let (mut ids, mut productions) = (Vec::new(), Vec::new());
    // The open fence: its character, its length, whether it is grammar.
    let mut fence: Option<(u8, usize, bool)> = None;
    for line in text.lines() {
        if let Some(id) = rule_of(line) {
            ids.push(id);
            continue;
        }
        let body = line.trim_start().as_bytes();
        let c = body.first().copied().unwrap_or(0);
        if fence.is_none() && c != b'`' && c != b'~' {
            continue;
        }
        let run = body.iter().take_while(|b| **b == c).count();
        match fence {
            None if run >= 3 => {
                let info = std::str::from_utf8(&body[run..]).unwrap_or_default();
                fence = Some((c, run, grammar_kind(info.trim()).is_some()));
            }
            None => {}
            Some((f, n, _)) if c == f && run >= n && body[run..].trim_ascii().is_empty() => {
                fence = None;
            }
            Some((_, _, true)) => productions.extend(production(line)),
            Some(_) => {}
        }
    }
    (ids, productions)
}

/// The production `line` of a grammar block defines, if it starts one.
pub(super) fn production(line: &str) -> Option<&str> {
    let line = line.strip_prefix("@root ").unwrap_or(line);
    let (name, _) = line.split_once(" ->")?;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    (!name.is_empty() && name.chars().all(word)).then_some(name)
}
