//! What a review card is: a check of a lesson, or a learner's own note
//! whose text is a question (Anki's basic card: the note asks, the words
//! it highlights answer, and the learner grades how well they recalled
//! them). Both are scheduled by the same FSRS code and kept in the same
//! table, keyed by lesson and check id; a note's card has the note's id
//! there, after a prefix no check id can have (the loader strips control
//! characters from content, so no check id holds a line break).

/// What starts a note card's id where a check's stands.
const NOTE_CARD: &str = "note\n";

/// The id note `id`'s card is kept under, in the check's place.
pub fn note_card(id: &str) -> String {
    format!("{NOTE_CARD}{id}")
}

/// The note a card is, if it is a note's (`check`: its id in the check's
/// place).
pub fn card_note(check: &str) -> Option<&str> {
    check.strip_prefix(NOTE_CARD)
}

/// Whether a note asks a question, so it can be a card: its text ends
/// with a question mark (any script's: ? ？ ؟ ;).
pub fn asks(note: &str) -> bool {
    note.trim_end()
        .ends_with(['?', '\u{ff1f}', '\u{61f}', '\u{37e}'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_card_is_told_from_a_check_by_its_id() {
        let id = note_card("9f3a-1");
        assert_eq!(card_note(&id), Some("9f3a-1"));
        assert_eq!(card_note("q2"), None);
        assert_eq!(card_note("note-1"), None);
    }

    #[test]
    fn a_question_ends_with_a_question_mark() {
        assert!(asks("Why three rules?"));
        assert!(asks("Two lines.\nBut why? \n"));
        assert!(asks("なぜ？"));
        assert!(!asks("Why? Because."));
        assert!(!asks(""));
    }
}
