//! Typing an answer into the focused check: a prompt like the search's,
//! drawn in the check itself (Backspace, Ctrl-U, Ctrl-W edit; Enter
//! submits; Esc cancels).

use super::super::reader::Focus;
use super::super::{Action, Effect, State};
use super::given;
use crate::model::{Answer, CheckKind};

/// Starts typing into the focused check, when it takes a typed answer
/// that has not been given yet.
pub(in crate::state) fn start(s: &mut State) {
    let k = s.reader.current;
    let Some(doc) = s.reader.doc() else { return };
    let (Some(check), Some(c)) = (doc.lesson.checks.get(k), doc.state(k)) else {
        return;
    };
    match &check.kind {
        CheckKind::Choice { .. } => return,
        CheckKind::Tracing { .. } if c.compiles.is_none() => {
            s.notice = Some("Does it compile? 1 for yes, 2 for no.".into());
            return;
        }
        _ => {}
    }
    if c.submitted {
        s.notice = Some("Answered: r to retry, a to reveal.".into());
        return;
    }
    s.reader.focus = Focus::Answer;
    s.notice = Some("Type your answer: Enter submits, Esc cancels.".into());
    let g = s.geometry();
    s.reader.relayout_check();
    s.reader.show_check(k, &g);
}

/// The prompt's keys while an answer is typed.
pub(in crate::state) fn update_typing(s: &mut State, a: &Action, fx: &mut Vec<Effect>) {
    let k = s.reader.current;
    let Some(c) = s.reader.state_mut(k) else {
        s.reader.focus = Focus::Page;
        return;
    };
    match a {
        a if crate::state::line_edit::edit(&mut c.typed, a) => {}
        Action::Open => return submit(s, fx),
        Action::Back => {
            c.typed.clear();
            s.reader.focus = Focus::Check;
            s.notice = Some("Answer cancelled.".into());
        }
        _ => return,
    }
    s.reader.relayout_check();
}

fn submit(s: &mut State, fx: &mut Vec<Effect>) {
    let k = s.reader.current;
    let Some(check) = s.reader.doc().and_then(|d| d.lesson.checks.get(k)) else {
        return;
    };
    let tracing = matches!(check.kind, CheckKind::Tracing { .. });
    let Some(c) = s.reader.state_mut(k) else {
        return;
    };
    if c.typed.trim().is_empty() {
        s.notice = Some("Type an answer first (Esc to leave).".into());
        return;
    }
    c.submitted = true;
    let answer = if tracing {
        Answer::Tracing {
            compiles: c.compiles.unwrap_or(true),
            text: c.typed.clone(),
        }
    } else {
        Answer::Text(c.typed.clone())
    };
    s.reader.focus = Focus::Check;
    given(s, answer, None, fx);
}
