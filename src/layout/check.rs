//! The check question laid out for a width and what the reader has done
//! with it. Kept apart from the page so answering redraws only this small
//! part; the rows of each option come with it, so a click finds its option
//! without reading the drawn text.

use super::page::{pieces, wrap_text};
use super::style::{BOLD, ITALIC, Line, REVERSE, Role, Span, Style};
use crate::model::{Check, Verdict};

/// What the reader has done with the check, as the layout draws it (the
/// state owns the check's state and describes it with this).
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

fn plain(text: &str, role: Role, w: usize) -> Vec<Line> {
    wrap_text(&[(text.into(), role.into())], &[], &[], w)
}

pub fn check_lines(check: Option<&Check>, width: u16, marks: &CheckMarks) -> CheckLayout {
    let w = usize::from(width).max(1);
    let mut out = CheckLayout::default();
    let title = format!("━━ {CHECK_TITLE} ");
    let fill = w.saturating_sub(super::wrap::width(&title));
    out.lines.extend(wrap_text(
        &[(
            format!("{title}{}", "━".repeat(fill)),
            Style::new(Role::Question).with(BOLD),
        )],
        &[],
        &[],
        w,
    ));
    let Some(check) = check else {
        let none = "This lesson has no check question.";
        out.lines.extend(plain(none, Role::Dim, w));
        return out;
    };
    out.lines.extend(wrap_text(
        &pieces(&check.question, Style::new(Role::Question).with(BOLD)),
        &[],
        &[],
        w,
    ));
    out.lines.push(Line::default());
    if check.options.is_empty() {
        let none = "This check question has no options.";
        out.lines.extend(plain(none, Role::Error, w));
        return out;
    }
    for (pos, &index) in check.order.iter().enumerate() {
        let first = out.lines.len();
        option_lines(&mut out.lines, check, pos, index, marks, w);
        if out.lines.len() > first {
            let last = out.lines.len() - 1;
            out.options.push(OptionRows { pos, first, last });
        }
    }
    footer(&mut out.lines, check, marks, w);
    out
}

/// One option: its number and text, then its verdict and why a wrong one
/// tempts once chosen or revealed.
fn option_lines(
    out: &mut Vec<Line>,
    check: &Check,
    pos: usize,
    index: usize,
    marks: &CheckMarks,
    w: usize,
) {
    let Some(option) = check.options.get(index) else {
        return;
    };
    let num_w = check.order.len().to_string().len() + 2;
    let indent = vec![Span::new(" ".repeat(num_w + 1), Role::Text)];
    let mut number = Style::new(Role::OptionNumber).with(BOLD);
    if marks.cursor == Some(pos) {
        number = number.with(REVERSE);
    }
    let label = vec![
        Span::new(format!("{:>w$}.", pos + 1, w = num_w - 1), number),
        Span::new(" ", Role::Text),
    ];
    let chosen = marks.chosen == Some(index);
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
        let m = mark(verdict == Verdict::Right, words);
        out.extend(wrap_text(&m, &indent, &indent, w));
    } else if marks.revealed && verdict == Verdict::Right {
        let m = mark(true, "The right answer");
        out.extend(wrap_text(&m, &indent, &indent, w));
    }
    let explain = verdict == Verdict::Wrong && (chosen || marks.revealed);
    if let Some(t) = option.tempting.as_ref().filter(|_| explain) {
        let mut p = vec![(
            "Why it tempts: ".to_string(),
            Style::new(Role::Tempting).with(BOLD | ITALIC),
        )];
        p.extend(pieces(t, Style::new(Role::Tempting).with(ITALIC)));
        out.extend(wrap_text(&p, &indent, &indent, w));
    }
}

/// Why the answer is right (once answered right or revealed), and the
/// reader's score.
fn footer(out: &mut Vec<Line>, check: &Check, marks: &CheckMarks, w: usize) {
    let answered_right = marks
        .chosen
        .is_some_and(|c| check.score(c) == Verdict::Right);
    if let Some(why) = check
        .why
        .as_ref()
        .filter(|_| marks.revealed || answered_right)
    {
        out.push(Line::default());
        let mut p = vec![("Why: ".to_string(), Style::new(Role::Why).with(BOLD))];
        p.extend(pieces(why, Style::new(Role::Why)));
        out.extend(wrap_text(&p, &[], &[], w));
    }
    if marks.attempts > 0 {
        out.push(Line::default());
        let first = match marks.first_try {
            Some(true) => "✔ right",
            Some(false) => "✘ wrong",
            None => "not recorded",
        };
        let attempts = if marks.attempts == 1 {
            "1 attempt".to_string()
        } else {
            format!("{} attempts", marks.attempts)
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

/// The check as plain text lines, for search and summaries.
pub(crate) fn check_text(check: &Check) -> String {
    let mut s = crate::model::runs_text(&check.question);
    for o in &check.options {
        s.push(' ');
        s.push_str(&crate::model::runs_text(&o.text));
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
                },
                CheckOption {
                    text: text("short"),
                    correct: true,
                    tempting: None,
                },
                CheckOption {
                    text: text("another"),
                    correct: false,
                    tempting: None,
                },
            ],
            order: vec![2, 0, 1],
            why: Some(text("because")),
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
        for marks in [
            CheckMarks::default(),
            CheckMarks {
                chosen: Some(0),
                attempts: 1,
                ..CheckMarks::default()
            },
            CheckMarks {
                revealed: true,
                ..CheckMarks::default()
            },
        ] {
            for width in [12, 20, 80] {
                let layout = check_lines(Some(&c), width, &marks);
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
        let marks = CheckMarks {
            chosen: Some(0),
            ..CheckMarks::default()
        };
        let layout = check_lines(Some(&c), 80, &marks);
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
    fn no_check_and_no_options_have_no_option_rows() {
        let none = check_lines(None, 40, &CheckMarks::default());
        assert!(none.options.is_empty());
        assert_eq!(none.option_at(0), None);
        let mut c = check();
        c.options.clear();
        c.order.clear();
        assert!(
            check_lines(Some(&c), 40, &CheckMarks::default())
                .options
                .is_empty()
        );
    }
}
