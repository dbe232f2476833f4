//! The screens of marks, highlights and notes: the marks list while a
//! mark's letter is awaited, the note editor, and the notes list; and the
//! page's highlights (underlined, a marker in the margin: never by colour
//! alone) and selection (reversed).

use super::chrome::fit;
use super::overlay::boxed;
use crate::layout::Role;
use crate::state::notes::{editor::NoteEditor, list, marks, select::Selection};
use crate::state::{Doc, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// The margin's marks: a highlight's lines, and the first line of one
/// with a note.
const HIGHLIGHT_MARK: &str = "▌";
const NOTE_MARK: &str = "✎";

/// `m` or `'`: the marks there are, and what each is at.
pub fn marks(f: &mut Frame, area: Rect, s: &State, set: bool, theme: &Theme) {
    let rows = marks::rows(s);
    let title = if set {
        "Set a mark: press a letter"
    } else {
        "Go to a mark: its letter, or ' to go back"
    };
    let height = (rows.len().max(1) as u16)
        .saturating_add(2)
        .min(area.height);
    let inner = boxed(f, area, 80, height, title, theme);
    let w = usize::from(inner.width);
    let mut lines: Vec<Line> = rows
        .iter()
        .map(|(c, lesson, words)| Line::raw(fit(&format!("{c}  {lesson}: {words}"), w)))
        .collect();
    if lines.is_empty() {
        let dim = theme.style(Role::Dim.into());
        lines.push(Line::styled("No marks yet: m then a letter sets one.", dim));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// The note being typed, under the words it is on.
pub fn editor(f: &mut Frame, area: Rect, ed: &NoteEditor, theme: &Theme) {
    let typed: Vec<&str> = ed.text.split('\n').collect();
    let height = (typed.len() as u16).saturating_add(4).min(area.height);
    let title = "Note · Enter keeps it · Ctrl-J new line · Esc drops it";
    let inner = boxed(f, area, 80, height, title, theme);
    let w = usize::from(inner.width);
    let quote = theme.style(Role::Quote.into());
    let mut lines = vec![Line::styled(
        fit(&format!("“{}”", ed.target.exact), w),
        quote,
    )];
    // Whether it is a review card, once it could be one.
    let card = match (ed.card, crate::model::card::asks(&ed.text)) {
        (true, _) => "A review card: R asks it, this highlight the answer (Ctrl-R: not)",
        (false, true) => "Ctrl-R makes this question a review card",
        (false, false) => "",
    };
    lines.push(Line::styled(fit(card, w), theme.style(Role::Dim.into())));
    let shown = usize::from(inner.height).saturating_sub(2).max(1);
    let skip = typed.len().saturating_sub(shown);
    for (i, row) in typed.iter().enumerate().skip(skip) {
        let cursor = if i + 1 == typed.len() { "▏" } else { "" };
        lines.push(Line::raw(fit(&format!("{row}{cursor}"), w)));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// `H`: every highlight and note, with its status, filtered.
pub fn list(f: &mut Frame, area: Rect, s: &State, l: &list::NotesList, theme: &Theme) {
    let rows = list::rows(s, l);
    let order = if l.by_course {
        "course order"
    } else {
        "newest first"
    };
    let title = format!(
        "Highlights and notes · {} · {order} (Tab) · filter: {}▏",
        rows.len(),
        l.query
    );
    let inner = boxed(f, area, 100, area.height, &title, theme);
    let w = usize::from(inner.width);
    let visible = usize::from(inner.height / 2).max(1);
    let first = l.cursor.saturating_sub(visible.saturating_sub(1));
    let dim = theme.style(Role::Dim.into());
    let mut lines = Vec::new();
    for (i, r) in rows.iter().enumerate().skip(first).take(visible) {
        let mut style = theme.style(Role::Text.into());
        if i == l.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let card = if r.card { " · card" } else { "" };
        let head = format!("[{}{card}] {} · “{}”", r.status, r.lesson, r.quote);
        lines.push(Line::styled(fit(&head, w), style));
        let note = r.text.replace('\n', " ⏎ ");
        let note = if note.is_empty() {
            "(highlight)".into()
        } else {
            note
        };
        lines.push(Line::styled(fit(&format!("    {note}"), w), dim));
    }
    if rows.is_empty() {
        lines.push(Line::styled(
            "None yet: v selects text, Enter highlights it.",
            dim,
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// The open lesson's highlights on screen row `y` (doc line `line`, drawn
/// from column `x`), and the selection there.
pub fn on_row(buf: &mut Buffer, s: &State, doc: &Doc, row: (u16, u16, usize), theme: &Theme) {
    let (x, y, line) = row;
    let Some(text) = doc.line_text(line) else {
        return;
    };
    let notes = &s.reader.notes;
    let mut marked = None;
    for sh in notes.on_line(line) {
        let has_note = notes.notes.get(sh.note).is_some_and(|n| !n.note.is_empty());
        let first = sh.lines.first().is_some_and(|l| l.0 == line);
        if marked.is_none() || (has_note && first) {
            marked = Some(if has_note && first {
                NOTE_MARK
            } else {
                HIGHLIGHT_MARK
            });
        }
        for &(_, a, b) in sh.lines.iter().filter(|l| l.0 == line) {
            patch(
                buf,
                x,
                y,
                &text,
                (a, b),
                Style::default().add_modifier(Modifier::UNDERLINED),
            );
        }
    }
    // In the margin: two columns left of the text, one on a narrow page.
    if let (Some(m), Some(at)) = (marked, x.checked_sub(2).or(x.checked_sub(1))) {
        let style = theme.style(Role::Marker.into());
        buf.set_string(at, y, m, style);
    }
    if let Some(crate::state::Overlay::Select(sel)) = &s.overlay {
        selection(buf, sel, doc, (x, y, line), &text);
    }
}

fn selection(buf: &mut Buffer, sel: &Selection, doc: &Doc, row: (u16, u16, usize), text: &str) {
    let (x, y, line) = row;
    let reversed = Style::default().add_modifier(Modifier::REVERSED);
    for (_, a, b) in sel.lines(doc).into_iter().filter(|l| l.0 == line) {
        patch(buf, x, y, text, (a, b), reversed);
    }
    let cursor = sel.flow.words[sel.cursor];
    if doc.doc_line(cursor.line as usize) == line {
        let (a, b) = (cursor.byte as usize, (cursor.byte + cursor.bytes) as usize);
        let bold = Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        patch(buf, x, y, text, (a, b), bold);
    }
}

/// Adds `style` to the cells of bytes `a..b` of the row's text.
fn patch(buf: &mut Buffer, x: u16, y: u16, text: &str, (a, b): (usize, usize), style: Style) {
    let (Some(before), Some(inside)) = (text.get(..a), text.get(a..b)) else {
        return;
    };
    let from = x.saturating_add(crate::layout::wrap::width(before) as u16);
    let w = crate::layout::wrap::width(inside) as u16;
    let area = buf.area;
    for cx in from..from.saturating_add(w).min(area.right()) {
        if y < area.bottom() {
            let cell = &mut buf[(cx, y)];
            cell.set_style(cell.style().patch(style));
        }
    }
}
