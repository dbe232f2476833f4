//! Model → lines for a given width. Width-dependent work lives only here,
//! so the document is parsed once and re-wrapped cheaply on resize.

mod check;
mod page;
mod style;
pub mod wrap;

pub use check::{CHECK_TITLE, CheckLayout, CheckMarks, OptionRows, check_lines, check_text};
pub use page::{CodeStyles, Highlights, Page, code_blocks, first_lines, hard_wrap, page};
pub use style::{BOLD, ITALIC, Line, REVERSE, Role, STRIKE, Span, Style, UNDERLINE};
