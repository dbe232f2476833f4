//! The copy picker: what on screen `y` can copy, each with its first line.

use super::chrome::fit;
use super::overlay::boxed;
use crate::layout::Role;
use crate::state::CopyPicker;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, p: &CopyPicker, theme: &Theme) {
    let height = (p.items.len() as u16).saturating_add(2).min(area.height);
    let title = "Copy to the clipboard · Enter or 1-9";
    let inner = boxed(f, area, 80, height, title, theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height).max(1);
    let first = p.cursor.saturating_sub(visible.saturating_sub(1));
    let lines: Vec<Line> = p
        .items
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(i, item)| {
            let head = item
                .text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let text = format!("{}. {}: {}", i + 1, item.label, head.trim());
            let mut style = theme.style(Role::Text.into());
            if i == p.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Line::styled(fit(&text, w), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// The page's links, each with where it goes.
pub fn links(f: &mut Frame, area: Rect, p: &crate::state::LinkPicker, theme: &Theme) {
    use crate::state::Goes;
    let height = (p.items.len() as u16).saturating_add(2).min(area.height);
    let inner = boxed(f, area, 90, height, "Links · Enter to open", theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height).max(1);
    let first = p.cursor.saturating_sub(visible.saturating_sub(1));
    let lines: Vec<Line> = p
        .items
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(i, l)| {
            let to = match &l.goes {
                Goes::Web => crate::model::link::host(&l.href)
                    .unwrap_or(&l.href)
                    .to_string(),
                Goes::Lesson(_) => format!("lesson {}", l.href),
                Goes::Nowhere => format!("{} (cannot open)", l.href),
            };
            let text = format!("{}. {} → {to}", i + 1, l.text.trim());
            let mut style = theme.style(Role::Text.into());
            if i == p.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Line::styled(fit(&text, w), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
