//! What the linear mode writes: plain lines in reading order, with no box
//! drawing, frame or rule (a screen reader reads them aloud, a braille
//! display spends a cell on each), and each screen's text taken from the
//! same drawing the full-screen reader shows.

use crate::state::State;
use crate::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Whether `c` only draws (a frame, a rule, a shade), saying nothing.
fn decoration(c: char) -> bool {
    matches!(c, '\u{2500}'..='\u{259f}' | '\u{25a0}'..='\u{25ff}' | '\u{2800}'..='\u{28ff}')
}

/// `line` without its decoration, trimmed; `None` when nothing is left
/// of a line that held something (a rule, a frame's edge), which is not
/// written at all, so that only real blank lines separate paragraphs.
pub fn plain(line: &str) -> Option<String> {
    let had = !line.trim().is_empty();
    let kept: String = line.chars().filter(|&c| !decoration(c)).collect();
    // Frames leave their padding: runs of spaces inside stay (code keeps
    // its indentation), the ends go.
    let kept = kept.trim_end();
    let kept = kept.strip_prefix("  ").unwrap_or(kept);
    if had && kept.trim().is_empty() {
        None
    } else {
        Some(kept.to_string())
    }
}

/// Lines `from..to` of the open lesson (page and checks, in reading
/// order), as [`plain`] writes them, blank runs folded into one.
pub fn lesson_lines(s: &State, from: usize, to: usize) -> Vec<String> {
    let Some(doc) = s.reader.doc() else {
        return Vec::new();
    };
    let rows = (from..to.min(doc.total())).map_while(|i| doc.line(i).map(|l| l.text()));
    folded(rows)
}

/// `rows` as [`plain`] writes them: decoration gone, runs of blank lines
/// one, none at the end.
fn folded(rows: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for row in rows {
        if let Some(text) = plain(&row) {
            if text.is_empty() && out.last().is_none_or(String::is_empty) {
                continue;
            }
            out.push(text);
        }
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// The screen `s` shows now, drawn off screen at `width` × `height` as the
/// full-screen reader would draw it, as plain lines: for the overlays and
/// screens that have no text of their own (contents, results, a review
/// card, stats, help). The header and footer rows are left out.
pub fn screen_lines(s: &State, theme: &Theme, width: u16, height: u16) -> Vec<String> {
    let Ok(mut term) = Terminal::new(TestBackend::new(width, height));
    if term.draw(|f| crate::ui::draw(f, s, theme)).is_err() {
        return Vec::new();
    }
    let buf = term.backend().buffer();
    let rows = usize::from(height);
    let rows = (1..rows.saturating_sub(1)).map(|y| {
        (0..width)
            .map(|x| buf[(x, y as u16)].symbol().to_string())
            .collect::<String>()
    });
    folded(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoration_goes_and_text_stays() {
        assert_eq!(plain("  ────────"), None);
        assert_eq!(plain("  ╭─ sh ───").as_deref(), Some(" sh"));
        assert_eq!(
            plain("  │ lectern   # here").as_deref(),
            Some(" lectern   # here")
        );
        assert_eq!(plain("").as_deref(), Some(""));
        assert_eq!(plain("  A paragraph.  ").as_deref(), Some("A paragraph."));
        assert_eq!(
            plain("━━ Check your understanding ━━").as_deref(),
            Some(" Check your understanding")
        );
    }
}
