//! A lesson of several checks drawn whole through the real update and
//! runner: each check at its anchor with its number, several answers
//! ticked then submitted, a short answer being typed, a tracing question
//! answered and revealed, the contents counting answered checks, a review
//! card of several answers, and `lectern render` placing every check.

use crate::common;
#[path = "checks/model.rs"]
mod model;

use crate::common::{FIXTURE_SLUG, Reader};
use lectern::model::sample_checks;
use lectern::state::Screen;
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(r: &Reader) -> String {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = Theme::new(ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    t.backend().to_string()
}

/// The fixture lesson with the three sample checks: several answers
/// before its second block, a short answer before its fourth, a tracing
/// question at its end.
fn reader(height: u16) -> (tempfile::TempDir, Reader) {
    let dir = common::fixture_course(false);
    let mut r = Reader::folder(dir.path(), 80, height);
    let i = r.index_of(FIXTURE_SLUG);
    r.open(i);
    let mut checks = sample_checks();
    checks[1].anchor = Some(3);
    r.with_checks(checks);
    (dir, r)
}

#[test]
fn several_answers_ticked_at_their_anchor() {
    let (_dir, mut r) = reader(30);
    r.keys("c13");
    assert_eq!(r.s.screen(), Screen::Choices);
    let screen = draw(&r);
    assert!(screen.contains("Check 1 of 3"), "{screen}");
    assert!(
        screen.contains("[x] 1") && screen.contains("[ ] 2.5"),
        "{screen}"
    );
    assert!(screen.contains("Submit (2 chosen; Enter)"), "{screen}");
    assert!(screen.contains("1-9 tick"), "the footer says how: {screen}");
    insta::assert_snapshot!(screen);
    r.keys("\n");
    let screen = draw(&r);
    assert!(
        screen.contains("✔ Right: you chose every right answer"),
        "{screen}"
    );
    assert!(
        screen.contains("Why: Integers are whole numbers"),
        "{screen}"
    );
}

#[test]
fn a_short_answer_being_typed() {
    let (_dir, mut r) = reader(30);
    r.keys("cc\nlet mu");
    assert_eq!(r.s.screen(), Screen::Answer);
    let screen = draw(&r);
    assert!(screen.contains("Check 2 of 3"), "{screen}");
    assert!(screen.contains("___ x = 5;"), "the body's code: {screen}");
    assert!(screen.contains("› let mu▏"), "{screen}");
    assert!(!screen.contains("Why:"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_tracing_question_answered_wrong_then_revealed() {
    let (_dir, mut r) = reader(40);
    r.keys("ccc2");
    r.keys("3\n");
    r.keys("a");
    let screen = draw(&r);
    assert!(screen.contains("Check 3 of 3"), "{screen}");
    assert!(screen.contains("println!(\"1\");"), "{screen}");
    assert!(screen.contains("Wrong: your answer"), "{screen}");
    assert!(
        screen.contains("The answer: it compiles and prints"),
        "{screen}"
    );
    assert!(
        screen.contains("Why: Each println! prints its line."),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_contents_count_answered_checks() {
    let (_dir, mut r) = reader(30);
    r.keys("c13\n");
    r.keys("c\nlet\n");
    r.keys("\t");
    let screen = draw(&r);
    assert!(screen.contains("2/3"), "{screen}");
    r.keys("\t");
    r.keys("c1");
    r.keys("1\x0a");
    r.act(lectern::state::Action::Input('\n'));
    r.keys("2\n\t");
    let screen = draw(&r);
    assert!(screen.contains("3/3 ✓"), "{screen}");
}

#[test]
fn a_review_card_of_several_answers_is_ticked_and_submitted() {
    let (_dir, mut r) = reader(30);
    r.keys("c2\n");
    let course = r.s.course().slug.clone();
    let cards = vec![(
        course,
        FIXTURE_SLUG.to_string(),
        Some("integers".to_string()),
    )];
    r.receive(lectern::state::Msg::ReviewReady(
        lectern::model::DueCards {
            cards,
            ..Default::default()
        },
        42,
    ));
    // The review opens the lesson from its file again: the checks back.
    let mut checks = sample_checks();
    checks[1].anchor = Some(3);
    r.with_checks(checks);
    assert_eq!(r.s.screen(), Screen::Review);
    let order = r.s.review.as_ref().unwrap().order.clone();
    let keys: String = [0, 2]
        .iter()
        .map(|i| char::from(b'1' + order.iter().position(|o| o == i).unwrap() as u8))
        .collect();
    r.keys(&keys);
    let screen = draw(&r);
    assert!(screen.contains("[x]"), "{screen}");
    r.keys("\n");
    let screen = draw(&r);
    assert!(screen.contains("Right: you chose it"), "{screen}");
    assert!(screen.contains("✔ 1 ✘ 0"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn render_places_every_check_at_its_anchor() {
    let (_dir, r) = reader(30);
    let lesson = r.s.reader.doc().unwrap().lesson.clone();
    let opts = lectern::render::Options {
        width: 60,
        theme: None,
        answers: false,
    };
    let out = lectern::render::lesson(&lesson, &opts);
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {out}"))
    };
    assert!(at("Check 1 of 3") < at("Check 2 of 3"));
    assert!(at("Check 2 of 3") < at("Check 3 of 3"));
    let block1 = lectern::model::Lesson::block_text(&lesson.blocks[1]);
    let words: String = block1
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(at("Check 1 of 3") < at(&words), "before block 1");
    assert!(!out.contains("Why:"), "no answers unless asked");
    assert!(
        !out.contains("Submit (") && !out.contains("Enter or i"),
        "no key hints on paper"
    );
    let answers = lectern::render::lesson(
        &lesson,
        &lectern::render::Options {
            answers: true,
            ..opts
        },
    );
    assert!(answers.contains("The answer: let"), "{answers}");
    assert!(answers.contains("Why: Each println! prints its line."));
}
