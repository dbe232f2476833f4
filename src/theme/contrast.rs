//! Every role of both palettes (24-bit and 256-colour) read against the
//! background its theme assumes, by WCAG 2's contrast ratio: 4.5:1 for
//! text, 3:1 for secondary text and frames (WCAG's large-text and
//! non-text minimum). The 16 named colours are measured as xterm draws
//! them; a terminal's own palette may differ, which is why the light
//! theme names its colours in RGB.

use super::{Theme, ThemeKind};
use crate::layout::{Role, Style as Sem};
use ratatui::style::Color;

/// xterm's default 16 colours.
const XTERM: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

fn rgb(c: Color) -> (u8, u8, u8) {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let named = |i: usize| XTERM[i];
    match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i @ 0..=15) => named(usize::from(i)),
        Color::Indexed(i @ 16..=231) => {
            let i = usize::from(i - 16);
            (LEVELS[i / 36], LEVELS[i / 6 % 6], LEVELS[i % 6])
        }
        Color::Indexed(i) => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => named(8),
        Color::LightRed => named(9),
        Color::LightGreen => named(10),
        Color::LightYellow => named(11),
        Color::LightBlue => named(12),
        Color::LightMagenta => named(13),
        Color::LightCyan => named(14),
        Color::White | Color::Reset => named(15),
    }
}

fn luminance(c: Color) -> f64 {
    let (r, g, b) = rgb(c);
    let lin = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

fn ratio(a: Color, b: Color) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Secondary text and decoration: what WCAG lets read at 3:1.
fn secondary(role: Role) -> bool {
    matches!(
        role,
        Role::Meta | Role::Dim | Role::Rule | Role::CodeFrame | Role::FigureFrame | Role::Caption
    )
}

const ROLES: &[Role] = &[
    Role::Text,
    Role::Title,
    Role::Meta,
    Role::KeyIdea,
    Role::Heading(1),
    Role::Heading(2),
    Role::Heading(3),
    Role::Heading(4),
    Role::Code,
    Role::Kbd,
    Role::Link,
    Role::Marker,
    Role::Quote,
    Role::CodeFrame,
    Role::CodeText,
    Role::Badge,
    Role::FigureFrame,
    Role::FigureTitle,
    Role::Caption,
    Role::Unknown,
    Role::Rule,
    Role::Question,
    Role::OptionNumber,
    Role::Correct,
    Role::Wrong,
    Role::Tempting,
    Role::Why,
    Role::Dim,
    Role::Error,
];

/// The background a theme is drawn for: black for dark, white for light.
fn background(kind: ThemeKind) -> Color {
    if kind.is_dark() {
        Color::Rgb(0, 0, 0)
    } else {
        Color::Rgb(255, 255, 255)
    }
}

fn themes() -> Vec<Theme> {
    let mut out = Vec::new();
    for kind in [ThemeKind::Dark, ThemeKind::Light] {
        for depth in [super::Depth::TrueColor, super::Depth::Palette] {
            out.push(Theme::for_depth(kind, depth));
        }
    }
    out
}

#[test]
fn every_role_reads_against_its_background() {
    let mut low = Vec::new();
    for theme in themes() {
        let bg = background(theme.kind);
        for &role in ROLES {
            // The terminal's own foreground: its choice, made for its
            // own background.
            let Some(fg) = theme.style(Sem::new(role)).fg else {
                continue;
            };
            let need = if secondary(role) { 3.0 } else { 4.5 };
            let got = ratio(fg, bg);
            if got < need {
                low.push(format!(
                    "{:?} {} {role:?}: {fg:?} {got:.2} < {need}",
                    theme.kind,
                    if theme.truecolor { "24-bit" } else { "256" }
                ));
            }
        }
    }
    assert!(low.is_empty(), "too little contrast:\n{}", low.join("\n"));
}

/// The bars and search matches bring their own background.
#[test]
fn chrome_reads_on_its_own_background() {
    for theme in themes() {
        for style in [theme.bar(), theme.matched(true), theme.matched(false)] {
            let (Some(fg), Some(bg)) = (style.fg, style.bg) else {
                panic!("{theme:?}: {style:?} has both colours");
            };
            let got = ratio(fg, bg);
            assert!(got >= 4.5, "{theme:?} {style:?}: {got:.2}");
        }
    }
}

#[test]
fn the_ratio_is_wcag_s() {
    let (black, white) = (Color::Rgb(0, 0, 0), Color::Rgb(255, 255, 255));
    assert!((ratio(black, white) - 21.0).abs() < 1e-9);
    assert!((ratio(Color::Rgb(118, 118, 118), white) - 4.54).abs() < 0.01);
    assert_eq!(rgb(Color::Indexed(16 + 36 * 5)), (255, 0, 0));
    assert_eq!(rgb(Color::Indexed(244)), (128, 128, 128));
}
