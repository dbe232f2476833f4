//! Tables: a grid when it fits, else one "Header: value" record per row.

use super::builder::Builder;
use super::text::pieces;
use crate::layout::style::{BOLD, Role, Span, Style};
use crate::layout::wrap::width;
use crate::model::Run;

/// Grid cells are not wrapped: whitespace (a tab, a newline) collapses to
/// single spaces so the row stays one measured line.
fn cell_text(cell: Option<&Vec<Run>>) -> String {
    cell.map(|r| {
        let text = crate::model::runs_text(r);
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    })
    .unwrap_or_default()
}

impl Builder<'_> {
    pub(super) fn table(&mut self, header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let cols = header
            .len()
            .max(rows.iter().map(Vec::len).max().unwrap_or(0));
        let mut widths = vec![0usize; cols];
        for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
            for (c, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(width(&cell_text(row.get(c))));
            }
        }
        let total = widths.iter().sum::<usize>() + 3 * cols.saturating_sub(1);
        if total <= self.avail() && cols > 0 {
            self.grid(&widths, header, rows);
        } else {
            self.records(cols, header, rows);
        }
    }

    fn grid(&mut self, widths: &[usize], header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let row_line = |row: &[Vec<Run>], style: Style| {
            let mut spans = Vec::new();
            for (c, w) in widths.iter().enumerate() {
                if c > 0 {
                    spans.push(Span::new(" │ ", Role::Rule));
                }
                let t = cell_text(row.get(c));
                let pad = w - width(&t);
                spans.push(Span::new(t, style));
                spans.push(Span::new(" ".repeat(pad), Role::Text));
            }
            spans
        };
        self.emit(row_line(header, Style::new(Role::Text).with(BOLD)));
        let sep: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        self.emit(vec![Span::new(sep.join("─┼─"), Role::Rule)]);
        for row in rows {
            self.emit(row_line(row, Style::new(Role::Text)));
        }
    }

    /// Too wide for a grid: one record per row, "Header: value".
    fn records(&mut self, cols: usize, header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                self.blank();
            }
            for c in 0..cols {
                let mut p = vec![(
                    format!("{}: ", cell_text(header.get(c))),
                    Style::new(Role::Text).with(BOLD),
                )];
                p.extend(pieces(
                    row.get(c).map_or(&[][..], Vec::as_slice),
                    Style::new(Role::Text),
                ));
                self.wrapped(&p);
            }
        }
    }
}
