//! Screens of the study loop, drawn whole through the real update and
//! runner with the clock fixed: the stats screen (gauges, due, streak,
//! the chart, misconceptions with their keys), the library picker, a
//! pending count in the footer and the review that has nothing due.

use crate::common::Reader;
use chrono::{DateTime, TimeZone, Utc};
use lectern::model::Change;
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(r: &Reader) -> String {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = Theme::new(ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    t.backend().to_string()
}

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 10, 12, 0, 0).unwrap()
}

fn builtin_at(now: DateTime<Utc>) -> Reader {
    let mut r = Reader::builtin(100, 30);
    r.runner.clock = Some(now);
    r.open(0);
    r
}

/// The first lesson's wrong options, by display position (1-based).
fn wrong_keys(r: &Reader) -> Vec<char> {
    let check = r.s.reader.doc().unwrap().lesson.check().cloned().unwrap();
    (0..check.order.len())
        .filter(|&p| !check.options[check.order[p]].correct)
        .map(|p| char::from(b'1' + p as u8))
        .collect()
}

/// A course of the library read two days ago, whose folder is gone.
fn gone_course() -> Change {
    Change::Remember {
        slug: "sql-basics".into(),
        title: "SQL basics".into(),
        root: Some("/nonexistent/courses/sql-basics".into()),
        lessons: 8,
        at: Some(noon() - chrono::Duration::days(2)),
    }
}

#[test]
fn the_stats_screen_names_a_misconception_and_gauges_the_library() {
    let mut r = builtin_at(noon());
    let wrong = wrong_keys(&r)[0];
    r.keys(&format!("c{wrong}r{wrong}"));
    let store = r.runner.store.as_mut().unwrap();
    store.apply(&gone_course());
    r.keys("\x1bS");
    let screen = draw(&r);
    assert!(screen.contains("2 times,"), "{screen}");
    assert!(screen.contains("last on 2026-03-1"), "{screen}");
    assert!(screen.contains("1 ✘"), "{screen}");
    insta::assert_snapshot!(screen);
    // It scrolls: the library's last course comes into view.
    r.keys(" ");
    let screen = draw(&r);
    assert!(screen.contains("SQL basics: 0/8 read"), "{screen}");
    assert!(screen.contains("folder gone"), "{screen}");
}

#[test]
fn the_picker_lists_the_library() {
    let mut r = builtin_at(noon());
    let store = r.runner.store.as_mut().unwrap();
    store.apply(&gone_course());
    r.keys("C");
    let screen = draw(&r);
    assert!(
        screen.contains("SQL basics (0/8 read, 0 answered · folder gone"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn a_pending_count_shows_in_the_footer() {
    let mut r = builtin_at(noon());
    r.keys("12");
    let screen = draw(&r);
    assert!(screen.contains("12… (a count"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_review_with_nothing_due_says_when_the_next_card_comes() {
    let mut r = builtin_at(noon());
    let wrong = wrong_keys(&r)[0];
    r.keys(&format!("c{wrong}"));
    r.keys("R");
    let screen = draw(&r);
    assert!(
        screen.contains("Nothing is due for review today"),
        "{screen}"
    );
    assert!(screen.contains("1 scheduled in all"), "{screen}");
}

#[test]
fn the_stats_screen_charts_reviews_per_week() {
    let mut r = builtin_at(noon());
    let wrong = wrong_keys(&r)[0];
    r.keys(&format!("c{wrong}"));
    // Three days on, the card is due: reviewed, it shows in this week's bar.
    r.runner.clock = Some(noon() + chrono::Duration::days(3));
    r.keys("\x1bR");
    assert_eq!(r.s.screen(), lectern::state::Screen::Review);
    r.keys(&wrong.to_string());
    r.keys("\x1b\x1bS");
    let screen = draw(&r);
    assert!(screen.contains("now"), "{screen}");
    assert!(screen.contains("(1 this week)"), "{screen}");
    insta::assert_snapshot!(screen);
}
