//! Marks, highlights and notes (issue 28) through the real loop: marks
//! across lessons, a selection highlighted and noted, drawn on the page,
//! and placed on the same words after the lesson file is edited.

use crate::common::{Reader, run_in};
use lectern::model::Change;
use lectern::model::anchor::Status;
use lectern::state::{Action, Effect, Overlay};
use ratatui::style::Modifier;
use std::path::Path;

const ONE: &str = "# Ownership\n\n\
Ownership is a set of rules that govern how a program manages memory.\n\n\
Some languages have garbage collection that looks for unused memory.\n\n\
Rust uses a third approach: memory is managed through a system of ownership.\n\n\
None of the features of ownership slow down your program while it runs.\n\n\
The stack and the heap are parts of memory your code can use at runtime.\n\n\
All data stored on the stack must have a known, fixed size.\n\n\
Pushing to the stack is faster than allocating on the heap.\n\n\
Accessing data in the heap is slower than accessing data on the stack.\n";

const TWO: &str = "# Borrowing\n\n\
A reference is like a pointer: an address we can follow to reach data.\n\n\
Unlike a pointer, a reference is guaranteed to point to a valid value.\n";

fn course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-ownership.md"), ONE).unwrap();
    std::fs::write(dir.path().join("02-borrowing.md"), TWO).unwrap();
    dir
}

fn reader(dir: &Path) -> Reader {
    let mut r = Reader::folder(dir, 80, 10);
    r.open(0);
    assert_eq!(r.title(), "Ownership");
    r
}

/// The page's rows as text.
fn screen(r: &Reader) -> Vec<String> {
    let buf = r.host.terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// The text of the cells drawn underlined (the highlights), row by row.
fn underlined(r: &Reader) -> Vec<String> {
    let buf = r.host.terminal.backend().buffer();
    (1..buf.area.height - 1)
        .map(|y| {
            (0..buf.area.width)
                .filter(|&x| buf[(x, y)].modifier.contains(Modifier::UNDERLINED))
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .filter(|row| !row.trim().is_empty())
        .collect()
}

fn annotations(r: &Reader) -> Vec<(String, String)> {
    r.effects()
        .iter()
        .filter_map(|e| match e {
            Effect::Write(Change::Annotation { target, note, .. }) => {
                Some((target.exact.clone(), note.clone()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_mark_returns_to_its_line_from_another_lesson_and_back_again() {
    let dir = course();
    let mut r = reader(dir.path());
    r.keys("6j");
    // A mark is at the first words on the top line (below a blank one).
    let doc = r.s.reader.doc().unwrap();
    let top = (r.s.reader.top..doc.total())
        .find(|&i| doc.line_text(i).is_some_and(|t| !t.trim().is_empty()))
        .unwrap();
    r.keys("ma");
    assert!(r.s.notice.as_deref().unwrap_or("").contains("Mark a set"));
    r.keys("]");
    assert_eq!(r.title(), "Borrowing");
    // The marks are listed while the letter is awaited.
    r.keys("'");
    assert!(matches!(r.s.overlay, Some(Overlay::Marks(_))));
    assert!(screen(&r).iter().any(|row| row.contains("a  Ownership:")));
    r.keys("a");
    assert_eq!((r.title().as_str(), r.s.reader.top), ("Ownership", top));
    r.keys("''");
    assert_eq!(r.title(), "Borrowing");
    r.keys("''");
    assert_eq!((r.title().as_str(), r.s.reader.top), ("Ownership", top));
    r.keys("'z");
    assert!(r.s.notice.as_deref().unwrap_or("").contains("No mark z"));
}

#[test]
fn a_selection_highlighted_is_underlined_with_a_marker_in_the_margin() {
    let dir = course();
    let mut r = reader(dir.path());
    r.keys("3jvww");
    assert!(matches!(r.s.overlay, Some(Overlay::Select(_))));
    r.keys("\n");
    assert_eq!(r.s.overlay, None);
    let made = annotations(&r);
    assert_eq!(made.len(), 1, "{made:?}");
    let quote = made[0].0.clone();
    assert_eq!(quote.split(' ').count(), 3, "{quote}");
    assert_eq!(underlined(&r).join(" "), quote);
    assert!(screen(&r).iter().any(|row| row.contains('▌')));
    // `d` on it takes it away: a tombstone, and nothing drawn.
    r.keys("vd");
    assert!(underlined(&r).is_empty());
    let deleted = r
        .effects()
        .iter()
        .any(|e| matches!(e, Effect::Write(Change::Annotation { deleted: true, .. })));
    assert!(deleted);
}

#[test]
fn a_note_is_typed_on_lines_selected_and_listed() {
    let dir = course();
    let mut r = reader(dir.path());
    r.keys("2jVi");
    assert!(matches!(r.s.overlay, Some(Overlay::Note(_))));
    r.keys("Why rules?");
    r.act(Action::Input('\n'));
    r.keys("Ask.\n");
    let made = annotations(&r);
    assert_eq!(made.len(), 1);
    assert_eq!(made[0].1, "Why rules?\nAsk.");
    assert!(screen(&r).iter().any(|row| row.contains('✎')));
    r.keys("H");
    let rows = screen(&r).join("\n");
    assert!(rows.contains("[ok] Ownership"), "{rows}");
    assert!(rows.contains("Why rules? ⏎ Ask."), "{rows}");
    r.keys("zzz");
    assert!(!screen(&r).join("\n").contains("Why rules?"));
    r.keys("\x7f\x7f\x7f\x1b");
    assert_eq!(r.s.overlay, None);
}

/// Puts the page line holding `text` on top (`NG`).
fn to_top(r: &mut Reader, text: &str) {
    let doc = r.s.reader.doc().unwrap();
    let line = (0..doc.total())
        .find(|&i| doc.line_text(i).is_some_and(|t| t.contains(text)))
        .unwrap();
    r.keys(&format!("{}G", line + 1));
    assert_eq!(r.s.reader.top, line, "{text} on top");
}

#[test]
fn a_note_stays_on_its_words_when_text_is_added_above_and_a_deleted_one_is_an_orphan() {
    let dir = course();
    let mut r = reader(dir.path());
    to_top(&mut r, "Rust uses a third");
    r.keys("Vikept\n");
    to_top(&mut r, "Some languages");
    r.keys("V\n");
    let edited = ONE
        .replace(
            "# Ownership\n\n",
            "# Ownership\n\nA new paragraph, added above the others, long enough.\n\n",
        )
        .replace(
            "Some languages have garbage collection that looks for unused memory.\n\n",
            "",
        );
    std::fs::write(dir.path().join("01-ownership.md"), &edited).unwrap();
    r.keys("][");
    assert_eq!(r.title(), "Ownership");
    let notes = &r.s.reader.notes;
    let status = |quote: &str| {
        let n = notes
            .notes
            .iter()
            .find(|n| n.target.exact.starts_with(quote));
        n.and_then(|n| n.status)
    };
    assert_eq!(status("Rust uses a third"), Some(Status::Moved));
    assert_eq!(status("Some languages"), Some(Status::Orphan));
    // Drawn on the very words, wherever they are now.
    let kept = notes
        .notes
        .iter()
        .find(|n| n.note == "kept")
        .unwrap()
        .clone();
    to_top(&mut r, "Rust uses a third");
    assert_eq!(underlined(&r).join(" "), kept.target.exact);
}

// ---- the real binary in a pseudo-terminal ---------------------------------

/// The underlined text of each screen row, as the terminal shows it.
fn underlined_rows(t: &crate::common::pty::Term) -> Vec<String> {
    let s = t.screen.lock().unwrap();
    let screen = s.parser.screen();
    let (rows, cols) = screen.size();
    (0..rows.get())
        .map(|y| {
            (0..cols.get())
                .filter_map(|x| screen.cell(y, x))
                .filter(|c| c.underline())
                .map(|c| c.contents().to_string())
                .collect::<String>()
        })
        .filter(|r| !r.trim().is_empty())
        .collect()
}

/// The line of built lesson text holding `text` at 80 columns (less the
/// page's two margins of 2), from the file as it is.
fn line_of(file: &Path, text: &str) -> usize {
    let lesson = lectern::loader::load(&lectern::loader::Origin::File(file.to_path_buf()))
        .unwrap()
        .lesson;
    let page = lectern::layout::page(&lesson, 76, &Default::default());
    (0..page.lines.len())
        .find(|&i| page.lines.text(i).is_some_and(|t| t.contains(text)))
        .unwrap()
}

#[test]
fn a_note_typed_survives_quitting_and_the_file_being_edited() {
    use crate::common::pty::Term;
    let dir = course();
    let data = tempfile::tempdir().unwrap();
    let lesson = dir.path().join("01-ownership.md");
    let mut t = Term::spawn(&[dir.path()], data.path(), 80, 12);
    t.wait_for("q quit");
    // The line on top, selected whole and noted.
    t.press(&format!("{}G", line_of(&lesson, "Rust uses a third") + 1));
    t.wait_until("the line on top", |s| {
        s.lines()
            .nth(1)
            .is_some_and(|l| l.contains("Rust uses a third"))
    });
    t.press("Vi");
    t.wait_for("Note · Enter keeps it");
    t.press("on the very words\r");
    t.wait_for("Note kept");
    t.wait_until("the note's marker", |s| s.contains('✎'));
    let before = underlined_rows(&t);
    assert!(
        before
            .iter()
            .any(|r| r.contains("Rust uses a third approach")),
        "{before:?}"
    );
    t.quit_cleanly();

    let edited = ONE.replace(
        "# Ownership\n\n",
        "# Ownership\n\nA paragraph added above the others, after the note was written.\n\n",
    );
    std::fs::write(&lesson, edited).unwrap();
    let mut t = Term::spawn(&[dir.path()], data.path(), 80, 12);
    t.wait_for("q quit");
    // The place follows its words: the noted line is on top again.
    t.wait_until("the noted line on top, marked", |s| {
        s.lines()
            .nth(1)
            .is_some_and(|l| l.contains("Rust uses a third") && l.contains('✎'))
    });
    assert_eq!(underlined_rows(&t), before, "the same words, underlined");
    t.press("H");
    t.wait_for("[moved] Ownership");
    t.wait_for("on the very words");
    t.esc();
    t.wait_gone("on the very words");
    t.quit_cleanly();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .arg("--data-dir")
        .arg(data.path())
        .args(["notes", "--format", "json"])
        .output()
        .unwrap();
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains("\"status\": \"moved\""), "{json}");
    assert!(
        json.contains("\"exact\": \"Rust uses a third approach"),
        "{json}"
    );
    let md = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .arg("--data-dir")
        .arg(data.path())
        .arg("notes")
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.contains("### Ownership\n\n> Rust uses a third approach"),
        "{md}"
    );
    assert!(
        md.contains("on the very words\n\n*moved* · [Ownership](file://"),
        "{md}"
    );
}

#[test]
fn an_export_round_trips_through_import() {
    let dir = course();
    let course = dir.path().to_str().unwrap();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Beside the course, not in it: a JSON file in it is one of its lessons.
    let notes = a.path().join("in.json");
    std::fs::write(
        &notes,
        r#"{"items": [
          {"id": "urn:lectern:note:n-1", "type": "Annotation", "created": "2026-03-01T09:00:00.000Z",
           "body": [{"type": "TextualBody", "value": "Why a third?\nAsk."}],
           "target": {"source": "x", "selector": [
             {"type": "TextQuoteSelector", "exact": "a system of ownership", "prefix": "managed through ", "suffix": "."},
             {"type": "TextPositionSelector", "start": 0, "end": 21}]},
           "lectern": {"course": "COURSE", "lesson": "01-ownership", "block": 4}},
          {"id": "urn:lectern:note:n-2", "type": "Annotation",
           "target": {"source": "x", "selector": [
             {"type": "TextQuoteSelector", "exact": "words no lesson has", "prefix": "", "suffix": ""}]},
           "lectern": {"course": "COURSE", "lesson": "02-borrowing", "block": 1}}
        ]}"#
        .replace("COURSE", &slug(dir.path())),
    )
    .unwrap();
    assert_eq!(
        run_in(a.path(), &["notes", "import", notes.to_str().unwrap()]),
        "2 notes imported.\n"
    );
    let first = run_in(a.path(), &["notes", course, "--format", "json"]);
    assert!(
        first.contains("\"status\": \"moved\"") && first.contains("\"status\": \"orphan\""),
        "{first}"
    );
    let exported = b.path().join("out.json");
    std::fs::write(&exported, &first).unwrap();
    run_in(b.path(), &["notes", "import", exported.to_str().unwrap()]);
    assert_eq!(
        run_in(b.path(), &["notes", course, "--format", "json"]),
        first
    );
    let md = run_in(b.path(), &["notes", course]);
    assert!(
        md.contains("> a system of ownership\n\nWhy a third?\nAsk.\n\n*moved*"),
        "{md}"
    );
    assert!(md.contains("> words no lesson has\n\n*orphan*"), "{md}");
}

/// The slug lectern gives the course folder `dir`.
fn slug(dir: &Path) -> String {
    let lib = lectern::loader::open_paths(&[dir.to_path_buf()]).unwrap();
    lib.courses[0].slug.clone()
}

/// The screen as drawn by the loop (characters only: the underlines are
/// checked above).
fn shot(r: &Reader) -> String {
    r.host.terminal.backend().to_string()
}

#[test]
fn the_screens_of_marks_highlights_and_notes() {
    // A folder of its own name: the header shows it.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("Notes course");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("01-ownership.md"), ONE).unwrap();
    std::fs::write(dir.join("02-borrowing.md"), TWO).unwrap();
    let mut r = Reader::folder(&dir, 72, 14);
    r.open(0);
    r.keys("2jma4jmbvwww\n");
    r.keys("2jVi");
    r.keys("Is this a rule?");
    insta::assert_snapshot!("note_editor", shot(&r));
    r.keys("\n'");
    insta::assert_snapshot!("marks_listed", shot(&r));
    r.keys("\x1b");
    insta::assert_snapshot!("page_with_highlights", shot(&r));
    r.keys("H");
    insta::assert_snapshot!("notes_listed", shot(&r));
    r.keys("\tOwn");
    insta::assert_snapshot!("notes_in_course_order_filtered", shot(&r));
}
