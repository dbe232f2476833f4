//! The table of contents: modules, lessons, read and answered marks.

use crate::model::LessonStatus;
use crate::model::drill;
use crate::state::{
    Geometry, State, TocRow, contents_area, contents_cursor_row, contents_offset_at, rows_of,
};
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub fn draw(f: &mut Frame, s: &State, g: &Geometry, theme: &Theme) {
    let a = contents_area(g, s.size);
    let inner = Rect::new(a.x, a.y, a.width, a.height);
    let outer = Rect::new(
        inner.x.saturating_sub(1),
        inner.y.saturating_sub(1),
        inner.width + 2,
        inner.height + 2,
    );
    f.render_widget(Clear, outer);
    let course = s.course();
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" Contents · {} ", course.title))
        .title_bottom(legend(inner.width))
        .title_style(theme.accent());
    f.render_widget(block, outer);
    let rows = rows_of(s);
    let modules = course.modules();
    let visible = usize::from(inner.height);
    let at = contents_cursor_row(&s.contents);
    let off = contents_offset_at(&rows, at, visible);
    let w = usize::from(inner.width);
    let lines: Vec<Line> = rows
        .iter()
        .skip(off)
        .take(visible)
        .map(|row| match *row {
            TocRow::Module(m) => {
                let title = match &modules[m].module {
                    Some(md) if !md.title.is_empty() => format!("{}. {}", md.index, md.title),
                    Some(md) => format!("Module {}", md.index),
                    None => "Lessons".to_string(),
                };
                Line::styled(super::chrome::fit(&title, w), theme.accent())
            }
            TocRow::Heading(h) => heading_row(s, h, at == TocRow::Heading(h), w, theme),
            TocRow::Lesson(i) => {
                let l = &course.lessons[i];
                let p = s.library.progress.get(&l.slug);
                let read = if p.is_some_and(|p| p.read) {
                    "✓"
                } else {
                    " "
                };
                let broken = l.status != LessonStatus::Ok && !l.status.is_unwritten();
                let (check, count) = marks(broken, p, s.prefs.stuck_after);
                let title = if l.status == LessonStatus::Ok {
                    l.title.clone()
                } else if l.status.is_unwritten() {
                    format!("{} (not yet written)", l.title)
                } else {
                    format!("{} (broken)", l.title)
                };
                let text = row_text(&format!(" {read}{check} {title}"), &count, w);
                let mut style = theme.style(crate::layout::Role::Text.into());
                if i == s.reader.lesson {
                    style = theme.accent();
                }
                if l.status.is_unwritten() {
                    style = theme.style(crate::layout::Role::Dim.into());
                } else if l.status != LessonStatus::Ok {
                    style = theme.style(crate::layout::Role::Error.into());
                }
                if at == TocRow::Lesson(i) && s.contents.focused {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                Line::from(Span::styled(text, style))
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// What the marks mean, as much as fits: a broken lesson also says so
/// in its own row, so its mark is the one left out when narrow.
fn legend(width: u16) -> &'static str {
    const FULL: &str = " ✓read ★first try ✗wrong ⚑stuck !broken ";
    if usize::from(width) >= crate::layout::wrap::width(FULL) {
        FULL
    } else {
        " ✓read ★first try ✗wrong ⚑stuck "
    }
}

/// A lesson's check mark (★ every check right at the first try, ✗ one
/// wrong, ⚑ one stuck, ! broken) and, for a lesson of several checks, how
/// many are answered in their round: "2/3", "3/3 ✓" once complete.
fn marks(
    broken: bool,
    p: Option<&crate::model::LessonProgress>,
    stuck_after: u32,
) -> (&'static str, String) {
    if broken {
        return ("!", String::new());
    }
    let Some(p) = p else {
        return (" ", String::new());
    };
    let answered = p.answered(p.checks.keys().map(String::as_str));
    let firsts: Vec<bool> = p
        .checks
        .values()
        .filter_map(|c| c.first_try_correct)
        .collect();
    let total = p.check_count.map_or(answered, |n| n as usize).max(answered);
    let stuck = p.checks.values().any(|c| drill::stuck(c, stuck_after));
    let mark = match p.first_try_correct {
        _ if stuck => "⚑",
        _ if firsts.contains(&false) => "✗",
        _ if !firsts.is_empty() && firsts.len() >= total => "★",
        Some(false) => "✗",
        Some(true) if total <= 1 => "★",
        _ => " ",
    };
    let count = match total {
        0 | 1 => String::new(),
        n if answered >= n => format!("{answered}/{n} ✓"),
        n => format!("{answered}/{n}"),
    };
    (mark, count)
}

/// The row's text cut to `w`, with `count` at its right end.
fn row_text(text: &str, count: &str, w: usize) -> String {
    if count.is_empty() {
        return super::chrome::fit(text, w);
    }
    let room = w.saturating_sub(crate::layout::wrap::width(count) + 1);
    let left = super::chrome::fit(text, room);
    let pad = room.saturating_sub(crate::layout::wrap::width(&left));
    super::chrome::fit(&format!("{left}{} {count}", " ".repeat(pad)), w)
}

/// A heading of the open lesson, beneath it, to jump to.
fn heading_row(s: &State, h: usize, cursor: bool, w: usize, theme: &Theme) -> Line<'static> {
    let text = s
        .reader
        .doc()
        .and_then(|d| d.line(d.heading_line(h)?))
        .map(|l| l.text())
        .unwrap_or_default();
    let text = super::chrome::fit(&format!("     · {}", text.trim()), w);
    let mut style = theme.style(crate::layout::Role::Dim.into());
    if s.contents.focused && cursor {
        style = style.add_modifier(Modifier::REVERSED);
    }
    Line::from(Span::styled(text, style))
}
