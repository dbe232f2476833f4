//! The lessons the tests read.
//!
//! The project's own lesson, `tests/fixtures/why-dough-rises.json`, holds
//! every block, figure and run kind the format defines plus the hostile
//! bits a real course may bring; it is always there, so a fresh clone
//! checks everything. The real seed lesson lives outside the crate, in
//! `../shared/seeds/`: tests about it go through [`seed`] or
//! [`with_seed`], which fail loudly under CI when it is missing and skip
//! with a note elsewhere, never silently.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

// ---- the project's own lesson -------------------------------------------

pub const FIXTURE_NAME: &str = "why-dough-rises.json";
pub const FIXTURE_SLUG: &str = "why-dough-rises";
pub const FIXTURE_TITLE: &str = "Why bread dough rises, and when it stops";
/// The fixture's course: slug and title.
pub const FIXTURE_COURSE: (&str, &str) = ("kitchen-science", "Kitchen Science");

pub fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(FIXTURE_NAME)
}

pub fn fixture() -> Vec<u8> {
    let path = fixture_path();
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn fixture_value() -> Value {
    serde_json::from_slice(&fixture()).expect("the fixture is JSON")
}

// ---- the real seed lesson -------------------------------------------------

pub const SEED_NAME: &str = "where-inference-time-goes.json";
pub const SEED_COURSE: &str = "cloud-and-shipping";
/// Overrides the folder the seed is read from, so that a missing seed can
/// be tried without moving the shared folder others use.
pub const SEED_DIR_VAR: &str = "LECTERN_SEED_DIR";

pub fn seed_path() -> PathBuf {
    let dir = match std::env::var_os(SEED_DIR_VAR) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds"),
    };
    dir.join(SEED_NAME)
}

/// Whether the tests run under CI, where skipping would hide a missing
/// input. `CI=false` and `CI=0` are how people switch it off by hand.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// The seed's bytes. When it cannot be read: a panic under CI, else a note
/// on stderr and `None`.
pub fn seed() -> Option<Vec<u8>> {
    let path = seed_path();
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) if under_ci() => panic!(
            "the seed lesson cannot be read at {} ({e}), and CI is set: the tests about \
             the real seed cannot be skipped there. Put ../shared/seeds/ beside the \
             crate or point {SEED_DIR_VAR} at a folder holding {SEED_NAME}.",
            path.display()
        ),
        Err(e) => {
            eprintln!(
                "note: seed lesson not readable at {} ({e}): this test of the seed is \
                 skipped (it would fail with CI set)",
                path.display()
            );
            None
        }
    }
}

/// Runs `test` on the seed's path and bytes, or skips as [`seed`] says.
pub fn with_seed(test: impl FnOnce(&Path, &[u8])) {
    if let Some(bytes) = seed() {
        test(&seed_path(), &bytes);
    }
}

// ---- course folders ---------------------------------------------------------

/// A lesson written for these tests, in course `course` (slug, title).
pub fn crafted_in(
    course: (&str, &str),
    slug: &str,
    title: &str,
    position: u32,
    module: (u32, &str),
    words: &str,
) -> Value {
    let blocks = vec![
        json!({"t": "h2", "id": "first", "runs": [{"text": format!("About {title}")}]}),
        json!({"t": "p", "runs": [
            {"text": format!("This lesson is made up for the tests. It mentions {words} ")},
            {"text": "twice", "b": true},
            {"text": format!(", so search has something to find: {words}.")}
        ]}),
        json!({"t": "ul", "items": [
            [{"text": "One point"}],
            [{"text": "Another point with "}, {"text": "inline code", "code": true}]
        ]}),
        json!({"t": "h2", "id": "second", "runs": [{"text": "A second heading"}]}),
        json!({"t": "p", "runs": [{"text": "A closing paragraph that is long enough to wrap \
            onto a second line on narrow screens, and then some more words."}]}),
    ];
    let (course_slug, course_title) = course;
    // How long each course says it is: the seed's has 74 lessons, the
    // fixture's 12 (the folders hold only a few of them).
    let of = if course_slug == SEED_COURSE { 74 } else { 12 };
    json!({
        "course": {"slug": course_slug, "title": course_title},
        "lesson": {"slug": slug, "title": title, "position": position, "of": of,
                   "minutes": 3, "answer": null, "keyIdea": null},
        "body": {"format": "markdown", "text": "unused: the reader tree is drawn"},
        "reader": {
            "schema": 1,
            "title": title,
            "courseTitle": course_title,
            "module": {"index": module.0, "slug": format!("module-{}", module.0),
                       "title": module.1},
            "answer": null,
            "keyIdea": null,
            "blocks": blocks,
            "check": {
                "question": [{"text": format!("Which is true of {title}?")}],
                "options": [
                    {"text": [{"text": "The true one"}], "correct": true, "tempting": null},
                    {"text": [{"text": "The false one"}], "correct": false,
                     "tempting": [{"text": "It sounds plausible."}]}
                ],
                "order": [1, 0],
                "why": [{"text": "Because the tests say so."}]
            }
        }
    })
}

/// A lesson of the seed's course, written for these tests.
pub fn crafted(slug: &str, title: &str, position: u32, module: (u32, &str), words: &str) -> Value {
    crafted_in(
        (SEED_COURSE, "Shipping It"),
        slug,
        title,
        position,
        module,
        words,
    )
}

pub const BROKEN: &str = "broken.json";

/// A neighbour written around the lesson a course folder is built on.
struct Neighbour<'a> {
    file: &'a str,
    slug: &'a str,
    title: &'a str,
    position: u32,
    module: (u32, &'a str),
    words: &'a str,
}

/// A folder holding `lesson` (as `name`), its neighbours and, when asked,
/// a truncated file of the same course.
fn course_around(
    name: &str,
    lesson: &[u8],
    course: (&str, &str),
    neighbours: &[Neighbour],
    with_broken: bool,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), lesson).unwrap();
    for n in neighbours {
        let v = crafted_in(course, n.slug, n.title, n.position, n.module, n.words);
        std::fs::write(
            dir.path().join(n.file),
            serde_json::to_string_pretty(&v).unwrap(),
        )
        .unwrap();
    }
    if with_broken {
        let head = format!("{{\n  \"course\": {{\"slug\": \"{}\",\n", course.0);
        std::fs::write(dir.path().join(BROKEN), head).unwrap();
    }
    dir
}

pub const FIXTURE_BEFORE: &str = "m-weighing-flour.json";
pub const FIXTURE_AFTER: &str = "a-salt-and-gluten.json";

/// The fixture's course folder, whose file names do not sort in course
/// order:
///
/// | file                     | position | title                            |
/// |--------------------------|----------|----------------------------------|
/// | `a-salt-and-gluten.json` | 6        | Salt and the gluten network      |
/// | `broken.json`            | none     | (truncated JSON)                 |
/// | `m-weighing-flour.json`  | 4        | Weighing flour, not measuring it |
/// | `why-dough-rises.json`   | 5        | the fixture                      |
///
/// Course order: weighing (4, module 1), fixture (5, module 2), salt (6,
/// module 3), broken.
pub fn fixture_course(with_broken: bool) -> tempfile::TempDir {
    course_around(
        FIXTURE_NAME,
        &fixture(),
        FIXTURE_COURSE,
        &[
            Neighbour {
                file: FIXTURE_BEFORE,
                slug: "weighing-flour",
                title: "Weighing flour, not measuring it",
                position: 4,
                module: (1, "Measuring, and why cups lie"),
                words: "grams",
            },
            Neighbour {
                file: FIXTURE_AFTER,
                slug: "salt-and-gluten",
                title: "Salt and the gluten network",
                position: 6,
                module: (3, "Dough structure"),
                words: "gluten",
            },
        ],
        with_broken,
    )
}
