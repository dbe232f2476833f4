//! The terminal's real background. The first frame is drawn with the
//! best guess (COLORFGBG, else dark); the terminal is then asked (OSC 11)
//! and the next frame follows its answer. Never asked when a theme is
//! set, there is no colour, or TERM is dumb.
//!
//! On Linux the query is lectern's own, not terminal-colorsaurus's (used
//! elsewhere): colorsaurus drops whatever arrives before the answer, so
//! keys typed ahead of the first frame (a pager habit, and common over
//! SSH) were lost, and the answer then failed to parse. Here those keys
//! are handed on to the reader as events.

use crate::config::{Settings, ThemeSetting};
use crate::theme::{ColorChoice, ColourEnv, Depth, Theme, ThemeKind};
use ratatui::crossterm::event::Event;
use std::time::Duration;

mod reply;

/// Long enough for a terminal over a slow SSH link to answer: an answer
/// that came after the wait would reach the key reader as keys. Every
/// common terminal answers the device-attributes query sent after OSC 11
/// (whether or not it knows OSC 11), which ends the wait at once; only a
/// silent one waits it out, and keys typed meanwhile are kept.
const TIMEOUT: Duration = Duration::from_millis(500);

/// The theme for the first frame, and whether to ask the terminal.
pub(super) fn first_guess(settings: &Settings) -> (Theme, bool) {
    let env = ColourEnv::from_env();
    let depth = crate::theme::depth(env, true, ColorChoice::Auto, settings.truecolor.value);
    let kind = settings
        .theme
        .value
        .kind()
        .unwrap_or_else(ThemeKind::detect);
    let ask = settings.theme.value == ThemeSetting::Auto && depth != Depth::None && !env.dumb;
    (Theme::for_depth(kind, depth), ask)
}

fn kind(lightness: f32) -> ThemeKind {
    if lightness > 0.5 {
        ThemeKind::Light
    } else {
        ThemeKind::Dark
    }
}

/// Dark or light, as the terminal says (`None` if it does not say), and
/// the keys typed meanwhile.
#[cfg(target_os = "linux")]
pub(super) fn ask() -> (Option<ThemeKind>, Vec<Event>) {
    use std::io::{Read, Write};
    let Ok(mut tty) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
    else {
        return (None, Vec::new());
    };
    // The background, then device attributes, which every terminal
    // answers: its answer ends the wait.
    if tty
        .write_all(b"\x1b]11;?\x1b\\\x1b[c")
        .and_then(|_| tty.flush())
        .is_err()
    {
        return (None, Vec::new());
    }
    let deadline = std::time::Instant::now() + TIMEOUT;
    let mut got = Vec::new();
    let mut chunk = [0u8; 256];
    while !reply::answered(&got) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() || !readable(&tty, left) {
            break;
        }
        match tty.read(&mut chunk) {
            Ok(n @ 1..) => got.extend_from_slice(&chunk[..n]),
            _ => break,
        }
    }
    let reply = reply::split(&got);
    (reply.lightness.map(kind), reply::keys(&reply.rest))
}

/// Whether `tty` has bytes to read within `wait`. A timeout and an error
/// (an interrupting signal included) alike end the wait for the answer.
#[cfg(target_os = "linux")]
fn readable(tty: &std::fs::File, wait: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let Ok(timeout) = Timespec::try_from(wait) else {
        return false;
    };
    let mut fds = [PollFd::new(tty, PollFlags::IN)];
    rustix::event::poll(&mut fds, Some(&timeout)).is_ok_and(|ready| ready > 0)
}

#[cfg(not(target_os = "linux"))]
pub(super) fn ask() -> (Option<ThemeKind>, Vec<Event>) {
    let mut options = terminal_colorsaurus::QueryOptions::default();
    options.timeout = TIMEOUT;
    let bg = terminal_colorsaurus::background_color(options).ok();
    (bg.map(|c| kind(c.perceived_lightness())), Vec::new())
}
