//! A chapter's links and headings as mdBook's pages have them. Books
//! link chapters by the pages mdBook writes (`ch02.html#x`); lectern reads
//! the sources, so a link to a page whose source is in the book names
//! that source (`ch02.md#x`, which `L` opens as that lesson). A `.html`
//! link to anything else (another book on the same site, rustdoc) stays
//! a web link: resolved against the book's `site-url` when that is a web
//! address, else left as written. Headings get the ids mdBook gives them
//! (`normalize_id`, a `-1`, `-2`… on repeats), so a `#fragment` opens at
//! the heading mdBook's would.

use crate::model::{Block, Run};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Where a chapter's links start from.
pub struct Base<'a> {
    /// The book's source folder.
    pub src: &'a Path,
    /// The chapter's folder, relative to `src`.
    pub dir: PathBuf,
    /// The book's web address (`[output.html] site-url`), when it is one.
    pub site: Option<&'a str>,
}

impl Base<'_> {
    /// `href` as lectern follows it.
    fn resolve(&self, href: &str) -> Option<String> {
        if href.contains(':') || href.starts_with('#') {
            return None;
        }
        let end = href.find(['#', '?']).unwrap_or(href.len());
        let page = href[..end].strip_suffix(".html")?;
        let inside = within(&self.dir.join(page));
        if let Some(rel) = &inside {
            if self.src.join(rel).with_extension("md").is_file() {
                return Some(format!("{page}.md{}", &href[end..]));
            }
            // mdBook writes a folder's README.md as its index.html.
            let readme = rel.with_file_name("README.md");
            if rel.file_name().is_some_and(|n| n == "index") && self.src.join(&readme).is_file() {
                let folder = &page[..page.len() - "index".len()];
                return Some(format!("{folder}README.md{}", &href[end..]));
            }
        }
        let site = self.site?;
        let from = within(&self.dir).unwrap_or_default();
        let mut url = format!("{}/", site.trim_end_matches('/'));
        let target = outward(&from.join(&href[..end]))?;
        url.push_str(&target);
        url.push_str(&href[end..]);
        Some(url)
    }
}

/// `p` with `..` taken out, when it stays inside the folder it starts in.
fn within(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            Component::ParentDir if out.pop() => {}
            _ => return None,
        }
    }
    Some(out)
}

/// `p` as a path on the site, `..` above its root dropped as a browser
/// drops it.
fn outward(p: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => parts.push(n.to_str()?.to_string()),
            Component::ParentDir => {
                parts.pop();
            }
            _ => {}
        }
    }
    Some(parts.join("/"))
}

/// The links of `blocks` as lectern follows them (see the module's note).
pub fn chapter_links(blocks: &mut [Block], base: &Base) {
    let runs = |rs: &mut [Run]| {
        for r in rs {
            let Some(href) = &mut r.href else { continue };
            if let Some(to) = base.resolve(href) {
                *href = to.into();
            }
        }
    };
    for b in blocks {
        match b {
            Block::Heading { runs: r, .. } | Block::Paragraph(r) => runs(r),
            Block::List { items, .. } => items.iter_mut().for_each(|i| chapter_links(i, base)),
            Block::Quote(inner) => chapter_links(inner, base),
            Block::Fold(fold) => {
                runs(&mut fold.summary);
                chapter_links(&mut fold.body, base);
            }
            // Only a cell with styles can hold a link.
            Block::Table(table) => table.styled_runs_mut().for_each(|c| runs(c)),
            _ => {}
        }
    }
}

/// mdBook's `normalize_id`: letters, digits, `_` and `-` kept (ASCII
/// lowered), white space as `-`, the rest dropped.
pub fn normalize_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c.to_ascii_lowercase()),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// Every top-level heading without an id of its own given mdBook's.
pub fn heading_ids(blocks: &mut [Block]) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for b in blocks {
        let Block::Heading { id, runs, .. } = b else {
            continue;
        };
        if id.is_some() {
            continue;
        }
        let base = normalize_id(&crate::model::runs_text(runs));
        let n = seen.entry(base.clone()).or_insert(0);
        *id = Some(match *n {
            0 => base,
            k => format!("{base}-{k}"),
        });
        *n += 1;
    }
}
