//! A lesson read, as the state takes it.

use crate::model::{Diagnostic, Lesson};
use crate::state::{Msg, Opened, State};

/// Lesson `index`, loaded, with its progress: read once when the course
/// opened and kept current by the state, so no query per lesson.
pub(super) fn opened(s: &State, index: usize, lesson: Result<Lesson, Diagnostic>) -> Msg {
    let progress = match &lesson {
        Ok(l) => s
            .library
            .progress
            .get(&l.meta.slug)
            .cloned()
            .unwrap_or_default(),
        Err(_) => Default::default(),
    };
    Msg::Loaded(Box::new(Opened {
        index,
        lesson,
        progress,
    }))
}
