//! A lesson laid out for one width: styled lines plus the anchors that let
//! a reading position survive a re-wrap. One builder writes every line;
//! each block kind adds its part in its own file.

mod builder;
mod code;
mod code_wrap;
mod figure;
mod fold;
mod header;
mod picture;
mod table;
mod text;

pub(crate) use builder::wrap_text;
pub use code::Highlights;
pub(crate) use code::each_code_block;
pub use fold::Folded;
pub use picture::{CELL_PIXELS, MAX_ROWS, PicturePlace, cells};
pub(crate) use text::{marked_runs, pieces};

use super::Lines;
use crate::model::{Block, Lesson};
use builder::Builder;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub width: u16,
    pub lines: Lines,
    /// First line of each anchorable section (header, hero, each block,
    /// credits), in order.
    pub blocks: Vec<usize>,
    /// Lines where headings start, for `{` and `}`.
    pub headings: Vec<usize>,
    /// Only the start of the page (see [`first_lines`]).
    pub partial: bool,
    /// Where pictures are drawn, in page order.
    pub pictures: Vec<PicturePlace>,
    /// The folds shown closed, in page order.
    pub folded: Vec<Folded>,
}

/// Lays out a lesson's body (everything but the check) for `width`.
pub fn page(lesson: &Lesson, width: u16, code: &Highlights) -> Page {
    build(lesson, width, code, usize::MAX)
}

/// The start of [`page`], line for line: whole blocks until more than
/// `lines` lines are laid out. A first screen costs what the screen
/// holds, not what the lesson holds; `partial` says whether anything was
/// left out.
pub fn first_lines(lesson: &Lesson, width: u16, code: &Highlights, lines: usize) -> Page {
    build(lesson, width, code, lines)
}

/// Blocks laid out alone as the page lays them out (a check's body, a
/// tracing program), a blank line apart; their code is found in `code`
/// under `path` followed by each block's index.
pub(crate) fn blocks_lines(
    blocks: &[Block],
    width: u16,
    code: &Highlights,
    path: &[usize],
) -> Vec<super::Line> {
    let mut b = Builder::new(usize::from(width), code);
    b.path = path.to_vec();
    b.blocks(blocks);
    b.lines.iter().collect()
}

/// The page line before which a check anchored at lesson block `anchor`
/// stands: that block's first line, else (no anchor, or past the last
/// block) the end of the page. `None` while a partial page has not got
/// there yet.
pub fn anchor_line(page: &Page, lesson: &Lesson, anchor: Option<usize>) -> Option<usize> {
    let hero = usize::from(lesson.hero.is_some());
    match anchor.filter(|&a| a < lesson.blocks.len()) {
        Some(a) => page.blocks.get(1 + hero + a).copied(),
        None => (!page.partial).then_some(page.lines.len()),
    }
}

fn build(lesson: &Lesson, width: u16, code: &Highlights, limit: usize) -> Page {
    let mut b = Builder::new(usize::from(width), code);
    let mut blocks = vec![0];
    let m = &lesson.meta;
    b.header(m);
    if let Some(hero) = &lesson.hero {
        b.blank();
        blocks.push(b.lines.len());
        b.figure(hero);
    }
    let mut partial = false;
    for (i, block) in lesson.blocks.iter().enumerate() {
        if b.lines.len() > limit {
            partial = true;
            break;
        }
        // A label stands right over what it names.
        if !(i > 0 && matches!(lesson.blocks[i - 1], Block::Label { .. })) {
            b.blank();
        }
        blocks.push(b.lines.len());
        b.path.push(i);
        b.block(block);
        b.path.pop();
    }
    if !partial {
        if header::has_credits(m) {
            b.blank();
            blocks.push(b.lines.len());
            b.credits(m);
        }
        b.blank();
    }
    let mut lines = b.lines;
    lines.fit();
    Page {
        width,
        lines,
        blocks,
        headings: b.headings,
        partial,
        pictures: b.pictures,
        folded: b.folded,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::layout::style::{Role, Span};
    use crate::model::{LessonMeta, Run, Source};

    #[test]
    fn first_lines_are_the_start_of_the_page() {
        for (name, text) in crate::loader::BUILTIN {
            let lesson = crate::loader::load_bytes(name, text.as_bytes())
                .unwrap()
                .lesson;
            for width in [20, 60, 100] {
                let whole = page(&lesson, width, &Highlights::default());
                assert!(!whole.partial);
                for rows in [0, 1, 10, 40, whole.lines.len()] {
                    let first = first_lines(&lesson, width, &Highlights::default(), rows);
                    let n = first.lines.len();
                    let (first_lines, whole_lines) = (first.lines.iter(), whole.lines.range(0..n));
                    assert!(first_lines.eq(whole_lines), "{name} at {width}");
                    assert_eq!(first.partial, n < whole.lines.len(), "{name}");
                    assert!(!first.partial || n > rows, "{name}: fills {rows} rows");
                    assert!(whole.blocks.starts_with(&first.blocks), "{name}");
                    assert!(whole.headings.starts_with(&first.headings), "{name}");
                }
            }
        }
    }

    fn code(text: &str) -> Block {
        Block::code(crate::model::CodeBlock {
            lang: Some("rust".into()),
            label: None,
            text: text.into(),
            badges: Vec::new(),
            numbered: false,
            marks: Vec::new(),
        })
    }

    /// Code at the top level, in a list item, in a quote and in a list
    /// inside a quote: places an order-based numbering confuses.
    pub(crate) fn nested_code_lesson() -> Lesson {
        let para = |t: &str| Block::Paragraph(vec![Run::plain(t)]);
        Lesson {
            meta: LessonMeta::default(),
            source: Source::Reader,
            hero: None,
            blocks: vec![
                code("top one"),
                Block::List {
                    start: None,
                    items: vec![vec![para("item"), code("in a list")], vec![]],
                },
                Block::Quote(vec![
                    para("quoted"),
                    code("in a quote"),
                    Block::List {
                        start: Some(1),
                        items: vec![vec![code("in a quoted list\nsecond line")]],
                    },
                ]),
                code("top two"),
            ],
            checks: Vec::new(),
        }
    }

    fn text(p: &Page) -> Vec<String> {
        p.lines.iter().map(|l| l.text()).collect()
    }

    #[test]
    fn the_code_only_lesson_has_each_code_block_where_the_lesson_has_it() {
        let mut lesson = nested_code_lesson();
        lesson
            .blocks
            .push(Block::Paragraph(vec![Run::plain("after")]));
        fn all(l: &Lesson) -> Vec<(Vec<usize>, Option<&str>, String)> {
            let mut out = Vec::new();
            each_code_block(l, |path, lang, text| {
                out.push((path.to_vec(), lang, text.to_string()))
            });
            out
        }
        let only = lesson.code_only();
        assert_eq!(all(&only), all(&lesson));
        // Nothing past the last code block; no text but code's.
        assert_eq!(only.blocks.len(), 4);
        assert!(!format!("{:?}", only.blocks).contains("Paragraph"));
    }

    #[test]
    fn highlights_land_on_their_own_block() {
        let lesson = nested_code_lesson();
        let mut blocks = Vec::new();
        each_code_block(&lesson, |path, _, text| blocks.push((path.to_vec(), text)));
        assert_eq!(blocks.len(), 5);
        // Each block's highlight carries its own colour, so the colour of
        // each block's lines says whose highlight it shows.
        let mut code = Highlights::default();
        for (n, (path, text)) in blocks.iter().enumerate() {
            let role = Role::Syntax(n as u8, 0, 0);
            let lines = text.split('\n').map(|l| vec![Span::new(l, role)]).collect();
            code.insert(path.clone(), lines);
        }
        let plain = page(&lesson, 60, &Highlights::default());
        let styled = page(&lesson, 60, &code);
        assert_eq!(text(&styled), text(&plain));
        for (n, (_, text)) in blocks.iter().enumerate() {
            for line in text.split('\n') {
                let row = styled
                    .lines
                    .iter()
                    .find(|l| l.text().ends_with(&format!("│ {line}")))
                    .expect("every code line is laid out");
                let span = row.spans.last().unwrap();
                assert_eq!(span.style.role, Role::Syntax(n as u8, 0, 0), "{line}");
            }
        }
        // A highlight for one block alone colours that block alone.
        let mut one = Highlights::default();
        one.insert(
            blocks[2].0.clone(),
            vec![vec![Span::new("in a quote", Role::Code)]],
        );
        let one = page(&lesson, 60, &one);
        assert_eq!(text(&one), text(&plain));
        let coloured: Vec<String> = one
            .lines
            .iter()
            .filter(|l| l.spans.iter().any(|s| s.style.role == Role::Code))
            .map(|l| l.text())
            .collect();
        assert_eq!(coloured, ["│ │ in a quote"]);
        // One made from other code (an older lesson) is not shown at all.
        let mut stale = Highlights::default();
        stale.insert(
            blocks[0].0.clone(),
            vec![vec![Span::new("top 1", Role::Code)]],
        );
        assert_eq!(page(&lesson, 60, &stale), plain);
    }

    /// One word of `n` styled runs ("*a*" repeated in markdown).
    fn one_word_of_runs(n: usize) -> Lesson {
        let runs = (0..n)
            .map(|i| Run {
                italic: i % 2 == 0,
                ..Run::plain("a")
            })
            .collect();
        Lesson {
            blocks: vec![Block::Paragraph(runs)],
            ..nested_code_lesson()
        }
    }

    /// Bytes measured to lay `lesson` out: the work of wrapping it,
    /// counted rather than timed.
    fn layout_work(lesson: &Lesson) -> usize {
        crate::work::of(|| {
            let p = page(lesson, 80, &Highlights::default());
            assert!(p.lines.len() > 2);
        })
    }

    #[test]
    fn cjk_without_spaces_lays_out_in_linear_work() {
        let cjk = |n: usize| Lesson {
            blocks: vec![Block::Paragraph(vec![Run::plain("中文".repeat(n))])],
            ..nested_code_lesson()
        };
        let (s, l) = (layout_work(&cjk(5_000)), layout_work(&cjk(20_000)));
        // Each ideograph may end a line (UAX #14): looking for the next
        // space from each of them was quadratic.
        assert!(l <= 5 * s, "4x the ideographs: {s} -> {l} bytes looked at");
    }

    #[test]
    fn layout_is_linear_in_the_runs_of_one_word() {
        let (small, large) = (one_word_of_runs(1_000), one_word_of_runs(4_000));
        let (s, l) = (layout_work(&small), layout_work(&large));
        let ratio = l as f64 / s as f64;
        // 4x the runs: 4x the work. Measuring the whole word again at
        // each run, as layout once did, is 16x (it was 13x the time).
        assert!(
            ratio < 5.0,
            "4x the runs took {ratio:.1}x the work ({s} → {l} bytes measured)"
        );
    }
}
