//! The stats screen: the open course's progress, and review figures read
//! from the store when it opens.

use crate::model::ReviewFigures;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatsView {
    /// `None` until the store's figures arrive.
    pub figures: Option<ReviewFigures>,
    /// First row shown (the drawing clamps it to the end).
    pub top: usize,
}
