//! A lesson of several checks, keys in and state out through the real
//! runner and store: each check stands at its anchor, `c` goes from one
//! to the next, every kind is answered in its own way and each answer is
//! stored under its check, comes back when the lesson opens again and is
//! reviewed in its own form.

use super::*;
use crate::model::{Answer, CheckProgress, sample_checks};

/// The demo's first lesson, its one check replaced by the three samples:
/// several answers before "Section 1", a short answer before "Section 2",
/// a tracing question after the last block.
fn with_checks(h: &mut H, progress: crate::model::LessonProgress) -> Vec<Effect> {
    let mut lesson = (*h.doc().lesson).clone();
    let mut checks = sample_checks();
    checks[0].anchor = Some(5);
    checks[1].anchor = Some(10);
    lesson.checks = checks;
    let index = h.s.reader.lesson;
    let slug = lesson.meta.slug.clone();
    h.s.library.progress.insert(slug, progress);
    let opened = Opened {
        index,
        origin: h.s.course().lessons[index].origin.clone(),
        lesson: Ok(lesson),
        read: None,
    };
    h.msg(Msg::Loaded(Box::new(opened)))
}

fn several() -> H {
    let mut h = H::demo(60, 16);
    with_checks(&mut h, Default::default());
    h
}

fn attempts(fx: &[Effect]) -> Vec<(String, u32, Option<String>, bool)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Write(Change::Attempt {
                check,
                option,
                answer,
                correct,
                ..
            }) => Some((check.clone(), *option, answer.clone(), *correct)),
            _ => None,
        })
        .collect()
}

fn text_of(h: &H, k: usize) -> String {
    let layout = h.doc().check_layout(k).expect("laid out");
    let lines: Vec<String> = layout.lines.iter().map(|l| l.text()).collect();
    lines.join("\n")
}

#[test]
fn each_check_stands_before_its_block_numbered() {
    let h = several();
    let d = h.doc();
    let section1 = h.line_index("Section 1 of First");
    let section2 = h.line_index("Section 2 of First");
    let first = h.line_index("Check 1 of 3");
    let second = h.line_index("Check 2 of 3");
    let third = h.line_index("Check 3 of 3");
    assert!(first < section1 && section1 < second && second < section2 && section2 < third);
    assert_eq!(d.check_start(0), Some(first));
    assert_eq!(d.check_start(2), Some(third));
    assert!(third > h.line_index("Section 2 of First"));
    // The short answer's body is laid out as a code block; the tracing
    // program too, its lines numbered.
    assert!(
        text_of(&h, 1).contains("│ ___ x = 5;"),
        "{}",
        text_of(&h, 1)
    );
    assert!(text_of(&h, 2).contains("│ 2     println!(\"1\");"));
    assert!(text_of(&h, 2).contains("Does it compile?"));
    // Nothing is explained before an answer.
    for k in 0..3 {
        assert!(!text_of(&h, k).contains("Why:"), "{}", text_of(&h, k));
    }
    // Headings and checks are what `}` goes through.
    // Inside a check: the block it stands before, and the very line.
    assert_eq!(d.anchor_of(first).block, 6);
    assert_eq!(d.line_of(d.anchor_of(first)), first);
    assert_eq!(d.line_of(d.anchor_of(first + 2)), first + 2);
}

#[test]
fn c_goes_to_the_next_check_and_wraps() {
    let mut h = several();
    let starts: Vec<usize> = (0..3).map(|k| h.doc().check_start(k).unwrap()).collect();
    let g = h.s.geometry();
    let at = |h: &H, k: usize| starts[k].min(h.s.reader.max_top(&g));
    h.keys("c");
    assert_eq!((h.s.reader.current, h.s.reader.top), (0, at(&h, 0)));
    assert_eq!(
        h.s.screen(),
        Screen::Choices,
        "several answers: tick, then submit"
    );
    h.keys("c");
    assert_eq!((h.s.reader.current, h.s.reader.top), (1, at(&h, 1)));
    assert_eq!(h.s.screen(), Screen::Check);
    h.keys("c");
    assert_eq!(h.s.reader.current, 2);
    h.keys("c");
    assert_eq!(h.s.reader.current, 0, "wraps to the first");
    // From the page, the next check below where the reader is.
    h.keys("\x1bg");
    let below = starts[1] - 2;
    h.s.reader.set_top(below, &g);
    h.keys("c");
    assert_eq!(h.s.reader.current, 1);
}

#[test]
fn several_answers_are_ticked_then_submitted_as_a_set() {
    let mut h = several();
    h.keys("c12");
    assert_eq!(h.s.reader.check().unwrap().picked, [0, 1]);
    assert!(text_of(&h, 0).contains("[x] 2.5"), "{}", text_of(&h, 0));
    h.keys("2");
    assert_eq!(
        h.s.reader.check().unwrap().picked,
        [0],
        "ticked again: unticked"
    );
    // Space ticks the option under the cursor.
    h.keys("jjj ");
    assert_eq!(h.s.reader.check().unwrap().picked, [0, 2]);
    // Enter on an option ticks it; on the Submit line it submits.
    h.keys("\n");
    assert_eq!(h.s.reader.check().unwrap().picked, [0]);
    h.keys("\nj");
    assert_eq!(
        h.s.reader.check().unwrap().cursor,
        Some(3),
        "the Submit line"
    );
    let fx = h.keys("\n");
    assert_eq!(
        attempts(&fx),
        [("integers".into(), NO, Some("0,2".into()), true)]
    );
    let text = text_of(&h, 0);
    assert!(
        text.contains("✔ Right: you chose every right answer"),
        "{text}"
    );
    assert!(text.contains("Why: Integers are whole numbers"), "{text}");
    let p = &h.s.library.progress["first"].checks["integers"];
    assert_eq!((p.attempts, p.first_try_correct), (1, Some(true)));
    // Submitted: ticking asks for a retry; r clears, a wrong set is wrong.
    h.keys("1");
    assert_eq!(h.s.reader.check().unwrap().picked, [0, 2]);
    h.keys("r1\n");
    let text = text_of(&h, 0);
    assert!(text.contains("Missed: this one is right too"), "{text}");
    assert_eq!(
        h.s.reader.check().unwrap().first_try,
        Some(true),
        "first try stays"
    );
}

const NO: u32 = crate::model::NO_OPTION;

#[test]
fn a_short_answer_is_typed_edited_and_submitted() {
    let mut h = several();
    h.keys("cc\n");
    assert_eq!(h.s.screen(), Screen::Answer);
    // Keys are text while typing: q does not quit, c goes in the answer.
    h.keys("qc");
    assert!(!h.s.quit);
    h.act(Action::InputKillLine);
    h.keys("the va");
    h.act(Action::InputKillWord);
    h.keys("LET \x7f\x7f\x7fET ");
    assert_eq!(h.s.reader.check().unwrap().typed, "the LET ");
    h.act(Action::InputKillLine);
    h.keys("  Let\x1b");
    assert_eq!(h.s.screen(), Screen::Check, "Esc cancels");
    assert_eq!(h.s.reader.check().unwrap().typed, "");
    let fx = h.keys("i  Let \n");
    assert_eq!(
        attempts(&fx),
        [("keyword".into(), NO, Some("  Let ".into()), true)]
    );
    let text = text_of(&h, 1);
    assert!(text.contains("Right: your answer"), "{text}");
    assert!(
        text.contains("Why: A variable is declared with let."),
        "{text}"
    );
}

#[test]
fn a_tracing_question_asks_if_it_compiles_then_for_the_output() {
    let mut h = several();
    h.keys("ccc");
    assert_eq!(h.s.reader.current, 2);
    h.keys("1");
    assert_eq!(h.s.screen(), Screen::Answer);
    assert!(
        text_of(&h, 2).contains("What does it print?"),
        "{}",
        text_of(&h, 2)
    );
    h.keys("1");
    h.act(Action::Input('\n'));
    let fx = h.keys("3\n");
    assert_eq!(
        attempts(&fx),
        [("trace".into(), NO, Some("compiles\n1\n3".into()), false)]
    );
    let text = text_of(&h, 2);
    assert!(text.contains("Wrong: your answer"), "{text}");
    // Revealed: the right output shown; the next answer is practice.
    h.keys("a");
    let text = text_of(&h, 2);
    assert!(
        text.contains("The answer: it compiles and prints"),
        "{text}"
    );
    assert!(text.contains("│ 2"), "{text}");
    h.keys("r2");
    assert!(text_of(&h, 2).contains("On which line is the error?"));
    h.act(Action::Back);
    h.keys("r1");
    h.keys("1");
    h.act(Action::Input('\n'));
    let fx = h.keys("2\n");
    assert_eq!(attempts(&fx).len(), 1);
    assert!(attempts(&fx)[0].3, "right after the reveal");
    let p = &h.s.library.progress["first"].checks["trace"];
    assert_eq!((p.attempts, p.first_try_correct), (2, Some(false)));
}

#[test]
fn each_answer_is_stored_under_its_check_and_comes_back() {
    let mut h = several();
    h.keys("c13\n");
    h.keys("c\nlet\n");
    h.keys("c2");
    h.keys("7\n");
    let store = h.runner.store.as_ref().unwrap();
    let p = store.progress("demo", "first");
    assert_eq!(p.attempts, 3);
    let ids: Vec<&str> = p.checks.keys().map(String::as_str).collect();
    assert_eq!(ids, ["integers", "keyword", "trace"]);
    assert_eq!(p.checks["keyword"].last_text.as_deref(), Some("let"));
    assert_eq!(p.checks["trace"].last_text.as_deref(), Some("error\n7"));
    assert_eq!(p.checks["trace"].first_try_correct, Some(false));
    assert_eq!(
        store
            .due_checks(
                Some("demo"),
                chrono::Utc::now() + chrono::Duration::days(400)
            )
            .len(),
        3
    );
    // Opened again: each check shows the answer it was given.
    h.keys("]");
    h.keys("[");
    with_checks(&mut h, p);
    let c = h.s.reader.doc().unwrap().states();
    assert_eq!((c[0].picked.clone(), c[0].submitted), (vec![0, 2], true));
    assert_eq!(c[1].typed, "let");
    assert_eq!((c[2].compiles, c[2].typed.as_str()), (Some(false), "7"));
    assert!(text_of(&h, 1).contains("› let"), "{}", text_of(&h, 1));
}

#[test]
fn a_lesson_without_checks_has_no_check_section() {
    let mut h = H::demo(60, 16);
    let mut lesson = (*h.doc().lesson).clone();
    lesson.checks.clear();
    let index = h.s.reader.lesson;
    h.msg(Msg::Loaded(Box::new(Opened {
        index,
        origin: h.s.course().lessons[index].origin.clone(),
        lesson: Ok(lesson),
        read: None,
    })));
    assert!(h.doc().checks.is_empty());
    let d = h.doc();
    assert!((0..d.total()).all(|i| !d.line(i).unwrap().text().contains("Check")));
    h.keys("c");
    assert_eq!(h.s.screen(), Screen::Reading);
}

#[test]
fn old_lesson_wide_progress_is_the_empty_ids_check() {
    let p = crate::model::LessonProgress {
        attempts: 2,
        first_try_correct: Some(false),
        last_choice: Some(1),
        last_correct: Some(true),
        ..Default::default()
    };
    let mut one = sample_checks();
    one.truncate(1);
    one[0].id.clear();
    one[0].kind = crate::model::CheckKind::Choice { multi: false };
    let s = crate::model::CheckState::all_resumed(&one, &p);
    assert_eq!((s[0].chosen, s[0].attempts), (Some(1), 2));
    // Stored answers read back in their kind.
    let multi = &sample_checks()[0];
    let cp = CheckProgress {
        attempts: 1,
        last_text: Answer::Choice(vec![0, 2]).stored().1,
        ..Default::default()
    };
    let back = crate::model::CheckState::resumed(multi, Some(&cp));
    assert_eq!(back.picked, [0, 2]);
}

#[test]
fn every_kind_is_reviewed_in_its_own_form() {
    let mut h = several();
    h.keys("c13\nc\nlet\nc1");
    h.act(Action::InputKillLine);
    h.keys("1");
    h.act(Action::Input('\n'));
    h.keys("2\n");
    let course = h.s.course().slug.clone();
    let cards = ["integers", "keyword", "trace"]
        .map(|k| (course.clone(), "first".to_string(), Some(k.to_string())))
        .to_vec();
    h.msg(Msg::ReviewReady(
        crate::model::DueCards {
            cards,
            ..Default::default()
        },
        7,
    ));
    // The review reopens the lesson from its file: put the checks back.
    with_checks(&mut h, Default::default());
    assert_eq!(h.s.screen(), Screen::Review);
    let r = h.s.review.as_ref().unwrap();
    assert_eq!(r.check, 0);
    let right: Vec<usize> = [0, 2]
        .iter()
        .map(|i| r.order.iter().position(|o| o == i).unwrap())
        .collect();
    let keys: String = right.iter().map(|p| char::from(b'1' + *p as u8)).collect();
    let fx = h.keys(&format!("{keys}\n"));
    assert_eq!(
        attempts(&fx),
        [("integers".into(), NO, Some("0,2".into()), true)]
    );
    h.keys("\n");
    with_checks(&mut h, Default::default());
    assert_eq!(h.s.review.as_ref().unwrap().check, 1);
    h.keys("\n");
    assert_eq!(h.s.screen(), Screen::Answer, "a short card is typed");
    let fx = h.keys("nope\n");
    assert_eq!(
        attempts(&fx),
        [("keyword".into(), NO, Some("nope".into()), false)]
    );
    h.keys("\n");
    with_checks(&mut h, Default::default());
    h.keys("1");
    h.keys("1");
    h.act(Action::Input('\n'));
    let fx = h.keys("2\n");
    assert_eq!(
        attempts(&fx),
        [("trace".into(), NO, Some("compiles\n1\n2".into()), true)]
    );
    let r = h.s.review.as_ref().unwrap();
    assert_eq!((r.right, r.wrong), (2, 1));
}
