//! The built-in guide cannot lie: every key it tells the reader to press
//! is bound on the screen it names, every `lectern …` command it shows
//! exists with its flags, every lesson ends with an exercise and a check
//! whose wrong options explain why they tempt, and the README's key list
//! and sample are what the keymap and the renderer make today.
//!
//! The markings the guide uses (content/ follows them):
//! - a key is `<kbd>LABEL</kbd>`, LABEL as the help screen shows it
//!   (`j`, `Space`, `Ctrl-D`, `↓`; a single digit for the digits);
//! - `<!-- keys: Screen -->` (a `Screen` variant) says where the keys that
//!   follow are pressed, up to the next such comment or heading; each text
//!   and each heading starts on the page, `Reading`;
//! - a command is inline code, or a line of a code block, starting with
//!   `lectern `.
//!
//! `LECTERN_BLESS=1 cargo test --test it guide::` rewrites the README's
//! generated parts when they are out of date.

use lectern::keymap;
use lectern::state::Screen;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn lectern() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lectern"));
    c.env_remove("NO_COLOR").env_remove("COLORFGBG");
    c
}

/// The guide's lessons: (file name, parsed JSON), in course order.
fn lessons() -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("content"))
        .expect("content/ is there")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, serde_json::from_str(&text).expect("a lesson is JSON"))
        })
        .collect()
}

/// The texts of a lesson a reader sees, each named for the messages:
/// the body, then the check's question, options, explanations and why.
fn texts(lesson: &Value) -> Vec<(String, String)> {
    let mut out = vec![("body".to_string(), str_at(lesson, "/body/text"))];
    let check = &lesson["check"];
    out.push(("check.question".into(), str_at(check, "/question")));
    for (i, o) in check["options"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        out.push((format!("check.options[{i}].text"), str_at(o, "/text")));
        out.push((
            format!("check.options[{i}].tempting"),
            str_at(o, "/tempting"),
        ));
    }
    out.push(("check.why".into(), str_at(check, "/why")));
    out
}

fn str_at(v: &Value, pointer: &str) -> String {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The keys `text` names, each with the screen it is pressed on. A
/// heading starts again on the page.
fn marked_keys(text: &str) -> Result<Vec<(Screen, String)>, String> {
    let mut screen = Screen::Reading;
    let mut keys = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') {
            screen = Screen::Reading;
        }
        let mut rest = line;
        loop {
            let kbd = rest.find("<kbd>");
            let scope = rest.find("<!-- keys:");
            match (kbd, scope) {
                (Some(k), s) if s.is_none_or(|s| k < s) => {
                    let after = &rest[k + "<kbd>".len()..];
                    let end = after.find("</kbd>").ok_or("a <kbd> is not closed")?;
                    keys.push((screen, after[..end].to_string()));
                    rest = &after[end..];
                }
                (_, Some(s)) => {
                    let after = &rest[s + "<!-- keys:".len()..];
                    let end = after.find("-->").ok_or("a keys comment is not closed")?;
                    let name = after[..end].trim();
                    // A screen is named as its variant is (`CourseSearch`).
                    screen = Screen::ALL
                        .into_iter()
                        .find(|s| format!("{s:?}") == name)
                        .ok_or_else(|| format!("`{name}` is not a screen"))?;
                    rest = &after[end..];
                }
                _ => break,
            }
        }
    }
    Ok(keys)
}

/// Whether `label` is bound on `screen`, as the keymap labels its keys.
fn bound(screen: Screen, label: &str) -> bool {
    let labels = keymap::key_labels(screen);
    let digit = matches!(label.as_bytes(), [b'1'..=b'9']);
    labels.iter().any(|l| l == label || (digit && l == "1-9"))
}

/// Every key `text` names that is not bound where it says.
fn unbound_keys(text: &str) -> Result<Vec<String>, String> {
    Ok(marked_keys(text)?
        .into_iter()
        .filter(|(screen, label)| !bound(*screen, label))
        .map(|(screen, label)| format!("{label} on {screen:?}"))
        .collect())
}

/// The `lectern …` commands of a markdown text: inline code spans, and
/// the lines of code blocks, that start with `lectern `.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            if t.starts_with("lectern ") {
                out.push(t.to_string());
            }
            continue;
        }
        // Outside code blocks: the odd pieces between backticks are code.
        for (i, piece) in t.split('`').enumerate() {
            if i % 2 == 1 && (piece.starts_with("lectern ") || piece == "lectern") {
                out.push(piece.to_string());
            }
        }
    }
    out
}

/// The command line as clap defines it, read from the real binary's help:
/// each subcommand's long options (the top level's under "").
fn cli() -> &'static HashMap<String, Vec<String>> {
    static CLI: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    CLI.get_or_init(|| {
        let help = |args: &[&str]| {
            let o = lectern().args(args).arg("--help").output().unwrap();
            String::from_utf8(o.stdout).unwrap()
        };
        let top = help(&[]);
        let mut cli = HashMap::new();
        cli.insert(String::new(), options(&top));
        let subs = top
            .split("Commands:\n")
            .nth(1)
            .expect("the help lists commands")
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next())
            .filter(|s| *s != "help");
        for sub in subs {
            cli.insert(sub.to_string(), options(&help(&[sub])));
        }
        cli
    })
}

fn options(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .flat_map(|l| l.split([' ', ',', '<', '=']))
        .filter(|w| w.starts_with("--"))
        .map(str::to_string)
        .collect()
}

/// What is wrong with a command as `lectern`'s command line would take it.
fn command_error(command: &str) -> Option<String> {
    let cli = cli();
    let words: Vec<&str> = command
        .split_whitespace()
        .take_while(|w| !matches!(*w, "|" | ">" | "<" | "#" | "&&"))
        .map(|w| w.trim_matches(|c| c == '[' || c == ']'))
        .collect();
    // A lower-case word after `lectern` is a subcommand; a path has a
    // `/`, `.`, `~` or `:` in it, a placeholder is in capitals.
    let sub = match words.get(1) {
        Some(w) if w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-') => {
            if !cli.contains_key(*w) {
                return Some(format!("`{w}` is not a subcommand"));
            }
            *w
        }
        _ => "",
    };
    let flags = &cli[sub];
    words
        .iter()
        .filter(|w| w.starts_with("--"))
        .map(|w| w.split('=').next().unwrap())
        .find(|f| !flags.iter().any(|x| x == f))
        .map(|f| format!("`{f}` is not an option of `lectern {sub}`"))
}

#[test]
fn every_key_the_guide_names_is_bound_where_it_says() {
    let mut wrong = Vec::new();
    for (file, lesson) in lessons() {
        for (what, text) in texts(&lesson) {
            match unbound_keys(&text) {
                Ok(keys) => wrong.extend(keys.into_iter().map(|k| format!("{file} {what}: {k}"))),
                Err(e) => wrong.push(format!("{file} {what}: {e}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "keys the keymap does not have:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_key_that_is_not_bound_fails() {
    // Made-up or renamed keys, and keys named for the wrong screen.
    assert_eq!(
        unbound_keys("press <kbd>Ctrl-Q</kbd>").unwrap(),
        ["Ctrl-Q on Reading"]
    );
    assert_eq!(
        unbound_keys("<kbd>Down</kbd>").unwrap(),
        ["Down on Reading"]
    );
    assert_eq!(
        unbound_keys("<kbd>o</kbd> re-reads").unwrap(),
        ["o on Reading"]
    );
    assert!(
        unbound_keys("<!-- keys: Review --> <kbd>o</kbd> re-reads")
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        unbound_keys("<kbd>j</kbd> <!-- keys: CourseSearch --> <kbd>j</kbd>").unwrap(),
        ["j on CourseSearch"]
    );
    assert!(
        unbound_keys("<kbd>5</kbd><kbd>j</kbd> <kbd>1</kbd><kbd>0</kbd><kbd>G</kbd>")
            .unwrap()
            .is_empty()
    );
    assert!(
        unbound_keys("<!-- keys: Review -->\n## A heading\n<kbd>o</kbd>").unwrap()
            == ["o on Reading"]
    );
    assert!(unbound_keys("<!-- keys: Nowhere -->").is_err());
    assert!(unbound_keys("<kbd>j").is_err());
}

#[test]
fn every_command_the_guide_names_exists() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for (file, lesson) in lessons() {
        for (what, text) in texts(&lesson) {
            for c in commands(&text) {
                seen += 1;
                if let Some(e) = command_error(&c) {
                    wrong.push(format!("{file} {what}: {c}: {e}"));
                }
            }
        }
    }
    assert!(
        seen > 20,
        "the guide names its commands as inline code ({seen} found)"
    );
    assert!(
        wrong.is_empty(),
        "commands lectern does not have:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_command_that_does_not_exist_fails() {
    assert_eq!(command_error("lectern stats --json"), None);
    assert_eq!(command_error("lectern --theme light ~/notes"), None);
    assert_eq!(
        command_error("lectern render --answers --width=72 a.json | less"),
        None
    );
    assert_eq!(command_error("lectern ~/books/rust-book"), None);
    assert!(
        command_error("lectern statz")
            .unwrap()
            .contains("`statz` is not a subcommand")
    );
    assert!(
        command_error("lectern stats --jsn")
            .unwrap()
            .contains("`--jsn`")
    );
    assert!(
        command_error("lectern --answers a.json").is_some(),
        "render's flag, not the reader's"
    );
    let found = commands("Run `lectern review` or\n```sh\nlectern lint content/\n```\n`ls`");
    assert_eq!(found, ["lectern review", "lectern lint content/"]);
}

#[test]
fn every_lesson_ends_with_an_exercise_and_a_tempting_check() {
    let lessons = lessons();
    assert!(lessons.len() >= 10, "the guide has its lessons");
    for (file, lesson) in &lessons {
        let body = str_at(lesson, "/body/text");
        let last = body.rsplit("\n## ").next().unwrap_or_default();
        assert!(
            last.starts_with("Try it now\n"),
            "{file}: the last section is the exercise"
        );
        let steps = marked_keys(last).unwrap();
        assert!(!steps.is_empty(), "{file}: the exercise has keys to press");
        let options = lesson["check"]["options"].as_array().expect("a check");
        assert!(options.len() >= 3, "{file}: at least three options");
        let right = options.iter().filter(|o| o["correct"] == true).count();
        assert_eq!(right, 1, "{file}: one right option");
        for (i, o) in options
            .iter()
            .enumerate()
            .filter(|(_, o)| o["correct"] != true)
        {
            let why = str_at(o, "/tempting");
            // A real explanation says why it looks right and why it is not:
            // more than a word or two.
            assert!(
                why.split_whitespace().count() >= 15,
                "{file}: option {i} needs a tempting explanation"
            );
        }
    }
}

#[test]
fn the_guide_lints_clean() {
    let o = lectern()
        .arg("lint")
        .arg(root().join("content"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() && said.trim().is_empty(),
        "lint of content/:\n{said}"
    );
}

/// The README's key list: the help screen's rows, as text.
fn key_list() -> String {
    let help = keymap::help();
    let col = help
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|(k, _)| k.chars().count()))
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = String::from("```text\n");
    for (screen, rows) in help.iter().filter(|(_, rows)| !rows.is_empty()) {
        if out.len() > "```text\n".len() {
            out.push('\n');
        }
        out.push_str(screen.title());
        out.push('\n');
        for (keys, what) in rows {
            let pad = col - keys.chars().count();
            out.push_str(&format!("  {keys}{}{what}\n", " ".repeat(pad)));
        }
    }
    out + "```\n"
}

/// The README's sample: the start and the check of a lesson, as
/// `lectern render` prints it.
fn sample(command: &str) -> String {
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let o = lectern().args(&args).output().unwrap();
    assert!(o.status.success(), "{command} runs");
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let check = lines
        .iter()
        .position(|l| l.starts_with("━━"))
        .expect("a check");
    let mut shown: Vec<&str> = lines[..12.min(check)].to_vec();
    shown.push("…");
    shown.extend(&lines[check..(check + 16).min(lines.len())]);
    shown.push("…");
    format!("```\n{}\n```\n", shown.join("\n"))
}

/// `text` with the part between `<!-- begin NAME -->` and `<!-- end NAME -->`
/// replaced by what `make` makes of the line before it.
fn regenerate(text: &str, name: &str, make: impl Fn(&str) -> String) -> String {
    let begin = format!("<!-- begin {name}: generated, see tests/it/guide.rs -->\n");
    let end = format!("<!-- end {name} -->");
    let a = text
        .find(&begin)
        .unwrap_or_else(|| panic!("README has {begin}"))
        + begin.len();
    let b = a + text[a..]
        .find(&end)
        .unwrap_or_else(|| panic!("README has {end}"));
    let before = text[..a - begin.len()]
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default();
    format!("{}{}{}", &text[..a], make(before), &text[b..])
}

#[test]
fn the_readme_shows_the_keymap_and_a_real_sample() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let want = regenerate(&readme, "keys", |_| key_list());
    let want = regenerate(&want, "sample", |intro| {
        let command = intro
            .split('`')
            .nth(1)
            .expect("the sample's command, in backticks");
        sample(command)
    });
    if want != readme && std::env::var_os("LECTERN_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    assert!(
        want == readme,
        "README.md is out of date (LECTERN_BLESS=1 cargo test --test it guide:: rewrites it); it should read:\n{want}"
    );
    let mut wrong = Vec::new();
    for c in commands(&readme) {
        if let Some(e) = command_error(&c) {
            wrong.push(format!("{c}: {e}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "README commands lectern does not have:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_readme_keeps_its_two_set_up_commands() {
    let readme = std::fs::read_to_string(Path::new(&root()).join("README.md")).unwrap();
    assert!(
        readme.contains("```sh\ncargo run --release\n```"),
        "runs the built-in course"
    );
    assert!(readme.contains("```sh\ncargo test\n```"), "runs the tests");
}
