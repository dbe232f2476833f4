//! The help screen: the key table, scrolled.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Help {
    /// First row of the help shown (the drawing clamps it to the end).
    pub top: usize,
}
