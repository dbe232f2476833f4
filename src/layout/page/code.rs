//! Code blocks in a frame, with the highlighted code that belongs to each.

use super::builder::Builder;
use crate::layout::style::{REVERSE, Role, Span, Style};
use crate::layout::wrap::{self, width};
use crate::model::{Block, CodeBlock, Lesson};
use std::collections::BTreeMap;

/// Highlighted code keyed by the block it belongs to: each line as styled
/// spans. A block with no entry is shown as plain text.
///
/// A block's key is its path through the lesson: its index among the
/// lesson's blocks, then, inside a list, the item's index and the block's
/// index in the item, and inside a quote the block's index in the quote.
/// The path names one block, and a highlight is shown only where its
/// text is that block's, so it can only land on the block it was made
/// from.
///
/// A `BTreeMap`: an empty one, as every first screen lays out with, costs
/// nothing to make (a `HashMap` seeds its hasher from the system).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Highlights {
    blocks: BTreeMap<Vec<usize>, Vec<Vec<Span>>>,
    /// Whether rust's hidden lines (`# ` lines, which books hide to keep
    /// an example short) are shown: the reader's choice, off at first.
    pub show_hidden: bool,
    /// Whether folded text (HTML `details`: speaker notes, hints) is
    /// shown: the reader's choice (`z`), off at first; on in `render`,
    /// whose reader cannot open it.
    pub open_folds: bool,
    /// Whether the page is shown without styles (`--color never`): then
    /// marks stand in for them (`code`, _emphasis_, ~strike~, `### h3`).
    pub plain: bool,
    /// Whether pictures are given room on the page (else each is a line
    /// of its words and address): the reader's with `images` on.
    pub pictures: bool,
}

impl Highlights {
    pub(crate) fn insert(&mut self, path: Vec<usize>, lines: Vec<Vec<Span>>) {
        self.blocks.insert(path, lines);
    }

    /// The reader's choices of `from` (hidden lines, folds, pictures),
    /// kept by new colours for the same page.
    pub fn keep_view(&mut self, from: &Highlights) {
        self.show_hidden = from.show_hidden;
        self.open_folds = from.open_folds;
        self.pictures = from.pictures;
    }

    fn get(&self, path: &[usize]) -> Option<&[Vec<Span>]> {
        self.blocks.get(path).map(Vec::as_slice)
    }
}

/// What [`each_code_block`] is told of a block: path, language, text.
type Visit<'v, 'a> = &'v mut dyn FnMut(&[usize], Option<&'a str>, &'a str);

/// Calls `f` with every code block of a lesson: its path (the same path
/// the page builder follows: see [`Highlights`]), language and text.
pub(crate) fn each_code_block<'a>(
    lesson: &'a Lesson,
    mut f: impl FnMut(&[usize], Option<&'a str>, &'a str),
) {
    fn walk<'a>(blocks: &'a [Block], path: &mut Vec<usize>, f: Visit<'_, 'a>) {
        for (i, b) in blocks.iter().enumerate() {
            path.push(i);
            match b {
                Block::Code(c) => f(path, c.lang.as_deref().or(c.label.as_deref()), &c.text),
                Block::List { items, .. } => {
                    for (k, item) in items.iter().enumerate() {
                        path.push(k);
                        walk(item, path, f);
                        path.pop();
                    }
                }
                other => other.inner().into_iter().for_each(|i| walk(i, path, f)),
            }
            path.pop();
        }
    }
    walk(&lesson.blocks, &mut Vec::new(), &mut f);
}

impl Builder<'_> {
    pub(super) fn code(&mut self, block: &CodeBlock) {
        let (lang, label) = (block.lang.as_deref(), block.label.as_deref());
        let (text, badges) = (block.text.as_str(), block.badges.as_slice());
        let code = self.code;
        let hides = !code.show_hidden && lang.is_some_and(|l| matches!(l, "rust" | "rs"));
        let hidden = if hides {
            text.split('\n').filter(|l| hidden_line(l)).count()
        } else {
            0
        };
        // The name sits in the frame's one line: tabs and newlines in it
        // (kept by the sanitiser for running text) become single spaces.
        let mut name = label.or(lang).unwrap_or("").to_string();
        if hidden > 0 {
            let s = if hidden == 1 { "" } else { "s" };
            name.push_str(&format!(" · {hidden} line{s} hidden (#)"));
        }
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let top = if name.is_empty() {
            "╭──".to_string()
        } else {
            format!("╭─ {name} ")
        };
        let avail = self.avail();
        let mut frame = vec![Span::new(top, Role::CodeFrame)];
        frame.extend(badge_spans(badges, code.plain));
        let used: usize = frame.iter().map(|s| width(&s.text)).sum();
        let fill = avail.saturating_sub(used).min(3);
        frame.push(Span::new("─".repeat(fill), Role::CodeFrame));
        // A frame line wider than the page (a long name, many badges on a
        // narrow one) is cut, never wrapped: it is one line of chrome.
        let mut line: Vec<Span> = Vec::with_capacity(frame.len());
        for span in wrap::truncate(&frame, avail).0 {
            match line.last_mut() {
                Some(last) if last.style == span.style => last.text.push_str(&span.text),
                _ => line.push(span),
            }
        }
        self.emit(line);
        let lines = text.split('\n').count();
        let gutter = match block.numbered {
            true => lines.to_string().len() + 1,
            false => 0,
        };
        // A gutter that would leave the code no room is not drawn.
        let gutter = if avail >= gutter + 2 + 8 { gutter } else { 0 };
        let room = avail.saturating_sub(2 + gutter).max(1);
        let text = wrap::expand_tabs(text, 4);
        let styled = code.get(&self.path).filter(|s| same_text(s, &text));
        for (n, line) in text.split('\n').enumerate() {
            if hidden > 0 && hidden_line(line) {
                continue;
            }
            let spans = match styled.and_then(|s| s.get(n)) {
                // `##` is rustdoc's escape for a line that starts with `#`.
                _ if hides && line.trim_start().starts_with("##") => {
                    vec![Span::new(line.replacen("##", "#", 1), Role::CodeText)]
                }
                Some(spans) => wrap::regroup(spans),
                None => vec![Span::new(line, Role::CodeText)],
            };
            let spans = highlighted(spans, &block.marks, n, block.text.split('\n').nth(n));
            for (i, row) in super::code_wrap::wrap_code(&spans, room)
                .into_iter()
                .enumerate()
            {
                let bar = if i == 0 { "│ " } else { "┆ " };
                let mut out = vec![Span::new(bar, Role::CodeFrame)];
                if gutter > 0 {
                    // The number counts every line of the program, hidden
                    // ones too, as the answer's line does.
                    let number = match i {
                        0 => format!("{:>w$} ", n + 1, w = gutter - 1),
                        _ => " ".repeat(gutter),
                    };
                    out.push(Span::new(number, Role::Dim));
                }
                let carets = self.code.plain.then(|| carets(&row)).flatten();
                out.extend(row);
                self.emit(out);
                // Without styles a reversed stretch does not show: marked
                // under, as a compiler marks the columns it means.
                if let Some(carets) = carets {
                    let pad = " ".repeat(gutter);
                    self.emit(vec![Span::new(format!("│ {pad}{carets}"), Role::CodeFrame)]);
                }
            }
        }
        self.emit(vec![Span::new("╰──", Role::CodeFrame)]);
    }
}

/// `spans` (line `n`) with the block's marks on that line reversed. The
/// marks' offsets are the source line's: a line whose tabs were expanded
/// is shown unmarked rather than marked in the wrong place.
fn highlighted(
    spans: Vec<Span>,
    marks: &[(usize, usize, usize)],
    n: usize,
    source: Option<&str>,
) -> Vec<Span> {
    let ranges: Vec<(usize, usize)> = marks
        .iter()
        .filter(|m| m.0 == n)
        .map(|m| (m.1, m.2))
        .collect();
    if ranges.is_empty() || source.is_none_or(|s| s.contains('\t')) {
        return spans;
    }
    let mut out = Vec::with_capacity(spans.len() + 2 * ranges.len());
    let mut at = 0;
    for s in spans {
        let end = at + s.text.len();
        // Cut the span at every mark edge inside it.
        let mut edges: Vec<usize> = ranges
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|&e| e > at && e < end && s.text.is_char_boundary(e - at))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let mut from = at;
        for e in edges.into_iter().chain([end]) {
            let mut style = s.style;
            if ranges.iter().any(|&(a, b)| a <= from && from < b) {
                style = style.with(REVERSE);
            }
            out.push(Span::new(&s.text[from - at..e - at], style));
            from = e;
        }
        at = end;
    }
    out
}

/// `^` under each column of `row` that a mark reverses, if any does.
fn carets(row: &[Span]) -> Option<String> {
    let mut line = String::new();
    for span in row {
        let c = if span.style.mods & REVERSE != 0 {
            '^'
        } else {
            ' '
        };
        line.extend(std::iter::repeat_n(c, width(&span.text)));
    }
    let line = line.trim_end().to_string();
    line.contains('^').then_some(line)
}

/// The badges on a code frame's top line, after its name: reversed in
/// colour (` ignore `), bracketed in plain text (`[ignore]`).
fn badge_spans(badges: &[String], plain: bool) -> Vec<Span> {
    let mut out = Vec::new();
    for b in badges {
        let b = b.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown = if plain {
            format!("[{b}]")
        } else {
            format!(" {b} ")
        };
        out.push(Span::new(shown, Style::new(Role::Badge).with(REVERSE)));
        out.push(Span::new(" ", Role::CodeFrame));
    }
    out
}

/// A line rustdoc and mdBook hide: `#` alone or `# ` then code (never
/// `#[attr]`, `#!` or the `##` escape).
fn hidden_line(line: &str) -> bool {
    let t = line.trim_start();
    t == "#" || t.starts_with("# ")
}

/// Whether highlighted lines hold exactly `text`: a highlight made from
/// other code (another block, an older version of the lesson) is never
/// shown in its place.
fn same_text(lines: &[Vec<Span>], text: &str) -> bool {
    let mut rows = text.split('\n');
    let all_match = lines.iter().all(|spans| {
        rows.next().is_some_and(|row| {
            let mut rest = row;
            spans
                .iter()
                .all(|s| match rest.strip_prefix(s.text.as_str()) {
                    Some(r) => {
                        rest = r;
                        true
                    }
                    None => false,
                })
                && rest.is_empty()
        })
    });
    all_match && rows.next().is_none()
}

#[cfg(test)]
mod tests {
    use crate::layout::{Highlights, page};
    use crate::model::{Block, Lesson, LessonMeta, Source};

    fn shown(lang: &str, text: &str, show_hidden: bool) -> String {
        let lesson = Lesson {
            meta: LessonMeta::default(),
            source: Source::Markdown,
            hero: None,
            blocks: vec![Block::code(crate::model::CodeBlock {
                lang: Some(lang.into()),
                label: None,
                text: text.into(),
                badges: Vec::new(),
                numbered: false,
                marks: Vec::new(),
            })],
            checks: Vec::new(),
        };
        let code = Highlights {
            show_hidden,
            ..Highlights::default()
        };
        let p = page(&lesson, 60, &code);
        p.lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.text.as_str()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn fence_attributes_are_badges_beside_the_name() {
        let lesson = Lesson {
            meta: LessonMeta::default(),
            source: Source::Markdown,
            hero: None,
            blocks: vec![Block::code(crate::model::CodeBlock {
                lang: Some("rust".into()),
                label: None,
                text: "fn main() {}".into(),
                badges: vec!["ignore".into(), "edition 2021".into()],
                numbered: false,
                marks: Vec::new(),
            })],
            checks: Vec::new(),
        };
        let top = |width, plain| {
            let code = Highlights {
                plain,
                ..Highlights::default()
            };
            let p = page(&lesson, width, &code);
            let top = p.lines.iter().find(|l| l.text().starts_with('╭'));
            top.expect("a frame").clone()
        };
        assert_eq!(top(60, true).text(), "╭─ rust [ignore] [edition 2021] ───");
        let styled = top(60, false);
        assert_eq!(styled.spans[0].text, "╭─ rust ");
        assert_eq!(styled.spans[3].text, " edition 2021 ");
        assert_eq!(styled.spans[4].text, " ───");
        assert_eq!(styled.spans[1].text, " ignore ");
        assert_eq!(styled.spans[1].style.role, crate::layout::Role::Badge);
        // Chrome never wraps: on a narrow page the frame line is cut.
        assert_eq!(top(12, true).text(), "╭─ rust [ign");
    }

    #[test]
    fn marks_reverse_their_stretch_of_the_line() {
        use crate::layout::{REVERSE, Role, Span};
        let spans = vec![
            Span::new("let ", Role::CodeText),
            Span::new("x = 1;", Role::Code),
        ];
        let out = super::highlighted(spans, &[(0, 2, 5), (1, 0, 1)], 0, Some("let x = 1;"));
        let texts: Vec<(&str, bool)> = out
            .iter()
            .map(|s| (s.text.as_str(), s.style.mods & REVERSE != 0))
            .collect();
        assert_eq!(
            texts,
            [("le", false), ("t ", true), ("x", true), (" = 1;", false)]
        );
        assert_eq!(out[2].style.role, Role::Code);
    }

    #[test]
    fn without_styles_marks_are_carets_under_their_columns() {
        let lesson = Lesson {
            meta: LessonMeta::default(),
            source: Source::Markdown,
            hero: None,
            blocks: vec![Block::code(crate::model::CodeBlock {
                text: "let x = 1;\nx + 1".into(),
                marks: vec![(0, 4, 5)],
                ..Default::default()
            })],
            checks: Vec::new(),
        };
        let lines = |plain| {
            let code = Highlights {
                plain,
                ..Highlights::default()
            };
            let p = page(&lesson, 40, &code);
            let all: Vec<String> = p.lines.iter().map(|l| l.text()).collect();
            let at = all
                .iter()
                .position(|l| l.starts_with('╭'))
                .expect("a frame");
            all[at + 1..].to_vec()
        };
        assert_eq!(lines(true)[..3], ["│ let x = 1;", "│     ^", "│ x + 1"]);
        assert_eq!(lines(false)[1], "│ x + 1");
    }

    #[test]
    fn a_numbered_block_has_a_gutter_of_line_numbers() {
        let text = (1..=10).map(|i| format!("line{i}")).collect::<Vec<_>>();
        let lesson = Lesson {
            meta: LessonMeta::default(),
            source: Source::Markdown,
            hero: None,
            blocks: vec![Block::code(crate::model::CodeBlock {
                text: text.join("\n"),
                numbered: true,
                marks: Vec::new(),
                ..Default::default()
            })],
            checks: Vec::new(),
        };
        let p = page(&lesson, 60, &Highlights::default());
        let rows: Vec<String> = p.lines.iter().map(|l| l.text()).collect();
        assert!(rows.iter().any(|r| r == "│  1 line1"), "{rows:?}");
        assert!(rows.iter().any(|r| r == "│ 10 line10"), "{rows:?}");
    }

    #[test]
    fn rust_hidden_lines_are_hidden_until_asked_for() {
        let code = "# fn main() {\n#[derive(Debug)]\nstruct S;\n## not hidden\n#\n# }";
        let hidden = shown("rust", code, false);
        assert!(hidden.contains("3 lines hidden (#)"), "{hidden}");
        assert!(!hidden.contains("fn main"), "{hidden}");
        assert!(hidden.contains("#[derive(Debug)]") && hidden.contains("│ # not hidden"));
        let all = shown("rust", code, true);
        assert!(
            all.contains("│ # fn main() {") && !all.contains("lines hidden"),
            "{all}"
        );
        // Other languages' `#` lines are comments, not hidden lines.
        assert!(shown("python", code, false).contains("# fn main"));
    }
}
