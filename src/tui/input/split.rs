//! What the terminal sends, split into its answers and the learner's
//! keys, byte by byte, before any of it is read as keys: an answer must
//! never become keys (an OSC 11 answer read as keys was Alt-], `1`, `1`,
//! `;`, `r`… and `1c` went to a check). Everything that is not an answer
//! goes on unchanged, to crossterm's own parser: Alt, F-keys, the kitty
//! keyboard protocol and mouse reports are its business, not ours.
//!
//! Answers are what no key sends: an OSC (`ESC ] 11 ; rgb:… ST`), kitty's
//! APC (`ESC _ G … ST`), and the CSI reports `CSI ? … c`, `CSI > … c`,
//! `CSI ? … u`, `CSI ? … $y` (a private `?` or `>` first) and `CSI … t`.
//! One that arrives in pieces (a slow link) is held until it ends; one
//! cut short (its end never comes, or another sequence begins) is
//! dropped, never passed. A lone ESC, or the start of a sequence, at the
//! end of what came is held a moment for the rest; a lone ESC that turns
//! out to be the Esc key goes on as `ESC ESC`, which crossterm reads as
//! one Esc whatever comes after it (a lone ESC written just before the
//! next key would be read with it as Alt and that key).

use std::time::{Duration, Instant};

/// How long the start of a sequence waits for the rest before it is taken
/// as keys (Esc on its own): the pieces of one key's sequence come
/// together, a person's next key far later.
const KEY_GAP: Duration = Duration::from_millis(50);
/// How long an answer begun waits for its next piece: a loaded machine or
/// a slow link delivers pieces tens or hundreds of milliseconds apart.
/// Characters that could be its body, typed this soon after it, are
/// dropped with it: never an answer given.
const BURST_GAP: Duration = Duration::from_millis(1000);
/// The longest OSC answer body taken out (`11;rgba:ffff/ffff/ffff/ffff`
/// and room to spare): past it, the rest is typed text.
const MAX_OSC: usize = 64;
/// The longest APC answer (kitty's error messages are a line).
const MAX_APC: usize = 512;
/// The longest CSI sequence looked at as one.
const MAX_CSI: usize = 64;

/// The Esc key as crossterm reads it alone, whatever follows.
const ESC_KEY: &[u8] = b"\x1b\x1b";

/// An answer taken out: its body, between introducer and terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `11;rgb:1c1c/1c1c/1c1c`.
    Osc(Vec<u8>),
    /// `Gi=31;OK`.
    Apc(Vec<u8>),
    /// Parameters and final byte: `?62;4c`, `6;20;10t`.
    Csi(Vec<u8>),
}

/// What a push or a wait's end gives: keys to pass on, answers taken out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub keys: Vec<u8>,
    pub replies: Vec<Reply>,
}

#[derive(Debug, Default)]
pub struct Split {
    /// An unfinished sequence (from its ESC), and when its last byte came.
    held: Vec<u8>,
    since: Option<Instant>,
}

/// What the bytes from an ESC are.
enum Scan {
    /// Keys: this many bytes, passed on.
    Keys(usize),
    /// An answer of this many bytes (`None`: one cut short, dropped).
    Reply(usize, Option<Reply>),
    /// Not finished: held.
    Partial,
}

impl Split {
    /// `bytes` as they came at `now`.
    pub fn push(&mut self, bytes: &[u8], now: Instant) -> Out {
        let mut buf = std::mem::take(&mut self.held);
        let lone = buf == [0x1b];
        self.since = None;
        let mut out = Out::default();
        // The Esc key held, then `]` or `_` that no answer's body follows
        // in this read, or `[` alone: Esc, then that key (Esc, then `]` for
        // the next lesson, is a person's two keys, not Alt-]).
        let opener = matches!(bytes.first(), Some(b']' | b'_')) || bytes == b"[";
        if lone && opener && !answer_begun(&[&[0x1b][..], bytes].concat()) {
            out.keys.extend_from_slice(ESC_KEY);
            buf.clear();
        }
        buf.extend_from_slice(bytes);
        let mut i = 0;
        while i < buf.len() {
            if buf[i] != 0x1b {
                out.keys.push(buf[i]);
                i += 1;
                continue;
            }
            match scan(&buf[i..]) {
                // The Esc key, held, then another key in a later read.
                Scan::Keys(1) if i == 0 && lone => {
                    out.keys.extend_from_slice(ESC_KEY);
                    i += 1;
                }
                Scan::Keys(n) => {
                    out.keys.extend_from_slice(&buf[i..i + n]);
                    i += n;
                }
                Scan::Reply(n, reply) => {
                    out.replies.extend(reply);
                    i += n;
                }
                Scan::Partial => {
                    self.held = buf[i..].to_vec();
                    self.since = Some(now);
                    break;
                }
            }
        }
        out
    }

    /// When what is held must be decided, if anything is.
    pub fn deadline(&self) -> Option<Instant> {
        let gap = if answer_begun(&self.held) {
            BURST_GAP
        } else {
            KEY_GAP
        };
        self.since.map(|t| t + gap)
    }

    /// What is held, decided if its wait is over at `now`: an answer begun
    /// is dropped, anything else is keys.
    pub fn expire(&mut self, now: Instant) -> Out {
        let mut out = Out::default();
        if self.deadline().is_some_and(|d| now >= d) {
            let held = std::mem::take(&mut self.held);
            self.since = None;
            if held == [0x1b] {
                out.keys = ESC_KEY.to_vec();
            } else if !answer_begun(&held) {
                out.keys = held;
            }
        }
        out
    }
}

/// Whether `held` is the start of an answer rather than of a key.
fn answer_begun(held: &[u8]) -> bool {
    match held {
        [0x1b, b']', d, ..] => d.is_ascii_digit(),
        [0x1b, b'_', b'G', ..] => true,
        [0x1b, b'[', p, ..] => matches!(p, b'?' | b'>'),
        _ => false,
    }
}

/// The bytes from an ESC (`s[0]`).
fn scan(s: &[u8]) -> Scan {
    match s.get(1) {
        None => Scan::Partial,
        Some(b']') => match s.get(2) {
            None => Scan::Partial,
            Some(d) if d.is_ascii_digit() => string(s, 2, MAX_OSC, osc_body, Reply::Osc),
            Some(_) => Scan::Keys(1),
        },
        Some(b'_') => match s.get(2) {
            None => Scan::Partial,
            Some(b'G') => string(s, 2, MAX_APC, |b| (0x20..0x7f).contains(&b), Reply::Apc),
            Some(_) => Scan::Keys(1),
        },
        Some(b'[') => csi(s),
        Some(_) => Scan::Keys(1),
    }
}

/// What an OSC answer's body holds: `11;rgb:RRRR/GGGG/BBBB` (or rgba).
fn osc_body(b: u8) -> bool {
    b.is_ascii_hexdigit() || b"rgbaRGBA:;/".contains(&b)
}

/// A string answer (OSC, APC) whose body starts at `from`: ended by BEL
/// (OSC) or ST; ended short by a byte its body cannot hold (another
/// sequence's ESC, a key) or by its length passing `max`.
fn string(
    s: &[u8],
    from: usize,
    max: usize,
    body: impl Fn(u8) -> bool,
    make: fn(Vec<u8>) -> Reply,
) -> Scan {
    let whole = |end: usize, len: usize| Scan::Reply(len, Some(make(s[from..end].to_vec())));
    for (j, &b) in s.iter().enumerate().skip(from) {
        if j - from > max {
            return Scan::Reply(j, None);
        }
        match b {
            // BEL, or an 8-bit ST.
            0x07 | 0x9c => return whole(j, j + 1),
            0x1b => {
                return match s.get(j + 1) {
                    Some(b'\\') => whole(j, j + 2),
                    Some(_) => Scan::Reply(j, None),
                    None => Scan::Partial,
                };
            }
            b if body(b) => {}
            _ => return Scan::Reply(j, None),
        }
    }
    Scan::Partial
}

/// A CSI sequence: an answer when its parameters start with `?` or `>`,
/// or it ends in `t`; else a key's.
fn csi(s: &[u8]) -> Scan {
    for (j, &b) in s.iter().enumerate().skip(2) {
        if j > MAX_CSI {
            return Scan::Keys(j);
        }
        match b {
            0x20..=0x3f => {}
            0x40..=0x7e => {
                let params = &s[2..=j];
                let answer = matches!(params[0], b'?' | b'>') || b == b't';
                return if answer {
                    Scan::Reply(j + 1, Some(Reply::Csi(params.to_vec())))
                } else {
                    Scan::Keys(j + 1)
                };
            }
            // Not a sequence after all: what came so far is keys.
            _ => return Scan::Keys(j),
        }
    }
    Scan::Partial
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(f: &mut Split, bytes: &[u8], at: Instant) -> Out {
        let mut out = f.push(bytes, at);
        let later = f.expire(at + BURST_GAP + KEY_GAP);
        out.keys.extend(later.keys);
        out
    }

    #[test]
    fn answers_are_taken_out_and_keys_left_as_they_came() {
        let t = Instant::now();
        let mut f = Split::default();
        let got = f.push(
            b"j\x1b]11;rgb:ffff/ffff/ffff\x1b\\ \x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1b[?62;4;22ck",
            t,
        );
        assert_eq!(got.keys, b"j k");
        assert_eq!(
            got.replies,
            [
                Reply::Osc(b"11;rgb:ffff/ffff/ffff".to_vec()),
                Reply::Apc(b"Gi=31;OK".to_vec()),
                Reply::Csi(b"6;20;10t".to_vec()),
                Reply::Csi(b"?62;4;22c".to_vec()),
            ]
        );
        // What only crossterm reads: Alt-j, F1, Ctrl-Up, a kitty-protocol
        // key, a wheel turn, a paste's start, Alt-] then `x`.
        let keys: &[u8] = b"\x1bj\x1bOP\x1b[1;5A\x1b[97;5u\x1b[<65;10;12M\x1b[200~\x1b]x";
        let got = f.push(keys, t);
        assert_eq!((got.keys.as_slice(), got.replies.len()), (keys, 0));
    }

    #[test]
    fn an_answer_in_any_ending_is_never_keys() {
        let t = Instant::now();
        let replies: [&[u8]; 6] = [
            b"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\",
            b"\x1b]11;rgb:1c1c/1c1c/1c1c\x07",
            b"\x1b]11;rgb:FFFF/FFFF/FFFF\x07",
            // Unterminated, or ended by an 8-bit ST.
            b"\x1b]11;rgb:1c1c/1c1c/1c1c",
            b"\x1b]11;rgb:1c1c/1c1c/1c1c\x9c",
            b"\x1b_Gi=31;ENOENT:no such image",
        ];
        for reply in replies {
            let mut f = Split::default();
            assert!(all(&mut f, reply, t).keys.is_empty(), "{reply:?}");
            // The learner's next key, a moment later, is a key.
            let later = t + Duration::from_millis(1200);
            assert_eq!(f.push(b"j", later).keys, b"j", "{reply:?}");
        }
        // Unterminated, then the next answer.
        let mut f = Split::default();
        let got = all(&mut f, b"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b[?62c", t);
        assert!(got.keys.is_empty(), "{got:?}");
    }

    #[test]
    fn an_answer_in_pieces_a_moment_apart_is_still_one_answer() {
        let t = Instant::now();
        let mut f = Split::default();
        assert_eq!(f.push(b"\x1b]11;rgb:1c1c/", t), Out::default());
        // Nothing decided while the next piece may come.
        assert_eq!(f.expire(t + Duration::from_millis(300)), Out::default());
        let later = t + Duration::from_millis(300);
        let got = f.push(b"1c1c/1c1c\x1b\\", later);
        assert!(got.keys.is_empty());
        assert_eq!(got.replies, [Reply::Osc(b"11;rgb:1c1c/1c1c/1c1c".to_vec())]);
        // Cut just after its ESC.
        let got = f.push(b"\x1b", t);
        assert_eq!(got, Out::default());
        assert_eq!(f.push(b"[?62c", t).replies.len(), 1);
    }

    #[test]
    fn what_cannot_be_part_of_an_answer_passes_at_once() {
        let t = Instant::now();
        let mut f = Split::default();
        assert_eq!(f.push(b"\x1b]11;rgb:1cjk", t).keys, b"jk");
        assert_eq!(f.push(b"3c1", t).keys, b"3c1");
        // A past-the-bound run of what an answer could hold is typed text.
        let mut text = b"\x1b]1".to_vec();
        text.extend(std::iter::repeat_n(b'a', MAX_OSC + 3));
        assert_eq!(all(&mut f, &text, t).keys.len(), 3);
    }

    #[test]
    fn esc_alone_waits_a_moment_and_is_then_esc() {
        let t = Instant::now();
        let mut f = Split::default();
        assert!(f.push(b"\x1b", t).keys.is_empty());
        assert_eq!(f.deadline(), Some(t + KEY_GAP));
        assert!(f.expire(t).keys.is_empty());
        assert_eq!(f.expire(t + KEY_GAP).keys, ESC_KEY);
        // Esc, then `q` or `]` in a later read: Esc and that key, never
        // Alt and it; an answer's start still joins it.
        f.push(b"\x1b", t);
        assert_eq!(f.push(b"q", t).keys, b"\x1b\x1bq");
        f.push(b"\x1b", t);
        assert_eq!(f.push(b"]", t).keys, b"\x1b\x1b]");
        f.push(b"\x1b", t);
        assert_eq!(f.push(b"[", t).keys, b"\x1b\x1b[");
        f.push(b"\x1b", t);
        let answer = f.push(b"]11;rgb:0/0/0\x07", t);
        assert!(answer.keys.is_empty() && answer.replies.len() == 1);
        // A key's sequence cut in two comes whole.
        assert!(f.push(b"\x1b[1;", t).keys.is_empty());
        assert_eq!(f.push(b"5A", t).keys, b"\x1b[1;5A");
    }
}
