//! The escape sequences of the terminal graphics protocols pictures are
//! drawn with: kitty's (a transmission, Unicode placeholders to place it
//! with, a delete), iTerm2's inline images, and sixel. Each builds bytes
//! only; when they are written is the terminal runtime's business (and
//! `lectern render --images`'s). Written here rather than taken from
//! `ratatui-image`: see README "Pictures" for why (its dependencies
//! duplicate rustix, rand and thiserror, and it deletes nothing).

pub mod iterm;
pub mod kitty;
pub mod sixel;

/// `seq` as tmux passes it to the terminal outside it (`allow-passthrough
/// on`): inside a DCS, each ESC doubled.
pub fn tmux_wrap(seq: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1bPtmux;");
    for &b in seq {
        if b == 0x1b {
            out.push(0x1b);
        }
        out.push(b);
    }
    out.extend_from_slice(b"\x1b\\");
}

/// `seq` written to `out`, wrapped for tmux when `tmux`.
pub(crate) fn put(seq: &[u8], tmux: bool, out: &mut Vec<u8>) {
    if tmux {
        tmux_wrap(seq, out);
    } else {
        out.extend_from_slice(seq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_passes_a_sequence_with_its_escapes_doubled() {
        let mut out = Vec::new();
        tmux_wrap(b"\x1b_Ga=d\x1b\\", &mut out);
        assert_eq!(out, b"\x1bPtmux;\x1b\x1b_Ga=d\x1b\x1b\\\x1b\\");
    }
}
