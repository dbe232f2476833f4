//! The study loop, keys in and state out, with the runner's clock fixed:
//! counts, answers only on purpose, reveals, Enter with nothing selected,
//! read means read, misconceptions that come back, the learner's day.

use super::*;
use chrono::{DateTime, Duration, Local, TimeZone, Utc};

/// Noon, local time, on 2026-03-10: far from any DST change and from the
/// rollover hour, whatever zone the tests run in.
fn noon() -> DateTime<Utc> {
    Local
        .with_ymd_and_hms(2026, 3, 10, 12, 0, 0)
        .earliest()
        .unwrap()
        .with_timezone(&Utc)
}

fn demo_at(now: DateTime<Utc>) -> H {
    let mut h = H::course(demo_dir(), 60, 16);
    h.runner.clock = Some(now);
    h.open(0);
    h
}

fn attempts(fx: &[Effect]) -> Vec<&Effect> {
    fx.iter()
        .filter(|e| matches!(e, Effect::Write(Change::Attempt { .. })))
        .collect()
}

#[test]
fn a_count_moves_the_page_and_answers_nothing() {
    let mut h = demo_at(noon());
    let fx = h.keys("3");
    assert!(fx.is_empty());
    assert_eq!(h.s.reader.count, Some(3), "the count waits for a motion");
    let fx = h.keys("j");
    assert!(attempts(&fx).is_empty(), "3j answered: {fx:?}");
    assert_eq!(h.s.reader.top, 3);
    assert_eq!(h.s.reader.count, None);
    assert_eq!(h.s.reader.check().unwrap().chosen, None);
    h.keys("2k");
    assert_eq!(h.s.reader.top, 1);
    h.keys("10G");
    assert_eq!(h.s.reader.top, 9, "10G: line 10 on top");
    let page = h.s.geometry().page() as usize;
    h.keys("g2 ");
    assert_eq!(h.s.reader.top, 2 * page, "2 Space: two pages");
    h.keys("g10j");
    assert_eq!(h.s.reader.top, 10);
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.s.reader.check().unwrap().attempts, 0);
}

#[test]
fn esc_or_another_key_drops_the_count() {
    let mut h = demo_at(noon());
    h.keys("5\x1b");
    assert_eq!(h.s.reader.count, None);
    h.keys("j");
    assert_eq!(h.s.reader.top, 1, "j alone after Esc");
    h.keys("4/");
    assert_eq!(h.s.reader.count, None, "a non-motion key drops the count");
    h.keys("\x1b");
    h.keys("0j");
    assert_eq!(h.s.reader.top, 2, "a leading 0 is no count");
}

#[test]
fn digits_answer_only_once_the_check_has_the_focus() {
    let mut h = demo_at(noon());
    // Display position 2 is Alpha, the right answer, at the top of the page.
    assert!(attempts(&h.keys("2")).is_empty());
    h.keys("\x1b");
    h.keys("c");
    assert_eq!(h.s.screen(), Screen::Check);
    let fx = h.keys("2");
    assert_eq!(attempts(&fx).len(), 1);
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(true));
}

#[test]
fn an_answer_after_a_reveal_is_never_a_right_first_try() {
    let mut h = demo_at(noon());
    h.keys("a");
    assert_eq!(
        h.s.screen(),
        Screen::Check,
        "the reveal gives the check the keys"
    );
    let fx = h.keys("2");
    assert!(matches!(
        attempts(&fx)[..],
        [Effect::Write(Change::Attempt {
            correct: true,
            revealed: true,
            ..
        })]
    ));
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(false));
    assert!(h.s.notice.as_deref().unwrap().contains("after the reveal"));
    // A retry does not hide that the answer was seen.
    h.keys("r2");
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(false));
    let store = h.runner.store.as_ref().unwrap();
    let p = store.progress("demo", "first");
    assert_eq!(p.first_try_correct, Some(false), "stored as revealed");
    assert_eq!(p.attempts, 2);
    assert_eq!(h.s.library.progress["first"].first_try_correct, Some(false));
}

#[test]
fn enter_with_nothing_selected_answers_nothing() {
    let mut h = demo_at(noon());
    h.keys("c");
    assert_eq!(h.s.reader.check().unwrap().cursor, None);
    let fx = h.keys("\n");
    assert!(attempts(&fx).is_empty());
    assert!(
        h.s.notice
            .as_deref()
            .unwrap()
            .contains("Nothing is selected")
    );
    let fx = h.keys("j\n");
    assert_eq!(attempts(&fx).len(), 1, "j selects the first option");

    let mut h = demo_at(noon());
    h.msg(Msg::ReviewReady(cards(&h, vec!["first"]), 3));
    assert_eq!(h.s.screen(), Screen::Review);
    let fx = h.keys("\n");
    assert!(attempts(&fx).is_empty(), "review: Enter on a fresh card");
    assert!(h.s.notice.as_deref().unwrap().contains("Choose an option"));
    assert_eq!(h.s.review.as_ref().unwrap().pos, 0);
    let fx = h.keys("j\n");
    assert_eq!(attempts(&fx).len(), 1);
}

#[test]
fn a_lesson_is_read_once_its_end_is_on_screen_however_it_got_there() {
    let mut h = demo_at(noon());
    let fx = h.keys("j");
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Write(Change::Read { .. })))
    );
    assert!(!h.s.library.progress["first"].read);
    // The check stands at the lesson's end: `c` brings the end on screen.
    let fx = h.keys("c");
    assert!(fx.contains(&Effect::Write(Change::Read {
        key: key("demo", "first")
    })));
    assert!(h.s.library.progress["first"].read);

    let mut h = demo_at(noon());
    h.keys("G");
    assert!(
        h.s.library.progress["first"].read,
        "G brings the end on screen"
    );

    let mut h = demo_at(noon());
    let fx = h.keys("M");
    assert!(fx.contains(&Effect::Write(Change::Read {
        key: key("demo", "first")
    })));
    assert_eq!(h.s.notice.as_deref(), Some("Marked read."));
}

#[test]
fn a_tempting_choice_is_brought_back_after_the_next_answer() {
    let mut h = demo_at(noon());
    // Display 1 is Gamma (file option 2), wrong and tempting.
    h.keys("c1");
    h.msg(Msg::ReviewReady(cards(&h, vec!["first"]), 3));
    let r = h.s.review.as_ref().unwrap();
    let alpha = r.order.iter().position(|&i| i == 0).unwrap();
    h.keys(&(alpha + 1).to_string());
    let r = h.s.review.as_ref().unwrap();
    assert_eq!(r.right, 1);
    let reminder = r.reminder.as_deref().expect("a reminder");
    assert!(reminder.contains("Gamma"), "{reminder}");
    assert!(reminder.contains("came first"), "{reminder}");
}

#[test]
fn misconceptions_are_dropped_after_two_right_answers_in_a_row() {
    let mut h = demo_at(noon());
    h.keys("c1r1r2");
    let store = h.runner.store.as_ref().unwrap();
    let m = store.misconceptions(Some("demo"), 2);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].last, noon(), "when it was last chosen");
    h.keys("r2");
    let store = h.runner.store.as_ref().unwrap();
    assert!(store.misconceptions(Some("demo"), 2).is_empty());
}

/// The clock crosses midnight, then the rollover hour: a card due later
/// on its day is due from the rollover on, not from midnight, and the
/// review and the stats screen agree at every step.
#[test]
fn the_day_turns_at_the_rollover_hour_for_review_and_stats_alike() {
    let mut h = demo_at(noon());
    h.keys("c1");
    let due = h
        .runner
        .store
        .as_ref()
        .unwrap()
        .progress("demo", "first")
        .due;
    let due = due.expect("the answer made a card");
    let day = h.runner.days.day(due);
    let rollover = h.runner.days.start(day);
    assert!(due > rollover + Duration::hours(1), "{due} {rollover}");
    let midnight = Local
        .from_local_datetime(&day.and_hms_opt(0, 30, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&Utc);
    for (now, due_now) in [
        (midnight, false),
        (rollover - Duration::minutes(1), false),
        (rollover + Duration::minutes(1), true),
    ] {
        h.runner.clock = Some(now);
        h.s.review = None;
        h.s.overlay = None;
        h.keys("R");
        let review = h.s.review.as_ref().unwrap();
        assert_eq!(review.queue.len(), usize::from(due_now), "review at {now}");
        if !due_now {
            assert_eq!((review.next, review.scheduled), (Some(due), 1));
        }
        h.s.review = None;
        h.keys("S");
        let Some(Overlay::Stats(v)) = &h.s.overlay else {
            panic!("no stats")
        };
        let f = v.figures.as_ref().unwrap();
        assert_eq!(f.due_today, usize::from(due_now), "stats at {now}");
        let gap = (h.runner.days.day(now) - h.runner.days.day(noon())).num_days();
        assert_eq!(f.streak, u32::from(gap <= 1), "streak at {now}");
    }
}

#[test]
fn the_stats_screen_opens_a_misconception_lesson_with_its_digit() {
    let mut h = demo_at(noon());
    h.keys("c1r1\x1b]");
    assert_eq!(h.title(), "Second");
    h.keys("S");
    let Some(Overlay::Stats(v)) = &h.s.overlay else {
        panic!("no stats")
    };
    let m = &v.figures.as_ref().unwrap().misconceptions;
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].option_text.as_deref(), Some("Gamma"));
    h.keys("1");
    assert!(h.s.overlay.is_none());
    assert_eq!(h.title(), "First");
    // At its check, not at the lesson's top.
    let doc = h.s.reader.doc().unwrap();
    let start = doc.check_start(0).unwrap();
    let rows = h.s.geometry().rows();
    assert!(
        (h.s.reader.top..h.s.reader.top + rows).contains(&start),
        "the check at {start}, the screen from {}",
        h.s.reader.top
    );
    assert_eq!(
        h.s.screen(),
        Screen::Reading,
        "the focus is the learner's to give"
    );
    assert!(
        start >= rows,
        "the check is below the first screen: a real move"
    );
}

#[test]
fn the_contents_page_and_list_the_open_lessons_headings() {
    let mut h = demo_at(noon());
    h.keys("\t");
    assert_eq!(h.s.screen(), Screen::Contents);
    let rows = rows_of(&h.s);
    let heads = rows
        .iter()
        .filter(|r| matches!(r, TocRow::Heading(_)))
        .count();
    assert_eq!(heads, 3, "{rows:?}");
    h.keys("jj");
    assert_eq!(h.s.contents.heading, Some(1));
    h.keys("\n");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.visible()[0], "Section 1 of First");
    h.keys("\tG");
    assert_eq!(h.s.contents.cursor, 2);
    h.keys("g");
    assert_eq!((h.s.contents.cursor, h.s.contents.heading), (0, None));
    h.keys(" ");
    assert_eq!(h.s.contents.cursor, 2, "a page of entries, clamped");
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(!h.s.quit);
}

#[test]
fn a_review_goes_through_the_due_cards_of_every_course() {
    let mut h = two_courses();
    h.runner.clock = Some(noon());
    let due = crate::model::DueCards {
        cards: vec![
            ("demo".into(), "first".into(), None),
            ("demo-two".into(), "third".into(), None),
        ],
        ..Default::default()
    };
    h.msg(Msg::ReviewReady(due, 5));
    let third = h.s.library.courses[1].index_of("third").unwrap();
    assert_eq!(h.s.review.as_ref().unwrap().queue, [(0, 0), (1, third)]);
    assert_eq!(h.title(), "First");
    h.keys("1\n");
    assert_eq!(
        h.s.library.current, 1,
        "the second card is in the other course"
    );
    assert_eq!(h.title(), "Third");
    assert_eq!(h.s.screen(), Screen::Review);
    let fx = h.keys("1");
    assert!(matches!(
        attempts(&fx)[..],
        [Effect::Write(Change::Attempt { key, review: true, .. })] if key.course == "demo-two"
    ));
}

#[test]
fn the_picker_lists_the_library_and_opens_a_course_not_open() {
    let other = demo_dir();
    let mut elsewhere = loader::open_paths(&[other.path().to_path_buf()])
        .unwrap()
        .courses;
    let mut h = demo_at(noon());
    // Another course, remembered from an earlier session.
    let store = h.runner.store.as_mut().unwrap();
    elsewhere[0].slug = "far".into();
    let far = &elsewhere[0];
    store.apply(&Change::Remember {
        slug: "far".into(),
        title: "Far away".into(),
        root: far.root.clone(),
        lessons: 3,
        at: Some(noon()),
    });
    store.apply(&Change::Remember {
        slug: "gone".into(),
        title: "Gone course".into(),
        root: Some("/nonexistent/lectern/course".into()),
        lessons: 2,
        at: Some(noon() - chrono::Duration::days(1)),
    });
    h.keys("C");
    let Some(Overlay::Courses(p)) = &h.s.overlay else {
        panic!("no picker")
    };
    let slugs: Vec<&str> = p.rows.iter().map(|r| r.slug.as_str()).collect();
    assert_eq!(slugs, ["demo", "far", "gone"]);
    assert!(p.rows[2].gone && !p.rows[1].gone);
    h.keys("G\n");
    assert!(h.s.notice.as_deref().unwrap().contains("folder is gone"));
    assert_eq!(h.s.library.courses.len(), 1);
    // The folder holds the course under its own slug, not "far": said so.
    h.keys("Cj\n");
    assert!(h.s.notice.as_deref().unwrap().contains("no longer holds"));
    // A folder that does hold it: the course joins the open ones and opens.
    let mut v = lesson("far-one", "Far one", 1, 1, 1, true);
    v["course"]["slug"] = json!("far");
    write(other.path(), "far.json", &v);
    h.keys("Cj\n");
    assert_eq!(h.s.library.courses.len(), 2);
    assert_eq!(h.s.library.current, 1);
    assert_eq!(h.title(), "Far one");
}

#[test]
fn a_link_fragment_opens_its_lesson_at_that_heading() {
    let mut h = H::demo(60, 16);
    h.s.reader.pending.fragment = Some("s1".into());
    h.open(1);
    let top = h.visible()[0].clone();
    assert!(top.contains("Section 1 of Second"), "{top}");
    // By the heading's words too, as markdown links name it.
    h.s.reader.pending.fragment = Some("section-1-of-first".into());
    h.open(0);
    let top = h.visible()[0].clone();
    assert!(top.contains("Section 1 of First"), "{top}");
}
