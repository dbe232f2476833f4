//! Course-wide search: `lectern search` as a user runs it (text and
//! JSON, the index in the cache directory and nothing of it in the data
//! directory), and the course-search screen through the real runner.

use crate::common::{Reader, crafted_in};
use lectern::keymap;
use lectern::state::{Overlay, Screen};
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;
use std::process::Command;

const COURSE: (&str, &str) = ("bread", "Bread at home");

/// Lessons of our own: one whose title holds "starter" and "feeding",
/// others with the words only in their text, or only one of them.
fn course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let lessons = [
        ("quiz", "A quiz on levain", 1, "feeding a starter"),
        ("flour", "Flour and water", 2, "water only"),
        ("feed", "Feeding the starter", 3, "ratios"),
        ("crust", "Crust and crumb", 4, "starter"),
        ("salt", "Salt", 5, "starter feeding schedule"),
    ];
    for (slug, title, pos, words) in lessons {
        let v = crafted_in(COURSE, slug, title, pos, (pos, "Basics"), words);
        std::fs::write(
            dir.path().join(format!("{slug}.json")),
            serde_json::to_string(&v).unwrap(),
        )
        .unwrap();
    }
    dir
}

struct Run {
    data: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Run {
    fn new() -> Run {
        Run {
            data: tempfile::tempdir().unwrap(),
            cache: tempfile::tempdir().unwrap(),
        }
    }

    /// `lectern search ARGS`, with XDG_CACHE_HOME (not LECTERN_CACHE_DIR)
    /// pointing at the cache: the platform's place is the one used.
    fn search(&self, args: &[&str]) -> (String, bool) {
        let out = Command::new(env!("CARGO_BIN_EXE_lectern"))
            .arg("search")
            .args(args)
            .env("LECTERN_DATA_DIR", self.data.path())
            .env_remove("LECTERN_CACHE_DIR")
            .env("XDG_CACHE_HOME", self.cache.path())
            .output()
            .unwrap();
        (String::from_utf8(out.stdout).unwrap(), out.status.success())
    }

    fn json(&self, dir: &Path, words: &[&str]) -> Vec<serde_json::Value> {
        let mut args = vec!["--json", dir.to_str().unwrap()];
        args.extend(words);
        let (out, ok) = self.search(&args);
        assert!(ok, "lectern search failed: {out}");
        serde_json::from_str(&out).unwrap()
    }
}

fn slugs(hits: &[serde_json::Value]) -> Vec<&str> {
    hits.iter().map(|h| h["lesson"].as_str().unwrap()).collect()
}

#[test]
fn json_hits_rank_the_title_first_and_need_every_word_in_any_order() {
    let dir = course();
    let run = Run::new();
    let hits = run.json(dir.path(), &["starter", "feeding"]);
    assert_eq!(slugs(&hits)[0], "feed", "the lesson titled with the words");
    // "crust" has only "starter"; "flour" neither.
    let mut found = slugs(&hits);
    found.sort_unstable();
    assert_eq!(found, vec!["feed", "quiz", "salt"]);
    let reversed = run.json(dir.path(), &["feeding", "starter"]);
    assert_eq!(slugs(&reversed), slugs(&hits));
    let first = &hits[0];
    for field in [
        "course", "lesson", "title", "module", "position", "score", "snippet",
    ] {
        assert!(first.get(field).is_some(), "no {field} in {first}");
    }
    assert_eq!(first["course"], "bread");
    assert_eq!(first["title"], "Feeding the starter");
    assert_eq!(first["module"], "Basics");
    assert_eq!(first["position"], 3);
    assert!(
        first["snippet"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("starter")
    );
}

#[test]
fn a_quoted_phrase_matches_only_itself() {
    let dir = course();
    let run = Run::new();
    let hits = run.json(dir.path(), &["\"starter feeding\""]);
    assert_eq!(slugs(&hits), vec!["salt"]);
    let hits = run.json(dir.path(), &["\"feeding a starter\""]);
    assert_eq!(slugs(&hits), vec!["quiz"]);
    assert!(run.json(dir.path(), &["\"feeding salt\""]).is_empty());
}

#[test]
fn the_index_is_a_cache_in_the_cache_directory() {
    let dir = course();
    let run = Run::new();
    let (text, ok) = run.search(&[dir.path().to_str().unwrap(), "crust"]);
    assert!(ok);
    // man -k: one line a hit, title first.
    assert!(
        text.starts_with("Crust and crumb (bread, lesson 4, Basics) - "),
        "{text}"
    );
    let cache = run.cache.path().join("lectern");
    assert!(cache.join("index.db").exists());
    let data: Vec<_> = std::fs::read_dir(run.data.path())
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        data.iter().all(|n| !n.to_string_lossy().starts_with("index")
            && n.to_string_lossy() != "listings"),
        "index files in the data directory: {data:?}"
    );
    // Deleting it loses nothing: the next search builds it again.
    std::fs::remove_dir_all(&cache).unwrap();
    assert_eq!(slugs(&run.json(dir.path(), &["crust"])), vec!["crust"]);
}

#[test]
fn nothing_matching_says_so_and_fails() {
    let dir = course();
    let run = Run::new();
    let (out, ok) = run.search(&[dir.path().to_str().unwrap(), "starter", "zzyzx"]);
    assert!(!ok);
    assert!(out.is_empty());
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn press(r: &mut Reader, ev: KeyEvent) {
    let a = keymap::lookup(r.s.screen(), &ev).expect("a bound key");
    r.act(a);
}

fn screen(r: &Reader) -> String {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = Theme::new(ThemeKind::Mono);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    t.backend().to_string()
}

#[test]
fn the_course_search_screen_ranks_marks_and_opens_at_the_match() {
    let dir = course();
    let mut r = Reader::folder(dir.path(), 90, 24);
    r.open(0);
    r.keys("sstarter feedi");
    assert_eq!(r.s.screen(), Screen::CourseSearch);
    insta::assert_snapshot!(screen(&r));
    let Some(Overlay::CourseSearch(cs)) = &r.s.overlay else {
        panic!("no course search")
    };
    // The word being typed is a prefix; the title lesson first.
    assert_eq!(cs.results.len(), 3);
    let first = &cs.results[0];
    assert_eq!(r.s.course().lessons[first.lesson].slug, "feed");
    // Ctrl-W takes the last word, Ctrl-U the rest.
    press(&mut r, ctrl('w'));
    let Some(Overlay::CourseSearch(cs)) = &r.s.overlay else {
        panic!()
    };
    assert_eq!(cs.query, "starter ");
    assert_eq!(cs.results.len(), 4);
    press(&mut r, ctrl('u'));
    let Some(Overlay::CourseSearch(cs)) = &r.s.overlay else {
        panic!()
    };
    assert!(cs.query.is_empty() && cs.results.is_empty());
    // Enter opens the lesson with its match found; n goes on from there.
    r.keys("schedule\n");
    assert_eq!(r.s.screen(), Screen::Reading);
    assert_eq!(r.title(), "Salt");
    assert_eq!(r.s.reader.search.query.to_lowercase(), "schedule");
    assert_eq!(r.s.reader.search.current, Some(0));
    r.keys("n");
    assert_eq!(r.s.reader.search.current, Some(1));
}

#[test]
fn a_search_before_the_index_is_complete_shows_the_count() {
    let dir = course();
    let mut r = Reader::folder(dir.path(), 90, 24);
    r.open(0);
    r.receive(lectern::state::Msg::Indexed {
        course: 0,
        done: 2400,
        total: 10000,
    });
    assert!(
        screen(&r).contains("[indexed 2,400 of 10,000]"),
        "{}",
        screen(&r)
    );
    r.keys("scrust");
    let shown = screen(&r);
    assert!(
        shown.contains("indexed 2,400 of 10,000 · 1 lesson matches."),
        "{shown}"
    );
    r.receive(lectern::state::Msg::Indexed {
        course: 0,
        done: 10000,
        total: 10000,
    });
    assert!(!screen(&r).contains("indexed"));
}

#[test]
fn a_course_is_indexed_once_open_and_a_lesson_alone_only_when_searched() {
    let dir = course();
    let mut r = Reader::folder(dir.path(), 90, 24);
    r.open(0);
    assert!(r.s.library.indexing.is_some() || r.s.library.index_ready);
    // A lesson named alone: its page is its search, and a second parse
    // beside the reader's copy would double the peak of a large one.
    let apart = tempfile::tempdir().unwrap();
    let one = apart.path().join("salt.json");
    std::fs::copy(dir.path().join("salt.json"), &one).unwrap();
    let mut alone = Reader::folder(&one, 90, 24);
    alone.open(0);
    assert_eq!(alone.s.course().lessons.len(), 1);
    assert!(alone.s.library.indexing.is_none() && !alone.s.library.index_ready);
    // Its course search still indexes it, and finds it.
    alone.keys("s");
    assert_eq!(alone.s.screen(), Screen::CourseSearch);
    assert!(alone.s.library.indexing.is_some() || alone.s.library.index_ready);
    alone.keys("schedule");
    let Some(Overlay::CourseSearch(cs)) = &alone.s.overlay else {
        panic!("no course search")
    };
    assert_eq!(cs.results.len(), 1);
}

/// Chinese, Japanese and Korean are written without spaces between words
/// (or with endings joined on): a word, a part of one, one character or
/// two are found, in any of them, and ranked as other words are.
#[test]
fn text_written_without_spaces_is_found_by_any_part_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let lessons = [
        ("zh", "中文课", 1, "我们今天学习数据库的索引。"),
        ("ja", "日本語の課", 2, "東京で日本語を勉強しています。"),
        ("ko", "한국어 수업", 3, "저는 한국어를 배우고 있어요."),
        ("en", "English", 4, "nothing of the others"),
    ];
    for (slug, title, pos, words) in lessons {
        let v = crafted_in(("cjk", "CJK"), slug, title, pos, (1, "All"), words);
        let file = dir.path().join(format!("{slug}.json"));
        std::fs::write(file, serde_json::to_string(&v).unwrap()).unwrap();
    }
    let run = Run::new();
    let d = dir.path().to_str().unwrap();
    for (query, want) in [
        ("学习", "中文课"),
        ("索引", "中文课"),
        ("库", "中文课"),
        ("日本語", "日本語の課"),
        ("勉強", "日本語の課"),
        ("한국어", "한국어 수업"),
        ("배우고", "한국어 수업"),
    ] {
        let (out, ok) = run.search(&[d, query]);
        assert!(ok, "{query}: {out}");
        assert!(out.contains(want), "{query}: {out}");
        assert!(!out.contains("English"), "{query}: {out}");
    }
}
