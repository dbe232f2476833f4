//! A check question laid out for a width and what the reader has done
//! with it. Kept apart from the page so answering redraws only this small
//! part; the rows of each option come with it, so a click finds its option
//! without reading the drawn text. Choices are drawn in `choice.rs`, typed
//! answers (short answers, tracing) in `typed.rs`.

mod choice;
mod typed;

use super::page::{Highlights, blocks_lines, pieces, wrap_text};
use super::style::{BOLD, ITALIC, Line, Role, Span, Style};
use crate::model::{Block, Check, CheckKind, CheckState, Lesson, Verdict};

/// How a check is drawn beside what the reader has done with it (which
/// the layout borrows from whoever keeps it): its place among the
/// lesson's checks and whether it has the keys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckView {
    /// This check's place among the lesson's (0-based) and how many
    /// there are: "Check 2 of 3" when more than one.
    pub index: usize,
    pub count: usize,
    /// The answer is being typed (the prompt is on this check).
    pub typing: bool,
    /// The check has the keys: its digits answer (marked in its title).
    pub focused: bool,
    /// Printed (`lectern render`), not on screen: no key hints.
    pub printed: bool,
    /// The right answer and every explanation shown whatever the state
    /// says (`lectern render --answers`, a review card once answered).
    pub reveal: bool,
}

/// A check's state as drawn: borrowed, with how it is drawn.
#[derive(Clone, Copy)]
struct Marks<'a> {
    state: &'a CheckState,
    view: CheckView,
    /// The lesson's highlights, for the code options hold.
    code: &'a Highlights,
}

impl Marks<'_> {
    /// Whether the right answer and the explanations are shown.
    fn revealed(&self) -> bool {
        self.state.revealed || self.view.reveal
    }
}

/// The check's lines and where each option sits in them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckLayout {
    pub lines: Vec<Line>,
    /// One entry per option, in display order.
    pub options: Vec<OptionRows>,
}

/// The lines of one option: its text, its mark and its explanation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OptionRows {
    /// Display position (0 is the option numbered 1).
    pub pos: usize,
    /// First and last line, inclusive, counted from the check's first line.
    pub first: usize,
    pub last: usize,
}

impl CheckLayout {
    /// The display position of the option drawn at `line` (counted from
    /// the check's first line), if an option is drawn there.
    pub fn option_at(&self, line: usize) -> Option<usize> {
        self.options
            .iter()
            .find(|o| (o.first..=o.last).contains(&line))
            .map(|o| o.pos)
    }
}

pub const CHECK_TITLE: &str = "Check your understanding";

/// Where a check's own code (its body's blocks, a tracing program) is
/// found among the lesson's highlights: past any path a lesson block can
/// have, `CHECK_CODE + k` for check `k`, then the block's index.
pub const CHECK_CODE: usize = usize::MAX / 2;

/// A tracing program's place under its check's path (then index 0).
const PROGRAM: usize = usize::MAX;

/// The explanation's place under its check's path (then its block's).
const WHY: usize = usize::MAX - 1;

/// The options' place under its check's path (then the option's index in
/// file order, then its block's).
pub(super) const OPTIONS: usize = usize::MAX - 2;

pub(super) fn plain(text: &str, role: Role, w: usize) -> Vec<Line> {
    wrap_text(&[(text.into(), role.into())], &[], &[], w)
}

/// A mark line: ✔ or ✘ and words, behind `indent`.
pub(super) fn mark(ok: bool, words: &str, indent: &[Span], w: usize) -> Vec<Line> {
    let (sym, role) = if ok {
        ("✔ ", Role::Correct)
    } else {
        ("✘ ", Role::Wrong)
    };
    let p = vec![(format!("{sym}{words}"), Style::new(role).with(BOLD))];
    wrap_text(&p, indent, indent, w)
}

/// Check `check` laid out at `width`, drawn from `state` as `view` says.
pub fn check_lines(
    check: &Check,
    width: u16,
    state: &CheckState,
    view: CheckView,
    code: &Highlights,
) -> CheckLayout {
    let marks = &Marks { state, view, code };
    let w = usize::from(width).max(1);
    let owned;
    let check = if code.plain {
        owned = marked(check);
        &owned
    } else {
        check
    };
    let mut out = CheckLayout::default();
    title(&mut out.lines, view, w);
    let path = [CHECK_CODE.saturating_add(view.index)];
    if !check.body.is_empty() {
        out.lines
            .extend(blocks_lines(&check.body, width, code, &path));
        out.lines.push(Line::default());
    }
    out.lines.extend(wrap_text(
        &pieces(&check.question, Style::new(Role::Question).with(BOLD)),
        &[],
        &[],
        w,
    ));
    out.lines.push(Line::default());
    if !check.answerable() {
        let none = match check.kind {
            CheckKind::Choice { .. } => "This check question has no options.",
            _ => "This check question has no answer to compare with.",
        };
        out.lines.extend(plain(none, Role::Error, w));
        out.lines.push(Line::default());
        return out;
    }
    match &check.kind {
        CheckKind::Choice { multi: false } => choice::single(&mut out, check, marks, w),
        CheckKind::Choice { multi: true } => choice::multi(&mut out, check, marks, w),
        CheckKind::Short { .. } => typed::short(&mut out, check, marks, w),
        CheckKind::Tracing { program, lang, .. } => {
            let program = Block::code(crate::model::CodeBlock {
                lang: Some(lang.clone()),
                label: None,
                badges: Vec::new(),
                text: program.clone(),
                numbered: true,
                marks: Vec::new(),
            });
            let path = [path[0], PROGRAM];
            out.lines
                .extend(blocks_lines(&[program], width, code, &path));
            out.lines.push(Line::default());
            typed::tracing(&mut out, check, marks, w);
        }
    }
    footer(&mut out.lines, check, marks, (width, code, path[0]));
    out
}

/// The check with its styles marked in its text, for plain output.
fn marked(check: &Check) -> Check {
    use super::page::marked_runs;
    let mut c = check.clone();
    c.question = marked_runs(&c.question);
    // The first paragraph is drawn after "Why:" as runs; the page marks
    // the blocks after it itself.
    if let Some(Block::Paragraph(first)) = c.why.as_mut().and_then(|w| w.first_mut()) {
        *first = marked_runs(first);
    }
    for o in &mut c.options {
        o.text = marked_runs(&o.text);
        o.tempting = o.tempting.as_deref().map(marked_runs);
    }
    c
}

fn title(out: &mut Vec<Line>, view: CheckView, w: usize) {
    let name = if view.count > 1 {
        format!("Check {} of {}", view.index + 1, view.count)
    } else {
        CHECK_TITLE.to_string()
    };
    // The check whose digits answer is told apart from the others.
    let title = if view.focused {
        format!("━━ ▶ {name} · answering ")
    } else {
        format!("━━ {name} ")
    };
    let fill = w.saturating_sub(super::wrap::width(&title));
    out.extend(wrap_text(
        &[(
            format!("{title}{}", "━".repeat(fill)),
            Style::new(Role::Question).with(BOLD),
        )],
        &[],
        &[],
        w,
    ));
}

/// Why the answer is right (once answered or revealed), and the
/// reader's score.
/// How the footer's blocks are drawn: the width, the highlights and the
/// check's path among them.
type Page<'a> = (u16, &'a Highlights, usize);

fn footer(out: &mut Vec<Line>, check: &Check, marks: &Marks, (width, code, base): Page) {
    let w = usize::from(width).max(1);
    let answered = marks.state.answer(check).is_some();
    if let Some(why) = check.why.as_ref().filter(|_| marks.revealed() || answered) {
        out.push(Line::default());
        // "Why:" leads its first paragraph; code, lists and paragraphs
        // after it are drawn as the page draws them.
        let (first, rest) = match why.split_first() {
            Some((Block::Paragraph(runs), rest)) => (runs.as_slice(), rest),
            _ => (&[][..], why.as_slice()),
        };
        let mut p = vec![("Why: ".to_string(), Style::new(Role::Why).with(BOLD))];
        p.extend(pieces(first, Style::new(Role::Why)));
        out.extend(wrap_text(&p, &[], &[], w));
        if !rest.is_empty() {
            out.push(Line::default());
            out.extend(blocks_lines(rest, width, code, &[base, WHY]));
        }
    }
    if marks.state.attempts > 0 {
        out.push(Line::default());
        let first = match marks.state.first_try {
            Some(true) => "✔ right",
            Some(false) => "✘ wrong",
            None => "not recorded",
        };
        let attempts = if marks.state.attempts == 1 {
            "1 attempt".to_string()
        } else {
            format!("{} attempts", marks.state.attempts)
        };
        out.push(Line {
            spans: vec![Span::new(
                format!("First try (your score): {first} · {attempts}"),
                Role::Dim,
            )],
        });
    }
    out.push(Line::default());
}

/// "Why it tempts: …" under a wrong option.
pub(super) fn tempting(out: &mut Vec<Line>, t: &[crate::model::Run], indent: &[Span], w: usize) {
    let mut p = vec![(
        "Why it tempts: ".to_string(),
        Style::new(Role::Tempting).with(BOLD | ITALIC),
    )];
    p.extend(pieces(t, Style::new(Role::Tempting).with(ITALIC)));
    out.extend(wrap_text(&p, indent, indent, w));
}

/// The verdict of the marks' answer, if one was given.
fn verdict(check: &Check, state: &CheckState) -> Option<Verdict> {
    state.answer(check).map(|a| check.score_answer(&a))
}

/// Every code block of a lesson's checks (their bodies' and tracing
/// programs), with the path the check layout finds its highlight by.
pub fn each_check_code<'a>(lesson: &'a Lesson, mut f: impl FnMut(Vec<usize>, &'a str, &'a str)) {
    for (k, check) in lesson.checks.iter().enumerate() {
        let base = CHECK_CODE.saturating_add(k);
        for (j, block) in check.body.iter().enumerate() {
            if let Block::Code(c) = block {
                let lang = c.lang.as_deref().or(c.label.as_deref()).unwrap_or("");
                f(vec![base, j], lang, &c.text);
            }
        }
        if let CheckKind::Tracing { program, lang, .. } = &check.kind {
            f(vec![base, PROGRAM, 0], lang, program);
        }
        // Numbered as the footer draws them: after the paragraph "Why:"
        // leads.
        let why = check.why.as_deref().unwrap_or_default();
        let lead = usize::from(matches!(why.first(), Some(Block::Paragraph(_))));
        for (j, block) in why[lead..].iter().enumerate() {
            if let Block::Code(c) = block {
                let lang = c.lang.as_deref().or(c.label.as_deref()).unwrap_or("");
                f(vec![base, WHY, j], lang, &c.text);
            }
        }
        for (i, option) in check.options.iter().enumerate() {
            for (j, block) in option.body.iter().enumerate() {
                if let Block::Code(c) = block {
                    let lang = c.lang.as_deref().or(c.label.as_deref()).unwrap_or("");
                    f(vec![base, OPTIONS, i, j], lang, &c.text);
                }
            }
        }
    }
}

/// Adds the highlighted code of a lesson's checks to `code`, each piece
/// of code coloured by `hl` (the highlighter, which this layer does not
/// know).
pub fn highlight_checks(
    lesson: &Lesson,
    code: &mut Highlights,
    mut hl: impl FnMut(&str, &str) -> Option<Vec<Vec<Span>>>,
) {
    each_check_code(lesson, |path, lang, text| {
        if let Some(lines) = hl(lang, text) {
            code.insert(path, lines);
        }
    });
}

/// The check as plain text lines, for search and summaries.
pub(crate) fn check_text(check: &Check) -> String {
    let mut s = crate::model::runs_text(&check.question);
    for o in &check.options {
        s.push(' ');
        s.push_str(&crate::model::runs_text(&o.text));
        for b in &o.body {
            s.push(' ');
            s.push_str(&Lesson::block_text(b));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CheckOption, Run};

    fn check() -> Check {
        let text = |t: &str| vec![Run::plain(t)];
        Check {
            id: String::new(),
            kind: crate::model::CheckKind::Choice { multi: false },
            anchor: None,
            body: Vec::new(),
            question: text("Which one?"),
            options: vec![
                CheckOption {
                    text: text("a long option that wraps over several lines"),
                    correct: false,
                    tempting: Some(text("it sounds right")),
                    body: Vec::new(),
                },
                CheckOption {
                    text: text("short"),
                    correct: true,
                    tempting: None,
                    body: Vec::new(),
                },
                CheckOption {
                    text: text("another"),
                    correct: false,
                    tempting: None,
                    body: Vec::new(),
                },
            ],
            order: vec![2, 0, 1],
            why: Some(vec![Block::Paragraph(text("because"))]),
        }
    }

    /// Every option's rows hold its number, its text, its mark and its
    /// explanation, and no other option's.
    fn assert_rows_match_text(layout: &CheckLayout) {
        for o in &layout.options {
            let number = format!("{}.", o.pos + 1);
            let text = layout.lines[o.first].text();
            assert!(text.trim_start().starts_with(&number), "{text:?}");
            for line in &layout.lines[o.first + 1..=o.last] {
                assert!(line.text().starts_with("    "), "{:?}", line.text());
            }
            let after = layout.lines.get(o.last + 1).map(Line::text);
            let next = after.filter(|t| t.trim_start().starts_with(|c: char| c.is_ascii_digit()));
            assert!(next.is_some() || o.pos + 1 == layout.options.len());
        }
    }

    #[test]
    fn option_rows_cover_each_option() {
        let c = check();
        for state in [
            CheckState::default(),
            CheckState {
                chosen: Some(0),
                attempts: 1,
                ..CheckState::default()
            },
            CheckState {
                revealed: true,
                ..CheckState::default()
            },
        ] {
            for width in [12, 20, 80] {
                let view = CheckView::default();
                let layout = check_lines(&c, width, &state, view, &Highlights::default());
                assert_eq!(layout.options.len(), 3);
                assert_rows_match_text(&layout);
                let positions: Vec<Option<usize>> = (0..layout.lines.len())
                    .map(|l| layout.option_at(l))
                    .collect();
                assert_eq!(positions[0], None, "the title is no option");
                for o in &layout.options {
                    assert!((o.first..=o.last).all(|l| positions[l] == Some(o.pos)));
                }
                assert_eq!(positions.last(), Some(&None), "the end is no option");
            }
        }
    }

    #[test]
    fn the_chosen_options_rows_include_its_mark_and_why_it_tempts() {
        let c = check();
        let state = CheckState {
            chosen: Some(0),
            ..CheckState::default()
        };
        let layout = check_lines(&c, 80, &state, CheckView::default(), &Highlights::default());
        // File option 0 is shown second.
        let rows = layout.options[1];
        let text: Vec<String> = layout.lines[rows.first..=rows.last]
            .iter()
            .map(Line::text)
            .collect();
        assert_eq!(rows.pos, 1);
        assert!(text[0].contains("a long option"));
        assert!(text.iter().any(|t| t.contains("Wrong: your answer")));
        assert!(
            text.last()
                .unwrap()
                .contains("Why it tempts: it sounds right")
        );
    }

    #[test]
    fn no_options_have_no_option_rows() {
        let mut c = check();
        c.options.clear();
        c.order.clear();
        assert!(
            check_lines(
                &c,
                40,
                &CheckState::default(),
                CheckView::default(),
                &Highlights::default()
            )
            .options
            .is_empty()
        );
    }

    #[test]
    fn a_short_answers_alternatives_show_once_answered_right_or_revealed() {
        let mut c = check();
        c.kind = CheckKind::Short {
            accepted: vec!["mut".into(), "mutable".into()],
        };
        let shown = |typed: &str, revealed: bool| {
            let state = CheckState {
                typed: typed.into(),
                submitted: !typed.is_empty(),
                revealed,
                ..CheckState::default()
            };
            let l = check_lines(&c, 80, &state, CheckView::default(), &Highlights::default());
            l.lines
                .iter()
                .map(Line::text)
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(shown("MUT", false).contains("Accepted answers: mut · mutable"));
        assert!(
            !shown("let", false).contains("mutable"),
            "a wrong answer may retry"
        );
        let revealed = shown("", true);
        assert!(revealed.contains("The answer: mut"), "{revealed}");
        assert!(revealed.contains("Also accepted: mutable"), "{revealed}");
    }
}
