//! A note that asks a question as a review card (issue 28): made one in
//! the note editor or the notes list, due today in every count of due
//! cards, asked in the review (the note, then its highlight as the
//! answer), graded and scheduled by FSRS, and exported with its grades.

use crate::common::{Reader, run_in};
use chrono::{DateTime, TimeZone, Utc};
use lectern::model::Change;
use lectern::model::card::note_card;
use lectern::state::{Effect, Overlay};
use std::path::Path;

const LESSON: &str = "# Ownership\n\n\
Ownership is a set of rules that govern how a program manages memory.\n\n\
Some languages have garbage collection that looks for unused memory.\n\n\
Rust uses a third approach: memory is managed through a system of ownership.\n\n\
None of the features of ownership slow down your program while it runs.\n\n\
The stack and the heap are parts of memory your code can use at runtime.\n\n\
All data stored on the stack must have a known, fixed size.\n";

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 12, 0, 0).unwrap()
}

fn reader(dir: &Path) -> Reader {
    std::fs::write(dir.join("01-ownership.md"), LESSON).unwrap();
    let mut r = Reader::folder(dir, 80, 8);
    r.runner.clock = Some(noon());
    r.open(0);
    r
}

/// `NG`: the page line holding `text` on top.
fn to_top(r: &mut Reader, text: &str) {
    let doc = r.s.reader.doc().unwrap();
    let line = (0..doc.total())
        .find(|&i| doc.line_text(i).is_some_and(|t| t.contains(text)))
        .unwrap();
    r.keys(&format!("{}G", line + 1));
    assert_eq!(r.s.reader.top, line, "{text} on top");
}

/// What the store counts as due by the end of the day `now` is in: the
/// one rule the review, the stats and the course picker count by.
fn due_today(r: &Reader, now: DateTime<Utc>) -> usize {
    let store = r.runner.store.as_ref().unwrap();
    let end = r.runner.days.end_of_day(now);
    store.due_count(r.s.course(), end)
}

fn screen(r: &Reader) -> String {
    r.host.terminal.backend().to_string()
}

#[test]
fn a_question_note_is_a_card_graded_and_scheduled_and_counted_due() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = reader(dir.path());
    assert_eq!(due_today(&r, noon()), 0);
    // A note that does not ask is not a card, whatever Ctrl-R said.
    to_top(&mut r, "Ownership is a set");
    r.keys("Vi\x12Rules.\n");
    assert!(r.s.notice.as_deref().unwrap().contains("not a review card"));
    assert_eq!(due_today(&r, noon()), 0);
    // One that asks: Ctrl-R in the editor makes it a card, due today.
    to_top(&mut r, "Rust uses a third");
    r.keys("ViWhy a third approach?");
    assert!(screen(&r).contains("Ctrl-R makes this question a review card"));
    r.keys("\x12");
    assert!(screen(&r).contains("A review card: R asks it"));
    r.keys("\n");
    assert!(r.s.notice.as_deref().unwrap().contains("a review card"));
    assert_eq!(due_today(&r, noon()), 1);
    let card = r.s.reader.notes.notes.iter().find(|n| n.card).unwrap();
    let (id, quote) = (card.id.clone(), card.target.exact.clone());
    assert!(quote.starts_with("Rust uses a third approach"), "{quote}");
    r.keys("H");
    assert!(
        screen(&r).contains("[ok · card] Ownership"),
        "{}",
        screen(&r)
    );
    r.keys("\x1b");

    // R asks it: the question, then Enter shows the highlight.
    let taller = ratatui::crossterm::event::Event::Resize(80, 20);
    r.run(vec![lectern::app::Incoming::Term(taller)]);
    r.keys("R");
    let review = r.s.review.as_ref().expect("a review");
    assert_eq!(review.queue.len(), 1);
    assert_eq!(review.note_card(), Some(id.as_str()));
    let shown = screen(&r);
    assert!(shown.contains("Why a third approach?"), "{shown}");
    assert!(!shown.contains("The words you highlighted"), "{shown}");
    r.keys("2");
    assert!(r.s.notice.as_deref().unwrap().contains("Enter shows it"));
    r.keys("\n");
    let shown = screen(&r);
    assert!(shown.contains("The words you highlighted"), "{shown}");
    assert!(shown.contains("“Rust uses a third approach"), "{shown}");
    // Hard: written as a grade, and the card scheduled days away.
    r.keys("2");
    let grades: Vec<u8> = r
        .effects()
        .iter()
        .filter_map(|e| match e {
            Effect::Write(Change::Grade { note, rating, .. }) if *note == id => Some(*rating),
            _ => None,
        })
        .collect();
    assert_eq!(grades, [2]);
    assert!(screen(&r).contains("Review done: 1 right, 0 wrong"));
    assert_eq!(due_today(&r, noon()), 0);
    let store = r.runner.store.as_ref().unwrap();
    let course = r.s.course().slug.clone();
    let scheduled = store.due_between(Some(&course), noon(), noon() + chrono::Duration::days(60));
    assert_eq!(scheduled, 1, "the card comes back later");
    let later = noon() + chrono::Duration::days(60);
    assert_eq!(due_today(&r, later), 1, "and is due then");
    let due = store.due_checks(None, later);
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].2, note_card(&id));
    assert!(due[0].3 > noon() + chrono::Duration::days(1));
    // A grade is a review, in the chart of reviews too.
    let reviews = store.review_times(Some(&course), noon() - chrono::Duration::days(1));
    assert_eq!(reviews, [noon()]);
}

#[test]
fn ctrl_r_in_the_notes_list_makes_a_question_a_card_and_takes_it_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = reader(dir.path());
    to_top(&mut r, "Rust uses a third");
    r.keys("ViWhy a third approach?\n");
    to_top(&mut r, "Ownership is a set");
    r.keys("ViRules.\n");
    assert_eq!(due_today(&r, noon()), 0);
    r.keys("H");
    // Newest first: "Rules." is not a question.
    r.keys("\x12");
    assert!(
        r.s.notice
            .as_deref()
            .unwrap()
            .contains("Only a note that asks")
    );
    r.keys("\x0e\x12");
    assert!(r.s.notice.as_deref().unwrap().contains("A review card now"));
    assert!(matches!(r.s.overlay, Some(Overlay::Notes(_))));
    assert_eq!(due_today(&r, noon()), 1);
    // Typing "card" keeps the cards alone.
    r.keys("card");
    assert_eq!(lectern::state::notes::list::rows(&r.s, &list(&r)).len(), 1);
    r.keys("\x7f\x7f\x7f\x7f\x12");
    let notice = r.s.notice.clone().unwrap_or_default();
    assert!(notice.contains("No longer a review card"), "{notice}");
    assert_eq!(due_today(&r, noon()), 0);
}

fn list(r: &Reader) -> lectern::state::notes::list::NotesList {
    match &r.s.overlay {
        Some(Overlay::Notes(l)) => l.clone(),
        other => panic!("the notes list: {other:?}"),
    }
}

#[test]
fn a_card_is_exported_with_its_grades_and_counted_due_by_stats() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-ownership.md"), LESSON).unwrap();
    let course = dir.path().to_str().unwrap();
    let slug = lectern::loader::open_paths(&[dir.path().to_path_buf()])
        .unwrap()
        .courses[0]
        .slug
        .clone();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = a.path().join("in.json");
    // Graded once long ago (good): due again by now.
    let json = r#"{"items": [
      {"id": "urn:lectern:note:q-1", "type": "Annotation", "created": "2025-01-01T09:00:00.000Z",
       "body": [{"type": "TextualBody", "value": "Why a third approach?"}],
       "target": {"source": "x", "selector": [
         {"type": "TextQuoteSelector", "exact": "a third approach", "prefix": "Rust uses ", "suffix": ":"}]},
       "lectern": {"course": "COURSE", "lesson": "01-ownership", "block": 4,
                   "card": {"grades": [{"at": "2025-01-02T09:00:00.000Z", "rating": 3}]}}}
    ]}"#
    .replace("COURSE", &slug);
    std::fs::write(&file, json).unwrap();
    assert_eq!(
        run_in(a.path(), &["notes", "import", file.to_str().unwrap()]),
        "1 notes imported.\n"
    );
    let stats = run_in(a.path(), &["stats", course, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let due = v
        .pointer("/courses/0/due_now")
        .or_else(|| v.pointer("/due_now"));
    assert_eq!(due, Some(&serde_json::json!(1)), "{stats}");
    let out = run_in(a.path(), &["notes", course, "--format", "json"]);
    assert!(out.contains("\"rating\": 3"), "{out}");
    // Through another store and back: the same export.
    let again = b.path().join("out.json");
    std::fs::write(&again, &out).unwrap();
    run_in(b.path(), &["notes", "import", again.to_str().unwrap()]);
    assert_eq!(
        run_in(b.path(), &["notes", course, "--format", "json"]),
        out
    );
    let md = run_in(b.path(), &["notes", course]);
    assert!(md.contains("*moved* · a review card, asked once"), "{md}");
}
