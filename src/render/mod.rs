//! `lectern render`: a lesson (or a course's table of contents) printed as
//! styled text that fits a width.

mod ansi;
mod links;
mod pictures;
mod toc;

pub use ansi::write_lines;
pub use links::targets as link_targets;
pub use pictures::Printed;
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

/// Where the page's printing stops for something laid out apart.
enum Stop<'a> {
    Check(usize),
    Picture(&'a layout::PicturePlace, Printed),
}

/// Each check at its anchor: before the page line its block starts at;
/// each picture (when printed) over the rows kept for it. In page order.
fn stops<'a>(
    lesson: &Lesson,
    page: &'a layout::Page,
    pictures: Option<Printed>,
) -> Vec<(usize, Stop<'a>)> {
    let mut placed: Vec<(usize, Stop)> = lesson
        .checks
        .iter()
        .enumerate()
        .filter_map(|(k, c)| Some((layout::anchor_line(page, lesson, c.anchor)?, Stop::Check(k))))
        .collect();
    if let Some(how) = pictures {
        let at = page
            .pictures
            .iter()
            .map(|p| (p.line, Stop::Picture(p, how)));
        placed.extend(at);
    }
    placed.sort_by_key(|(at, stop)| (*at, matches!(stop, Stop::Picture(..))));
    placed
}

pub fn lesson(lesson: &Lesson, opts: &Options) -> String {
    lesson_showing(lesson, opts, false)
}

/// [`lesson`], with rust examples' hidden lines shown when `hidden`.
pub fn lesson_showing(lesson: &Lesson, opts: &Options, hidden: bool) -> String {
    lesson_printed(lesson, opts, hidden, None)
}

/// [`lesson_showing`], with its pictures printed as `pictures` says
/// (`lectern render --images` on a terminal that can show them); `None`:
/// each is its words and its file.
pub fn lesson_printed(
    lesson: &Lesson,
    opts: &Options,
    hidden: bool,
    pictures: Option<Printed>,
) -> String {
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
    code.pictures = pictures.is_some();
    let page = layout::page(lesson, opts.width, &code);
    let count = lesson.checks.len();
    let placed = stops(lesson, &page, pictures);
    let mut out = String::with_capacity(page.lines.len() * 64);
    let mut from = 0;
    for (at, stop) in placed {
        ansi::write_page(
            &mut out,
            &page.lines,
            from..at.max(from),
            opts.theme.as_ref(),
        );
        from = from.max(at);
        match stop {
            Stop::Check(k) => {
                let view = CheckView {
                    reveal: opts.answers,
                    index: k,
                    count,
                    printed: true,
                    ..CheckView::default()
                };
                let unanswered = CheckState::default();
                let check =
                    layout::check_lines(&lesson.checks[k], opts.width, &unanswered, view, &code);
                write_lines(&mut out, &check.lines, opts.theme.as_ref());
            }
            Stop::Picture(place, how) => {
                if let Some(drawn) = pictures::picture(place, how) {
                    out.push_str(&drawn);
                    from = at + usize::from(place.rows);
                }
            }
        }
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
