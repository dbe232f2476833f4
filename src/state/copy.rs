//! `y`: copy what is on screen to the clipboard over OSC 52 (which
//! reaches the local clipboard over SSH and through tmux): the code block
//! on screen, or a picker when there are several (the lesson's key idea is
//! one of them while the header is on screen). The exact text of the
//! lesson, without the gutter, the frame or the wrapping the page adds.

use super::list::Pick;
use super::{Action, Effect, Overlay, State};
use crate::model::{Block, Lesson};

/// Something on screen that can be copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copyable {
    /// How the picker and the status line name it.
    pub label: String,
    pub text: String,
}

/// Several things on screen: which one to copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyPicker {
    pub items: Vec<Copyable>,
    pub cursor: usize,
}

/// The code of a top-level block (a list or quote may hold several).
fn code_in(block: &Block, out: &mut Vec<(Option<String>, String)>) {
    match block {
        Block::Code(c) => out.push((c.label.clone().or_else(|| c.lang.clone()), c.text.clone())),
        Block::List { items, .. } => items.iter().flatten().for_each(|b| code_in(b, out)),
        other => other
            .inner()
            .into_iter()
            .flatten()
            .for_each(|b| code_in(b, out)),
    }
}

/// What can be copied from the lines `top..bottom` of the page. The
/// layout marks where each section starts: the header, the hero figure,
/// then each of the lesson's blocks.
pub fn on_screen(
    lesson: &Lesson,
    starts: &[usize],
    total: usize,
    top: usize,
    bottom: usize,
) -> Vec<Copyable> {
    let range = |i: usize| {
        let start = *starts.get(i)?;
        let end = starts.get(i + 1).copied().unwrap_or(total);
        (start < bottom && end > top).then_some(())
    };
    let mut out = Vec::new();
    if let Some(idea) = &lesson.meta.key_idea
        && range(0).is_some()
    {
        out.push(Copyable {
            label: "the key idea".into(),
            text: idea.clone(),
        });
    }
    let first = 1 + usize::from(lesson.hero.is_some());
    let mut n = 0;
    for (i, block) in lesson.blocks.iter().enumerate() {
        let mut code = Vec::new();
        code_in(block, &mut code);
        let shown = range(first + i).is_some();
        for (name, text) in code {
            n += 1;
            if shown {
                let label = match name {
                    Some(name) => format!("code block {n} ({name})"),
                    None => format!("code block {n}"),
                };
                out.push(Copyable { label, text });
            }
        }
    }
    // The key idea is offered alongside code, never instead of the one
    // code block on screen.
    if out.len() == 2 && out[0].label == "the key idea" {
        out.remove(0);
    }
    out
}

/// `y` on the page.
pub fn start(s: &mut State, fx: &mut Vec<Effect>) {
    let g = s.geometry();
    let Some(doc) = s.reader.doc() else {
        s.notice = Some("Nothing to copy: no lesson is open.".into());
        return;
    };
    let top = s.reader.top;
    let page = &doc.page;
    // The screen counts the checks' lines too: the blocks' starts as it does.
    let starts: Vec<usize> = page.blocks.iter().map(|&p| doc.doc_line(p)).collect();
    let mut items = on_screen(
        &doc.lesson,
        &starts,
        doc.doc_line(page.lines.len()),
        top,
        top + g.rows(),
    );
    match items.len() {
        0 => s.notice = Some("No code block on screen to copy.".into()),
        1 => copy(s, items.remove(0), fx),
        _ => s.overlay = Some(Overlay::Copy(CopyPicker { items, cursor: 0 })),
    }
}

/// The most text sent to the clipboard, in bytes. OSC 52 carries it
/// through the terminal, and terminals and multiplexers drop a longer
/// one silently (hterm and tmux keep about 100 KB of it): past this,
/// "Copied" would be a lie.
const MAX_CLIPBOARD_BYTES: usize = 74 * 1024;

fn copy(s: &mut State, item: Copyable, fx: &mut Vec<Effect>) {
    if item.text.len() > MAX_CLIPBOARD_BYTES {
        s.notice = Some(format!(
            "Not copied: {} is {} KB, more than a terminal's clipboard takes ({} KB); `lectern render` prints it.",
            item.label,
            item.text.len().div_ceil(1024),
            MAX_CLIPBOARD_BYTES / 1024
        ));
        return;
    }
    let lines = item.text.lines().count().max(1);
    let plural = if lines == 1 { "" } else { "s" };
    s.notice = Some(format!(
        "Copied {} ({lines} line{plural}) to the clipboard.",
        item.label
    ));
    fx.push(Effect::Clipboard(item.text));
}

/// A key on the picker: `true` when the picker had a use for it.
pub fn update(s: &mut State, a: &Action, fx: &mut Vec<Effect>) -> bool {
    let Some(Overlay::Copy(p)) = &mut s.overlay else {
        return false;
    };
    match super::list::pick(&p.items, &mut p.cursor, a) {
        Pick::Unused => return false,
        Pick::Moved => {}
        Pick::Closed => s.overlay = None,
        Pick::Chosen(item) => {
            s.overlay = None;
            copy(s, item, fx);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Highlights, page};

    const LESSON: &str = r#"{"course":{"slug":"c","title":"C"},
     "lesson":{"slug":"l","title":"T","position":1,"keyIdea":"The idea."},
     "body":{"format":"markdown","text":"Intro.\n\n```sh\necho one\n```\n\n> Quoted:\n>\n> ```\n> two\n> ```\n\nEnd."}}"#;

    fn lesson() -> Lesson {
        crate::loader::load_bytes("t.json", LESSON.as_bytes())
            .unwrap()
            .lesson
    }

    #[test]
    fn what_is_on_screen_is_offered_with_its_exact_text() {
        let l = lesson();
        let p = page(&l, 60, &Highlights::default());
        let all = on_screen(&l, &p.blocks, p.lines.len(), 0, p.lines.len());
        let labels: Vec<&str> = all.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            ["the key idea", "code block 1 (sh)", "code block 2"]
        );
        assert_eq!(all[1].text, "echo one");
        assert_eq!(all[2].text, "two");
        // Below the header: the quoted block alone.
        let quote = p.blocks[3];
        let below = on_screen(&l, &p.blocks, p.lines.len(), quote, quote + 2);
        assert_eq!(below.len(), 1);
        assert_eq!(below[0].text, "two");
    }

    #[test]
    fn the_picker_copies_the_chosen_one_and_says_so() {
        let mut s = State::new(Vec::new(), 60, 20);
        let items = vec![
            Copyable {
                label: "code block 1".into(),
                text: "a\nb".into(),
            },
            Copyable {
                label: "code block 2".into(),
                text: "c".into(),
            },
        ];
        s.overlay = Some(Overlay::Copy(CopyPicker { items, cursor: 0 }));
        let mut fx = Vec::new();
        assert!(update(&mut s, &Action::LineDown, &mut fx));
        assert!(update(&mut s, &Action::Open, &mut fx));
        assert_eq!(fx, [Effect::Clipboard("c".into())]);
        assert!(s.overlay.is_none());
        assert_eq!(
            s.notice.as_deref(),
            Some("Copied code block 2 (1 line) to the clipboard.")
        );
    }

    #[test]
    fn a_block_too_large_for_a_terminals_clipboard_is_not_said_copied() {
        let mut s = State::new(Vec::new(), 60, 20);
        let mut fx = Vec::new();
        let item = Copyable {
            label: "code block 1".into(),
            text: "x".repeat(4 << 20),
        };
        copy(&mut s, item, &mut fx);
        assert!(fx.is_empty());
        let notice = s.notice.unwrap();
        assert!(
            notice.starts_with("Not copied: code block 1 is 4096 KB"),
            "{notice}"
        );
    }
}
