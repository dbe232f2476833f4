//! The note editor: a few lines typed on a highlight. Ctrl-J starts a new
//! line, Ctrl-U clears the line, Ctrl-W the word before the cursor, Ctrl-E
//! writes it in the learner's `$EDITOR` (the runtime runs it: an effect,
//! and the text back as a message), Ctrl-R makes a question a review card
//! (or not), Enter keeps the note, Esc drops what was typed.

use super::super::Overlay;
use super::super::{Action, Edited, Effect, State};
use super::{Note, Said, annotate};
use crate::model::anchor::Selector;
use crate::model::card::asks;

/// The longest note kept, in bytes: pages of text, not a pasted book.
pub const MAX_NOTE: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct NoteEditor {
    pub target: Selector,
    pub text: String,
    /// The annotation whose note this is; `None`: a new one.
    pub id: Option<String>,
    /// To be kept as a review card (if it asks a question).
    pub card: bool,
}

impl NoteEditor {
    /// A new note on `target`.
    pub fn new(target: Selector) -> NoteEditor {
        NoteEditor {
            target,
            text: String::new(),
            id: None,
            card: false,
        }
    }

    /// Annotation `n`'s note, to edit.
    pub fn of(n: &Note) -> NoteEditor {
        NoteEditor {
            target: n.target.clone(),
            text: n.note.clone(),
            id: Some(n.id.clone()),
            card: n.card,
        }
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
    s.overlay = Some(Overlay::Note(NoteEditor::of(n)));
}

/// The editor's keys: `false` when it is not open.
pub(in crate::state) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Note(ed)) = &mut s.overlay else {
        return false;
    };
    match a {
        Action::Open => {
            let NoteEditor {
                target,
                text,
                id,
                card,
            } = ed.clone();
            s.overlay = None;
            let note = text.trim_end().to_string();
            let asked = asks(&note);
            s.notice = Some(match (card, asked) {
                (true, true) => "Note kept, and a review card: R asks it when it is due.".into(),
                (true, false) => {
                    "Note kept, not a review card: a card's note ends with a question (?).".into()
                }
                _ => "Note kept (H lists them).".into(),
            });
            let card = card && asked;
            annotate(s, target, Said { note, card }, id, fx);
        }
        Action::Back => s.overlay = None,
        Action::EditNote => fx.push(Effect::EditNote(ed.text.clone())),
        Action::ToggleCard => ed.card = !ed.card,
        a => ed.edit(a),
    }
    true
}

/// The note back from the learner's editor: it replaces the one being
/// written, still to keep with Enter (or drop with Esc).
pub(in crate::state) fn edited(s: &mut State, edited: Edited) {
    let Some(Overlay::Note(ed)) = &mut s.overlay else {
        return;
    };
    s.notice = Some(match edited {
        Edited::Text(mut text) => {
            let mut cut = text.len().min(MAX_NOTE);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            ed.text = text;
            "Back from the editor: Enter keeps the note, Esc drops it.".into()
        }
        Edited::NoEditor => {
            "No editor set: $EDITOR (or $VISUAL) names the one Ctrl-E opens.".into()
        }
        Edited::Failed(why) => format!("The note is as it was: {why}."),
    });
}
