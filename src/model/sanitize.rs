//! The one place lesson text is made safe for a terminal.
//!
//! Every string the loader keeps passes through [`clean`] exactly once, so
//! no lesson can move the cursor, set the window title, write the clipboard
//! (OSC 52) or fake a hyperlink (OSC 8). Offending characters are made
//! visible rather than dropped, so the text around them survives and a
//! reader can see that something odd was there.
//!
//! The rule: every character of Unicode's general categories Cc (controls),
//! Cf (format: bidi marks, zero-width characters, tags, ...), Zl and Zp
//! (line and paragraph separators) is shown, except tab and newline, which
//! layout handles. C0 controls and DEL show as control pictures (ESC as
//! `␛`); C1 controls, bidi embeddings/overrides/isolates and a stray BOM as
//! `U+FFFD`; every other one as a mark naming it, `<U+200E>`.
//!
//! Three format characters are kept where they do their job, and only
//! there, because text would break without them:
//! - ZWJ (U+200D) between two emoji (👩‍💻, 🏳️‍🌈: variation selectors and
//!   skin-tone modifiers after the first emoji are looked past), or between
//!   two letters of a script that shapes with it (Indic, Arabic, Syriac,
//!   Myanmar, Khmer);
//! - ZWNJ (U+200C) between two letters of such a script (Persian, Hindi);
//! - tag characters (U+E0020..U+E007F) in an emoji tag sequence: after
//!   U+1F3F4 (🏴), a run of tags ended by CANCEL TAG U+E007F (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
//!
//! Variation selectors are not format characters (they are Mn) and pass.
//!
//! Two more are kept in running text, and only there ([`clean_prose`]),
//! because they say where a line may break: ZERO WIDTH SPACE (U+200B) and
//! SOFT HYPHEN (U+00AD), each between two visible, non-space characters
//! (`state\u{ad}of\u{ad}the\u{ad}art`, a long compound or URL with
//! ZWSPs). They are break opportunities, never text: the layout's wrapping
//! (`layout::wrap`) consumes them, breaking there (a soft hyphen shows
//! `-` at the end of the line it ends, and nothing elsewhere) and never
//! emitting either character. Everywhere else — code, titles, file names,
//! URLs, messages, and either character at the edge of a word — they are
//! marked like any other format character (`<U+200B>`), so a zero-width
//! space in code or a name can be seen. [`without_breaks`] drops them from
//! text taken from prose for a one-line label (a title from a heading).

use std::borrow::Cow;

/// Unicode's Cc, Cf, Zl and Zp characters (Unicode 15), as ranges.
/// Sorted and disjoint, for a binary search.
const INVISIBLE: [(u32, u32); 23] = [
    (0x0000, 0x001f),
    (0x007f, 0x009f),
    (0x00ad, 0x00ad),
    (0x0600, 0x0605),
    (0x061c, 0x061c),
    (0x06dd, 0x06dd),
    (0x070f, 0x070f),
    (0x0890, 0x0891),
    (0x08e2, 0x08e2),
    (0x180e, 0x180e),
    (0x200b, 0x200f),
    (0x2028, 0x202e),
    (0x2060, 0x2064),
    (0x2066, 0x206f),
    (0xfeff, 0xfeff),
    (0xfff9, 0xfffb),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x1343f),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0xe0001, 0xe0001),
    (0xe0020, 0xe007f),
];

/// Whether `c` is Cc, Cf, Zl or Zp (tab and newline included).
pub fn is_invisible(c: char) -> bool {
    let c = c as u32;
    INVISIBLE
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// How an invisible character is shown.
enum Shown {
    Char(char),
    /// `<U+XXXX>`.
    Mark,
}

/// What a character is shown as, or `None` when it is left as it is
/// (context aside: see [`kept`]).
fn replacement(c: char) -> Option<Shown> {
    match c {
        '\n' | '\t' => None,
        // C0 controls and DEL map onto the Unicode "control pictures"
        // block (U+2400..): ESC shows as ␛, BS as ␈, CR as ␍.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).map(Shown::Char),
        '\u{7f}' => Some(Shown::Char('\u{2421}')),
        // C1 controls: U+009B is a one-byte CSI on many terminals.
        '\u{80}'..='\u{9f}' => Some(Shown::Char('\u{fffd}')),
        // Bidi embeddings, overrides and isolates can reorder what a reader
        // sees relative to what is stored ("Trojan source").
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Some(Shown::Char('\u{fffd}')),
        // A byte-order mark inside text is invisible noise.
        '\u{feff}' => Some(Shown::Char('\u{fffd}')),
        _ if is_invisible(c) => Some(Shown::Mark),
        _ => None,
    }
}

fn is_emoji(c: char) -> bool {
    matches!(c as u32,
        0x1f000..=0x1faff | 0x2600..=0x27bf | 0x2300..=0x23ff | 0x2b00..=0x2bff
        | 0x2190..=0x21ff | 0x00a9 | 0x00ae | 0x203c | 0x2049 | 0x2122 | 0x2139
        | 0x3030 | 0x303d | 0x3297 | 0x3299)
}

/// What an emoji may carry before a ZWJ: variation selectors and skin tones.
fn is_emoji_modifier(c: char) -> bool {
    matches!(c as u32, 0xfe00..=0xfe0f | 0x1f3fb..=0x1f3ff)
}

/// Letters of scripts that join or not by ZWJ and ZWNJ (not their own
/// format characters, which are shown: the context must survive cleaning).
fn is_joining_script(c: char) -> bool {
    !is_invisible(c)
        && matches!(c as u32,
        0x0600..=0x06ff | 0x0700..=0x074f | 0x0750..=0x077f | 0x08a0..=0x08ff
        | 0x0900..=0x0dff | 0x1000..=0x109f | 0x1780..=0x17ff | 0xa8e0..=0xa8ff
        | 0xfb50..=0xfdff | 0xfe70..=0xfeff | 0x11000..=0x111ff)
}

fn is_tag(c: char) -> bool {
    matches!(c as u32, 0xe0020..=0xe007e)
}

/// The two break opportunities that running text keeps (module docs).
pub const BREAKS: [char; 2] = ['\u{200b}', '\u{ad}'];

/// A neighbour that lets a break opportunity stand: a visible character
/// that is not a space.
fn word_char(c: Option<char>) -> bool {
    c.is_some_and(|c| !c.is_whitespace() && !is_invisible(c))
}

/// Whether the invisible `c` at byte `at` of `s` does its job there (see
/// the module docs), and so is kept; `prose` keeps break opportunities.
fn kept(s: &str, at: usize, c: char, prose: bool) -> bool {
    let before = s[..at].chars().rev();
    let after = || s[at + c.len_utf8()..].chars();
    match c {
        '\u{200b}' | '\u{ad}' => {
            prose && word_char(s[..at].chars().next_back()) && word_char(after().next())
        }
        '\u{200d}' => {
            let mut prev = before.skip_while(|&p| is_emoji_modifier(p));
            let (Some(p), Some(n)) = (prev.next(), after().next()) else {
                return false;
            };
            (is_emoji(p) && is_emoji(n)) || (is_joining_script(p) && is_joining_script(n))
        }
        '\u{200c}' => {
            let p = s[..at].chars().next_back();
            let n = after().next();
            p.is_some_and(is_joining_script) && n.is_some_and(is_joining_script)
        }
        '\u{e0020}'..='\u{e007f}' => {
            let back: usize = before.take_while(|&p| is_tag(p)).map(char::len_utf8).sum();
            tag_run(s, at - back).keep
        }
        _ => false,
    }
}

/// A run of tags and the CANCEL TAG that may end it, judged whole: every
/// character of the run is kept or none is, so the run is looked at once
/// when cleaning reaches its first character (judging each tag on its
/// own looked along the run from each: 160 KB of tags took 9.8 s).
struct TagRun {
    /// The byte after the run (after its CANCEL TAG, when it has one).
    end: usize,
    keep: bool,
}

/// The run of tags starting at byte `start` of `s` (the character before
/// it is no tag): kept when a black flag stands before it, it has a tag
/// and a CANCEL TAG ends it (an emoji tag sequence, 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
fn tag_run(s: &str, start: usize) -> TagRun {
    let rest = &s[start..];
    let tags = rest.find(|c: char| !is_tag(c)).unwrap_or(rest.len());
    #[cfg(test)]
    crate::work::add(tags + 1);
    let cancelled = rest[tags..].starts_with('\u{e007f}');
    let flag = s[..start].ends_with('\u{1f3f4}');
    TagRun {
        end: start + tags + if cancelled { '\u{e007f}'.len_utf8() } else { 0 },
        keep: flag && tags > 0 && cancelled,
    }
}

/// [`kept`], with the verdict on a tag run taken from `run` while cleaning
/// is inside it.
fn kept_in_run(s: &str, at: usize, c: char, prose: bool, run: &mut TagRun) -> bool {
    if !matches!(c, '\u{e0020}'..='\u{e007f}') {
        return kept(s, at, c, prose);
    }
    if at >= run.end {
        *run = tag_run(s, at);
    }
    run.keep
}

/// Whether `s` may hold a character that [`clean`] changes, judged first
/// from its UTF-8 bytes: each such character starts with a byte below
/// 0x20, 0x7f, or one of a few lead bytes. This runs on every string of
/// every lesson, so blocks of bytes are first tested for those lead bytes
/// alone, in a way the compiler vectorises; only a block that has one is
/// looked at closely, character by character.
fn suspect(s: &str) -> bool {
    const BLOCK: usize = 32;
    let b = s.as_bytes();
    let lead = |x: u8| {
        (x < 0x20 && x != b'\n' && x != b'\t')
            | (x == 0x7f)
            | (x == 0xc2)
            | (x == 0xd8)
            | (x == 0xdb)
            | (x == 0xdc)
            | (x == 0xe0)
            | (x == 0xe1)
            | (x == 0xe2)
            | (x == 0xef)
            | (x == 0xf0)
            | (x == 0xf3)
    };
    b.chunks(BLOCK).enumerate().any(|(n, block)| {
        block.iter().fold(false, |any, &x| any | lead(x))
            && (n * BLOCK..n * BLOCK + block.len()).any(|i| starts_unsafe(s, i))
    })
}

/// Whether a character that [`replacement`] changes starts at byte `i`.
fn starts_unsafe(s: &str, i: usize) -> bool {
    s.is_char_boundary(i)
        && s[i..]
            .chars()
            .next()
            .is_some_and(|c| replacement(c).is_some())
}

/// Returns `s` with every unsafe character replaced by a visible one.
pub fn clean(s: &str) -> Cow<'_, str> {
    clean_with(s, false)
}

/// [`clean`] for running text that the layout wraps: break opportunities
/// inside words (U+200B, U+00AD) are kept for the layout to consume.
pub fn clean_prose(s: &str) -> Cow<'_, str> {
    clean_with(s, true)
}

/// `s` without the break opportunities [`clean_prose`] keeps: for a label
/// of one line taken from running text.
pub fn without_breaks(s: &str) -> Cow<'_, str> {
    if s.contains(BREAKS) {
        Cow::Owned(s.chars().filter(|c| !BREAKS.contains(c)).collect())
    } else {
        Cow::Borrowed(s)
    }
}

fn clean_with(s: &str, prose: bool) -> Cow<'_, str> {
    if !suspect(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut changed = false;
    // The tag run last judged (see [`TagRun`]).
    let mut run = TagRun {
        end: 0,
        keep: false,
    };
    for (at, c) in s.char_indices() {
        match replacement(c) {
            Some(_) if kept_in_run(s, at, c, prose, &mut run) => out.push(c),
            Some(Shown::Char(r)) => {
                changed = true;
                out.push(r);
            }
            Some(Shown::Mark) => {
                changed = true;
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            None => out.push(c),
        }
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(s)
    }
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

    /// Every Cc, Cf, Zl and Zp character of Unicode 15, independently of
    /// the table above (from UnicodeData.txt).
    fn categories() -> Vec<char> {
        let ranges: &[(u32, u32)] = &[
            (0x0, 0x1f),
            (0x7f, 0x9f),
            (0xad, 0xad),
            (0x600, 0x605),
            (0x61c, 0x61c),
            (0x6dd, 0x6dd),
            (0x70f, 0x70f),
            (0x890, 0x891),
            (0x8e2, 0x8e2),
            (0x180e, 0x180e),
            (0x200b, 0x200f),
            (0x2028, 0x2028),
            (0x2029, 0x2029),
            (0x202a, 0x202e),
            (0x2060, 0x2064),
            (0x2066, 0x206f),
            (0xfeff, 0xfeff),
            (0xfff9, 0xfffb),
            (0x110bd, 0x110bd),
            (0x110cd, 0x110cd),
            (0x13430, 0x1343f),
            (0x1bca0, 0x1bca3),
            (0x1d173, 0x1d17a),
            (0xe0001, 0xe0001),
            (0xe0020, 0xe007f),
        ];
        ranges
            .iter()
            .flat_map(|&(a, b)| (a..=b).filter_map(char::from_u32))
            .filter(|&c| c != '\n' && c != '\t')
            .collect()
    }

    #[test]
    fn every_invisible_character_is_shown_in_every_context() {
        let all = categories();
        assert_eq!(all.len(), 235);
        for c in all {
            // Plain text around it, and the contexts that keep a joiner
            // but for the wrong character.
            for s in [
                format!("{c}"),
                format!("x{c}y"),
                format!("{}{c}", "é".repeat(20)),
                format!("€{c}\u{2014}"),
            ] {
                let out = clean(&s);
                assert!(
                    !out.contains(c),
                    "{:?} survived in {s:?}: {out:?}",
                    c as u32
                );
                assert!(
                    out.chars()
                        .all(|o| !is_invisible(o) || o == '\n' || o == '\t')
                );
            }
        }
    }

    #[test]
    fn the_reported_characters_are_marked() {
        assert_eq!(clean("a\u{200e}b"), "a<U+200E>b");
        assert_eq!(clean("\u{061c}"), "<U+061C>");
        assert_eq!(clean("soft\u{ad}hyphen"), "soft<U+00AD>hyphen");
        assert_eq!(clean("x\u{e0041}"), "x<U+E0041>");
        assert_eq!(clean("a\u{2028}b"), "a<U+2028>b");
        assert_eq!(clean("a\u{200d}b"), "a<U+200D>b");
        assert_eq!(clean("a\u{200c}b"), "a<U+200C>b");
    }

    #[test]
    fn joiners_that_do_their_job_are_kept() {
        for s in [
            "👩\u{200d}💻",
            "👨\u{1f3fd}\u{200d}🦰",
            "🏳\u{fe0f}\u{200d}🌈",
            "❤\u{fe0f}\u{200d}🔥",
            // Flag of Scotland: black flag, tags "gbsct", cancel tag.
            "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}",
            // Persian "I want" with its ZWNJ, Hindi half-forms with ZWJ.
            "می\u{200c}خواهم",
            "क्\u{200d}ष",
            "न्\u{200c}ह",
        ] {
            assert!(
                matches!(clean(s), Cow::Borrowed(_)),
                "{s:?} -> {:?}",
                clean(s)
            );
        }
        // Tags without their flag, or a flag whose tags never end.
        assert!(!is_clean("\u{e0067}\u{e0062}\u{e007f}"));
        assert!(!is_clean("🏴\u{e0067}\u{e0062}"));
        assert!(!is_clean("🏴\u{e007f}"));
        // A joiner at either end of a sequence.
        assert!(!is_clean("👩\u{200d}"));
        assert!(!is_clean("\u{200d}💻"));
    }

    proptest::proptest! {
        #[test]
        fn cleaning_is_safe_and_settled(s in "(\\PC|\\pC|\u{200d}|\u{200c}|👩|क|\u{e0067}|🏴){0,40}") {
            let once = clean(&s).into_owned();
            proptest::prop_assert_eq!(clean(&once).into_owned(), once.clone());
            for (at, c) in once.char_indices() {
                if is_invisible(c) && c != '\n' && c != '\t' {
                    proptest::prop_assert!(kept(&once, at, c, false), "{:?} in {:?}", c, once);
                }
            }
        }

        #[test]
        fn prose_keeps_only_breaks_inside_words(s in "(\\PC|\\pC|\u{200b}|\u{ad}| |a|界){0,40}") {
            let once = clean_prose(&s).into_owned();
            proptest::prop_assert_eq!(clean_prose(&once).into_owned(), once.clone());
            for (at, c) in once.char_indices() {
                if is_invisible(c) && c != '\n' && c != '\t' {
                    proptest::prop_assert!(kept(&once, at, c, true), "{:?} in {:?}", c, once);
                }
            }
            // What plain cleaning makes of it holds no break at all.
            proptest::prop_assert!(!clean(&s).contains(BREAKS));
        }
    }

    #[test]
    fn breaks_are_kept_in_prose_between_word_characters_only() {
        assert_eq!(clean_prose("state\u{ad}of"), "state\u{ad}of");
        assert_eq!(clean_prose("a\u{200b}b"), "a\u{200b}b");
        assert_eq!(clean_prose("a \u{200b}b"), "a <U+200B>b");
        assert_eq!(clean_prose("\u{ad}x"), "<U+00AD>x");
        assert_eq!(clean_prose("x\u{200b}"), "x<U+200B>");
        assert_eq!(clean_prose("a\u{200b}\u{200b}b"), "a<U+200B><U+200B>b");
        assert_eq!(clean_prose("a\u{200b}\u{200e}b"), "a<U+200B><U+200E>b");
        // Outside running text they are marks like any format character.
        assert_eq!(clean("a\u{200b}b"), "a<U+200B>b");
        assert_eq!(without_breaks("a\u{200b}b\u{ad}c"), "abc");
    }

    #[test]
    fn a_run_of_tags_is_judged_once_not_once_per_tag() {
        let work = |n: usize| {
            let s = format!(
                "🏴{}\u{e007f} x{}",
                "\u{e0067}".repeat(n),
                "\u{e0067}".repeat(n)
            );
            crate::work::of(|| {
                let out = clean(&s);
                assert!(out.starts_with(&format!("🏴{}\u{e007f}", "\u{e0067}".repeat(n))));
                assert!(out.ends_with("<U+E0067>"));
            })
        };
        let (small, large) = (work(10_000), work(40_000));
        assert!(large <= 5 * small, "4x the tags: {small} -> {large}");
    }

    #[test]
    fn output_is_always_clean() {
        let nasty: String = (0u32..0x300).filter_map(char::from_u32).collect();
        assert!(is_clean(&clean(&nasty)));
    }
}
