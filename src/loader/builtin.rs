//! The course in `content/`, compiled into the binary so `lectern` with no
//! arguments always has something to show.

use super::Origin;

include!(concat!(env!("OUT_DIR"), "/builtin_lessons.rs"));

pub(super) fn get(name: &str) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

pub fn builtin_course() -> crate::model::Course {
    let origins = BUILTIN.iter().map(|(n, _)| Origin::Builtin(n)).collect();
    super::course::course_from(origins, None)
}
