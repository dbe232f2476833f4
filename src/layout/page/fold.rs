//! Folded text (HTML `details`): the summary line, with the body under it
//! when the page's folds are open, or a count of its lines when not.

use super::builder::Builder;
use crate::layout::style::{BOLD, ITALIC, Role, Span, Style};
use crate::model::{Block, Fold};

/// A fold the page shows closed: the lines of its summary (whose dim
/// count of lines hidden is the page's, not the lesson's text), and how
/// many characters of the lesson's text its body holds as
/// [`crate::layout::flow`] counts them (spaces aside): what the page
/// leaves out there, which anchors, made on all of the text, skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folded {
    pub first: usize,
    pub last: usize,
    pub chars: usize,
}

/// What a fold's line says it hides, and the key that shows it: the
/// reader's key (`z`), which the guide teaches.
const FOLDED: &str = "folded, z opens";

impl Builder<'_> {
    pub(super) fn fold(&mut self, fold: &Fold) {
        let open = self.folds_open;
        let marker = if open { "▾ " } else { "▸ " };
        let mut pieces = vec![(marker.to_string(), Style::new(Role::Marker))];
        if fold.notes {
            pieces.push(("Notes".into(), Style::new(Role::Quote).with(ITALIC)));
        } else {
            let bold = Style::new(Role::Text).with(BOLD);
            pieces.extend(super::text::marked_pieces(
                &fold.summary,
                bold,
                self.code.plain,
            ));
        }
        if open {
            self.wrapped(&pieces);
            self.barred(Span::new("│ ", Role::Quote), |b| b.blocks(&fold.body));
            return;
        }
        let (lines, chars) = self.body_measure(&fold.body);
        let s = if lines == 1 { "" } else { "s" };
        pieces.push((
            format!(" ({lines} line{s} {FOLDED})"),
            Style::new(Role::Dim),
        ));
        let first = self.lines.len();
        self.wrapped(&pieces);
        let last = self.lines.len().saturating_sub(1).max(first);
        self.folded.push(Folded { first, last, chars });
    }

    /// How many lines the body would take, open (its own folds too, as
    /// `z` opens them all), where the fold stands; and the characters of
    /// its text.
    fn body_measure(&self, body: &[Block]) -> (usize, usize) {
        let bar = Span::new("│ ", Role::Quote).text.chars().count();
        let mut scratch = Builder::new(self.avail().saturating_sub(bar), self.code);
        scratch.folds_open = true;
        scratch.blocks(body);
        let page = super::Page {
            lines: scratch.lines,
            ..super::Page::default()
        };
        let chars = crate::layout::flow::chars(&page);
        (page.lines.len(), chars)
    }
}

#[cfg(test)]
mod tests {
    use crate::layout::page::Highlights;
    use crate::layout::page::builder::Builder;
    use crate::model::{Block, Fold, Run};

    fn lines(fold: &Fold, open: bool) -> Vec<String> {
        let mut code = Highlights::default();
        code.open_folds = open;
        let mut b = Builder::new(30, &code);
        b.block(&Block::Fold(Box::new(fold.clone())));
        b.lines.iter().map(|l| l.text()).collect()
    }

    fn hint() -> Fold {
        Fold {
            summary: vec![Run::plain("Hint")],
            notes: false,
            body: vec![
                Block::Paragraph(vec![Run::plain("Look it up in the index.")]),
                Block::Paragraph(vec![Run::plain("Then try again.")]),
            ],
        }
    }

    #[test]
    fn a_closed_fold_is_its_summary_and_how_much_it_hides() {
        assert_eq!(
            lines(&hint(), false),
            ["▸ Hint (3 lines folded, z", "opens)"]
        );
    }

    #[test]
    fn an_open_fold_shows_its_body_barred_under_its_summary() {
        assert_eq!(
            lines(&hint(), true),
            [
                "▾ Hint",
                "│ Look it up in the index.",
                "│",
                "│ Then try again."
            ]
        );
    }

    #[test]
    fn a_fold_counts_the_lines_its_nested_folds_take_open() {
        let outer = Fold {
            body: vec![Block::Fold(Box::new(hint()))],
            ..hint()
        };
        assert_eq!(lines(&outer, false)[0], "▸ Hint (4 lines folded, z");
    }

    #[test]
    fn speaker_notes_say_so() {
        let notes = Fold {
            notes: true,
            summary: Vec::new(),
            ..hint()
        };
        assert!(lines(&notes, false)[0].starts_with("▸ Notes (3 lines"));
    }
}
