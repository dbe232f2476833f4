//! The one place semantic roles become colours. Dark and light palettes,
//! and a monochrome one (NO_COLOR) that keeps structure with bold,
//! underline and reverse.

mod depth;

pub use depth::{ColorChoice, ColourEnv, Depth, depth, to_palette};

use crate::layout::{BOLD, ITALIC, REVERSE, Role, STRIKE, Style as Sem, UNDERLINE};
use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeKind {
    Dark,
    Light,
    /// No colour at all: NO_COLOR, or `--theme mono`.
    Mono,
}

impl ThemeKind {
    /// The best guess without asking the terminal: `COLORFGBG` (set by
    /// some terminals: "fg;bg"), else dark. Whether to colour at all is
    /// [`depth`]'s; the terminal's answer to OSC 11 is the tui's.
    pub fn detect() -> ThemeKind {
        Self::from_colorfgbg(std::env::var("COLORFGBG").ok().as_deref())
    }

    pub fn from_colorfgbg(v: Option<&str>) -> ThemeKind {
        let bg = v
            .and_then(|v| v.rsplit(';').next())
            .and_then(|b| b.parse::<u8>().ok());
        match bg {
            // 7 (white) and 9..=15 (bright colours) are light backgrounds.
            Some(7) | Some(9..=15) => ThemeKind::Light,
            _ => ThemeKind::Dark,
        }
    }

    pub fn is_dark(self) -> bool {
        self != ThemeKind::Light
    }
}

fn mods(m: u8) -> Modifier {
    let mut out = Modifier::empty();
    for (bit, modifier) in [
        (BOLD, Modifier::BOLD),
        (ITALIC, Modifier::ITALIC),
        (UNDERLINE, Modifier::UNDERLINED),
        (STRIKE, Modifier::CROSSED_OUT),
        (REVERSE, Modifier::REVERSED),
    ] {
        if m & bit != 0 {
            out |= modifier;
        }
    }
    out
}

/// Foreground for a role; `None` keeps the terminal's default.
fn colour(kind: ThemeKind, role: Role) -> Option<Color> {
    let dark = match kind {
        ThemeKind::Mono => return None,
        ThemeKind::Dark => true,
        ThemeKind::Light => false,
    };
    let pick = |d: Color, l: Color| Some(if dark { d } else { l });
    match role {
        Role::Text | Role::Question => None,
        Role::Title => pick(Color::LightCyan, Color::Blue),
        Role::Heading(1 | 2) => pick(Color::Cyan, Color::Blue),
        Role::Heading(_) => pick(Color::LightBlue, Color::Magenta),
        Role::Meta | Role::Dim | Role::Rule => pick(Color::DarkGray, Color::Gray),
        Role::KeyIdea => pick(Color::Yellow, Color::Rgb(140, 90, 0)),
        Role::Code => pick(Color::LightYellow, Color::Rgb(150, 60, 0)),
        Role::Kbd => pick(Color::LightMagenta, Color::Magenta),
        Role::Link => pick(Color::LightBlue, Color::Blue),
        Role::Marker | Role::OptionNumber => pick(Color::Cyan, Color::Blue),
        Role::Quote | Role::Unknown => pick(Color::Gray, Color::DarkGray),
        Role::CodeFrame | Role::FigureFrame => pick(Color::DarkGray, Color::Gray),
        Role::CodeText => pick(Color::Gray, Color::Black),
        Role::Badge => pick(Color::Yellow, Color::Rgb(140, 90, 0)),
        Role::Syntax(r, g, b) => Some(Color::Rgb(r, g, b)),
        Role::FigureTitle => pick(Color::LightGreen, Color::Green),
        Role::Caption => pick(Color::Gray, Color::DarkGray),
        Role::Correct => pick(Color::LightGreen, Color::Green),
        Role::Wrong | Role::Error => pick(Color::LightRed, Color::Red),
        Role::Tempting => pick(Color::Yellow, Color::Rgb(140, 90, 0)),
        Role::Why => pick(Color::LightGreen, Color::Green),
    }
}

/// Extra modifiers that carry structure when there is no colour.
fn mono_mods(role: Role) -> Modifier {
    match role {
        Role::Heading(_) | Role::Title => Modifier::BOLD | Modifier::UNDERLINED,
        Role::Kbd => Modifier::REVERSED,
        Role::Link => Modifier::UNDERLINED,
        Role::Code => Modifier::BOLD,
        Role::Correct | Role::Wrong | Role::Error => Modifier::BOLD,
        Role::Meta | Role::Dim => Modifier::DIM,
        _ => Modifier::empty(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub kind: ThemeKind,
    /// 24-bit colours as they are; otherwise the nearest of the 256-colour
    /// palette (COLORTERM does not say the terminal has 24-bit colour).
    pub truecolor: bool,
    /// Links on the page are OSC 8 hyperlinks (the real terminal's; a
    /// test's buffer keeps plain cells).
    pub hyperlinks: bool,
}

impl Theme {
    pub fn new(kind: ThemeKind) -> Self {
        Theme {
            kind,
            truecolor: true,
            hyperlinks: false,
        }
    }

    /// The theme for a colour depth: mono without colour, else `kind`.
    pub fn for_depth(kind: ThemeKind, depth: Depth) -> Self {
        match depth {
            Depth::None => Theme::new(ThemeKind::Mono),
            Depth::Palette => Theme {
                kind,
                truecolor: false,
                hyperlinks: false,
            },
            Depth::TrueColor => Theme::new(kind),
        }
    }

    /// A style in the colours this terminal has.
    fn fit(&self, s: Style) -> Style {
        if self.truecolor {
            return s;
        }
        Style {
            fg: s.fg.map(to_palette),
            bg: s.bg.map(to_palette),
            ..s
        }
    }

    pub fn style(&self, s: Sem) -> Style {
        let mut out = Style::default().add_modifier(mods(s.mods));
        if let Some(c) = colour(self.kind, s.role) {
            out = out.fg(c);
        }
        if self.kind == ThemeKind::Mono {
            out = out.add_modifier(mono_mods(s.role));
        }
        self.fit(out)
    }

    /// Chrome (header, footer, overlays).
    pub fn bar(&self) -> Style {
        self.fit(self.bar_colours())
    }

    fn bar_colours(&self) -> Style {
        match self.kind {
            ThemeKind::Mono => Style::default().add_modifier(Modifier::REVERSED),
            ThemeKind::Dark => Style::default().fg(Color::White).bg(Color::Rgb(40, 44, 52)),
            ThemeKind::Light => Style::default()
                .fg(Color::Black)
                .bg(Color::Rgb(225, 228, 232)),
        }
    }

    pub fn accent(&self) -> Style {
        self.style(Sem::new(Role::Title).with(BOLD))
    }

    /// A search match, visible without colour.
    pub fn matched(&self, current: bool) -> Style {
        self.fit(self.matched_colours(current))
    }

    fn matched_colours(&self, current: bool) -> Style {
        let base = Style::default().add_modifier(Modifier::REVERSED);
        match (self.kind, current) {
            (ThemeKind::Mono, true) => base.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            (ThemeKind::Mono, false) => base,
            (_, true) => Style::default()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            (_, false) => Style::default()
                .fg(Color::Black)
                .bg(Color::Rgb(150, 150, 80)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colorfgbg_detects_light_backgrounds() {
        assert_eq!(ThemeKind::from_colorfgbg(Some("0;15")), ThemeKind::Light);
        assert_eq!(ThemeKind::from_colorfgbg(Some("15;0")), ThemeKind::Dark);
        assert_eq!(
            ThemeKind::from_colorfgbg(Some("12;default;7")),
            ThemeKind::Light
        );
        assert_eq!(ThemeKind::from_colorfgbg(None), ThemeKind::Dark);
    }

    #[test]
    fn mono_has_no_colour_but_keeps_structure() {
        let t = Theme::new(ThemeKind::Mono);
        for role in [
            Role::Heading(2),
            Role::Correct,
            Role::Syntax(1, 2, 3),
            Role::Code,
        ] {
            let s = t.style(Sem::new(role));
            assert_eq!(s.fg, None);
            assert_eq!(s.bg, None);
        }
        assert!(
            t.style(Sem::new(Role::Heading(2)))
                .add_modifier
                .contains(Modifier::BOLD)
        );
    }
}
