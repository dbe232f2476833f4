use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One finding about a lesson file, printed as
/// `FILE:LINE:COL: error|warning: message (at json.path)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    /// JSON path of the field, e.g. `reader.blocks[3].runs[0].text`.
    pub path: Option<String>,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    pub fn error(file: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: 1,
            col: 1,
            path: None,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `s` made safe for a terminal and kept on one line: a diagnostic can
/// quote a file name, a block type or a field name from the lesson.
fn one_line(s: &str) -> Cow<'_, str> {
    let s = super::sanitize::clean(s);
    if !s.contains(['\n', '\t']) {
        return s;
    }
    Cow::Owned(s.replace('\n', "\u{240a}").replace('\t', "\u{2409}"))
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {sev}: {}",
            one_line(&self.file),
            self.line,
            self.col,
            one_line(&self.message)
        )?;
        if let Some(p) = &self.path {
            write!(f, " (at {})", one_line(p))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_safe_line() {
        let d = Diagnostic {
            file: "a\u{1b}[2J.json".into(),
            line: 3,
            col: 4,
            path: Some("reader.blocks[0].x\ty".into()),
            severity: Severity::Warning,
            message: "unknown block type `a\nb`".into(),
        };
        assert_eq!(
            d.to_string(),
            "a\u{241b}[2J.json:3:4: warning: unknown block type `a\u{240a}b` \
             (at reader.blocks[0].x\u{2409}y)"
        );
    }
}
