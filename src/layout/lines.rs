//! A page's lines, compactly: every span's text in one string, each span
//! its end in it and its style, each line its end in the spans. A line
//! as a vector of spans with a string each cost about 200 bytes a table
//! row ("| 1 | 2 |"), thirty times the row in the file; here it costs its
//! text and 6 bytes a span. A [`Line`] is made back when one is asked
//! for (a screen's rows, one at a time for search and printing). Each is
//! kept in pieces that never move ([`Chunked`]).

use super::chunked::{Chunked, ChunkedText};
use super::style::{Line, Span, Style};
use std::collections::HashMap;
use std::ops::Range;

#[derive(Debug, Clone, Default)]
pub struct Lines {
    text: ChunkedText,
    /// Where each span's text ends in `text`.
    spans: Chunked<u32>,
    /// Each span's style, by its place in `palette`: a page has a few
    /// dozen styles (roles, modifiers, a theme's colours), and a style is
    /// 5 bytes, padded to 8 beside an offset.
    styles: Chunked<u16>,
    palette: Vec<Style>,
    places: HashMap<Style, u16>,
    /// Where each line's spans end in `spans`.
    ends: Chunked<u32>,
}

impl Lines {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.len() == 0
    }

    pub fn push(&mut self, line: Line) {
        // A line's text reads back as one string.
        self.text
            .reserve(line.spans.iter().map(|s| s.text.len()).sum());
        for span in line.spans {
            // Past 4 GiB of text (no lesson under the size cap lays out
            // so much) a span keeps its style and loses its text rather
            // than wrap an offset around.
            if u32::try_from(self.text.len() + span.text.len()).is_ok() {
                self.text.push_str(&span.text);
            }
            self.spans.push(self.text.len() as u32);
            let style = self.place(span.style);
            self.styles.push(style);
        }
        self.ends.push(self.spans.len() as u32);
    }

    /// `style`'s place in the palette. Styles come from roles, modifiers
    /// and the theme, never from the lesson, so the palette cannot fill
    /// up; if it did, a new style would be drawn as the first one.
    fn place(&mut self, style: Style) -> u16 {
        if let Some(&at) = self.places.get(&style) {
            return at;
        }
        let Ok(at) = u16::try_from(self.palette.len()) else {
            return 0;
        };
        self.palette.push(style);
        self.places.insert(style, at);
        at
    }

    /// The spans of line `i`, as a range of `spans`.
    fn span_range(&self, i: usize) -> Range<usize> {
        let start = match i {
            0 => 0,
            _ => self.end(i - 1),
        };
        start..self.end(i)
    }

    fn end(&self, i: usize) -> usize {
        self.ends.get(i).unwrap_or(0) as usize
    }

    /// Where span `s` ends in `text`.
    fn span_end(&self, s: usize) -> usize {
        self.spans.get(s).unwrap_or(0) as usize
    }

    /// Where span `s` starts in `text`.
    fn text_start(&self, s: usize) -> usize {
        match s {
            0 => 0,
            _ => self.span_end(s - 1),
        }
    }

    pub fn get(&self, i: usize) -> Option<Line> {
        if i >= self.len() {
            return None;
        }
        let spans = self
            .span_range(i)
            .map(|s| {
                let text = self.text.get(self.text_start(s), self.span_end(s));
                let style = usize::from(self.styles.get(s).unwrap_or(0));
                Span::new(text, self.palette[style])
            })
            .collect();
        Some(Line { spans })
    }

    /// Line `i`'s spans, their text and style, without making the line.
    pub fn spans(&self, i: usize) -> impl Iterator<Item = (&str, Style)> + '_ {
        let spans = match i < self.len() {
            true => self.span_range(i),
            false => 0..0,
        };
        spans.map(|s| {
            let text = self.text.get(self.text_start(s), self.span_end(s));
            let style = usize::from(self.styles.get(s).unwrap_or(0));
            (text, self.palette[style])
        })
    }

    /// Line `i`'s text, without making the line.
    pub fn text(&self, i: usize) -> Option<&str> {
        let spans = self.span_range(i.min(self.len().checked_sub(1)?));
        (i < self.len()).then(|| match spans.is_empty() {
            true => "",
            false => self
                .text
                .get(self.text_start(spans.start), self.span_end(spans.end - 1)),
        })
    }

    /// Whether the last line has no spans at all (a blank line).
    pub fn last_is_blank(&self) -> bool {
        self.len()
            .checked_sub(1)
            .is_some_and(|i| self.span_range(i).is_empty())
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Line> + '_ {
        self.range(0..self.len())
    }

    /// The lines of `range` (cut to the lines there are).
    pub fn range(&self, range: Range<usize>) -> impl ExactSizeIterator<Item = Line> + '_ {
        let end = range.end.min(self.len());
        (range.start.min(end)..end).map(|i| self.get(i).unwrap_or_default())
    }

    /// Frees what growing left spare: a page is kept while it is read.
    pub fn fit(&mut self) {
        self.text.fit();
        self.spans.fit();
        self.styles.fit();
        self.ends.fit();
    }
}

/// Lines are equal when they read the same, whatever order their
/// palettes were filled in.
impl PartialEq for Lines {
    fn eq(&self, other: &Lines) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Lines {}

impl FromIterator<Line> for Lines {
    fn from_iter<I: IntoIterator<Item = Line>>(iter: I) -> Self {
        let mut lines = Lines::default();
        iter.into_iter().for_each(|l| lines.push(l));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::style::Role;

    #[test]
    fn lines_read_back_as_they_were_pushed() {
        let lines = vec![
            Line {
                spans: vec![Span::new("a", Role::Text), Span::new("", Role::Rule)],
            },
            Line::default(),
            Line {
                spans: vec![Span::new("│ ", Role::Quote), Span::new("ü", Role::Code)],
            },
        ];
        let compact: Lines = lines.iter().cloned().collect();
        assert_eq!(compact.len(), 3);
        assert_eq!(compact.iter().collect::<Vec<_>>(), lines);
        assert_eq!(compact.get(3), None);
        assert_eq!(compact.text(2), Some("│ ü"));
        assert_eq!(compact.text(1), Some(""));
        assert_eq!(compact.text(3), None);
        assert_eq!(compact.range(1..9).collect::<Vec<_>>(), lines[1..]);
        assert!(!compact.last_is_blank());
        assert!(Lines::default().text(0).is_none());
        let blank: Lines = lines[..2].iter().cloned().collect();
        assert!(blank.last_is_blank());
    }
}
