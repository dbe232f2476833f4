use super::*;
use crate::model::{LessonEntry, LessonStatus, Origin};

fn course(n: usize) -> Course {
    let lessons = (0..n)
        .map(|i| LessonEntry {
            origin: Origin::File(format!("l{i}.json").into()),
            slug: format!("l{i}"),
            title: format!("Lesson {i}"),
            position: Some(i as u32 + 1),
            minutes: None,
            module: None,
            status: LessonStatus::Ok,
        })
        .collect();
    Course {
        slug: "c".into(),
        lessons,
        ..Course::default()
    }
}

fn hits(lessons: impl IntoIterator<Item = usize>) -> Vec<CourseHit> {
    lessons
        .into_iter()
        .map(|lesson| CourseHit {
            lesson,
            in_title: false,
            found: None,
        })
        .collect()
}

fn found(word: &str) -> Option<Snippet> {
    Some(Snippet {
        text: format!("a {word} b"),
        marks: vec![(2, 2 + word.len())],
        block: 3,
        word: word.into(),
    })
}

/// The lessons whose snippets `fx` asks for.
fn asked(fx: &[Effect]) -> Vec<usize> {
    fx.iter()
        .flat_map(|e| match e {
            Effect::CourseSnippets { lessons, .. } => lessons.iter().map(|l| l.0).collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn typed(cs: &mut CourseSearch, c: &Course, text: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for ch in text.chars() {
        cs.update(&Action::Input(ch), c, 30, &mut fx);
    }
    fx
}

#[test]
fn each_edit_asks_for_a_new_generation_and_ctrl_u_clears() {
    let c = course(3);
    let mut cs = CourseSearch::default();
    let fx = typed(&mut cs, &c, "ab cd");
    let Some(Effect::CourseSearch {
        query,
        generation,
        origins,
    }) = fx.last()
    else {
        panic!("no search asked: {fx:?}")
    };
    assert_eq!((query.as_str(), *generation), ("ab cd", 5));
    assert_eq!(origins[..], c.origins()[..]);
    // Shared by every search while the course stays the same.
    let Some(Effect::CourseSearch { origins: first, .. }) = fx.first() else {
        panic!("no first search: {fx:?}")
    };
    assert!(std::sync::Arc::ptr_eq(first, origins));
    let mut fx = Vec::new();
    cs.update(&Action::InputKillWord, &c, 30, &mut fx);
    assert_eq!(cs.query, "ab ");
    fx.clear();
    cs.update(&Action::InputKillLine, &c, 30, &mut fx);
    assert_eq!(cs.query, "");
    assert!(fx.is_empty());
    // Nothing to delete: nothing asked.
    cs.update(&Action::InputKillWord, &c, 30, &mut fx);
    assert!(fx.is_empty());
}

#[test]
fn only_the_last_search_asked_is_answered_and_only_its_hits_on_screen_read() {
    let c = course(40);
    let mut cs = CourseSearch::default();
    typed(&mut cs, &c, "abc");
    let mut fx = Vec::new();
    // "ab" answers late, after "abc" was asked: dropped.
    cs.results(2, hits(0..5), 5, &c, 30, &mut fx);
    assert!(cs.results.is_empty() && fx.is_empty());
    cs.results(3, hits(0..40), 40, &c, 30, &mut fx);
    assert_eq!((cs.results.len(), cs.total), (40, 40));
    // A 30-row terminal lists 12 hits: their snippets alone are asked for.
    assert_eq!(asked(&fx), (0..12).collect::<Vec<_>>());
    assert_eq!(cs.window(list_rows(30)), 0..12);
    // Snippets of an older generation are dropped too.
    cs.snippets(2, vec![(0, found("abc"))]);
    assert_eq!(cs.results[0].found, None);
    cs.snippets(3, vec![(0, found("abc")), (1, None)]);
    assert_eq!(cs.results[0].found, found("abc"));
    // One that no longer matches goes.
    assert_eq!((cs.results[1].lesson, cs.total), (2, 39));
}

#[test]
fn moving_down_past_the_screen_asks_for_the_next_hits() {
    let c = course(40);
    let mut cs = CourseSearch::default();
    typed(&mut cs, &c, "a");
    let mut fx = Vec::new();
    cs.results(1, hits(0..40), 40, &c, 30, &mut fx);
    fx.clear();
    for _ in 0..11 {
        cs.update(&Action::LineDown, &c, 30, &mut fx);
    }
    assert!(fx.is_empty(), "all on screen were asked: {fx:?}");
    cs.update(&Action::LineDown, &c, 30, &mut fx);
    assert_eq!(asked(&fx), [12]);
    // Enter before its snippet is in: the lesson's start, the first word.
    let Some(Searched::Open {
        lesson,
        block,
        word,
    }) = cs.update(&Action::Open, &c, 30, &mut fx)
    else {
        panic!("nothing opened")
    };
    assert_eq!((lesson, block, word.as_str()), (12, 0, "a"));
}

#[test]
fn a_search_again_as_the_index_grows_keeps_the_snippets_and_the_choice() {
    let c = course(10);
    let mut cs = CourseSearch::default();
    typed(&mut cs, &c, "a");
    let mut fx = Vec::new();
    cs.results(1, hits([4, 5]), 2, &c, 30, &mut fx);
    cs.snippets(1, vec![(4, found("a")), (5, found("ab"))]);
    cs.cursor = 1;
    fx.clear();
    cs.search(&c, &mut fx);
    cs.results(2, hits([2, 5, 4]), 3, &c, 30, &mut fx);
    assert_eq!(cs.cursor, 1, "lesson 5 stays chosen");
    assert_eq!(cs.results[1].found, found("ab"));
    // Only the new hit is read.
    assert_eq!(asked(&fx), [2]);
}

#[test]
fn a_taller_screen_reads_the_hits_it_now_shows() {
    let c = course(40);
    let mut cs = CourseSearch::default();
    typed(&mut cs, &c, "a");
    let mut fx = Vec::new();
    cs.results(1, hits(0..40), 40, &c, 30, &mut fx);
    fx.clear();
    cs.want(cs.window(list_rows(40)), &c, &mut fx);
    assert_eq!(asked(&fx), (12..17).collect::<Vec<_>>());
}
