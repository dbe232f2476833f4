//! A picture's place on the page: rows of the size it will be drawn at,
//! holding its words until the picture is ready (and wherever it cannot
//! be drawn), then its caption (or its words) under it. Without room for
//! pictures (`images = "off"`, a dumb terminal, printing) it is one line:
//! its words and its address.

use super::builder::Builder;
use crate::layout::style::{ITALIC, Role, Span, Style};
use crate::model::{Image, ImageFile};
use std::path::PathBuf;
use std::sync::Arc;

/// The pixels a terminal cell stands for, until the terminal says (most
/// terminal fonts are twice as tall as wide).
pub const CELL_PIXELS: (u32, u32) = (8, 16);
/// The most rows a picture takes: under most screens' height, so one is
/// always seen whole with a line of text.
pub const MAX_ROWS: u16 = 20;
/// What the rows say while the picture is on its way.
const PENDING: &str = "picture: ";

/// Where a picture is drawn on the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PicturePlace {
    /// Its first page line.
    pub line: usize,
    /// Columns left of it (quote bars, list indents).
    pub indent: u16,
    pub cols: u16,
    pub rows: u16,
    pub path: Arc<PathBuf>,
}

/// The cells a picture of `pixels` takes at `avail` columns: its width in
/// cells (or `percent` of the text), never wider than the text nor taller
/// than [`MAX_ROWS`], its proportions kept.
pub fn cells(pixels: (u32, u32), percent: Option<u8>, avail: usize) -> (u16, u16) {
    let (w, h) = (u64::from(pixels.0.max(1)), u64::from(pixels.1.max(1)));
    let avail = avail.clamp(1, usize::from(u16::MAX)) as u64;
    let wanted = match percent {
        Some(p) => avail * u64::from(p) / 100,
        None => w.div_ceil(u64::from(CELL_PIXELS.0)),
    };
    let mut cols = wanted.clamp(1, avail);
    let rows_for =
        |cols: u64| (cols * u64::from(CELL_PIXELS.0) * h).div_ceil(w * u64::from(CELL_PIXELS.1));
    let max = u64::from(MAX_ROWS);
    if rows_for(cols) > max {
        cols = (max * w * u64::from(CELL_PIXELS.1) / (h * u64::from(CELL_PIXELS.0))).max(1);
    }
    (cols as u16, rows_for(cols).clamp(1, max) as u16)
}

impl Builder<'_> {
    pub(super) fn picture(&mut self, image: &Image) {
        let room = self
            .code
            .pictures
            .then(|| image.path().zip(image.intended()));
        let Some(Some((path, pixels))) = room else {
            return self.picture_words(image);
        };
        let (cols, rows) = cells(pixels, image.percent, self.avail());
        let indent = self.prefix_width().min(self.width / 2) as u16;
        self.pictures.push(PicturePlace {
            line: self.lines.len(),
            indent,
            cols,
            rows,
            path: Arc::new(path.to_path_buf()),
        });
        let words = format!("{PENDING}{}", image.words());
        let mut said = crate::layout::wrap::wrap(
            &[(words.as_str(), Style::new(Role::Dim))],
            usize::from(cols).saturating_sub(2).max(1),
        )
        .into_iter();
        for _ in 0..rows {
            let mut spans = vec![Span::new("▏ ", Role::FigureFrame)];
            spans.extend(said.next().unwrap_or_default());
            self.emit(spans);
        }
        let under = image.caption.as_deref().unwrap_or(image.words());
        self.text(under, Style::new(Role::Caption).with(ITALIC));
    }

    /// The picture as words: its alt text and where it is (or why it is
    /// not shown).
    fn picture_words(&mut self, image: &Image) {
        let whence = match &image.file {
            ImageFile::Local { path, .. } => path.display().to_string(),
            ImageFile::Refused(why) => why.clone(),
            ImageFile::Remote | ImageFile::Unresolved => image.src.clone(),
        };
        let words = match image.alt.trim() {
            "" => "[image]".to_string(),
            alt => format!("[image: {alt}]"),
        };
        let pieces = [
            (words, Style::new(Role::FigureTitle)),
            (format!(" <{whence}>"), Style::new(Role::Dim)),
        ];
        self.wrapped(&pieces);
        if let Some(c) = &image.caption {
            self.text(c, Style::new(Role::Caption).with(ITALIC));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_keep_their_proportions_inside_the_text() {
        // 400x200 px: 50 columns, 13 rows (cells twice as tall as wide).
        assert_eq!(cells((400, 200), None, 80), (50, 13));
        // Wider than the text: the text's width.
        assert_eq!(cells((1600, 400), None, 80), (80, 10));
        // Tall: capped at MAX_ROWS, narrower to match.
        assert_eq!(cells((400, 4000), None, 80), (4, MAX_ROWS));
        assert_eq!(cells((400, 200), Some(50), 80), (40, 10));
        assert_eq!(cells((u32::MAX, 1), None, 80), (80, 1));
        assert_eq!(cells((1, u32::MAX), None, 80).1, MAX_ROWS);
    }
}
