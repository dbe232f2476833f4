//! A lesson read, as the state takes it.

use crate::loader;
use crate::model::{Lesson, Origin};
use crate::state::Opened;

/// Lesson `index` of the open course, read from `origin`, its choices in
/// the learner's order (`seed`), with its file's stamp as read.
pub(super) fn opened(index: usize, origin: Origin, seed: u64) -> Opened {
    let (mut lesson, read) = loader::load_stamped(&origin);
    if let Ok(l) = &mut lesson {
        in_teaching_order(l, seed);
    }
    Opened {
        index,
        read: read.filter(|_| lesson.is_ok()),
        origin,
        lesson,
    }
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
