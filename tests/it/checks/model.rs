//! The rules of what counts, read and due, held by a model: random
//! sequences of keys, clicks, lesson moves, reveals, reviews, quits and
//! restarts drive the real update and effect runner over a book with a
//! quiz of every kind, and after every step the store and the state are
//! held to what the model says may have happened.

use crate::common::Reader;
use lectern::effects::Runner;
use lectern::loader;
use lectern::model::{Change, CheckProgress};
use lectern::state::{Action, Effect, Focus, Overlay, Screen, State};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

const WIDTH: u16 = 80;
const HEIGHT: u16 = 30;

fn book() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book")
}

#[derive(Debug, Clone)]
pub enum Step {
    Key(char),
    Click(u16),
    /// Quit and start again on the same store.
    Restart,
    /// Three days on: cards come due.
    Later,
    /// The stats' due count against the review's queue, now.
    DueAgree,
}

fn step() -> impl Strategy<Value = Step> {
    let keys: Vec<char> = "jkccgG bbn][ra11234\n\x1bi\tMRo5x0DXe".chars().collect();
    prop_oneof![
        12 => proptest::sample::select(keys).prop_map(Step::Key),
        3 => (0..HEIGHT).prop_map(Step::Click),
        1 => Just(Step::Restart),
        1 => Just(Step::Later),
        1 => Just(Step::DueAgree),
    ]
}

/// What the model knows, across restarts.
#[derive(Default)]
struct Model {
    /// `(lesson, check)` whose answer was shown in its current round (a
    /// new round asks again: its answers are first tries of that round).
    seen: HashSet<(String, String)>,
    /// `(lesson, check)` whose answer was ever shown.
    seen_ever: HashSet<(String, String)>,
    /// `(lesson, check)` → its first answer came after a reveal.
    first_after_reveal: HashMap<(String, String), bool>,
    /// Lessons whose end has been on screen (or marked read with M).
    ends_seen: HashSet<String>,
    /// `(lesson, check)` → its first try, once there is one: the score,
    /// which nothing later (a retry, a drill, a new round) moves.
    firsts: HashMap<(String, String), bool>,
}

/// The check that takes answers before a key: focused, on screen, not
/// answered (or being typed into).
fn taker(s: &State) -> Option<String> {
    if s.active_review().is_some() || s.overlay.is_some() || s.contents.focused {
        return None;
    }
    let r = &s.reader;
    let doc = r.doc()?;
    let id = doc.lesson.checks.get(r.current)?.id.clone();
    if r.focus == Focus::Answer {
        return Some(id);
    }
    if r.focus != Focus::Check || r.check()?.answered() {
        return None;
    }
    let start = doc.check_start(r.current)?;
    let end = start + doc.check_layout(r.current)?.lines.len();
    let rows = s.geometry().rows();
    (start < r.top + rows && end > r.top).then_some(id)
}

fn progress(r: &Reader) -> HashMap<String, lectern::store::LessonProgress> {
    let slug = &r.s.course().slug;
    r.runner.store.as_ref().unwrap().course_progress(slug)
}

fn checks(r: &Reader) -> Vec<((String, String), CheckProgress)> {
    let mut out = Vec::new();
    for (lesson, p) in progress(r) {
        for (id, c) in p.checks {
            out.push(((lesson.clone(), id), c));
        }
    }
    out
}

fn attempts(r: &Reader) -> u32 {
    checks(r).iter().map(|(_, c)| c.attempts).sum()
}

fn start(runner: Option<Runner>) -> Reader {
    let lib = loader::open_paths(&[book()]).unwrap();
    let mut r = Reader::new(lib.courses, WIDTH, HEIGHT);
    if let Some(runner) = runner {
        r.runner = runner;
    }
    let (p, at) = r.runner.store.as_ref().unwrap().resume(r.s.course());
    r.open(at);
    r.with_progress(p);
    r
}

fn apply(r: &mut Reader, step: &Step) {
    match step {
        Step::Key(c) => {
            r.keys(&c.to_string());
        }
        Step::Click(row) => {
            r.act(Action::PageClick(*row));
        }
        Step::Restart => {
            r.act(Action::Quit);
            let clock = r.runner.clock;
            let runner = std::mem::replace(&mut r.runner, Runner::inline());
            *r = start(Some(runner));
            r.runner.clock = clock;
        }
        Step::Later => {
            let now = r.runner.now();
            r.runner.clock = Some(now + chrono::Duration::days(3));
        }
        Step::DueAgree => due_agree(r),
    }
}

/// The stats screen's "due today" is the length of the queue `R` offers.
fn due_agree(r: &mut Reader) {
    // R is a key of the page: not while typing, nor under another screen.
    let page = matches!(
        r.s.screen(),
        Screen::Reading | Screen::Check | Screen::Choices
    );
    if r.s.review.is_some() || !page {
        return;
    }
    r.act(Action::Stats);
    let due = match &r.s.overlay {
        Some(Overlay::Stats(v)) => v.figures.as_ref().map(|f| f.due_today),
        _ => None,
    };
    r.act(Action::Back);
    r.act(Action::Review);
    let queue = r.s.review.as_ref().map(|v| v.queue.len());
    assert_eq!(due, queue, "stats and review disagree on what is due");
    r.act(Action::Back);
}

/// Digits, Enter and a click answer; Space too on a check of several
/// answers, where it ticks (and on its Submit line, submits).
fn answer_key(step: &Step, screen: Screen) -> bool {
    matches!(step, Step::Key('0'..='9' | '\n') | Step::Click(_))
        || matches!(step, Step::Key(' ')) && screen == Screen::Choices
        // A review card's keys: Enter, Space and n answer (or tick and
        // submit) the selected option, as the review's key table says.
        || matches!(step, Step::Key(' ' | 'n')) && screen == Screen::Review
}

/// One step, and every rule held after it.
fn check_step(r: &mut Reader, m: &mut Model, step: &Step) {
    let taker = taker(&r.s);
    let marks = matches!(step, Step::Key('M')) && r.s.screen() == Screen::Reading;
    let in_review = r.s.active_review().is_some();
    let in_drill = r.s.active_review().is_some_and(|v| v.drill.is_some());
    let screen = r.s.screen();
    let before = attempts(r);
    let from = r.effects().len();
    apply(r, step);
    // A restart is a new reader: its effects are all new.
    let from = if matches!(step, Step::Restart) {
        0
    } else {
        from
    };
    let lesson_of = |key: &lectern::model::LessonKey| key.lesson.clone();
    let mut made = 0;
    for e in r.effects()[from..].iter().cloned() {
        match e {
            Effect::Write(Change::Reveal { key, check, .. }) => {
                m.seen.insert((lesson_of(&key), check.clone()));
                m.seen_ever.insert((lesson_of(&key), check));
            }
            Effect::Write(Change::Reset { lessons, .. }) => {
                m.seen.retain(|(lesson, _)| !lessons.contains(lesson));
            }
            Effect::Write(Change::Attempt { drill: true, .. }) => {
                made += 1;
                assert!(in_drill, "{step:?}: a drill answer outside a drill");
            }
            Effect::Write(Change::Attempt {
                key,
                check,
                review,
                revealed,
                drill: false,
                ..
            }) => {
                made += 1;
                let card = (lesson_of(&key), check.clone());
                assert!(answer_key(step, screen), "{step:?} answered {card:?}");
                if review {
                    assert!(in_review, "a review answer outside a review");
                } else {
                    assert_eq!(taker.as_deref(), Some(check.as_str()), "{step:?}");
                }
                let seen = m.seen.contains(&card);
                assert!(review || !seen || revealed, "{card:?} after a reveal");
                let ever = m.seen_ever.contains(&card);
                m.first_after_reveal.entry(card).or_insert(ever && !review);
            }
            _ => {}
        }
    }
    if !matches!(step, Step::Restart | Step::DueAgree) {
        assert_eq!(attempts(r) - before, made, "{step:?}");
    }
    for (card, c) in checks(r) {
        if let Some(first) = c.first_try_correct {
            let kept = *m.firsts.entry(card.clone()).or_insert(first);
            assert_eq!(kept, first, "{step:?} moved the first try of {card:?}");
        }
        if m.first_after_reveal.get(&card) == Some(&true) {
            assert_ne!(
                c.first_try_correct,
                Some(true),
                "{card:?} right after a reveal"
            );
        }
    }
    reads_held(r, m, marks);
}

/// Read flags: the end on screen makes a lesson read; a lesson is read
/// only if its end was on screen (or it was marked read).
fn reads_held(r: &mut Reader, m: &mut Model, marked: bool) {
    let g = r.s.geometry();
    let page = matches!(
        r.s.screen(),
        Screen::Reading | Screen::Check | Screen::Choices
    );
    let slug = r.s.lesson_key().map(|k| k.lesson);
    if let Some(slug) = slug.clone() {
        if page && r.s.reader.at_end(&g) {
            m.ends_seen.insert(slug);
        }
    }
    if marked {
        if let Some(slug) = slug.filter(|_| r.s.reader.doc().is_some()) {
            m.ends_seen.insert(slug);
        }
    }
    for (lesson, p) in progress(r) {
        assert_eq!(p.read, m.ends_seen.contains(&lesson), "{lesson} read");
    }
}

fn run(steps: &[Step]) {
    let mut r = start(None);
    let t0 = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 3, 2, 12, 0, 0).unwrap();
    r.runner.clock = Some(t0);
    let mut m = Model::default();
    reads_held(&mut r, &mut m, false);
    // From the quiz of every kind: the steps wander off it and back.
    let quiz = r.s.course().index_of("quiz").unwrap();
    r.open(quiz);
    reads_held(&mut r, &mut m, false);
    for s in steps {
        check_step(&mut r, &mut m, s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn what_counts_read_and_due_hold_for_any_sequence(steps in proptest::collection::vec(step(), 1..60)) {
        run(&steps);
    }
}

/// A reveal, a move away and back, and a restart: the right answer is
/// never a first try.
#[test]
fn a_reveal_is_kept_across_lessons_and_restarts() {
    use Step::*;
    let quiz = |r: &Reader| r.s.course().index_of("quiz").unwrap();
    let mut r = start(None);
    let i = quiz(&r);
    let mut m = Model::default();
    reads_held(&mut r, &mut m, false);
    r.open(i);
    reads_held(&mut r, &mut m, false);
    for s in [Key('c'), Key('a'), Key(']'), Key('['), Restart, Key('c')] {
        check_step(&mut r, &mut m, &s);
    }
    // The first check is the single choice; answer it with every option.
    for d in ['1', '2', '3', '4'] {
        check_step(&mut r, &mut m, &Key(d));
        check_step(&mut r, &mut m, &Key('r'));
    }
    let first = checks(&r);
    assert!(
        first.iter().all(|(_, c)| c.first_try_correct != Some(true)),
        "{first:?}"
    );
}

fn at_quiz() -> Reader {
    let mut r = start(None);
    let quiz = r.s.course().index_of("quiz").unwrap();
    r.open(quiz);
    r
}

fn recorded(r: &Reader, from: usize) -> usize {
    r.effects()[from..]
        .iter()
        .filter(|e| matches!(e, Effect::Write(Change::Attempt { .. })))
        .count()
}

#[test]
fn the_focus_leaves_a_check_scrolled_off_screen_and_digits_are_counts() {
    let mut r = at_quiz();
    r.keys("ccc");
    assert_eq!(r.s.screen(), Screen::Check);
    r.keys("g");
    assert_eq!(r.s.screen(), Screen::Reading, "the check left the screen");
    let from = r.effects().len();
    r.keys("3j");
    assert_eq!(recorded(&r, from), 0, "3j answers nothing");
    assert_eq!(r.s.reader.top, 3);
}

#[test]
fn an_answered_check_takes_no_digit_until_r() {
    let mut r = at_quiz();
    r.keys("c1");
    assert_eq!(r.s.screen(), Screen::Reading, "answered: the focus left");
    let from = r.effects().len();
    r.keys("2");
    assert_eq!(recorded(&r, from), 0, "a lone digit is a count");
    r.keys("\x1br2");
    assert_eq!(recorded(&r, from), 1, "after r it answers again");
}

#[test]
fn a_count_before_a_lesson_move_opens_that_many_lessons_on() {
    let mut r = start(None);
    let from = r.effects().len();
    r.keys("3]");
    assert_eq!(r.s.reader.lesson, 3);
    assert_eq!(recorded(&r, from), 0);
    r.keys("2[");
    assert_eq!(r.s.reader.lesson, 1);
}

/// A card due a month on, in review: its right answer is rated, and the
/// rating reaches FSRS (easy comes back later than hard); Esc then ends
/// the review where the learner was before it.
#[test]
fn a_right_review_answer_is_rated_as_it_felt_and_esc_returns() {
    let mut r = at_quiz();
    let quiz = r.s.reader.lesson;
    r.keys("c1");
    r.keys("g");
    let now = r.runner.now();
    r.runner.clock = Some(now + chrono::Duration::days(30));
    r.act(Action::Review);
    let v = r.s.review.as_ref().unwrap();
    assert_eq!(v.queue.len(), 1, "the one answered check is the one card");
    let check = &r.s.reader.doc().unwrap().lesson.checks[v.check];
    let right = v.order.iter().position(|&i| check.options[i].correct);
    let right = right.expect("a right option");
    r.keys(&(right + 1).to_string());
    assert!(r.s.review.as_ref().unwrap().rateable);
    let from = r.effects().len();
    r.keys("4");
    let rated = r.effects()[from..]
        .iter()
        .any(|e| matches!(e, Effect::Write(Change::Rate { rating: 4, .. })));
    assert!(rated, "{:?}", &r.effects()[from..]);
    let due = |r: &Reader| {
        r.runner
            .store
            .as_ref()
            .unwrap()
            .due_checks(None, now + chrono::Duration::days(9999))
    };
    let easy = due(&r)[0].3;
    let (course, lesson, check, _) = due(&r)[0].clone();
    r.runner.store.as_mut().unwrap().apply(&Change::Rate {
        key: lectern::model::LessonKey::new(course, lesson),
        check,
        rating: 2,
    });
    let hard = due(&r)[0].3;
    assert!(easy > hard, "easy {easy} hard {hard}");
    r.keys("\x1b");
    assert!(r.s.review.is_none());
    assert_eq!(r.s.reader.lesson, quiz, "back where the review began");
    assert_eq!(r.s.reader.top, 0);
}

/// Quit anywhere in a chapter of quizzes and start again: the same line
/// is on top, inside a check or not.
#[test]
fn a_restart_opens_at_the_line_left_on_top() {
    for moves in 1..40 {
        let mut r = at_quiz();
        r.keys(&"j".repeat(moves));
        let top = r.s.reader.top;
        let line = r.s.reader.doc().unwrap().line(top).map(|l| l.text());
        apply(&mut r, &Step::Restart);
        let again =
            r.s.reader
                .doc()
                .unwrap()
                .line(r.s.reader.top)
                .map(|l| l.text());
        assert_eq!((r.s.reader.top, again), (top, line), "after {moves} lines");
    }
}

/// Found by the model: a review that ends back on another lesson marked
/// that lesson read, since the review's page (scrolled to its end) was
/// still on screen when the rule was asked.
#[test]
fn a_review_ending_on_another_lesson_marks_nothing_read() {
    use Step::*;
    run(&[
        Key('3'),
        Key('g'),
        Key('['),
        Restart,
        Click(9),
        Key('1'),
        Later,
        Key('G'),
        Key(']'),
        DueAgree,
    ]);
}

/// Found by the model too (a check answered, the end seen, the next lesson
/// and a review): held by the same rule.
#[test]
fn an_answer_then_the_next_lesson_and_a_review_mark_only_what_was_seen() {
    use Step::*;
    run(&[
        Key('G'),
        Click(14),
        Key('1'),
        Key('c'),
        Click(0),
        Key('G'),
        Key(']'),
        Later,
        Key('1'),
        DueAgree,
    ]);
}

/// A reveal, then a new round: the round's answers are its first tries
/// (not practice), while the score, the first try ever, stays wrong (the
/// model holds it after every step).
#[test]
fn a_reveal_then_a_new_round_asks_again_and_keeps_the_score() {
    use Step::*;
    run(&[Key('a'), Key('X'), Key('c'), Key('1'), Key('r'), Key('2')]);
}

/// An answer, then `e` in the same millisecond (the model's clock stands
/// still): the explanations shown after it leave its first try standing.
#[test]
fn every_explanation_after_an_answer_leaves_its_first_try() {
    use Step::*;
    run(&[Key('c'), Key('2'), Key('e'), Key('a'), Restart, Key('c')]);
}
