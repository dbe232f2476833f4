//! A terminal's answer that arrives after lectern stopped waiting for it
//! (the background query's OSC 11 over a slow SSH link, or a second one
//! from a multiplexer) reaches the key reader, which parses
//! `ESC ] 11 ; rgb:1c1c/1c1c/1c1c ESC \` as Alt-], then the characters
//! `1`, `1`, `;`, `r`… and Alt-\: typed into the reader, `1c` went to the
//! check and `1` answered it. Such a burst is taken out here, before the
//! key tables ever see it. A reply must never become keys.
//!
//! What is dropped: Alt-] (which no table binds), then what an OSC answer
//! holds (digits, hex letters, `rgb:`, `;`, `/`), up to its end (BEL,
//! which reads as Ctrl-G; ESC \, as Alt-\) or the first event that could
//! not be part of it. An answer comes in one burst, or in pieces close
//! together (a slow link splits it): an event later than [`BURST_GAP`]
//! after the one before it is the learner's.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use std::time::{Duration, Instant};

/// Longer than the gaps inside one answer: microseconds in one read, but
/// a loaded machine or a slow link delivers its pieces tens or hundreds
/// of milliseconds apart (30 ms let the second piece through as keys). A
/// key typed within this of an answer's last piece, and looking like its
/// body (a digit, a hex letter), is dropped: never an answer given.
const BURST_GAP: Duration = Duration::from_millis(1000);

/// The longest OSC answer body taken out (`11;rgba:ffff/ffff/ffff/ffff`
/// and room to spare): a longer run of such characters is typed text.
const MAX_BODY: usize = 64;

#[derive(Debug, Default)]
pub struct LateReplies {
    /// Inside an answer: how many of its characters were dropped, and when
    /// the last event of it came.
    inside: Option<(usize, Instant)>,
}

impl LateReplies {
    /// `ev` as the key reader should see it, or `None` if it is part of a
    /// terminal's answer.
    pub fn pass(&mut self, ev: Event, now: Instant) -> Option<Event> {
        if let Some((n, last)) = self.inside.take() {
            if now.duration_since(last) <= BURST_GAP {
                match part(&ev) {
                    Part::Body if n < MAX_BODY => {
                        self.inside = Some((n + 1, now));
                        return None;
                    }
                    Part::End => return None,
                    _ => {}
                }
            }
        }
        if opens(&ev) {
            self.inside = Some((0, now));
            return None;
        }
        Some(ev)
    }
}

enum Part {
    Body,
    End,
    Other,
}

fn key(ev: &Event) -> Option<&KeyEvent> {
    match ev {
        Event::Key(k) => Some(k),
        _ => None,
    }
}

/// Alt-]: `ESC ]`, the start of an OSC.
fn opens(ev: &Event) -> bool {
    key(ev).is_some_and(|k| k.code == KeyCode::Char(']') && k.modifiers == KeyModifiers::ALT)
}

fn part(ev: &Event) -> Part {
    let Some(k) = key(ev) else {
        return Part::Other;
    };
    let KeyCode::Char(c) = k.code else {
        return Part::Other;
    };
    let plain = k.modifiers == KeyModifiers::NONE
        || (k.modifiers == KeyModifiers::SHIFT && c.is_ascii_uppercase());
    match c {
        // BEL, and ST as ESC \.
        'g' if k.modifiers == KeyModifiers::CONTROL => Part::End,
        '\\' if k.modifiers == KeyModifiers::ALT => Part::End,
        c if plain && (c.is_ascii_hexdigit() || "rgbRGB:;/".contains(c)) => Part::Body,
        _ => Part::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(c: char, m: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(KeyCode::Char(c), m))
    }

    /// The events crossterm reads from `bytes` (the parts this needs).
    fn events(text: &str) -> Vec<Event> {
        let mut out = Vec::new();
        let mut it = text.chars().peekable();
        while let Some(c) = it.next() {
            out.push(match c {
                '\x1b' => ch(it.next().unwrap(), KeyModifiers::ALT),
                '\x07' => ch('g', KeyModifiers::CONTROL),
                c if c.is_ascii_uppercase() => ch(c, KeyModifiers::SHIFT),
                c => ch(c, KeyModifiers::NONE),
            });
        }
        out
    }

    fn through(f: &mut LateReplies, evs: Vec<Event>, at: Instant) -> Vec<Event> {
        evs.into_iter().filter_map(|e| f.pass(e, at)).collect()
    }

    #[test]
    fn an_answer_in_any_ending_is_never_keys() {
        let t = Instant::now();
        for reply in [
            "\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\",
            "\x1b]11;rgb:1c1c/1c1c/1c1c\x07",
            "\x1b]11;rgb:FFFF/FFFF/FFFF\x07",
            // Unterminated, or ended by an 8-bit ST crossterm cannot read.
            "\x1b]11;rgb:1c1c/1c1c/1c1c",
        ] {
            let mut f = LateReplies::default();
            assert!(through(&mut f, events(reply), t).is_empty(), "{reply:?}");
            // The learner's next key, a moment later, is a key.
            let later = t + Duration::from_millis(1200);
            assert_eq!(
                through(&mut f, events("j"), later),
                events("j"),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn an_answer_in_pieces_a_moment_apart_is_still_one_answer() {
        let t = Instant::now();
        let mut f = LateReplies::default();
        let (a, b) = ("\x1b]11;rgb:1c1c/", "1c1c/1c1c\x1b\\");
        assert!(through(&mut f, events(a), t).is_empty());
        let later = t + Duration::from_millis(300);
        assert!(through(&mut f, events(b), later).is_empty());
    }

    #[test]
    fn what_cannot_be_part_of_an_answer_passes_at_once() {
        let t = Instant::now();
        let mut f = LateReplies::default();
        let evs = events("\x1b]11;rgb:1cjk");
        assert_eq!(through(&mut f, evs, t), events("jk"));
        let mut f = LateReplies::default();
        assert_eq!(through(&mut f, events("3c1"), t), events("3c1"));
    }

    #[test]
    fn a_long_run_of_hex_is_typed_text_past_the_bound() {
        let t = Instant::now();
        let mut f = LateReplies::default();
        let text = format!("\x1b]{}", "a".repeat(MAX_BODY + 3));
        assert_eq!(through(&mut f, events(&text), t).len(), 3);
    }
}
