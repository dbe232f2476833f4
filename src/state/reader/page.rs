//! What the reader's page holds: one value, so a page cannot be open and
//! broken at once, or have check states without the lesson they belong to.

use super::doc::Doc;
use crate::model::Diagnostic;

#[derive(Debug, Default)]
pub enum Page {
    /// No lesson asked for yet (a course without lessons).
    #[default]
    Closed,
    /// The lesson asked for is on its way, with nothing on the page
    /// before it (a page already shown stays until the next arrives).
    Loading,
    /// Why the lesson asked for could not be shown.
    Broken(Diagnostic),
    /// The lesson, laid out, with what the reader has done with each of
    /// its checks (boxed: the other pages are small).
    Open(Box<Doc>),
}

impl Page {
    pub fn doc(&self) -> Option<&Doc> {
        match self {
            Page::Open(doc) => Some(doc.as_ref()),
            _ => None,
        }
    }

    pub fn doc_mut(&mut self) -> Option<&mut Doc> {
        match self {
            Page::Open(doc) => Some(doc.as_mut()),
            _ => None,
        }
    }

    pub fn broken(&self) -> Option<&Diagnostic> {
        match self {
            Page::Broken(d) => Some(d),
            _ => None,
        }
    }
}
