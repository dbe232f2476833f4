//! A review card: the check question of a due lesson, options shuffled.

use crate::layout::{BOLD, Role, Style};
use crate::state::{Geometry, Review, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

pub fn draw(f: &mut Frame, body: Rect, s: &State, r: &Review, g: &Geometry, theme: &Theme) {
    let area = Rect::new(
        g.page_x.min(body.width),
        body.y,
        g.text_width.min(body.width),
        body.height,
    );
    let heading = |t: String| Line::styled(t, theme.style(Style::new(Role::Title).with(BOLD)));
    if r.queue.is_empty() || r.done() {
        let lines = ended(r, &heading);
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    }
    let mut lines = Vec::new();
    let title = s
        .course()
        .lessons
        .get(s.reader.lesson)
        .map_or("", |l| l.title.as_str());
    let what = match &r.drill {
        Some(d) => format!("Drill ({})", d.kind.words()),
        None => "Review".into(),
    };
    lines.push(heading(format!(
        "{what} · card {} of {} · ✔ {} ✘ {}",
        r.pos + 1,
        r.queue.len(),
        r.right,
        r.wrong
    )));
    lines.push(Line::styled(
        format!("From: {title}"),
        theme.style(Role::Meta.into()),
    ));
    lines.push(Line::raw(""));
    let doc = s.reader.doc();
    // A note's card is the note's, whatever its lesson holds.
    let note = r.note_card().is_some();
    match doc.map(|d| d.lesson.checks.get(r.check)) {
        None if !note => lines.push(Line::raw(if s.reader.page.broken().is_some() {
            "This lesson could not be loaded: Enter skips it."
        } else {
            "Loading…"
        })),
        Some(None) if !note => lines.push(Line::raw(
            "This lesson has no check question: Enter skips it.",
        )),
        _ => {
            // The header stays; the card scrolls under it.
            let body = crate::state::card_body(s, r, g.text_width);
            let rows = usize::from(area.height).saturating_sub(lines.len());
            let top = r.top.min(body.len().saturating_sub(rows));
            lines.extend(super::styled(body.into_iter().skip(top).collect(), theme));
        }
    }
    f.render_widget(Paragraph::new(lines), area);
}

/// A review with nothing due (when the next card comes), or one done.
fn ended(r: &Review, heading: &dyn Fn(String) -> Line<'static>) -> Vec<Line<'static>> {
    if let Some(d) = &r.drill {
        return drill_ended(r, d, heading);
    }
    if r.done() && !r.queue.is_empty() {
        return vec![
            heading(format!("Review done: {} right, {} wrong", r.right, r.wrong)),
            Line::raw(""),
            Line::raw(
                "Each card's next review is scheduled (FSRS): right answers come back later, wrong ones sooner. Esc returns to reading; q quits.",
            ),
        ];
    }
    let next = match r.next {
        Some(next) => format!(
            "The next card comes {} · {} scheduled in all.",
            next.with_timezone(&chrono::Local)
                .format("on %a %d %b at %H:%M"),
            r.scheduled
        ),
        None => "No card is scheduled yet: answer a lesson's check and it comes back here.".into(),
    };
    let by: Vec<String> = r
        .scheduled_by
        .iter()
        .map(|(title, n)| format!("{title}: {n}"))
        .collect();
    let by = if by.len() > 1 {
        format!("By course: {}.", by.join(" · "))
    } else {
        String::new()
    };
    vec![
        heading("Nothing is due for review today".into()),
        Line::raw(""),
        Line::raw(next),
        Line::raw(by),
        Line::raw(""),
        Line::raw(
            "Lessons you have read and answered come back here when they are due. Esc returns to reading; q quits.",
        ),
    ]
}

/// A drill done (n right of m, what is left, the offer to drill it
/// again), or one with nothing to drill.
fn drill_ended(
    r: &Review,
    d: &crate::state::Drill,
    heading: &dyn Fn(String) -> Line<'static>,
) -> Vec<Line<'static>> {
    if r.queue.is_empty() {
        return vec![
            heading(format!(
                "Nothing to drill: no {} checks here",
                d.kind.words()
            )),
            Line::raw(""),
            Line::raw("Esc returns to reading; q quits."),
        ];
    }
    let left = match d.left.len() {
        0 => "Nothing is left: every card was right. Esc returns to reading; q quits.".to_string(),
        n => format!(
            "{n} left (answered wrong): D drills {} again; Esc returns to reading.",
            if n == 1 { "it" } else { "them" }
        ),
    };
    vec![
        heading(format!(
            "Drill done: {} right of {}",
            r.right,
            r.right + r.wrong
        )),
        Line::raw(""),
        Line::raw(left),
        Line::raw(""),
        Line::raw("A drill is practice: first-try scores and review schedules do not move."),
    ]
}
