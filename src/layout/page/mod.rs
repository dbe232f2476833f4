//! A lesson laid out for one width: styled lines plus the anchors that let
//! a reading position survive a re-wrap.

use super::style::{BOLD, ITALIC, Line, Role, STRIKE, Span, Style, UNDERLINE};
use super::wrap::{self, truncate, width};
use crate::model::{Block, Column, Figure, FigureBody, Lesson, Run};

/// Highlighted code, one entry per code block in document order: each
/// line as styled spans. `None` (or a short list) means plain text.
pub type CodeStyles = [Option<Vec<Vec<Span>>>];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub width: u16,
    pub lines: Vec<Line>,
    /// First line of each anchorable section (header, hero, each block,
    /// credits), in order.
    pub blocks: Vec<usize>,
    /// Lines where headings start, for `{` and `}`.
    pub headings: Vec<usize>,
    /// Only the start of the page (see [`first_lines`]).
    pub partial: bool,
}

struct Prefix {
    first: Vec<Span>,
    rest: Vec<Span>,
    used: bool,
}

struct Builder<'a> {
    width: usize,
    lines: Vec<Line>,
    prefixes: Vec<Prefix>,
    headings: Vec<usize>,
    code: &'a CodeStyles,
    code_index: usize,
}

pub fn run_style(run: &Run, base: Style) -> Style {
    let mut s = base;
    if run.code {
        s.role = Role::Code;
    } else if run.kbd {
        s.role = Role::Kbd;
    } else if run.href.is_some() {
        s.role = Role::Link;
        s.mods |= UNDERLINE;
    }
    if run.bold {
        s.mods |= BOLD;
    }
    if run.italic {
        s.mods |= ITALIC;
    }
    if run.strike {
        s.mods |= STRIKE;
    }
    s
}

/// Runs as (text, style) pieces; a link's target follows its text so the
/// destination is visible (lectern never emits terminal hyperlinks, which
/// content could use to disguise a target).
pub fn pieces(runs: &[Run], base: Style) -> Vec<(String, Style)> {
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        out.push((r.text.clone(), run_style(r, base)));
        if let Some(href) = &r.href {
            if href.trim() != r.text.trim() {
                out.push((format!(" <{href}>"), Style::new(Role::Dim)));
            }
        }
    }
    out
}

impl<'a> Builder<'a> {
    fn new(width: usize, code: &'a CodeStyles) -> Self {
        Builder {
            width: width.max(1),
            lines: Vec::new(),
            prefixes: Vec::new(),
            headings: Vec::new(),
            code,
            code_index: 0,
        }
    }

    fn prefix_width(&self) -> usize {
        self.prefixes
            .iter()
            .map(|p| width_of(if p.used { &p.rest } else { &p.first }))
            .sum()
    }

    /// Columns left for content; prefixes may take at most half the line.
    fn avail(&self) -> usize {
        self.width - self.prefix_width().min(self.width / 2)
    }

    fn emit(&mut self, content: Vec<Span>) {
        let mut spans = Vec::new();
        for p in &mut self.prefixes {
            spans.extend(if p.used {
                p.rest.iter().cloned()
            } else {
                p.first.iter().cloned()
            });
            p.used = true;
        }
        let (mut spans, mut pw) = truncate(&spans, self.width / 2);
        let cut_mid_word = spans
            .last()
            .is_some_and(|s| !s.text.ends_with(char::is_whitespace));
        if cut_mid_word && pw > 0 && !content.is_empty() {
            // A prefix cut short can end mid-marker ("1" of "10. "): end it
            // with a space, or text starting with a joining character
            // would fuse with it (a digit then U+FE0F is one wide emoji).
            let (cut, w) = truncate(&spans, pw - 1);
            spans = cut;
            spans.push(Span::new(" ", Role::Text));
            pw = w + 1;
        }
        if content.is_empty() {
            // Blank lines keep bars (quotes, figures) but not indents.
            while spans.last().is_some_and(|s| s.text.trim().is_empty()) {
                spans.pop();
            }
            if let Some(last) = spans.last_mut() {
                let trimmed = last.text.trim_end().to_string();
                last.text = trimmed;
            }
        }
        let (content, _) = truncate(&content, self.width - pw);
        spans.extend(content);
        self.lines.push(Line { spans });
    }

    fn blank(&mut self) {
        if self.lines.last().is_some_and(|l| l.spans.is_empty()) {
            return;
        }
        self.emit(Vec::new());
    }

    fn push_prefix(&mut self, first: Vec<Span>, rest: Vec<Span>) {
        self.prefixes.push(Prefix {
            first,
            rest,
            used: false,
        });
    }

    fn pop_prefix(&mut self) {
        self.prefixes.pop();
    }

    fn wrapped(&mut self, pieces: &[(String, Style)]) {
        let refs: Vec<(&str, Style)> = pieces.iter().map(|(t, s)| (t.as_str(), *s)).collect();
        for line in wrap::wrap(&refs, self.avail()) {
            self.emit(line);
        }
    }

    fn text(&mut self, text: &str, style: impl Into<Style>) {
        self.wrapped(&[(text.to_string(), style.into())]);
    }

    fn runs(&mut self, runs: &[Run], base: Style) {
        self.wrapped(&pieces(runs, base));
    }

    fn blocks(&mut self, blocks: &[Block]) {
        for (i, b) in blocks.iter().enumerate() {
            if i > 0 {
                self.blank();
            }
            self.block(b);
        }
    }

    fn block(&mut self, block: &Block) {
        match block {
            Block::Heading { level, runs, .. } => self.heading(*level, runs),
            Block::Paragraph(runs) => self.runs(runs, Style::new(Role::Text)),
            Block::List { start, items } => self.list(*start, items),
            Block::Code { lang, label, text } => self.code(lang.as_deref(), label.as_deref(), text),
            Block::Figure(f) => self.figure(f),
            Block::Quote(inner) => {
                let bar = vec![Span::new("│ ", Role::Quote)];
                self.push_prefix(bar.clone(), bar);
                self.blocks(inner);
                self.pop_prefix();
            }
            Block::Rule => {
                let n = self.avail();
                self.emit(vec![Span::new("─".repeat(n), Role::Rule)]);
            }
            Block::Table { header, rows } => self.table(header, rows),
            Block::Unknown { kind, text } => {
                let bar = vec![Span::new("┊ ", Role::Unknown)];
                self.push_prefix(bar.clone(), bar);
                let what = if kind.is_empty() {
                    "unknown block".to_string()
                } else {
                    format!("unknown block: {kind}")
                };
                self.text(&what, Style::new(Role::Unknown).with(ITALIC));
                for t in text {
                    self.text(t, Role::Text);
                }
                self.pop_prefix();
            }
        }
    }

    fn heading(&mut self, level: u8, runs: &[Run]) {
        self.headings.push(self.lines.len());
        let mods = if level >= 4 { BOLD | ITALIC } else { BOLD };
        let before = self.lines.len();
        self.runs(runs, Style::new(Role::Heading(level)).with(mods));
        if level <= 2 {
            let w = self.lines[before..]
                .iter()
                // An empty heading's line is its prefix, trimmed: it can
                // be narrower than the prefix.
                .map(|l| {
                    l.width()
                        .saturating_sub(self.prefix_width().min(self.width / 2))
                })
                .max()
                .unwrap_or(0)
                .clamp(1, self.avail());
            let ch = if level == 1 { "═" } else { "─" };
            self.emit(vec![Span::new(ch.repeat(w), Role::Heading(level))]);
        }
    }

    fn list(&mut self, start: Option<u64>, items: &[Vec<Block>]) {
        let marker = |i: usize| match start {
            Some(s) => format!("{}. ", s.saturating_add(i as u64)),
            None => "• ".to_string(),
        };
        let mw = (0..items.len())
            .map(|i| width(&marker(i)))
            .max()
            .unwrap_or(2);
        for (i, item) in items.iter().enumerate() {
            let m = format!("{:>w$}", marker(i), w = mw);
            self.push_prefix(
                vec![Span::new(m, Role::Marker)],
                vec![Span::new(" ".repeat(mw), Role::Text)],
            );
            if item.is_empty() {
                self.emit(Vec::new());
            }
            self.blocks(item);
            self.pop_prefix();
        }
    }

    fn code(&mut self, lang: Option<&str>, label: Option<&str>, text: &str) {
        let styled = self.code.get(self.code_index).and_then(Option::as_ref);
        self.code_index += 1;
        // The name sits in the frame's one line: tabs and newlines in it
        // (kept by the sanitiser for running text) become single spaces.
        let name = label.or(lang).unwrap_or("");
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let top = if name.is_empty() {
            "╭──".to_string()
        } else {
            format!("╭─ {name} ")
        };
        let avail = self.avail();
        let fill = avail.saturating_sub(width(&top)).min(3);
        self.emit(vec![Span::new(
            format!("{top}{}", "─".repeat(fill)),
            Role::CodeFrame,
        )]);
        let room = avail.saturating_sub(2).max(1);
        let text = wrap::expand_tabs(text, 4);
        for (n, line) in text.split('\n').enumerate() {
            let spans = match styled.and_then(|s| s.get(n)) {
                Some(spans) => wrap::regroup(spans),
                None => vec![Span::new(line, Role::CodeText)],
            };
            for (i, row) in hard_wrap(&spans, room).into_iter().enumerate() {
                let bar = if i == 0 { "│ " } else { "┆ " };
                let mut out = vec![Span::new(bar, Role::CodeFrame)];
                out.extend(row);
                self.emit(out);
            }
        }
        self.emit(vec![Span::new("╰──", Role::CodeFrame)]);
    }

    fn figure(&mut self, f: &Figure) {
        let bar = vec![Span::new("▌ ", Role::FigureFrame)];
        self.push_prefix(bar.clone(), bar);
        let label = f.label.as_deref().unwrap_or("Figure");
        let title = match &f.title {
            Some(t) => format!("{label}: {t}"),
            None => label.to_string(),
        };
        self.text(&title, Style::new(Role::FigureTitle).with(BOLD));
        match &f.body {
            FigureBody::Compare { left, right } => {
                self.blank();
                self.compare(left, right);
            }
            FigureBody::Unknown { kind, text } => {
                let what = if kind.is_empty() {
                    "figure".to_string()
                } else {
                    format!("figure type: {kind}")
                };
                self.text(
                    &format!("({what}, shown as text)"),
                    Style::new(Role::Unknown).with(ITALIC),
                );
                match &f.alt {
                    Some(alt) => self.text(alt, Role::Text),
                    None => {
                        for t in text {
                            self.text(t, Role::Text);
                        }
                    }
                }
            }
        }
        if let Some(c) = &f.caption {
            self.blank();
            self.text(c, Style::new(Role::Caption).with(ITALIC));
        }
        self.pop_prefix();
    }

    fn column_lines(&self, col: &Column, w: usize) -> Vec<Vec<Span>> {
        let mut out = wrap::wrap(
            &[(col.title.as_str(), Style::new(Role::FigureTitle).with(BOLD))],
            w,
        );
        for item in &col.items {
            let inner = w.saturating_sub(2).max(1);
            for (i, mut line) in wrap::wrap(&[(item.as_str(), Style::new(Role::Text))], inner)
                .into_iter()
                .enumerate()
            {
                let m = if i == 0 && w >= 3 {
                    "• "
                } else if w >= 3 {
                    "  "
                } else {
                    ""
                };
                line.insert(0, Span::new(m, Role::Marker));
                out.push(line);
            }
        }
        out
    }

    fn compare(&mut self, left: &Column, right: &Column) {
        let avail = self.avail();
        if avail < 50 {
            for (i, col) in [left, right].into_iter().enumerate() {
                if i > 0 {
                    self.blank();
                }
                for line in self.column_lines(col, avail) {
                    self.emit(line);
                }
            }
            return;
        }
        let cw = (avail - 3) / 2;
        let l = self.column_lines(left, cw);
        let r = self.column_lines(right, cw);
        for i in 0..l.len().max(r.len()) {
            let mut row = l.get(i).cloned().unwrap_or_default();
            let pad = cw - width_of(&row);
            row.push(Span::new(" ".repeat(pad), Role::Text));
            row.push(Span::new(" │ ", Role::FigureFrame));
            row.extend(r.get(i).cloned().unwrap_or_default());
            self.emit(row);
        }
    }

    fn table(&mut self, header: &[Vec<Run>], rows: &[Vec<Vec<Run>>]) {
        let cols = header
            .len()
            .max(rows.iter().map(Vec::len).max().unwrap_or(0));
        // Grid cells are not wrapped: whitespace (a tab, a newline)
        // collapses to single spaces so the row stays one measured line.
        let cell_text = |cell: Option<&Vec<Run>>| {
            cell.map(|r| {
                let text = crate::model::runs_text(r);
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .unwrap_or_default()
        };
        let mut widths = vec![0usize; cols];
        for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
            for (c, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(width(&cell_text(row.get(c))));
            }
        }
        let total = widths.iter().sum::<usize>() + 3 * cols.saturating_sub(1);
        if total <= self.avail() && cols > 0 {
            let row_line = |row: &[Vec<Run>], style: Style| {
                let mut spans = Vec::new();
                for (c, w) in widths.iter().enumerate() {
                    if c > 0 {
                        spans.push(Span::new(" │ ", Role::Rule));
                    }
                    let t = cell_text(row.get(c));
                    let pad = w - width(&t);
                    spans.push(Span::new(t, style));
                    spans.push(Span::new(" ".repeat(pad), Role::Text));
                }
                spans
            };
            self.emit(row_line(header, Style::new(Role::Text).with(BOLD)));
            let sep: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
            self.emit(vec![Span::new(sep.join("─┼─"), Role::Rule)]);
            for row in rows {
                self.emit(row_line(row, Style::new(Role::Text)));
            }
            return;
        }
        // Too wide for a grid: one record per row, "Header: value".
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                self.blank();
            }
            for c in 0..cols {
                let mut p = vec![(
                    format!("{}: ", cell_text(header.get(c))),
                    Style::new(Role::Text).with(BOLD),
                )];
                p.extend(pieces(
                    row.get(c).map_or(&[][..], Vec::as_slice),
                    Style::new(Role::Text),
                ));
                self.wrapped(&p);
            }
        }
    }
}

fn width_of(spans: &[Span]) -> usize {
    spans.iter().map(|s| width(&s.text)).sum()
}

/// Breaks a row of styled spans into rows of at most `max` columns,
/// keeping every character (code is never word-wrapped).
pub fn hard_wrap(spans: &[Span], max: usize) -> Vec<Vec<Span>> {
    let mut rows = vec![Vec::new()];
    let mut w = 0;
    for s in spans {
        for chunk in wrap::break_word(&s.text, max, max - w.min(max)) {
            let cw = width(&chunk);
            if w + cw > max && w > 0 {
                rows.push(Vec::new());
                w = 0;
            }
            let row = rows.last_mut().expect("rows is never empty");
            row.push(Span::new(chunk, s.style));
            w += cw;
        }
    }
    rows
}

/// Lays out a lesson's body (everything but the check) for `width`.
pub fn page(lesson: &Lesson, width: u16, code: &CodeStyles) -> Page {
    build(lesson, width, code, usize::MAX)
}

/// The start of [`page`], line for line: whole blocks until more than
/// `lines` lines are laid out. A first screen costs what the screen
/// holds, not what the lesson holds; `partial` says whether anything was
/// left out.
pub fn first_lines(lesson: &Lesson, width: u16, code: &CodeStyles, lines: usize) -> Page {
    build(lesson, width, code, lines)
}

fn build(lesson: &Lesson, width: u16, code: &CodeStyles, limit: usize) -> Page {
    let mut b = Builder::new(usize::from(width), code);
    let mut blocks = Vec::new();
    let m = &lesson.meta;

    blocks.push(0);
    b.text(&m.title, Style::new(Role::Title).with(BOLD));
    let mut meta = vec![m.course_title.clone()];
    if let Some(module) = &m.module {
        meta.push(if module.title.is_empty() {
            format!("Module {}", module.index)
        } else {
            format!("Module {}: {}", module.index, module.title)
        });
    }
    match (m.position, m.of) {
        (Some(p), Some(of)) => meta.push(format!("Lesson {p} of {of}")),
        (Some(p), None) => meta.push(format!("Lesson {p}")),
        _ => {}
    }
    if let Some(min) = m.minutes {
        meta.push(format!("{min} min"));
    }
    b.text(&meta.join(" · "), Role::Meta);
    if let Some(k) = &m.key_idea {
        b.blank();
        b.wrapped(&[
            (
                "Key idea: ".to_string(),
                Style::new(Role::KeyIdea).with(BOLD),
            ),
            (k.clone(), Style::new(Role::KeyIdea)),
        ]);
    }

    if let Some(hero) = &lesson.hero {
        b.blank();
        blocks.push(b.lines.len());
        b.figure(hero);
    }
    for block in &lesson.blocks {
        if b.lines.len() > limit {
            return Page {
                width,
                lines: b.lines,
                blocks,
                headings: b.headings,
                partial: true,
            };
        }
        b.blank();
        blocks.push(b.lines.len());
        b.block(block);
    }
    let credits: Vec<&str> = [
        m.authorship.as_deref(),
        m.licence.as_deref().map(|_| ""),
        m.review_status.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !credits.is_empty() || m.cite.is_some() {
        b.blank();
        blocks.push(b.lines.len());
        b.emit(vec![Span::new("─".repeat(b.avail().min(3)), Role::Rule)]);
        if let Some(a) = &m.authorship {
            b.text(a, Role::Dim);
        }
        if let Some(l) = &m.licence {
            b.text(&format!("Licence: {l}"), Role::Dim);
        }
        if let Some(r) = &m.review_status {
            b.text(&format!("Status: {r}"), Role::Dim);
        }
        if let Some(c) = &m.cite {
            b.text(&format!("Cite as: {c}"), Role::Dim);
        }
    }
    b.blank();
    Page {
        width,
        lines: b.lines,
        blocks,
        headings: b.headings,
        partial: false,
    }
}

/// Code blocks in document order, as the layout numbers them.
pub fn code_blocks(lesson: &Lesson) -> Vec<(Option<&str>, &str)> {
    fn walk<'a>(blocks: &'a [Block], out: &mut Vec<(Option<&'a str>, &'a str)>) {
        for b in blocks {
            match b {
                Block::Code { lang, label, text } => {
                    out.push((lang.as_deref().or(label.as_deref()), text))
                }
                Block::List { items, .. } => items.iter().for_each(|i| walk(i, out)),
                Block::Quote(inner) => walk(inner, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&lesson.blocks, &mut out);
    out
}

/// Lines of wrapped text with a style, for other layout stages.
pub(crate) fn wrap_text(
    text: &[(String, Style)],
    prefix: &[Span],
    rest: &[Span],
    w: usize,
) -> Vec<Line> {
    let mut b = Builder::new(w, &[]);
    b.push_prefix(prefix.to_vec(), rest.to_vec());
    b.wrapped(text);
    b.lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_are_the_start_of_the_page() {
        for (name, text) in crate::loader::BUILTIN {
            let lesson = crate::loader::load_bytes(name, text.as_bytes())
                .unwrap()
                .lesson;
            for width in [20, 60, 100] {
                let whole = page(&lesson, width, &[]);
                assert!(!whole.partial);
                for rows in [0, 1, 10, 40, whole.lines.len()] {
                    let first = first_lines(&lesson, width, &[], rows);
                    let n = first.lines.len();
                    assert_eq!(first.lines[..], whole.lines[..n], "{name} at {width}");
                    assert_eq!(first.partial, n < whole.lines.len(), "{name}");
                    assert!(!first.partial || n > rows, "{name}: fills {rows} rows");
                    assert!(whole.blocks.starts_with(&first.blocks), "{name}");
                    assert!(whole.headings.starts_with(&first.headings), "{name}");
                }
            }
        }
    }
}
