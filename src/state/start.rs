//! The first state: which course and lesson the reader opens at, worked
//! out by the runtime's start-up before the terminal is drawn.

use super::library::CourseView;
use super::{Effect, Opened, Prefs, Size, State, open};
use crate::model::{Anchor, Course};

pub struct Start {
    pub courses: Vec<Course>,
    pub course: usize,
    pub lesson: usize,
    pub view: CourseView,
    /// Where in the lesson the reader left it.
    pub anchor: Option<Anchor>,
    /// The lesson to open, read already (a lesson named on the command
    /// line is read before the terminal is set up, to make its course).
    pub first: Option<Opened>,
}

impl Start {
    /// The state the reader starts from, and the work it asks for.
    pub fn state(self, size: Size, prefs: Prefs) -> (State, Vec<Effect>) {
        let mut s = State::new(self.courses, size.width, size.height);
        s.prefs = prefs;
        s.library.current = self.course;
        s.library.view = self.view;
        s.reader.pending.anchor = self.anchor;
        let mut fx = Vec::new();
        open::open(&mut s, self.lesson, &mut fx);
        if let Some(first) = self.first {
            // Taken in place of reading it again, if it is the one asked.
            let asked = matches!(fx.last(), Some(Effect::Load { origin, lesson })
                if *origin == first.origin && *lesson == first.index);
            if asked {
                fx.pop();
                open::loaded(&mut s, first, &mut fx);
            }
        }
        (s, fx)
    }
}
