//! Tables: a grid when it fits, else one "Header: value" record per row.

use super::builder::Builder;
use super::text::pieces;
use crate::layout::style::{BOLD, Role, Span, Style};
use crate::layout::wrap::{self, width};
use crate::model::{Row, Table};

/// Grid cells are not wrapped: whitespace (a tab, a newline) collapses to
/// single spaces so the row stays one measured line.
fn cell_text(row: &Row, c: usize) -> String {
    row.get(c)
        .map(|cell| cell.text().split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Column widths that fit `room` with every cell wrapped inside its
/// column, or `None` when even words of up to 12 columns whole do not
/// fit (a longer word breaks). No column is narrower than its longest
/// word while the words fit, so a word breaks only when the page has no
/// room for it in any sharing; the rest of the room goes to the columns
/// in proportion to how much more each one's text wants.
fn narrowed(natural: &[usize], table: &Table, room: usize) -> Option<Vec<usize>> {
    let mut longest = vec![1usize; natural.len()];
    for row in table.all_rows() {
        for (c, l) in longest.iter_mut().enumerate() {
            let t = cell_text(&row, c);
            let word = t.split_whitespace().map(width).max().unwrap_or(0);
            *l = (*l).max(word).min(natural[c].max(1));
        }
    }
    let floor: usize = longest.iter().map(|l| (*l).min(WHOLE_WORD)).sum();
    if natural.is_empty() || floor > room {
        return None;
    }
    Some(share(natural, &fit_words(&longest, room), room))
}

/// The longest word a column keeps whole however narrow the page.
const WHOLE_WORD: usize = 12;

/// Each column's least width: its longest word, the widest cut down
/// first (to no less than [`WHOLE_WORD`]) while they do not fit `room`.
fn fit_words(longest: &[usize], room: usize) -> Vec<usize> {
    let mut least = longest.to_vec();
    loop {
        let over = least.iter().sum::<usize>().saturating_sub(room);
        let widest = (0..least.len()).max_by_key(|&c| least[c]);
        let Some(c) = widest.filter(|&c| over > 0 && least[c] > WHOLE_WORD) else {
            return least;
        };
        // Down to the next widest column at most, so the cut is shared
        // by the widest columns rather than taken from one.
        let next = (0..least.len())
            .filter(|&o| o != c)
            .map(|o| least[o])
            .max()
            .unwrap_or(0)
            .max(WHOLE_WORD);
        least[c] -= over.min(least[c] - next).max(1);
    }
}

/// `least` widened to fill `room`: the spare in proportion to what each
/// column's text wants beyond its least, what rounding leaves to the
/// columns still wanting most.
fn share(natural: &[usize], least: &[usize], room: usize) -> Vec<usize> {
    let spare = room.saturating_sub(least.iter().sum());
    let want: usize = natural
        .iter()
        .zip(least)
        .map(|(n, l)| n.saturating_sub(*l))
        .sum();
    let mut widths: Vec<usize> = natural
        .iter()
        .zip(least)
        .map(|(n, l)| l + n.saturating_sub(*l) * spare / want.max(1))
        .collect();
    let mut left = spare.min(want) - (widths.iter().sum::<usize>() - least.iter().sum::<usize>());
    while left > 0 {
        let Some(c) = (0..widths.len())
            .filter(|&c| widths[c] < natural[c])
            .max_by_key(|&c| natural[c] - widths[c])
        else {
            break;
        };
        widths[c] += 1;
        left -= 1;
    }
    widths
}

impl Builder<'_> {
    pub(super) fn table(&mut self, table: &Table) {
        let cols = table.all_rows().map(|r| r.len()).max().unwrap_or(0);
        let mut widths = vec![0usize; cols];
        for row in table.all_rows() {
            for (c, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(width(&wrap::visible(&cell_text(&row, c))));
            }
        }
        let seps = 3 * cols.saturating_sub(1);
        let total = widths.iter().sum::<usize>() + seps;
        if total <= self.avail() && cols > 0 {
            self.grid(&widths, table);
        } else if let Some(narrow) = narrowed(&widths, table, self.avail().saturating_sub(seps)) {
            self.wrapped_grid(&narrow, table);
        } else {
            self.records(cols, table);
        }
    }

    /// A grid whose cells wrap inside their columns: each row as tall as
    /// its tallest cell.
    fn wrapped_grid(&mut self, widths: &[usize], table: &Table) {
        let row_lines = |b: &mut Self, row: Row, style: Style| {
            let cells: Vec<Vec<Vec<Span>>> = widths
                .iter()
                .enumerate()
                .map(|(c, &w)| wrap::wrap(&[(cell_text(&row, c).as_str(), style)], w))
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1);
            for i in 0..height {
                let mut spans = Vec::new();
                for (c, w) in widths.iter().enumerate() {
                    if c > 0 {
                        spans.push(Span::new(" │ ", Role::Rule));
                    }
                    let line = cells[c].get(i).cloned().unwrap_or_default();
                    let lw: usize = line.iter().map(|s| width(&s.text)).sum();
                    spans.extend(line);
                    spans.push(Span::new(" ".repeat(w.saturating_sub(lw)), Role::Text));
                }
                b.emit(spans);
            }
        };
        row_lines(self, table.header(), Style::new(Role::Text).with(BOLD));
        let sep: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        self.emit(vec![Span::new(sep.join("─┼─"), Role::Rule)]);
        for (i, row) in table.rows().enumerate() {
            if i > 0 {
                let sep: Vec<String> = widths.iter().map(|w| "╌".repeat(*w)).collect();
                self.emit(vec![Span::new(sep.join("╌┼╌"), Role::Rule)]);
            }
            row_lines(self, row, Style::new(Role::Text));
        }
    }

    fn grid(&mut self, widths: &[usize], table: &Table) {
        let row_line = |row: Row, style: Style| {
            let mut spans = Vec::new();
            for (c, w) in widths.iter().enumerate() {
                if c > 0 {
                    spans.push(Span::new(" │ ", Role::Rule));
                }
                let mut t = wrap::visible(&cell_text(&row, c)).into_owned();
                let pad = " ".repeat(w - width(&t));
                // A plain cell and its padding are one span: a row is
                // kept as long as the page (see `layout::Lines`).
                if style == Style::new(Role::Text) {
                    t.push_str(&pad);
                    spans.push(Span::new(t, style));
                } else {
                    spans.push(Span::new(t, style));
                    spans.push(Span::new(pad, Role::Text));
                }
            }
            spans
        };
        self.emit(row_line(table.header(), Style::new(Role::Text).with(BOLD)));
        let sep: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        self.emit(vec![Span::new(sep.join("─┼─"), Role::Rule)]);
        for row in table.rows() {
            self.emit(row_line(row, Style::new(Role::Text)));
        }
    }

    /// Too wide for a grid: one record per row, "Header: value".
    fn records(&mut self, cols: usize, table: &Table) {
        let header = table.header();
        for (i, row) in table.rows().enumerate() {
            if i > 0 {
                self.blank();
            }
            for c in 0..cols {
                let mut p = vec![(
                    format!("{}: ", cell_text(&header, c)),
                    Style::new(Role::Text).with(BOLD),
                )];
                let runs = row.get(c).map(|cell| cell.runs()).unwrap_or_default();
                p.extend(pieces(&runs, Style::new(Role::Text)));
                self.wrapped(&p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Run;

    fn table(rows: &[&[&str]]) -> Table {
        Table::from_rows(
            rows.iter()
                .map(|r| r.iter().map(|c| vec![Run::plain(*c)]).collect()),
        )
    }

    #[test]
    fn a_long_word_keeps_its_column_wide_while_prose_wraps() {
        let t = table(&[
            &["name", "what"],
            &[
                "a_rather_long_identifier",
                "a sentence of prose that wraps at its spaces over several lines",
            ],
        ]);
        let natural = [24, 63];
        let w = narrowed(&natural, &t, 50).unwrap();
        assert_eq!(w.iter().sum::<usize>(), 50);
        assert!(w[0] >= 24, "{w:?}");
    }

    #[test]
    fn words_too_long_for_the_page_are_cut_widest_first() {
        let w = fit_words(&[30, 20, 5], 40);
        assert_eq!(w.iter().sum::<usize>(), 40);
        assert!(w[0].abs_diff(w[1]) <= 1 && w[2] == 5, "{w:?}");
        assert_eq!(fit_words(&[30, 30], 24), [12, 12]);
    }

    #[test]
    fn the_spare_room_is_all_given_and_none_past_what_a_column_wants() {
        let w = share(&[10, 40, 3], &[5, 10, 3], 30);
        assert_eq!(w.iter().sum::<usize>(), 30);
        assert!(w[0] <= 10 && w[2] == 3, "{w:?}");
    }
}
