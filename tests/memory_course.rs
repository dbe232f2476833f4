//! A course's peak with its large lesson open, highlighted and the
//! course indexed: the index takes the open lesson's text from its page,
//! not from a second parse beside it, and the highlighter takes only its
//! code to its thread, not a clone of the whole lesson. Apart from
//! tests/memory.rs: the reader's code linked into that binary moved its
//! per-byte figures (code pages first touched during a load count in its
//! peak). For the same reason it is not a module of `it`.

use lectern::effects::Runner;
use lectern::index::Query;
use lectern::state::{self, Effect, Msg, State};
use std::path::Path;
#[path = "it/common/child.rs"]
mod child;

const CASE: &str = "LECTERN_MEMORY_COURSE";

/// A lesson of the course folder `dir`, its markdown body `text`. Not
/// the `it` tests' LessonJson: its extra copies of a large text would
/// raise the peak this binary measures from.
fn write_lesson(dir: &Path, slug: &str, position: u32, text: &str) {
    let v = serde_json::json!({
        "course": {"slug": "c", "title": "C"},
        "lesson": {"slug": slug, "title": slug, "position": position},
        "body": {"format": "markdown", "text": text},
    });
    std::fs::write(dir.join(format!("{slug}.json")), v.to_string()).unwrap();
}

fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The reader's steps: lesson `index` opened, its first frame drawn, and
/// what follows a frame (indexing, inline in tests) carried out.
fn open_and_draw(runner: &mut Runner, s: &mut State, index: usize) {
    let mut fx = Vec::new();
    state::open_lesson(s, index, &mut fx);
    lectern::app::apply(s, runner, fx);
    let fx = state::receive(s, Msg::Drawn);
    lectern::app::apply(s, runner, fx);
    lectern::app::flush(s, runner);
}

/// In the child: a course of a lesson of `n` units of dense markup (as
/// in tests/memory.rs) and a small one, the large one open and the
/// course indexed on this thread, so the index's peak is this one's.
fn child(n: usize, code: bool) {
    let dir = tempfile::tempdir().unwrap();
    let unit = "Some words of *prose* in a paragraph, with `code` and a [link](http://x).\n\n- an item\n- another **item**\n\n";
    // A code block first: the lesson is highlighted too.
    let head = if code {
        "```rust\nfn main() {}\n```\n\n"
    } else {
        ""
    };
    write_lesson(dir.path(), "big", 1, &format!("{head}{}", unit.repeat(n)));
    write_lesson(dir.path(), "small", 2, "A giraffe.");
    let lib = lectern::loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
    let mut runner = Runner::inline();
    let mut s = State::new(lib.courses, 80, 24);
    let before = peak_kb();
    open_and_draw(&mut runner, &mut s, 0);
    let grew = peak_kb() - before;
    let len = std::fs::metadata(dir.path().join("big.json"))
        .unwrap()
        .len();
    println!("MEASURED {len} {grew} {}", runner.indexed_from_page);
}

/// The child's figures for `case`: the large lesson's bytes, the peak's
/// growth in bytes, and how many lessons the index took from the page.
fn measure(case: &str) -> (u64, u64, u64) {
    let line = child::measured(
        "a_course_indexed_with_its_large_lesson_open_holds_that_lesson_once",
        CASE,
        case,
    );
    let parts: Vec<u64> = line.split(' ').map(|p| p.parse().unwrap()).collect();
    let [bytes, kb, from_page] = parts[..] else {
        panic!("{line}")
    };
    (bytes, kb * 1024, from_page)
}

#[test]
fn a_course_indexed_with_its_large_lesson_open_holds_that_lesson_once() {
    if let Ok(case) = std::env::var(CASE) {
        let (n, code) = case.split_once(':').unwrap();
        return child(n.parse().unwrap(), code == "code");
    }
    // Measured (debug build), bytes per byte of the large lesson: 13.3
    // to 14.2 (23.5 while the index parsed the open lesson again beside its
    // page); with a code block, so that the lesson is highlighted too
    // (syntect's own tables included), 16.2 (19.7 while the highlighter
    // took a clone of the whole lesson to its thread); 17.4 to 17.6 (18.1
    // to 18.2 on 12-07) while the one syntax set (syntect's syntaxes and
    // bat's) was loaded whole, a fixed megabyte or two; 16.0 to 16.1 since
    // only the block's syntax is (Rust, which embeds no other).
    for (case, bound) in [("8000:plain", 16.0), ("8000:code", 17.0)] {
        let (bytes, grew, from_page) = measure(case);
        assert_eq!(from_page, 1, "{case}: the open lesson taken from its page");
        let each = grew as f64 / bytes as f64;
        eprintln!("{case}: {each:.1} bytes of memory per byte of the large lesson");
        assert!(each <= bound, "{case}: {each:.1} bytes of memory per byte");
    }
}

/// The index takes the open lesson's text from its page and reads the
/// other lesson from its file; once the open lesson's file changes, its
/// text is read from the file again, never taken from a page that no
/// longer matches it.
#[test]
fn the_open_lesson_is_indexed_from_its_page_until_its_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    write_lesson(dir.path(), "big", 1, &"Zebras graze here. ".repeat(5_000));
    write_lesson(dir.path(), "small", 2, "A giraffe.");
    let lib = lectern::loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
    let mut runner = Runner::inline();
    let mut s = State::new(lib.courses, 80, 24);
    let big = s.course().index_of("big").unwrap();
    open_and_draw(&mut runner, &mut s, big);
    assert_eq!(runner.indexed_from_page, 1);
    let found = |runner: &mut Runner, s: &State, word: &str| -> Vec<String> {
        let origins = s.course().origins();
        let hits = runner.index.search(&origins, &Query::parse(word, false), 5);
        let slugs = hits.hits.iter().map(|h| &s.course().lessons[h.lesson].slug);
        slugs.cloned().collect()
    };
    assert_eq!(found(&mut runner, &s, "zebras"), ["big"]);
    assert_eq!(found(&mut runner, &s, "giraffe"), ["small"]);
    // The index built again, as the state asks for it.
    let build = |s: &State| Effect::BuildIndex {
        course: s.library.current,
        origins: s.course().origins(),
        page: s.page_text(),
    };
    // Nothing is stale: the next run takes nothing, from page or file.
    let fx = vec![build(&s)];
    lectern::app::apply(&mut s, &mut runner, fx);
    lectern::app::flush(&mut s, &mut runner);
    assert_eq!(runner.indexed_from_page, 1);
    write_lesson(dir.path(), "big", 1, "Okapis now.");
    let fx = vec![build(&s)];
    lectern::app::apply(&mut s, &mut runner, fx);
    lectern::app::flush(&mut s, &mut runner);
    assert_eq!(runner.indexed_from_page, 1);
    assert_eq!(found(&mut runner, &s, "okapis"), ["big"]);
    assert!(found(&mut runner, &s, "zebras").is_empty());
}
