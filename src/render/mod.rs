//! `lectern render`: a lesson (or a course's table of contents) printed as
//! styled text that fits a width.

mod ansi;
mod links;
mod toc;

pub use ansi::write_lines;
pub use links::targets as link_targets;
pub(crate) use toc::toc;

use crate::layout::{self, CheckView, Highlights};
use crate::model::{CheckState, Lesson};
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
    let dark = opts.theme.as_ref().map(|t| t.kind.is_dark());
    let mut code = match dark {
        Some(dark) if crate::highlight::lesson_wants(lesson) => {
            crate::highlight::highlight_lesson(lesson, dark)
        }
        _ => Highlights::default(),
    };
    if let Some(dark) = dark {
        layout::highlight_checks(lesson, &mut code, |lang, text| {
            crate::highlight::highlight(Some(lang), text, dark)
        });
    }
    code.plain = opts.theme.is_none();
    code.show_hidden = hidden;
    // Printed text has no key to open a fold with: all of it is shown.
    code.open_folds = true;
    let page = layout::page(lesson, opts.width, &code);
    // Each check at its anchor: before the page line its block starts at.
    let count = lesson.checks.len();
    let mut placed: Vec<(usize, usize)> = lesson
        .checks
        .iter()
        .enumerate()
        .filter_map(|(k, c)| Some((layout::anchor_line(&page, lesson, c.anchor)?, k)))
        .collect();
    placed.sort_unstable();
    let mut out = String::with_capacity(page.lines.len() * 64);
    let mut from = 0;
    for (at, k) in placed {
        let view = CheckView {
            reveal: opts.answers,
            index: k,
            count,
            printed: true,
            ..CheckView::default()
        };
        let unanswered = CheckState::default();
        let check = layout::check_lines(&lesson.checks[k], opts.width, &unanswered, view, &code);
        let check = check.lines;
        ansi::write_page(&mut out, &page.lines, from..at, opts.theme.as_ref());
        write_lines(&mut out, &check, opts.theme.as_ref());
        from = at;
    }
    ansi::write_page(
        &mut out,
        &page.lines,
        from..page.lines.len(),
        opts.theme.as_ref(),
    );
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
