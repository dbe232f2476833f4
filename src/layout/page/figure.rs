//! Figures behind a bar: a comparison side by side (stacked when narrow),
//! or a figure type this version cannot draw, as its text.

use super::builder::{Builder, width_of};
use crate::layout::style::{BOLD, ITALIC, Role, Span, Style};
use crate::layout::wrap;
use crate::model::{Column, Figure, FigureBody};

impl Builder<'_> {
    pub(super) fn figure(&mut self, f: &Figure) {
        self.barred(Span::new("▌ ", Role::FigureFrame), |b| b.figure_inner(f));
    }

    fn figure_inner(&mut self, f: &Figure) {
        let label = f.label.as_deref().unwrap_or("Figure");
        let title = match &f.title {
            Some(t) => format!("{label}: {t}"),
            None => label.to_string(),
        };
        self.text(&title, Style::new(Role::FigureTitle).with(BOLD));
        match &f.body {
            FigureBody::Compare { left, right } => {
                self.blank();
                self.compare(left, right);
            }
            FigureBody::Unknown { kind, text } => {
                let what = if kind.is_empty() {
                    "figure".to_string()
                } else {
                    format!("figure type: {kind}")
                };
                self.text(
                    &format!("({what}, shown as text)"),
                    Style::new(Role::Unknown).with(ITALIC),
                );
                match &f.alt {
                    Some(alt) => self.text(alt, Role::Text),
                    None => {
                        for t in text {
                            self.text(t, Role::Text);
                        }
                    }
                }
            }
        }
        if let Some(c) = &f.caption {
            self.blank();
            self.text(c, Style::new(Role::Caption).with(ITALIC));
        }
    }

    fn compare(&mut self, left: &Column, right: &Column) {
        let avail = self.avail();
        if avail < 50 {
            for (i, col) in [left, right].into_iter().enumerate() {
                if i > 0 {
                    self.blank();
                }
                for line in column_lines(col, avail) {
                    self.emit(line);
                }
            }
            return;
        }
        let cw = (avail - 3) / 2;
        let l = column_lines(left, cw);
        let r = column_lines(right, cw);
        for i in 0..l.len().max(r.len()) {
            let mut row = l.get(i).cloned().unwrap_or_default();
            let pad = cw - width_of(&row);
            row.push(Span::new(" ".repeat(pad), Role::Text));
            row.push(Span::new(" │ ", Role::FigureFrame));
            row.extend(r.get(i).cloned().unwrap_or_default());
            self.emit(row);
        }
    }
}

fn column_lines(col: &Column, w: usize) -> Vec<Vec<Span>> {
    let mut out = wrap::wrap(
        &[(col.title.as_str(), Style::new(Role::FigureTitle).with(BOLD))],
        w,
    );
    for item in &col.items {
        let inner = w.saturating_sub(2).max(1);
        for (i, mut line) in wrap::wrap(&[(item.as_str(), Style::new(Role::Text))], inner)
            .into_iter()
            .enumerate()
        {
            let m = if i == 0 && w >= 3 {
                "• "
            } else if w >= 3 {
                "  "
            } else {
                ""
            };
            line.insert(0, Span::new(m, Role::Marker));
            out.push(line);
        }
    }
    out
}
