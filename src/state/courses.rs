//! The course picker: every course of the learner's library, with its
//! progress and cards due, whether it is open in this session or not.

use super::{Action, Effect, State};
use crate::model::ShelfFigure;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Picker {
    pub cursor: usize,
    /// The open courses first, in their order, then the rest of the
    /// library; figures filled in once the store has them.
    pub rows: Vec<ShelfFigure>,
}

pub enum Picked {
    Nothing,
    /// Enter on row `n`.
    Course(usize),
}

impl Picker {
    /// The picker over the open courses, until the library arrives.
    pub fn new(s: &State) -> Picker {
        let rows = s
            .library
            .courses
            .iter()
            .map(|c| ShelfFigure {
                slug: c.slug.clone(),
                title: c.title.clone(),
                root: c.root.clone(),
                lessons: c.lessons.len(),
                ..ShelfFigure::default()
            })
            .collect();
        Picker {
            cursor: s.library.current,
            rows,
        }
    }

    /// `None` when the picker has no use for the key.
    pub fn update(&mut self, a: &Action) -> Option<Picked> {
        let last = self.rows.len().saturating_sub(1);
        match a {
            Action::LineDown => self.cursor = (self.cursor + 1).min(last),
            Action::LineUp => self.cursor = self.cursor.saturating_sub(1),
            Action::PageDown => self.cursor = (self.cursor + 10).min(last),
            Action::PageUp => self.cursor = self.cursor.saturating_sub(10),
            Action::Top => self.cursor = 0,
            Action::Bottom => self.cursor = last,
            Action::Open => return Some(Picked::Course(self.cursor)),
            _ => return None,
        }
        Some(Picked::Nothing)
    }

    /// The library as the store knows it, the cursor kept on its course.
    pub fn library(&mut self, rows: Vec<ShelfFigure>) {
        let at = self.rows.get(self.cursor).map(|r| r.slug.clone());
        self.rows = rows;
        self.cursor = at
            .and_then(|slug| self.rows.iter().position(|r| r.slug == slug))
            .unwrap_or(0);
    }
}

/// Enter on row `i`: an open course is switched to; another is read from
/// its folder first; one whose folder is gone says so.
pub(super) fn pick(s: &mut State, row: ShelfFigure, fx: &mut Vec<Effect>) {
    if let Some(i) = s.library.courses.iter().position(|c| c.slug == row.slug) {
        if i != s.library.current || s.reader.doc().is_none() {
            fx.push(switch_course(s, i));
        }
        return;
    }
    if row.gone {
        let place = row.root.as_ref().map_or(String::new(), |r| {
            crate::model::sanitize::clean_owned(&r.to_string_lossy())
        });
        s.notice = Some(format!(
            "“{}”: its folder is gone ({place}); its progress is kept for when it is back.",
            row.title
        ));
        return;
    }
    fx.push(Effect::OpenCourse {
        slug: row.slug,
        root: row.root,
    });
}

/// A course of the library read from its folder: it joins the open
/// courses and opens where the learner left it.
pub(super) fn added(s: &mut State, course: crate::model::Course, fx: &mut Vec<Effect>) {
    let i = match s.library.courses.iter().position(|c| c.slug == course.slug) {
        Some(i) => i,
        None => {
            s.library.courses.push(std::sync::Arc::new(course));
            s.library.courses.len() - 1
        }
    };
    fx.push(switch_course(s, i));
}

/// The store is asked where course `index` of the library starts.
pub(super) fn switch_course(s: &State, index: usize) -> Effect {
    Effect::SwitchCourse {
        index,
        course: s.library.courses[index].clone(),
    }
}
