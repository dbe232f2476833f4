//! A large course folder read for the first time: its first frame is the
//! lesson at position 1 found by a first look at the files, the folder's
//! listing read after it with its count in the footer, and the course
//! whole once that is done (`lectern::loader::first_look`).

use crate::common::LessonJson;
use crate::common::pty::{Term, find};

/// Just over the size from which a folder is looked at first.
const LESSONS: u32 = lectern::loader::first_look::LARGE as u32 + 1;

/// Lesson files whose names run opposite to their positions: reading
/// order by name would open the last lesson.
fn big_course() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for p in 1..=LESSONS {
        LessonJson::new(&format!("lesson-{p}"))
            .course("big", "A big course")
            .title(&format!("Lesson number {p}"))
            .position(p)
            .para("Short.")
            .write(dir.path(), &format!("{:05}.json", LESSONS - p));
    }
    dir
}

/// Waits for the page to show the title of lesson `p`.
fn shows(t: &Term, p: u32) {
    let title = format!("Lesson number {p}");
    t.wait_until(&title, |screen| screen.lines().any(|l| l.trim() == title));
}

#[test]
fn a_large_folder_opens_at_its_first_lesson_then_is_read_whole() {
    let course = big_course();
    let data = tempfile::tempdir().unwrap();
    let mut t = Term::spawn(&[course.path()], data.path(), 100, 30);
    shows(&t, 1);
    // Whole: the header says where the lesson stands in all of them, as
    // the first frame could not (it came before the listing).
    let whole = format!("Lesson 1 of {LESSONS}");
    t.wait_for(&whole);
    let raw = t.raw();
    let (page, header) = (find(&raw, b"Lesson number 1"), find(&raw, whole.as_bytes()));
    assert!(page < header, "the first frame waited for the listing");
    t.wait_gone("reading the course");
    t.press("]");
    shows(&t, 2);
    t.quit_cleanly();
    // Read again from the listing kept: the place, where it was left.
    let mut t = Term::spawn(&[course.path()], data.path(), 100, 30);
    shows(&t, 2);
    t.quit_cleanly();
}
