//! Running text: styled runs, headings, lists, and blocks this version
//! does not know.

use super::builder::Builder;
use crate::layout::style::{BOLD, ITALIC, REVERSE, Role, STRIKE, Span, Style, UNDERLINE};
use crate::layout::wrap::width;
use crate::model::{Block, Run};

fn run_style(run: &Run, base: Style) -> Style {
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
    if run.mark {
        s.mods |= REVERSE;
    }
    s
}

/// Runs as (text, style) pieces; a link's target follows its text so the
/// destination is visible (lectern never emits terminal hyperlinks, which
/// content could use to disguise a target).
pub(crate) fn pieces(runs: &[Run], base: Style) -> Vec<(String, Style)> {
    marked_pieces(runs, base, false)
}

/// A run's text with the marks that show its style without one.
/// One of a run's style flags.
type Flag = fn(&Run) -> bool;

/// A run's text with the marks of its styles, in plain text. Emphasis and
/// strike over several runs (`*a `code` b*`) open on the first and close
/// on the last, as one would write them.
fn marked(r: &Run, prev: Option<&Run>, next: Option<&Run>) -> String {
    let mut t = r.text.to_string();
    if r.code && !t.trim().is_empty() {
        t = code_span(&t);
    }
    let shows = |r: &&Run| !r.text.trim().is_empty();
    let (prev, next) = (prev.filter(shows), next.filter(shows));
    let styles: [(Flag, &str); 3] = [(|r| r.italic, "_"), (|r| r.strike, "~"), (|r| r.mark, "==")];
    for (on, mark) in styles {
        if !on(r) || t.trim().is_empty() {
            continue;
        }
        if !prev.is_some_and(on) {
            t.insert_str(0, mark);
        }
        if !next.is_some_and(on) {
            t.push_str(mark);
        }
    }
    t
}

/// Code in plain text as markdown writes it: in backticks, more of them
/// than any run of backticks inside, and a space inside them where the
/// code starts or ends with one (`` `x` `` rather than ```` ``x`` ````).
fn code_span(t: &str) -> String {
    let longest = t.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    if longest == 0 {
        return format!("`{t}`");
    }
    let ticks = "`".repeat(longest + 1);
    // A no-break space: the wrap must not leave the fence alone on a line.
    let pad = if t.starts_with('`') || t.ends_with('`') {
        "\u{a0}"
    } else {
        ""
    };
    format!("{ticks}{pad}{t}{pad}{ticks}")
}

/// `runs` with the marks of their styles written into their text, for
/// plain output of text not laid out by the page (a check's question,
/// options and explanations).
pub(crate) fn marked_runs(runs: &[Run]) -> Vec<Run> {
    (0..runs.len())
        .map(|i| Run {
            text: marked(
                &runs[i],
                i.checked_sub(1).and_then(|p| runs.get(p)),
                runs.get(i + 1),
            )
            .into(),
            ..runs[i].clone()
        })
        .collect()
}

/// [`pieces`], with style marks in the text when `plain`.
pub(crate) fn marked_pieces(runs: &[Run], base: Style, plain: bool) -> Vec<(String, Style)> {
    let mut out = Vec::with_capacity(runs.len());
    // The text of one link so far: a link of several styled runs
    // (`[`struct`s](…)`) shows its target once, after all of them.
    let mut text = String::new();
    for (i, r) in runs.iter().enumerate() {
        let shown = if plain {
            marked(
                r,
                i.checked_sub(1).and_then(|p| runs.get(p)),
                runs.get(i + 1),
            )
        } else {
            r.text.to_string()
        };
        out.push((shown, run_style(r, base)));
        let Some(href) = &r.href else { continue };
        text.push_str(&r.text);
        if runs
            .get(i + 1)
            .is_some_and(|n| n.href.as_ref() == Some(href))
        {
            continue;
        }
        if href.trim() != text.trim() {
            out.push((format!(" <{href}>"), Style::new(Role::Dim)));
        }
        text.clear();
    }
    out
}

#[cfg(test)]
#[test]
fn code_with_backticks_is_fenced_by_more_of_them() {
    assert_eq!(code_span("x"), "`x`");
    assert_eq!(code_span("a `b` c"), "``a `b` c``");
    assert_eq!(code_span("`x`"), "``\u{a0}`x`\u{a0}``");
    assert_eq!(code_span("a``b"), "```a``b```");
}

impl Builder<'_> {
    pub(super) fn heading(&mut self, level: u8, runs: &[Run]) {
        self.headings.push(self.lines.len());
        let mods = if level >= 4 { BOLD | ITALIC } else { BOLD };
        let before = self.lines.len();
        let style = Style::new(Role::Heading(level)).with(mods);
        if self.code.plain && level >= 3 {
            // Without styles a small heading would read as a paragraph.
            let mut marked = vec![Run::plain(format!("{} ", "#".repeat(level.into())))];
            marked.extend(runs.iter().cloned());
            self.runs(&marked, style);
        } else {
            self.runs(runs, style);
        }
        if level <= 2 {
            let w = self
                .lines
                .range(before..usize::MAX)
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

    /// Items behind their markers; each item's index extends the path.
    pub(super) fn list(&mut self, start: Option<u64>, items: &[Vec<Block>]) {
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
            self.path.push(i);
            self.blocks(item);
            self.path.pop();
            self.pop_prefix();
        }
    }

    /// A label in the right margin, dim, on a line of its own (cut, not
    /// wrapped, on a page too narrow for it: it is a landmark, not text).
    pub(super) fn label(&mut self, text: &str) {
        let shown = format!("[{text}]");
        let pad = self.avail().saturating_sub(width(&shown));
        let line = vec![
            Span::new(" ".repeat(pad), Role::Dim),
            Span::new(shown, Role::Dim),
        ];
        let cut = crate::layout::wrap::truncate(&line, self.avail()).0;
        self.emit(cut);
    }

    pub(super) fn unknown(&mut self, kind: &str, text: &[String]) {
        self.barred(Span::new("┊ ", Role::Unknown), |b| {
            let what = if kind.is_empty() {
                "unknown block".to_string()
            } else {
                format!("unknown block: {kind}")
            };
            b.text(&what, Style::new(Role::Unknown).with(ITALIC));
            for t in text {
                b.text(t, Role::Text);
            }
        });
    }
}
