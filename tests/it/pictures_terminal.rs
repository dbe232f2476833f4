//! Pictures through the terminal's graphics protocols (issue 27), and the
//! one start-up query (issue 31), in the real binary in a pseudo-terminal
//! whose fake terminal speaks kitty's protocol: it answers the graphics
//! query (plain, or passed through tmux) and tells its cell size. What the
//! reader writes is read back from the raw bytes: the picture sent once,
//! deleted when it scrolls away, placeholders on the screen, never its
//! data. The pictures are made here.

use crate::common::pty::{Opts, Term};
use std::path::{Path, PathBuf};

/// A lesson with a picture at the top and a long page under it.
fn lesson() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pictures");
    std::fs::create_dir_all(dir.join("img")).unwrap();
    let img = image::RgbImage::from_fn(160, 64, |_, y| {
        image::Rgb(if y < 32 { [255, 0, 0] } else { [0, 0, 255] })
    });
    img.save(dir.join("img/bands.png")).unwrap();
    let mut body = String::from("# Pictures\n\nAbove.\n\n![Two bands](img/bands.png)\n\n");
    for i in 0..80 {
        body.push_str(&format!("Line {i} of the page under the picture.\n\n"));
    }
    let file = dir.join("01-pictures.md");
    std::fs::write(&file, body).unwrap();
    (tmp, file)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

const SENT: &[u8] = b"\x1b_Ga=T,U=1,f=100";
const DELETED: &[u8] = b"\x1b_Ga=d,d=I,i=";
const PLACEHOLDER: char = '\u{10EEEE}';

/// kitty's terminal as the fake one plays it.
fn kitty<'a>(data: &'a Path, vars: &'a [(&'a str, &'a str)]) -> Opts<'a> {
    Opts {
        kitty: true,
        cell: Some((10, 20)),
        vars,
        ..Opts::new(data, 60, 20)
    }
}

#[test]
fn kitty_gets_a_picture_once_and_its_delete_when_it_scrolls_away() {
    let (_tmp, file) = lesson();
    let data = tempfile::tempdir().unwrap();
    let vars = [("TERM", "xterm-kitty")];
    let mut t = Term::lectern(&[file.as_path()], &kitty(data.path(), &vars));
    t.wait_for("q quit");
    t.wait_raw("the picture sent", |raw, _| count(raw, SENT) == 1);
    t.wait_until("placeholders drawn", |s| s.contains(PLACEHOLDER));
    // 20 columns (160 px at the page's 8 px a cell), 4 rows.
    let cells: usize = t.contents().matches(PLACEHOLDER).count();
    assert_eq!(cells, 20 * 4, "{}", t.contents());
    // Scrolled by a line, then another: moved as text, never sent again.
    let first_row = |s: &str| s.lines().position(|l| l.contains(PLACEHOLDER));
    let at = first_row(&t.contents()).unwrap();
    t.press("j");
    t.press("j");
    t.wait_until("scrolled", |s| first_row(s) == Some(at - 2));
    t.wait_settled();
    assert_eq!(count(&t.raw(), SENT), 1);
    assert!(t.contents().contains(PLACEHOLDER));
    // Far away: deleted, once; back: sent again.
    t.press("G");
    t.wait_raw("the picture deleted", |raw, _| count(raw, DELETED) == 1);
    t.wait_settled();
    assert!(!t.contents().contains(PLACEHOLDER));
    t.press("g");
    t.wait_raw("the picture sent again", |raw, _| count(raw, SENT) == 2);
    t.wait_until("placeholders again", |s| s.contains(PLACEHOLDER));
    // Its data never reaches the screen as text.
    assert!(!t.contents().contains("iVBOR"), "{}", t.contents());
    t.quit_cleanly();
    // Quitting deletes what the terminal still holds.
    assert_eq!(count(&t.raw(), DELETED), 2);
}

#[test]
fn inside_tmux_the_picture_passes_through_and_is_placed_by_placeholders() {
    let (_tmp, file) = lesson();
    let data = tempfile::tempdir().unwrap();
    let vars = [
        ("TERM", "tmux-256color"),
        ("TMUX", "/tmp/tmux-lectern-test/default,1,0"),
    ];
    let mut t = Term::lectern(&[file.as_path()], &kitty(data.path(), &vars));
    t.wait_for("q quit");
    // The query went through tmux, and so does the picture.
    t.wait_raw("the query passed through", |raw, _| {
        count(raw, b"\x1bPtmux;\x1b\x1b_Gi=31,") == 1
    });
    t.wait_raw("the picture passed through", |raw, _| {
        count(raw, b"\x1bPtmux;\x1b\x1b_Ga=T,U=1,f=100") == 1
    });
    t.wait_until("placeholders drawn", |s| s.contains(PLACEHOLDER));
    let wrapped = count(&t.raw(), b"\x1b\x1b_Ga=T,U=1,f=100");
    assert_eq!(count(&t.raw(), SENT), wrapped, "nothing sent unwrapped");
    t.quit_cleanly();
}

/// Sixel pictures are part of the screen's cells: drawn over their half
/// blocks when whole on screen, drawn again (the screen cleared) when they
/// move, in half blocks when cut by the screen's edge.
#[test]
fn a_sixel_picture_is_drawn_whole_again_where_it_moves() {
    let (_tmp, file) = lesson();
    let data = tempfile::tempdir().unwrap();
    let args = [Path::new("--images"), Path::new("sixel"), file.as_path()];
    let opts = Opts {
        cell: Some((10, 20)),
        ..Opts::new(data.path(), 60, 20)
    };
    let mut t = Term::lectern(&args, &opts);
    const SIXEL: &[u8] = b"\x1bP0;1;0q\"1;1;200;80";
    t.wait_raw("the sixels", |raw, _| count(raw, SIXEL) == 1);
    let first_row = |s: &str| s.lines().position(|l| l.contains('▀'));
    t.wait_until("half blocks under it", |s| first_row(s).is_some());
    let at = first_row(&t.contents()).unwrap();
    t.press("j");
    t.wait_raw("drawn again", |raw, _| count(raw, SIXEL) == 2);
    t.wait_until("moved", |s| first_row(s) == Some(at - 1));
    // Cut by the top of the screen: half blocks only.
    for _ in 0..at {
        t.press("j");
    }
    t.wait_until("cut", |s| first_row(s) == Some(1));
    t.wait_settled();
    let drawn = count(&t.raw(), SIXEL);
    let rows = |s: &str| s.lines().filter(|l| l.contains('▀')).count();
    let cut = rows(&t.contents());
    t.press("j");
    t.wait_until("cut further", |s| rows(s) == cut - 1);
    t.wait_settled();
    assert_eq!(count(&t.raw(), SIXEL), drawn, "no sixels for a cut picture");
    t.quit_cleanly();
}

#[test]
fn images_off_asks_kitty_nothing_and_sends_nothing() {
    let (_tmp, file) = lesson();
    let data = tempfile::tempdir().unwrap();
    let vars = [("TERM", "xterm-kitty")];
    let args = [Path::new("--images"), Path::new("off"), file.as_path()];
    let mut t = Term::lectern(&args, &kitty(data.path(), &vars));
    t.wait_for("q quit");
    t.wait_for("[image: Two bands]");
    t.press("j");
    t.wait_settled();
    let raw = t.raw();
    assert_eq!(count(&raw, b"_Gi=31"), 0, "kitty is not asked");
    assert_eq!(count(&raw, b"\x1b_G"), 0, "nothing sent");
    assert!(!t.contents().contains(PLACEHOLDER) && !t.contents().contains('▀'));
    t.quit_cleanly();
}

/// Keys typed while the terminal is asked (one that answers nothing: the
/// wait runs its whole time) go to crossterm's own parser: a key in the
/// kitty keyboard protocol's form, which a re-parser of lectern's dropped.
#[test]
fn keys_typed_while_the_terminal_is_asked_are_all_read() {
    let (_tmp, file) = lesson();
    let data = tempfile::tempdir().unwrap();
    let opts = Opts {
        silent: true,
        ..Opts::new(data.path(), 60, 20)
    };
    let mut t = Term::lectern(&[file.as_path()], &opts);
    t.wait_for("q quit");
    // `?` as kitty's keyboard protocol sends it (CSI 63 u).
    t.press("\x1b[63u");
    t.wait_for("Help · Esc to close");
    // Esc in the same form; then `j`.
    t.press("\x1b[27u");
    t.wait_gone("Help · Esc to close");
    t.quit_cleanly();
    // Asked once, and no answer was typed into the reader.
    assert_eq!(count(&t.raw(), b"\x1b]11;?"), 1);
}
