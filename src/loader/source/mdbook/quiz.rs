//! mdbook-quiz files → checks. The schema is mdbook-quiz's own
//! (crates/mdbook-quiz-schema): a `[[questions]]` array of
//! `type = "MultipleChoice" | "ShortAnswer" | "Tracing"` tables with
//! `prompt.*`, `answer.*`, an optional `context` (the explanation, shown
//! once answered) and `id`, and an optional `[multipart]` table of
//! context shared by questions naming it. Options are shown as
//! mdbook-quiz shows them: `answerIndex` puts the answer there among the
//! distractors in file order, `sortAnswers` sorts by text, and otherwise
//! they are shuffled, here with a seed from the question's id so the
//! order is the same every time the chapter is opened.

use super::super::super::markdown as md;
use super::super::super::sanitize::clean_owned;
use super::aquascope;

mod marks;
use crate::model::{Block, Check, CheckKind, CheckOption, Run};
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    questions: Vec<toml::Spanned<toml::Table>>,
    #[serde(default)]
    multipart: HashMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Common {
    id: Option<String>,
    context: Option<String>,
    multipart: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChoicePrompt {
    prompt: String,
    #[serde(default)]
    distractors: Vec<String>,
    answer_index: Option<usize>,
    sort_answers: Option<bool>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct ChoiceAnswer {
    answer: OneOrMany,
}

#[derive(Deserialize)]
struct Choice {
    prompt: ChoicePrompt,
    answer: ChoiceAnswer,
}

#[derive(Deserialize)]
struct Text {
    prompt: String,
}

#[derive(Deserialize)]
struct ShortAnswer {
    answer: String,
    #[serde(default)]
    alternatives: Vec<String>,
}

#[derive(Deserialize)]
struct Short {
    prompt: Text,
    answer: ShortAnswer,
}

#[derive(Deserialize)]
struct Program {
    program: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TraceAnswer {
    does_compile: bool,
    stdout: Option<String>,
    line_number: Option<u32>,
}

#[derive(Deserialize)]
struct Tracing {
    prompt: Program,
    answer: TraceAnswer,
}

/// What a quiz file holds: its checks, and notes for the page and for
/// lint, each at a byte offset of the file.
#[derive(Debug, Default)]
pub struct Quiz {
    pub checks: Vec<Check>,
    /// Shown where the quiz stands: what could not be made a check.
    pub notes: Vec<String>,
    /// (byte offset, is an error, message), for lint.
    pub problems: Vec<(usize, bool, String)>,
}

/// The line a tracing question asks, with the program in its kind.
pub const TRACING_QUESTION: &str = "Does this program compile? If it does, what does it print? If not, on which line is the error?";

/// The quiz in `text`; `name` (the path the directive gives) makes the
/// ids of questions that have none.
pub fn parse(text: &str, name: &str) -> Result<Quiz, (usize, String)> {
    let file: File = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |r| r.start);
        (at, e.message().trim().replace('\n', " "))
    })?;
    let mut quiz = Quiz::default();
    for (i, q) in file.questions.into_iter().enumerate() {
        let at = q.span().start;
        let table = q.into_inner();
        let kind = table
            .get("type")
            .and_then(|t| t.as_str())
            .unwrap_or("")
            .to_string();
        match question(&kind, table, &file.multipart, &format!("{name}#{i}")) {
            Ok(check) => {
                if let Some(why) = no_right_answer(&check) {
                    quiz.problems
                        .push((at, true, format!("question {}: {why}", i + 1)));
                }
                quiz.checks.push(check);
            }
            Err((known, why, text)) => {
                quiz.problems
                    .push((at, known, format!("question {}: {why}", i + 1)));
                quiz.notes
                    .push(format!("Question {} ({why}): {text}", i + 1));
            }
        }
    }
    Ok(quiz)
}

/// What makes a question unanswerable, if anything does.
fn no_right_answer(c: &Check) -> Option<&'static str> {
    match &c.kind {
        CheckKind::Choice { .. } if !c.options.iter().any(|o| o.correct) => {
            Some("no right answer (`answer.answer` is empty)")
        }
        CheckKind::Short { accepted } if accepted.iter().all(|a| a.trim().is_empty()) => {
            Some("no right answer (`answer.answer` is empty)")
        }
        CheckKind::Tracing {
            compiles: true,
            stdout: None,
            ..
        } => Some("no right answer (`doesCompile = true` but no `stdout`)"),
        _ => None,
    }
}

type Refusal = (bool, String, String);

fn question(
    kind: &str,
    table: toml::Table,
    multipart: &HashMap<String, String>,
    fallback_id: &str,
) -> Result<Check, Refusal> {
    let text = prompt_text(&table);
    let value = toml::Value::Table(table);
    let refuse = |known: bool, why: String| (known, why, text.clone());
    let common: Common = value
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| refuse(true, one_line(e.message())))?;
    let id = common
        .id
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| fallback_id.into());
    let shared = common.multipart.as_ref().and_then(|k| multipart.get(k));
    let read =
        |e: toml::de::Error| refuse(true, format!("a {kind} question {}", one_line(e.message())));
    let why = common
        .context
        .as_deref()
        .map(blocks)
        .filter(|b| !b.is_empty());
    let mut check = match kind {
        "MultipleChoice" => choice(value.try_into().map_err(read)?, &id),
        "ShortAnswer" => short(value.try_into().map_err(read)?),
        "Tracing" => tracing(value.try_into().map_err(read)?),
        "" => return Err(refuse(true, "no `type`".into())),
        other => {
            let other = clean_owned(other);
            return Err(refuse(
                false,
                format!("a kind lectern does not know: {other}"),
            ));
        }
    };
    check.id = clean_owned(&id);
    check.why = why;
    if let Some(shared) = shared {
        let mut body = blocks(shared);
        body.append(&mut check.body);
        check.body = body;
    }
    Ok(check)
}

fn one_line(s: &str) -> String {
    clean_owned(s.trim()).replace('\n', " ")
}

/// The readable text of a question lectern cannot ask.
fn prompt_text(table: &toml::Table) -> String {
    let prompt = table.get("prompt");
    let s = prompt
        .and_then(|p| p.as_str())
        .or_else(|| {
            prompt
                .and_then(|p| p.get("prompt"))
                .and_then(|p| p.as_str())
        })
        .or_else(|| {
            prompt
                .and_then(|p| p.get("program"))
                .and_then(|p| p.as_str())
        })
        .unwrap_or("(no prompt)");
    clean_owned(s.trim())
}

/// Markdown of a quiz file as blocks (aquascope diagrams as their code,
/// highlight markers as marks).
fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = md::parse(&aquascope::rewrite(&clean_owned(markdown)));
    marks::code_marks(&mut blocks);
    blocks
}

fn runs(markdown: &str) -> Vec<Run> {
    md::inline(&aquascope::rewrite(&clean_owned(markdown)))
}

/// A prompt's blocks: its last paragraph is the question, the blocks
/// before it (code, lists, a first paragraph) stand above it.
fn prompt(markdown: &str) -> (Vec<Block>, Vec<Run>) {
    let mut body = blocks(markdown);
    match body.last() {
        Some(Block::Paragraph(_)) => {
            let Some(Block::Paragraph(q)) = body.pop() else {
                unreachable!("just matched")
            };
            (body, q)
        }
        Some(_) => (body, vec![Run::plain("Answer the question above.")]),
        None => (body, vec![Run::plain("(This question has no prompt.)")]),
    }
}

fn base(kind: CheckKind, body: Vec<Block>, question: Vec<Run>) -> Check {
    Check {
        id: String::new(),
        kind,
        anchor: None,
        body,
        question,
        options: Vec::new(),
        order: Vec::new(),
        why: None,
    }
}

fn choice(q: Choice, id: &str) -> Check {
    let multi = matches!(q.answer.answer, OneOrMany::Many(_));
    let answers = match q.answer.answer {
        OneOrMany::One(a) => vec![a],
        OneOrMany::Many(a) => a,
    };
    let n_right = answers.len();
    let raw: Vec<String> = answers.into_iter().chain(q.prompt.distractors).collect();
    let order = if let Some(at) = q.prompt.answer_index {
        let mut order: Vec<usize> = (n_right..raw.len()).collect();
        let at = at.min(order.len());
        order.splice(at..at, 0..n_right);
        order
    } else if q.prompt.sort_answers == Some(true) {
        let mut order: Vec<usize> = (0..raw.len()).collect();
        order.sort_by(|&a, &b| raw[a].cmp(&raw[b]));
        order
    } else {
        shuffled(raw.len(), id)
    };
    let (body, question) = prompt(&q.prompt.prompt);
    let mut check = base(CheckKind::Choice { multi }, body, question);
    check.options = raw
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let (text, body) = option_parts(text);
            CheckOption {
                text,
                body,
                correct: i < n_right,
                tempting: None,
            }
        })
        .collect();
    check.order = order;
    check
}

fn short(q: Short) -> Check {
    let accepted = std::iter::once(q.answer.answer)
        .chain(q.answer.alternatives)
        .map(|a| clean_owned(&a))
        .collect();
    let (body, question) = prompt(&q.prompt.prompt);
    base(CheckKind::Short { accepted }, body, question)
}

fn tracing(q: Tracing) -> Check {
    let program = clean_owned(q.prompt.program.trim_end_matches('\n'));
    let kind = CheckKind::Tracing {
        program,
        lang: "rust".into(),
        compiles: q.answer.does_compile,
        stdout: q.answer.stdout.map(|s| clean_owned(&s)),
        line: q.answer.line_number,
    };
    base(kind, Vec::new(), vec![Run::plain(TRACING_QUESTION)])
}

/// An option's first paragraph as its text and the blocks after it
/// (code, lists) as its body; an option of one line stays one line.
fn option_parts(markdown: &str) -> (Vec<Run>, Vec<Block>) {
    let mut all = blocks(markdown);
    match all.first() {
        Some(Block::Paragraph(_)) if all.len() == 1 => (runs(markdown), Vec::new()),
        Some(Block::Paragraph(_)) => {
            let Block::Paragraph(text) = all.remove(0) else {
                unreachable!("just matched")
            };
            (text, all)
        }
        _ => (Vec::new(), all),
    }
}

/// A permutation of `0..n` that depends only on `seed`: FNV-1a of the id
/// into splitmix64, then Fisher-Yates. Hand-written (a dozen lines) so
/// the order can never change under a dependency's update.
pub fn shuffled(n: usize, seed: &str) -> Vec<usize> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut next = move || {
        h = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = h;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests;
