//! Footnotes, GitHub alerts and fence info strings.

use super::super::html::{self, Known, Piece};
use super::super::sanitize::{clean, clean_owned};
use super::Builder;
use crate::model::{Block, Run};
use pulldown_cmark::BlockQuoteKind;

#[derive(Default)]
pub(super) struct Notes {
    cited: Vec<String>,
    pub(super) defs: Vec<(String, Vec<Block>)>,
}

impl Notes {
    pub(super) fn number(&mut self, name: &str) -> usize {
        match self.cited.iter().position(|c| c == name) {
            Some(i) => i + 1,
            None => {
                self.cited.push(name.to_string());
                self.cited.len()
            }
        }
    }

    /// The notes as a numbered list after a rule (uncited ones last).
    pub(super) fn blocks(mut self) -> Vec<Block> {
        if self.defs.is_empty() {
            return Vec::new();
        }
        for (name, _) in &self.defs {
            if !self.cited.contains(name) {
                self.cited.push(name.clone());
            }
        }
        let items = self
            .cited
            .iter()
            .map(|name| {
                match self
                    .defs
                    .iter_mut()
                    .find(|(n, b)| n == name && !b.is_empty())
                {
                    Some((_, b)) => std::mem::take(b),
                    None => vec![Block::Paragraph(vec![Run::plain(format!(
                        "(no note named {name})"
                    ))])],
                }
            })
            .collect();
        vec![
            Block::Rule,
            Block::List {
                start: Some(1),
                items,
            },
        ]
    }
}

/// A fence's language is its info string's first word, up to a comma
/// (`rust,ignore`, `{.python}`); mdBook and rustdoc attributes after it
/// become the block's badges (`ignore`, `does not compile`, `edition
/// 2021`); other words (a title, `{.class}`, the playground's `editable`
/// and `noplayground`, which mean nothing in a terminal) are not shown.
pub(super) fn fence(info: &str) -> (Option<String>, Vec<String>) {
    let mut words = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .map(|w| w.trim_matches(|c| c == '{' || c == '}' || c == '.'))
        .filter(|w| !w.is_empty());
    let Some(lang) = words.next().map(clean_owned) else {
        return (None, Vec::new());
    };
    let attrs: Vec<&str> = words
        .filter(|w| {
            matches!(
                *w,
                "ignore"
                    | "no_run"
                    | "should_panic"
                    | "compile_fail"
                    | "does_not_compile"
                    | "test_harness"
                    | "not_desired_behavior"
            ) || w.starts_with("edition")
        })
        .collect();
    let badges = attrs
        .iter()
        .map(|a| {
            let a = a.replace('_', " ");
            // `edition2021` reads as `edition 2021`.
            let a = match a.strip_prefix("edition") {
                Some(year) if !year.is_empty() => format!("edition {year}"),
                _ => a,
            };
            clean_owned(&a)
        })
        .collect();
    (Some(lang), badges)
}

/// HTML, through the safe pass: in a block, its lines stay lines, and a
/// `<pre>` is preformatted text, shown as a code block (its spaces and
/// lines as they are; tags inside it, `<code>` or `<em>`, only dropped).
pub(super) fn html_event(b: &mut Builder, t: &str, block: bool) {
    let mut pieces = Vec::new();
    html::pass(t, &mut b.comment, &mut pieces);
    for p in pieces {
        match (&mut b.pre, p) {
            (None, Piece::Open(Known::Pre, _)) if block => {
                b.flush();
                b.pre = Some(String::new());
            }
            // Decoded entities are cleaned like any code.
            (Some(pre), Piece::Text(s)) => pre.push_str(&clean(&s)),
            (Some(pre), Piece::Newline) => pre.push('\n'),
            (Some(_), Piece::Close(Known::Pre)) => end_pre(b),
            (Some(_), _) => {}
            (None, Piece::Listing(l)) if block => open_listing(b, l),
            (None, Piece::Close(Known::Listing)) if block => {
                b.flush();
                if let Some(caption) = b.listings.pop().filter(|c| !c.is_empty()) {
                    b.top().push(Block::Paragraph(caption));
                }
            }
            (None, p) => b.inline().html(p, block),
        }
    }
}

/// A `<Listing>` shows its file name where it opens, as the Rust book
/// does, and keeps its caption (`Listing 15-14: …`) for where it closes.
fn open_listing(b: &mut Builder, l: html::Listing) {
    b.flush();
    let italic = |text: String| Run {
        text: text.into(),
        italic: true,
        ..Run::default()
    };
    if let Some(file) = l
        .file
        .map(|f| clean_owned(f.trim()))
        .filter(|f| !f.is_empty())
    {
        b.top()
            .push(Block::Paragraph(vec![italic(format!("Filename: {file}"))]));
    }
    let mut caption = Vec::new();
    if let Some(n) = l
        .number
        .map(|n| clean_owned(n.trim()))
        .filter(|n| !n.is_empty())
    {
        caption.push(Run {
            text: format!("Listing {n}").into(),
            bold: true,
            italic: true,
            ..Run::default()
        });
    }
    if let Some(text) = l.caption.filter(|c| !c.trim().is_empty()) {
        if !caption.is_empty() {
            caption.push(italic(": ".into()));
        }
        // A caption is markdown (`code`); one holding a tag is shown as
        // text, so a caption cannot nest listings without end.
        let runs = if text.contains('<') {
            vec![Run::plain(clean_owned(&text))]
        } else {
            super::inline(&text)
        };
        caption.extend(runs.into_iter().map(|r| Run { italic: true, ..r }));
    }
    b.listings.push(caption);
}

/// Ends an HTML block's `<pre>`, if one is open, as a code block.
pub(super) fn end_pre(b: &mut Builder) {
    let Some(text) = b.pre.take() else { return };
    let text = text.strip_prefix('\n').unwrap_or(&text).trim_end();
    if text.trim().is_empty() {
        return;
    }
    b.top().push(Block::code(crate::model::CodeBlock {
        lang: None,
        label: None,
        text: text.to_string(),
        badges: Vec::new(),
    }));
}

/// A GitHub alert's label, the first line of its callout.
pub(super) fn alert(kind: BlockQuoteKind) -> Block {
    let label = match kind {
        BlockQuoteKind::Note => "Note",
        BlockQuoteKind::Tip => "Tip",
        BlockQuoteKind::Important => "Important",
        BlockQuoteKind::Warning => "Warning",
        BlockQuoteKind::Caution => "Caution",
    };
    Block::Paragraph(vec![Run {
        text: label.into(),
        bold: true,
        ..Run::default()
    }])
}

#[cfg(test)]
#[test]
fn fence_attributes_become_badges() {
    let (lang, badges) = fence("rust,editable,ignore,edition2018,should_panic");
    assert_eq!(lang.as_deref(), Some("rust"));
    assert_eq!(badges, ["ignore", "edition 2018", "should panic"]);
    assert_eq!(
        fence("{.python title=x}"),
        (Some("python".into()), Vec::new())
    );
    assert_eq!(fence("  "), (None, Vec::new()));
}
