//! Whole screens drawn by `lectern::ui::draw` into ratatui's TestBackend,
//! compared with insta snapshots (monochrome theme, so the text and the
//! layout are what is compared; styles that matter are asserted apart).

use crate::common;

use crate::common::{FIXTURE_AFTER, FIXTURE_BEFORE, FIXTURE_SLUG, FIXTURE_TITLE, Reader};
use lectern::state::Screen;
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

fn draw(r: &Reader) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = Theme::new(ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    let shown = t.backend().to_string();
    for (path, _) in &r.redact {
        assert!(!shown.contains(path.as_str()), "a temporary path on screen");
    }
    t
}

/// The fixture inside its course folder (with the broken file), opened at
/// the fixture, as `lectern DIR/why-dough-rises.json` would. The folder
/// must outlive the reader: lessons are read from it as they open.
fn fixture_reader(width: u16, height: u16) -> (tempfile::TempDir, Reader) {
    let dir = common::fixture_course(true);
    let mut r = Reader::folder(dir.path(), width, height);
    let i = r.index_of(FIXTURE_SLUG);
    r.open(i);
    assert_eq!(r.title(), FIXTURE_TITLE);
    (dir, r)
}

/// Rows of the screen as text, with each cell's modifiers.
fn rows(t: &Terminal<TestBackend>) -> Vec<Vec<(String, Modifier)>> {
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| {
                    let c = &buf[(x, y)];
                    (c.symbol().to_string(), c.modifier)
                })
                .collect()
        })
        .collect()
}

/// Cells of every case-insensitive occurrence of `word` on the page rows.
fn occurrences(t: &Terminal<TestBackend>, word: &str) -> Vec<Vec<Modifier>> {
    let mut out = Vec::new();
    let rows = rows(t);
    // Header and footer are chrome, not the page.
    for row in &rows[1..rows.len() - 1] {
        let text: String = row.iter().map(|c| c.0.to_lowercase()).collect();
        if !text.is_ascii() {
            continue;
        }
        for (i, _) in text.match_indices(word) {
            out.push(row[i..i + word.len()].iter().map(|c| c.1).collect());
        }
    }
    out
}

#[test]
fn top_of_a_lesson() {
    let (_dir, r) = fixture_reader(100, 30);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn where_a_lesson_stands_is_left_out_until_its_course_is_read() {
    let (_dir, mut r) = fixture_reader(100, 30);
    let header = |r: &Reader| {
        rows(&draw(r))[0]
            .iter()
            .map(|(t, _)| t.clone())
            .collect::<String>()
    };
    assert!(header(&r).contains("Lesson 2 of 4"), "{}", header(&r));
    r.s.library.view = lectern::state::CourseView::Alone;
    let shown = header(&r);
    assert!(!shown.contains("Lesson"), "{shown}");
    assert!(shown.contains(common::FIXTURE_COURSE.1), "{shown}");
}

#[test]
fn top_of_the_builtin_course() {
    let mut r = Reader::builtin(100, 30);
    r.open(0);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn mid_scroll() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("}}jjj");
    assert!(r.s.reader.top > 0 && r.s.reader.top < r.s.reader.max_top(&r.s.geometry()));
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn page_down_to_the_check() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("G");
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn table_of_contents_beside_the_page() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("\t");
    assert!(r.s.geometry().toc_side);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn table_of_contents_over_the_page() {
    let (_dir, mut r) = fixture_reader(80, 24);
    // Past the open lesson's headings (listed beneath it) to the next.
    let heads = r.s.reader.doc().unwrap().page.headings.len();
    r.keys(&format!("\t{}", "j".repeat(heads + 1)));
    assert!(!r.s.geometry().toc_side);
    let t = draw(&r);
    // The cursor row (next lesson) is reversed.
    let cursor = rows(&t)
        .into_iter()
        .find(|row| {
            row.iter()
                .map(|c| c.0.as_str())
                .collect::<String>()
                .contains("Salt and the gluten network")
        })
        .unwrap();
    assert!(
        cursor
            .iter()
            .any(|c| c.1.contains(Modifier::REVERSED) && c.0 == "S")
    );
    insta::assert_snapshot!(t.backend());
}

#[test]
fn table_of_contents_of_the_builtin_course() {
    let mut r = Reader::builtin(100, 30);
    r.open(0);
    r.keys("\t");
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn help() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("?");
    assert_eq!(r.s.screen(), Screen::Help);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn search_while_typing() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("/gluten");
    let t = draw(&r);
    let found = occurrences(&t, "gluten");
    assert!(!found.is_empty());
    for cells in &found {
        assert!(cells.iter().all(|m| m.contains(Modifier::REVERSED)));
    }
    // Exactly one match is the current one (bold and underlined too).
    let current = found
        .iter()
        .filter(|cells| cells.iter().all(|m| m.contains(Modifier::UNDERLINED)))
        .count();
    assert_eq!(current, 1);
    assert_eq!(r.s.reader.search.hits.len(), 6);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn search_with_matches_after_enter_and_n() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("/gluten\nnn");
    assert_eq!(r.s.screen(), Screen::Reading);
    assert_eq!(r.s.reader.search.current, Some(2));
    let t = draw(&r);
    // The page has moved to the third match, which is the one underlined.
    let current = occurrences(&t, "gluten")
        .iter()
        .filter(|cells| cells.iter().all(|m| m.contains(Modifier::UNDERLINED)))
        .count();
    assert_eq!(current, 1);
    insta::assert_snapshot!(t.backend());
}

#[test]
fn search_without_matches() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("/zzzz\n");
    assert_eq!(r.s.reader.top, 0);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn course_search() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("sgluten");
    assert_eq!(r.s.screen(), Screen::CourseSearch);
    let Some(lectern::state::Overlay::CourseSearch(cs)) = &r.s.overlay else {
        panic!("no course search")
    };
    assert!(cs.results.len() >= 2);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn a_broken_lesson() {
    let (_dir, mut r) = fixture_reader(80, 20);
    let broken =
        r.s.course()
            .lessons
            .iter()
            .position(|l| l.slug == "broken")
            .unwrap();
    assert_eq!(broken, 3, "a lesson without a position goes last");
    r.keys("]]");
    assert_eq!(r.s.reader.lesson, broken);
    assert!(
        r.broken().unwrap().contains("<course>/broken.json"),
        "{:?}",
        r.broken()
    );
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn a_broken_lesson_in_the_contents() {
    let (_dir, mut r) = fixture_reader(80, 20);
    r.keys("\t");
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn a_20x8_terminal() {
    let (_dir, r) = fixture_reader(20, 8);
    assert!(!r.s.size.too_small());
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn a_20x8_terminal_after_resizing_and_scrolling() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("}");
    r.resize(20, 8);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn too_small() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.resize(19, 4);
    assert!(r.s.size.too_small());
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn check_answered_wrong() {
    let (_dir, mut r) = fixture_reader(100, 30);
    r.keys("c1");
    // Answered: the focus leaves the check, digits are counts again.
    assert_eq!(r.s.screen(), Screen::Reading);
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn check_revealed() {
    let (_dir, mut r) = fixture_reader(100, 40);
    r.keys("a");
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn the_next_lesson_in_course_order() {
    let (_dir, mut r) = fixture_reader(80, 24);
    r.keys("]");
    assert_eq!(r.title(), "Salt and the gluten network");
    let origin = r.s.course().lessons[r.s.reader.lesson].origin.clone();
    assert!(origin.name().ends_with(FIXTURE_AFTER));
    r.keys("[[");
    assert_eq!(r.title(), "Weighing flour, not measuring it");
    assert!(
        r.s.course().lessons[r.s.reader.lesson]
            .origin
            .name()
            .ends_with(FIXTURE_BEFORE)
    );
    insta::assert_snapshot!(draw(&r).backend());
}

#[test]
fn a_review_card_answered() {
    let (_dir, mut r) = fixture_reader(100, 30);
    let course = r.s.course().slug.clone();
    let cards = [FIXTURE_SLUG, "salt-and-gluten"]
        .map(|l| (course.clone(), l.to_string(), None))
        .to_vec();
    r.receive(lectern::state::Msg::ReviewReady(
        lectern::model::DueCards {
            cards,
            ..Default::default()
        },
        42,
    ));
    assert_eq!(r.s.screen(), Screen::Review);
    r.keys("2");
    insta::assert_snapshot!(draw(&r).backend());
}

/// Matches on check lines are drawn from byte ranges computed before the
/// check was re-laid out by answering; a range inside the `✔` of the new
/// "Right: your answer" line panics in `ui::page::styled`.
#[test]
fn searching_the_options_then_answering_draws() {
    let dir = tempfile::tempdir().unwrap();
    let v = common::crafted("only", "Only", 1, (1, "M"), "words");
    std::fs::write(dir.path().join("only.json"), v.to_string()).unwrap();
    let mut r = Reader::folder(dir.path(), 60, 30);
    r.open(0);
    // Display order: " 1. The false one", " 2. The true one"; the match
    // for "he true" is bytes 5..12 of the second.
    r.keys("/he true\n");
    assert_eq!(r.s.reader.search.hits.len(), 1);
    // Answering option 1 inserts "    ✘ Wrong: your answer" under it,
    // where the hit's line was: byte 5 is inside the `✘`.
    r.keys("1");
    draw(&r);
}

/// The help box is as tall as the page; what does not fit scrolls into
/// view with Space, so every mode's keys can be read on 100×30.
#[test]
fn help_shows_every_mode_on_a_100x30_terminal() {
    let mut r = Reader::builtin(100, 30);
    r.open(0);
    r.keys("?");
    let mut shown = draw(&r).backend().to_string();
    for _ in 0..5 {
        r.keys(" ");
        shown.push_str(&draw(&r).backend().to_string());
    }
    assert_eq!(r.s.screen(), Screen::Help, "scrolling keeps the help open");
    for title in [
        "Check question",
        "Table of contents",
        "Search in lesson",
        "mouse on/off",
    ] {
        assert!(shown.contains(title), "{title:?} not in help:\n{shown}");
    }
}

#[test]
fn the_copy_picker_lists_what_is_on_screen() {
    // Tall enough for the lesson's two code blocks at once (one alone is
    // copied without asking).
    let mut r = Reader::builtin(100, 90);
    r.open(9);
    r.keys("y");
    assert_eq!(r.s.screen(), Screen::Copy, "{:?}", r.s.notice);
    insta::assert_snapshot!(draw(&r).backend());
    r.keys("2");
    assert!(r.s.notice.as_deref().unwrap().starts_with("Copied "));
}

#[test]
fn the_links_of_a_page() {
    let mut r = Reader::builtin(100, 30);
    r.open(9);
    r.keys("L");
    assert_eq!(r.s.screen(), Screen::Links, "{:?}", r.s.notice);
    insta::assert_snapshot!(draw(&r).backend());
}
