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

/// The page's links, each with where it goes in full: its text on one
/// line, its address below it, wrapped and never cut, so that it can be
/// read (and typed elsewhere) even where nothing can open it.
pub fn links(f: &mut Frame, area: Rect, p: &LinkPicker, theme: &Theme) {
    let width = 90.min(area.width);
    let w = usize::from(width.saturating_sub(2)).max(8);
    let items: Vec<Vec<String>> = p
        .items
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let to = match &l.goes {
                Goes::Web => l.href.clone(),
                Goes::Lesson(_) => format!("lesson {}", l.href),
                Goes::Nowhere => format!("{} (cannot open)", l.href),
            };
            let mut rows = vec![fit(&format!("{}. {}", i + 1, l.text.trim()), w)];
            rows.extend(
                wrap_chars(&to, w.saturating_sub(3))
                    .into_iter()
                    .map(|r| format!("   {r}")),
            );
            rows
        })
        .collect();
    let total: usize = items.iter().map(Vec::len).sum();
    let height = u16::try_from(total + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let title = "Links · Enter to open · y to copy";
    let inner = boxed(f, area, width, height, title, theme);
    let visible = usize::from(inner.height).max(1);
    // The first item shown: as early as lets the cursor's still fit.
    let mut first = p.cursor.min(items.len().saturating_sub(1));
    let mut used = items.get(first).map_or(0, Vec::len);
    while first > 0 && used + items[first - 1].len() <= visible {
        first -= 1;
        used += items[first].len();
    }
    let lines: Vec<Line> = items
        .iter()
        .enumerate()
        .skip(first)
        .flat_map(|(i, rows)| {
            let mut style = theme.style(Role::Text.into());
            if i == p.cursor {
                style = style.add_modifier(Modifier::REVERSED);
            }
            rows.iter().map(move |r| Line::styled(r.clone(), style))
        })
        .take(visible)
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// `text` in rows of at most `width` columns, cut between characters (an
/// address has no spaces to wrap at).
fn wrap_chars(text: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let width = width.max(1);
    let mut rows = vec![String::new()];
    let mut used = 0;
    for c in text.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw > width && used > 0 {
            rows.push(String::new());
            used = 0;
        }
        if let Some(row) = rows.last_mut() {
            row.push(c);
        }
        used += cw;
    }
    rows
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
