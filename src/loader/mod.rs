//! Files → model. Reads a lesson (or a folder of them), sanitises every
//! string once, and reports problems as one-line diagnostics that name the
//! file, line:column and JSON path.

mod builtin;
pub mod caps;
mod convert;
mod course;
mod every;
pub mod first_look;
mod html;
pub mod image_files;
mod image_lint;
pub mod images;
mod markdown;
mod node;
mod origin;
mod parse;
mod path;
pub mod progress;
pub use progress::Progress;
mod raw;
mod source;
pub mod stamp;
/// Text is made safe once, here at the loader, by the model's sanitiser.
pub(crate) use crate::model::sanitize;
pub mod walk;

pub use crate::model::{Diagnostic, Origin, Severity};
pub use builtin::{BUILTIN, builtin_course};
pub(crate) use course::scan_dir;
pub(crate) use course::{Headed, group, open_paths_with, read_head};
pub use course::{Library, named, open_paths, open_paths_with_progress};
pub(crate) use every::every_problem;
pub use node::{Finding, Level};
pub use origin::MAX_LESSON_BYTES;
pub(crate) use origin::read;
pub use path::JsonPath;
/// Many chapters read in one go (a first index of a folder) share each
/// book's SUMMARY.md and budgets inside this scope.
pub(crate) use source::mdbook::scope as books_once;
/// mdBook folders: the course of the book a path is in, and lint for it.
pub(crate) use source::mdbook::{lint as lint_book, lint_reach, open as open_book};
pub(crate) use source::{format_of, is_markdown, lesson_files, lesson_tree};
pub use stamp::{ReadStamp, load_stamped};

use crate::model::Lesson;

/// A lesson that loaded, with what `lint` would say about it.
#[derive(Debug)]
pub struct Loaded {
    pub lesson: Lesson,
    pub findings: Vec<Finding>,
}

pub fn load(origin: &Origin) -> Result<Loaded, Diagnostic> {
    let name = origin.name();
    let bytes = read(origin).map_err(|e| Diagnostic::error(&name, cannot_read(&e)))?;
    source::load(origin, &bytes)
}

/// Why a lesson file could not be read: its absence said plainly, else
/// the system's words.
pub(crate) fn cannot_read(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => format!("cannot read lesson: {e}"),
    }
}

/// The lesson in `bytes`, read from `origin`, in the format its name says.
pub fn load_from(origin: &Origin, bytes: &[u8]) -> Result<Loaded, Diagnostic> {
    source::load(origin, bytes)
}

/// The lesson at `origin`, or why it cannot be loaded: what the reader
/// shows in its place.
pub fn load_lesson(origin: &Origin) -> Result<Lesson, Diagnostic> {
    load(origin).map(|l| l.lesson)
}

/// Parses one JSON lesson file's bytes. `name` is what diagnostics call it.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Loaded, Diagnostic> {
    load_bytes_as(name, bytes, None)
}

/// [`load_bytes`], parsed as one tree (`Some(true)`), as slices
/// (`Some(false)`) or as its size says (`None`; see [`parse`]).
fn load_bytes_as(name: &str, bytes: &[u8], tree: Option<bool>) -> Result<Loaded, Diagnostic> {
    if let Some(at) = caps::too_many_values(bytes) {
        let (line, column) = path::line_col(bytes, at);
        let message = format!(
            "too large: over {} JSON values in one lesson; split it into several lessons",
            caps::MAX_VALUES
        );
        return Err(Diagnostic {
            line,
            column,
            ..Diagnostic::error(name, message)
        });
    }
    let parsed = parse_json(name, bytes, tree)?;
    if let Some(fail) = markdown_too_long(&parsed.root) {
        let at = JsonPath::parse("body.text");
        return Err(located(name, bytes, &at, Severity::Error, fail));
    }
    let converted = convert::lesson(&parsed.root, parsed.blocks.as_deref())
        .map_err(|fail| located(name, bytes, &fail.path, Severity::Error, fail.message))?;
    Ok(Loaded {
        lesson: converted.lesson,
        findings: converted.findings,
    })
}

/// A diagnostic at the JSON path `at`, with the line and column it has in
/// `bytes`.
fn located(
    name: &str,
    bytes: &[u8],
    at: &JsonPath,
    severity: Severity,
    message: String,
) -> Diagnostic {
    let (line, column) = path::line_col(bytes, path::locate(bytes, at));
    Diagnostic {
        file: name.to_string(),
        line,
        column,
        path: Some(at.to_string()),
        severity,
        message,
    }
}

/// Findings of a loaded lesson as located diagnostics.
pub(crate) fn diagnostics(name: &str, bytes: &[u8], findings: &[Finding]) -> Vec<Diagnostic> {
    // Located in one pass over the file, not one per finding: a file of
    // 20,000 findings took 43 s located one at a time.
    let paths: Vec<&JsonPath> = findings.iter().map(|f| &f.path).collect();
    let places = path::line_cols(bytes, &path::locate_all(bytes, &paths));
    findings
        .iter()
        .zip(places)
        .map(|(f, (line, column))| Diagnostic {
            file: name.to_string(),
            line,
            column,
            path: Some(f.path.to_string()),
            severity: match f.level {
                Level::Warning => Severity::Warning,
                Level::Error => Severity::Error,
            },
            message: f.message.clone(),
        })
        .collect()
}

/// A markdown body (read when there is no `reader` tree) of more lines
/// than [`caps::MAX_MARKDOWN_LINES`], said as an error.
fn markdown_too_long(value: &serde_json::Value) -> Option<String> {
    if value.get("reader").is_some_and(|r| !r.is_null()) {
        return None;
    }
    let text = value.get("body")?.get("text")?.as_str()?;
    let lines = caps::too_many_lines(text)?;
    Some(format!(
        "too large: the markdown body has {lines} lines, over {}; split it into several lessons",
        caps::MAX_MARKDOWN_LINES
    ))
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

/// Bytes → the lesson's JSON (see [`parse`]), with the syntax problems a
/// user can act on.
fn parse_json<'a>(
    name: &str,
    bytes: &'a [u8],
    tree: Option<bool>,
) -> Result<parse::Parsed<'a>, Diagnostic> {
    let bytes = strip_bom(bytes);
    let at = |line: usize, column: usize, message: String| Diagnostic {
        line,
        column,
        ..Diagnostic::error(name, message)
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(at(
            1,
            1,
            "empty file: expected a JSON object describing a lesson".into(),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = path::line_col(bytes, e.valid_up_to());
        let byte = bytes.get(e.valid_up_to()).copied().unwrap_or(0);
        at(
            line,
            col,
            format!("invalid UTF-8 (byte 0x{byte:02x}): lesson files must be UTF-8 text"),
        )
    })?;
    match tree {
        Some(tree) => parse::parse_as(name, text, tree),
        None => parse::parse(name, text),
    }
}

#[cfg(test)]
mod tests;
