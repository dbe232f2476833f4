//! A lesson read, as the state takes it.

use crate::model::{Diagnostic, Lesson};
use crate::state::{Msg, Opened, State};

/// Lesson `index`, loaded, with its progress: read once when the course
/// opened and kept current by the state, so no query per lesson.
pub(super) fn opened(
    s: &State,
    index: usize,
    mut lesson: Result<Lesson, Diagnostic>,
    seed: u64,
) -> Msg {
    if let Ok(l) = &mut lesson {
        in_teaching_order(l, seed);
    }
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

/// The lesson's choices in the learner's own order (see
/// [`crate::model::teaching_order`]), set as it is read so that the page,
/// a click and the store all see the one order.
fn in_teaching_order(lesson: &mut Lesson, seed: u64) {
    let slug = lesson.meta.slug.clone();
    for c in &mut lesson.checks {
        if let Some(order) = crate::model::teaching_order(c, seed, &format!("{slug}/{}", c.id)) {
            c.order = order;
        }
    }
}
