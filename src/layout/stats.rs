//! Figures of progress laid out as lines, shared by `lectern stats`
//! (text) and the reader's stats screen: a course's gauges, its reviews,
//! the library's shelf, the totals. The figures are the store's
//! (`store::summary`, `store::reviews`); printing is the command's, drawing the screen's.

use super::{BOLD, Line, Role, Style, wrap};
use crate::model::{Course, LessonProgress, ReviewFigures, ShelfFigure, Summary, Tally};
use std::collections::HashMap;

/// Eight levels of block, for a chart that is text (it scrolls with the
/// rest of the screen, and prints the same in `lectern stats`).
fn sparkline(values: &[u32]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = values.iter().copied().max().unwrap_or(0).max(1);
    values
        .iter()
        .map(|&v| {
            if v == 0 {
                '·'
            } else {
                BARS[((v as usize * 7).div_ceil(max as usize)).min(7)]
            }
        })
        .collect()
}

/// The totals over several courses, in one line.
pub(crate) fn total_line(all: &[&Summary], streak: u32) -> Line {
    let mut t = Tally::default();
    let (mut due, mut week) = (0, 0);
    for s in all {
        t.lessons += s.tally.lessons;
        t.read += s.tally.read;
        t.answered += s.tally.answered;
        t.first_right += s.tally.first_right;
        due += s.reviews.due_today;
        week += s.reviews.due_week;
    }
    let score = t.score().map_or("–".to_string(), |s| format!("{s}%"));
    let text = format!(
        "All {} courses: {}/{} read · {} answered · first try {score} · due today {due} · this week {week} · streak {streak} day{}",
        all.len(),
        t.read,
        t.lessons,
        t.answered,
        if streak == 1 { "" } else { "s" }
    );
    let mut out = Vec::new();
    push(
        &mut out,
        &text,
        Style::new(Role::KeyIdea).with(BOLD),
        usize::MAX / 2,
    );
    out.pop().unwrap_or_default()
}

/// A course whose folder is gone: what the store still knows of it.
pub(crate) fn gone_lines(s: &Summary, width: usize) -> Vec<Line> {
    let place = s.root.as_ref().map_or("its folder".to_string(), |r| {
        crate::model::sanitize::clean_owned(&r.to_string_lossy())
    });
    let mut out = Vec::new();
    push(
        &mut out,
        &s.title,
        Style::new(Role::Title).with(BOLD),
        width,
    );
    push(
        &mut out,
        &format!(
            "Its folder is gone ({place}); its progress is kept: {} read · {} answered",
            s.tally.read, s.tally.answered
        ),
        Style::new(Role::Meta),
        width,
    );
    out
}

fn gauge(done: usize, total: usize, cells: usize) -> String {
    let filled = (done * cells).checked_div(total).unwrap_or(0);
    format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
}

fn push(out: &mut Vec<Line>, text: &str, style: Style, width: usize) {
    for spans in wrap::wrap(&[(text, style)], width.max(1)) {
        out.push(Line { spans });
    }
}

/// A course's progress as lines for `width` columns.
pub(crate) fn course_lines(
    course: &Course,
    progress: &HashMap<String, LessonProgress>,
    width: usize,
) -> Vec<Line> {
    let mut out = Vec::new();
    let mut total = Tally::default();
    let mut rows = Vec::new();
    for m in course.modules() {
        let mut t = Tally::default();
        for &i in &m.lessons {
            let p = progress.get(&course.lessons[i].slug);
            t.add(p);
            total.add(p);
        }
        let name = match &m.module {
            Some(md) if !md.title.is_empty() => format!("{}. {}", md.index, md.title),
            Some(md) => format!("Module {}", md.index),
            None => "Lessons".into(),
        };
        rows.push((name, t));
    }
    push(
        &mut out,
        &course.title,
        Style::new(Role::Title).with(BOLD),
        width,
    );
    let cells = width.saturating_sub(40).clamp(4, 20);
    let line = |t: &Tally| {
        let score = t.score().map_or("–".to_string(), |s| format!("{s}%"));
        format!(
            "{} {}/{} read · {} answered · first try {score}",
            gauge(t.read, t.lessons, cells),
            t.read,
            t.lessons,
            t.answered
        )
    };
    push(&mut out, &line(&total), Style::new(Role::Text), width);
    for (name, t) in &rows {
        out.push(Line::default());
        push(
            &mut out,
            name,
            Style::new(Role::Heading(3)).with(BOLD),
            width,
        );
        push(&mut out, &line(t), Style::new(Role::Text), width);
    }
    out
}

/// Every course of the library, one gauge each (the stats screen).
pub(crate) fn library_lines(rows: &[ShelfFigure], width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    if rows.len() < 2 {
        return out;
    }
    push(
        &mut out,
        "Your library",
        Style::new(Role::Heading(3)).with(BOLD),
        width,
    );
    let cells = width.saturating_sub(50).clamp(4, 12);
    for r in rows {
        let gone = if r.gone { " · folder gone" } else { "" };
        let text = format!(
            "{} {}: {}/{} read · {} answered · {} due today{gone}",
            gauge(r.read.min(r.lessons), r.lessons, cells),
            r.title,
            r.read,
            r.lessons,
            r.answered,
            r.due_today
        );
        push(&mut out, &text, Style::new(Role::Text), width);
    }
    out
}

/// Whose changes the figures include, when other machines' are among
/// them (none: no line).
pub(crate) fn machines_line(r: &ReviewFigures, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    if !r.others.is_empty() {
        let text = format!(
            "These figures include the changes of other machines: {}.",
            r.others.join(", ")
        );
        push(&mut out, &text, Style::new(Role::Dim), width);
    }
    out
}

pub(crate) fn review_lines(r: &ReviewFigures, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    push(
        &mut out,
        &format!(
            "Reviews due today: {} · this week: {} · scheduled later: {} · streak: {} day{}",
            r.due_today,
            r.due_week,
            r.scheduled,
            r.streak,
            plural(r.streak)
        ),
        Style::new(Role::KeyIdea),
        width,
    );
    if !r.weekly.is_empty() {
        let this_week = r.weekly.last().copied().unwrap_or(0);
        push(
            &mut out,
            &format!(
                "Reviews, last {} weeks: {}  ({this_week} this week)",
                r.weekly.len(),
                sparkline(&r.weekly)
            ),
            Style::new(Role::Text),
            width,
        );
    }
    if !r.misconceptions.is_empty() {
        push(
            &mut out,
            "Misconceptions to revisit (the digit opens the lesson):",
            Style::new(Role::Wrong).with(BOLD),
            width,
        );
        for (i, m) in r.misconceptions.iter().enumerate() {
            let key = if i < 9 {
                format!("{} ", i + 1)
            } else {
                "  ".into()
            };
            let what = match &m.option_text {
                Some(text) => format!("you chose “{text}”"),
                None => format!("the same wrong option ({})", m.option + 1),
            };
            let last = m.last.with_timezone(&chrono::Local).format("%Y-%m-%d");
            push(
                &mut out,
                &format!(
                    "{key}✘ “{}”: {what} {} times, last on {last}",
                    m.lesson_title, m.times
                ),
                Style::new(Role::Wrong),
                width,
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    #[test]
    fn sparklines_scale_to_the_busiest_week() {
        assert_eq!(sparkline(&[0, 1, 2, 4]), "·▃▅█");
        assert_eq!(sparkline(&[0, 0]), "··");
    }

    #[test]
    fn gauges_fill_by_share() {
        assert_eq!(gauge(1, 4, 8), "██░░░░░░");
        assert_eq!(gauge(0, 0, 4), "░░░░");
    }

    #[test]
    fn other_machines_are_named_only_when_there_are_some() {
        let mut r = ReviewFigures::default();
        assert!(machines_line(&r, 60).is_empty());
        r.others = vec!["laptop".into(), "3f9a1c2e".into()];
        let text: String = machines_line(&r, 60)
            .iter()
            .flat_map(|l| l.spans.iter().map(|s| s.text.clone()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains("laptop, 3f9a1c2e"), "{text}");
    }

    #[test]
    fn a_misconception_is_told_within_the_width() {
        let r = ReviewFigures {
            misconceptions: vec![crate::model::MisconceptionFigure {
                lesson: "intro".into(),
                check: String::new(),
                lesson_title: "A first lesson with a rather long title".into(),
                option: 1,
                option_text: Some("the borrow checker runs at run time".into()),
                times: 3,
                last: Utc::now(),
            }],
            weekly: vec![0, 1, 3],
            ..Default::default()
        };
        let lines = review_lines(&r, 60);
        assert!(lines.iter().all(|l| l.width() <= 60));
        let all: String = lines.iter().map(|l| l.text()).collect();
        assert!(all.contains("3 times"), "{all}");
        assert!(
            all.contains("“the borrow checker runs at run time”"),
            "{all}"
        );
    }
}
