//! Hostile folders through the loader's public API: link cycles, FIFOs in
//! place of lessons, names that are not UTF-8. Anything that could block
//! runs on a thread with a deadline, so a regression fails instead of
//! hanging the suite.
//!
//! Its own binary, not a module of `it`: it installs the reader's
//! allocator as the process's global allocator (see the end of the file),
//! which would then run under every other test too.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use lectern::loader::{self, Origin, walk};

// The `it` tests' lesson builder, of which this binary uses a little.
#[path = "it/common/lesson.rs"]
#[allow(dead_code)]
mod lesson_json;
use lesson_json::LessonJson;

fn lesson(dir: &Path, file: &str, slug: &str, position: u32) {
    LessonJson::new(slug)
        .title(&format!("Lesson {slug}"))
        .position(position)
        .markdown("hello")
        .write(dir, file);
}

fn mkfifo(path: &Path) {
    // mkfifo(1) rather than libc: the crate forbids unsafe code.
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", path.display());
}

/// `f()`, or a failure if it takes longer than a few seconds.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("blocked or looped")
}

fn hostile_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    lesson(dir.path(), "a.json", "a", 1);
    lesson(dir.path(), "b.json", "b", 2);
    std::os::unix::fs::symlink(".", dir.path().join("x")).unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("y")).unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("self")).unwrap();
    mkfifo(&dir.path().join("pipe.json"));
    dir
}

#[test]
fn a_folder_of_link_cycles_and_fifos_is_walked_once_without_blocking() {
    let dir = hostile_folder();
    let root = dir.path().to_path_buf();
    let walked = within(move || walk::tree(&root));
    assert_eq!(
        walked.files,
        vec![dir.path().join("a.json"), dir.path().join("b.json")]
    );
    let fifo: Vec<_> = walked
        .skipped
        .iter()
        .filter(|s| s.why.contains("FIFO"))
        .collect();
    assert_eq!(fifo.len(), 1);
    let d = fifo[0].diagnostic();
    assert!(!d.is_error());
    assert!(d.to_string().contains("pipe.json"), "{d}");
}

#[test]
fn the_reader_opens_such_a_folder_with_each_lesson_once() {
    let dir = hostile_folder();
    let root = vec![dir.path().to_path_buf()];
    let lib = within(move || loader::open_paths(&root).unwrap());
    assert_eq!(lib.courses.len(), 1);
    let slugs: Vec<_> = lib.courses[0]
        .lessons
        .iter()
        .map(|l| l.slug.clone())
        .collect();
    assert_eq!(slugs, ["a", "b"]);
}

#[test]
fn a_fifo_named_or_swapped_in_is_refused_not_waited_on() {
    let dir = hostile_folder();
    let fifo = dir.path().join("pipe.json");
    let named = vec![fifo.clone()];
    let err = within(move || loader::open_paths(&named).unwrap_err());
    assert!(err.to_string().contains("FIFO"), "{err}");
    // A lesson the folder listed, replaced by a FIFO since.
    let loaded = within(move || loader::load_lesson(&Origin::File(fifo)).unwrap_err());
    assert!(loaded.message.contains("FIFO"), "{loaded}");
    let read = within({
        let p = dir.path().join("pipe.json");
        move || walk::read_regular(&p).is_err()
    });
    assert!(read);
}

#[test]
fn a_name_that_is_not_utf8_opens_and_is_shown_sanitised() {
    let dir = tempfile::tempdir().unwrap();
    let name = walk::os_from_bytes(b"caf\xe9\x1b]0;PWNED\x07.json");
    lesson(dir.path(), "a.json", "a", 1);
    std::fs::rename(dir.path().join("a.json"), dir.path().join(&name)).unwrap();
    let lib = loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
    let entry = &lib.courses[0].lessons[0];
    assert_eq!(entry.origin.path(), Some(dir.path().join(&name).as_path()));
    assert!(loader::load(&entry.origin).is_ok());
    let shown = walk::shown(&PathBuf::from(&name));
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "{shown}"
    );
}

/// What lectern printed (stdout, then stderr) for `args`, its data and
/// cache under `home`, no config file but one `env` may name.
fn text_of(
    home: &Path,
    args: &[&std::ffi::OsStr],
    env: Option<(&str, &std::ffi::OsStr)>,
) -> String {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"));
    cmd.args(args)
        .env_remove("LECTERN_CONFIG")
        .env("LECTERN_DATA_DIR", home.join("data"))
        .env("LECTERN_CACHE_DIR", home.join("cache"))
        .stdin(std::process::Stdio::null());
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn lectern(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(args)
        .env(
            "LECTERN_DATA_DIR",
            std::env::temp_dir().join("lectern-hostile-none"),
        )
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn lint_warns_of_empty_and_duplicate_slugs_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    lesson(dir.path(), "a.json", "same", 1);
    lesson(dir.path(), "b.json", "same", 2);
    lesson(dir.path(), "c.json", "", 3);
    lesson(dir.path(), "d.json", "other", 4);
    let out = lectern(&["lint".as_ref(), dir.path().as_os_str()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("slug")).collect();
    assert_eq!(lines.len(), 2, "{text}");
    let dup = lines
        .iter()
        .find(|l| l.contains("duplicate slug `same`"))
        .unwrap();
    assert!(dup.contains("b.json:1:") && dup.contains("a.json"), "{dup}");
    assert!(dup.contains("(at lesson.slug)"), "{dup}");
    let empty = lines.iter().find(|l| l.contains("empty `slug`")).unwrap();
    assert!(
        empty.contains("c.json:1:") && empty.contains("warning"),
        "{empty}"
    );
    // The column is the slug's own: `"slug":` is past the course object.
    let col: usize = empty.split(':').nth(2).unwrap().parse().unwrap();
    assert!(col > 30, "{empty}");
}

#[test]
fn a_newline_in_a_file_name_stays_on_its_contents_line() {
    let dir = tempfile::tempdir().unwrap();
    lesson(dir.path(), "ok.json", "ok", 1);
    lesson(dir.path(), "new\nline.json", "nl", 2);
    std::fs::write(dir.path().join("broken\nname.json"), "{bad").unwrap();
    let out = lectern(&[
        "render".as_ref(),
        "--width=300".as_ref(),
        dir.path().as_os_str(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let broken: Vec<&str> = text.lines().filter(|l| l.contains("broken")).collect();
    assert_eq!(broken.len(), 1, "{text}");
    assert!(broken[0].contains("broken\u{240a}name"), "{text}");
    assert!(
        broken[0].ends_with(')'),
        "the diagnostic on the same line: {text}"
    );
}

#[test]
fn a_lesson_opened_after_the_first_frame_is_read_off_the_loop() {
    use lectern::effects::{Reply, Runner, Work};
    use lectern::state::{self, State};
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    lesson(dir.path(), "a.json", "a", 1);
    // A large lesson: its parse takes a while, which the loop must not wait
    // out (keys and signals go on meanwhile).
    let big = serde_json::json!({
        "course": {"slug": "c", "title": "C"},
        "lesson": {"slug": "b", "title": "Big", "position": 2},
        "body": {"format": "markdown", "text": "x"},
        "reader": {"schema": 1, "blocks": vec![serde_json::json!({"t": "p", "runs": "word "}); 40_000]},
    });
    std::fs::write(dir.path().join("b.json"), big.to_string()).unwrap();
    let lib = loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
    let (tx, rx) = mpsc::channel::<Reply>();
    let tx = Mutex::new(tx);
    let sink = Arc::new(move |r| tx.lock().unwrap().send(r).is_ok());
    let store = Some(lectern::store::Store::in_memory());
    let mut runner = Runner::new(
        store,
        lectern::index::Index::in_memory(),
        Work::Threads(sink),
    );
    runner.loads_inline = false;
    let mut s = State::new(lib.courses, 80, 24);
    let b = s.course().index_of("b").unwrap();
    let mut fx = Vec::new();
    state::open_lesson(&mut s, b, &mut fx);
    lectern::app::apply(&mut s, &mut runner, fx);
    assert!(
        matches!(s.reader.page, lectern::state::Page::Loading) && s.reader.doc().is_none(),
        "read on the loop"
    );
    let reply = rx.recv_timeout(Duration::from_secs(30)).expect("loaded");
    let msg = runner.take(reply).expect("the lesson still wanted");
    let fx = state::receive(&mut s, msg);
    lectern::app::apply(&mut s, &mut runner, fx);
    assert!(!matches!(s.reader.page, lectern::state::Page::Loading));
    assert_eq!(s.reader.doc().unwrap().lesson.meta.title, "Big");
    // One that comes back after the learner moved on is dropped.
    let mut fx = Vec::new();
    let a = s.course().index_of("a").unwrap();
    state::open_lesson(&mut s, a, &mut fx);
    let stale = Reply::Lesson(Box::new(lectern::state::Opened {
        origin: Origin::File(dir.path().join("elsewhere.json")),
        index: b,
        lesson: Err(lectern::model::Diagnostic::error("x", "x")),
        read: None,
    }));
    let before = format!("{:?}", s.reader.page);
    let msg = runner.take(stale).expect("a message for the state");
    state::receive(&mut s, msg);
    assert_eq!(
        (s.reader.lesson, format!("{:?}", s.reader.page)),
        (a, before)
    );
}

#[test]
fn writes_still_held_when_a_signal_ends_the_process_reach_a_journal() {
    use lectern::effects::{Runner, Work};
    use lectern::model::{Change, LessonKey};
    use lectern::state::{Effect, State};
    use lectern::store::Store;
    let data = tempfile::tempdir().unwrap();
    let course = tempfile::tempdir().unwrap();
    lesson(course.path(), "a.json", "a", 1);
    let lib = loader::open_paths(&[course.path().to_path_buf()]).unwrap();
    let mut s = State::new(lib.courses, 80, 24);
    let store = Some(Store::open(Some(data.path())));
    let mut runner = Runner::new(store, lectern::index::Index::in_memory(), Work::Inline);
    let key = LessonKey {
        course: "c".into(),
        lesson: "a".into(),
    };
    // Held until the frame is drawn, and the loop is stuck in that frame.
    lectern::app::apply(
        &mut s,
        &mut runner,
        vec![Effect::Write(Change::Read { key })],
    );
    assert!(runner.has_held());
    let line = runner
        .unwritten()
        .rescue(Some(data.path()), None)
        .expect("a line");
    assert!(
        line.contains("1 change") && line.contains("kept in"),
        "{line}"
    );
    // Nothing is written twice should the loop come back meanwhile.
    lectern::app::flush(&mut s, &mut runner);
    let written = runner.store.as_ref().unwrap().progress("c", "a").read;
    assert!(!written, "written by the loop after the rescue kept it");
    drop(runner);
    let journals = std::fs::read_dir(data.path())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().contains(".pending-")
        })
        .count();
    assert_eq!(journals, 1);
    let again = Store::open(Some(data.path()));
    assert!(again.progress("c", "a").read, "replayed at the next start");
    // Nothing left to keep: no line.
    let idle = Runner::new(None, lectern::index::Index::in_memory(), Work::Inline);
    assert_eq!(idle.unwritten().rescue(Some(data.path()), None), None);
}

/// `search --json` keeps a file's path exact for scripts, and still no
/// character a terminal acts on or hides (DEL, a bidi override, a
/// zero-width space) reaches it raw: each is a `\uXXXX` escape. Output
/// that cannot be written (a full disk) fails the command.
#[test]
fn search_output_is_escaped_for_the_terminal_and_its_write_errors_count() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    lesson(dir.path(), "bidi\u{202e}z\u{7f}\u{200b}.json", "a", 1);
    let search = |json: bool, out: std::process::Stdio| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_lectern"));
        cmd.arg("search").arg(dir.path()).arg("hello");
        if json {
            cmd.arg("--json");
        }
        cmd.env("LECTERN_DATA_DIR", cache.path().join("data"))
            .env("LECTERN_CACHE_DIR", cache.path().join("cache"))
            .stdin(std::process::Stdio::null())
            .stdout(out)
            .output()
            .unwrap()
    };
    let out = search(true, std::process::Stdio::piped());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(r"bidi\u202ez\u007f\u200b.json"), "{text}");
    let raw = |c: char| c != '\n' && lectern::model::sanitize::is_invisible(c);
    assert!(!text.chars().any(raw), "{text:?}");
    let path: serde_json::Value = serde_json::from_str(&text).unwrap();
    let want = dir.path().join("bidi\u{202e}z\u{7f}\u{200b}.json");
    assert_eq!(path[0]["path"], want.to_str().unwrap());
    for json in [false, true] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = search(json, full.into());
        assert!(!out.status.success(), "a write to a full disk went unsaid");
    }
}

/// A FIFO named as a book's chapter, and one named by an `{{#include}}`:
/// neither is opened (nothing blocks), and each is said to be what it is,
/// not "not found".
#[test]
fn a_fifo_as_a_chapter_or_an_include_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(dir.path().join("book.toml"), "[book]\ntitle = \"B\"\n").unwrap();
    std::fs::write(
        src.join("SUMMARY.md"),
        "# Summary\n- [One](one.md)\n- [Pipe](pipe.md)\n",
    )
    .unwrap();
    std::fs::write(
        src.join("one.md"),
        "# One\n\n```rust\n{{#include f.rs}}\n```\n",
    )
    .unwrap();
    mkfifo(&src.join("pipe.md"));
    mkfifo(&src.join("f.rs"));
    std::os::unix::fs::symlink(".", src.join("loop")).unwrap();
    let root = dir.path().to_path_buf();
    let out = within(move || lectern(&["lint".as_ref(), root.as_os_str()]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("SUMMARY.md:3:3: error: chapter file pipe.md: not a regular file (a FIFO)"),
        "{text}"
    );
    assert!(
        text.contains("cannot include `f.rs`: not a regular file (a FIFO)"),
        "{text}"
    );
    let lib = within(move || loader::open_paths(&[dir.path().to_path_buf()]).unwrap());
    let pipe = &lib.courses[0].lessons[1];
    assert!(
        matches!(&pipe.status, lectern::model::LessonStatus::Broken(d) if d.message.contains("a FIFO")),
        "{:?}",
        pipe.status
    );
}

/// Every Cc, Cf, Zl and Zp character of Unicode but tab and newline.
fn invisible_chars() -> Vec<char> {
    (0..=0x10ffff_u32)
        .filter_map(char::from_u32)
        .filter(|&c| c != '\n' && c != '\t' && lectern::model::sanitize::is_invisible(c))
        .collect()
}

/// A lesson holding `bad` in every field a learner can see.
fn lesson_of_every_field(bad: &str) -> serde_json::Value {
    let t = |s: &str| format!("{s}{bad}X");
    serde_json::json!({
        "course": {"slug": t("cs"), "title": t("Course")},
        "module": {"title": t("Module"), "position": 1},
        "lesson": {"slug": t("ls"), "title": t("Lesson"), "position": 1, "minutes": 1,
                   "answer": t("answer"), "keyIdea": t("key")},
        "body": {"format": "markdown", "text": format!(
            "## {}\n\n{} findme soft{bad}word\n\n```{}\n{}\n```\n\n[{}](http://x/{bad})\n",
            t("Head"), t("para"), t("lang"), t("code"), t("link"))},
        "check": {"question": t("Q"), "options": [
            {"text": t("right"), "correct": true},
            {"text": t("wrong"), "correct": false, "tempting": t("why")}]},
        "prev": {"slug": t("p"), "title": t("Prev")},
        "next": {"slug": t("n"), "title": t("Next")},
        "authorship": t("by"), "cite": t("cite"),
        "licence": {"name": t("licence"), "url": "http://x"},
    })
}

/// What a terminal would act on or hide, found in `text` (newlines and
/// tabs are layout's).
fn raw_invisible(text: &str) -> Vec<String> {
    text.chars()
        .filter(|&c| c != '\n' && c != '\t' && lectern::model::sanitize::is_invisible(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect()
}

/// All of Unicode's Cc, Cf, Zl and Zp characters (but tab and newline) in
/// every field of a lesson and in its file names: none reaches the output
/// of render (page and contents), lint or search raw.
#[test]
fn no_invisible_character_in_any_field_or_file_name_reaches_the_output() {
    let all = invisible_chars();
    assert!(all.len() > 200, "{}", all.len());
    let bad: String = all.iter().collect();
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let file = dir.path().join("every.json");
    std::fs::write(&file, lesson_of_every_field(&bad).to_string()).unwrap();
    // File names: every character but NUL, in names of at most 40 of
    // them, each a broken lesson so that lint and the contents name it.
    for (i, chunk) in all
        .iter()
        .filter(|&&c| c != '\0')
        .collect::<Vec<_>>()
        .chunks(40)
        .enumerate()
    {
        let name: String = chunk.iter().copied().collect();
        std::fs::write(dir.path().join(format!("{i}{name}.json")), "{\"x\":").unwrap();
    }
    let run = |args: &[&std::ffi::OsStr]| {
        let text = text_of(cache.path(), args, None);
        assert!(!text.is_empty(), "{args:?}");
        text
    };
    let d = dir.path().as_os_str();
    for args in [
        vec!["render".as_ref(), "--answers".as_ref(), file.as_os_str()],
        vec!["render".as_ref(), "--width=400".as_ref(), d],
        vec!["lint".as_ref(), d],
        vec!["search".as_ref(), d, "findme".as_ref()],
        vec!["search".as_ref(), d, "findme".as_ref(), "--json".as_ref()],
    ] {
        let text = run(&args);
        assert_eq!(
            raw_invisible(&text),
            Vec::<String>::new(),
            "{args:?}: {text}"
        );
    }
}

/// Paths from the environment (`XDG_CONFIG_HOME`, `LECTERN_CONFIG`, the
/// data dir) are shown sanitised wherever a command quotes them.
#[test]
fn paths_from_the_environment_are_shown_sanitised() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = dir.path().join("x\u{1b}]0;PWNED\u{7}\u{202e}");
    std::fs::create_dir_all(hostile.join("lectern")).unwrap();
    std::fs::write(hostile.join("lectern/config.toml"), "theme = 5\n").unwrap();
    let run = |args: &[&str], env: (&str, &Path)| {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let text = text_of(dir.path(), &args, Some((env.0, env.1.as_os_str())));
        assert!(
            text.contains("]0;PWNED"),
            "{args:?}: the path is not quoted: {text}"
        );
        text
    };
    for (args, env) in [
        (
            &["config", "--show"][..],
            ("XDG_CONFIG_HOME", hostile.as_path()),
        ),
        (&["stats"][..], ("XDG_CONFIG_HOME", hostile.as_path())),
        (
            &["config", "--show"][..],
            ("LECTERN_CONFIG", &hostile.join("none.toml")),
        ),
    ] {
        let text = run(args, env);
        assert_eq!(
            raw_invisible(&text),
            Vec::<String>::new(),
            "{args:?}: {text}"
        );
    }
}

// The binary's allocator, so that the child below fails as lectern would.
#[global_allocator]
static ALLOCATOR: lectern::alloc_guard::Guarded = lectern::alloc_guard::Guarded;

/// An allocation that cannot be had ends the process with a line and a
/// status, never an abort (the terminal given back first: see the hook
/// the reader sets in tui/terminal.rs).
#[test]
fn an_allocation_that_fails_ends_with_a_line_not_an_abort() {
    if std::env::var_os("LECTERN_TEST_OOM").is_some() {
        let v: Vec<u8> = Vec::with_capacity(1 << 60);
        std::hint::black_box(&v);
        unreachable!("an allocation of 2^60 bytes succeeded");
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "an_allocation_that_fails_ends_with_a_line_not_an_abort",
        ])
        .args(["--nocapture", "--test-threads=1"])
        .env("LECTERN_TEST_OOM", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(70), "{:?}: {err}", out.status);
    assert!(
        err.contains("lectern: out of memory (1152921504606846976 bytes asked for at once)"),
        "{err}"
    );
    assert!(!err.contains("backtrace"), "{err}");
}

/// A query of one word said thousands of times is refused by its length,
/// at once and with a word of why; one said a few times is one word.
#[test]
fn a_query_past_the_limit_is_refused_and_a_repeated_word_is_searched_once() {
    let dir = tempfile::tempdir().unwrap();
    lesson(dir.path(), "a.json", "a", 1);
    let mut args: Vec<std::ffi::OsString> = vec!["search".into(), dir.path().into()];
    args.extend(std::iter::repeat_n("hello".into(), 20_000));
    let out = within(move || {
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        lectern(&refs)
    });
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a search takes at most 256"), "{err}");
    let d = dir.path().as_os_str();
    let out = lectern(&[
        "search".as_ref(),
        d,
        "hello".as_ref(),
        "hello".as_ref(),
        "HELLO".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Lesson a"));
}
