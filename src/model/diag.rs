use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Warning,
    Error,
}

/// One finding about a lesson file, printed as
/// `FILE:LINE:COL: error|warning: message (at json.path)`.
///
/// Serialisable so the folder caches can keep a broken lesson's
/// diagnostic whole, not as the text it prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// JSON path of the field, e.g. `reader.blocks[3].runs[0].text`.
    pub path: Option<String>,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    /// An error about the file as a whole (it cannot be read, say).
    pub fn error(file: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: 1,
            column: 1,
            path: None,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `s` made safe for a terminal and kept on one line: a diagnostic goes
/// straight to a terminal and can quote a file name, a block type or a
/// field name from a lesson. Newline and tab, which a lesson's text keeps,
/// become their control pictures.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        super::sanitize::clean(self.0).chars().try_for_each(|c| {
            f.write_char(match c {
                '\n' => '\u{240a}',
                '\t' => '\u{2409}',
                c => c,
            })
        })
    }
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
            OneLine(&self.file),
            self.line,
            self.column,
            OneLine(&self.message)
        )?;
        if let Some(p) = &self.path {
            write!(f, " (at {})", OneLine(p))?;
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
            column: 4,
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
