//! The course-wide search overlay: the query, how far the index has got,
//! and the matching lessons, best first, each with its number, module,
//! title and a snippet with the matched words marked.

use super::chrome::fit;
use super::overlay::boxed;
use crate::model::sanitize::clean;
use crate::state::{CourseHit, CourseSearch, Snippet, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthChar;

/// `12345` as `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "indexed 2,400 of 10,000" while the index is being built; "reading
/// the course: 2,400 of 100,000 lessons" while its listing is read.
pub fn progress(s: &State) -> Option<String> {
    if let Some((done, total)) = s.library.reading {
        return Some(format!(
            "reading the course: {} of {} lessons",
            thousands(done),
            thousands(total)
        ));
    }
    match s.library.indexing {
        Some((done, total)) if total > 0 && !s.library.index_ready => Some(format!(
            "indexed {} of {}",
            thousands(done),
            thousands(total)
        )),
        _ => None,
    }
}

fn status(s: &State, cs: &CourseSearch) -> String {
    let counted = match (cs.query.trim().is_empty(), cs.total) {
        (true, _) => "Type words to find, in any order; \"quotes\" for a phrase.".to_string(),
        (false, 0) => "No lesson matches every word.".to_string(),
        (false, 1) => "1 lesson matches.".to_string(),
        (false, n) if n > cs.results.len() => format!(
            "{} lessons match; the best {}:",
            thousands(n),
            cs.results.len()
        ),
        (false, n) => format!("{} lessons match, best first:", thousands(n)),
    };
    match progress(s) {
        Some(p) => format!("{p} · {counted}"),
        None => counted,
    }
}

pub fn draw(f: &mut Frame, area: Rect, s: &State, cs: &CourseSearch, theme: &Theme) {
    let inner = boxed(f, area, 90, area.height, "Search the course", theme);
    let w = usize::from(inner.width);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("› ", theme.accent()),
            Span::raw(format!("{}▏", clean(&cs.query))),
        ]),
        Line::styled(
            fit(&status(s, cs), w),
            theme.style(crate::layout::Role::Dim.into()),
        ),
    ];
    let window = cs.window(usize::from(inner.height).saturating_sub(2));
    for (i, hit) in cs
        .results
        .iter()
        .enumerate()
        .take(window.end)
        .skip(window.start)
    {
        let mut style = theme.accent();
        if i == cs.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(fit(&heading(s, hit), w), style));
        // Its title alone until its snippet is read.
        lines.push(match &hit.found {
            Some(found) => snippet(found, w, theme),
            None => Line::default(),
        });
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// `  12  Module 2: Checks · Why wrong answers tempt you`
fn heading(s: &State, hit: &CourseHit) -> String {
    let Some(l) = s.course().lessons.get(hit.lesson) else {
        return String::from("?");
    };
    let module = l
        .module
        .as_ref()
        .map(|m| format!("{} · ", clean(&m.title)))
        .unwrap_or_default();
    format!("{:>5}  {module}{}", hit.lesson + 1, clean(&l.title))
}

/// The snippet, indented, cut to `w` columns, its marks in the match
/// style (it was sanitised by the runtime).
fn snippet(found: &Snippet, w: usize, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::raw("       ")];
    let mut room = w.saturating_sub(7);
    let mut at = 0;
    let text = &found.text;
    let mut cuts: Vec<(usize, usize, bool)> = Vec::new();
    for &(s, e) in &found.marks {
        if s >= at && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e) {
            cuts.push((at, s, false));
            cuts.push((s, e, true));
            at = e;
        }
    }
    cuts.push((at, text.len(), false));
    for (s, e, marked) in cuts {
        let mut part = String::new();
        for c in text[s..e].chars() {
            let cw = c.width().unwrap_or(0);
            if cw > room {
                room = 0;
                break;
            }
            room -= cw;
            part.push(c);
        }
        if !part.is_empty() {
            spans.push(if marked {
                Span::styled(part, theme.matched(false))
            } else {
                Span::raw(part)
            });
        }
        if room == 0 {
            break;
        }
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(super::thousands(2400), "2,400");
        assert_eq!(super::thousands(10000), "10,000");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1_234_567), "1,234,567");
    }
}
