//! The help screen, generated from the key table.

use super::overlay::boxed;
use crate::keymap;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, top: usize, theme: &Theme) {
    let inner = boxed(
        f,
        area,
        76,
        area.height,
        "Help · Esc to close · j/k/Space scroll",
        theme,
    );
    let help = keymap::help();
    // The widest key label sets the column, so a long one cannot run into
    // its description.
    let col = help
        .iter()
        .flat_map(|(_, rows)| {
            rows.iter()
                .map(|(keys, _)| crate::layout::wrap::width(keys))
        })
        .max()
        .unwrap_or(0)
        + 2;
    let mut lines = Vec::new();
    for (screen, rows) in help {
        if rows.is_empty() {
            continue;
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(screen.title(), theme.accent()));
        for (keys, what) in rows {
            let pad = col.saturating_sub(crate::layout::wrap::width(&keys));
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {keys}{}", " ".repeat(pad)),
                    theme.style(
                        crate::layout::Style::new(crate::layout::Role::Kbd)
                            .with(crate::layout::BOLD),
                    ),
                ),
                Span::raw(what),
            ]));
        }
    }
    // Clamp here: the state does not know how tall the help box is.
    let max = lines.len().saturating_sub(usize::from(inner.height));
    let top = top.min(max);
    let shown: Vec<Line> = lines.into_iter().skip(top).collect();
    f.render_widget(Paragraph::new(shown), inner);
}
