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
/// column, no column narrower than its longest word (up to 12 columns:
/// a longer word breaks), or `None` when even that does not fit.
fn narrowed(natural: &[usize], table: &Table, room: usize) -> Option<Vec<usize>> {
    let mut least = vec![1usize; natural.len()];
    for row in table.all_rows() {
        for (c, l) in least.iter_mut().enumerate() {
            let t = cell_text(&row, c);
            let longest = t.split_whitespace().map(width).max().unwrap_or(0);
            *l = (*l).max(longest.min(12)).min(natural[c].max(1));
        }
    }
    let floor: usize = least.iter().sum();
    if natural.is_empty() || floor > room {
        return None;
    }
    // What is left is shared in proportion to how much each column wants.
    let spare = room - floor;
    let want: usize = natural.iter().zip(&least).map(|(n, l)| n - l).sum();
    Some(
        natural
            .iter()
            .zip(&least)
            .map(|(n, l)| l + (n - l) * spare / want.max(1))
            .collect(),
    )
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
