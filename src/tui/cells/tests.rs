use super::*;
use proptest::prelude::*;

/// The bytes of `cells` through `draw`, by ratatui's own crossterm backend
/// and by [`Cells`].
fn both(cells: &[(u16, u16, Cell)]) -> (Vec<u8>, Vec<u8>) {
    let content = || cells.iter().map(|(x, y, c)| (*x, *y, c));
    let (theirs, ours) = (Shared::default(), Shared::default());
    CrosstermBackend::new(theirs.clone())
        .draw(content())
        .unwrap();
    Cells::new(ours.clone()).draw(content()).unwrap();
    (theirs.bytes(), ours.bytes())
}

/// A writer whose bytes can be read after its backend has them.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Shared {
    fn bytes(&self) -> Vec<u8> {
        self.0.borrow().clone()
    }
}

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![
        Just(Color::Reset),
        Just(Color::Red),
        Just(Color::DarkGray),
        Just(Color::White),
        any::<u8>().prop_map(Color::Indexed),
        any::<(u8, u8, u8)>().prop_map(|(r, g, b)| Color::Rgb(r, g, b)),
    ]
}

fn cell() -> impl Strategy<Value = Cell> {
    let symbol = prop_oneof![
        Just(" "),
        Just("a"),
        Just("漢"),
        Just("é"),
        Just("👍🏽"),
        Just(""),
        Just("\u{2003}"),
    ];
    (symbol, color(), color(), color(), 0u16..0x200).prop_map(|(s, fg, bg, ul, bits)| {
        let mut c = Cell::new(s);
        c.fg = fg;
        c.bg = bg;
        c.underline_color = ul;
        c.modifier = Modifier::from_bits_truncate(bits);
        c
    })
}

/// Cells in screen order, each the next column or further on (a run, a
/// gap, the next row), up to a 1000-column, 500-row screen.
fn frame() -> impl Strategy<Value = Vec<(u16, u16, Cell)>> {
    prop::collection::vec((0u16..4, 0u16..3, cell()), 0..60).prop_map(|steps| {
        let (mut x, mut y) = (0u16, 0u16);
        let mut out = Vec::new();
        for (dx, dy, c) in steps {
            if dy > 1 {
                y = (y + 1).min(499);
                x = dx * 300;
            } else {
                x = (x + dx).min(999);
            }
            out.push((x, y, c));
        }
        out
    })
}

proptest! {
    #[test]
    fn the_same_bytes_as_ratatuis_crossterm_backend(cells in frame()) {
        let (theirs, ours) = both(&cells);
        prop_assert_eq!(String::from_utf8_lossy(&theirs), String::from_utf8_lossy(&ours));
    }
}

#[test]
fn the_cursor_moves_to_the_corners_of_the_largest_screen() {
    let cells = [
        (0, 0, Cell::new("a")),
        (999, 0, Cell::new("b")),
        (0, 499, Cell::new("c")),
        (999, 499, Cell::new("d")),
    ];
    let (theirs, ours) = both(&cells);
    assert_eq!(theirs, ours);
    assert!(String::from_utf8_lossy(&ours).contains("\x1b[500;1000Hd"));
}

/// A buffer drawn as a screen is: strings of every width at random places,
/// styled, with some cells skipped or of a forced width, as pictures and
/// links leave them.
fn buffer() -> impl Strategy<Value = Buffer> {
    let text = prop_oneof![
        Just("ab"),
        Just("漢字"),
        Just("❤\u{FE0F}x"),
        Just("👍🏽"),
        Just("e\u{301}"),
        Just("  "),
        Just("-"),
    ];
    let option = prop_oneof![
        4 => Just(None),
        1 => Just(Some(CellDiffOption::Skip)),
        1 => Just(Some(CellDiffOption::AlwaysUpdate)),
        1 => Just(Some(CellDiffOption::ForcedWidth(std::num::NonZeroU16::MIN.saturating_add(1)))),
    ];
    let put = (
        0u16..12,
        0u16..5,
        text,
        color(),
        color(),
        0u16..0x200,
        option,
        any::<bool>(),
    );
    (
        1u16..12,
        1u16..5,
        0u16..3,
        prop::collection::vec(put, 0..12),
    )
        .prop_map(|(w, h, origin, puts)| {
            let area = ratatui::layout::Rect::new(origin, origin, w, h);
            let mut buf = Buffer::empty(area);
            for (x, y, s, fg, bg, bits, option, skip) in puts {
                let (x, y) = (origin + x % w, origin + y % h);
                let style = ratatui::style::Style::default()
                    .fg(fg)
                    .bg(bg)
                    .add_modifier(Modifier::from_bits_truncate(bits));
                buf.set_string(x, y, s, style);
                if let Some(option) = option {
                    buf[(x, y)].diff_option = option;
                }
                #[allow(deprecated)]
                if skip {
                    buf[(x, y)].skip = true;
                }
            }
            buf
        })
}

proptest! {
    #[test]
    fn over_blank_is_the_diff_against_a_blank_buffer(buf in buffer()) {
        let theirs = Buffer::empty(buf.area).diff(&buf);
        prop_assert_eq!(theirs, over_blank(&buf));
    }
}

#[test]
fn a_blank_cell_that_always_updates_is_written() {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 3, 1));
    buf[(1, 0)].diff_option = CellDiffOption::AlwaysUpdate;
    let theirs = Buffer::empty(buf.area).diff(&buf);
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs, over_blank(&buf));
}

proptest! {
    #[test]
    fn blank_is_equality_with_the_empty_cell(c in cell(), skip in any::<bool>()) {
        let mut c = c;
        #[allow(deprecated)]
        { c.skip = skip; }
        prop_assert_eq!(blank(&c), c == Cell::EMPTY);
        prop_assert!(blank(&Cell::EMPTY));
        prop_assert!(blank(&Cell::new(" ")));
    }
}
