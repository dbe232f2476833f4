//! The terminal's real background. The first frame is drawn with the
//! best guess (COLORFGBG, else dark); the terminal is then asked (OSC 11,
//! through terminal-colorsaurus as bat does) and the next frame follows
//! its answer. Never asked when a theme is set or there is no colour.

use crate::config::{Settings, ThemeSetting};
use crate::theme::{ColorChoice, ColourEnv, Depth, Theme, ThemeKind};
use std::time::Duration;

/// Long enough for a terminal over SSH to answer; a terminal that does
/// not know OSC 11 answers the device-attributes query sent after it at
/// once, so this is only ever waited out by a silent one.
const TIMEOUT: Duration = Duration::from_millis(150);

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

/// Dark or light, as the terminal says; `None` if it does not say.
pub(super) fn ask() -> Option<ThemeKind> {
    let mut options = terminal_colorsaurus::QueryOptions::default();
    options.timeout = TIMEOUT;
    // The background alone (not colorsaurus's theme_mode, which also
    // needs the foreground): a terminal that answers OSC 11 but not OSC 10
    // is still read.
    let bg = terminal_colorsaurus::background_color(options).ok()?;
    Some(if bg.perceived_lightness() > 0.5 {
        ThemeKind::Light
    } else {
        ThemeKind::Dark
    })
}
