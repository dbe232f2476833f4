//! Laid-out lines as text for stdout: with SGR colour codes from the
//! theme, or plain.

use crate::layout::{Line, Lines};
use crate::theme::Theme;
use ratatui::backend::IntoCrossterm;
use ratatui::crossterm::style::{ContentStyle, StyledContent};

/// [`write_lines`] for a page's lines in `range`, made a few hundred at
/// a time (never the whole page at once): each batch ends at a blank
/// line, which no link's text and target straddle.
pub fn write_page(
    out: &mut String,
    lines: &Lines,
    range: std::ops::Range<usize>,
    theme: Option<&Theme>,
) {
    const BATCH: usize = 256;
    let end = range.end.min(lines.len());
    let mut from = range.start.min(end);
    while from < end {
        let mut to = (from + BATCH).min(end);
        while to < end && lines.text(to - 1).is_some_and(|t| !t.trim().is_empty()) {
            to += 1;
        }
        write_lines(out, &lines.range(from..to).collect::<Vec<_>>(), theme);
        from = to;
    }
}

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
