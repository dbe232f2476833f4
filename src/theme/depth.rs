//! Whether to colour, and with how many colours, by the conventions
//! users of bat, ripgrep and less rely on: NO_COLOR (no-color.org),
//! CLICOLOR / CLICOLOR_FORCE (bixense.com/clicolors), TERM=dumb, and
//! COLORTERM for 24-bit colour. The variables are read by anstyle-query
//! (clap's own, already built in); the decision is a pure function of
//! them so every combination is tested.

use ratatui::style::Color;

/// `--color`: auto follows the environment; always and never override it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// What the environment says about colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColourEnv {
    /// NO_COLOR set and not empty.
    pub no_color: bool,
    /// CLICOLOR: `Some(false)` when it is `0`.
    pub clicolor: Option<bool>,
    /// CLICOLOR_FORCE set, not empty and not `0`.
    pub clicolor_force: bool,
    /// TERM is `dumb` or unset: no escape sequences understood.
    pub dumb: bool,
    /// COLORTERM is `truecolor` or `24bit`.
    pub truecolor: bool,
}

impl ColourEnv {
    pub fn from_env() -> ColourEnv {
        let force = std::env::var_os("CLICOLOR_FORCE");
        ColourEnv {
            no_color: anstyle_query::no_color(),
            clicolor: anstyle_query::clicolor(),
            clicolor_force: force.is_some_and(|v| !v.is_empty() && v != "0"),
            dumb: !anstyle_query::term_supports_color(),
            truecolor: anstyle_query::truecolor(),
        }
    }
}

/// How output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// No colour sequences at all.
    None,
    /// The xterm 256-colour palette (every terminal of the last 20 years).
    Palette,
    /// 24-bit colour, only when the terminal says it has it.
    TrueColor,
}

/// The decision. `tty`: the output is a terminal. `truecolor`: the
/// config file's setting, which overrides COLORTERM either way.
pub fn depth(env: ColourEnv, tty: bool, choice: ColorChoice, truecolor: Option<bool>) -> Depth {
    let colour = match choice {
        ColorChoice::Never => false,
        ColorChoice::Always => true,
        // The order anstream (clap's) uses: NO_COLOR beats everything the
        // environment says, CLICOLOR_FORCE colours even a pipe, CLICOLOR=0
        // turns colour off, and a terminal is coloured unless it is dumb
        // (CLICOLOR=1 asks for colour even there).
        ColorChoice::Auto if env.no_color => false,
        ColorChoice::Auto if env.clicolor_force => true,
        ColorChoice::Auto if env.clicolor == Some(false) => false,
        ColorChoice::Auto => tty && (!env.dumb || env.clicolor == Some(true)),
    };
    if !colour {
        Depth::None
    } else if truecolor.unwrap_or(env.truecolor) {
        Depth::TrueColor
    } else {
        Depth::Palette
    }
}

/// A 24-bit colour as the nearest of the xterm palette's 6×6×6 cube
/// (16-231) or grey ramp (232-255); other colours are left alone.
pub fn to_palette(c: Color) -> Color {
    let Color::Rgb(r, g, b) = c else { return c };
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let near = |v: u8| {
        (0..6)
            .min_by_key(|&i| (i32::from(LEVELS[i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let (ri, gi, bi) = (near(r), near(g), near(b));
    let dist = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let avg = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let grey_i = (avg.saturating_sub(3) / 10).min(23) as u8;
    let grey_v = 8 + 10 * grey_i;
    if dist((grey_v, grey_v, grey_v)) < dist(cube) {
        Color::Indexed(232 + grey_i)
    } else {
        Color::Indexed(16 + 36 * ri as u8 + 6 * gi as u8 + bi as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ColorChoice::{Always, Auto, Never};

    fn env(vars: &[&str]) -> ColourEnv {
        let mut e = ColourEnv::default();
        for v in vars {
            match *v {
                "NO_COLOR" => e.no_color = true,
                "CLICOLOR=0" => e.clicolor = Some(false),
                "CLICOLOR=1" => e.clicolor = Some(true),
                "CLICOLOR_FORCE" => e.clicolor_force = true,
                "TERM=dumb" => e.dumb = true,
                "COLORTERM=truecolor" => e.truecolor = true,
                other => panic!("{other}"),
            }
        }
        e
    }

    /// Every variable alone, and the combinations where they disagree,
    /// on a terminal and in a pipe.
    #[test]
    fn the_decision_table() {
        use Depth::{None as No, Palette as P, TrueColor as T};
        #[rustfmt::skip]
        let table: &[(&[&str], Depth, Depth)] = &[
            // variables                              terminal  pipe
            (&[],                                         P,  No),
            (&["NO_COLOR"],                               No, No),
            (&["CLICOLOR=0"],                             No, No),
            (&["CLICOLOR=1"],                             P,  No),
            (&["CLICOLOR_FORCE"],                         P,  P),
            (&["TERM=dumb"],                              No, No),
            (&["COLORTERM=truecolor"],                    T,  No),
            (&["NO_COLOR", "CLICOLOR_FORCE"],             No, No),
            (&["CLICOLOR=0", "CLICOLOR_FORCE"],           P,  P),
            (&["TERM=dumb", "CLICOLOR_FORCE"],            P,  P),
            (&["TERM=dumb", "CLICOLOR=1"],                P,  No),
            (&["TERM=dumb", "COLORTERM=truecolor"],       No, No),
            (&["CLICOLOR_FORCE", "COLORTERM=truecolor"],  T,  T),
            (&["NO_COLOR", "COLORTERM=truecolor"],        No, No),
            (&["NO_COLOR", "CLICOLOR=1"],                 No, No),
            (&["NO_COLOR", "CLICOLOR=0", "CLICOLOR_FORCE", "TERM=dumb", "COLORTERM=truecolor"], No, No),
        ];
        for (vars, on_tty, on_pipe) in table {
            let e = env(vars);
            assert_eq!(
                depth(e, true, Auto, None),
                *on_tty,
                "{vars:?} on a terminal"
            );
            assert_eq!(depth(e, false, Auto, None), *on_pipe, "{vars:?} in a pipe");
            // --color never and always win over every variable.
            assert_eq!(depth(e, true, Never, None), No, "{vars:?} never");
            let always = if e.truecolor { T } else { P };
            assert_eq!(depth(e, false, Always, None), always, "{vars:?} always");
        }
    }

    /// The config file's truecolor overrides COLORTERM, both ways.
    #[test]
    fn the_truecolor_setting_overrides_colorterm() {
        let plain = env(&[]);
        let tc = env(&["COLORTERM=truecolor"]);
        assert_eq!(depth(plain, true, Auto, Some(true)), Depth::TrueColor);
        assert_eq!(depth(tc, true, Auto, Some(false)), Depth::Palette);
        assert_eq!(
            depth(env(&["NO_COLOR"]), true, Auto, Some(true)),
            Depth::None
        );
    }

    #[test]
    fn the_palette_holds_the_nearest_colour() {
        assert_eq!(to_palette(Color::Rgb(0, 0, 0)), Color::Indexed(16));
        assert_eq!(to_palette(Color::Rgb(255, 255, 255)), Color::Indexed(231));
        assert_eq!(to_palette(Color::Rgb(255, 0, 0)), Color::Indexed(196));
        assert_eq!(to_palette(Color::Rgb(40, 44, 52)), Color::Indexed(236));
        assert_eq!(to_palette(Color::Rgb(128, 128, 128)), Color::Indexed(244));
        assert_eq!(to_palette(Color::Cyan), Color::Cyan);
    }
}
