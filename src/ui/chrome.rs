//! Header (where you are) and footer (what you can press, or a prompt).

use crate::keymap;
use crate::layout::wrap::width;
use crate::state::{MIN_HEIGHT, MIN_WIDTH, Screen, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn header(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let course = s.course();
    let mut parts = vec![course.title.clone()];
    let entry = course.lessons.get(s.reader.lesson);
    if let Some(m) = entry.and_then(|e| e.module.as_ref()) {
        parts.push(if m.title.is_empty() {
            format!("Module {}", m.index)
        } else {
            m.title.clone()
        });
    }
    if s.library.is_full() {
        let n = course.lessons.len();
        parts.push(format!("Lesson {} of {n}", s.reader.lesson + 1));
    }
    if let Some(min) = entry.and_then(|e| e.minutes) {
        parts.push(format!("{min} min"));
    }
    // How far through a page laid out only to its first screen is not
    // known yet (it is, one frame later).
    let right = if s.reader.doc().is_some() && !s.reader.partial() {
        format!(" {}% ", s.reader.read_percent(&s.geometry()))
    } else {
        String::new()
    };
    let left = format!(" {}", parts.join(" · "));
    let room = usize::from(area.width).saturating_sub(width(&right));
    let left = fit(&left, room);
    let pad = room.saturating_sub(width(&left));
    let line = Line::from(vec![
        Span::styled(
            left,
            theme.bar().add_modifier(ratatui::style::Modifier::BOLD),
        ),
        Span::styled(" ".repeat(pad), theme.bar()),
        Span::styled(fit(&right, usize::from(area.width)), theme.bar()),
    ]);
    f.render_widget(Paragraph::new(line).style(theme.bar()), area);
}

/// Cuts `s` to `max` columns with an ellipsis.
pub fn fit(s: &str, max: usize) -> String {
    // Tabs and newlines are kept in lesson text for the layout to place;
    // a one-line bar shows them as spaces.
    let flat;
    let s = if s.contains(['\t', '\n']) {
        flat = s.replace(['\t', '\n'], " ");
        flat.as_str()
    } else {
        s
    };
    if width(s) <= max {
        return s.to_string();
    }
    let spans = [crate::layout::Span::new(s, crate::layout::Role::Text)];
    let (cut, _) = crate::layout::wrap::truncate(&spans, max.saturating_sub(1));
    let mut out: String = cut.iter().map(|s| s.text.as_str()).collect();
    if max > 0 {
        out.push('…');
    }
    out
}

pub fn footer(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let w = usize::from(area.width);
    let search = &s.reader.search;
    let text = match s.screen() {
        Screen::Search => {
            let count = if search.query.is_empty() {
                String::new()
            } else if search.hits.is_empty() {
                "  no matches".to_string()
            } else {
                format!(
                    "  {}/{} matches",
                    search.current.map_or(0, |c| c + 1),
                    search.hits.len()
                )
            };
            format!("/{}▏{count}   {}", search.query, hint_line(Screen::Search))
        }
        Screen::CourseSearch => {
            let query = match &s.overlay {
                Some(crate::state::Overlay::CourseSearch(cs)) => cs.query.as_str(),
                _ => "",
            };
            format!(
                "search the course: {query}▏   {}",
                hint_line(Screen::CourseSearch)
            )
        }
        screen => {
            let mut line = String::new();
            if let Some(n) = s.reader.count {
                line.push_str(&format!(
                    "{n}… (a count: j k Space b g G use it, Esc drops it)  "
                ));
            }
            if let Some(n) = &s.notice {
                line.push_str(n);
                line.push_str("  ");
            } else if let Some(keys) =
                crate::state::card_hint(s).filter(|_| screen == Screen::Review)
            {
                line.push_str("q quit · ? help · ");
                line.push_str(keys);
            } else {
                line.push_str(&hint_line(screen));
            }
            if search.active() {
                line.push_str(&format!(
                    "  [/{}: {}/{}]",
                    search.query,
                    search.current.map_or(0, |c| c + 1),
                    search.hits.len()
                ));
            }
            // Long work shows its progress where the reader looks, first
            // so that a narrow footer does not cut it.
            match super::search::progress(s) {
                Some(p) => format!(" [{p}]  {line}"),
                None => format!(" {line}"),
            }
        }
    };
    let line = Line::from(Span::styled(fit(&text, w), theme.bar()));
    f.render_widget(Paragraph::new(line).style(theme.bar()), area);
}

pub fn too_small(f: &mut Frame, area: Rect, s: &State) {
    let msg = format!(
        "Terminal too small ({}×{}): need {MIN_WIDTH}×{MIN_HEIGHT}. q quits.",
        s.size.width, s.size.height
    );
    let lines: Vec<Line> = crate::layout::wrap::wrap(
        &[(
            msg.as_str(),
            crate::layout::Style::new(crate::layout::Role::Text),
        )],
        usize::from(area.width.max(1)),
    )
    .into_iter()
    .map(|spans| Line::from(spans.into_iter().map(|s| s.text).collect::<String>()))
    .take(usize::from(area.height))
    .collect();
    f.render_widget(Paragraph::new(lines).alignment(Alignment::Left), area);
}

/// The footer's hints for a screen, from its key table.
fn hint_line(screen: Screen) -> String {
    let hints: Vec<String> = keymap::hints(screen)
        .iter()
        .map(|(k, h)| format!("{k} {h}"))
        .collect();
    hints.join(" · ")
}
