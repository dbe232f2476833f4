//! Semantic styles: what a piece of text *is*. One theme module maps these
//! to colours, so the layout never depends on a terminal library.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Text,
    Title,
    Meta,
    KeyIdea,
    Heading(u8),
    Code,
    Kbd,
    Link,
    Marker,
    Quote,
    CodeFrame,
    CodeText,
    /// What the source says of a code block (`ignore`, `no run`).
    Badge,
    /// A token coloured by the syntax highlighter.
    Syntax(u8, u8, u8),
    FigureFrame,
    FigureTitle,
    Caption,
    Unknown,
    Rule,
    Question,
    OptionNumber,
    Correct,
    Wrong,
    Tempting,
    Why,
    Dim,
    Error,
}

pub const BOLD: u8 = 1;
pub const ITALIC: u8 = 2;
pub const UNDERLINE: u8 = 4;
pub const STRIKE: u8 = 8;
pub const REVERSE: u8 = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Style {
    pub role: Role,
    /// A set of the modifier bits above.
    pub mods: u8,
}

impl Style {
    pub const fn new(role: Role) -> Self {
        Style { role, mods: 0 }
    }

    pub const fn with(self, mods: u8) -> Self {
        Style {
            role: self.role,
            mods: self.mods | mods,
        }
    }
}

impl From<Role> for Style {
    fn from(role: Role) -> Self {
        Style::new(role)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub style: Style,
}

impl Span {
    pub fn new(text: impl Into<String>, style: impl Into<Style>) -> Self {
        Span {
            text: text.into(),
            style: style.into(),
        }
    }
}

/// One screen row: spans whose display widths add up to at most the
/// width the page was laid out for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    pub spans: Vec<Span>,
}

impl Line {
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }

    pub fn width(&self) -> usize {
        self.spans.iter().map(|s| super::wrap::width(&s.text)).sum()
    }
}
