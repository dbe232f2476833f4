//! The quiz dashboard: a line per chapter with checks, under its course's
//! title (or weakest first, each with its course), the cursor's line
//! reversed. Only the lines in view are made.

use super::chrome::fit;
use super::overlay::boxed;
use crate::layout::Role;
use crate::model::quizzes::Chapter;
use crate::state::quizzes::QuizBoard;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// The figures' columns, right of the title: their heading, and width.
const COLUMNS: [(&str, usize); 5] = [
    ("first try", 11),
    ("round", 11),
    ("missed", 7),
    ("stuck", 6),
    ("due", 5),
];

/// A line of the list: a course's title, or chapter `n` as listed.
#[derive(Clone, Copy, PartialEq)]
enum Row<'a> {
    Course(&'a str),
    Chapter(usize, &'a Chapter),
}

pub fn draw(f: &mut Frame, area: Rect, b: &QuizBoard, theme: &Theme) {
    let title = if b.weakest {
        "Quizzes · weakest first · Enter drills · w course by course · Esc closes"
    } else {
        "Quizzes · Enter drills · w weakest first · X new round · Esc closes"
    };
    let inner = boxed(f, area, 100, area.height, title, theme);
    let w = usize::from(inner.width);
    let dim = theme.style(Role::Dim.into());
    let mut lines = vec![Line::styled(columns_line(w), dim)];
    let Some(all) = &b.chapters else {
        lines.push(Line::styled("Reading the checks of every chapter…", dim));
        f.render_widget(Paragraph::new(lines), inner);
        return;
    };
    if all.is_empty() {
        lines.push(Line::raw(fit(
            "No chapter of your library has a check question yet.",
            w,
        )));
        f.render_widget(Paragraph::new(lines), inner);
        return;
    }
    let rows = rows(b);
    let visible = usize::from(inner.height).saturating_sub(1).max(1);
    let at = rows
        .iter()
        .position(|r| matches!(r, Row::Chapter(n, _) if *n == b.cursor))
        .unwrap_or(0);
    let first = at.saturating_sub(visible.saturating_sub(1));
    let courses = all.iter().any(|c| c.course != all[0].course);
    for row in rows.into_iter().skip(first).take(visible) {
        lines.push(match row {
            Row::Course(title) => Line::styled(fit(title, w), theme.accent()),
            Row::Chapter(n, c) => {
                let mut style = theme.style(Role::Text.into());
                if n == b.cursor {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                Line::styled(chapter_line(c, b.weakest && courses, w), style)
            }
        });
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// Course by course: each course's title before its chapters; weakest
/// first: the chapters alone.
fn rows(b: &QuizBoard) -> Vec<Row<'_>> {
    let mut out = Vec::new();
    for (n, c) in b.listed().enumerate() {
        let new_course = match out.last() {
            Some(Row::Chapter(_, last)) => last.course != c.course,
            _ => true,
        };
        if !b.weakest && new_course {
            out.push(Row::Course(&c.course_title));
        }
        out.push(Row::Chapter(n, c));
    }
    out
}

fn columns_line(w: usize) -> String {
    let room = title_room(w);
    let mut out = format!("  {:<room$}", "chapter");
    for (head, width) in COLUMNS {
        out.push_str(&format!("{head:>width$}"));
    }
    fit(&out, w)
}

fn title_room(w: usize) -> usize {
    let figures: usize = COLUMNS.iter().map(|(_, n)| n).sum();
    w.saturating_sub(figures + 2).max(8)
}

/// A chapter's line: a flag when it has stuck checks (not by colour
/// alone), its title (and course), then its figures.
fn chapter_line(c: &Chapter, with_course: bool, w: usize) -> String {
    let flag = if c.stuck > 0 { "⚑ " } else { "  " };
    let title = if with_course {
        format!("{} · {}", c.title, c.course_title)
    } else {
        c.title.clone()
    };
    let room = title_room(w);
    let first = match c.first_answered {
        0 => "–".to_string(),
        n => format!("{}/{n} {}%", c.first_right, c.first_right * 100 / n),
    };
    let round = match (c.round, c.round_answered) {
        (1, _) => "1".to_string(),
        (r, 0) => format!("{r}: –"),
        (r, n) => format!("{r}: {}/{n}", c.round_right),
    };
    let figures = [
        first,
        round,
        c.missed.to_string(),
        c.stuck.to_string(),
        c.due.to_string(),
    ];
    let mut out = format!("{flag}{}", pad(&title, room));
    for ((_, width), text) in COLUMNS.iter().zip(figures) {
        out.push_str(&format!("{text:>width$}"));
    }
    fit(&out, w)
}

/// `text` cut or padded to `room` columns.
fn pad(text: &str, room: usize) -> String {
    let cut = fit(text, room);
    let used = crate::layout::wrap::width(&cut);
    format!("{cut}{}", " ".repeat(room.saturating_sub(used)))
}
