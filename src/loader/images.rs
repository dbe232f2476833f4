//! Pictures a markdown lesson or chapter shows that are not there: each
//! `![alt](path)` whose local file is missing, for `lectern lint`. Web
//! addresses and data URLs are not looked at; a path is the file's own
//! (relative to the file that names it), or the book's with a leading `/`.

use super::Diagnostic;
use crate::model::Severity;
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::path::Path;

/// A warning for each image of `text` (the markdown of `file`) that
/// cannot be shown: missing, outside the book, unreadable or too large.
/// `root`: what a path starting with `/` is relative to (a book's `src`).
pub fn missing(file: &Path, text: &str, root: Option<&Path>) -> Vec<Diagnostic> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let name = file.display().to_string();
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::all()).into_offset_iter() {
        let sources = match event {
            Event::Start(Tag::Image { dest_url, .. }) => vec![dest_url.to_string()],
            Event::Html(t) | Event::InlineHtml(t) if t.contains("<img") => img_sources(&t),
            _ => continue,
        };
        for src in sources {
            let Some(local) = local_path(&src) else {
                continue;
            };
            if out.len() >= MAX_SAID {
                return out;
            }
            let path = match local.strip_prefix('/') {
                Some(rest) => root.unwrap_or(dir).join(rest),
                None => dir.join(&local),
            };
            let why = if !path.exists() {
                format!("image `{local}` is missing")
            } else if let Err(why) = super::image_files::readable(&path) {
                format!("image `{local}` cannot be shown: {why}")
            } else {
                continue;
            };
            let (line, column) = super::path::line_col(text.as_bytes(), range.start);
            out.push(Diagnostic {
                line,
                column,
                severity: Severity::Warning,
                ..Diagnostic::error(&name, why)
            });
        }
    }
    out
}

/// A hostile chapter can name pictures without end: lint says enough.
const MAX_SAID: usize = 1000;

/// The addresses of the `<img>` tags of an HTML event.
fn img_sources(html: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    super::html::pass(html, &mut Default::default(), &mut pieces);
    pieces
        .into_iter()
        .filter_map(|p| match p {
            super::html::Piece::Image(tag) => Some(tag.src),
            _ => None,
        })
        .collect()
}

/// The file an image address names, decoded, if it is a local one.
pub(super) fn local_path(url: &str) -> Option<String> {
    let url = url.split(['#', '?']).next().unwrap_or("").trim();
    let scheme = url.find(':').is_some_and(|i| {
        url[..i]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if url.is_empty() || scheme || url.starts_with("//") {
        return None;
    }
    Some(percent_decoded(url))
}

/// `%20` and the like as the bytes they stand for (as a browser reads a
/// path), the rest as written.
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::missing;

    #[test]
    fn a_missing_local_image_is_named_where_it_stands() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("img")).unwrap();
        image::RgbImage::new(1, 1)
            .save(dir.path().join("img/here.png"))
            .unwrap();
        std::fs::write(dir.path().join("a b.svg"), b"<svg width='1' height='1'/>").unwrap();
        let file = dir.path().join("ch.md");
        let text = "# T\n\n![ok](img/here.png) ![spaced](a%20b.svg#x)\n\
                    ![web](https://example.org/x.png) ![data](data:image/png;base64,AA)\n\
                    text ![gone](img/gone.png \"title\")\n![root](/img/here.png)\n";
        let found = missing(&file, text, Some(dir.path()));
        let said: Vec<_> = found
            .iter()
            .map(|d| (d.line, d.column, d.message.as_str()))
            .collect();
        assert_eq!(said, [(5, 6, "image `img/gone.png` is missing")]);
    }
}
