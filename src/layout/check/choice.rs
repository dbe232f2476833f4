//! Choice questions: one right answer (chosen at once) or several (ticked,
//! then submitted).

use super::{CHECK_CODE, CheckLayout, Marks, OPTIONS, OptionRows, mark, tempting, verdict};
use crate::layout::page::{blocks_lines, pieces, wrap_text};
use crate::layout::style::{BOLD, Line, REVERSE, Role, Span, Style};
use crate::model::{Check, Verdict};

/// Each option with its number; the chosen one with its verdict.
pub(super) fn single(out: &mut CheckLayout, check: &Check, marks: &Marks, w: usize) {
    for (pos, &index) in check.order.iter().enumerate() {
        let first = out.lines.len();
        let chosen = marks.state.chosen == Some(index);
        option(&mut out.lines, check, pos, index, "", chosen, marks, w);
        let verdict = check.score(index);
        let indent = indent(check);
        if chosen {
            let words = match verdict {
                Verdict::Right => "Right: your answer",
                Verdict::Wrong => "Wrong: your answer",
            };
            out.lines
                .extend(mark(verdict == Verdict::Right, words, &indent, w));
        } else if marks.revealed() && verdict == Verdict::Right {
            out.lines.extend(mark(true, "The right answer", &indent, w));
        }
        explain(&mut out.lines, check, index, chosen || marks.revealed(), w);
        push_rows(out, pos, first);
    }
}

/// Each option ticked or not; a Submit line; once submitted, every
/// option's verdict (a right one missed, a wrong one ticked).
pub(super) fn multi(out: &mut CheckLayout, check: &Check, marks: &Marks, w: usize) {
    let done = marks.state.submitted || marks.revealed();
    for (pos, &index) in check.order.iter().enumerate() {
        let first = out.lines.len();
        let ticked = marks.state.picked.contains(&index);
        let boxed = if ticked { "[x] " } else { "[ ] " };
        option(&mut out.lines, check, pos, index, boxed, ticked, marks, w);
        let right = check.options.get(index).is_some_and(|o| o.correct);
        let indent = indent(check);
        if done {
            let shown = if marks.state.submitted { ticked } else { right };
            let words = match (right, shown) {
                (true, true) if marks.state.submitted => Some((true, "Right: you chose it")),
                (true, true) => Some((true, "A right answer")),
                (true, false) => Some((false, "Missed: this one is right too")),
                (false, true) => Some((false, "Wrong: not a right answer")),
                (false, false) => None,
            };
            if let Some((ok, words)) = words {
                out.lines.extend(mark(ok, words, &indent, w));
            }
        }
        explain(
            &mut out.lines,
            check,
            index,
            done && (ticked || marks.revealed()),
            w,
        );
        push_rows(out, pos, first);
    }
    let first = out.lines.len();
    let n = check.order.len();
    if marks.view.printed && !marks.state.submitted {
        out.lines.push(Line::default());
        let note = "  (Choose every right answer.)";
        out.lines.extend(super::plain(note, Role::Dim, w));
        return;
    }
    let mut style = Style::new(Role::OptionNumber).with(BOLD);
    if marks.state.cursor == Some(n) {
        style = style.with(REVERSE);
    }
    let submit = match verdict(check, marks.state) {
        Some(Verdict::Right) => "✔ Right: you chose every right answer and no other".to_string(),
        Some(Verdict::Wrong) => "✘ Not quite: r to retry, a to reveal".to_string(),
        None => format!("▸ Submit ({} chosen; Enter)", marks.state.picked.len()),
    };
    let role = match verdict(check, marks.state) {
        Some(Verdict::Right) => Role::Correct,
        Some(Verdict::Wrong) => Role::Wrong,
        None => Role::OptionNumber,
    };
    out.lines.push(Line::default());
    let pad = " ".repeat(indent(check).first().map_or(0, |s| s.text.len()));
    let spans = vec![
        (pad, Style::new(Role::Text)),
        (submit, Style::new(role).with(style.mods)),
    ];
    out.lines.extend(wrap_text(&spans, &[], &[], w));
    push_rows(out, n, first + 1);
}

fn indent(check: &Check) -> Vec<Span> {
    let num_w = check.order.len().to_string().len() + 2;
    vec![Span::new(" ".repeat(num_w + 1), Role::Text)]
}

fn push_rows(out: &mut CheckLayout, pos: usize, first: usize) {
    if out.lines.len() > first {
        let last = out.lines.len() - 1;
        out.options.push(OptionRows { pos, first, last });
    }
}

/// One option: its number (and box) and text.
#[allow(clippy::too_many_arguments)]
fn option(
    out: &mut Vec<Line>,
    check: &Check,
    pos: usize,
    index: usize,
    boxed: &str,
    chosen: bool,
    marks: &Marks,
    w: usize,
) {
    let Some(option) = check.options.get(index) else {
        return;
    };
    let num_w = check.order.len().to_string().len() + 2;
    let indent = vec![Span::new(" ".repeat(num_w + 1), Role::Text)];
    let mut number = Style::new(Role::OptionNumber).with(BOLD);
    if marks.state.cursor == Some(pos) {
        number = number.with(REVERSE);
    }
    let label = vec![
        Span::new(format!("{:>w$}.", pos + 1, w = num_w - 1), number),
        Span::new(" ", Role::Text),
    ];
    let mut text_style = Style::new(Role::Text);
    if chosen {
        text_style = text_style.with(BOLD);
    }
    let mut text = Vec::new();
    if !boxed.is_empty() {
        text.push((boxed.to_string(), Style::new(Role::OptionNumber).with(BOLD)));
    }
    text.extend(pieces(&option.text, text_style));
    // An option that starts with code has its number (and box) on the
    // code's frame.
    let lead = if option.text.is_empty() && !option.body.is_empty() {
        let mut lead = label;
        lead.extend(text.into_iter().map(|(t, s)| Span::new(t, s)));
        lead
    } else {
        out.extend(wrap_text(&text, &label, &indent, w));
        indent.clone()
    };
    let lead_w: usize = lead
        .iter()
        .map(|s| crate::layout::wrap::width(&s.text))
        .sum();
    let base = CHECK_CODE.saturating_add(marks.view.index);
    let room = u16::try_from(w.saturating_sub(lead_w.max(num_w + 1)).max(1)).unwrap_or(u16::MAX);
    let body = blocks_lines(&option.body, room, marks.code, &[base, OPTIONS, index]);
    for (i, line) in body.into_iter().enumerate() {
        let mut spans = match i {
            0 => lead.clone(),
            _ => vec![Span::new(" ".repeat(lead_w.max(num_w + 1)), Role::Text)],
        };
        spans.extend(line.spans);
        out.push(Line { spans });
    }
}

/// Why a wrong option tempts, once chosen or revealed.
fn explain(out: &mut Vec<Line>, check: &Check, index: usize, shown: bool, w: usize) {
    let Some(option) = check.options.get(index) else {
        return;
    };
    if option.correct || !shown {
        return;
    }
    if let Some(t) = &option.tempting {
        tempting(out, t, &indent(check), w);
    }
}
