//! `lectern reset PATH`: a new round of the checks of a chapter (a lesson
//! file) or of every chapter of a course (a folder, a book). Nothing is
//! deleted: the page shows the checks unanswered again, the next answer
//! to each is the round's first try, and the first round's score and
//! every attempt stay in the store and the stats.

use super::target::{Target, resolve};
use crate::cli::Common;
use crate::model::{Change, Course};
use crate::store::Store;
use std::path::Path;

pub(super) fn run(path: &Path, common: &Common) -> super::Outcome {
    let counting = crate::loader::progress::on_stderr("reading the course");
    let chosen: Vec<(Course, Vec<String>)> = match resolve(Some(path), &counting)? {
        Target::Courses(courses) => courses
            .into_iter()
            .map(|c| {
                let all = c.lessons.iter().map(|l| l.slug.clone()).collect();
                (c, all)
            })
            .collect(),
        Target::Lesson(origin) => {
            let file = origin.path().map(Path::to_path_buf).unwrap_or_default();
            let courses = crate::loader::open_paths_with_progress(&[file], &counting)?.courses;
            courses
                .into_iter()
                .filter_map(|c| {
                    let lesson = c.lessons.iter().find(|l| l.origin == origin)?.slug.clone();
                    Some((c, vec![lesson]))
                })
                .collect()
        }
    };
    drop(counting);
    if chosen.iter().all(|(_, lessons)| lessons.is_empty()) {
        return Err(format!("{}: no chapter to start again", path.display()).into());
    }
    let dir = Store::data_dir(common.data_dir.as_deref());
    let mut store = Store::open(dir.as_deref());
    let mut out = String::new();
    for (course, lessons) in chosen.into_iter().filter(|(_, l)| !l.is_empty()) {
        let n = lessons.len();
        store.apply(&Change::Reset {
            course: course.slug.clone(),
            lessons,
            at: None,
        });
        let what = if n == 1 {
            "1 chapter".to_string()
        } else {
            format!("{n} chapters")
        };
        out.push_str(&format!(
            "{}: a new round of the checks of {what}; first-try scores and attempts kept.\n",
            crate::model::sanitize::clean(&course.title)
        ));
    }
    crate::out::stdout(&out)?;
    // A store that refuses the write keeps it in its journal, and says so.
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    Ok(())
}
