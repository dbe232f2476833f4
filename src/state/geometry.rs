//! Screen geometry derived from the terminal size. The UI draws with the
//! same numbers the state scrolls with.

/// The header and footer rows.
pub const CHROME_ROWS: u16 = 2;
/// Narrower or shorter than this, the screen only says it is too small.
pub const MIN_WIDTH: u16 = 20;
pub const MIN_HEIGHT: u16 = 5;
/// The contents sit beside the page from this width; below it they are
/// an overlay.
pub const TOC_SIDE_MIN_WIDTH: u16 = 100;
pub const TOC_WIDTH: u16 = 34;
/// Longer lines are hard to read: the page is never wider than this.
pub const MAX_TEXT_WIDTH: u16 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub width: u16,
    pub height: u16,
}

impl Size {
    pub fn too_small(self) -> bool {
        self.width < MIN_WIDTH || self.height < MIN_HEIGHT
    }
}

/// A rectangle of cells (the state's own, so it needs no terminal crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Area {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
}

impl Area {
    pub fn contains_row(&self, y: u16) -> bool {
        y >= self.y && y < self.y + self.height
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub toc_side: bool,
    /// Columns left of the page text (contents pane plus margin).
    pub page_x: u16,
    pub text_width: u16,
    /// Rows of the page between header and footer.
    pub rows: u16,
}

impl Geometry {
    pub fn rows(&self) -> usize {
        usize::from(self.rows)
    }

    /// What a page key moves: a screen less one line of context.
    pub fn page(&self) -> isize {
        self.rows().saturating_sub(1).max(1) as isize
    }
}

pub fn geometry(size: Size, toc_open: bool) -> Geometry {
    let toc_side = toc_open && size.width >= TOC_SIDE_MIN_WIDTH;
    let pane = if toc_side { TOC_WIDTH } else { 0 };
    let avail = size.width.saturating_sub(pane);
    let margin = if avail >= 60 { 2 } else { 1 };
    let text_width = avail.saturating_sub(2 * margin).clamp(1, MAX_TEXT_WIDTH);
    Geometry {
        toc_side,
        page_x: pane + margin,
        text_width,
        rows: size.height.saturating_sub(CHROME_ROWS).max(1),
    }
}
