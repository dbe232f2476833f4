//! The learner's library in the store: every course opened, by slug, with
//! where it lives; a course that moved keeps its progress, one whose folder
//! is gone is kept and said to be gone.

use chrono::{DateTime, Duration, TimeZone, Utc};
use lectern::model::{Change, LessonKey};
use lectern::store::Store;
use std::path::Path;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

/// A course of 4 lessons in `root`, opened at `at`.
fn shelved(slug: &str, title: &str, root: &Path, at: DateTime<Utc>) -> Change {
    Change::Remember {
        slug: slug.into(),
        title: title.into(),
        root: Some(root.to_path_buf()),
        lessons: 4,
        at: Some(at),
    }
}

#[test]
fn two_courses_are_remembered_most_recent_first() {
    let data = tempfile::tempdir().unwrap();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut s = Store::open(Some(data.path()));
    s.apply(&shelved("alpha", "Alpha", a.path(), t0()));
    s.apply(&shelved(
        "beta",
        "Beta",
        b.path(),
        t0() + Duration::hours(1),
    ));
    s.apply(&Change::option_attempt(
        "alpha",
        "one",
        1,
        false,
        false,
        t0(),
    ));
    drop(s);

    let s = Store::open(Some(data.path()));
    let lib = s.library();
    let slugs: Vec<&str> = lib.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(slugs, ["beta", "alpha"]);
    assert_eq!(lib[1].root.as_deref(), Some(a.path()));
    assert_eq!((lib[1].title.as_str(), lib[1].lessons), ("Alpha", 4));
    assert!(lib.iter().all(|c| !c.is_gone()));
    // Reading an older course again brings it to the front.
    drop(s);
    let mut s = Store::open(Some(data.path()));
    s.apply(&shelved(
        "alpha",
        "Alpha",
        a.path(),
        t0() + Duration::hours(2),
    ));
    assert_eq!(s.library()[0].slug, "alpha");
    drop(s);
    assert_eq!(Store::last_course(data.path()).unwrap().slug, "alpha");
}

#[test]
fn a_course_that_moved_keeps_its_progress() {
    let data = tempfile::tempdir().unwrap();
    let (old, new) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut s = Store::open(Some(data.path()));
    s.apply(&shelved("alpha", "Alpha", old.path(), t0()));
    s.apply(&Change::Read {
        key: LessonKey::new("alpha", "one"),
    });
    s.apply(&Change::option_attempt(
        "alpha",
        "one",
        0,
        true,
        false,
        t0(),
    ));
    // Opened again from somewhere else: same slug, new place.
    s.apply(&shelved(
        "alpha",
        "Alpha",
        new.path(),
        t0() + Duration::days(1),
    ));
    let lib = s.library();
    assert_eq!(lib.len(), 1);
    assert_eq!(lib[0].root.as_deref(), Some(new.path()));
    let p = s.progress("alpha", "one");
    assert!(p.read);
    assert_eq!(p.first_try_correct, Some(true));
}

#[test]
fn a_course_whose_folder_is_deleted_is_kept_and_said_to_be_gone() {
    let data = tempfile::tempdir().unwrap();
    let course = tempfile::tempdir().unwrap();
    let root = course.path().to_path_buf();
    let mut s = Store::open(Some(data.path()));
    s.apply(&shelved("alpha", "Alpha", &root, t0()));
    s.apply(&Change::option_attempt(
        "alpha",
        "one",
        2,
        false,
        false,
        t0(),
    ));
    drop(course);
    assert!(!root.exists());
    let lib = s.library();
    assert_eq!(lib.len(), 1);
    assert!(lib[0].is_gone());
    assert_eq!(
        s.progress("alpha", "one").attempts,
        1,
        "its progress is kept"
    );
    // The built-in course has no folder to lose.
    s.apply(&Change::Remember {
        slug: "lectern-guide".into(),
        title: "Guide".into(),
        root: None,
        lessons: 11,
        at: Some(t0() + Duration::hours(1)),
    });
    assert!(!s.library()[0].is_gone());
}

#[test]
fn an_outline_keeps_the_lesson_count_it_had() {
    let data = tempfile::tempdir().unwrap();
    let a = tempfile::tempdir().unwrap();
    let mut s = Store::open(Some(data.path()));
    s.apply(&shelved("alpha", "Alpha", a.path(), t0()));
    let mut outline = shelved("alpha", "Alpha", a.path(), t0() + Duration::hours(1));
    if let Change::Remember { lessons, .. } = &mut outline {
        *lessons = 0;
    }
    s.apply(&outline);
    assert_eq!(s.library()[0].lessons, 4);
}

#[test]
fn no_file_means_no_last_course() {
    let data = tempfile::tempdir().unwrap();
    assert!(Store::last_course(data.path()).is_none());
    drop(Store::open(Some(data.path())));
    assert!(Store::last_course(data.path()).is_none());
}
