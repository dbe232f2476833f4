//! The note editor: a few lines typed on a highlight. Ctrl-J starts a new
//! line, Ctrl-U clears the line, Ctrl-W the word before the cursor, Enter
//! keeps the note, Esc drops what was typed.

use super::super::screens::Overlay;
use super::super::{Action, Effect, State};
use super::annotate;
use crate::model::anchor::Selector;

/// The longest note kept, in bytes: pages of text, not a pasted book.
pub const MAX_NOTE: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct NoteEditor {
    pub target: Selector,
    pub text: String,
    /// The annotation whose note this is; `None`: a new one.
    pub id: Option<String>,
}

impl NoteEditor {
    pub fn new(target: Selector, text: String, id: Option<String>) -> NoteEditor {
        NoteEditor { target, text, id }
    }

    fn edit(&mut self, a: &Action) {
        match a {
            Action::Input(c) if self.text.len() + c.len_utf8() <= MAX_NOTE => self.text.push(*c),
            Action::InputBackspace => {
                self.text.pop();
            }
            // The line being typed, not the whole note.
            Action::InputKillLine => {
                let start = self.text.rfind('\n').map_or(0, |i| i + 1);
                self.text.truncate(start);
            }
            Action::InputKillWord => {
                let start = self.text.rfind('\n').map_or(0, |i| i + 1);
                let mut line = self.text.split_off(start);
                super::super::line_edit::edit(&mut line, a);
                self.text.push_str(&line);
            }
            _ => {}
        }
    }
}

/// A click on the margin at page row `row`: the note whose marker is
/// there opens, as `v` then `i` on its words opens it (a highlight's bar:
/// its note, none yet).
pub(in crate::state) fn clicked(s: &mut State, row: u16) {
    let line = s.reader.top + usize::from(row);
    let notes = &s.reader.notes;
    let starts_here = |sh: &&super::Shown| sh.lines.first().is_some_and(|l| l.0 == line);
    let with_text =
        |sh: &&super::Shown| notes.notes.get(sh.note).is_some_and(|n| !n.note.is_empty());
    let shown = notes
        .on_line(line)
        .find(|sh| starts_here(sh) && with_text(sh))
        .or_else(|| notes.on_line(line).next());
    let Some(n) = shown.and_then(|sh| notes.notes.get(sh.note)) else {
        return;
    };
    let editor = NoteEditor::new(n.target.clone(), n.note.clone(), Some(n.id.clone()));
    s.overlay = Some(Overlay::Note(editor));
}

/// The editor's keys: `false` when it is not open.
pub(in crate::state) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Note(ed)) = &mut s.overlay else {
        return false;
    };
    match a {
        Action::Open => {
            let NoteEditor { target, text, id } = ed.clone();
            s.overlay = None;
            let text = text.trim_end().to_string();
            annotate(s, target, text, id, fx);
            s.notice = Some("Note kept (H lists them).".into());
        }
        Action::Back => s.overlay = None,
        a => ed.edit(a),
    }
    true
}
