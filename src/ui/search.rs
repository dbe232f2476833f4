//! The course-wide search overlay: the query and matching lessons.

use super::chrome::fit;
use super::overlay::boxed;
use crate::state::{CourseSearch, State};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, area: Rect, s: &State, cs: &CourseSearch, theme: &Theme) {
    let inner = boxed(f, area, 90, area.height, "Search the course", theme);
    let w = usize::from(inner.width);
    let mut lines = vec![Line::from(vec![
        Span::styled("› ", theme.accent()),
        Span::raw(format!("{}▏", cs.query)),
    ])];
    let status = match (s.library.index_ready, cs.query.trim().is_empty()) {
        (false, _) => "Indexing the course…".to_string(),
        (true, true) => "Type to search every lesson of the course.".to_string(),
        (true, false) if cs.results.len() >= crate::state::COURSE_HITS => {
            format!(
                "{} or more lessons match; the first {} in course order:",
                cs.results.len(),
                cs.results.len()
            )
        }
        (true, false) => format!("{} lesson(s) match", cs.results.len()),
    };
    lines.push(Line::styled(
        status,
        theme.style(crate::layout::Role::Dim.into()),
    ));
    let course = s.course();
    let per = 2;
    let room = usize::from(inner.height).saturating_sub(2) / per;
    let first = cs.cursor.saturating_sub(room.saturating_sub(1));
    for (i, hit) in cs.results.iter().enumerate().skip(first).take(room) {
        let title = course
            .lessons
            .get(hit.lesson)
            .map_or("?", |l| l.title.as_str());
        let mut style = theme.accent();
        if i == cs.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(
            fit(&format!("{title} ({})", hit.count), w),
            style,
        ));
        lines.push(Line::raw(fit(&format!("  {}", hit.snippet), w)));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
