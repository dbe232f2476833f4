//! The conventions a terminal user takes for granted, against the real
//! binary: pipes, standard input, colour variables, the config file, the
//! terminal's background (OSC 11) and the clipboard (OSC 52), man page and
//! completions.

use crate::common::pty::{COLOUR_VARS, Opts, Term};
use base64::Engine;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LESSON: &str = r#"{"course":{"slug":"c","title":"C"},
 "lesson":{"slug":"l","title":"Copy me","position":1},
 "body":{"format":"markdown","text":"Some text.\n\n```rust\nfn main() {\n    println!(\"a long line that the page would wrap at a narrow width, gutter and all\");\n}\n```\n\nSee [the page](https://example.org/page).\n"}}"#;

const CODE: &str = "fn main() {\n    println!(\"a long line that the page would wrap at a narrow width, gutter and all\");\n}";

fn lesson_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy-me.json");
    std::fs::write(&path, LESSON).unwrap();
    (dir, path)
}

fn lectern(vars: &[(&str, &str)]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lectern"));
    for v in COLOUR_VARS {
        c.env_remove(v);
    }
    c.env("TERM", "xterm-256color");
    for (k, v) in vars {
        c.env(k, v);
    }
    c
}

fn run(vars: &[(&str, &str)], args: &[&str], stdin: Option<&str>) -> Output {
    let mut c = lectern(vars);
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_reader_in_a_pipe_prints_the_lesson_and_exits_0() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    // `lectern LESSON | cat`: stdout is a pipe.
    let o = run(
        &[("LECTERN_DATA_DIR", data_dir)],
        &[path.to_str().unwrap()],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = out(&o);
    assert!(
        text.contains("Copy me") && text.contains("fn main()"),
        "{text}"
    );
    assert!(
        !text.contains('\x1b'),
        "no escape sequences in a pipe: {text:?}"
    );
    // What render prints, byte for byte.
    let render = run(&[], &["render", path.to_str().unwrap()], None);
    assert_eq!(text, out(&render));
}

#[test]
fn a_dash_is_standard_input_for_render_and_lint() {
    let o = run(&[], &["render", "-"], Some(LESSON));
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("Copy me"));
    let o = run(&[], &["lint", "-"], Some(LESSON));
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let o = run(&[], &["lint", "-"], Some("{\"course\": 1}"));
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).starts_with("<stdin>:1:"), "{}", out(&o));
}

#[test]
fn colour_follows_the_variables_in_a_pipe() {
    let render =
        |vars: &[(&str, &str)]| out(&run(vars, &["render", "builtin:01-getting-started"], None));
    assert!(!render(&[]).contains('\x1b'));
    let forced = render(&[("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains("\x1b[38;5;"), "256 colours when forced");
    assert!(
        !forced.contains("\x1b[38;2;"),
        "no 24-bit colour without COLORTERM"
    );
    let deep = render(&[("CLICOLOR_FORCE", "1"), ("COLORTERM", "truecolor")]);
    assert!(
        deep.contains("\x1b[38;2;"),
        "24-bit colour when COLORTERM says so"
    );
    assert!(!render(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
    let always = out(&run(
        &[("NO_COLOR", "1")],
        &["render", "--color", "always", "builtin:01-getting-started"],
        None,
    ));
    assert!(always.contains('\x1b'), "--color always wins");
}

#[test]
fn styled_links_are_osc_8_hyperlinks_and_show_their_target() {
    let o = run(&[("CLICOLOR_FORCE", "1")], &["render", "-"], Some(LESSON));
    let text = out(&o);
    assert!(
        text.contains("\x1b]8;;https://example.org/page\x1b\\"),
        "{text:?}"
    );
    assert!(text.contains("example.org"), "the host is visible");
    let plain = out(&run(&[], &["render", "-"], Some(LESSON)));
    assert!(
        plain.contains("the page <https://example.org/page>"),
        "{plain}"
    );
}

#[test]
fn man_page_and_completions_come_from_the_cli() {
    let man = out(&run(&[], &["man"], None));
    assert!(
        man.contains(".TH lectern 1") && man.contains("render"),
        "{man}"
    );
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&[], &["completions", shell], None);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        assert!(
            out(&o).contains("lectern") && out(&o).contains("render"),
            "{shell}"
        );
    }
}

#[test]
fn config_show_says_where_each_setting_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, "theme = \"light\"\ncolor = 1\nday-starts-at = 30\n").unwrap();
    let f = file.to_str().unwrap();
    let o = run(&[("LECTERN_CONFIG", f)], &["config", "--show"], None);
    let text = out(&o);
    let line = |key: &str| {
        let l = text.lines().find(|l| l.starts_with(key)).unwrap_or("");
        l.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(
        line("theme"),
        format!("theme = \"light\" # {f}:1"),
        "{text}"
    );
    assert_eq!(
        line("day-starts-at"),
        "day-starts-at = 4 # default",
        "{text}"
    );
    assert!(
        text.contains(&format!("{f}:2:1: warning: unknown setting `color`")),
        "{text}"
    );
    assert!(text.contains(&format!("{f}:3:17: error:")), "{text}");
    let o = run(
        &[("LECTERN_CONFIG", f)],
        &["config", "--show", "--theme", "mono"],
        None,
    );
    assert!(out(&o).contains("# flag --theme"), "{}", out(&o));
}

// ---- in a pseudo-terminal -------------------------------------------------

/// The binary in an 80×24 pty that answers the background query (OSC 11)
/// with `background`, or not at all, and device attributes (the query
/// sent after it) always; an empty config file, so none of the
/// developer's reaches it.
fn spawn(args: &[&Path], data: &Path, background: Option<&'static str>) -> Term {
    spawn_with(args, data, background, &[])
}

fn spawn_with(
    args: &[&Path],
    data: &Path,
    background: Option<&'static str>,
    vars: &[(&str, &str)],
) -> Term {
    let config = data.join("config.toml");
    std::fs::write(&config, "").unwrap();
    let config = config.display().to_string();
    let mut all = vec![("LECTERN_CONFIG", config.as_str())];
    all.extend_from_slice(vars);
    let opts = Opts {
        background,
        vars: &all,
        ..Opts::new(data, 80, 24)
    };
    Term::lectern(args, &opts)
}

fn find(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The header bar's background, which differs between the palettes.
fn bar(screen: &vt100::Screen) -> vt100::Color {
    screen
        .cell(0, 1)
        .map_or(vt100::Color::Default, |c| c.bgcolor())
}

fn palette(rgb: (u8, u8, u8)) -> vt100::Color {
    match lectern::theme::to_palette(ratatui::style::Color::Rgb(rgb.0, rgb.1, rgb.2)) {
        ratatui::style::Color::Indexed(i) => vt100::Color::Idx(i),
        other => panic!("{other:?}"),
    }
}

const LIGHT_BAR: (u8, u8, u8) = (225, 228, 232);
const DARK_BAR: (u8, u8, u8) = (40, 44, 52);

#[test]
fn a_light_background_answer_gives_the_light_palette() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    let mut t = spawn(&[&path], data.path(), Some("rgb:ffff/ffff/ffff"));
    t.wait_raw("the light palette", |raw, s| {
        find(raw, b"\x1b]11;?") && bar(s) == palette(LIGHT_BAR)
    });
    // 256 colours: TERM has them, COLORTERM does not claim 24-bit.
    assert!(!find(&t.raw(), b"\x1b[48;2;"));
    // Button-event mouse tracking, not every motion.
    assert!(find(&t.raw(), b"\x1b[?1002h"));
    assert!(!find(&t.raw(), b"\x1b[?1003h"));
    t.quit_cleanly();
}

#[test]
fn no_answer_keeps_the_dark_guess_and_a_set_theme_is_not_asked() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    let mut t = spawn(&[&path], data.path(), None);
    t.wait_raw("the dark palette", |_, s| bar(s) == palette(DARK_BAR));
    t.wait_raw("the query", |raw, _| find(raw, b"\x1b]11;?"));
    t.quit_cleanly();
    let theme = Path::new("--theme=light");
    let mut t = spawn(&[theme, &path], data.path(), Some("rgb:0000/0000/0000"));
    t.wait_raw("the light palette", |_, s| bar(s) == palette(LIGHT_BAR));
    // A key acted on: the reader is past the point where it asks.
    t.press("?");
    t.wait_raw("the help", |_, s| s.contents().contains("Esc to close"));
    assert!(!find(&t.raw(), b"\x1b]11;?"), "a set theme is not asked");
    t.press("q");
    t.wait_raw("the help closed", |_, s| {
        !s.contents().contains("Esc to close")
    });
    t.quit_cleanly();
}

#[test]
fn y_copies_the_exact_code_over_osc_52() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    // The key is typed while the background is being asked (this pty
    // answers only device attributes): it reaches the reader all the same.
    let mut t = spawn(&[&path], data.path(), None);
    t.wait_raw("the lesson", |_, s| s.contents().contains("fn main()"));
    // The page's link is an OSC 8 hyperlink, its target shown beside it.
    t.wait_raw("a hyperlink", |raw, s| {
        find(raw, b"\x1b]8;;https://example.org/page\x1b\\")
            && s.contents().contains("the page <https://example.org/page>")
    });
    t.press("y");
    t.wait_raw("the clipboard", |raw, _| find(raw, b"\x1b]52;c;"));
    t.wait_raw("the status line", |_, s| {
        s.contents().contains("Copied code block 1")
    });
    let raw = t.raw();
    let at = raw.windows(7).position(|w| w == b"\x1b]52;c;").unwrap() + 7;
    let end = at + raw[at..].iter().position(|&b| b == 0x07).unwrap();
    let text = base64::engine::general_purpose::STANDARD
        .decode(&raw[at..end])
        .unwrap();
    assert_eq!(String::from_utf8(text).unwrap(), CODE);
    t.quit_cleanly();
}

/// A dumb terminal (an editor's shell, a screen reader's console) gets
/// the linear reader: plain text in reading order and a prompt, never a
/// screen switch or any escape sequence.
#[test]
fn a_dumb_terminal_gets_plain_text_and_no_screen_switch() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    let mut t = spawn_with(&[&path], data.path(), None, &[("TERM", "dumb")]);
    t.wait_raw("the prompt", |raw, _| find(raw, b"lectern> "));
    // Section by section to the end of the lesson, where its code is.
    for _ in 0..6 {
        t.press("next\r");
    }
    t.wait_raw("the code", |raw, _| find(raw, b"fn main()"));
    t.press("quit\r");
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = t.child.try_wait() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    let raw = t.raw();
    assert!(
        !raw.contains(&0x1b),
        "no escape sequence at all: {:?}",
        String::from_utf8_lossy(&raw)
    );
}

#[test]
fn no_color_in_a_terminal_is_the_mono_palette() {
    let (_dir, path) = lesson_file();
    let data = tempfile::tempdir().unwrap();
    for var in [("NO_COLOR", "1"), ("CLICOLOR", "0")] {
        let mut t = spawn_with(&[&path], data.path(), None, &[var]);
        t.wait_raw("the lesson", |_, s| s.contents().contains("fn main()"));
        let raw = t.raw();
        assert!(!find(&raw, b"\x1b[38;"), "{var:?}: no foreground colour");
        assert!(
            !find(&raw, b"\x1b]11;?"),
            "{var:?}: no background query without colour"
        );
        t.quit_cleanly();
    }
}
