//! Laid-out lines as text for stdout: with SGR colour codes from the
//! theme, or plain.

use crate::layout::Line;
use crate::theme::Theme;
use ratatui::backend::IntoCrossterm;
use ratatui::crossterm::style::{ContentStyle, StyledContent};

/// Appends `lines` to `out`, one per row, trailing blanks trimmed.
/// Styled, links are OSC 8 hyperlinks (plain text has no escapes at all).
pub fn write_lines(out: &mut String, lines: &[Line], theme: Option<&Theme>) {
    let links = match theme {
        Some(_) => super::links::targets(lines),
        None => Vec::new(),
    };
    for (li, line) in lines.iter().enumerate() {
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
                    let styled = if style == ContentStyle::default() {
                        text.to_string()
                    } else {
                        StyledContent::new(style, text).to_string()
                    };
                    match links
                        .get(li)
                        .and_then(|l| l.get(i))
                        .and_then(Option::as_deref)
                    {
                        Some(url) => super::links::wrap(out, url, &styled),
                        None => out.push_str(&styled),
                    }
                }
                None => out.push_str(text),
            }
        }
        out.push('\n');
    }
}
