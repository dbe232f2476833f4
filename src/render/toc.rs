//! A course's table of contents: modules, lessons in position order,
//! reading minutes, and broken lessons marked as such.

use crate::layout::{BOLD, Line, Role, Span, Style, wrap};
use crate::model::{Course, LessonStatus};

/// A title on its one line of the contents: a newline a lesson's title
/// may hold is a space here.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\t'], " ")
}

pub(crate) fn toc(course: &Course, width: u16) -> Vec<Line> {
    let w = usize::from(width).max(1);
    let mut out = Vec::new();
    let text = |out: &mut Vec<Line>, s: &str, style: Style, indent: usize| {
        let indent = indent.min(w / 2);
        for spans in wrap::wrap(&[(s, style)], w - indent) {
            let mut line = vec![Span::new(" ".repeat(indent), Role::Text)];
            line.extend(spans);
            out.push(Line { spans: line });
        }
    };
    text(
        &mut out,
        &course.title,
        Style::new(Role::Title).with(BOLD),
        0,
    );
    let n = course.lessons.len();
    let summary = format!(
        "{n} lesson{} · {} min",
        if n == 1 { "" } else { "s" },
        course.total_minutes()
    );
    text(&mut out, &summary, Style::new(Role::Meta), 0);
    for m in course.modules() {
        out.push(Line::default());
        let title = match &m.module {
            Some(md) if !md.title.is_empty() => format!("Module {}: {}", md.index, md.title),
            Some(md) => format!("Module {}", md.index),
            None => "Lessons".to_string(),
        };
        text(&mut out, &title, Style::new(Role::Heading(2)).with(BOLD), 0);
        for &i in &m.lessons {
            let l = &course.lessons[i];
            let pos = l
                .position
                .map_or_else(|| "  -".to_string(), |p| format!("{p:>3}"));
            let line = match &l.status {
                LessonStatus::Ok => {
                    let min = l.minutes.map_or(String::new(), |m| format!(" ({m} min)"));
                    format!("{pos}. {}{min}", one_line(&l.title))
                }
                s if s.is_unwritten() => {
                    format!("{pos}. {} (not yet written)", one_line(&l.title))
                }
                LessonStatus::Broken(msg) => {
                    format!("{pos}. ✘ broken: {} ({msg})", one_line(&l.title))
                }
            };
            let style = match &l.status {
                LessonStatus::Ok => Style::new(Role::Text),
                s if s.is_unwritten() => Style::new(Role::Dim),
                LessonStatus::Broken(_) => Style::new(Role::Error),
            };
            text(&mut out, &line, style, 2);
        }
    }
    out
}
