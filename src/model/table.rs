//! A table, compactly: every plain cell's text in one string, cut by
//! offsets, and runs kept only for the cells that have styles. A vector
//! of runs per cell (a run, its string, the vector) cost about 120 bytes
//! a cell, twenty times what a short cell is in the file.

use super::Run;
use std::borrow::Cow;
use std::ops::Range;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The plain cells' text, one after the other.
    text: String,
    /// Where each cell's text ends in `text`, in reading order (the
    /// header's cells first).
    ends: Vec<u32>,
    /// Where each row's cells end in `ends`; the first row is the header.
    rows: Vec<u32>,
    /// The cells with styles, by index, in order.
    styled: Vec<(u32, Vec<Run>)>,
}

/// One cell: its text, or its runs when it has styles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    Plain(&'a str),
    Styled(&'a [Run]),
}

/// A row of cells (the header is a row too).
#[derive(Debug, Clone)]
pub struct Row<'a> {
    table: &'a Table,
    cells: Range<usize>,
}

impl Table {
    /// A table of these rows of cells, the first row its header.
    pub fn from_rows(rows: impl IntoIterator<Item = Vec<Vec<Run>>>) -> Table {
        let mut t = Table::default();
        for row in rows {
            for cell in row {
                t.push_cell(cell);
            }
            t.end_row();
        }
        t.fit();
        t
    }

    /// Adds a cell to the row being read.
    pub fn push_cell(&mut self, runs: Vec<Run>) {
        let index = self.ends.len() as u32;
        if let [one] = runs.as_slice()
            && one == &Run::plain(one.text.as_str())
        {
            self.text.push_str(&one.text);
        } else if !runs.is_empty() {
            self.styled.push((index, runs));
        }
        self.ends.push(self.text.len() as u32);
    }

    /// Ends the row being read (the first row is the header).
    pub fn end_row(&mut self) {
        self.rows.push(self.ends.len() as u32);
    }

    /// Frees what growing left spare: a table is kept as long as its
    /// lesson is open.
    pub fn fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.rows.shrink_to_fit();
        self.styled.shrink_to_fit();
    }

    fn row(&self, i: usize) -> Row<'_> {
        let start = match i {
            0 => 0,
            _ => self.rows[i - 1] as usize,
        };
        Row {
            table: self,
            cells: start..self.rows[i] as usize,
        }
    }

    pub fn header(&self) -> Row<'_> {
        match self.rows.is_empty() {
            true => Row {
                table: self,
                cells: 0..0,
            },
            false => self.row(0),
        }
    }

    /// The rows below the header.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Row<'_>> + Clone + '_ {
        (1..self.rows.len().max(1)).map(|i| self.row(i))
    }

    /// The header and every row.
    pub fn all_rows(&self) -> impl Iterator<Item = Row<'_>> + Clone + '_ {
        std::iter::once(self.header()).chain(self.rows())
    }

    /// The runs of the cells with styles (links among them), to change.
    pub fn styled_runs_mut(&mut self) -> impl Iterator<Item = &mut Vec<Run>> {
        self.styled.iter_mut().map(|(_, runs)| runs)
    }

    fn cell(&self, index: usize) -> Cell<'_> {
        if let Ok(at) = self.styled.binary_search_by_key(&(index as u32), |s| s.0) {
            return Cell::Styled(&self.styled[at].1);
        }
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        Cell::Plain(&self.text[start..self.ends[index] as usize])
    }
}

impl<'a> Row<'a> {
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn get(&self, c: usize) -> Option<Cell<'a>> {
        (c < self.len()).then(|| self.table.cell(self.cells.start + c))
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell<'a>> + 'a {
        let table = self.table;
        self.cells.clone().map(move |i| table.cell(i))
    }
}

impl<'a> Cell<'a> {
    /// The cell's text, its runs' texts joined.
    pub fn text(&self) -> Cow<'a, str> {
        match self {
            Cell::Plain(t) => Cow::Borrowed(t),
            Cell::Styled(runs) => Cow::Owned(super::runs_text(runs)),
        }
    }

    /// The cell as runs (a plain cell is one run, or none when empty).
    pub fn runs(&self) -> Cow<'a, [Run]> {
        match self {
            Cell::Plain("") => Cow::Borrowed(&[]),
            Cell::Plain(t) => Cow::Owned(vec![Run::plain(*t)]),
            Cell::Styled(runs) => Cow::Borrowed(runs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_back_as_they_were_given() {
        let bold = Run {
            bold: true,
            ..Run::plain("b")
        };
        let t = Table::from_rows([
            vec![vec![Run::plain("h1")], vec![]],
            vec![vec![Run::plain("1")], vec![bold.clone(), Run::plain("2")]],
            vec![vec![Run::plain("")], vec![Run::plain("x")], vec![]],
        ]);
        let h = t.header();
        assert_eq!(
            (h.len(), h.get(0), h.get(1)),
            (2, Some(Cell::Plain("h1")), Some(Cell::Plain("")))
        );
        assert_eq!(h.get(2), None);
        let rows: Vec<Vec<Cell>> = t.rows().map(|r| r.cells().collect()).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][1], Cell::Styled(&[bold, Run::plain("2")]));
        assert_eq!(rows[0][1].text(), "b2");
        assert_eq!(
            rows[1],
            [Cell::Plain(""), Cell::Plain("x"), Cell::Plain("")]
        );
        assert!(rows[1][0].runs().is_empty());
        assert_eq!(rows[1][1].runs().as_ref(), [Run::plain("x")]);
        assert_eq!(Table::default().rows().len(), 0);
        assert!(Table::default().header().is_empty());
    }
}
