//! Inline text as runs: markdown's styles and the HTML pass's.

use super::super::html::ImgTag;
use super::super::html::{self, Known, Piece};
use super::super::sanitize::{clean, clean_owned, clean_prose};
use crate::model::{Image, ImageFile, Run};

#[derive(Default)]
pub(super) struct Inline {
    pub(super) runs: Vec<Run>,
    pub(super) bold: usize,
    pub(super) italic: usize,
    pub(super) strike: usize,
    /// Styles from HTML tags (`<kbd>`, `<code>`, `<sup>`, `<sub>`, `<mark>`).
    kbd: usize,
    mark: usize,
    code: usize,
    sup: usize,
    sub: usize,
    pub(super) links: Vec<Option<Box<str>>>,
    /// The last run is the text of the open `<code>` element so far: the
    /// parser splits it at entities (`<code>&amp;&amp;</code>`), and it is
    /// one code span all the same.
    in_code_element: bool,
    /// The pictures of this text, and whether it has words beside them:
    /// a paragraph of pictures alone is laid out as the pictures.
    images: Vec<crate::model::Image>,
    words: bool,
}

impl Inline {
    pub(super) fn push(&mut self, text: &str, code: bool) {
        // The body was sanitised before parsing, but entities such as
        // `&#27;` only become characters here.
        // Code shows a zero-width space or soft hyphen as a mark; running
        // text keeps them as break opportunities for the layout.
        let code = code || self.code > 0;
        self.words |= !text.trim().is_empty();
        let text = &*if code { clean(text) } else { clean_prose(text) };
        let scripted;
        let text = if (self.sup > 0 || self.sub > 0) && !text.trim().is_empty() {
            scripted = html::script(text, self.sup > 0);
            &scripted
        } else {
            text
        };
        let run = Run {
            text: text.into(),
            bold: self.bold > 0,
            italic: self.italic > 0,
            strike: self.strike > 0,
            code,
            kbd: self.kbd > 0,
            mark: self.mark > 0,
            href: self.links.last().cloned().flatten(),
        };
        // Adjacent text events of one style are one run.
        let joins = !code || (self.code > 0 && self.in_code_element);
        match self.runs.last_mut() {
            Some(last) if joins && last.code == code && same_style(last, &run) => {
                last.text.push_str(text)
            }
            _ => self.runs.push(run),
        }
        self.in_code_element = self.code > 0;
    }
}

impl Inline {
    /// A line ends (a newline of an HTML block, `<br>`): never two in a
    /// row, nor at the start.
    fn newline(&mut self) {
        if self.runs.last().is_some_and(|r| !r.text.ends_with('\n')) {
            self.push("\n", false);
        }
    }

    /// One piece of the HTML pass, as style or text.
    pub(super) fn html(&mut self, piece: Piece, block: bool) {
        let dec = |n: &mut usize| *n = n.saturating_sub(1);
        match piece {
            Piece::Text(t) => self.push(&t, false),
            Piece::Newline if block => self.newline(),
            Piece::Newline => self.push(" ", false),
            // Handled by the block pass; inline, nothing to show.
            Piece::Listing(_) => {}
            Piece::Image(tag) => image(self, *tag, None),
            Piece::Open(k, value) => match k {
                Known::Kbd => self.kbd += 1,
                Known::Mark => self.mark += 1,
                // The space after the box is the source's, as a browser
                // shows it.
                Known::Check => self.push(&value.unwrap_or_default(), false),
                Known::Code => {
                    self.code += 1;
                    self.in_code_element = false;
                }
                Known::Em => self.italic += 1,
                Known::Strong => self.bold += 1,
                Known::Strike => self.strike += 1,
                Known::Sup => self.sup += 1,
                Known::Sub => self.sub += 1,
                Known::Plain | Known::Listing | Known::Style | Known::Script => {}
                // Outside an HTML block (or a table cut by markdown), a
                // container is its lines.
                Known::Line | Known::Pre | Known::Quote | Known::Details | Known::Hr => {
                    self.newline()
                }
                Known::Table | Known::Row | Known::Cell | Known::HeadCell => self.newline(),
                Known::A => self.links.push(value.map(|v| clean_owned(&v).into())),
                Known::Br => self.push("\n", false),
                // Its attributes come as [`Piece::Image`].
                Known::Img => {}
                Known::Figcaption => {
                    self.newline();
                    self.italic += 1;
                }
                Known::Summary => {
                    self.newline();
                    self.push(super::html_block::SUMMARY, false);
                    self.bold += 1;
                }
            },
            Piece::Close(k) => match k {
                Known::Kbd => dec(&mut self.kbd),
                Known::Mark => dec(&mut self.mark),
                Known::Code => {
                    dec(&mut self.code);
                    self.in_code_element = false;
                }
                Known::Em => dec(&mut self.italic),
                Known::Strong => dec(&mut self.bold),
                Known::Strike => dec(&mut self.strike),
                Known::Sup => dec(&mut self.sup),
                Known::Sub => dec(&mut self.sub),
                Known::Line | Known::Pre | Known::Quote | Known::Details => self.newline(),
                Known::Table | Known::Row | Known::Cell | Known::HeadCell => self.newline(),
                Known::A => {
                    self.links.pop();
                }
                Known::Figcaption => {
                    dec(&mut self.italic);
                    self.newline();
                }
                Known::Summary => {
                    dec(&mut self.bold);
                    self.newline();
                }
                Known::Plain | Known::Br | Known::Img | Known::Listing => {}
                Known::Hr | Known::Check | Known::Style | Known::Script => {}
            },
        }
    }

    /// The runs, without line breaks at either end.
    pub(super) fn finish(mut self) -> Vec<Run> {
        while let Some(last) = self.runs.last_mut() {
            let t = last.text.trim_end_matches('\n').len();
            last.text.truncate(t);
            if !last.text.is_empty() {
                break;
            }
            self.runs.pop();
        }
        let lead = self.runs.iter().take_while(|r| r.text == "\n").count();
        self.runs.drain(..lead);
        if self.runs.iter().all(|r| r.text.trim().is_empty()) {
            self.runs.clear();
        }
        self.fitted().runs
    }

    /// Runs and their texts at their length: a block's vectors are kept
    /// for as long as the lesson is open, and what doubling left spare was,
    /// on a 200,000-row table, most of its memory.
    pub(super) fn fitted(mut self) -> Self {
        for r in &mut self.runs {
            r.text.shrink_to_fit();
        }
        self.runs.shrink_to_fit();
        self
    }
}

/// An image: kept as a picture, and marked in the text by its alt text
/// (what stays when words stand beside it).
pub(super) fn image(inline: &mut Inline, tag: ImgTag, caption: Option<String>) {
    let alt = clean_prose(tag.alt.trim()).into_owned();
    let words = inline.words;
    inline.push(
        &if alt.is_empty() {
            "[image]".to_string()
        } else {
            format!("[image: {alt}]")
        },
        false,
    );
    // A picture that is a link (a badge) stays words, with its target.
    inline.words = words || inline.links.last().is_some_and(Option::is_some);
    // A budget: past it, a picture is its words alone.
    if inline.images.len() < MAX_IMAGES_IN_A_PARAGRAPH {
        inline.images.push(Image {
            src: clean(tag.src.trim()).into_owned(),
            alt,
            caption,
            width: tag.width,
            height: tag.height,
            percent: tag.percent,
            file: ImageFile::Unresolved,
        });
    }
}

/// The most pictures one paragraph keeps as pictures.
const MAX_IMAGES_IN_A_PARAGRAPH: usize = 64;

impl Inline {
    /// [`Inline::finish`], with the pictures when they are all the text has.
    pub(super) fn finish_with_images(mut self) -> (Vec<Run>, Option<Vec<Image>>) {
        let images = std::mem::take(&mut self.images);
        let alone = !self.words && !images.is_empty();
        (self.finish(), alone.then_some(images))
    }
}

fn same_style(a: &Run, b: &Run) -> bool {
    (a.bold, a.italic, a.strike, a.kbd, a.mark, &a.href)
        == (b.bold, b.italic, b.strike, b.kbd, b.mark, &b.href)
}
