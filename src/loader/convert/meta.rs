//! The lesson's header: identity, place in the course, neighbours, credits.

use super::super::node::{Node, R};
use super::super::raw::{self, text};
use super::opt_typed;
use crate::model::{LessonMeta, Link, Module};

/// `reader` is the tree the body comes from, if any: the module, the key
/// idea and the course's title may be there too.
pub(super) fn meta(
    root: &Node,
    reader: Option<&Node>,
    course: raw::Course,
    info: raw::LessonInfo,
) -> R<LessonMeta> {
    let module: Option<raw::Module> = match reader {
        Some(r) => opt_typed(r, "module")?,
        None => None,
    };
    let reader_key_idea = match reader {
        Some(r) => r.opt_str("keyIdea")?,
        None => None,
    };
    let course_title = match reader {
        Some(r) => r.opt_str("courseTitle")?,
        None => None,
    };
    let prev: Option<raw::Link> = opt_typed(root, "prev")?;
    let next: Option<raw::Link> = opt_typed(root, "next")?;
    let licence: Option<raw::Licence> = opt_typed(root, "licence")?;
    let review: Option<raw::Review> = opt_typed(root, "review")?;
    let course_slug = course.slug.0;
    Ok(LessonMeta {
        course_title: text(course.title)
            .or(course_title)
            .unwrap_or_else(|| course_slug.clone()),
        course_slug,
        slug: info.slug.0,
        title: info.title.0,
        module: module.map(|m| Module {
            index: m.index.unwrap_or(0),
            slug: text(m.slug).unwrap_or_default(),
            title: text(m.title).unwrap_or_default(),
        }),
        position: info.position,
        of: info.of,
        minutes: info.minutes,
        key_idea: text(info.key_idea).or(reader_key_idea.filter(|s| !s.trim().is_empty())),
        answer: text(info.answer),
        prev: prev.map(link),
        next: next.map(link),
        licence: licence.and_then(|l| text(l.name).or(text(l.url))),
        cite: root.opt_str("cite")?,
        authorship: root.opt_str("authorship")?,
        review_status: review.and_then(|r| text(r.status)),
    })
}

fn link(l: raw::Link) -> Link {
    Link {
        title: text(l.title).unwrap_or_else(|| l.slug.0.clone()),
        slug: l.slug.0,
    }
}
