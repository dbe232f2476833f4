//! The check question, from the reader tree (runs, tempting explanations,
//! display order) or the plain top-level `check`.

use super::super::node::{Node, R};
use super::super::path::JsonPath;
use super::super::raw::{self, text};
use super::blocks::runs;
use super::{Cx, typed};
use crate::model::{Check, CheckKind, CheckOption};

/// A plain check's strings are markdown, like the body they follow.
fn inline(text: &str) -> Vec<crate::model::Run> {
    super::super::markdown::inline(text)
}

pub(super) fn rich(n: &Node, cx: &mut Cx) -> R<Check> {
    n.obj()?;
    let question = runs(&n.req("question", "the question as runs")?, cx)?;
    let mut options = Vec::new();
    for o in n.req("options", "an array of options")?.arr()? {
        o.obj()?;
        options.push(CheckOption {
            text: runs(&o.req("text", "the option's text as runs")?, cx)?,
            correct: o.opt_bool("correct")?.unwrap_or(false),
            tempting: o
                .get("tempting")
                .map(|t| runs(&t, cx))
                .transpose()?
                .filter(|r| !r.is_empty()),
            body: Vec::new(),
        });
    }
    let order = order(n, options.len(), cx);
    let why = n
        .get("why")
        .map(|w| runs(&w, cx))
        .transpose()?
        .filter(|r| !r.is_empty())
        .map(|r| vec![crate::model::Block::Paragraph(r)]);
    Ok(Check {
        id: String::new(),
        kind: choice_kind(&options),
        anchor: None,
        body: Vec::new(),
        question,
        options,
        order,
        why,
    })
}

/// The file's display order when it is a permutation of the `len`
/// options, else file order (with a warning).
fn order(n: &Node, len: usize, cx: &mut Cx) -> Vec<usize> {
    let identity: Vec<usize> = (0..len).collect();
    let Some(o) = n.get("order") else {
        return identity;
    };
    let given: Option<Vec<usize>> =
        o.v.as_array()
            .and_then(|a| a.iter().map(|x| x.as_u64().map(|x| x as usize)).collect());
    match given {
        Some(g) if Check::is_permutation(&g, len) => g,
        _ => {
            cx.warn(
                &o.path(),
                "`order` is not a permutation of the option indices: file order is used",
            );
            identity
        }
    }
}

pub(super) fn plain(n: &Node, cx: &mut Cx) -> R<Check> {
    let c: raw::PlainCheck = typed(n)?;
    ignored(n, &["question", "options", "why"], cx);
    if let Some(options) = n.get("options") {
        for o in options.arr()? {
            ignored(&o, &["text", "correct", "tempting"], cx);
        }
    }
    let options: Vec<CheckOption> = c
        .options
        .into_iter()
        .map(|o| CheckOption {
            text: inline(&o.text.0),
            correct: o.correct.unwrap_or(false),
            tempting: text(o.tempting).map(|t| inline(&t)),
            body: Vec::new(),
        })
        .collect();
    Ok(Check {
        id: String::new(),
        kind: choice_kind(&options),
        anchor: None,
        body: Vec::new(),
        question: inline(&c.question.0),
        order: (0..options.len()).collect(),
        options,
        why: text(c.why).map(|t| vec![crate::model::Block::Paragraph(inline(&t))]),
    })
}

/// Fields a plain check does not read are named, not silently dropped.
fn ignored(n: &Node, known: &[&str], cx: &mut Cx) {
    let Some(map) = n.v.as_object() else { return };
    for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
        cx.warn(
            &n.path().key(key),
            format!("`{key}` is not read here: it is ignored"),
        );
    }
}

/// A check needs exactly one right option; `at` is where its options are.
pub(super) fn validate(c: &Check, at: &JsonPath, cx: &mut Cx) {
    match c.options.iter().filter(|o| o.correct).count() {
        _ if c.options.is_empty() => cx.error(at, "the check has no options"),
        0 => cx.error(at, "no option is marked `correct: true`"),
        1 => {}
        // The reader's rule, said as what it does (`choice_kind`): the
        // format asks for one, and the check asks for every right one.
        n => cx.warn(
            at,
            format!(
                "{n} options are marked `correct: true`: the reader asks for all {n} \
                 (several answers); the format expects exactly one"
            ),
        ),
    }
    for (i, o) in c.options.iter().enumerate() {
        let said = o
            .tempting
            .as_ref()
            .is_some_and(|t| !crate::model::runs_text(t).trim().is_empty());
        if !o.correct && !said {
            cx.warn(
                &at.index(i),
                format!(
                    "option {} is wrong and has no `tempting`: a learner who picks it is not told why it tempts",
                    i + 1
                ),
            );
        }
    }
}

/// A JSON check with several right options asks for all of them.
fn choice_kind(options: &[CheckOption]) -> CheckKind {
    CheckKind::Choice {
        multi: options.iter().filter(|o| o.correct).count() > 1,
    }
}
