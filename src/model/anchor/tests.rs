use super::*;

const LESSON: &str = "Ownership is a set of rules that govern how a Rust program manages memory.\n\
Some languages have garbage collection that regularly looks for no-longer-used memory.\n\
Rust uses a third approach: memory is managed through a system of ownership.\n\
None of the features of ownership will slow down your program while it is running.";

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// The selector of the first `quote` in `text`.
fn select(text: &str, quote: &str) -> Selector {
    let text = chars(text);
    let q = chars(quote);
    let start = (0..text.len())
        .find(|&i| text[i..].starts_with(&q))
        .expect("the quote is in the text");
    Selector::of(&text, start, start + q.len(), 0)
}

/// Where `sel` is placed in `edited`: its status and the text it covers.
fn placed(edited: &str, sel: &Selector) -> (Status, String) {
    let text = chars(edited);
    let p = place(&text, sel);
    (p.status, text[p.start..p.end].iter().collect())
}

const QUOTE: &str = "memory is managed through a system of ownership";

#[test]
fn a_table_of_edits_gives_each_its_status_and_place() {
    let sel = select(LESSON, QUOTE);
    let moved_para = {
        let mut lines: Vec<&str> = LESSON.lines().collect();
        let third = lines.remove(2);
        lines.insert(0, third);
        lines.join("\n")
    };
    let table: Vec<(&str, String, Status, &str)> = vec![
        ("unedited", LESSON.to_string(), Status::Ok, QUOTE),
        (
            "a paragraph inserted before",
            format!("A new first paragraph about stacks and heaps.\n{LESSON}"),
            Status::Moved,
            QUOTE,
        ),
        (
            "a word changed inside the quote",
            LESSON.replace("is managed through", "is governed through"),
            Status::Fuzzy,
            "memory is governed through a system of ownership",
        ),
        (
            "the prefix changed only",
            LESSON.replace("Rust uses a third approach:", "Rust takes another way:"),
            Status::Moved,
            QUOTE,
        ),
        ("the paragraph moved", moved_para, Status::Moved, QUOTE),
        (
            "the paragraph deleted",
            LESSON.replace(
                "Rust uses a third approach: memory is managed through a system of ownership.\n",
                "",
            ),
            Status::Orphan,
            "",
        ),
        (
            "the text duplicated elsewhere",
            format!("{LESSON}\nIn short: memory is managed through a system of ownership."),
            Status::Ok,
            QUOTE,
        ),
    ];
    for (edit, text, status, covers) in table {
        let (got, text_at) = placed(&text, &sel);
        assert_eq!((got, text_at.as_str()), (status, covers), "{edit}");
    }
}

#[test]
fn duplicated_text_above_is_told_apart_by_its_context() {
    let sel = select(LESSON, QUOTE);
    let edited =
        format!("Elsewhere memory is managed through a system of ownership too.\n{LESSON}");
    let text = chars(&edited);
    let p = place(&text, &sel);
    assert_eq!(p.status, Status::Moved);
    let before: String = text[..p.start].iter().collect();
    assert!(before.ends_with("third approach: "), "{before}");
}

#[test]
fn a_short_quote_whose_context_changed_too_is_an_orphan() {
    let sel = select(LESSON, "garbage collection");
    let edited = LESSON.replace(
        "Some languages have garbage collection that regularly looks",
        "Other systems rely on garbage collectors which often look",
    );
    let (status, _) = placed(&edited, &sel);
    assert_ne!(status, Status::Ok);
    let edited = LESSON.replace(
        "Some languages have garbage collection that regularly looks for no-longer-used memory.",
        "Some tools clean up after themselves.",
    );
    assert_eq!(placed(&edited, &sel).0, Status::Orphan);
}

#[test]
fn a_quote_is_never_placed_in_an_empty_or_shorter_text() {
    let sel = select(LESSON, QUOTE);
    assert_eq!(placed("", &sel).0, Status::Orphan);
    assert_eq!(placed("own", &sel).0, Status::Orphan);
    let empty = Selector::default();
    assert_eq!(placed(LESSON, &empty).0, Status::Orphan);
}

#[test]
fn a_selector_keeps_its_context_and_cuts_long_quotes() {
    let sel = select(LESSON, QUOTE);
    assert_eq!(sel.exact, QUOTE);
    assert_eq!(sel.prefix.chars().count(), CONTEXT);
    assert!(sel.prefix.ends_with("third approach: "));
    assert!(sel.suffix.starts_with(".\nNone"));
    let text = chars(&"x".repeat(MAX_QUOTE * 2));
    let long = Selector::of(&text, 0, text.len(), 0);
    assert_eq!(long.exact.chars().count(), MAX_QUOTE);
    let past = Selector::of(&text, text.len() + 5, text.len() + 9, 0);
    assert_eq!(past.exact, "");
}

#[test]
fn a_quote_far_longer_than_the_budget_allows_is_searched_near_its_place() {
    let para = "words that repeat in a long lesson, ".repeat(4000);
    let text = chars(&format!("{para}the quoted passage is here{para}"));
    let start = para.chars().count();
    let sel = Selector::of(&text, start, start + 26, 0);
    let edited = chars(&format!("{para}the quoted passage was here{para}"));
    let p = place(&edited, &sel);
    assert_eq!(p.status, Status::Fuzzy);
    assert!(p.start.abs_diff(start) < 4, "{}", p.start);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Re-anchoring in an unedited text is always `ok`, on the very
    /// characters selected.
    #[test]
    fn an_unedited_text_places_every_selection_exactly(
        text in "[a-c ]{1,200}",
        a in 0usize..200,
        b in 0usize..200,
    ) {
        let text = chars(&text);
        let (start, end) = (a.min(b) % text.len(), (a.max(b) % text.len()) + 1);
        proptest::prop_assume!(start < end);
        let sel = Selector::of(&text, start, end, 0);
        let p = place(&text, &sel);
        proptest::prop_assert_eq!(p, Placed { start, end, status: Status::Ok });
    }

    /// Whatever the edit, a placed anchor covers text of the lesson and
    /// an exact one covers the quote itself.
    #[test]
    fn any_edit_places_on_text_that_is_there(
        text in "[a-d ]{20,120}",
        edit in "[a-e ]{0,12}",
        at in 0usize..120,
        a in 0usize..120,
        len in 1usize..30,
    ) {
        let original = chars(&text);
        let start = a % original.len();
        let end = (start + len).min(original.len());
        let sel = Selector::of(&original, start, end, 0);
        let mut edited = original.clone();
        let at = at % edited.len();
        edited.splice(at..at, edit.chars());
        let p = place(&edited, &sel);
        proptest::prop_assert!(p.start <= p.end && p.end <= edited.len());
        if matches!(p.status, Status::Ok | Status::Moved) {
            let covered: String = edited[p.start..p.end].iter().collect();
            proptest::prop_assert_eq!(covered, sel.exact);
        }
    }
}
