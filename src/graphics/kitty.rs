//! kitty's graphics protocol, placed with Unicode placeholders: the
//! picture is sent once (as PNG, under an id), with a virtual placement of
//! its cells; each cell of it on screen is then a character, U+10EEEE,
//! whose foreground colour is the id and whose two combining marks are its
//! row and column in the picture. The placeholders are text: they scroll,
//! are cut by the screen's edge, covered by a popup and passed through tmux
//! like any text, and the terminal draws the picture's part in each.
//! <https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders>

/// The character kitty draws a picture's cell in place of.
pub const PLACEHOLDER: char = '\u{10EEEE}';

/// The base64 characters one piece of a transmission carries at most.
const CHUNK: usize = 4096;

/// The combining marks that number rows and columns (the n-th mark is
/// number n), as the protocol lists them (its rowcolumn-diacritics.txt),
/// in runs of consecutive code points.
const MARKS: &[(u32, u32)] = &[
    (0x305, 0x305),
    (0x30D, 0x30E),
    (0x310, 0x310),
    (0x312, 0x312),
    (0x33D, 0x33F),
    (0x346, 0x346),
    (0x34A, 0x34C),
    (0x350, 0x352),
    (0x357, 0x357),
    (0x35B, 0x35B),
    (0x363, 0x36F),
    (0x483, 0x487),
    (0x592, 0x595),
    (0x597, 0x599),
    (0x59C, 0x5A1),
    (0x5A8, 0x5A9),
    (0x5AB, 0x5AC),
    (0x5AF, 0x5AF),
    (0x5C4, 0x5C4),
    (0x610, 0x617),
    (0x657, 0x65B),
    (0x65D, 0x65E),
    (0x6D6, 0x6DC),
    (0x6DF, 0x6E2),
    (0x6E4, 0x6E4),
    (0x6E7, 0x6E8),
    (0x6EB, 0x6EC),
    (0x730, 0x730),
    (0x732, 0x733),
    (0x735, 0x736),
    (0x73A, 0x73A),
    (0x73D, 0x73D),
    (0x73F, 0x741),
    (0x743, 0x743),
    (0x745, 0x745),
    (0x747, 0x747),
    (0x749, 0x74A),
    (0x7EB, 0x7F1),
    (0x7F3, 0x7F3),
    (0x816, 0x819),
    (0x81B, 0x823),
    (0x825, 0x827),
    (0x829, 0x82D),
    (0x951, 0x951),
    (0x953, 0x954),
    (0xF82, 0xF83),
    (0xF86, 0xF87),
    (0x135D, 0x135F),
    (0x17DD, 0x17DD),
    (0x193A, 0x193A),
    (0x1A17, 0x1A17),
    (0x1A75, 0x1A7C),
    (0x1B6B, 0x1B6B),
    (0x1B6D, 0x1B73),
    (0x1CD0, 0x1CD2),
    (0x1CDA, 0x1CDB),
    (0x1CE0, 0x1CE0),
    (0x1DC0, 0x1DC1),
    (0x1DC3, 0x1DC9),
    (0x1DCB, 0x1DCC),
    (0x1DD1, 0x1DE6),
    (0x1DFE, 0x1DFE),
    (0x20D0, 0x20D1),
    (0x20D4, 0x20D7),
    (0x20DB, 0x20DC),
    (0x20E1, 0x20E1),
    (0x20E7, 0x20E7),
    (0x20E9, 0x20E9),
    (0x20F0, 0x20F0),
    (0x2CEF, 0x2CF1),
    (0x2DE0, 0x2DFF),
    (0xA66F, 0xA66F),
    (0xA67C, 0xA67D),
    (0xA6F0, 0xA6F1),
    (0xA8E0, 0xA8F1),
    (0xAAB0, 0xAAB0),
    (0xAAB2, 0xAAB3),
    (0xAAB7, 0xAAB8),
    (0xAABE, 0xAABF),
    (0xAAC1, 0xAAC1),
    (0xFE20, 0xFE26),
    (0x10A0F, 0x10A0F),
    (0x10A38, 0x10A38),
    (0x1D185, 0x1D189),
    (0x1D1AA, 0x1D1AD),
    (0x1D242, 0x1D244),
];

/// How many rows or columns placeholders can number (297).
pub fn most() -> u16 {
    MARKS.iter().map(|(a, b)| (b - a + 1) as u16).sum()
}

/// The mark that numbers row or column `n`, if there is one.
fn mark(mut n: u32) -> Option<char> {
    for &(a, b) in MARKS {
        let len = b - a + 1;
        if n < len {
            return char::from_u32(a + n);
        }
        n -= len;
    }
    None
}

/// The text of the cell at `row`, `col` of a picture (`None` past what
/// placeholders can number). Every cell says both, so that one drawn
/// alone (the others unchanged on screen) still places its part.
pub fn cell(row: u16, col: u16) -> Option<String> {
    let mut s = String::with_capacity(8);
    s.push(PLACEHOLDER);
    s.push(mark(u32::from(row))?);
    s.push(mark(u32::from(col))?);
    Some(s)
}

/// The foreground colour that names picture `id` (24 bits, not 0).
pub fn colour(id: u32) -> (u8, u8, u8) {
    let [_, r, g, b] = id.to_be_bytes();
    (r, g, b)
}

/// Picture `id`, a PNG given as base64, sent with a virtual placement of
/// `cols` x `rows` cells (the terminal scales it to them), in pieces of
/// at most 4096 characters, each wrapped for tmux when `tmux`. `q=2`: the
/// terminal answers nothing, so no answer can reach the keys.
pub fn transmit(id: u32, png_base64: &str, cols: u16, rows: u16, tmux: bool, out: &mut Vec<u8>) {
    let bytes = png_base64.as_bytes();
    let pieces = bytes.len().div_ceil(CHUNK).max(1);
    for i in 0..pieces {
        let piece = bytes.get(i * CHUNK..((i + 1) * CHUNK).min(bytes.len()));
        let more = u8::from(i + 1 < pieces);
        let mut seq = if i == 0 {
            format!("\x1b_Ga=T,U=1,f=100,t=d,i={id},c={cols},r={rows},q=2,m={more};").into_bytes()
        } else {
            format!("\x1b_Gq=2,m={more};").into_bytes()
        };
        seq.extend_from_slice(piece.unwrap_or_default());
        seq.extend_from_slice(b"\x1b\\");
        super::put(&seq, tmux, out);
    }
}

/// Picture `id` forgotten by the terminal, its data freed (`d=I`).
pub fn delete(id: u32, tmux: bool, out: &mut Vec<u8>) {
    let seq = format!("\x1b_Ga=d,d=I,i={id},q=2\x1b\\");
    super::put(seq.as_bytes(), tmux, out);
}

/// The question whether the terminal speaks the protocol: a one-pixel
/// picture queried, never stored (`a=q`); a kitty terminal answers
/// `ESC _ G i=31;OK ESC \`.
pub const QUERY: &[u8] = b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_number_297_rows_and_columns() {
        assert_eq!(most(), 297);
        assert_eq!(mark(0), Some('\u{305}'));
        assert_eq!(mark(1), Some('\u{30D}'));
        assert_eq!(mark(296), Some('\u{1D244}'));
        assert_eq!(mark(297), None);
        assert_eq!(cell(2, 0).unwrap(), "\u{10EEEE}\u{30E}\u{305}");
        assert_eq!(cell(0, 400), None);
        // One column wide: the diff of the screen keeps its place.
        use unicode_width::UnicodeWidthStr;
        assert_eq!(cell(5, 7).unwrap().width(), 1);
    }

    #[test]
    fn a_transmission_is_in_pieces_and_quiet() {
        let payload = "A".repeat(CHUNK * 2 + 10);
        let mut out = Vec::new();
        transmit(0x00ab_cdef, &payload, 30, 5, false, &mut out);
        let text = String::from_utf8(out).unwrap();
        let pieces: Vec<&str> = text.split("\x1b_G").skip(1).collect();
        assert_eq!(pieces.len(), 3);
        assert!(pieces[0].starts_with("a=T,U=1,f=100,t=d,i=11259375,c=30,r=5,q=2,m=1;"));
        assert!(pieces[1].starts_with("q=2,m=1;"));
        assert!(pieces[2].starts_with("q=2,m=0;"));
        let carried: usize = pieces
            .iter()
            .map(|p| {
                p.split_once(';')
                    .unwrap()
                    .1
                    .trim_end_matches("\x1b\\")
                    .len()
            })
            .sum();
        assert_eq!(carried, payload.len());
        assert_eq!(colour(0x00ab_cdef), (0xab, 0xcd, 0xef));
        let mut gone = Vec::new();
        delete(7, true, &mut gone);
        assert_eq!(gone, b"\x1bPtmux;\x1b\x1b_Ga=d,d=I,i=7,q=2\x1b\x1b\\\x1b\\");
    }
}
