//! Markdown files as lessons. A file is one lesson; a folder of them is a
//! course, and its folders are modules. The course is what the learner
//! opened: a folder named (on the command line, or as a course of the
//! library) is the course of the markdown files under it, each folder on
//! the way down holding some being a module; a file named alone belongs
//! to its own folder. Never a folder above what was named: stray notes in
//! a home folder made `~/notes` and `~/recipes` one course called after
//! it. The lesson's slug is its path from the course (`ch02/intro`), the
//! same for the header read for the course view and the lesson opened
//! later, since both look at the folders named in this process.

use super::super::course::Headed;
use super::super::markdown as body;
use super::super::sanitize::{clean, clean_owned, clean_prose, without_breaks};
use super::super::{Loaded, Origin, walk};
use super::{Format, format_of};
use crate::model::{Block, Lesson, LessonEntry, LessonMeta, LessonStatus, Module, Source};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// How deep folders are followed, up and down: a course is a book, not a
/// home directory.
const MAX_NESTING: usize = 8;

/// The files a folder's heading comes from, in order of preference.
const FOLDER_PAGES: [&str; 4] = ["README.md", "readme.md", "index.md", "INDEX.md"];

fn is_markdown(p: &Path) -> bool {
    format_of(p.as_os_str()) == Some(Format::Markdown)
}

fn hidden(p: &Path) -> bool {
    p.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Appends the markdown files of `dirs` (folders of `root`) and of their
/// folders, depth first in name order; hidden folders are left out, and a
/// folder reached twice (a link) is read once.
pub(crate) fn nested(root: &Path, dirs: Vec<PathBuf>, files: &mut Vec<PathBuf>) {
    let mut seen: HashSet<PathBuf> = std::fs::canonicalize(root).into_iter().collect();
    let mut stack: Vec<(PathBuf, usize)> = dirs.into_iter().rev().map(|d| (d, 1)).collect();
    while let Some((dir, depth)) = stack.pop() {
        if hidden(&dir) || depth > MAX_NESTING {
            continue;
        }
        let Ok(canon) = std::fs::canonicalize(&dir) else {
            continue;
        };
        if !seen.insert(canon) {
            continue;
        }
        let Ok((w, sub)) = walk::folder(&dir) else {
            continue;
        };
        files.extend(w.files.into_iter().filter(|f| is_markdown(f)));
        stack.extend(sub.into_iter().rev().map(|s| (s, depth + 1)));
    }
}

/// A folder of markdown lessons (and no JSON ones).
fn is_markdown_folder(dir: &Path) -> bool {
    walk::folder(dir).is_ok_and(|(w, _)| {
        w.files.iter().any(|f| is_markdown(f))
            && !w
                .files
                .iter()
                .any(|f| format_of(f.as_os_str()) == Some(Format::Json))
    })
}

/// Where a markdown file sits in its course.
struct Place {
    root: PathBuf,
    course_slug: String,
    slug: String,
    module: Option<Module>,
}

/// The folders the learner named in this process, canonical: a markdown
/// lesson's course is found by climbing to the nearest of them, never past.
static NAMED: std::sync::RwLock<Vec<PathBuf>> = std::sync::RwLock::new(Vec::new());

/// `dir` (canonical) is a folder the learner named: see [`NAMED`].
pub fn named(dir: &Path) {
    if let Ok(mut named) = NAMED.write() {
        if !named.iter().any(|d| d == dir) {
            named.push(dir.to_path_buf());
        }
    }
}

fn place(path: &Path) -> Place {
    let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut root = full.parent().map(Path::to_path_buf).unwrap_or_default();
    // The outermost folder named above the file: a folder given is the
    // course, whatever else inside it was named too.
    let course = NAMED.read().ok().and_then(|named| {
        named
            .iter()
            .filter(|n| root.starts_with(n))
            .min_by_key(|n| n.components().count())
            .cloned()
    });
    if let Some(course) = course {
        for _ in 0..MAX_NESTING {
            match root.parent() {
                Some(up) if root != course && !hidden(&root) && is_markdown_folder(up) => {
                    root = up.to_path_buf()
                }
                _ => break,
            }
        }
    }
    let rel = full.strip_prefix(&root).unwrap_or(&full);
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(clean_owned(&n.to_string_lossy())),
            _ => None,
        })
        .collect();
    let course_slug = root
        .file_name()
        .map_or_else(|| "course".into(), |n| clean_owned(&n.to_string_lossy()));
    let module = (parts.len() > 1).then(|| {
        let top = rel.components().next().map(|c| c.as_os_str().to_owned());
        let index = walk::folder(&root)
            .ok()
            .and_then(|(_, dirs)| {
                dirs.iter()
                    .filter(|d| !hidden(d))
                    .position(|d| d.file_name() == top.as_deref())
            })
            .map_or(0, |i| i as u32 + 1);
        let dir = root.join(top.unwrap_or_default());
        Module {
            index,
            slug: parts[0].clone(),
            title: folder_title(&dir, true),
        }
    });
    Place {
        root,
        course_slug,
        slug: parts.join("/"),
        module,
    }
}

/// A folder's title: the first heading of its README.md or index.md, or
/// its name (made readable when `pretty`: `02-the_basics` → `The basics`).
fn folder_title(dir: &Path, pretty: bool) -> String {
    for page in FOLDER_PAGES {
        if let Ok(bytes) = walk::read_regular(&dir.join(page)) {
            let text = String::from_utf8_lossy(&bytes);
            let text = clean(&text);
            let (front, body) = front_matter(&text);
            if let Some(t) = front.or_else(|| first_heading(body)) {
                return t;
            }
        }
    }
    let name = dir
        .file_name()
        .map_or_else(String::new, |n| clean_owned(&n.to_string_lossy()));
    if pretty { readable(&name) } else { name }
}

/// A file or folder name as a title: a leading number and separators
/// dropped, `-` and `_` as spaces, the first letter capitalised.
fn readable(name: &str) -> String {
    let rest = name.trim_start_matches(|c: char| c.is_ascii_digit() || "-_. ".contains(c));
    let words = if rest.is_empty() { name } else { rest }.replace(['-', '_'], " ");
    let mut chars = words.trim().chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => name.to_string(),
    }
}

/// Front matter (`---` YAML or `+++` TOML, first in the file) is not
/// shown: its `title`, when it has one, and the text after it.
fn front_matter(text: &str) -> (Option<String>, &str) {
    let fence = if text.starts_with("---") {
        "---"
    } else if text.starts_with("+++") {
        "+++"
    } else {
        return (None, text);
    };
    let mut lines = text.split_inclusive('\n');
    if lines.next().is_none_or(|l| l.trim_end() != fence) {
        return (None, text);
    }
    let mut at = fence.len() + 1;
    let mut title = None;
    for line in lines {
        at += line.len();
        let l = line.trim_end();
        if l == fence || (fence == "---" && l == "...") {
            return (title, text.get(at..).unwrap_or(""));
        }
        let value = l
            .strip_prefix("title:")
            .or_else(|| l.strip_prefix("title ="))
            .or_else(|| l.strip_prefix("title="));
        if let Some(v) = value {
            let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
            if !v.is_empty() {
                title = Some(without_breaks(v).into_owned());
            }
        }
    }
    // No closing fence: a thematic break, not front matter.
    (None, text)
}

/// The text of the first heading, if the file has one.
fn first_heading(text: &str) -> Option<String> {
    let mut out: Option<String> = None;
    for event in Parser::new_ext(text, body::options()) {
        match (event, &mut out) {
            (Event::Start(Tag::Heading { .. }), None) => out = Some(String::new()),
            (Event::Text(t) | Event::Code(t), Some(s)) => s.push_str(&t),
            (Event::SoftBreak | Event::HardBreak, Some(s)) => s.push(' '),
            (Event::End(TagEnd::Heading(_)), Some(s)) => {
                let s = without_breaks(&clean(s.trim())).into_owned();
                return (!s.is_empty()).then_some(s);
            }
            _ => {}
        }
    }
    None
}

/// Reading time at 200 words a minute, at least one.
fn minutes(text: &str) -> u32 {
    let words = text.split_whitespace().count();
    (words.div_ceil(200)).max(1) as u32
}

/// What the header and the lesson share.
struct Parts {
    place: Place,
    title: String,
    course_title: String,
    minutes: u32,
}

fn parts(origin: &Origin, text: &str, title: Option<String>) -> Parts {
    let place = match origin.path() {
        Some(p) => place(p),
        None => Place {
            root: PathBuf::new(),
            course_slug: "course".into(),
            slug: origin.name(),
            module: None,
        },
    };
    let title = title.unwrap_or_else(|| {
        let stem = origin
            .path()
            .and_then(Path::file_stem)
            .map_or_else(|| origin.name(), |s| s.to_string_lossy().into_owned());
        readable(&clean_owned(&stem))
    });
    let course_title = folder_title(&place.root, false);
    Parts {
        place,
        title,
        course_title,
        minutes: minutes(text),
    }
}

fn text_of(bytes: &[u8]) -> String {
    // Markdown has no syntax errors: a stray byte becomes U+FFFD and the
    // rest of the lesson still reads.
    let text = String::from_utf8_lossy(super::super::strip_bom(bytes));
    // Running text keeps its break opportunities (zero-width spaces, soft
    // hyphens) for the layout; code, names and URLs are cleaned again.
    clean_prose(&text).into_owned()
}

pub(super) fn head(origin: Origin, bytes: &[u8]) -> Headed {
    let text = text_of(bytes);
    let (front, rest) = front_matter(&text);
    let title = front.or_else(|| first_heading(rest));
    let p = parts(&origin, rest, title);
    Headed {
        entry: LessonEntry {
            origin,
            slug: p.place.slug,
            title: p.title,
            position: None,
            minutes: Some(p.minutes),
            module: p.place.module.map(Box::new),
            status: LessonStatus::Ok,
        },
        course_slug: Some(p.place.course_slug),
        course_title: Some(p.course_title),
        digest: Some(walk::digest(bytes)),
    }
}

/// Where the first heading is, when it is the title.
fn title_heading(blocks: &[Block], title: Option<&str>) -> Option<usize> {
    let at = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading { .. }))?;
    match &blocks[at] {
        Block::Heading { runs, .. } if Some(&*crate::model::runs_text(runs)) == title => Some(at),
        _ => None,
    }
}

pub(super) fn load(origin: &Origin, bytes: &[u8]) -> Loaded {
    let text = text_of(bytes);
    let (front, rest) = front_matter(&text);
    let mut blocks = body::parse(rest);
    // The header shows the title: a first heading that is the title goes,
    // wherever it stands (a badge or an image may come before it).
    let title = front.clone().or_else(|| first_heading(rest));
    if let Some(at) = title_heading(&blocks, title.as_deref()) {
        blocks.remove(at);
    }
    let p = parts(origin, rest, title);
    let meta = LessonMeta {
        course_slug: p.place.course_slug,
        course_title: p.course_title,
        slug: p.place.slug,
        title: p.title,
        module: p.place.module,
        minutes: Some(p.minutes),
        ..LessonMeta::default()
    };
    Loaded {
        lesson: Lesson {
            meta,
            source: Source::Markdown,
            hero: None,
            blocks,
            checks: Vec::new(),
        },
        findings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_skipped_and_its_title_kept() {
        let (t, rest) = front_matter("---\ntitle: \"Ownership\"\nauthor: x\n---\n# Body\n");
        assert_eq!(t.as_deref(), Some("Ownership"));
        assert_eq!(rest, "# Body\n");
        let (t, rest) = front_matter("+++\ntitle = 'T'\n+++\ntext");
        assert_eq!((t.as_deref(), rest), (Some("T"), "text"));
        // A rule and a setext heading are not front matter.
        assert_eq!(front_matter("---\nno close\n").1, "---\nno close\n");
        assert_eq!(front_matter("--- x\n").0, None);
    }

    #[test]
    fn names_read_as_titles() {
        assert_eq!(readable("02-the_basics"), "The basics");
        assert_eq!(readable("ch1"), "Ch1");
        assert_eq!(readable("2024"), "2024");
        assert_eq!(readable("intro"), "Intro");
    }

    #[test]
    fn the_first_heading_is_the_title() {
        assert_eq!(
            first_heading("text\n\n## The `Vec` type\n\n# Later\n").as_deref(),
            Some("The Vec type")
        );
        assert_eq!(first_heading("no heading"), None);
    }

    #[test]
    fn the_title_heading_goes_even_after_a_paragraph() {
        let blocks = body::parse("![badge](b.svg)\n\n# Title\n\ntext\n\n# Title\n");
        assert_eq!(title_heading(&blocks, Some("Title")), Some(1));
        assert_eq!(title_heading(&blocks, Some("Other")), None);
        assert_eq!(title_heading(&body::parse("text"), Some("Title")), None);
    }
}
