//! What lint says of a JSON lesson's `image` blocks: each picture that
//! cannot be shown, at its block (a markdown body's pictures are found in
//! its text, with their line and column: see [`super::images`]).

use super::{Finding, JsonPath, Level};
use crate::model::{Block, ImageFile, Lesson, Source};

/// A warning for each top-level picture of a `reader` tree that is
/// missing, outside its folder, unreadable or too large.
pub fn findings(lesson: &Lesson) -> Vec<Finding> {
    if lesson.source != Source::Reader {
        return Vec::new();
    }
    let mut out = Vec::new();
    // A known block's unknown fields are kept as blocks after it (kind
    // "t.field"): they have no place of their own in `reader.blocks`.
    let placed = lesson
        .blocks
        .iter()
        .filter(|b| !matches!(b, Block::Unknown { kind, .. } if kind.contains('.')));
    for (i, block) in placed.enumerate() {
        let Block::Image(image) = block else { continue };
        let why = match &image.file {
            ImageFile::Refused(why) => why.clone(),
            ImageFile::Local { path, pixels: None } => match super::image_files::readable(path) {
                Err(why) => format!("image `{}` cannot be shown: {why}", image.src),
                Ok(()) => continue,
            },
            _ => continue,
        };
        out.push(Finding {
            level: Level::Warning,
            path: JsonPath::parse(&format!("reader.blocks[{i}]")),
            message: why,
        });
    }
    out
}
