//! The copy picker (what on screen `y` can copy, each with its first line)
//! and the links list (each link with where it goes): numbered lists in a
//! box, drawn alike.

use super::chrome::fit;
use super::overlay::boxed;
use crate::layout::Role;
use crate::state::{CopyPicker, Goes, LinkPicker};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, p: &CopyPicker, theme: &Theme) {
    let rows: Vec<String> = p
        .items
        .iter()
        .map(|item| {
            let head = item
                .text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            format!("{}: {}", item.label, head.trim())
        })
        .collect();
    let title = "Copy to the clipboard · Enter or 1-9";
    numbered(f, area, 80, title, &rows, p.cursor, theme);
}

/// The page's links, each with where it goes.
pub fn links(f: &mut Frame, area: Rect, p: &LinkPicker, theme: &Theme) {
    let rows: Vec<String> = p
        .items
        .iter()
        .map(|l| {
            let to = match &l.goes {
                Goes::Web => crate::model::link::host(&l.href)
                    .unwrap_or(&l.href)
                    .to_string(),
                Goes::Lesson(_) => format!("lesson {}", l.href),
                Goes::Nowhere => format!("{} (cannot open)", l.href),
            };
            format!("{} → {to}", l.text.trim())
        })
        .collect();
    numbered(f, area, 90, "Links · Enter to open", &rows, p.cursor, theme);
}

/// `rows` numbered from 1 in a box of at most `width` columns, the one at
/// `cursor` reversed and kept in view.
fn numbered(
    f: &mut Frame,
    area: Rect,
    width: u16,
    title: &str,
    rows: &[String],
    cursor: usize,
    theme: &Theme,
) {
    let height = (rows.len() as u16).saturating_add(2).min(area.height);
    let inner = boxed(f, area, width, height, title, theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height).max(1);
    let first = cursor.saturating_sub(visible.saturating_sub(1));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(i, row)| {
            let mut style = theme.style(Role::Text.into());
            if i == cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            Line::styled(fit(&format!("{}. {row}", i + 1), w), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
