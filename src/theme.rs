//! The one place semantic roles become colours. Dark and light palettes,
//! and a monochrome one (NO_COLOR) that keeps structure with bold,
//! underline and reverse.

#[cfg(test)]
mod contrast;
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
    /// [`depth()`]'s; the terminal's answer to OSC 11 is the tui's.
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
    // The dark theme's named colours follow the terminal's palette; the
    // light theme's are RGB, because palette colour 7 (light grey) or 2
    // (green) is unreadable on white in many palettes. Each meets WCAG's
    // contrast against its background (src/theme/contrast.rs).
    let (blue, purple) = (Color::Rgb(0, 70, 170), Color::Rgb(150, 0, 150));
    let (amber, rust) = (Color::Rgb(140, 90, 0), Color::Rgb(150, 60, 0));
    let (green, red) = (Color::Rgb(0, 128, 0), Color::Rgb(190, 0, 0));
    let (grey, frame, dark_grey) = (
        Color::Rgb(100, 100, 100),
        Color::Rgb(140, 140, 140),
        Color::Rgb(80, 80, 80),
    );
    // A brighter blue than palette colour 12 (4.4:1 on black).
    let light_blue = Color::Rgb(120, 140, 255);
    match role {
        Role::Text | Role::Question => None,
        Role::Title => pick(Color::LightCyan, blue),
        Role::Heading(1 | 2) => pick(Color::Cyan, blue),
        Role::Heading(_) => pick(light_blue, purple),
        Role::Meta | Role::Dim => pick(Color::DarkGray, grey),
        Role::Rule => pick(Color::DarkGray, frame),
        Role::KeyIdea => pick(Color::Yellow, amber),
        Role::Code => pick(Color::LightYellow, rust),
        Role::Kbd => pick(Color::LightMagenta, purple),
        Role::Link => pick(light_blue, blue),
        Role::Marker | Role::OptionNumber => pick(Color::Cyan, blue),
        Role::Quote | Role::Unknown => pick(Color::Gray, dark_grey),
        Role::CodeFrame | Role::FigureFrame => pick(Color::DarkGray, frame),
        Role::CodeText => pick(Color::Gray, Color::Black),
        Role::Badge => pick(Color::Yellow, amber),
        Role::Syntax(r, g, b) => Some(Color::Rgb(r, g, b)),
        Role::FigureTitle => pick(Color::LightGreen, green),
        Role::Caption => pick(Color::Gray, dark_grey),
        Role::Correct => pick(Color::LightGreen, green),
        Role::Wrong | Role::Error => pick(Color::LightRed, red),
        Role::Tempting => pick(Color::Yellow, amber),
        Role::Why => pick(Color::LightGreen, green),
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

    /// A half block of a picture: its top and bottom colours, in the
    /// colours this terminal has; none in mono (the picture stays words).
    pub fn picture(&self, top: [u8; 3], bottom: [u8; 3]) -> Option<Style> {
        if self.kind == ThemeKind::Mono {
            return None;
        }
        let rgb = |c: [u8; 3]| ratatui::style::Color::Rgb(c[0], c[1], c[2]);
        Some(self.fit(Style::default().fg(rgb(top)).bg(rgb(bottom))))
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
