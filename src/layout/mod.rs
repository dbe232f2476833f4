//! Model → lines for a given width. Width-dependent work lives only here,
//! so the document is parsed once and re-wrapped cheaply on resize.

mod check;
mod chunked;
pub mod flow;
mod lines;
mod page;
pub(crate) mod stats;
mod style;
pub mod wrap;

pub(crate) use check::check_text;
pub use check::{
    CHECK_CODE, CHECK_TITLE, CheckLayout, CheckView, OptionRows, check_lines, each_check_code,
    highlight_checks,
};
pub use lines::Lines;
pub(crate) use page::each_code_block;
pub use page::{
    CELL_PIXELS, Highlights, MAX_ROWS, Page, PicturePlace, anchor_line, cells, first_lines, page,
};
pub use style::{BOLD, ITALIC, Line, REVERSE, Role, STRIKE, Span, Style, UNDERLINE};

#[cfg(test)]
pub(crate) use page::tests::nested_code_lesson;
