//! The stats screen: the open course's progress, and review figures read
//! from the store when it opens.

use crate::model::{ReviewFigures, ShelfFigure};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatsView {
    /// `None` until the store's figures arrive.
    pub figures: Option<ReviewFigures>,
    /// First row shown (the drawing clamps it to the end).
    pub top: usize,
    /// Every course of the library, for its own gauge.
    pub library: Vec<ShelfFigure>,
}

impl StatsView {
    /// The lesson of misconception `n` (0-based, as listed), and its check.
    pub fn lesson_of(&self, n: usize) -> Option<(String, String)> {
        let m = self.figures.as_ref()?.misconceptions.get(n)?;
        Some((m.lesson.clone(), m.check.clone()))
    }
}
