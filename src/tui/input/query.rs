//! The one question put to the terminal, after the first frame: its
//! background (OSC 11), whether it speaks kitty's graphics protocol (a
//! one-pixel query), its cell size in pixels (XTWINOPS 16), and last its
//! device attributes (DA1: sixel is attribute 4), which every terminal
//! answers, so that answer ends the wait. The first frame is drawn with
//! a guess (COLORFGBG, else dark; pictures waiting); the answer, or the
//! wait's end, decides the palette and how pictures are drawn. Inside
//! tmux the kitty query is passed through to the terminal outside, whose
//! answer may come after tmux's own DA1: a late one still counts.

use super::split::Reply;
use crate::app::Said;
use crate::config::{ImagesSetting, Settings, ThemeSetting};
use crate::model::{Graphics, Protocol};
use crate::state::pictures::Drawing;
use crate::theme::{ColorChoice, ColourEnv, Depth, Theme, ThemeKind};
use std::time::Duration;

/// Long enough for a terminal over a slow SSH link to answer; only a
/// terminal that answers nothing waits it out (keys typed meanwhile go
/// on at once: the wait holds nothing up).
pub const TIMEOUT: Duration = Duration::from_millis(500);

/// A cell's pixels when the terminal does not say (most fonts are about
/// twice as tall as wide).
pub const CELL: (u16, u16) = (8, 16);

/// What to ask, and what the environment says of the terminal.
#[derive(Debug, Clone, Default)]
pub struct Ask {
    /// The background (the theme is `auto` and there is colour).
    pub background: bool,
    pub images: Option<ImagesSetting>,
    pub env: Env,
}

/// The environment's hints about the terminal.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub tmux: bool,
    /// TERM is xterm-kitty, or KITTY_WINDOW_ID is set.
    pub kitty: bool,
    /// TERM_PROGRAM or LC_TERMINAL names a terminal with iTerm2's images.
    pub iterm: bool,
    /// A terminal whose kitty placeholders are not to be trusted
    /// (WezTerm, Konsole answer the query but draw no placeholders).
    pub no_placeholders: bool,
}

impl Env {
    pub fn read() -> Env {
        let var = |k: &str| std::env::var(k).unwrap_or_default();
        let program = var("TERM_PROGRAM");
        let iterm_like = ["iTerm.app", "WezTerm", "mintty", "vscode", "Tabby", "rio"];
        Env {
            tmux: !var("TMUX").is_empty(),
            kitty: var("TERM") == "xterm-kitty" || !var("KITTY_WINDOW_ID").is_empty(),
            iterm: iterm_like.contains(&program.as_str()) || var("LC_TERMINAL") == "iTerm2",
            no_placeholders: program == "WezTerm" || !var("KONSOLE_VERSION").is_empty(),
        }
    }
}

/// The theme for the first frame, and whether to ask the terminal its
/// background. Never asked when a theme is set, there is no colour, or
/// TERM is dumb.
pub fn first_guess(settings: &Settings) -> (Theme, bool) {
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

impl Ask {
    /// Whether there is anything to ask.
    pub fn any(&self) -> bool {
        self.background || self.images.is_some()
    }

    /// How pictures are drawn until the answer: waiting for it when it
    /// decides.
    pub fn drawing_meanwhile(&self) -> Drawing {
        match self.images {
            Some(_) => Drawing::Asking,
            None => Drawing::Cells,
        }
    }

    /// The question, in one write.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.background {
            out.extend_from_slice(b"\x1b]11;?\x1b\\");
        }
        if self.images.is_some() {
            crate::graphics::put(crate::graphics::kitty::QUERY, self.env.tmux, &mut out);
            out.extend_from_slice(b"\x1b[16t");
        }
        // Answered by every terminal, last: its answer ends the wait.
        out.extend_from_slice(b"\x1b[c");
        out
    }
}

/// What the terminal said so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answers {
    pub lightness: Option<f32>,
    pub kitty: bool,
    pub sixel: bool,
    pub cell: Option<(u16, u16)>,
    /// It answered the device attributes: it has said all it will.
    pub done: bool,
}

impl Answers {
    pub fn take(&mut self, reply: &Reply) {
        match reply {
            Reply::Osc(body) => {
                if let Some(colour) = body.strip_prefix(b"11;") {
                    self.lightness = lightness(colour).or(self.lightness);
                }
            }
            Reply::Apc(body) => {
                if body.starts_with(b"Gi=31;") {
                    self.kitty = body.ends_with(b";OK");
                }
            }
            Reply::Csi(body) => self.csi(body),
        }
    }

    fn csi(&mut self, body: &[u8]) {
        let text = String::from_utf8_lossy(body);
        if let Some(attrs) = text.strip_prefix('?').and_then(|t| t.strip_suffix('c')) {
            self.sixel = attrs.split(';').any(|a| a == "4");
            self.done = true;
        } else if let Some(size) = text.strip_prefix("6;").and_then(|t| t.strip_suffix('t')) {
            let mut it = size.split(';').map(|n| n.parse::<u16>().ok());
            if let (Some(Some(h)), Some(Some(w))) = (it.next(), it.next()) {
                self.cell = crate::tui::tty::cell_of(w, h, 1, 1).or(self.cell);
            }
        }
    }
}

/// What the reader makes of the answers (`answered`: whether the terminal
/// answered at all); `window_cell`: the cell size its window size says.
pub fn decide(ask: &Ask, a: &Answers, answered: bool, window_cell: Option<(u16, u16)>) -> Said {
    let cell = a.cell.or(window_cell);
    let env = &ask.env;
    let protocol = match ask.images {
        Some(ImagesSetting::Kitty) => Some(Protocol::Kitty),
        Some(ImagesSetting::Iterm) => Some(Protocol::Iterm),
        Some(ImagesSetting::Sixel) => Some(Protocol::Sixel),
        Some(ImagesSetting::Auto) => {
            // Nothing answered (the answer lost): the environment's word,
            // except inside tmux, whose variables may be stale.
            let kitty = a.kitty || (!answered && env.kitty && !env.tmux);
            if kitty && !env.no_placeholders {
                Some(Protocol::Kitty)
            } else if env.iterm && !env.tmux {
                Some(Protocol::Iterm)
            } else if a.sixel {
                Some(Protocol::Sixel)
            } else {
                None
            }
        }
        _ => None,
    };
    // A sixel picture is exactly its pixels: drawn at a guessed cell size
    // it would spill over the text around it.
    let protocol = protocol.filter(|p| *p != Protocol::Sixel || cell.is_some());
    let drawing = ask.images.map(|_| match protocol {
        Some(protocol) => Drawing::Graphics(Graphics {
            protocol,
            cell: cell.unwrap_or(CELL),
        }),
        None => Drawing::Cells,
    });
    Said {
        dark: a.lightness.map(|l| l <= 0.5),
        drawing,
    }
}

/// `rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits each; `rgba:` too) as
/// lightness.
fn lightness(colour: &[u8]) -> Option<f32> {
    let text = std::str::from_utf8(colour).ok()?;
    let body = text
        .strip_prefix("rgb:")
        .or_else(|| text.strip_prefix("rgba:"))?;
    let parts: Vec<f32> = body
        .split('/')
        .take(3)
        .map(|h| {
            let v = u32::from_str_radix(h, 16).ok()?;
            let max = 16u32.checked_pow(u32::try_from(h.len()).ok()?)? - 1;
            (1..=4).contains(&h.len()).then(|| v as f32 / max as f32)
        })
        .collect::<Option<_>>()?;
    let [r, g, b] = parts[..] else { return None };
    // Relative luminance, as colour pickers judge light and dark.
    Some(0.2126 * r + 0.7152 * g + 0.0722 * b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(replies: &[Reply]) -> Answers {
        let mut a = Answers::default();
        replies.iter().for_each(|r| a.take(r));
        a
    }

    fn auto(env: Env) -> Ask {
        Ask {
            background: true,
            images: Some(ImagesSetting::Auto),
            env,
        }
    }

    #[test]
    fn the_question_asks_everything_at_once_and_ends_with_da1() {
        let q = auto(Env::default()).bytes();
        assert_eq!(
            q,
            b"\x1b]11;?\x1b\\\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[16t\x1b[c"
        );
        let tmux = auto(Env {
            tmux: true,
            ..Env::default()
        });
        assert!(
            tmux.bytes()
                .starts_with(b"\x1b]11;?\x1b\\\x1bPtmux;\x1b\x1b_G")
        );
        let only_background = Ask {
            background: true,
            ..Ask::default()
        };
        assert_eq!(only_background.bytes(), b"\x1b]11;?\x1b\\\x1b[c");
    }

    #[test]
    fn the_answers_decide_the_palette_and_the_protocol() {
        let kitty = answered(&[
            Reply::Osc(b"11;rgb:ffff/ffff/ffff".to_vec()),
            Reply::Apc(b"Gi=31;OK".to_vec()),
            Reply::Csi(b"6;20;10t".to_vec()),
            Reply::Csi(b"?62;22c".to_vec()),
        ]);
        assert!(kitty.done && kitty.kitty);
        let said = decide(&auto(Env::default()), &kitty, true, None);
        assert_eq!(said.dark, Some(false));
        assert_eq!(
            said.drawing,
            Some(Drawing::Graphics(Graphics {
                protocol: Protocol::Kitty,
                cell: (10, 20)
            }))
        );
        // Sixel: attribute 4, and a cell size known.
        let sixel = answered(&[Reply::Csi(b"?62;4;22c".to_vec())]);
        let said = decide(&auto(Env::default()), &sixel, true, Some((9, 18)));
        assert!(
            matches!(said.drawing, Some(Drawing::Graphics(g)) if g.protocol == Protocol::Sixel && g.cell == (9, 18))
        );
        assert_eq!(
            decide(&auto(Env::default()), &sixel, true, None).drawing,
            Some(Drawing::Cells)
        );
        // A dark background; nothing to draw pictures with.
        let plain = answered(&[
            Reply::Osc(b"11;rgb:1c/1c/1c".to_vec()),
            Reply::Csi(b"?1;2c".to_vec()),
        ]);
        let said = decide(&auto(Env::default()), &plain, true, None);
        assert_eq!(
            (said.dark, said.drawing),
            (Some(true), Some(Drawing::Cells))
        );
        // A failed kitty query is no kitty.
        assert!(!answered(&[Reply::Apc(b"Gi=31;ENOTSUPPORTED:x".to_vec())]).kitty);
    }

    #[test]
    fn the_environment_counts_only_when_nothing_answered() {
        let env = Env {
            kitty: true,
            ..Env::default()
        };
        let none = Answers::default();
        let said = decide(&auto(env.clone()), &none, false, None);
        assert!(
            matches!(said.drawing, Some(Drawing::Graphics(g)) if g.protocol == Protocol::Kitty && g.cell == CELL)
        );
        // The terminal answered, but not to kitty's query: not kitty.
        let da = answered(&[Reply::Csi(b"?62c".to_vec())]);
        assert_eq!(
            decide(&auto(env.clone()), &da, true, None).drawing,
            Some(Drawing::Cells)
        );
        // Inside tmux the variables may be stale.
        let stale = Env { tmux: true, ..env };
        assert_eq!(
            decide(&auto(stale), &none, false, None).drawing,
            Some(Drawing::Cells)
        );
        let iterm = Env {
            iterm: true,
            ..Env::default()
        };
        assert!(
            matches!(decide(&auto(iterm), &da, true, None).drawing, Some(Drawing::Graphics(g)) if g.protocol == Protocol::Iterm)
        );
        // Set: as set, whatever was said.
        let set = Ask {
            images: Some(ImagesSetting::Kitty),
            ..Ask::default()
        };
        assert!(
            matches!(decide(&set, &none, false, None).drawing, Some(Drawing::Graphics(g)) if g.protocol == Protocol::Kitty)
        );
    }

    #[test]
    fn colours_in_any_width_are_read() {
        assert!(lightness(b"rgb:ffff/ffff/ffff").unwrap() > 0.99);
        assert!(lightness(b"rgb:1c/1c/1c").unwrap() < 0.2);
        assert!(lightness(b"rgba:0/0/0/f").unwrap() < 0.01);
        assert_eq!(lightness(b"rgb:12345/0/0"), None);
        assert_eq!(lightness(b"cmy:0/0/0"), None);
    }
}
