//! `lectern stats [PATH]`: each course's progress and reviews as text.

use super::target::{Target, resolve};
use crate::cli::Common;
use crate::layout::Line;
use crate::stats::{course_lines, review_lines, reviews};
use crate::store::Store;
use std::path::Path;

pub(super) fn run(path: Option<&Path>, common: &Common) -> super::Outcome {
    let counting = crate::loader::progress::on_stderr("reading the course");
    let target = resolve(path)?;
    drop(counting);
    let courses = match target {
        Target::Courses(c) => c,
        Target::Lesson(o) => {
            let p = o.path().map(Path::to_path_buf).unwrap_or_default();
            crate::loader::open_paths(&[p])?.courses
        }
    };
    let dir = Store::data_dir(common.data_dir.as_deref());
    let mut store = Store::open(dir.as_deref());
    let mut out = String::new();
    let width = 80;
    for (i, course) in courses.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let progress = store.course_progress(&course.slug);
        let mut lines = course_lines(course, &progress, width);
        lines.push(Line::default());
        lines.extend(review_lines(&reviews(&store, course), width));
        crate::render::write_lines(&mut out, &lines, None);
    }
    crate::out::stdout(&out)?;
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    Ok(())
}
