//! iTerm2's inline images (also WezTerm's, mintty's, Konsole's): a file
//! given whole in one OSC 1337, drawn from the cursor over the cells it
//! names. It is part of the screen's cells once drawn: sent again wherever
//! it moves to.
//! <https://iterm2.com/documentation-images.html>

/// The picture, a PNG of `len` bytes given as base64, over `cols` x
/// `rows` cells from the cursor, wrapped for tmux when `tmux`.
pub fn inline(png_base64: &str, len: usize, cols: u16, rows: u16, tmux: bool, out: &mut Vec<u8>) {
    let mut seq = format!(
        "\x1b]1337;File=inline=1;size={len};width={cols};height={rows};\
         preserveAspectRatio=0;doNotMoveCursor=1:"
    )
    .into_bytes();
    seq.extend_from_slice(png_base64.as_bytes());
    seq.push(0x07);
    super::put(&seq, tmux, out);
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_inline_image_names_its_cells_and_its_size() {
        let mut out = Vec::new();
        super::inline("iVBO", 3, 20, 4, false, &mut out);
        assert_eq!(
            out,
            b"\x1b]1337;File=inline=1;size=3;width=20;height=4;preserveAspectRatio=0;doNotMoveCursor=1:iVBO\x07"
        );
    }
}
