//! Laid-out lines as text for stdout: with SGR colour codes from the
//! theme, or plain.

use crate::layout::{Line, Lines, Role};
use crate::theme::Theme;
use ratatui::backend::IntoCrossterm;
use ratatui::crossterm::style::{ContentStyle, StyledContent};

/// [`write_lines`] for a page's lines in `range`, made a few hundred at
/// a time (never the whole page at once). Styled, a batch ends after a
/// line where no link can be waiting for its target (see
/// `links::targets`): one with words and no link text.
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
        while theme.is_some() && to < end && !settled(lines.get(to - 1)) {
            to += 1;
        }
        write_lines(out, &lines.range(from..to).collect::<Vec<_>>(), theme);
        from = to;
    }
}

/// After `line`, no link text is waiting for its target.
fn settled(line: Option<Line>) -> bool {
    line.is_some_and(|l| {
        l.spans.iter().all(|s| s.style.role != Role::Link)
            && l.spans
                .iter()
                .any(|s| s.text.chars().any(char::is_alphanumeric))
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Span, Style};
    use crate::theme::ThemeKind;

    #[test]
    fn a_page_printed_in_batches_prints_as_one() {
        let span = |t: &str, r: Role| Span::new(t, Style::new(r));
        // Link text waiting for its target across many lines, rows of
        // words, and lines of no words at all.
        let mut lines: Vec<Line> = Vec::new();
        for i in 0..2_000 {
            let spans = match i % 7 {
                0 => vec![span("see ", Role::Text), span("the", Role::Link)],
                1 | 2 => vec![span("book ", Role::Link)],
                3 => vec![
                    span("more", Role::Link),
                    span(" <https://a.b/c>", Role::Dim),
                ],
                4 => vec![span("──", Role::Rule)],
                5 => Vec::new(),
                _ => vec![
                    span("1 ", Role::Text),
                    span(" │ ", Role::Rule),
                    span("2", Role::Text),
                ],
            };
            lines.push(Line { spans });
        }
        let compact: Lines = lines.iter().cloned().collect();
        for theme in [None, Some(Theme::new(ThemeKind::Dark))] {
            let (mut whole, mut batched) = (String::new(), String::new());
            write_lines(&mut whole, &lines[10..1_990], theme.as_ref());
            write_page(&mut batched, &compact, 10..1_990, theme.as_ref());
            assert_eq!(batched, whole);
            assert!(theme.is_none() || whole.contains("\x1b]8;;https://a.b/c"));
        }
    }
}
