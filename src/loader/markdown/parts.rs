//! Footnotes, GitHub alerts and fence info strings.

use super::super::sanitize::clean_owned;
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
