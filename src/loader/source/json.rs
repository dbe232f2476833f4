//! JSON lesson files: the header is read through serde without building
//! the body; the body by `convert` (see [`super::super::load_bytes`]).

use super::super::course::{Headed, broken};
use super::super::raw::{self, Text, text};
use super::super::{Diagnostic, Origin};
use crate::model::{LessonEntry, LessonStatus, Module};
use serde::Deserialize;

#[derive(Deserialize)]
struct Head {
    course: raw::Course,
    lesson: raw::LessonInfo,
    reader: Option<HeadReader>,
}

#[derive(Deserialize)]
struct HeadReader {
    module: Option<raw::Module>,
    #[serde(rename = "courseTitle")]
    course_title: Option<Text>,
}

/// The header (identity, position, module): the whole file is checked for
/// JSON syntax, but no body is built.
pub(super) fn head(origin: Origin, bytes: &[u8]) -> Headed {
    let name = origin.name();
    let digest = Some(super::super::walk::digest(bytes));
    let mut de = serde_json::Deserializer::from_slice(super::super::strip_bom(bytes));
    // A header that parses is not enough: the file must be one JSON value.
    let head = serde_path_to_error::deserialize::<_, Head>(&mut de)
        .ok()
        .filter(|_| de.end().is_ok());
    let Some(head) = head else {
        // The full loader words every problem best; ask it.
        let why = match super::super::load_bytes(&name, bytes) {
            Err(d) => d,
            Ok(_) => Diagnostic::error(&name, "unreadable lesson header"),
        };
        return Headed {
            digest,
            ..broken(origin, why)
        };
    };
    let module = head
        .reader
        .as_ref()
        .and_then(|r| r.module.as_ref())
        .map(|m| Module {
            index: m.index.unwrap_or(0),
            slug: m.slug.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
            title: m.title.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
        });
    let course_title =
        text(head.course.title).or_else(|| head.reader.and_then(|r| text(r.course_title)));
    Headed {
        entry: LessonEntry {
            origin,
            slug: head.lesson.slug.0,
            title: head.lesson.title.0,
            position: head.lesson.position,
            minutes: head.lesson.minutes,
            module: module.map(Box::new),
            status: LessonStatus::Ok,
        },
        course_slug: Some(head.course.slug.0),
        course_title,
        digest,
    }
}
