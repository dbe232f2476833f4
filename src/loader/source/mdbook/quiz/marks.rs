//! mdbook-quiz's highlights in code: `` `[…]` `` around what a question
//! points at ("the fix highlighted in yellow"). The markers leave the
//! text and become the block's marks; mdbook-quiz's `ide` fences are
//! rust.

use crate::model::{Block, CodeBlock};

/// Every code block of `blocks` (in lists and quotes too) with its
/// markers made marks.
pub(super) fn code_marks(blocks: &mut [Block]) {
    for b in blocks {
        match b {
            Block::Code(c) => mark(c),
            Block::List { items, .. } => items.iter_mut().for_each(|i| code_marks(i)),
            other => other.inner_mut().into_iter().for_each(|i| code_marks(i)),
        }
    }
}

fn mark(c: &mut CodeBlock) {
    if c.lang.as_deref() == Some("ide") {
        c.lang = Some("rust".into());
    }
    if !c.text.contains("`[") {
        return;
    }
    let mut text = String::with_capacity(c.text.len());
    for (n, line) in c.text.split('\n').enumerate() {
        if n > 0 {
            text.push('\n');
        }
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        // A marker without its end is text, as it is written.
        while let Some(open) = rest.find("`[")
            && let Some(len) = rest[open + 2..].find("]`")
        {
            out.push_str(&rest[..open]);
            let start = out.len();
            out.push_str(&rest[open + 2..open + 2 + len]);
            c.marks.push((n, start, out.len()));
            rest = &rest[open + 2 + len + 2..];
        }
        out.push_str(rest);
        text.push_str(&out);
    }
    c.text = text;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_marks_and_leave_the_text() {
        let mut blocks = vec![Block::code(CodeBlock {
            lang: Some("ide".into()),
            text: "fn f(`[mut x: u8]`) {\n    `[x += 1;]` `[y]`\n    a `[b\n}".into(),
            ..CodeBlock::default()
        })];
        code_marks(&mut blocks);
        let Block::Code(c) = &blocks[0] else {
            unreachable!()
        };
        assert_eq!(c.lang.as_deref(), Some("rust"));
        assert_eq!(c.text, "fn f(mut x: u8) {\n    x += 1; y\n    a `[b\n}");
        assert_eq!(c.marks, [(0, 5, 14), (1, 4, 11), (1, 12, 13)]);
    }
}
