//! Other machines' changes, merged into the store while the reader runs
//! (see `lectern sync`): the footer says what came, and the screens that
//! show progress read it again, the page staying where it is.

use std::collections::HashMap;

use super::{Effect, Focus, Overlay, State};
use crate::model::{CheckState, LessonProgress, SyncNews};

/// A merge brought `news`: what shows it is asked for again.
pub(super) fn synced(s: &mut State, news: SyncNews, fx: &mut Vec<Effect>) {
    s.notice = Some(news.said);
    let open = s.course().slug.clone();
    if news.courses.contains(&open) {
        fx.push(Effect::LoadProgress { course: open });
    }
    // Read whole again: a note deleted elsewhere goes from here too.
    if news.notes && s.reader.notes.asked {
        s.reader.notes.marks.clear();
        s.reader.notes.notes.clear();
        fx.push(Effect::LoadNotes);
    }
    match &s.overlay {
        Some(Overlay::Stats(_)) => {
            let course = s.library.courses[s.library.current].clone();
            fx.push(Effect::LoadStats { course });
            fx.push(Effect::LoadLibrary {
                open: s.library.courses.clone(),
            });
        }
        Some(Overlay::Courses(_)) => fx.push(Effect::LoadLibrary {
            open: s.library.courses.clone(),
        }),
        Some(Overlay::Quizzes(_)) => fx.push(Effect::LoadQuizzes {
            courses: s.library.courses.clone(),
            stuck_after: s.prefs.stuck_after,
        }),
        _ => {}
    }
}

/// The open course's progress after a merge: the contents' marks follow
/// it, and so do the open lesson's checks whose progress changed (not the
/// one being typed into; what the reader shows of one, kept).
pub(super) fn progress(s: &mut State, course: &str, mut fresh: HashMap<String, LessonProgress>) {
    if s.course().slug != course {
        return;
    }
    let before = std::mem::take(&mut s.library.progress);
    // What this session knows and the store may not have yet.
    for (lesson, p) in &before {
        let e = fresh.entry(lesson.clone()).or_default();
        e.read |= p.read;
        e.check_count = e.check_count.or(p.check_count);
    }
    s.library.progress = fresh;
    let Some(key) = s.shown_key() else { return };
    let (Some(doc), Some(now)) = (s.reader.doc(), s.library.progress.get(&key.lesson)) else {
        return;
    };
    let was = before.get(&key.lesson);
    let typing = (s.reader.focus == Focus::Answer).then_some(s.reader.current);
    let changed: Vec<(usize, CheckState)> = doc
        .lesson
        .checks
        .iter()
        .enumerate()
        .filter(|(k, c)| {
            Some(*k) != typing && was.and_then(|w| w.checks.get(&c.id)) != now.checks.get(&c.id)
        })
        .map(|(k, c)| {
            let one = std::slice::from_ref(c);
            (k, CheckState::all_resumed(one, now).remove(0))
        })
        .collect();
    if changed.is_empty() {
        return;
    }
    for (k, mut fresh) in changed {
        if let Some(state) = s.reader.state_mut(k) {
            fresh.revealed |= state.revealed;
            fresh.cursor = state.cursor;
            *state = fresh;
        }
    }
    s.relayout();
}
