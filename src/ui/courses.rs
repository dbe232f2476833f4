//! The course picker of a library (several paths, or a folder of courses).

use super::chrome::fit;
use super::overlay::boxed;
use crate::state::State;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, s: &State, cursor: usize, theme: &Theme) {
    let inner = boxed(f, area, 80, area.height, "Courses · Enter to open", theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height).max(1);
    let first = cursor.saturating_sub(visible.saturating_sub(1));
    let lines: Vec<Line> = s
        .library
        .courses
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(i, c)| {
            let text = format!(
                "{} ({} lessons, {} min)",
                c.title,
                c.lessons.len(),
                c.total_minutes()
            );
            let mut style = if i == s.library.current {
                theme.accent()
            } else {
                theme.style(crate::layout::Role::Text.into())
            };
            if i == cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Line::styled(fit(&text, w), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
