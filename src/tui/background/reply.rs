//! The terminal's answer to the background query, taken apart from the
//! keys typed around it.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

pub struct Reply {
    /// The background's perceived lightness, 0 (black) to 1 (white).
    pub lightness: Option<f32>,
    /// Everything else: keys typed meanwhile.
    pub rest: Vec<u8>,
}

/// Whether the device-attributes answer (`ESC [ ? … c`), which comes
/// last, has arrived.
pub fn answered(bytes: &[u8]) -> bool {
    da1(bytes).is_some()
}

/// Where the device-attributes answer is: (start, end).
fn da1(bytes: &[u8]) -> Option<(usize, usize)> {
    let start = bytes.windows(3).position(|w| w == b"\x1b[?")?;
    let len = bytes[start + 3..]
        .iter()
        .position(|&b| !(b.is_ascii_digit() || b == b';'))?;
    let end = start + 3 + len;
    (bytes[end] == b'c').then_some((start, end + 1))
}

/// Where the OSC 11 answer is (start, end), and its colour text. Its end
/// is BEL, ESC \\ or the 8-bit ST; an answer cut short (no end before the
/// next sequence or the end of what came) still ends there: none of it may
/// be read as keys.
fn osc11(bytes: &[u8]) -> Option<(usize, usize, &[u8])> {
    let start = bytes.windows(5).position(|w| w == b"\x1b]11;")?;
    let (len, term) = osc_end(&bytes[start + 5..]);
    Some((
        start,
        start + 5 + len + term,
        &bytes[start + 5..start + 5 + len],
    ))
}

/// An OSC body's length in `body`, and its terminator's.
fn osc_end(body: &[u8]) -> (usize, usize) {
    body.iter()
        .enumerate()
        .find_map(|(i, &b)| match b {
            0x07 | 0x9c => Some((i, 1)),
            0x1b if body.get(i + 1) == Some(&b'\\') => Some((i, 2)),
            // Unterminated: the next sequence begins.
            0x1b => Some((i, 0)),
            _ => None,
        })
        .unwrap_or((body.len(), 0))
}

/// `rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits each) as lightness.
fn lightness(colour: &[u8]) -> Option<f32> {
    let text = std::str::from_utf8(colour).ok()?;
    let parts: Vec<f32> = text
        .strip_prefix("rgb:")?
        .split('/')
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

pub fn split(bytes: &[u8]) -> Reply {
    let mut rest = bytes.to_vec();
    let mut light = None;
    if let Some((s, e, colour)) = osc11(bytes) {
        light = lightness(colour);
        rest.drain(s..e);
    }
    if let Some((s, e)) = da1(&rest) {
        rest.drain(s..e);
    }
    Reply {
        lightness: light,
        rest,
    }
}

/// `bytes` without any OSC sequence (another answer, or a second one):
/// a terminal's words, never keys.
fn without_osc(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b']') {
            let (len, term) = osc_end(&bytes[i + 2..]);
            i += 2 + len + term;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn key(code: KeyCode, mods: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, mods))
}

/// Keys typed while the answer was awaited, as the key reader would have
/// read them: characters, Enter, Tab, Backspace, Esc, Ctrl+letter and the
/// arrow and paging keys, and SGR mouse reports (a wheel turned while the
/// first frame waited for the answer is a scroll, not lost). Other
/// sequences are dropped.
pub fn keys(bytes: &[u8]) -> Vec<Event> {
    let bytes = without_osc(bytes);
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let none = KeyModifiers::NONE;
    while let Some(c) = chars.next() {
        let event = match c {
            '\r' | '\n' => key(KeyCode::Enter, none),
            '\t' => key(KeyCode::Tab, none),
            '\x7f' | '\x08' => key(KeyCode::Backspace, none),
            '\x1b' if chars.peek() == Some(&'[') => {
                chars.next();
                let mut seq = String::new();
                while let Some(&n) = chars.peek() {
                    chars.next();
                    seq.push(n);
                    if ('\x40'..='\x7e').contains(&n) {
                        break;
                    }
                }
                if let Some(m) = seq.strip_prefix('<').and_then(mouse) {
                    out.push(Event::Mouse(m));
                    continue;
                }
                let code = match seq.as_str() {
                    "A" => KeyCode::Up,
                    "B" => KeyCode::Down,
                    "C" => KeyCode::Right,
                    "D" => KeyCode::Left,
                    "H" => KeyCode::Home,
                    "F" => KeyCode::End,
                    "5~" => KeyCode::PageUp,
                    "6~" => KeyCode::PageDown,
                    _ => continue,
                };
                key(code, none)
            }
            '\x1b' => key(KeyCode::Esc, none),
            '\x01'..='\x1a' => {
                let letter = char::from(b'a' + (c as u8 - 1));
                key(KeyCode::Char(letter), KeyModifiers::CONTROL)
            }
            c if c.is_control() => continue,
            c if c.is_uppercase() => key(KeyCode::Char(c), KeyModifiers::SHIFT),
            c => key(KeyCode::Char(c), none),
        };
        out.push(event);
    }
    out
}

/// An SGR mouse report's body (`b;x;yM`, or `m` for a release), as
/// crossterm reads it: 1-based cells to 0-based, modifier bits kept.
fn mouse(body: &str) -> Option<MouseEvent> {
    let (fields, release) = match body.strip_suffix('M') {
        Some(f) => (f, false),
        None => (body.strip_suffix('m')?, true),
    };
    let mut it = fields.split(';').map(|n| n.parse::<u16>().ok());
    let (b, x, y) = (it.next()??, it.next()??, it.next()??);
    let mut modifiers = KeyModifiers::NONE;
    for (bit, m) in [
        (4, KeyModifiers::SHIFT),
        (8, KeyModifiers::ALT),
        (16, KeyModifiers::CONTROL),
    ] {
        if b & bit != 0 {
            modifiers |= m;
        }
    }
    let button = match b & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        _ => MouseButton::Right,
    };
    let kind = match (b & 0b1100_0011, b & 32 != 0, release) {
        (64, _, _) => MouseEventKind::ScrollUp,
        (65, _, _) => MouseEventKind::ScrollDown,
        (66, _, _) => MouseEventKind::ScrollLeft,
        (67, _, _) => MouseEventKind::ScrollRight,
        (3, true, _) => MouseEventKind::Moved,
        (_, true, _) => MouseEventKind::Drag(button),
        (_, false, true) => MouseEventKind::Up(button),
        (_, false, false) => MouseEventKind::Down(button),
    };
    Some(MouseEvent {
        kind,
        column: x.saturating_sub(1),
        row: y.saturating_sub(1),
        modifiers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_taken_out_and_the_keys_kept() {
        let got = b"j\x1b]11;rgb:ffff/ffff/ffff\x1b\\ \x1b[?62;22c";
        assert!(answered(got));
        let r = split(got);
        assert!(r.lightness.unwrap() > 0.99);
        assert_eq!(r.rest, b"j ");
        let dark = split(b"\x1b]11;rgb:1c/1c/1c\x07\x1b[?1;2c");
        assert!(dark.lightness.unwrap() < 0.2);
        assert!(dark.rest.is_empty());
        // A terminal that does not know OSC 11 answers only the second.
        let none = split(b"\x1b[?62c");
        assert_eq!(none.lightness, None);
        assert!(!answered(b"\x1b]11;rgb:ffff/ffff/ffff\x07"));
    }

    #[test]
    fn an_answer_cut_short_or_ended_otherwise_is_no_keys() {
        // The 8-bit ST.
        let r = split(b"\x1b]11;rgb:1c1c/1c1c/1c1c\x9c\x1b[?62c");
        assert!(r.lightness.unwrap() < 0.2);
        assert!(keys(&r.rest).is_empty());
        // Unterminated, then device attributes.
        let r = split(b"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b[?62c");
        assert!(keys(&r.rest).is_empty(), "{:?}", keys(&r.rest));
        // After the device attributes, and a second answer.
        let r = split(b"j\x1b[?62c\x1b]11;rgb:1c1c/1c1c/1c1c\x07\x1b]10;rgb:0/0/0\x07k");
        let k = |c| key(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(keys(&r.rest), [k('j'), k('k')]);
    }

    #[test]
    fn typed_keys_become_key_events() {
        let k = |c| key(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(
            keys(b"jG\r\x1b[B\x03\x1b"),
            [
                k('j'),
                key(KeyCode::Char('G'), KeyModifiers::SHIFT),
                key(KeyCode::Enter, KeyModifiers::NONE),
                key(KeyCode::Down, KeyModifiers::NONE),
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
                key(KeyCode::Esc, KeyModifiers::NONE),
            ]
        );
        let wheel = keys(b"\x1b[<65;10;12M\x1b[<0;3;4M\x1b[<0;3;4m\x1b[<99x");
        let kinds: Vec<_> = wheel
            .iter()
            .map(|e| match e {
                Event::Mouse(m) => (m.kind, m.column, m.row),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (MouseEventKind::ScrollDown, 9, 11),
                (MouseEventKind::Down(MouseButton::Left), 2, 3),
                (MouseEventKind::Up(MouseButton::Left), 2, 3),
            ],
            "mouse reports kept, a broken one dropped"
        );
    }
}
