//! What the commands print when nobody is reading (a closed pipe) and
//! when what they echo is hostile (argv, paths): the real binary, its
//! stdout and stderr a pipe whose reading end is already closed.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn lectern() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lectern"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// `cmd` with stdout and stderr on a pipe nobody reads (`2>&1 | true`
/// once `true` has gone).
fn into_closed_pipe(mut cmd: Command) -> std::process::ExitStatus {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Stdio::from(writer.try_clone().unwrap());
    cmd.stdout(out)
        .stderr(Stdio::from(writer))
        .stdin(Stdio::null())
        .status()
        .unwrap()
}

fn assert_quiet_failure(status: std::process::ExitStatus, what: &str) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), None, "{what}: killed ({status:?})");
    // Not 101 (a panic), not 134 (an abort): the SIGPIPE-like 141, or the
    // command's own failure.
    let code = status.code().expect("an exit code");
    assert!(code == 141 || code == 1, "{what}: status {code}");
}

fn bad_course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..50 {
        std::fs::write(dir.path().join(format!("b{i}.json")), "{ not json").unwrap();
    }
    dir
}

#[test]
fn a_closed_pipe_ends_each_command_quietly_with_a_failure() {
    let data = tempfile::tempdir().unwrap();
    let bad = bad_course();
    let mut render = lectern();
    render.args(["render", "/nonexistent.json"]);
    assert_quiet_failure(into_closed_pipe(render), "render");
    let mut render_ok = lectern();
    render_ok.args(["render", "--width", "40"]);
    assert_quiet_failure(into_closed_pipe(render_ok), "render of the built-in course");
    let mut stats = lectern();
    stats.arg("stats").env("LECTERN_DATA_DIR", data.path());
    assert_quiet_failure(into_closed_pipe(stats), "stats");
    let mut lint = lectern();
    lint.arg("lint").arg(bad.path());
    assert_quiet_failure(into_closed_pipe(lint), "lint");
    let mut usage = lectern();
    usage.arg("--no-such-option");
    let status = into_closed_pipe(usage);
    assert!(status.code() == Some(141), "usage error: {status:?}");
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().unwrap()
}

fn assert_no_control(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    let bad = text
        .chars()
        .find(|&c| c.is_control() && c != '\n' || ('\u{80}'..'\u{a0}').contains(&c));
    assert_eq!(bad, None, "{what} printed a control character: {text:?}");
}

#[test]
fn argv_echoed_in_errors_is_sanitised() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "--\u{1b}]0;PWNED\u{7}.json";
    std::fs::write(dir.path().join(evil), "{}").unwrap();
    // `lectern lint *`: the shell hands the name over as an option.
    let out = run(lectern().current_dir(dir.path()).args(["lint", evil]));
    assert_eq!(out.status.code(), Some(2));
    assert_no_control(&out.stderr, "clap's error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument"));
    for args in [
        ["render", "--theme", "x\u{1b}[31mred"],
        ["render", "--width", "9\u{1b}]0;X\u{7}"],
        ["render", "--color", "\u{9b}31m"],
    ] {
        let out = run(lectern().args(args));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_no_control(&out.stderr, &format!("{args:?}"));
    }
    // A path that does not open, named in the error.
    let out = run(lectern().args(["render", &format!("/nope/{evil}")]));
    assert_eq!(out.status.code(), Some(1));
    assert_no_control(&out.stderr, "a path in an error");
}

#[test]
fn a_hostile_data_dir_is_shown_sanitised() {
    let base = tempfile::tempdir().unwrap();
    // A data dir that cannot be made: a file stands where its parent is.
    let file = base.path().join("f\u{1b}]0;T\u{7}");
    std::fs::write(&file, "").unwrap();
    let data: &Path = &file.join("data");
    let out = run(lectern().arg("stats").env("LECTERN_DATA_DIR", data));
    assert!(String::from_utf8_lossy(&out.stderr).contains("progress store"));
    assert_no_control(&out.stderr, "the store warning");
    assert_no_control(&out.stdout, "stats");
}

/// A closed pipe is quiet; a write that fails otherwise (a full disk) is
/// an error that is said.
#[test]
fn a_full_disk_under_stdout_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = lectern()
        .args(["render", "--width", "40"])
        .stdout(full)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("No space left"));
}
