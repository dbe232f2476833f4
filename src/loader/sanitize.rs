//! The one place lesson text is made safe for a terminal.
//!
//! Every string the loader keeps passes through [`clean`] exactly once, so
//! no lesson can move the cursor, set the window title, write the clipboard
//! (OSC 52) or fake a hyperlink (OSC 8). Offending characters are made
//! visible rather than dropped, so the text around them survives and a
//! reader can see that something odd was there.

use std::borrow::Cow;

/// What a control character is shown as, or `None` when it is safe.
fn replacement(c: char) -> Option<char> {
    match c {
        '\n' | '\t' => None,
        // C0 controls and DEL map onto the Unicode "control pictures"
        // block (U+2400..): ESC shows as ␛, BS as ␈, CR as ␍.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        // C1 controls: U+009B is a one-byte CSI on many terminals.
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        // Bidi embeddings, overrides and isolates can reorder what a reader
        // sees relative to what is stored ("Trojan source").
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Some('\u{fffd}'),
        // Line and paragraph separators break some terminals' line logic.
        '\u{2028}' | '\u{2029}' => Some(' '),
        // A byte-order mark inside text is invisible noise.
        '\u{feff}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// Whether `s` holds a character that [`replacement`] changes, judged
/// from its UTF-8 bytes: each such character is a byte below 0x20 or 0x7f,
/// or starts with 0xc2 (C1), 0xe2 0x80/0x81 (separators, bidi controls)
/// or 0xef 0xbb 0xbf (BOM). This runs on every string of every lesson, so
/// blocks of bytes are first tested for those lead bytes alone, in a way
/// the compiler vectorises; only a block that has one is looked at closely.
fn suspect(s: &str) -> bool {
    const BLOCK: usize = 32;
    let b = s.as_bytes();
    let lead = |x: u8| {
        (x < 0x20 && x != b'\n' && x != b'\t')
            | (x == 0x7f)
            | (x == 0xc2)
            | (x == 0xe2)
            | (x == 0xef)
    };
    b.chunks(BLOCK).enumerate().any(|(n, block)| {
        block.iter().fold(false, |any, &x| any | lead(x))
            && (n * BLOCK..n * BLOCK + block.len()).any(|i| starts_unsafe(b, i))
    })
}

/// Whether the character at byte `i` of `b` is one [`replacement`] changes.
fn starts_unsafe(b: &[u8], i: usize) -> bool {
    match b[i] {
        b'\n' | b'\t' => false,
        0..=0x1f | 0x7f => true,
        0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
        0xe2 => matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0x80), Some(0xa8..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
        ),
        0xef => b.get(i + 1..i + 3) == Some(&[0xbb, 0xbf]),
        _ => false,
    }
}

/// Returns `s` with every unsafe character replaced by a visible one.
pub fn clean(s: &str) -> Cow<'_, str> {
    if !suspect(s) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().map(|c| replacement(c).unwrap_or(c)).collect())
}

pub fn clean_owned(s: &str) -> String {
    clean(s).into_owned()
}

/// True when `s` holds nothing that [`clean`] would change.
#[cfg(test)]
pub fn is_clean(s: &str) -> bool {
    matches!(clean(s), Cow::Borrowed(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(clean("hello, 世界 👋"), Cow::Borrowed(_)));
        assert_eq!(clean("a\tb\nc"), "a\tb\nc");
    }

    #[test]
    fn escape_sequences_become_visible() {
        assert_eq!(clean("\u{1b}[2J"), "\u{241b}[2J");
        assert_eq!(clean("\u{1b}]0;title\u{7}"), "\u{241b}]0;title\u{2407}");
        assert_eq!(
            clean("\u{1b}]52;c;aGk=\u{1b}\\"),
            "\u{241b}]52;c;aGk=\u{241b}\\"
        );
    }

    #[test]
    fn every_control_class_is_replaced() {
        for c in [
            '\u{0}', '\u{8}', '\r', '\u{7f}', '\u{9b}', '\u{85}', '\u{202e}', '\u{2067}',
        ] {
            let s = format!("x{c}y");
            let out = clean(&s);
            assert!(!out.contains(c), "{c:?} survived");
            assert!(out.starts_with('x') && out.ends_with('y'));
        }
    }

    #[test]
    fn the_byte_scan_finds_exactly_the_characters_replaced() {
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            let long = "x".repeat(30);
            for s in [
                format!("{c}"),
                format!("a{c}é"),
                format!("€{c}\u{2014}"),
                // Across the scan's 32-byte blocks.
                format!("{long}{c}{long}"),
            ] {
                assert_eq!(suspect(&s), replacement(c).is_some(), "{c:?} in {s:?}");
            }
        }
    }

    #[test]
    fn output_is_always_clean() {
        let nasty: String = (0u32..0x300).filter_map(char::from_u32).collect();
        assert!(is_clean(&clean(&nasty)));
    }
}
