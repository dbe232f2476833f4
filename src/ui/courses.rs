//! The course picker: every course of the learner's library, with its
//! progress and cards due; a course whose folder is gone says so.

use super::chrome::fit;
use super::overlay::boxed;
use crate::state::{Picker, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, s: &State, p: &Picker, theme: &Theme) {
    let title = "Your library · Enter opens where you left off · Esc closes";
    let inner = boxed(f, area, 90, area.height, title, theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height).max(1);
    let first = p.cursor.saturating_sub(visible.saturating_sub(1));
    let current = s.course().slug.as_str();
    let lines: Vec<Line> = p
        .rows
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(i, c)| {
            let state = if c.gone {
                " · folder gone (progress kept)".to_string()
            } else if c.due_today > 0 {
                format!(" · {} due", c.due_today)
            } else {
                String::new()
            };
            let lessons = if c.lessons > 0 {
                format!("{}/{} read", c.read, c.lessons)
            } else {
                format!("{} read", c.read)
            };
            let text = format!(
                "{} {} ({lessons}, {} answered{state})",
                if c.slug == current { "▸" } else { " " },
                c.title,
                c.answered
            );
            let mut style = if c.gone {
                theme.style(crate::layout::Role::Dim.into())
            } else if c.slug == current {
                theme.accent()
            } else {
                theme.style(crate::layout::Role::Text.into())
            };
            if i == p.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Line::styled(fit(&text, w), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
