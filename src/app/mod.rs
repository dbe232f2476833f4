//! The one loop ([`Session::run`]) and the one place the message loop
//! closes ([`apply`]): effects go to the runner, the messages it answers
//! with go to the state, and the effects those ask for go back to the
//! runner, until nothing is left. The terminal's runtime, the linear
//! reader and every test drive the state through it.

mod input;
mod session;
mod test_host;

pub use input::action;
pub use session::{Events, Host, Incoming, Said, Script, Session};
pub use test_host::TestHost;

use crate::effects::Runner;
use crate::state::{self, Effect, State};
use std::collections::VecDeque;

/// Carries out `fx` and what their answers ask for in turn. Returns the
/// effects that are the terminal's (mouse, suspend, clipboard, browser).
pub fn apply(s: &mut State, runner: &mut Runner, fx: Vec<Effect>) -> Vec<Effect> {
    apply_traced(s, runner, fx, &mut Vec::new())
}

/// [`apply`], noting in `seen` every effect asked for on the way, those
/// of the answers included (for tests).
pub fn apply_traced(
    s: &mut State,
    runner: &mut Runner,
    fx: Vec<Effect>,
    seen: &mut Vec<Effect>,
) -> Vec<Effect> {
    let mut terminal = Vec::new();
    let mut queue: VecDeque<Effect> = fx.into();
    loop {
        while let Some(e) = queue.pop_front() {
            seen.push(e.clone());
            if let Some(msg) = runner.carry(e, &mut terminal) {
                queue.extend(state::receive(s, msg));
            }
        }
        let Some(answer) = runner.next_inline() else {
            break;
        };
        if let Some(msg) = answer {
            queue.extend(state::receive(s, msg));
        }
    }
    terminal
}

/// Carries out the work held back (once the frame is drawn), then says
/// what the store had to say; whether that changed the state.
pub fn flush(s: &mut State, runner: &mut Runner) -> bool {
    let notice = s.notice.clone();
    let mut changed = false;
    for effect in runner.take_ready() {
        if let Some(msg) = runner.run_ready(effect) {
            changed = true;
            let fx = state::receive(s, msg);
            apply(s, runner, fx);
        }
    }
    if let Some(msg) = runner.store_notice() {
        let fx = state::receive(s, msg);
        apply(s, runner, fx);
    }
    changed || s.notice != notice
}
