//! Sixel (xterm, foot, mlterm, WezTerm, Windows Terminal, tmux built with
//! it): a picture of at most 256 colours, drawn in bands six pixels high,
//! each band a run of characters per colour. Like iTerm2's images it is
//! part of the screen's cells once drawn.

use std::collections::HashMap;
use std::fmt::Write;

/// The most bytes one picture's sixels may take: past it (a photograph's
/// noise at a large size) the picture is drawn in half blocks instead.
pub const MAX_BYTES: usize = 8 << 20;

/// Pixels at least this opaque are drawn; the rest leave the cell's
/// background (the sixel's background mode 1).
const OPAQUE: u8 = 128;

/// `rgba` (`w` x `h` pixels) as one sixel sequence, or `None` past
/// [`MAX_BYTES`]. Its colours are its own when it has at most 256 (a
/// diagram's), else 255 chosen by NeuQuant.
pub fn encode(rgba: &[u8], w: u32, h: u32) -> Option<String> {
    let (w, h) = (w as usize, h as usize);
    if rgba.len() != w * h * 4 {
        return None;
    }
    let (palette, index) = palette(rgba);
    let mut out = String::with_capacity(w * h / 4 + 64);
    let _ = write!(out, "\x1bP0;1;0q\"1;1;{w};{h}");
    for (i, [r, g, b]) in palette.iter().enumerate() {
        let pc = |c: u8| u32::from(c) * 100 / 255;
        let _ = write!(out, "#{i};2;{};{};{}", pc(*r), pc(*g), pc(*b));
    }
    let mut rows: Vec<Option<Vec<u8>>> = vec![None; palette.len()];
    for band in 0..h.div_ceil(6) {
        for dy in 0..6 {
            let y = band * 6 + dy;
            if y >= h {
                break;
            }
            for x in 0..w {
                if let Some(c) = index(&rgba[(y * w + x) * 4..][..4]) {
                    let row = rows[usize::from(c)].get_or_insert_with(|| vec![0; w]);
                    row[x] |= 1 << dy;
                }
            }
        }
        let mut first = true;
        for (c, row) in rows.iter_mut().enumerate() {
            let Some(bits) = row.take() else { continue };
            if !std::mem::take(&mut first) {
                out.push('$');
            }
            let _ = write!(out, "#{c}");
            runs(&bits, &mut out);
        }
        out.push('-');
        if out.len() > MAX_BYTES {
            return None;
        }
    }
    out.push_str("\x1b\\");
    Some(out)
}

/// One colour's row of a band: each column's six bits as a character,
/// repeats as `!n`, nothing after its last pixel.
fn runs(bits: &[u8], out: &mut String) {
    let end = bits.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
    let mut i = 0;
    while i < end {
        let b = bits[i];
        let n = bits[i..end].iter().take_while(|x| **x == b).count();
        let ch = char::from(b'?' + b);
        if n > 3 {
            let _ = write!(out, "!{n}{ch}");
        } else {
            (0..n).for_each(|_| out.push(ch));
        }
        i += n;
    }
}

type Index<'a> = Box<dyn Fn(&[u8]) -> Option<u8> + 'a>;

/// The picture's colours, and each opaque pixel's place among them.
fn palette(rgba: &[u8]) -> (Vec<[u8; 3]>, Index<'_>) {
    let mut seen: HashMap<[u8; 3], u8> = HashMap::new();
    for p in rgba.chunks_exact(4).filter(|p| p[3] >= OPAQUE) {
        let c = [p[0], p[1], p[2]];
        if !seen.contains_key(&c) {
            if seen.len() == 256 {
                return quantised(rgba);
            }
            let n = seen.len() as u8;
            seen.insert(c, n);
        }
    }
    let mut colours = vec![[0; 3]; seen.len()];
    for (c, i) in &seen {
        colours[usize::from(*i)] = *c;
    }
    let index = move |p: &[u8]| (p[3] >= OPAQUE).then(|| seen[&[p[0], p[1], p[2]]]);
    (colours, Box::new(index))
}

/// 255 colours chosen for the picture (a photograph), and the nearest of
/// them for each opaque pixel.
fn quantised(rgba: &[u8]) -> (Vec<[u8; 3]>, Index<'_>) {
    let opaque: Vec<u8> = rgba
        .chunks_exact(4)
        .filter(|p| p[3] >= OPAQUE)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let nq = color_quant::NeuQuant::new(10, 255, &opaque);
    let colours = nq
        .color_map_rgb()
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let index =
        move |p: &[u8]| (p[3] >= OPAQUE).then(|| nq.index_of(&[p[0], p[1], p[2], 255]) as u8);
    (colours, Box::new(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_colour_picture_is_two_runs_a_band() {
        // 8 x 6: red on the left half, blue on the right.
        let mut rgba = Vec::new();
        for _ in 0..6 {
            for x in 0..8 {
                rgba.extend(if x < 4 {
                    [255, 0, 0, 255]
                } else {
                    [0, 0, 255, 255]
                });
            }
        }
        let s = encode(&rgba, 8, 6).unwrap();
        assert_eq!(
            s,
            "\x1bP0;1;0q\"1;1;8;6#0;2;100;0;0#1;2;0;0;100#0!4~$#1!4?!4~-\x1b\\"
        );
    }

    #[test]
    fn transparent_pixels_are_left_and_a_short_band_ends_the_picture() {
        // 2 x 7: the second band has one row; the right column is clear.
        let mut rgba = Vec::new();
        for _ in 0..7 {
            rgba.extend([0, 0, 0, 255, 9, 9, 9, 0]);
        }
        let s = encode(&rgba, 2, 7).unwrap();
        assert!(s.ends_with("#0~-#0@-\x1b\\"), "{s:?}");
        assert!(encode(&rgba, 3, 7).is_none(), "the size is checked");
    }

    #[test]
    fn a_photograph_is_brought_to_255_colours() {
        let rgba: Vec<u8> = (0..64 * 64)
            .flat_map(|i: u32| {
                [
                    (i % 251) as u8,
                    (i * 7 % 253) as u8,
                    (i / 64 * 4) as u8,
                    255,
                ]
            })
            .collect();
        let s = encode(&rgba, 64, 64).unwrap();
        let colours = s.matches(";2;").count();
        assert!(colours <= 256 && colours > 100, "{colours}");
    }
}
