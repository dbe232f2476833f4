//! A picture a lesson shows: where it is, what it says in words, and the
//! size its source intends. The loader finds the file (`file`); layout
//! and screens never look at the filesystem.

use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Image {
    /// The address as the lesson wrote it (sanitised).
    pub src: String,
    /// What the picture shows, in words: drawn in its place until (and
    /// unless) the picture is.
    pub alt: String,
    /// Shown under the picture.
    pub caption: Option<String>,
    /// The width and height the source asks for, in pixels (HTML's
    /// `width`/`height`, a lesson's `width`/`height`).
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// A share of the text's width the source asks for (HTML's
    /// `width="50%"` or `style="width: 50%"`), 1 to 100.
    pub percent: Option<u8>,
    pub file: ImageFile,
}

/// What the loader found at an image's address.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ImageFile {
    /// Not looked for yet (the loader's own pass fills it in).
    #[default]
    Unresolved,
    /// A local file the lesson may show, with its size in pixels when its
    /// header says it.
    Local {
        path: PathBuf,
        pixels: Option<(u32, u32)>,
    },
    /// A web address: never fetched, shown as its alt text and link.
    Remote,
    /// Not shown, and why (missing, outside the book, unreadable).
    Refused(String),
}

impl Image {
    /// The local file to draw, if there is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match &self.file {
            ImageFile::Local { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The size the picture means to have, in pixels: the source's hints
    /// (one of them scales the other by the file's own proportions), else
    /// the file's.
    pub fn intended(&self) -> Option<(u32, u32)> {
        let pixels = match &self.file {
            ImageFile::Local { pixels, .. } => *pixels,
            _ => None,
        };
        let scale =
            |a: u32, b: u32, c: u32| (u64::from(a) * u64::from(b) / u64::from(c).max(1)) as u32;
        match (self.width, self.height, pixels) {
            (Some(w), Some(h), _) => Some((w, h)),
            (Some(w), None, Some((pw, ph))) => Some((w, scale(w, ph, pw))),
            (None, Some(h), Some((pw, ph))) => Some((scale(h, pw, ph), h)),
            (_, _, p) => p,
        }
    }

    /// What stands for the picture in words: its alt text, else its file name.
    pub fn words(&self) -> &str {
        match self.alt.trim() {
            "" => self.src.rsplit('/').next().unwrap_or(&self.src),
            alt => alt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_keep_the_file_proportions() {
        let mut i = Image {
            file: ImageFile::Local {
                path: "a.png".into(),
                pixels: Some((400, 200)),
            },
            ..Image::default()
        };
        assert_eq!(i.intended(), Some((400, 200)));
        i.width = Some(100);
        assert_eq!(i.intended(), Some((100, 50)));
        i.width = None;
        i.height = Some(100);
        assert_eq!(i.intended(), Some((200, 100)));
        i.file = ImageFile::Remote;
        assert_eq!(i.intended(), None);
    }
}

/// A terminal graphics protocol pictures can be drawn with (half blocks
/// need none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    Kitty,
    Iterm,
    Sixel,
}

/// How pictures reach this terminal's screen: the protocol, and the
/// pixels of one cell, which a picture is drawn at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Graphics {
    pub protocol: Protocol,
    /// Width and height of one cell in pixels.
    pub cell: (u16, u16),
}

/// Which drawing of which picture: its file, the cells it fills, and the
/// protocol it is drawn for (`None`: half blocks only).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PictureKey {
    pub path: std::sync::Arc<PathBuf>,
    pub cols: u16,
    pub rows: u16,
    pub graphics: Option<Graphics>,
}

/// A picture scaled to its cells: two pixels a cell, one above the other
/// (what a half block `▀` draws with its two colours), row by row; and,
/// for a graphics protocol, the picture as that protocol sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    pub cols: u16,
    pub rows: u16,
    /// `cols` x `2 * rows` colours, opaque (transparency laid on white).
    pub pixels: Vec<[u8; 3]>,
    pub graphic: Option<Graphic>,
}

/// A picture as a graphics protocol sends it, made in the background: a
/// PNG in base64 (kitty, iTerm2) or a sixel sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graphic {
    pub protocol: Protocol,
    pub data: String,
    /// The PNG's own length in bytes (iTerm2 says it).
    pub len: usize,
}

impl Drawn {
    /// The colours of the top and bottom halves of cell (`x`, `y`).
    pub fn cell(&self, x: u16, y: u16) -> Option<([u8; 3], [u8; 3])> {
        if x >= self.cols || y >= self.rows {
            return None;
        }
        let at = |py: usize| {
            self.pixels
                .get(py * usize::from(self.cols) + usize::from(x))
                .copied()
        };
        Some((at(2 * usize::from(y))?, at(2 * usize::from(y) + 1)?))
    }

    /// The bytes it holds (what a bound on drawings kept counts).
    pub fn bytes(&self) -> usize {
        self.pixels.len() * 3 + self.graphic.as_ref().map_or(0, |g| g.data.len())
    }
}
