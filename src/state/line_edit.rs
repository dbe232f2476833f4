//! The keys that edit a line being typed (a query, an answer), as in a
//! shell: one implementation for every prompt.

use super::action::Action;

/// The longest line kept, in bytes: a program's output fits, a pasted
/// file does not.
const MAX_LINE: usize = 4096;

/// Applies an editing key to `text`, which stays under [`MAX_LINE`] bytes.
/// `false` when `a` is not an editing key (the prompt's own keys: Enter,
/// Esc, moving through results).
pub(crate) fn edit(text: &mut String, a: &Action) -> bool {
    edit_within(text, a, MAX_LINE)
}

/// [`edit`] for a search prompt, which stays under
/// [`crate::model::MAX_QUERY_BYTES`]: whether the key was an editing key.
pub(crate) fn edit_query(text: &mut String, a: &Action) -> bool {
    edit_within(text, a, crate::model::MAX_QUERY_BYTES)
}

fn edit_within(text: &mut String, a: &Action, max: usize) -> bool {
    match a {
        Action::Input(c) => {
            if text.len() + c.len_utf8() <= max {
                text.push(*c);
            }
        }
        Action::InputBackspace => {
            text.pop();
        }
        Action::InputKillLine => text.clear(),
        Action::InputKillWord => kill_word(text),
        _ => return false,
    }
    true
}

/// Ctrl-W: the spaces before the end, then the word.
fn kill_word(text: &mut String) {
    let kept = text.trim_end().len();
    let start = text[..kept]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    text.truncate(start);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_edit_as_in_a_shell() {
        let mut t = String::new();
        for c in "née  au  bout ".chars() {
            assert!(edit(&mut t, &Action::Input(c)));
        }
        edit(&mut t, &Action::InputKillWord);
        assert_eq!(t, "née  au  ");
        edit(&mut t, &Action::InputKillWord);
        assert_eq!(t, "née  ");
        edit(&mut t, &Action::InputBackspace);
        assert_eq!(t, "née ");
        edit(&mut t, &Action::InputKillLine);
        assert!(t.is_empty());
        assert!(!edit(&mut t, &Action::Open));
    }

    #[test]
    fn ctrl_w_deletes_the_word_before_the_cursor_as_a_shell_does() {
        let mut q = String::from("stale régression  ");
        kill_word(&mut q);
        assert_eq!(q, "stale ");
        kill_word(&mut q);
        assert_eq!(q, "");
        kill_word(&mut q);
        assert_eq!(q, "");
        let mut q = String::from("\"kv cache\"");
        kill_word(&mut q);
        assert_eq!(q, "\"kv ");
    }

    #[test]
    fn text_stays_under_its_cap() {
        let mut t = "x".repeat(3);
        edit_within(&mut t, &Action::Input('é'), 4);
        assert_eq!(t, "xxx");
        edit_within(&mut t, &Action::Input('y'), 4);
        assert_eq!(t, "xxxy");
    }
}
