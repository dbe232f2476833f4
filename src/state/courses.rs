//! The course picker of a library (several paths, or a folder of courses).

use super::Action;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Picker {
    pub cursor: usize,
}

pub enum Picked {
    Nothing,
    /// Enter on course `n`.
    Course(usize),
}

impl Picker {
    /// `None` when the picker has no use for the key.
    pub fn update(&mut self, a: &Action, courses: usize) -> Option<Picked> {
        match a {
            Action::LineDown => self.cursor = (self.cursor + 1).min(courses.saturating_sub(1)),
            Action::LineUp => self.cursor = self.cursor.saturating_sub(1),
            Action::Top => self.cursor = 0,
            Action::Bottom => self.cursor = courses.saturating_sub(1),
            Action::Open => return Some(Picked::Course(self.cursor)),
            _ => return None,
        }
        Some(Picked::Nothing)
    }
}
