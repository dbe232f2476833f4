//! The real binary: `lectern render` and `lectern lint` on good, broken,
//! huge and hostile lesson files, alone and inside a course folder.

use crate::common;

use crate::common::{check_plain, check_styled, norm};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lectern() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lectern"));
    // Keep the tests independent of the environment they run in.
    c.env_remove("NO_COLOR").env_remove("COLORFGBG");
    c
}

fn run(args: &[&str]) -> Output {
    lectern().args(args).output().expect("lectern runs")
}

fn run_path(args: &[&str], path: &Path) -> Output {
    lectern()
        .args(args)
        .arg(path)
        .output()
        .expect("lectern runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A small valid lesson of the course used in folder tests.
fn lesson(slug: &str, title: &str, position: u32) -> Value {
    json!({
        "course": {"slug": "folder-course", "title": "Folder course"},
        "lesson": {"slug": slug, "title": title, "position": position, "of": 9, "minutes": 3},
        "body": {"format": "markdown", "text": format!("## {title}\n\nThe body of {title}.")},
        "check": {"question": "Which?", "options": [
            {"text": "this", "correct": true},
            {"text": "that", "correct": false, "tempting": "it looks right"}
        ]}
    })
}

/// One `lint` line: `FILE:LINE:COL: error|warning: message (at path)`,
/// split on ':' (the test files' paths hold none). Returns
/// (file, line, col, severity, message).
fn parse_diag(line: &str) -> (String, usize, usize, String, String) {
    // Built-in lessons are named `builtin:FILE`.
    let (builtin, rest) = match line.strip_prefix("builtin:") {
        Some(rest) => ("builtin:", rest),
        None => ("", line),
    };
    let parts: Vec<&str> = rest.splitn(5, ':').collect();
    assert_eq!(parts.len(), 5, "not FILE:LINE:COL: SEV: MSG: {line:?}");
    let num = |s: &str| -> usize {
        s.parse()
            .unwrap_or_else(|_| panic!("{s:?} is not a number in {line:?}"))
    };
    let sev = parts[3]
        .strip_prefix(' ')
        .unwrap_or_else(|| panic!("no space before severity: {line:?}"));
    assert!(
        sev == "error" || sev == "warning",
        "severity {sev:?} in {line:?}"
    );
    let msg = parts[4]
        .strip_prefix(' ')
        .unwrap_or_else(|| panic!("no space before message: {line:?}"));
    assert!(!msg.trim().is_empty(), "empty message: {line:?}");
    let (l, c) = (num(parts[1]), num(parts[2]));
    assert!(l >= 1 && c >= 1, "line and column are 1-based: {line:?}");
    let file = format!("{builtin}{}", parts[0]);
    (file, l, c, sev.to_string(), msg.to_string())
}

/// The one line a failed `render` prints: `lectern: DIAGNOSTIC`.
fn single_error_line(o: &Output, file: &Path) -> String {
    let err = stderr(o);
    assert_eq!(code(o), 1, "exit status for {}: {err}", file.display());
    assert!(o.stdout.is_empty(), "nothing on stdout: {}", stdout(o));
    let line = err
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("stderr ends with a newline: {err:?}"));
    assert!(!line.contains('\n'), "exactly one line on stderr: {err}");
    assert!(
        check_plain(line, usize::MAX).is_ok(),
        "control characters: {line:?}"
    );
    let diag = line
        .strip_prefix("lectern: ")
        .unwrap_or_else(|| panic!("{line:?}"));
    let (f, _, _, sev, _) = parse_diag(diag);
    assert_eq!(f, file.display().to_string(), "{line}");
    assert_eq!(sev, "error");
    line.to_string()
}

// ------------------------------------------------------------- colour

/// The fixture's path as an argument.
fn fixture() -> String {
    common::fixture_path().display().to_string()
}

#[test]
fn color_never_emits_no_escape_and_fits() {
    let lesson = fixture();
    for width in ["1", "40", "80", "120"] {
        let o = run(&["render", "--color", "never", "--width", width, &lesson]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = stdout(&o);
        assert!(!out.contains('\u{1b}'), "ESC with --color never");
        check_plain(&out, width.parse().unwrap()).unwrap();
        if width != "1" {
            assert!(
                norm(&out).contains("halve the yeast"),
                "the question is shown"
            );
        }
    }
}

#[test]
fn color_always_emits_only_sgr_and_links_and_fits() {
    let lesson = fixture();
    for theme in ["dark", "light", "mono"] {
        for width in ["40", "80"] {
            let o = run(&[
                "render", "--color", "always", "--theme", theme, "--width", width, &lesson,
            ]);
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            let out = stdout(&o);
            assert!(
                out.contains("\u{1b}["),
                "{theme}: no SGR with --color always"
            );
            check_styled(&out, width.parse().unwrap()).unwrap();
        }
    }
    // Colour is the only difference from plain output, where marks stand
    // in for styles (`code`, _emphasis_, ~strike~, ### h3) and may move
    // line breaks.
    let plain = stdout(&run(&[
        "render", "--color", "never", "--width", "80", &lesson,
    ]));
    let styled = stdout(&run(&[
        "render", "--color", "always", "--width", "80", &lesson,
    ]));
    assert_eq!(
        unmarked(&common::strip_sgr(&styled).unwrap()),
        unmarked(&plain)
    );
}

#[test]
fn color_auto_is_plain_into_a_pipe() {
    let o = run(&["render", "--width", "60", "builtin:01-getting-started"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!o.stdout.contains(&0x1b));
    assert!(!o.stdout.is_empty());
}

/// Runs `lectern ARGS` on a pseudo-terminal (80×24) and returns what it
/// wrote, line endings as `\n`.
fn on_a_terminal(args: &[&str], no_color: bool) -> (String, u32) {
    let data = tempfile::tempdir().unwrap();
    let args: Vec<&std::path::Path> = args.iter().map(std::path::Path::new).collect();
    let vars: &[(&str, &str)] = if no_color { &[("NO_COLOR", "1")] } else { &[] };
    let opts = common::pty::Opts {
        vars,
        ..common::pty::Opts::new(data.path(), 80, 24)
    };
    let mut t = common::pty::Term::lectern(&args, &opts);
    let status = t.wait_exit();
    let text = String::from_utf8(t.raw())
        .expect("UTF-8")
        .replace("\r\n", "\n");
    (text, status.exit_code())
}

#[test]
fn color_auto_on_a_terminal_honours_no_color() {
    let args = ["render", "builtin:01-getting-started"];
    let (coloured, status) = on_a_terminal(&args, false);
    assert_eq!(status, 0, "{coloured}");
    assert!(coloured.contains("\u{1b}["), "colour on a terminal");
    // No --width: the terminal's 80 columns.
    check_styled(&coloured, 80).unwrap();

    let (plain, status) = on_a_terminal(&args, true);
    assert_eq!(status, 0, "{plain}");
    assert!(!plain.contains('\u{1b}'), "NO_COLOR=1: {plain:?}");
    check_plain(&plain, 80).unwrap();
    assert_eq!(
        unmarked(&common::strip_sgr(&coloured).unwrap()),
        unmarked(&plain)
    );
}

/// Text without style marks or whitespace: what plain and styled output
/// must share.
fn unmarked(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !"`_~#".contains(*c))
        .collect()
}

// --------------------------------------------------------------- lint

#[test]
fn lint_of_the_builtin_course_and_content_prints_nothing() {
    let content = concat!(env!("CARGO_MANIFEST_DIR"), "/content");
    for args in [vec!["lint"], vec!["lint", content]] {
        let o = run(&args);
        assert_eq!(code(&o), 0, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
        assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn lint_of_the_seed_is_clean() {
    common::with_seed(|path, _| {
        let o = run_path(&["lint"], path);
        assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
        assert!(o.stdout.is_empty(), "{}", stdout(&o));
    });
}

/// The fixture is valid, and holds on purpose what this version does not
/// know: each is one warning, none an error.
#[test]
fn lint_of_the_fixture_warns_of_what_it_does_not_know() {
    let path = common::fixture_path();
    let o = run_path(&["lint"], &path);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("0 error(s), 6 warning(s)"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    let got: Vec<(String, String)> = out
        .lines()
        .map(|l| {
            let (file, _, _, sev, msg) = parse_diag(l);
            assert_eq!(file, path.display().to_string(), "{l}");
            (sev.clone(), msg.clone())
        })
        .collect();
    let want = [
        "unknown run flag `gloss`",
        "unknown run flag `sup`",
        "unknown block type `table`",
        "unknown block type `callout`",
        "unknown figure type `timeline`",
        "unknown figure type `photo`",
    ];
    assert_eq!(got.len(), want.len(), "{out}");
    for ((sev, msg), want) in got.iter().zip(want) {
        assert_eq!(sev, "warning", "{out}");
        assert!(msg.contains(want), "{msg:?} is not about {want:?}\n{out}");
    }
}

#[test]
fn lint_exit_codes_and_line_format() {
    let dir = tempfile::tempdir().unwrap();
    // Warnings only: exit 0, each warning on its own line.
    let mut warn = lesson("w", "Warnings", 1);
    warn["reader"] = json!({"schema": 1, "blocks": [
        {"t": "callout", "text": "unknown block"},
        {"t": "p", "runs": [{"text": "x", "sup": true}]}
    ]});
    let warn_path = write(
        dir.path(),
        "warn.json",
        serde_json::to_string_pretty(&warn).unwrap(),
    );
    let o = run_path(&["lint"], &warn_path);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let (file, line, col, sev, msg) = parse_diag(lines[0]);
    assert_eq!(file, warn_path.display().to_string());
    assert_eq!(sev, "warning");
    assert!(msg.ends_with("(at reader.blocks[0])"), "{msg}");
    let src = std::fs::read_to_string(&warn_path).unwrap();
    let at = src.lines().nth(line - 1).unwrap();
    assert_eq!(&at[col - 1..], "{", "points at the block: {at:?}");
    assert!(
        parse_diag(lines[1])
            .4
            .ends_with("(at reader.blocks[1].runs[0].sup)")
    );
    assert!(stderr(&o).contains("0 error(s), 2 warning(s)"));

    // An error (no right answer): exit 1.
    let mut bad = lesson("e", "Errors", 2);
    for o in bad["check"]["options"].as_array_mut().unwrap() {
        o["correct"] = json!(false);
    }
    let bad_path = write(dir.path(), "bad.json", bad.to_string());
    let o = run_path(&["lint"], &bad_path);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let (_, _, _, sev, msg) = parse_diag(out.lines().next().unwrap());
    assert_eq!(sev, "error");
    assert!(msg.ends_with("(at check.options)"), "{msg}");
    // And the option made wrong says nothing of why it tempts.
    assert!(
        out.contains("option 1 is wrong and has no `tempting`"),
        "{out}"
    );

    // Both at once: errors win.
    let o = lectern()
        .arg("lint")
        .args([&warn_path, &bad_path])
        .output()
        .unwrap();
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o).lines().count(), 4, "{}", stdout(&o));

    // A file that does not exist is an error, not a usage error.
    let o = run_path(&["lint"], &dir.path().join("missing.json"));
    assert_eq!(code(&o), 1);
    parse_diag(stdout(&o).trim_end());
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["lint", "--no-such-flag"],
        vec!["render", "--width", "0"],
        vec!["render", "--width", "wide"],
        vec!["render", "--color", "sometimes"],
        vec!["render", "a.json", "b.json"],
        vec!["no-such-command", "--x"],
    ] {
        let o = run(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

// ------------------------------------------------------- broken files

/// Every kind of broken lesson file, by file name. All of them fail in
/// the lesson header, so a folder lists them as broken.
fn broken_files(dir: &Path) -> Vec<PathBuf> {
    let good = serde_json::to_string_pretty(&lesson("g", "Good", 1)).unwrap();
    let mut wrong = lesson("w", "Wrong", 1);
    wrong["lesson"]["title"] = json!(42);
    let mut missing = lesson("m", "Missing", 1);
    missing.as_object_mut().unwrap().remove("course");
    let deep = format!("{{\"course\": {}", "[".repeat(10_000));
    let mut files = vec![
        write(dir, "empty.json", ""),
        write(dir, "blank.json", " \n\t\n"),
        write(
            dir,
            "not-utf8.json",
            b"{\"course\": {\"slug\": \"caf\xe9\"}}",
        ),
        write(dir, "not-an-object.json", "[1, 2, 3]"),
        write(dir, "a-string.json", "\"a lesson?\""),
        write(dir, "truncated.json", &good[..good.len() / 2]),
        write(
            dir,
            "wrong-types.json",
            serde_json::to_string_pretty(&wrong).unwrap(),
        ),
        write(dir, "missing-course.json", missing.to_string()),
        write(dir, "deep.json", deep),
        write(dir, "trailing.json", format!("{good} x")),
        write(dir, "bom-garbage.json", b"\xef\xbb\xbf{,}"),
        write(dir, "raw-control.json", "{\"course\": \"a\u{1b}[2J\"}"),
    ];
    let huge = dir.join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(lectern::loader::MAX_LESSON_BYTES + 1)
        .unwrap();
    files.push(huge);
    files
}

#[test]
fn broken_files_give_one_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for f in broken_files(dir.path()) {
        let o = run_path(&["render", "--color", "never"], &f);
        let line = single_error_line(&o, &f);
        let name = f.file_name().unwrap().to_string_lossy();
        let want = match name.as_ref() {
            "empty.json" | "blank.json" => "empty file",
            "not-utf8.json" => "invalid UTF-8",
            "not-an-object.json" | "a-string.json" => "expected a JSON object",
            "truncated.json" => "truncated JSON",
            "wrong-types.json" => "(at lesson.title)",
            "missing-course.json" => "missing required field `course`",
            "deep.json" => "nesting too deep",
            "trailing.json" => "trailing characters",
            "bom-garbage.json" => "invalid JSON",
            "raw-control.json" => "control character",
            "huge.json" => "limit",
            other => panic!("no expectation for {other}"),
        };
        assert!(line.contains(want), "{name}: {line}");
        // lint says the same, on stdout, as one located line.
        let o = run_path(&["lint"], &f);
        assert_eq!(code(&o), 1, "{name}");
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "{name}: {out}");
        assert_eq!(parse_diag(out.trim_end()).0, f.display().to_string());
    }
}

#[test]
fn wrong_types_point_at_the_line_of_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = lesson("t", "Types", 1);
    v["reader"] = json!({"schema": 1, "blocks": [
        {"t": "p", "runs": [{"text": "fine"}]},
        {"t": "ul", "items": [[{"text": "ok"}], [{"text": "bad", "b": "yes"}]]}
    ]});
    let text = serde_json::to_string_pretty(&v).unwrap();
    let f = write(dir.path(), "types.json", &text);
    let line = single_error_line(&run_path(&["render"], &f), &f);
    assert!(
        line.ends_with("(at reader.blocks[1].items[1][0].b)"),
        "{line}"
    );
    assert!(
        line.contains("expected true or false, found a string"),
        "{line}"
    );
    let (_, l, c, _, _) = parse_diag(line.strip_prefix("lectern: ").unwrap());
    let src_line = text.lines().nth(l - 1).unwrap();
    assert_eq!(&src_line[c - 1..], "\"yes\"", "{line}");
}

#[test]
fn a_course_folder_lists_broken_lessons_and_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir(&course).unwrap();
    write(
        &course,
        "01-one.json",
        lesson("one", "Lesson one", 1).to_string(),
    );
    write(
        &course,
        "02-two.json",
        lesson("two", "Lesson two", 2).to_string(),
    );
    // A byte-order mark is allowed (the loader strips it).
    let bom = format!("\u{feff}{}", lesson("four", "Lesson four", 4));
    write(&course, "04-four.json", bom);
    // Its header is fine; its body is not: listed, and fails when opened.
    let mut late = lesson("three", "Lesson three", 3);
    late["reader"] = json!({"schema": 1, "blocks": [{"t": "p", "runs": 7}]});
    let late_path = write(&course, "03-three.json", late.to_string());
    let broken = broken_files(&course);

    let o = run_path(&["render", "--color", "never", "--width", "100"], &course);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    check_plain(&out, 100).unwrap();
    let n = norm(&out);
    assert!(n.starts_with("Folder course"), "{out}");
    for want in [
        "1. Lesson one (3 min)",
        "2. Lesson two (3 min)",
        "3. Lesson three",
        "4. Lesson four (3 min)",
    ] {
        assert!(n.contains(want), "{want:?} missing:\n{out}");
    }
    for f in &broken {
        let stem = f.file_stem().unwrap().to_string_lossy();
        assert!(
            n.contains(&format!("✘ broken: {stem} (")),
            "{stem} not marked broken:\n{out}"
        );
    }
    // Narrow, the same table of contents still fits.
    let o = run_path(&["render", "--color", "never", "--width", "20"], &course);
    check_plain(&stdout(&o), 20).unwrap();

    // Good lessons in the folder still render; the late-broken one fails
    // with one line.
    let o = run_path(&["render", "--color", "never"], &course.join("02-two.json"));
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("The body of Lesson two."));
    let line = single_error_line(&run_path(&["render"], &late_path), &late_path);
    assert!(line.ends_with("(at reader.blocks[0].runs)"), "{line}");

    // lint: one error line per broken file, none for the good ones.
    let o = run_path(&["lint"], &course);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let mut errors: Vec<String> = out
        .lines()
        .map(parse_diag)
        .filter(|d| d.3 == "error")
        .map(|d| d.0)
        .collect();
    errors.sort();
    let mut want: Vec<String> = broken
        .iter()
        .chain([&late_path])
        .map(|p| p.display().to_string())
        .collect();
    want.sort();
    assert_eq!(errors, want, "{out}");

    // A folder of course folders: the broken course is listed too.
    let o = run_path(&["render", "--color", "never", "--width", "80"], dir.path());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("Lesson two"));
}

// ---------------------------------------------------------- big input

#[test]
fn a_4_mb_lesson_renders_within_the_width() {
    let dir = tempfile::tempdir().unwrap();
    let para = "Prefill is compute-bound and decode is bandwidth-bound; \
                日本語のテキスト e\u{301} 👩‍🔬 and a very-long-hyphenated-token-that-must-break-somewhere. ";
    let mut blocks = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < 4 * 1024 * 1024 {
        let text = format!("{i}: {}", para.repeat(8));
        let block = match i % 10 {
            0 => json!({"t": "h2", "runs": [{"text": format!("Section {i}")}]}),
            5 => {
                json!({"t": "ul", "items": [[{"text": text.clone()}], [{"text": "short", "b": true}]]})
            }
            7 => json!({"t": "code", "lang": "text", "text": text.replace(". ", ".\n")}),
            _ => json!({"t": "p", "runs": [{"text": text}]}),
        };
        size += block.to_string().len();
        blocks.push(block);
        i += 1;
    }
    blocks.push(json!({"t": "p", "runs": [{"text": "THE-LAST-PARAGRAPH"}]}));
    let mut v = lesson("big", "A big lesson", 1);
    v["reader"] = json!({"schema": 1, "blocks": blocks});
    let bytes = v.to_string();
    assert!(bytes.len() >= 4 * 1024 * 1024);
    let f = write(dir.path(), "big.json", bytes);
    let started = std::time::Instant::now();
    let o = run_path(&["render", "--color", "never", "--width", "80"], &f);
    let took = started.elapsed();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    check_plain(&out, 80).unwrap();
    assert!(out.contains("THE-LAST-PARAGRAPH"));
    assert!(out.contains(&format!("Section {}", (i - 1) / 10 * 10)));
    eprintln!(
        "4 MB lesson rendered in {took:?} ({} lines)",
        out.lines().count()
    );
    // Coloured too (highlighting has a budget, so this stays quick).
    let o = run_path(&["render", "--color", "always", "--width", "80"], &f);
    assert_eq!(code(&o), 0);
    check_styled(&stdout(&o), 80).unwrap();
}

#[test]
fn deep_but_valid_nesting_renders_at_any_width() {
    let dir = tempfile::tempdir().unwrap();
    let mut block = json!({"t": "p", "runs": [{"text": "the innermost text"}]});
    // 40 levels: past the loader's flattening depth (24), within the
    // JSON nesting limit (128).
    for i in 0..40 {
        block = if i % 2 == 0 {
            json!({"t": "quote", "runs": [{"text": format!("quote {i}")}], "blocks": [block]})
        } else {
            json!({"t": "ul", "items": [{"runs": [{"text": format!("item {i}")}], "blocks": [block]}]})
        };
    }
    let mut v = lesson("deep", "Deep", 1);
    v["reader"] = json!({"schema": 1, "blocks": [block]});
    let f = write(dir.path(), "deep.json", v.to_string());
    for width in ["1", "3", "10", "80"] {
        let o = run_path(&["render", "--color", "never", "--width", width], &f);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let out = stdout(&o);
        check_plain(&out, width.parse().unwrap()).unwrap();
        if width == "80" {
            assert!(norm(&out).contains("the innermost text"), "{out}");
        }
    }
}

// ------------------------------------------------------------ hostile

/// Everything a lesson could use to take over a terminal, plus wide and
/// combining characters and whitespace controls.
const NASTY: &str = "<\u{1b}[2J\u{1b}[31mred\u{1b}[0m \u{1b}]0;pwned\u{7} \
    \u{1b}]52;c;aGk=\u{1b}\\ \u{1b}]8;;https://evil.example\u{1b}\\link\u{1b}]8;;\u{1b}\\ \
    \u{9b}31m \u{90}dcs\u{9c} \u{85}nel \u{8}\u{8}\u{7f} cr\r lf\n tab\tx \u{0} \u{c}\u{b} \
    \u{202e}rtl\u{202c} \u{2067}iso\u{2069} \u{2028}\u{2029} \u{feff} 日本 e\u{301} 👩‍🔬>";

/// Markdown can spell control characters as entities, which decode only
/// when the markdown is parsed.
const NASTY_MD: &str = "&#27;[2J &#x1b;]0;t&#7; &#x9b;31m &#127; &#8; &#x85; &#x202e;rtl \
    [a link](&#x1b;]8;;x) ![img](x \"&#x1b;[1m\")";

/// A table drawn as a grid: cells are not word-wrapped, so tabs and
/// controls in them must be dealt with on the way.
const TABLE_MD: &str = "| a\tb | \u{1b}[1mc |\n|---|---|\n| d\te | &#9;f&#x1b;[2J |\n";

fn hostile_lesson() -> Value {
    let n = NASTY;
    let runs = json!([
        {"text": n}, {"text": n, "b": true, "i": true, "s": true},
        {"text": n, "code": true}, {"text": n, "kbd": true},
        {"text": n, "href": n}, {"text": n, n: n}
    ]);
    let figure = json!({"type": "compare", "title": n, "caption": n,
        "left": {"title": n, "items": [n, n]}, "right": {"title": n, "items": [n]}, n: n});
    json!({
        "course": {"slug": n, "title": n, "url": n, "level": n, "track": n},
        "lesson": {"slug": n, "title": n, "url": n, "position": 1, "of": 2, "minutes": 3,
                   "answer": n, "keyIdea": n},
        "body": {"format": n, "text": format!("{n}\n\n{NASTY_MD}\n\n{TABLE_MD}")},
        "check": {"question": n, "options": [{"text": n, "correct": true, "tempting": n}]},
        "prev": {"slug": n, "title": n, "url": n},
        "next": {"slug": n, "title": n, "url": n},
        "authorship": n, "cite": n,
        "review": {"status": n},
        "licence": {"name": n, "url": n},
        n: n,
        "reader": {
            "schema": 1, "title": n, "courseTitle": n,
            "module": {"index": 1, "slug": n, "title": n},
            "answer": n, "keyIdea": n,
            "hero": {"kind": "figure", "figure": {"t": "figure", "label": n, "figure": figure, "alt": n}},
            "blocks": [
                {"t": "h2", "id": n, "runs": runs},
                {"t": "h4", "id": n, "runs": n},
                {"t": "p", "runs": runs, n: n},
                {"t": "ul", "items": [runs, n, {"runs": runs, "blocks": [{"t": "p", "runs": runs}]}]},
                {"t": "ol", "start": 9, "items": [runs]},
                {"t": "code", "lang": n, "label": n, "text": n},
                {"t": "code", "lang": "bash", "text": n},
                {"t": "figure", "label": n, "figure": figure, "alt": n},
                {"t": "figure", "label": n, "figure": {"type": n, "title": n, "data": [n, {"x": n}]}},
                {"t": "quote", "runs": runs, "blocks": [{"t": "p", "runs": runs}]},
                {"t": n, "x": n, "y": [n, {"z": n}]},
                {"t": "widget", "alt": n},
                n
            ],
            "check": {"question": runs,
                      "options": [{"text": runs, "correct": true, "tempting": runs},
                                  {"text": runs, "correct": false, "tempting": runs}],
                      "order": [1, 0], "why": runs},
            "prev": {"slug": n, "title": n, "minutes": 1},
            "next": null
        }
    })
}

fn markdown_only(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("reader");
    v
}

fn check_render(path: &Path, what: &str) {
    for width in ["1", "7", "20", "80", "200"] {
        let w: usize = width.parse().unwrap();
        let o = run_path(&["render", "--color", "never", "--width", width], path);
        assert_eq!(code(&o), 0, "{what}: {}", stderr(&o));
        check_plain(&stdout(&o), w).unwrap_or_else(|e| panic!("{what}, never, width {w}: {e}"));
        let o = run_path(
            &["render", "--color", "always", "--answers", "--width", width],
            path,
        );
        assert_eq!(code(&o), 0, "{what}: {}", stderr(&o));
        check_styled(&stdout(&o), w).unwrap_or_else(|e| panic!("{what}, always, width {w}: {e}"));
    }
}

#[test]
fn hostile_text_never_reaches_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let reader = write(dir.path(), "reader.json", hostile_lesson().to_string());
    check_render(&reader, "reader tree");
    let md = write(
        dir.path(),
        "markdown.json",
        markdown_only(hostile_lesson()).to_string(),
    );
    check_render(&md, "markdown body");
    // The text around the controls survives, made visible.
    let out = stdout(&run_path(
        &["render", "--color", "never", "--width", "200"],
        &md,
    ));
    assert!(out.contains("␛[2J"), "{out}");
}

#[test]
fn hostile_text_in_a_course_folder_and_in_lint() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.json", hostile_lesson().to_string());
    write(
        dir.path(),
        "b.json",
        markdown_only(hostile_lesson()).to_string(),
    );
    for width in ["1", "20", "80"] {
        let o = run_path(
            &["render", "--color", "always", "--width", width],
            dir.path(),
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        check_styled(&stdout(&o), width.parse().unwrap()).unwrap();
    }
    let o = run_path(&["lint"], dir.path());
    let out = stdout(&o);
    assert!(!out.is_empty());
    for line in out.lines() {
        check_plain(line, usize::MAX).unwrap_or_else(|e| panic!("lint: {e}"));
        parse_diag(line);
    }
    check_plain(stderr(&o).trim_end(), usize::MAX).unwrap();
}

#[test]
fn hostile_file_names_are_shown_safely() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("c\u{1b}]0;x\u{7}");
    std::fs::create_dir(&course).unwrap();
    let bad = write(&course, "b\u{1b}[2J\t.json", "{");
    write(&course, "ok.json", lesson("ok", "Fine", 1).to_string());
    let o = run_path(&["render", "--color", "never", "--width", "80"], &course);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    check_plain(&stdout(&o), 80).unwrap();
    let o = run_path(&["render"], &bad);
    assert_eq!(code(&o), 1);
    check_plain(stderr(&o).trim_end(), usize::MAX).unwrap();
    let o = run_path(&["lint"], &course);
    assert_eq!(code(&o), 1);
    check_plain(stdout(&o).trim_end(), usize::MAX).unwrap();
}

#[test]
fn extreme_numbers_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (i, name) in ["a.json", "b.json"].iter().enumerate() {
        let mut v = lesson(name, name, u32::MAX - i as u32);
        v["lesson"]["of"] = json!(u32::MAX);
        v["lesson"]["minutes"] = json!(u32::MAX);
        v["reader"] = json!({"schema": 1,
            "module": {"index": u32::MAX, "title": "Big"},
            "blocks": [{"t": "ol", "start": u64::MAX, "items": [["a"], ["b"], ["c"]]}],
            "check": {"question": "Q", "options": [{"text": "a", "correct": true}],
                      "order": [u64::MAX]}});
        write(dir.path(), name, v.to_string());
    }
    for width in ["1", "80"] {
        let o = run_path(
            &["render", "--color", "never", "--width", width],
            dir.path(),
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        check_plain(&stdout(&o), width.parse().unwrap()).unwrap();
        let o = run_path(
            &["render", "--color", "never", "--width", width],
            &dir.path().join("a.json"),
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        check_plain(&stdout(&o), width.parse().unwrap()).unwrap();
    }
    let o = run_path(&["lint"], dir.path());
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

/// Global options may come before the subcommand (`lectern --data-dir D
/// stats`); a PATH before one is a usage error, not a silent choice.
#[test]
fn options_before_a_subcommand_and_a_path_before_one() {
    let data = tempfile::tempdir().unwrap();
    let d = data.path().to_str().unwrap();
    let out = run(&["--data-dir", d, "stats", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"courses\""));
    let out = run(&["some-file.md", "stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("comes before the command"));
}

/// `lint --format json`: every finding of every file, grouped by file,
/// each with its place, JSON path, severity and a stable code.
#[test]
fn lint_writes_json_for_editors_and_ci() {
    let dir = tempfile::tempdir().unwrap();
    let bad = r#"{"course": {"slug": "c", "title": "C"},
  "lesson": {"slug": "l", "title": 42, "position": "x"},
  "body": {"format": "markdown", "text": "Hi"}}"#;
    let path = write(dir.path(), "bad.json", bad);
    let o = run(&["lint", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2, "{v}");
    assert_eq!(items[0]["path"], "lesson.title");
    assert_eq!(items[1]["path"], "lesson.position");
    for i in items {
        assert_eq!(i["severity"], "error");
        assert_eq!(i["code"], "wrong-type");
        assert_eq!(i["line"], 2);
    }
}
