//! `lectern render`: a lesson (or a course's table of contents) printed as
//! styled text that fits a width.

mod ansi;
mod links;
mod toc;

pub use ansi::write_lines;
pub use links::targets as link_targets;
pub(crate) use toc::toc;

use crate::layout::{self, CheckMarks, Highlights};
use crate::model::Lesson;
use crate::theme::Theme;

pub struct Options {
    pub width: u16,
    /// `None` prints plain text with no escape sequences at all.
    pub theme: Option<Theme>,
    pub answers: bool,
}

pub fn lesson(lesson: &Lesson, opts: &Options) -> String {
    lesson_showing(lesson, opts, false)
}

/// [`lesson`], with rust examples' hidden lines shown when `hidden`.
pub fn lesson_showing(lesson: &Lesson, opts: &Options, hidden: bool) -> String {
    let mut code = match &opts.theme {
        Some(t) if crate::highlight::lesson_wants(lesson) => {
            crate::highlight::highlight_lesson(lesson, t.kind.is_dark())
        }
        _ => Highlights::default(),
    };
    code.plain = opts.theme.is_none();
    code.show_hidden = hidden;
    let page = layout::page(lesson, opts.width, &code);
    let marks = CheckMarks {
        revealed: opts.answers,
        ..CheckMarks::default()
    };
    let check = layout::check_lines(lesson.check(), opts.width, &marks).lines;
    let mut out = String::with_capacity(page.lines.len() * 64);
    write_lines(&mut out, &page.lines, opts.theme.as_ref());
    write_lines(&mut out, &check, opts.theme.as_ref());
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
