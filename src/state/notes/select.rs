//! Selecting text, as vim's `v` (word by word) and `V` (line by line):
//! the motions move its free end, each with a count typed before it as on
//! the page (the page's count, `state::page_keys`), Enter
//! highlights it, `i` writes a note on it, `y` copies it, `d` deletes the
//! highlights in it.

use super::super::Overlay;
use super::super::{Action, Doc, Effect, State};
use super::editor::NoteEditor;
use super::{annotate, canonical, delete, page_flow, page_line, select_in};
use crate::layout::flow::Flow;
use crate::model::anchor::Selector;

#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// The page's flowing text as it was laid out when the selection began.
    pub flow: Flow,
    /// The lesson's text as anchors know it (see `notes::canonical`).
    pub canon: Flow,
    /// The word it started at, and the word the cursor is on.
    pub anchor: usize,
    pub cursor: usize,
    /// `V`: whole lines.
    pub linewise: bool,
}

impl Selection {
    /// The words selected, first to last.
    pub fn words(&self) -> (usize, usize) {
        let (mut lo, mut hi) = (self.anchor.min(self.cursor), self.anchor.max(self.cursor));
        if self.linewise {
            lo = self.line_start(lo);
            hi = self.line_end(hi);
        }
        (lo, hi)
    }

    /// The characters selected in the flowing text.
    pub fn chars(&self) -> (usize, usize) {
        let (lo, hi) = self.words();
        (
            self.flow.words[lo].start as usize,
            self.flow.words[hi].end(),
        )
    }

    /// (doc line, from byte, to byte) of each line the selection covers.
    pub fn lines(&self, doc: &Doc) -> Vec<(usize, usize, usize)> {
        let (a, b) = self.chars();
        let ranges = self.flow.ranges(a, b).into_iter();
        ranges.map(|(l, x, y)| (doc.doc_line(l), x, y)).collect()
    }

    /// The selectors of what is selected.
    pub fn target(&self) -> Selector {
        let (a, b) = self.chars();
        select_in(&self.flow, &self.canon, a, b)
    }

    /// What is selected, in the text anchors know.
    fn canonical_chars(&self) -> (usize, usize) {
        let (a, b) = self.chars();
        self.flow.to_flow(&self.canon, a, b)
    }

    fn line_of(&self, w: usize) -> u32 {
        self.flow.words[w].line
    }

    fn line_start(&self, w: usize) -> usize {
        let line = self.line_of(w);
        (0..=w)
            .rev()
            .take_while(|&i| self.line_of(i) == line)
            .last()
            .unwrap_or(w)
    }

    fn line_end(&self, w: usize) -> usize {
        let line = self.line_of(w);
        let n = self.flow.words.len();
        (w..n)
            .take_while(|&i| self.line_of(i) == line)
            .last()
            .unwrap_or(w)
    }

    /// The word on the line after (`down`) or before the cursor's that is
    /// nearest the cursor's column.
    fn next_line(&self, w: usize, down: bool) -> usize {
        let here = self.flow.words[w];
        let other = if down {
            let end = self.line_end(w);
            if end + 1 >= self.flow.words.len() {
                return w;
            }
            end + 1
        } else {
            let start = self.line_start(w);
            if start == 0 {
                return w;
            }
            start - 1
        };
        let (a, b) = (self.line_start(other), self.line_end(other));
        (a..=b)
            .min_by_key(|&i| self.flow.words[i].byte.abs_diff(here.byte))
            .unwrap_or(other)
    }

    /// The first and last words of the block (paragraph, list, code)
    /// word `w` is in.
    fn block_start(&self, w: usize) -> usize {
        let block = self.flow.words[w].block;
        w - self.flow.words[..w]
            .iter()
            .rev()
            .take_while(|x| x.block == block)
            .count()
    }

    fn block_end(&self, w: usize) -> usize {
        let block = self.flow.words[w].block;
        w + self.flow.words[w + 1..]
            .iter()
            .take_while(|x| x.block == block)
            .count()
    }

    /// `}`: the end of the block, or of the next when at its end already;
    /// `{` the start, or the previous one's.
    fn next_block(&self, w: usize, down: bool) -> usize {
        let last = self.flow.words.len() - 1;
        if down {
            match self.block_end(w) {
                end if end == w => self.block_end((w + 1).min(last)),
                end => end,
            }
        } else {
            match self.block_start(w) {
                start if start == w => self.block_start(w.saturating_sub(1)),
                start => start,
            }
        }
    }

    /// Moves the cursor by `a`, `n` times (`page`: the lines a page key
    /// moves); whether `a` is a motion.
    fn motion(&mut self, a: &Action, n: usize, page: usize) -> bool {
        let last = self.flow.words.len() - 1;
        let c = self.cursor;
        // Past this many steps a motion has reached the end anyway.
        let steps = |k: usize| k.min(10_000);
        let repeat =
            |k: usize, step: &dyn Fn(usize) -> usize| (0..steps(k)).fold(c, |w, _| step(w));
        self.cursor = match a {
            Action::WordNext => (c + n).min(last),
            Action::WordPrev => c.saturating_sub(n),
            Action::LineDown | Action::LineUp => {
                repeat(n, &|w| self.next_line(w, *a == Action::LineDown))
            }
            Action::PageDown | Action::PageUp => repeat(n.saturating_mul(page), &|w| {
                self.next_line(w, *a == Action::PageDown)
            }),
            Action::NextHeading | Action::PrevHeading => {
                repeat(n, &|w| self.next_block(w, *a == Action::NextHeading))
            }
            Action::LineStart => self.line_start(c),
            Action::LineEnd => self.line_end(c),
            Action::Top => 0,
            Action::Bottom => last,
            _ => return false,
        };
        true
    }
}

/// Whether `a` moves the selection: what a count typed before it repeats
/// (`3w`, `2j`, `2}`), or for `g` and `G` the line it goes to (`10G`).
pub(in crate::state) fn takes_count(a: &Action) -> bool {
    matches!(
        a,
        Action::WordNext
            | Action::WordPrev
            | Action::LineDown
            | Action::LineUp
            | Action::PageDown
            | Action::PageUp
            | Action::NextHeading
            | Action::PrevHeading
            | Action::LineStart
            | Action::LineEnd
            | Action::Top
            | Action::Bottom
    )
}

/// Moves the selection's free end by motion `a`, with the count typed
/// before it (`None`: none), and keeps it on screen.
pub(in crate::state) fn moved(s: &mut State, a: &Action, count: Option<u32>) {
    let g = s.geometry();
    let page = g.page().unsigned_abs();
    // `10G`, `10g`: the first word on line 10 of the page, as on the page.
    let line = match (a, count) {
        (Action::Top | Action::Bottom, Some(n)) => s
            .reader
            .doc()
            .map(|d| page_line(d, (n as usize).saturating_sub(1))),
        _ => None,
    };
    let Some(Overlay::Select(sel)) = &mut s.overlay else {
        return;
    };
    let to_line = line.and_then(|l| {
        sel.flow
            .word_on_line(l)
            .or(sel.flow.words.len().checked_sub(1))
    });
    match to_line {
        Some(w) => sel.cursor = w,
        None if sel.motion(a, count.unwrap_or(1) as usize, page) => {}
        None => return,
    }
    let cursor = sel.flow.words[sel.cursor].line as usize;
    if let Some(line) = s.reader.doc().map(|d| d.doc_line(cursor)) {
        s.reader.show_line(line, &g);
    }
}

/// `v` or `V` on the page: a selection from the first word on screen.
pub(in crate::state) fn start(s: &mut State, linewise: bool) {
    // A page drawn from its first screen is laid out whole first.
    s.reader.finish_layout();
    let (Some(flow), Some(canon)) = (page_flow(s), canonical(s)) else {
        s.notice = Some("The page is still being laid out.".into());
        return;
    };
    let Some(doc) = s.reader.doc() else { return };
    let Some(at) = flow.word_on_line(page_line(doc, s.reader.top)) else {
        s.notice = Some("No text on screen to select.".into());
        return;
    };
    s.overlay = Some(Overlay::Select(Selection {
        flow,
        canon,
        anchor: at,
        cursor: at,
        linewise,
    }));
}

/// The selection's keys: `false` when none is open.
pub(in crate::state) fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Select(sel)) = &mut s.overlay else {
        return false;
    };
    match a {
        Action::SwapEnds => std::mem::swap(&mut sel.anchor, &mut sel.cursor),
        Action::SelectWords | Action::SelectLines => {
            let linewise = *a == Action::SelectLines;
            if sel.linewise == linewise {
                s.overlay = None;
            } else {
                sel.linewise = linewise;
            }
        }
        Action::Back | Action::Close => s.overlay = None,
        Action::Open => finish(s, fx, false),
        Action::TypeAnswer => finish(s, fx, true),
        Action::Copy => {
            let (x, y) = sel.chars();
            fx.push(Effect::Clipboard(sel.flow.text[x..y].iter().collect()));
            s.notice = Some("Copied the selection.".into());
            s.overlay = None;
        }
        Action::Delete => delete_within(s, fx),
        a => moved(s, a, None),
    }
    true
}

/// Enter (a highlight) or `i` (a note on it, typed next).
fn finish(s: &mut State, fx: &mut Vec<Effect>, with_note: bool) {
    let Some(Overlay::Select(sel)) = s.overlay.take() else {
        return;
    };
    let target = sel.target();
    let (a, b) = sel.canonical_chars();
    // A note on a highlight there already is that highlight's.
    let existing = s
        .reader
        .notes
        .shown
        .iter()
        .find(|sh| sh.placed.start < b && sh.placed.end > a)
        .and_then(|sh| s.reader.notes.notes.get(sh.note));
    if with_note {
        let editor = match existing {
            Some(n) => NoteEditor::of(n),
            None => NoteEditor::new(target),
        };
        s.overlay = Some(Overlay::Note(editor));
    } else {
        let said = super::Said {
            note: String::new(),
            card: false,
        };
        annotate(s, target, said, None, fx);
        s.notice = Some("Highlighted (H lists them).".into());
    }
}

/// `d`: the open lesson's highlights that the selection reaches go.
fn delete_within(s: &mut State, fx: &mut Vec<Effect>) {
    let Some(Overlay::Select(sel)) = s.overlay.take() else {
        return;
    };
    let (a, b) = sel.canonical_chars();
    let mut gone: Vec<usize> = s
        .reader
        .notes
        .shown
        .iter()
        .filter(|sh| sh.placed.start < b && sh.placed.end > a)
        .map(|sh| sh.note)
        .collect();
    // From the last: each deletion shifts the notes after it.
    gone.sort_unstable();
    s.notice = Some(match gone.len() {
        0 => "No highlight there.".into(),
        1 => "Deleted one highlight.".into(),
        n => format!("Deleted {n} highlights."),
    });
    for i in gone.into_iter().rev() {
        delete(s, i, fx);
    }
}
