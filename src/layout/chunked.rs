//! Append-only storage in pieces of about 64 KiB that are never moved. A
//! long page's vectors grown by doubling copied themselves at every step,
//! and each old copy stayed behind as a hole in the heap that the next,
//! larger copy could not use: laying out a lesson of dense markup cost
//! about twice what its lines hold. Here the first piece grows as a
//! vector does up to the piece's size (a short page costs what it did),
//! and each piece after it is allocated once, at that size.

/// Bytes a piece holds once it is full.
const PIECE: usize = 64 * 1024;

/// A vector of `T` in pieces.
#[derive(Debug, Clone)]
pub(super) struct Chunked<T> {
    pieces: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            pieces: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy> Chunked<T> {
    /// Elements in a full piece.
    const EACH: usize = match PIECE.checked_div(std::mem::size_of::<T>()) {
        Some(n) => n,
        None => PIECE,
    };

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, value: T) {
        match self.pieces.last_mut() {
            Some(last) if last.len() < Self::EACH => last.push(value),
            _ => {
                let mut piece = match self.pieces.is_empty() {
                    true => Vec::new(),
                    false => Vec::with_capacity(Self::EACH),
                };
                piece.push(value);
                self.pieces.push(piece);
            }
        }
        self.len += 1;
    }

    pub(super) fn get(&self, i: usize) -> Option<T> {
        self.pieces
            .get(i / Self::EACH)?
            .get(i % Self::EACH)
            .copied()
    }

    /// Frees what the first piece's growing left spare.
    pub(super) fn fit(&mut self) {
        if let Some(first) = self.pieces.first_mut() {
            first.shrink_to_fit();
        }
    }
}

/// Text in pieces, each a string that no pushed text straddles: a range
/// of offsets that was pushed at once reads back as one `&str`.
#[derive(Debug, Clone, Default)]
pub(super) struct ChunkedText {
    pieces: Vec<String>,
    /// Where each piece starts in the text as a whole.
    starts: Vec<usize>,
    len: usize,
}

impl ChunkedText {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Makes room for `n` more bytes in one piece: the text pushed before
    /// the next call to this reads back whole.
    pub(super) fn reserve(&mut self, n: usize) {
        let fits = self
            .pieces
            .last()
            .is_some_and(|last| last.len() + n <= PIECE.max(last.capacity()));
        if !fits {
            let piece = match self.pieces.is_empty() {
                true => String::new(),
                false => String::with_capacity(PIECE.max(n)),
            };
            self.pieces.push(piece);
            self.starts.push(self.len);
        }
    }

    /// Adds `s` to the last piece (after [`Self::reserve`] for the text
    /// that must read back whole).
    pub(super) fn push_str(&mut self, s: &str) {
        if self.pieces.is_empty() {
            self.reserve(s.len());
        }
        if let Some(last) = self.pieces.last_mut() {
            last.push_str(s);
            self.len += s.len();
        }
    }

    /// The text from `start` to `end`, which were pushed into one piece
    /// (an empty range reads as "" wherever it is).
    pub(super) fn get(&self, start: usize, end: usize) -> &str {
        if start >= end {
            return "";
        }
        let at = self
            .starts
            .partition_point(|&s| s <= start)
            .saturating_sub(1);
        let (Some(piece), Some(&from)) = (self.pieces.get(at), self.starts.get(at)) else {
            return "";
        };
        piece.get(start - from..end - from).unwrap_or("")
    }

    pub(super) fn fit(&mut self) {
        if let Some(first) = self.pieces.first_mut() {
            first.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_across_pieces() {
        let mut c: Chunked<u32> = Chunked::default();
        let n = 3 * Chunked::<u32>::EACH + 5;
        (0..n as u32).for_each(|i| c.push(i));
        assert_eq!(c.len(), n);
        assert!((0..n).all(|i| c.get(i) == Some(i as u32)));
        assert_eq!(c.get(n), None);
        // The pieces after the first never grow past their size.
        assert!(
            c.pieces[1..]
                .iter()
                .all(|p| p.capacity() == Chunked::<u32>::EACH)
        );
    }

    #[test]
    fn text_pushed_at_once_reads_back_whole() {
        let mut t = ChunkedText::default();
        let mut ranges = Vec::new();
        for i in 0..40_000 {
            let line = format!("line {i} ü");
            t.reserve(line.len());
            let start = t.len();
            t.push_str("line ");
            t.push_str(&line[5..]);
            ranges.push((start, t.len(), line));
        }
        assert!(t.pieces.len() > 3);
        assert!(ranges.iter().all(|(a, b, line)| t.get(*a, *b) == line));
        // A text longer than a piece gets a piece of its own.
        let long = "x".repeat(3 * PIECE);
        t.reserve(long.len());
        let start = t.len();
        t.push_str(&long);
        assert_eq!(t.get(start, t.len()), long);
        assert_eq!(t.get(5, 5), "");
    }
}
