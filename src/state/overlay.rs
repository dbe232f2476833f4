//! The screens over the page (overlays), each with its own state, and
//! which screen has the keys.

use super::course_search::CourseSearch;
use super::courses::Picker;
use super::help::Help;
use super::notes::{editor, list, marks, select};
use super::reader::Focus;
use super::stats::StatsView;
use super::{Screen, State, copy, links};

/// A screen over the page, with its own state.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help(Help),
    Stats(StatsView),
    Quizzes(super::quizzes::QuizBoard),
    Courses(Picker),
    CourseSearch(CourseSearch),
    Copy(copy::CopyPicker),
    Links(links::LinkPicker),
    Marks(marks::MarkPrompt),
    Select(select::Selection),
    Note(editor::NoteEditor),
    Notes(list::NotesList),
}

impl State {
    /// The screen that has the keys.
    pub fn screen(&self) -> Screen {
        match &self.overlay {
            Some(Overlay::Help(_)) => return Screen::Help,
            Some(Overlay::Stats(_)) => return Screen::Stats,
            Some(Overlay::Quizzes(_)) => return Screen::Quizzes,
            Some(Overlay::Courses(_)) => return Screen::Courses,
            Some(Overlay::CourseSearch(_)) => return Screen::CourseSearch,
            Some(Overlay::Copy(_)) => return Screen::Copy,
            Some(Overlay::Links(_)) => return Screen::Links,
            Some(Overlay::Marks(_)) => return Screen::Marks,
            Some(Overlay::Select(_)) => return Screen::Select,
            Some(Overlay::Note(_)) => return Screen::Note,
            Some(Overlay::Notes(_)) => return Screen::Notes,
            None => {}
        }
        if let Some(r) = self.active_review() {
            return if r.typing {
                Screen::Answer
            } else {
                Screen::Review
            };
        }
        if self.contents.focused {
            return Screen::Contents;
        }
        match self.reader.focus {
            Focus::Page => Screen::Reading,
            Focus::Check if self.reader.current_is_multi() => Screen::Choices,
            Focus::Check => Screen::Check,
            Focus::Answer => Screen::Answer,
            Focus::Search { .. } => Screen::Search,
        }
    }
}
