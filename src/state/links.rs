//! The page's links (`L`): a list to open one from. A web or mail address
//! goes to the browser (the state asks; the runtime opens it); a link to
//! another lesson of the course (a relative `.md` or `.json` file, or its
//! slug) opens that lesson, and Backspace goes back to where you were
//! (the lesson's saved place).

use super::list::Pick;
use super::{Action, Effect, Overlay, State, open};
use crate::model::link::{host, is_web};
use crate::model::{Block, Run};

/// Where a link goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goes {
    Web,
    /// A lesson of the open course, by index.
    Lesson(usize),
    /// Nowhere lectern can go (another scheme, a missing file).
    Nowhere,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkItem {
    pub text: String,
    pub href: String,
    pub goes: Goes,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkPicker {
    pub items: Vec<LinkItem>,
    pub cursor: usize,
}

fn runs(r: &[Run], out: &mut Vec<(String, String)>) {
    for run in r {
        if let Some(href) = &run.href {
            match out.last_mut() {
                // A link's text split into runs (bold inside it) is one link.
                Some((text, h)) if **h == **href => text.push_str(&run.text),
                _ => out.push((run.text.to_string(), href.to_string())),
            }
        }
    }
}

/// The links of `blocks`, in reading order.
pub fn links(blocks: &[Block], out: &mut Vec<(String, String)>) {
    for b in blocks {
        match b {
            Block::Heading { runs: r, .. } | Block::Paragraph(r) => runs(r, out),
            Block::List { items, .. } => items.iter().for_each(|i| links(i, out)),
            Block::Quote(inner) => links(inner, out),
            Block::Fold(fold) => {
                runs(&fold.summary, out);
                links(&fold.body, out);
            }
            Block::Table(table) => {
                for row in table.all_rows() {
                    row.cells().for_each(|c| runs(&c.runs(), out));
                }
            }
            _ => {}
        }
    }
}

/// Where `href` goes from the open course.
fn goes(s: &State, href: &str) -> Goes {
    if is_web(href) {
        return Goes::Web;
    }
    let file = href.split(['#', '?']).next().unwrap_or("");
    // `#part`: a heading of this very page.
    if file.is_empty() && href.starts_with('#') && s.reader.doc().is_some() {
        return Goes::Lesson(s.reader.lesson);
    }
    let name = file.rsplit('/').next().unwrap_or("");
    let stem = name
        .strip_suffix(".md")
        .or_else(|| name.strip_suffix(".json"));
    if name.is_empty() || file.contains("://") {
        return Goes::Nowhere;
    }
    let found = s.course().lessons.iter().position(|e| {
        let same_file = e
            .origin
            .path()
            .and_then(|p| p.file_name())
            .is_some_and(|f| f.to_string_lossy() == name);
        same_file || stem.unwrap_or(name) == e.slug
    });
    found.map_or(Goes::Nowhere, Goes::Lesson)
}

/// `L` on the page.
pub fn start(s: &mut State) {
    let Some(doc) = s.reader.doc() else {
        s.notice = Some("No lesson is open.".into());
        return;
    };
    let mut found = Vec::new();
    links(&doc.lesson.blocks, &mut found);
    let items: Vec<LinkItem> = found
        .into_iter()
        .map(|(text, href)| LinkItem {
            goes: goes(s, &href),
            text,
            href,
        })
        .collect();
    if items.is_empty() {
        s.notice = Some("This page has no links.".into());
    } else {
        s.overlay = Some(Overlay::Links(LinkPicker { items, cursor: 0 }));
    }
}

fn follow(s: &mut State, item: LinkItem, fx: &mut Vec<Effect>) {
    match item.goes {
        Goes::Web => {
            let to = host(&item.href).unwrap_or(&item.href);
            // The runtime says so instead when there is no browser to open.
            s.notice = Some(format!("Opening {} ({to}) in the browser.", item.href));
            fx.push(Effect::OpenUrl(item.href));
        }
        Goes::Lesson(i) => {
            s.link_back.push(s.reader.lesson);
            let fragment = item.href.split_once('#').map(|(_, f)| f.to_string());
            let here = i == s.reader.lesson && s.reader.doc().is_some();
            match (here, fragment) {
                (true, Some(f)) => at_heading(s, &f),
                (_, fragment) => {
                    s.reader.pending.fragment = fragment.filter(|f| !f.is_empty());
                    open::open(s, i, fx);
                }
            }
            s.notice = Some("Backspace goes back to the page you came from.".into());
        }
        Goes::Nowhere => {
            s.notice = Some(format!(
                "Not a web address or a lesson of this course: {}",
                item.href
            ))
        }
    }
}

/// The open page with heading `fragment` on top.
fn at_heading(s: &mut State, fragment: &str) {
    let g = s.geometry();
    let Some(doc) = s.reader.doc() else { return };
    if let Some(anchor) = heading(&doc.lesson, fragment) {
        let line = s.reader.line_of(anchor, &g);
        s.reader.set_top(line, &g);
    }
}

/// The place of the heading a `#fragment` names: by its id, else by its
/// text as a link to it is usually written (lower case, dashes).
pub(super) fn heading(
    lesson: &crate::model::Lesson,
    fragment: &str,
) -> Option<crate::model::Anchor> {
    let slug = |t: &str| -> String {
        let t: String = t
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .collect();
        t.split_whitespace().collect::<Vec<_>>().join("-")
    };
    let wanted = fragment.to_lowercase();
    let block = lesson.blocks.iter().position(|b| match b {
        crate::model::Block::Heading { id, runs, .. } => {
            id.as_deref().is_some_and(|i| i.to_lowercase() == wanted)
                || slug(&crate::model::runs_text(runs)) == wanted
        }
        crate::model::Block::Label { id, .. } => id.to_lowercase() == wanted,
        _ => false,
    })?;
    // The page's blocks: its header, the hero image if any, the lesson's.
    let page_block = 1 + usize::from(lesson.hero.is_some()) + block;
    Some(crate::model::Anchor {
        block: u32::try_from(page_block).ok()?,
        line: 0,
    })
}

/// Backspace on the page: back to the lesson a link was followed from.
pub fn back(s: &mut State, fx: &mut Vec<Effect>) {
    match s.link_back.pop() {
        Some(i) => open::open(s, i, fx),
        None => s.notice = Some("No link followed: nothing to go back to.".into()),
    }
}

/// A key on the list: `true` when the list had a use for it.
pub fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Links(p)) = &mut s.overlay else {
        return false;
    };
    if *a == Action::Copy {
        // The address itself, whole: over SSH, where no browser can be
        // opened, the learner's own machine gets it through the terminal.
        if let Some(item) = p.items.get(p.cursor) {
            let href = item.href.clone();
            s.notice = Some(format!("Copied {href} to the clipboard."));
            fx.push(Effect::Clipboard(href));
        }
        return true;
    }
    match super::list::pick(&p.items, &mut p.cursor, a) {
        Pick::Unused => return false,
        Pick::Moved => {}
        Pick::Closed => s.overlay = None,
        Pick::Chosen(item) => {
            s.overlay = None;
            follow(s, item, fx);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> (tempfile::TempDir, State) {
        let dir = tempfile::tempdir().unwrap();
        for (slug, pos) in [("intro", 1), ("second-steps", 2)] {
            let json = format!(
                r#"{{"course":{{"slug":"c","title":"C"}},"lesson":{{"slug":"{slug}","title":"{slug}","position":{pos}}},"body":{{"format":"markdown","text":"x"}}}}"#
            );
            std::fs::write(dir.path().join(format!("{pos:02}-{slug}.json")), json).unwrap();
        }
        let lib = crate::loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
        (dir, State::new(lib.courses, 80, 24))
    }

    #[test]
    fn links_go_to_the_web_or_a_lesson_of_the_course() {
        let (_dir, s) = state();
        assert_eq!(goes(&s, "https://example.org"), Goes::Web);
        assert_eq!(goes(&s, "mailto:a@b.c"), Goes::Web);
        assert_eq!(goes(&s, "02-second-steps.json"), Goes::Lesson(1));
        assert_eq!(goes(&s, "./second-steps.md#part"), Goes::Lesson(1));
        assert_eq!(goes(&s, "../other/intro.md"), Goes::Lesson(0));
        assert_eq!(goes(&s, "missing.md"), Goes::Nowhere);
        assert_eq!(goes(&s, "javascript:alert(1)"), Goes::Nowhere);
    }

    #[test]
    fn a_followed_link_is_left_with_backspace() {
        let (_dir, mut s) = state();
        let mut fx = Vec::new();
        back(&mut s, &mut fx);
        assert!(
            s.notice
                .as_deref()
                .unwrap()
                .contains("nothing to go back to")
        );
        let item = LinkItem {
            text: "next".into(),
            href: "second-steps.md".into(),
            goes: Goes::Lesson(1),
        };
        follow(&mut s, item, &mut fx);
        assert_eq!((s.reader.lesson, s.link_back.clone()), (1, vec![0]));
        back(&mut s, &mut fx);
        assert_eq!((s.reader.lesson, s.link_back.len()), (0, 0));
        let web = LinkItem {
            text: "site".into(),
            href: "https://example.org/a".into(),
            goes: Goes::Web,
        };
        follow(&mut s, web, &mut fx);
        assert_eq!(
            fx.last(),
            Some(&Effect::OpenUrl("https://example.org/a".into()))
        );
        assert!(s.notice.as_deref().unwrap().contains("(example.org)"));
    }

    #[test]
    fn a_link_split_into_runs_is_one_link() {
        let run = |t: &str, h: Option<&str>| Run {
            href: h.map(Into::into),
            ..Run::plain(t)
        };
        let mut out = Vec::new();
        let para = Block::Paragraph(vec![
            run("see ", None),
            run("the ", Some("https://a.b")),
            run("book", Some("https://a.b")),
        ]);
        links(&[Block::Quote(vec![para])], &mut out);
        assert_eq!(out, [("the book".to_string(), "https://a.b".to_string())]);
    }

    #[test]
    fn y_in_the_list_copies_the_whole_address() {
        let (_dir, mut s) = state();
        let href = "https://example.org/a/long/path?with=query#and-fragment";
        s.overlay = Some(Overlay::Links(LinkPicker {
            items: vec![LinkItem {
                text: "site".into(),
                href: href.into(),
                goes: Goes::Web,
            }],
            cursor: 0,
        }));
        let mut fx = Vec::new();
        assert!(update(&mut s, &Action::Copy, &mut fx));
        assert_eq!(fx, [Effect::Clipboard(href.into())]);
        assert!(s.overlay.is_some(), "the list stays open");
    }
}
