//! Laid-out lines as text for stdout: with SGR colour codes from the
//! theme, or plain.

use crate::layout::Line;
use crate::theme::Theme;
use ratatui::backend::IntoCrossterm;
use ratatui::crossterm::style::{ContentStyle, StyledContent};
use std::fmt::Write;

/// Appends `lines` to `out`, one per row, trailing blanks trimmed.
pub(crate) fn write_lines(out: &mut String, lines: &[Line], theme: Option<&Theme>) {
    for line in lines {
        let end = line.spans.iter().rposition(|s| !s.text.trim().is_empty());
        let spans = match end {
            Some(e) => &line.spans[..=e],
            None => &[][..],
        };
        for (i, span) in spans.iter().enumerate() {
            let text = if Some(i) == end {
                span.text.trim_end()
            } else {
                span.text.as_str()
            };
            match theme {
                Some(t) => {
                    let style: ContentStyle = t.style(span.style).into_crossterm();
                    if style == ContentStyle::default() {
                        out.push_str(text);
                    } else {
                        let _ = write!(out, "{}", StyledContent::new(style, text));
                    }
                }
                None => out.push_str(text),
            }
        }
        out.push('\n');
    }
}
