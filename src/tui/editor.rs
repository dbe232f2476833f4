//! A long note written in the learner's own editor: `$EDITOR`, else
//! `$VISUAL` (the terminal given to it meanwhile, see the host), on a
//! file of the cache folder that is removed after.

use crate::state::Edited;
use crate::state::notes::editor::MAX_NOTE;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The editor the learner set, if any: `$EDITOR`, then `$VISUAL`.
pub(super) fn chosen() -> Option<String> {
    ["EDITOR", "VISUAL"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|e| e.to_string_lossy().trim().to_string())
        .find(|e| !e.is_empty())
}

/// Runs `editor` on `text` and reads back what it saved; the terminal
/// must be the shell's while it runs. Its file is in the cache folder,
/// else the system's temporary one.
pub(super) fn edit(editor: &str, text: &str) -> Edited {
    let dir = crate::index::cache_dir().unwrap_or_else(std::env::temp_dir);
    edit_in(&dir, editor, text)
}

fn edit_in(dir: &Path, editor: &str, text: &str) -> Edited {
    let file = match write_note(dir, text) {
        Ok(file) => file,
        Err(e) => return Edited::Failed(format!("the note's file could not be written ({e})")),
    };
    let ran = run(editor, &file);
    let back = ran.and_then(|()| read_back(&file));
    let _ = std::fs::remove_file(&file);
    match back {
        Ok(text) => Edited::Text(text),
        Err(why) => Edited::Failed(why),
    }
}

/// The note in a file of its own in `dir`, made new so no other file is
/// written over.
fn write_note(dir: &Path, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let path = dir.join(format!("note-{}-{stamp}.md", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    f.write_all(text.as_bytes())?;
    if !text.is_empty() {
        f.write_all(b"\n")?;
    }
    Ok(path)
}

/// The editor on `file`, as git runs it: through the shell, so that
/// `EDITOR="code --wait"` or a quoted path works.
fn run(editor: &str, file: &Path) -> Result<(), String> {
    #[cfg(unix)]
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .arg(file)
        .status();
    #[cfg(not(unix))]
    let status = {
        let mut words = editor.split_whitespace();
        let program = words.next().unwrap_or(editor);
        std::process::Command::new(program)
            .args(words)
            .arg(file)
            .status()
    };
    let shown = crate::model::sanitize::clean_owned(editor);
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("the editor ({shown}) ended with {s}")),
        Err(e) => Err(format!("the editor ({shown}) could not be started: {e}")),
    }
}

/// What the editor saved, made safe as lesson text is (control
/// characters shown, not obeyed: `model::sanitize`), tabs as spaces, the
/// line ends trimmed, and no longer than a note may be.
fn read_back(file: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(4 * MAX_NOTE as u64).read_to_end(&mut bytes))
        .map_err(|e| format!("the note could not be read back ({e})"))?;
    Ok(cleaned(&String::from_utf8_lossy(&bytes)))
}

fn cleaned(raw: &str) -> String {
    let text = raw.replace("\r\n", "\n").replace('\t', "    ");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let text = lines.join("\n");
    let mut text = crate::model::sanitize::clean_owned(text.trim_end());
    if text.len() > MAX_NOTE {
        let mut cut = MAX_NOTE;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_comes_back_is_made_safe_and_cut_to_a_note() {
        assert_eq!(
            cleaned("Why?\r\n\tBecause.\x1b[2J  \n\n"),
            "Why?\n    Because.␛[2J"
        );
        let long = "é".repeat(MAX_NOTE);
        let back = cleaned(&long);
        assert!(back.len() <= MAX_NOTE && back.chars().all(|c| c == 'é'));
    }

    #[cfg(unix)]
    #[test]
    fn an_editor_edits_the_note_through_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let edited = edit_in(dir.path(), "sed -i -e 's/one/two/'", "line one");
        assert_eq!(edited, Edited::Text("line two".into()));
        let failed = edit_in(dir.path(), "false", "kept");
        assert!(
            matches!(&failed, Edited::Failed(why) if why.contains("ended with")),
            "{failed:?}"
        );
        let left = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(left, 0, "the note's file is removed");
    }
}
