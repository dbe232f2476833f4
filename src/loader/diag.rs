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

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {sev}: {}",
            self.file, self.line, self.col, self.message
        )?;
        if let Some(p) = &self.path {
            write!(f, " (at {p})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
