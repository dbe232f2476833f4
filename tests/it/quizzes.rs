//! The quiz dashboard (`Q`), the stuck flag in the contents and `lectern
//! reset`: keys in and state out through the real loop on the fixture
//! book, its screen drawn, and the real binary in a pty, whose dashboard
//! figures must equal `lectern stats --json`.

use crate::common::Reader;
use crate::common::pty::Term;
use crate::drill::{book_at, digit, digit_of};
use lectern::model::drill::STUCK_AFTER;
use lectern::model::quizzes::Chapter;
use lectern::model::{Change, DrillKind};
use lectern::state::{Effect, Overlay, Screen};
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};

fn book_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book")
}

fn book() -> Reader {
    book_at(100, 40)
}

fn board(r: &Reader) -> &lectern::state::quizzes::QuizBoard {
    match &r.s.overlay {
        Some(Overlay::Quizzes(b)) => b,
        other => panic!("no dashboard: {other:?}"),
    }
}

fn quiz_chapter(r: &Reader) -> Chapter {
    board(r)
        .listed()
        .find(|c| c.lesson == "quiz")
        .cloned()
        .expect("the quiz chapter")
}

fn draw(r: &Reader) -> String {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = Theme::new(ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    t.backend().to_string()
}

#[test]
fn the_dashboard_lists_each_chapter_with_checks_and_its_figures() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    r.keys("Q");
    assert_eq!(r.s.screen(), Screen::Quizzes);
    let c = quiz_chapter(&r);
    let checks = r.s.reader.doc().unwrap().lesson.checks.len();
    assert_eq!(c.checks, checks);
    assert_eq!((c.first_answered, c.first_right), (1, 0));
    assert_eq!((c.round, c.missed, c.stuck), (1, 1, 0));
    assert_eq!(c.unanswered, checks - 1);
    assert_eq!(c.drill_kind(), DrillKind::Missed);
    // Only chapters with checks are listed.
    assert!(board(&r).listed().all(|c| c.checks > 0));
    let screen = draw(&r);
    assert!(screen.contains("first try"), "{screen}");
    assert!(screen.contains("0/1 0%"), "{screen}");
}

#[test]
fn enter_drills_the_chapter_under_the_cursor_and_w_puts_the_weakest_first() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    r.keys("Qw");
    assert!(board(&r).weakest);
    assert_eq!(
        board(&r).current().unwrap().lesson,
        "quiz",
        "weakest on top"
    );
    r.keys("\n");
    let review = r.s.review.as_ref().expect("a drill");
    assert_eq!(review.drill.as_ref().unwrap().kind, DrillKind::Missed);
    assert_eq!(review.ids, [Some("single-choice".to_string())]);
    assert!(r.s.overlay.is_none(), "the drill has the screen");
}

#[test]
fn x_on_the_dashboard_starts_a_new_round_of_the_chapter() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    r.keys("Qw");
    r.keys("X");
    let reset = r.effects().iter().find_map(|e| match e {
        Effect::Write(Change::Reset {
            course, lessons, ..
        }) => Some((course.clone(), lessons.clone())),
        _ => None,
    });
    assert_eq!(
        reset,
        Some((r.s.course().slug.clone(), vec!["quiz".into()]))
    );
    let c = quiz_chapter(&r);
    assert_eq!((c.round, c.missed, c.first_right), (2, 0, 0));
    assert!(!r.s.reader.state(0).unwrap().answered(), "the page follows");
    // The store agrees once the figures are read again.
    r.keys("Q");
    let again = quiz_chapter(&r);
    assert_eq!((again.round, again.missed, again.first_answered), (2, 0, 1));
}

#[test]
fn a_stuck_check_flags_its_lesson_in_the_contents_and_the_dashboard() {
    let mut r = book();
    let wrong = digit(&r, 0, false);
    r.keys(&format!("c{wrong}"));
    for _ in 1..STUCK_AFTER {
        r.keys(&format!("r{wrong}"));
    }
    r.keys("\x1b\t");
    let screen = draw(&r);
    let row = screen
        .lines()
        .find(|l| l.contains("⚑"))
        .unwrap_or_else(|| panic!("no flag: {screen}"));
    assert!(row.contains("Quiz"), "{row}");
    r.keys("Q");
    let c = quiz_chapter(&r);
    assert_eq!(c.stuck, 1);
    assert_eq!(c.drill_kind(), DrillKind::Stuck, "stuck ones first");
    assert!(draw(&r).contains("⚑ "), "the dashboard flags it too");
}

// ---- the real binary in a pty ------------------------------------------

/// The dashboard's line of the chapter titled `title`, as numbers.
fn figures_of(t: &Term, title: &str) -> Vec<String> {
    let rows = t.rows();
    let row = rows
        .iter()
        .find(|r| r.contains(title) && r.contains('%'))
        .unwrap_or_else(|| panic!("no line for {title}: {rows:#?}"));
    row.split(title)
        .nth(1)
        .unwrap()
        .trim_end_matches(['│', ' '])
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn the_dashboard_says_what_stats_json_says_and_reset_starts_a_round() {
    let data = tempfile::tempdir().unwrap();
    let book = book_dir();
    let quiz = book.join("src/quiz.md");
    let mut t = Term::spawn(&[quiz.as_path()], data.path(), 110, 40);
    t.wait_for("Which keyword declares a variable?");
    t.wait_for("q quit");
    let wrong = digit_of(&t, "dim");
    t.press(&format!("c{wrong}"));
    t.wait_for("Not quite");
    t.press("Q");
    t.wait_for("Quizzes · Enter drills");
    t.wait_for("0/1 0%");
    let title = lectern::loader::open_paths(std::slice::from_ref(&book))
        .unwrap()
        .courses[0]
        .lessons
        .iter()
        .find(|l| l.slug == "quiz")
        .unwrap()
        .title
        .clone();
    // first try "0/1 0%", round, missed, stuck, due
    let shown = figures_of(&t, &title);
    t.esc();
    t.wait_gone("Quizzes · Enter drills");
    t.quit_cleanly();

    let book_arg = book.to_str().unwrap();
    let v = crate::common::json_of(&["stats", "--json", book_arg], data.path());
    let checks: Vec<&serde_json::Value> = v["courses"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["lesson"] == "quiz")
        .collect();
    let count = |f: &dyn Fn(&serde_json::Value) -> bool| checks.iter().filter(|c| f(c)).count();
    let first_right = count(&|c| c["first_try"] == "right");
    let first_answered = count(&|c| !c["first_try"].is_null());
    let missed = count(&|c| c["round_first_try"] == "wrong");
    let stuck = count(&|c| c["stuck"] == true);
    assert_eq!(
        shown[0],
        format!("{first_right}/{first_answered}"),
        "{shown:?}"
    );
    assert_eq!(shown[2], "1", "round: {shown:?}");
    assert_eq!(shown[3], missed.to_string(), "missed: {shown:?}");
    assert_eq!(shown[4], stuck.to_string(), "stuck: {shown:?}");

    // A new round of the whole book from the shell: nothing is deleted.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(["reset", book_arg])
        .env("LECTERN_DATA_DIR", data.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("a new round"), "{said}");
    let v = crate::common::json_of(&["stats", "--json", book_arg], data.path());
    let check = v["courses"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check_id"] == "single-choice")
        .unwrap()
        .clone();
    assert_eq!(check["round"], 2, "{check}");
    assert_eq!(check["first_try"], "wrong", "kept: {check}");
    assert_eq!(check["attempts"], 1, "nothing deleted: {check}");
    assert!(check["round_first_try"].is_null(), "{check}");
}
