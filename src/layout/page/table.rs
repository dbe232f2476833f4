//! Tables: a grid when it fits, else one "Header: value" record per row.

use super::builder::Builder;
use super::text::pieces;
use crate::layout::style::{BOLD, Role, Span, Style};
use crate::layout::wrap::{self, width};
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

/// Column widths that fit `room` with every cell wrapped inside its
/// column, no column narrower than its longest word (up to 12 columns:
/// a longer word breaks), or `None` when even that does not fit.
fn narrowed(
    natural: &[usize],
    header: &[Vec<Run>],
    rows: &[Vec<Vec<Run>>],
    room: usize,
) -> Option<Vec<usize>> {
    let mut least = vec![1usize; natural.len()];
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (c, l) in least.iter_mut().enumerate() {
            let t = cell_text(row.get(c));
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
    pub(super) fn table(&mut self, header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let cols = header
            .len()
            .max(rows.iter().map(Vec::len).max().unwrap_or(0));
        let mut widths = vec![0usize; cols];
        for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
            for (c, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(width(&wrap::visible(&cell_text(row.get(c)))));
            }
        }
        let seps = 3 * cols.saturating_sub(1);
        let total = widths.iter().sum::<usize>() + seps;
        if total <= self.avail() && cols > 0 {
            self.grid(&widths, header, rows);
        } else if let Some(narrow) =
            narrowed(&widths, header, rows, self.avail().saturating_sub(seps))
        {
            self.wrapped_grid(&narrow, header, rows);
        } else {
            self.records(cols, header, rows);
        }
    }

    /// A grid whose cells wrap inside their columns: each row as tall as
    /// its tallest cell.
    fn wrapped_grid(&mut self, widths: &[usize], header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let row_lines = |b: &mut Self, row: &[Vec<Run>], style: Style| {
            let cells: Vec<Vec<Vec<Span>>> = widths
                .iter()
                .enumerate()
                .map(|(c, &w)| wrap::wrap(&[(cell_text(row.get(c)).as_str(), style)], w))
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
        row_lines(self, header, Style::new(Role::Text).with(BOLD));
        let sep: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        self.emit(vec![Span::new(sep.join("─┼─"), Role::Rule)]);
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                let sep: Vec<String> = widths.iter().map(|w| "╌".repeat(*w)).collect();
                self.emit(vec![Span::new(sep.join("╌┼╌"), Role::Rule)]);
            }
            row_lines(self, row, Style::new(Role::Text));
        }
    }

    fn grid(&mut self, widths: &[usize], header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let row_line = |row: &[Vec<Run>], style: Style| {
            let mut spans = Vec::new();
            for (c, w) in widths.iter().enumerate() {
                if c > 0 {
                    spans.push(Span::new(" │ ", Role::Rule));
                }
                let t = wrap::visible(&cell_text(row.get(c))).into_owned();
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
