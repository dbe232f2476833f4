//! Drills, rounds and stuck checks through the real loop, keys in and
//! state out, on the fixture book's quizzes (every kind): a drill takes
//! exactly the checks missed, is answered as the page is, never moves a
//! first try, ends with what is left; a reset starts a round that keeps
//! the first; a check missed four times is stuck.

use crate::common::Reader;
use lectern::model::drill::{STUCK_AFTER, round, stuck};
use lectern::model::{Change, CheckProgress, DrillKind};
use lectern::state::{Action, DrillScope, Effect};
use std::path::Path;

fn book() -> Reader {
    book_at(100, 60)
}

/// The fixture book at its quiz of every kind, on a screen of this size.
pub(crate) fn book_at(width: u16, height: u16) -> Reader {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book");
    let mut r = Reader::folder(&dir, width, height);
    let quiz = r.index_of("quiz");
    r.open(quiz);
    r
}

/// The 1-based display position of a wrong (or the right) option of the
/// check `k` of the open lesson.
pub(crate) fn digit(r: &Reader, k: usize, right: bool) -> char {
    let check = &r.s.reader.doc().unwrap().lesson.checks[k];
    let pos = (0..check.order.len())
        .find(|&p| check.options[check.order[p]].correct == right)
        .unwrap();
    char::from(b'1' + pos as u8)
}

fn stored(r: &Reader, check: &str) -> CheckProgress {
    let store = r.runner.store.as_ref().unwrap();
    let p = store.progress(&r.s.course().slug, "quiz");
    p.checks.get(check).cloned().unwrap_or_default()
}

/// The card's right option, by its place in the drill's shuffled order.
fn card_right(r: &Reader) -> char {
    let review = r.s.review.as_ref().unwrap();
    let check = &r.s.reader.doc().unwrap().lesson.checks[review.check];
    let pos = review
        .order
        .iter()
        .position(|&i| check.options[i].correct)
        .unwrap();
    char::from(b'1' + pos as u8)
}

#[test]
fn a_drill_takes_the_missed_checks_and_never_moves_a_first_try() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    let right = digit(&r, 5, true);
    // Check 6 ("sorted", a single choice) right at the first try.
    r.act(Action::JumpToCheck);
    for _ in 0..4 {
        r.act(Action::JumpToCheck);
    }
    let k = r.s.reader.current;
    assert_eq!(r.s.reader.doc().unwrap().lesson.checks[k].id, "sorted");
    r.keys(&right.to_string());
    assert_eq!(stored(&r, "single-choice").first_try_correct, Some(false));
    assert_eq!(stored(&r, "sorted").first_try_correct, Some(true));

    r.keys("D");
    let review = r.s.review.as_ref().expect("a drill");
    assert_eq!(review.drill.as_ref().unwrap().kind, DrillKind::Missed);
    assert_eq!(
        review.ids,
        [Some("single-choice".to_string())],
        "the missed one only"
    );
    let check = &r.s.reader.doc().unwrap().lesson.checks[review.check];
    assert!(lectern::model::Check::is_permutation(
        &review.order,
        check.options.len()
    ));
    let right = card_right(&r);
    r.keys(&right.to_string());
    let drilled = r.effects().iter().rev().find_map(|e| match e {
        Effect::Write(Change::Attempt { drill, correct, .. }) => Some((*drill, *correct)),
        _ => None,
    });
    assert_eq!(drilled, Some((true, true)), "kept as a drill attempt");
    r.keys("\n");
    let review = r.s.review.as_ref().unwrap();
    assert!(review.done() && review.drill.as_ref().unwrap().left.is_empty());
    assert_eq!((review.right, review.wrong), (1, 0));

    let p = stored(&r, "single-choice");
    assert_eq!(p.first_try_correct, Some(false), "a drill never moves it");
    assert_eq!((p.attempts, p.latest_correct), (2, Some(true)));
}

#[test]
fn a_wrong_drill_answer_is_left_and_drilled_again() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    r.keys("D");
    let right = card_right(&r);
    let wrong = (b'1'..=b'4').map(char::from).find(|&c| c != right).unwrap();
    r.keys(&format!("{wrong}\n"));
    let left = &r.s.review.as_ref().unwrap().drill.as_ref().unwrap().left;
    assert_eq!(left.len(), 1);
    r.keys("D");
    let review = r.s.review.as_ref().unwrap();
    assert!(!review.done() && review.queue.len() == 1, "the rest again");
}

#[test]
fn a_reset_starts_a_round_that_keeps_the_first() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    r.keys("X");
    assert!(
        r.effects()
            .iter()
            .any(|e| matches!(e, Effect::Write(Change::Reset { .. })))
    );
    let p = stored(&r, "single-choice");
    assert_eq!(
        (round(&p), p.round_attempts, p.first_try_correct),
        (2, 0, Some(false))
    );
    assert!(
        !r.s.reader.state(0).unwrap().answered(),
        "the page shows it unanswered"
    );
    let right = digit(&r, 0, true);
    r.keys(&format!("c{right}"));
    let p = stored(&r, "single-choice");
    assert_eq!(
        (p.round_first, p.first_try_correct, p.attempts),
        (Some(true), Some(false), 2)
    );
}

#[test]
fn a_check_missed_four_times_is_stuck_and_a_stuck_drill_takes_it() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    for _ in 1..STUCK_AFTER {
        r.keys(&format!("r{wrong}"));
    }
    let p = stored(&r, "single-choice");
    assert_eq!(p.misses, STUCK_AFTER);
    assert!(stuck(&p, STUCK_AFTER));
    r.act(Action::Drill(DrillKind::Stuck, DrillScope::Lesson));
    let review = r.s.review.as_ref().unwrap();
    assert_eq!(review.ids, [Some("single-choice".to_string())]);
}

#[test]
fn a_stuck_check_shows_every_explanation_after_its_next_answer() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    for _ in 1..STUCK_AFTER {
        r.keys(&format!("r{wrong}"));
    }
    assert!(!r.s.reader.state(0).unwrap().revealed);
    r.keys(&format!("r{wrong}"));
    assert!(
        r.s.reader.state(0).unwrap().revealed,
        "every option explained"
    );
}

#[test]
fn e_explains_every_option_once_answered_only() {
    let mut r = book();
    r.keys("e");
    assert!(
        !r.s.reader.state(0).unwrap().revealed,
        "not before an answer"
    );
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}e"));
    assert!(r.s.reader.state(0).unwrap().revealed);
    assert!(
        r.effects()
            .iter()
            .any(|e| matches!(e, Effect::Write(Change::Reveal { .. })))
    );
}

// ---- the real binary in a pty ------------------------------------------

/// The digit the screen shows before option `text` (as `  2. let`).
pub(crate) fn digit_of(t: &crate::common::pty::Term, text: &str) -> String {
    let rows = t.rows();
    let row = rows
        .iter()
        .find(|r| r.trim().ends_with(&format!(". {text}")))
        .unwrap_or_else(|| panic!("no option {text} in {rows:#?}"));
    row.trim().split('.').next().unwrap().to_string()
}

#[test]
fn answer_drill_reset_and_answer_again_then_the_json_says_so() {
    use crate::common::pty::Term;
    let data = tempfile::tempdir().unwrap();
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book");
    let quiz = book.join("src/quiz.md");
    let mut t = Term::spawn(&[quiz.as_path()], data.path(), 100, 40);
    t.wait_for("Which keyword declares a variable?");
    t.wait_for("q quit");
    let wrong = digit_of(&t, "dim");
    t.press(&format!("c{wrong}"));
    t.wait_for("Not quite");
    t.press("D");
    t.wait_for("Drill (missed) · card 1 of 1");
    t.wait_settled();
    let right = digit_of(&t, "let");
    t.press(&right);
    t.wait_for("✔ 1 ✘ 0");
    t.press("\r");
    t.wait_for("Drill done: 1 right of 1");
    t.esc();
    t.wait_gone("Drill done");
    t.press("X");
    t.wait_for("Round 2");
    let right = digit_of(&t, "let");
    t.press(&format!("c{right}"));
    t.wait_for("✔ Right.");
    t.quit_cleanly();

    let book_arg = book.to_str().unwrap();
    let v = crate::common::json_of(&["stats", "--json", book_arg], data.path());
    let course = &v["courses"][0];
    let check = course["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == "single-choice")
        .unwrap();
    assert_eq!(
        check["first_try"], "wrong",
        "the drill never moved it: {check}"
    );
    assert_eq!(check["round"], 2, "{check}");
    assert_eq!(check["round_first_try"], "right", "{check}");
    assert_eq!(check["attempts"], 3, "page, drill, round 2: {check}");
    assert_eq!(check["last"], "right");
    assert_eq!(course["drill"]["missed"], 0, "{}", course["drill"]);
    assert_eq!(
        course["first_try_right"], 0,
        "the first round's score stays"
    );
}

#[test]
fn by_question_lists_the_checks_missed_most_with_the_answer_chosen_most() {
    let data = tempfile::tempdir().unwrap();
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book");
    let slug = lectern::loader::open_paths(std::slice::from_ref(&book))
        .unwrap()
        .courses[0]
        .slug
        .clone();
    let mut store = lectern::store::Store::open(Some(data.path()));
    let at = chrono::Utc::now();
    // "dim" (file option 2 of single-choice: answer first, then the
    // distractors) chosen twice, the right one once.
    for (option, correct) in [(2, false), (2, false), (0, true)] {
        let mut change = Change::option_attempt(&slug, "quiz", option, correct, false, at);
        if let Change::Attempt { check, .. } = &mut change {
            *check = "single-choice".into();
        }
        store.apply(&change);
    }
    drop(store);
    let book_arg = book.to_str().unwrap();
    let v = crate::common::json_of(&["stats", "--by-question", "--json", book_arg], data.path());
    let q = &v["questions"][0];
    assert_eq!(
        (q["check_id"].as_str(), q["wrong"].as_u64()),
        (Some("single-choice"), Some(2))
    );
    let top = &q["most_chosen"];
    assert_eq!(
        (top["times"].as_u64(), top["correct"].as_bool()),
        (Some(2), Some(false))
    );
    let text = top["answer"].as_str().unwrap().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(["stats", "--by-question"])
        .arg(&book)
        .env("LECTERN_DATA_DIR", data.path())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("2 of 3 wrong"), "{shown}");
    assert!(
        shown.contains(&format!("chosen most: “{text}” (2 times, wrong)")),
        "{shown}"
    );
}
