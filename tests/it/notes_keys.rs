//! Issue 28's keys beyond the first cut: counts with every motion of a
//! selection (the page's one count), a note's margin marker clicked, and a
//! long note written in `$EDITOR` (a fake one: a script that appends a
//! line) in the real binary.

use crate::common::Reader;
use lectern::app::Incoming;
use lectern::model::Change;
use lectern::state::{Action, Effect, Overlay};
use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::path::Path;

const LESSON: &str = "# Counting\n\n\
One two three four five six seven eight nine ten eleven twelve thirteen fourteen.\n\n\
The second paragraph has words of its own, enough of them to wrap once or twice at this width.\n\n\
A third paragraph, short.\n\n\
The fourth paragraph is the last one here.\n";

fn reader(dir: &Path) -> Reader {
    std::fs::write(dir.join("01-counting.md"), LESSON).unwrap();
    let mut r = Reader::folder(dir, 60, 14);
    r.open(0);
    r
}

/// The selection's (anchor, cursor) words, and the cursor's word's text.
fn selection(r: &Reader) -> (usize, usize, String) {
    let Some(Overlay::Select(sel)) = &r.s.overlay else {
        panic!("no selection: {:?}", r.s.overlay);
    };
    let w = sel.flow.words[sel.cursor];
    let word: String = sel.flow.text[w.start as usize..w.end()].iter().collect();
    (sel.anchor, sel.cursor, word)
}

/// The cursor after `keys` typed from a fresh `v` at the top, and after
/// `same` typed from another fresh one: the same word.
fn same_as(r: &mut Reader, keys: &str, same: &str) -> (usize, usize, String) {
    r.keys(&format!("\x1bgv{keys}"));
    let counted = selection(r);
    r.keys(&format!("\x1bgv{same}"));
    assert_eq!(selection(r), counted, "{keys} is {same}");
    counted
}

#[test]
fn a_count_repeats_every_motion_of_a_selection() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = reader(dir.path());
    r.keys("v");
    let (anchor, cursor, first) = selection(&r);
    assert_eq!((anchor, cursor, first.as_str()), (0, 0, "Counting"));
    // Word-wise: 3w, 5l, 10w (its 0 a digit, not the line's start), 2b.
    let (_, at, word) = same_as(&mut r, "jj3w", "jjwww");
    assert_eq!(word, "four", "{at}");
    let (_, _, word) = same_as(&mut r, "jj5l", "jjlllll");
    assert_eq!(word, "six");
    let (_, _, word) = same_as(&mut r, "jj10w", "jjwwwwwwwwww");
    assert_eq!(word, "eleven");
    let (_, _, word) = same_as(&mut r, "jj10w2b", "jj8w");
    assert_eq!(word, "nine");
    // Line-wise and by paragraphs and pages.
    same_as(&mut r, "3j", "jjj");
    same_as(&mut r, "2}", "}}");
    same_as(&mut r, "3}2{", "}}{");
    same_as(&mut r, "2\x04", "\x04\x04");
    // 0 alone is still the line's start.
    let (_, _, word) = same_as(&mut r, "jj3w0", "jj");
    assert_eq!(word, "One");
    // A count before G is the line it goes to, as on the page.
    let doc = r.s.reader.doc().unwrap();
    let line = (0..doc.total())
        .find(|&i| doc.line_text(i).is_some_and(|t| t.contains("A third")))
        .unwrap();
    r.keys(&format!("\x1bgv{}G", line + 1));
    assert_eq!(selection(&r).2, "A");
    // Esc drops a count half typed: the next motion moves once.
    r.keys("\x1bgv3\x1bv");
    r.keys("w");
    assert_eq!(selection(&r).1, 1);
    // In line-wise selection a count moves whole lines.
    r.keys("\x1bgV2j\n");
    let made: Vec<String> = r
        .effects()
        .iter()
        .filter_map(|e| match e {
            Effect::Write(Change::Annotation { target, .. }) => Some(target.exact.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(made.len(), 1);
    assert!(made[0].starts_with("Counting"), "{made:?}");
    assert!(made[0].contains("One two three"), "{made:?}");
}

#[test]
fn a_count_on_the_page_is_the_same_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = reader(dir.path());
    // Typed on the page and then v: v drops it, as any key not a motion.
    r.keys("3vw");
    assert_eq!(selection(&r).1, 1);
    assert_eq!(r.s.reader.count, None);
    r.act(Action::Back);
}

/// A left click at (column, row) of the screen.
fn click(r: &mut Reader, column: u16, row: u16) {
    let ev = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
    r.run(vec![Incoming::Term(ev)]);
}

/// The screen row (of the terminal) where `mark` is in the margin.
fn row_of_mark(r: &Reader, mark: &str) -> Option<u16> {
    let buf = r.host.terminal.backend().buffer();
    (0..buf.area.height).find(|&y| (0..3).any(|x| buf[(x, y)].symbol() == mark))
}

#[test]
fn clicking_a_notes_marker_opens_the_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-counting.md"), LESSON).unwrap();
    let mut r = Reader::folder(dir.path(), 60, 8);
    r.open(0);
    // A highlight on the second paragraph's first word, then a note on
    // the first paragraph's first words, its line on top.
    r.keys("6Gv\n4Gv3wiWhy count?\n");
    assert_eq!(r.s.overlay, None);
    let pen = row_of_mark(&r, "✎").expect("the note's marker");
    let bar = row_of_mark(&r, "▌")
        .unwrap_or_else(|| panic!("the highlight's marker:\n{}", r.host.terminal.backend()));
    // On the text, a click is the page's (nothing to answer here).
    click(&mut r, 10, pen);
    assert_eq!(r.s.overlay, None);
    click(&mut r, 0, pen);
    let Some(Overlay::Note(ed)) = &r.s.overlay else {
        panic!("the note opened: {:?}", r.s.overlay);
    };
    assert_eq!(ed.text, "Why count?");
    assert_eq!(ed.target.exact, "One two three four");
    assert!(ed.id.is_some(), "its own note, not a new one");
    r.keys("\x1b");
    // A highlight's bar opens the note editor on it (none yet).
    click(&mut r, 1, bar);
    let Some(Overlay::Note(ed)) = &r.s.overlay else {
        panic!("the highlight opened: {:?}", r.s.overlay);
    };
    assert_eq!(ed.text, "");
    assert!(ed.id.is_some());
    r.keys("\x1b");
    // The margin of a line with nothing on it: nothing opens.
    click(&mut r, 0, bar + 3);
    assert_eq!(r.s.overlay, None);
}

/// The text of the cells drawn underlined (the highlights).
fn underlined(r: &Reader) -> String {
    use ratatui::style::Modifier;
    let buf = r.host.terminal.backend().buffer();
    let rows = (1..buf.area.height - 1).map(|y| {
        (0..buf.area.width)
            .filter(|&x| buf[(x, y)].modifier.contains(Modifier::UNDERLINED))
            .map(|x| buf[(x, y)].symbol())
            .collect::<String>()
    });
    rows.filter(|row| !row.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_note_in_a_fold_stays_on_its_words_whether_the_fold_is_open_or_closed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("01-fold.md"),
        "# Fold\n\nFirst paragraph here.\n\n<details><summary>Hint</summary>\n\n\
         The hidden words of the fold body.\n\n</details>\n\nAfter the fold comes this text.\n\n\
         And more text.\n\nAnd more still.\n\nThe end.\n",
    )
    .unwrap();
    let mut r = Reader::folder(dir.path(), 60, 6);
    r.open(0);
    let line_of = |r: &Reader, text: &str| {
        let doc = r.s.reader.doc().unwrap();
        (0..doc.total())
            .find(|&i| doc.line_text(i).is_some_and(|t| t.contains(text)))
            .unwrap()
    };
    // After the fold, made while it is closed.
    let after = line_of(&r, "After the fold");
    r.keys(&format!("{}Gv2w\n", after + 1));
    // In the fold, made while it is open.
    r.keys("z");
    let hidden = line_of(&r, "The hidden words");
    r.keys(&format!("{}Gvw3w\n", hidden + 1));
    let notes = &r.s.reader.notes.notes;
    let quotes: Vec<&str> = notes.iter().map(|n| n.target.exact.as_str()).collect();
    assert_eq!(quotes, ["After the fold", "The hidden words of the"]);
    assert_eq!(underlined(&r), "The hidden words of the After the fold");
    let ok = |r: &Reader| {
        r.s.reader
            .notes
            .notes
            .iter()
            .map(|n| n.status.map(|s| s.name()))
            .collect::<Vec<_>>()
    };
    assert_eq!(ok(&r), [Some("ok"), Some("ok")]);
    // Closed: the fold's note is still ok, drawn nowhere; the other is
    // on its words.
    r.keys("z");
    assert_eq!(ok(&r), [Some("ok"), Some("ok")]);
    r.keys(&format!("{}G", line_of(&r, "Hint") + 1));
    assert_eq!(underlined(&r), "After the fold");
    r.keys("z");
    r.keys(&format!("{}G", line_of(&r, "The hidden words") + 1));
    assert!(underlined(&r).starts_with("The hidden words of the"));
}

#[test]
fn ctrl_e_writes_the_note_in_the_editor_and_says_when_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = reader(dir.path());
    r.keys("jjv3wiWhy count?");
    // No $EDITOR: the footer says so, and the note is as typed.
    r.keys("\x05");
    assert_eq!(r.host.edited, ["Why count?"]);
    let notice = r.s.notice.clone().unwrap_or_default();
    assert!(notice.contains("No editor set: $EDITOR"), "{notice}");
    assert!(matches!(&r.s.overlay, Some(Overlay::Note(ed)) if ed.text == "Why count?"));
    // An editor: what it saved replaces the note, kept with Enter.
    r.host.editor = Some("Because of \x1b[2Jthis.".into());
    r.keys("\x05");
    let Some(Overlay::Note(ed)) = &r.s.overlay else {
        panic!("still writing the note");
    };
    assert_eq!(ed.text, "Why count?\nBecause of \x1b[2Jthis.");
    assert!(
        r.s.notice
            .as_deref()
            .unwrap_or("")
            .contains("Back from the editor")
    );
    // The editor's Effect went to the host, not the runner.
    assert!(r.effects().contains(&Effect::EditNote("Why count?".into())));
    r.keys("\n");
    let notes = &r.s.reader.notes.notes;
    assert_eq!(notes.len(), 1);
    assert!(notes[0].note.starts_with("Why count?\nBecause of"));
}

/// A fake `$EDITOR`: a script that appends a line to the file it is given.
#[cfg(unix)]
fn fake_editor(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("fake-editor");
    std::fs::write(
        &script,
        "#!/bin/sh\nprintf 'A line from the editor.\\n' >> \"$1\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[cfg(unix)]
#[test]
fn the_editor_round_trip_in_the_real_terminal() {
    use crate::common::pty::{Opts, Term};
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-counting.md"), LESSON).unwrap();
    let data = tempfile::tempdir().unwrap();
    let tools = tempfile::tempdir().unwrap();
    let editor = fake_editor(tools.path());
    let editor = editor.to_str().unwrap();
    let vars = [("EDITOR", editor), ("VISUAL", "")];
    let opts = Opts {
        vars: &vars,
        ..Opts::new(data.path(), 80, 14)
    };
    let mut t = Term::lectern(&[dir.path()], &opts);
    t.wait_for("q quit");
    t.press("Vi");
    t.wait_for("Note · Enter keeps it");
    t.press("Why count?");
    t.wait_for("Why count?");
    t.press("\x05");
    t.wait_for("Back from the editor");
    t.wait_for("A line from the editor.");
    // The reader has the screen again, whole.
    t.wait_for("Note · Enter keeps it");
    t.press("\r");
    t.wait_for("Note kept");
    t.quit_cleanly();
    let left: Vec<_> = std::fs::read_dir(data.path().join("cache"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        !left
            .iter()
            .any(|n| n.to_string_lossy().starts_with("note-")),
        "{left:?}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .arg("--data-dir")
        .arg(data.path())
        .arg("notes")
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("Why count?\nA line from the editor."), "{md}");
}
