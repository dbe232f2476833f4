//! `SUMMARY.md` → the book's chapters in reading order, read with
//! pulldown-cmark by mdBook's rules (mdbook-summary): an optional title
//! (a first `# heading`), prefix chapters (links before any list), the
//! numbered chapters (nested lists, split into parts by `# Part` headings,
//! `---` separators between them), then suffix chapters (links after the
//! lists). A link with an empty target is a draft. Where mdBook would stop
//! with an error (a list after the suffix chapters), the chapters are kept
//! and the problem is said instead: a reader should still open the book.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use std::path::{Component, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Prefix,
    Numbered,
    Suffix,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The link's text, its inline code as text (as mdBook shows it).
    pub title: String,
    /// Relative to the book's `src`, as written (`%20` read as a space);
    /// `None` for a draft.
    pub path: Option<PathBuf>,
    /// 0 for a top-level chapter, 1 for one nested under it, …
    pub depth: usize,
    pub section: Section,
    /// Index into [`Summary::parts`] of the part the chapter is in.
    pub part: Option<usize>,
    /// Where the link stands in SUMMARY.md (1-based).
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Default, PartialEq)]
pub struct Summary {
    pub title: Option<String>,
    pub entries: Vec<Entry>,
    pub parts: Vec<String>,
    pub separators: usize,
    /// (line, column, message) of what mdBook would refuse.
    pub problems: Vec<(usize, usize, String)>,
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..floor(text, offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn floor(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A chapter path as mdBook keys it: `./` and empty components dropped.
pub fn normal(path: &std::path::Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

struct Reader<'a> {
    text: &'a str,
    /// Where each line starts: a link's place found by a binary search,
    /// not by counting the lines before it (quadratic in a long summary).
    lines: Vec<usize>,
    out: Summary,
    section: Section,
    lists: usize,
    /// Whether anything but HTML has been seen (a later `#` is a part).
    started: bool,
    /// Collecting a link's text: its target and where it began.
    link: Option<(Option<PathBuf>, usize, String)>,
    /// Collecting an H1's text.
    heading: Option<String>,
    /// Whether the current list item already has its chapter.
    item_done: Vec<bool>,
    /// Whether the chapters past the cap have been said to be left out.
    capped: bool,
}

pub fn parse(text: &str) -> Summary {
    let lines = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut r = Reader {
        text,
        lines,
        out: Summary::default(),
        section: Section::Prefix,
        lists: 0,
        started: false,
        link: None,
        heading: None,
        item_done: Vec::new(),
        capped: false,
    };
    for (event, range) in Parser::new(text).into_offset_iter() {
        r.event(event, range.start);
    }
    r.out
}

impl Reader<'_> {
    fn event(&mut self, event: Event, at: usize) {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) => self.heading = Some(String::new()),
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => self.part(at),
            Event::Start(Tag::List(_)) => {
                if self.section == Section::Suffix {
                    self.problem(
                        at,
                        "a list after the suffix chapters (read as numbered chapters)",
                    );
                }
                self.section = Section::Numbered;
                self.started = true;
                self.lists += 1;
            }
            Event::End(TagEnd::List(_)) => self.lists = self.lists.saturating_sub(1),
            Event::Start(Tag::Item) => self.item_done.push(false),
            Event::End(TagEnd::Item) => {
                self.item_done.pop();
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                let href = dest_url.replace("%20", " ");
                let path = (!href.is_empty()).then(|| PathBuf::from(href));
                self.link = Some((path, at, String::new()));
            }
            Event::End(TagEnd::Link) => self.chapter(),
            Event::Text(t) | Event::Code(t) => self.push(&t),
            Event::SoftBreak => self.push(" "),
            Event::Rule => {
                self.out.separators += 1;
                self.started = true;
            }
            Event::Html(_) | Event::InlineHtml(_) => {}
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => {}
            _ => self.started = true,
        }
    }

    fn push(&mut self, s: &str) {
        if let Some((_, _, t)) = &mut self.link {
            t.push_str(s);
        } else if let Some(h) = &mut self.heading {
            h.push_str(s);
        }
    }

    fn place(&self, at: usize) -> (usize, usize) {
        let line = self.lines.partition_point(|&start| start <= at).max(1);
        let start = self.lines[line - 1];
        let column = self.text[start..floor(self.text, at.max(start))]
            .chars()
            .count()
            + 1;
        (line, column)
    }

    fn problem(&mut self, at: usize, message: &str) {
        let (line, col) = self.place(at);
        self.out.problems.push((line, col, message.to_string()));
    }

    /// An H1: the summary's title when it comes first, else a part title.
    fn part(&mut self, at: usize) {
        let Some(title) = self.heading.take() else {
            return;
        };
        let title = title.trim().to_string();
        if !self.started && self.out.title.is_none() {
            self.out.title = Some(title);
            return;
        }
        if self.section == Section::Suffix {
            self.problem(at, "a part title after the suffix chapters");
        }
        self.started = true;
        self.section = Section::Numbered;
        self.out.parts.push(title);
    }

    fn chapter(&mut self) {
        let Some((path, at, title)) = self.link.take() else {
            return;
        };
        self.started = true;
        if self.lists > 0 {
            // An item holds one chapter: its first link.
            match self.item_done.last_mut() {
                Some(done) if !*done => *done = true,
                _ => return,
            }
        } else if self.section == Section::Numbered {
            self.section = Section::Suffix;
        }
        if self.out.entries.len() >= crate::loader::caps::MAX_CHAPTERS {
            // Said once, where the first chapter left out stands.
            if !self.capped {
                self.capped = true;
                let why = format!(
                    "over {} chapters: the rest are left out",
                    crate::loader::caps::MAX_CHAPTERS
                );
                self.problem(at, &why);
            }
            return;
        }
        let (line, column) = self.place(at);
        let section = self.section;
        self.out.entries.push(Entry {
            title: title.trim().to_string(),
            path,
            depth: self.lists.saturating_sub(1),
            section,
            part: (section == Section::Numbered && !self.out.parts.is_empty())
                .then(|| self.out.parts.len() - 1),
            line,
            column,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "\
# Summary

<!-- a comment -->
[Preface](preface.md)

---

- [Intro to `Vec`](intro.md)
    - [Nested](a/nested%20one.md)
        - [Deeper](./a/deeper.md)
- [Draft]()

# Part Two

- [Second](second.md)

---

[Appendix](appendix.md)
";

    #[test]
    fn every_kind_of_entry_in_order() {
        let s = parse(SUMMARY);
        assert_eq!(s.title.as_deref(), Some("Summary"));
        let got: Vec<(&str, usize, Section, Option<usize>)> = s
            .entries
            .iter()
            .map(|e| (e.title.as_str(), e.depth, e.section, e.part))
            .collect();
        use Section::*;
        assert_eq!(
            got,
            [
                ("Preface", 0, Prefix, None),
                ("Intro to Vec", 0, Numbered, None),
                ("Nested", 1, Numbered, None),
                ("Deeper", 2, Numbered, None),
                ("Draft", 0, Numbered, None),
                ("Second", 0, Numbered, Some(0)),
                ("Appendix", 0, Suffix, None),
            ]
        );
        assert_eq!(s.parts, ["Part Two"]);
        assert_eq!(s.separators, 2);
        assert_eq!(s.entries[4].path, None, "an empty link is a draft");
        assert_eq!(s.entries[2].path, Some(PathBuf::from("a/nested one.md")));
        assert_eq!(
            normal(s.entries[3].path.as_ref().unwrap()),
            PathBuf::from("a/deeper.md")
        );
        assert_eq!((s.entries[0].line, s.entries[0].column), (4, 1));
        assert_eq!((s.entries[2].line, s.entries[2].column), (9, 7));
        assert!(s.problems.is_empty());
    }

    #[test]
    fn no_title_and_a_list_after_the_suffix() {
        let s = parse("- [A](a.md)\n\n[B](b.md)\n\n- [C](c.md)\n");
        assert_eq!(s.title, None);
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.entries[1].section, Section::Suffix);
        assert_eq!(s.problems.len(), 1);
        assert_eq!(s.problems[0].0, 5);
    }

    #[test]
    fn a_part_first_is_a_part_after_a_prefix() {
        let s = parse("[P](p.md)\n\n# One\n\n- [A](a.md)\n");
        assert_eq!(s.title, None);
        assert_eq!(s.parts, ["One"]);
        assert_eq!(s.entries[1].part, Some(0));
    }
}
