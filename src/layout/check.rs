//! The check question laid out for a width and a quiz state. Kept apart
//! from the page so answering redraws only this small part.

use super::page::{pieces, wrap_text};
use super::style::{BOLD, ITALIC, Line, REVERSE, Role, Span, Style};
use crate::model::{Check, Verdict};

/// What the reader has done with the check, as the layout needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckMarks {
    /// File-order index of the option chosen last.
    pub chosen: Option<usize>,
    /// Show the right answer and every option's explanation.
    pub revealed: bool,
    /// Display position under the keyboard cursor.
    pub cursor: Option<usize>,
    pub attempts: u32,
    pub first_try: Option<bool>,
}

pub const CHECK_TITLE: &str = "Check your understanding";

fn line(spans: Vec<Span>) -> Line {
    Line { spans }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckLayout {
    pub lines: Vec<Line>,
    pub options: Vec<OptionRows>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OptionRows {
    pub pos: usize,
    pub first: usize,
    pub last: usize,
}

impl CheckLayout {
    pub fn option_at(&self, line: usize) -> Option<usize> {
        self.options
            .iter()
            .rev()
            .find(|o| o.first <= line)
            .map(|o| o.pos)
    }
}

pub fn check_lines(check: Option<&Check>, width: u16, view: &CheckMarks) -> CheckLayout {
    let lines = check_lines_only(check, width, view);
    let mut options = Vec::new();
    if let Some(check) = check {
        for pos in 0..check.order.len() {
            let label = format!("{}.", pos + 1);
            if let Some(first) = lines
                .iter()
                .position(|l| l.text().trim_start().starts_with(&label))
            {
                options.push(OptionRows {
                    pos,
                    first,
                    last: first,
                });
            }
        }
    }
    CheckLayout { lines, options }
}

fn check_lines_only(check: Option<&Check>, width: u16, view: &CheckMarks) -> Vec<Line> {
    let w = usize::from(width).max(1);
    let mut out = Vec::new();
    let title = format!("━━ {CHECK_TITLE} ");
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
    let Some(check) = check else {
        out.extend(wrap_text(
            &[(
                "This lesson has no check question.".into(),
                Role::Dim.into(),
            )],
            &[],
            &[],
            w,
        ));
        return out;
    };
    out.extend(wrap_text(
        &pieces(&check.question, Style::new(Role::Question).with(BOLD)),
        &[],
        &[],
        w,
    ));
    out.push(Line::default());
    if check.options.is_empty() {
        out.extend(wrap_text(
            &[(
                "This check question has no options.".into(),
                Role::Error.into(),
            )],
            &[],
            &[],
            w,
        ));
        return out;
    }
    let n = check.order.len();
    let num_w = n.to_string().len() + 2;
    let indent = vec![Span::new(" ".repeat(num_w + 1), Role::Text)];
    for (pos, &index) in check.order.iter().enumerate() {
        let option = &check.options[index];
        let mut number = Style::new(Role::OptionNumber).with(BOLD);
        if view.cursor == Some(pos) {
            number = number.with(REVERSE);
        }
        let label = vec![
            Span::new(format!("{:>w$}.", pos + 1, w = num_w - 1), number),
            Span::new(" ", Role::Text),
        ];
        let chosen = view.chosen == Some(index);
        let mut text_style = Style::new(Role::Text);
        if chosen {
            text_style = text_style.with(BOLD);
        }
        out.extend(wrap_text(
            &pieces(&option.text, text_style),
            &label,
            &indent,
            w,
        ));
        let verdict = check.score(index);
        let mark = |ok: bool, words: &str| -> Vec<(String, Style)> {
            let (sym, role) = if ok {
                ("✔ ", Role::Correct)
            } else {
                ("✘ ", Role::Wrong)
            };
            vec![(format!("{sym}{words}"), Style::new(role).with(BOLD))]
        };
        if chosen {
            let words = match verdict {
                Verdict::Right => "Right: your answer",
                Verdict::Wrong => "Wrong: your answer",
            };
            out.extend(wrap_text(
                &mark(verdict == Verdict::Right, words),
                &indent,
                &indent,
                w,
            ));
        } else if view.revealed && verdict == Verdict::Right {
            out.extend(wrap_text(
                &mark(true, "The right answer"),
                &indent,
                &indent,
                w,
            ));
        }
        let explain = verdict == Verdict::Wrong && (chosen || view.revealed);
        if let Some(t) = option.tempting.as_ref().filter(|_| explain) {
            let mut p = vec![(
                "Why it tempts: ".to_string(),
                Style::new(Role::Tempting).with(BOLD | ITALIC),
            )];
            p.extend(pieces(t, Style::new(Role::Tempting).with(ITALIC)));
            out.extend(wrap_text(&p, &indent, &indent, w));
        }
    }
    let answered_right = view
        .chosen
        .is_some_and(|c| check.score(c) == Verdict::Right);
    if let Some(why) = check
        .why
        .as_ref()
        .filter(|_| view.revealed || answered_right)
    {
        out.push(Line::default());
        let mut p = vec![("Why: ".to_string(), Style::new(Role::Why).with(BOLD))];
        p.extend(pieces(why, Style::new(Role::Why)));
        out.extend(wrap_text(&p, &[], &[], w));
    }
    if view.attempts > 0 {
        out.push(Line::default());
        let first = match view.first_try {
            Some(true) => "✔ right",
            Some(false) => "✘ wrong",
            None => "not recorded",
        };
        let attempts = if view.attempts == 1 {
            "1 attempt".to_string()
        } else {
            format!("{} attempts", view.attempts)
        };
        out.push(line(vec![Span::new(
            format!("First try (your score): {first} · {attempts}"),
            Role::Dim,
        )]));
    }
    out.push(Line::default());
    out
}

/// The check as plain text lines, for search and summaries.
pub fn check_text(check: &Check) -> String {
    let mut s = crate::model::runs_text(&check.question);
    for o in &check.options {
        s.push(' ');
        s.push_str(&crate::model::runs_text(&o.text));
    }
    s
}
