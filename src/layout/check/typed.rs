//! Typed answers: a short answer, and a tracing question's "does it
//! compile?" followed by its output or its error's line.

use super::{CheckLayout, Marks, OptionRows, mark, plain};
use crate::layout::page::wrap_text;
use crate::layout::style::{BOLD, Line, REVERSE, Role, Span, Style};
use crate::model::{Check, CheckKind, Verdict};

const INDENT: &str = "    ";

pub(super) fn short(out: &mut CheckLayout, check: &Check, marks: &Marks, w: usize) {
    answer_box(&mut out.lines, "Your answer:", check, marks, w);
    accepted(&mut out.lines, check, marks, w);
}

/// The other answers a short answer accepts: all of them once answered
/// right, the ones beside the answer shown once revealed (never after a
/// wrong answer, which may be tried again).
fn accepted(out: &mut Vec<Line>, check: &Check, marks: &Marks, w: usize) {
    let CheckKind::Short { accepted } = &check.kind else {
        return;
    };
    let all: Vec<&str> = accepted
        .iter()
        .map(|a| a.trim())
        .filter(|a| !a.is_empty())
        .collect();
    let (head, shown) = if marks.revealed() {
        ("Also accepted: ", &all[all.len().min(1)..])
    } else if super::verdict(check, marks.state) == Some(Verdict::Right) {
        ("Accepted answers: ", &all[..])
    } else {
        return;
    };
    if all.len() < 2 {
        return;
    }
    let indent = vec![Span::new(INDENT, Role::Text)];
    let p = vec![
        (head.to_string(), Style::new(Role::Dim).with(BOLD)),
        (shown.join(" · "), Style::new(Role::Dim)),
    ];
    out.extend(wrap_text(&p, &indent, &indent, w));
}

pub(super) fn tracing(out: &mut CheckLayout, check: &Check, marks: &Marks, w: usize) {
    let CheckKind::Tracing { compiles, .. } = &check.kind else {
        return;
    };
    let q = Style::new(Role::Question).with(BOLD);
    out.lines
        .extend(wrap_text(&[("Does it compile?".into(), q)], &[], &[], w));
    let indent = vec![Span::new(INDENT, Role::Text)];
    for (pos, (said, words)) in [(true, "Yes, it compiles"), (false, "No, it does not")]
        .into_iter()
        .enumerate()
    {
        let first = out.lines.len();
        let mut number = Style::new(Role::OptionNumber).with(BOLD);
        if marks.state.cursor == Some(pos) && marks.state.compiles.is_none() {
            number = number.with(REVERSE);
        }
        let chosen = marks.state.compiles == Some(said);
        let mut text = Style::new(Role::Text);
        if chosen {
            text = text.with(BOLD);
        }
        let label = vec![
            Span::new(format!("  {}.", pos + 1), number),
            Span::new(" ", Role::Text),
        ];
        out.lines
            .extend(wrap_text(&[(words.into(), text)], &label, &indent, w));
        if chosen && marks.state.submitted {
            let (ok, words) = if said == *compiles {
                (true, "Right: your answer")
            } else {
                (false, "Wrong: your answer")
            };
            out.lines.extend(mark(ok, words, &indent, w));
        } else if marks.revealed() && said == *compiles && !chosen {
            out.lines.extend(mark(true, "The right answer", &indent, w));
        }
        let last = out.lines.len() - 1;
        out.options.push(OptionRows { pos, first, last });
    }
    let Some(said) = marks
        .state
        .compiles
        .or(marks.revealed().then_some(*compiles))
    else {
        return;
    };
    out.lines.push(Line::default());
    let ask = if said && marks.view.printed {
        "What does it print?"
    } else if said {
        "What does it print? (Ctrl-J starts a new line)"
    } else {
        "On which line is the error?"
    };
    answer_box(&mut out.lines, ask, check, marks, w);
}

/// The prompt's words, the answer typed (with a cursor while typing), its
/// verdict once submitted, and the right answer once revealed.
fn answer_box(out: &mut Vec<Line>, ask: &str, check: &Check, marks: &Marks, w: usize) {
    let q = Style::new(Role::Question).with(BOLD);
    out.extend(wrap_text(&[(ask.to_string(), q)], &[], &[], w));
    let indent = vec![Span::new(INDENT, Role::Text)];
    let shown = !marks.state.typed.is_empty() || marks.view.typing;
    if shown {
        let mut text = marks.state.typed.clone();
        if marks.view.typing {
            text.push('▏');
        }
        let style = if marks.view.typing {
            Style::new(Role::Text).with(REVERSE)
        } else {
            Style::new(Role::Text).with(BOLD)
        };
        for (i, line) in text.split('\n').enumerate() {
            let first = vec![Span::new(
                if i == 0 { "  › " } else { INDENT },
                Role::OptionNumber,
            )];
            out.extend(wrap_text(&[(line.to_string(), style)], &first, &indent, w));
        }
    } else if marks.view.printed {
    } else if marks.state.compiles.is_some() || matches!(check.kind, CheckKind::Short { .. }) {
        let hint = "  (Enter or i to type your answer)";
        out.extend(plain(hint, Role::Dim, w));
    }
    if let Some(v) = super::verdict(check, marks.state) {
        let words = match v {
            Verdict::Right => "Right: your answer",
            Verdict::Wrong => "Wrong: your answer (r to retry, a to reveal)",
        };
        out.extend(mark(v == Verdict::Right, words, &indent, w));
    }
    if marks.revealed() {
        expected(out, check, &indent, w);
    }
}

fn expected(out: &mut Vec<Line>, check: &Check, indent: &[Span], w: usize) {
    let Some(text) = check.expected_text() else {
        return;
    };
    let words = match &check.kind {
        CheckKind::Tracing {
            compiles: false, ..
        } => {
            format!("The answer: it does not compile; the error is on {text}")
        }
        CheckKind::Tracing { .. } => "The answer: it compiles and prints".to_string(),
        _ => format!("The answer: {text}"),
    };
    out.extend(mark(true, &words, indent, w));
    if let CheckKind::Tracing { compiles: true, .. } = &check.kind {
        let role = Style::new(Role::CodeText);
        for line in text.lines() {
            let first = vec![Span::new(format!("{INDENT}  │ "), Role::CodeFrame)];
            out.extend(wrap_text(&[(line.to_string(), role)], &first, &first, w));
        }
    }
}
