//! Two data directories sharing one sync folder, as two machines running
//! a sync tool: the real binary in a pseudo-terminal on each, and `lectern
//! sync` and `lectern stats` on the command line.

use crate::common::pty::{Opts, Term};
use std::path::Path;
use std::process::Command;

/// `lectern ARGS` with progress in `data` and the sync folder `sync`.
fn lectern(data: &Path, sync: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(args)
        .env("LECTERN_DATA_DIR", data)
        .env("LECTERN_CACHE_DIR", data.join("cache"))
        .env("LECTERN_SYNC_DIR", sync)
        .env_remove("LECTERN_CONFIG")
        .output()
        .unwrap()
}

fn stdout(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The built-in guide's first lesson at its check, on the machine whose
/// progress is in `data`.
fn reader(data: &Path, sync: &Path) -> Term {
    let sync = sync.to_str().unwrap();
    let vars = [("LECTERN_SYNC_DIR", sync)];
    let opts = Opts {
        vars: &vars,
        ..Opts::new(data, 100, 30)
    };
    let t = Term::lectern(&[], &opts);
    // The header, not the footer: a merge's word may take the footer's
    // place before the test looks.
    t.wait_for("Lesson 1 of 14");
    t.press("G");
    t.wait_for("Check your understanding");
    t
}

/// Answers the first lesson's check wrongly (option 2, "Press q for a
/// menu") on the machine of `data`, and quits.
fn answer_on(data: &Path, sync: &Path) {
    let mut t = reader(data, sync);
    t.press("c");
    t.press("2");
    t.wait_for("First try (your score): ✘ wrong · 1 attempt");
    t.quit_cleanly();
}

#[test]
fn an_answer_given_on_one_machine_is_shown_on_the_other() {
    let (laptop, desktop, sync) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    answer_on(laptop.path(), sync.path());
    // The desktop starts after: its first look at the folder, after its
    // first frame, brings the answer to the page.
    let mut t = reader(desktop.path(), sync.path());
    // The merge may come before or after G (which ends the footer's word
    // on it): G again shows the check, answered.
    t.press("G");
    t.wait_for("First try (your score): ✘ wrong · 1 attempt");
    t.quit_cleanly();
    // Each machine's figures hold the other's changes: the same figures.
    let a = stdout(&lectern(laptop.path(), sync.path(), &["stats", "--json"]));
    let b = stdout(&lectern(desktop.path(), sync.path(), &["stats", "--json"]));
    let a_again = stdout(&lectern(laptop.path(), sync.path(), &["stats", "--json"]));
    assert_eq!(a_again, b);
    assert!(a.contains("\"first_try\": \"wrong\""), "{a}");
    let text = stdout(&lectern(desktop.path(), sync.path(), &["stats"]));
    assert!(
        text.contains("include the changes of other machines"),
        "{text}"
    );
}

#[test]
fn an_answer_given_elsewhere_while_the_reader_is_open_appears_in_it() {
    let (laptop, desktop, sync) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let mut open = reader(desktop.path(), sync.path());
    answer_on(laptop.path(), sync.path());
    // A look every few seconds: the footer says what came, and the check
    // is shown answered (longer now, with why the answer tempts).
    open.wait_for("Merged from");
    open.wait_for("Why it tempts");
    open.press("G");
    open.wait_for("First try (your score): ✘ wrong · 1 attempt");
    open.quit_cleanly();
}

#[test]
fn lectern_sync_merges_names_and_lists_the_devices() {
    let (laptop, desktop, sync) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let said = stdout(&lectern(
        laptop.path(),
        sync.path(),
        &["sync", "--name", "laptop"],
    ));
    assert!(said.contains("This machine: laptop, device"), "{said}");
    let said = stdout(&lectern(desktop.path(), sync.path(), &["sync"]));
    assert!(said.contains("Merged from laptop"), "{said}");
    let said = stdout(&lectern(desktop.path(), sync.path(), &["sync"]));
    assert!(said.contains("Nothing new from 1 other machine"), "{said}");
    let status = stdout(&lectern(desktop.path(), sync.path(), &["sync", "--status"]));
    assert!(status.contains("laptop ("), "{status}");
    let json = stdout(&lectern(desktop.path(), sync.path(), &["sync", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let devices = v["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 2, "{json}");
    assert_eq!(devices[1]["name"], "laptop");
    assert_eq!(devices[0]["this"], true);
    // The progress database never goes into the sync folder.
    let mut inside: Vec<String> = std::fs::read_dir(sync.path().join("lectern"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    inside.sort();
    assert!(inside.iter().all(|n| n.ends_with(".log")), "{inside:?}");
}

#[test]
fn lectern_sync_without_a_folder_says_how_to_set_one() {
    let data = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lectern"))
        .args(["sync"])
        .env("LECTERN_DATA_DIR", data.path())
        .env_remove("LECTERN_SYNC_DIR")
        .env("LECTERN_CONFIG", data.path().join("none.toml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("sync-dir"), "{err}");
}
