//! mdBook's `links` preprocessor, as mdBook runs it (mdbook-driver,
//! `builtin_preprocessors/links.rs`), with mdbook-quiz's `{{#quiz}}`:
//! `{{#include}}`, `{{#rustdoc_include}}`, `{{#playground}}` (and the old
//! `{{#playpen}}`) and `{{#title}}`, paths relative to the file the
//! directive is in, included text expanded in turn up to 10 deep, an
//! escaped `\{{#…}}` kept as written without its backslash, other
//! `{{#names}}` left alone (another preprocessor's). Where mdBook logs an
//! error and leaves the directive in the page, lectern refuses (a cycle,
//! a file outside the book, a missing file or anchor) with a note in the
//! page and a located problem for lint: nothing is read silently.
//!
//! Every expansion is bounded (see `caps`): the bytes includes write to
//! the page, indentation repeated on each line included, and the bytes of
//! included files looked through, per chapter and per book; quizzes by
//! their size and the questions a chapter asks. The include that would go
//! past a cap is refused whole, with a located error, and the includes
//! after it are left out: the chapter's own text is always shown.

mod files;
mod links;
mod page;
mod quizzes;
mod spots;

use crate::loader::caps::{self, Budget};
use crate::model::{Check, Diagnostic, Severity};
use files::Files;
use links::links;
use page::{Level, Page, cost};
use spots::Spots;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How deep included files may include others (mdBook's limit).
pub const MAX_DEPTH: usize = 10;

/// What every sentinel starts with.
pub const SENTINEL: &str = "lectern-quiz-anchor-";

/// Marks where a quiz stands: a paragraph of its own, found and removed
/// once the page is parsed.
pub fn sentinel(n: usize) -> String {
    format!("{SENTINEL}{n}-3f1c")
}

/// What includes may still write and look through.
#[derive(Debug, Clone, Copy)]
pub struct Budgets {
    included: Budget,
    scanned: Budget,
}

impl Budgets {
    pub fn chapter() -> Budgets {
        Budgets {
            included: Budget::new(caps::MAX_INCLUDED),
            scanned: Budget::new(caps::MAX_INCLUDE_SCANNED),
        }
    }

    pub fn book() -> Budgets {
        Budgets {
            included: Budget::new(caps::MAX_BOOK_INCLUDED),
            scanned: Budget::new(caps::MAX_BOOK_INCLUDE_SCANNED),
        }
    }
}

/// Which cap an include would go past.
#[derive(Debug, Clone, Copy)]
enum Over {
    Included,
    Scanned,
}

#[derive(Debug, Default)]
pub struct Expanded {
    pub text: String,
    /// Each `{{#quiz}}`'s checks, by the number in its sentinel.
    pub quizzes: Vec<Vec<Check>>,
    pub problems: Vec<Diagnostic>,
}

pub struct Expander<'a> {
    /// The book's folder, canonical: nothing outside it is read.
    root: &'a Path,
    /// mdbook-quiz reads quiz paths from the chapter's folder.
    chapter_dir: PathBuf,
    /// Files being expanded (canonical), outermost first.
    stack: Vec<PathBuf>,
    files: Files,
    quizzes: quizzes::Quizzes,
    /// This chapter's budgets, and its book's (spent back when done).
    chapter: Budgets,
    book: &'a Mutex<Budgets>,
    book_left: Budgets,
    /// A cap was reached: later includes are left out.
    over: bool,
    /// The preprocessors `book.toml` names that lectern does not know:
    /// whose another directive may be.
    strangers: &'a [String],
    page: Page,
    out: Expanded,
}

/// What went wrong with one directive, said in the page and to lint.
struct Refusal(String);

/// What a directive gives.
enum Gives {
    Text(String),
    /// An include, written to the page already.
    Written,
    Refused(Refusal),
    /// Nothing written, and a warning for lint.
    Warned(String),
    Over(Over),
}

/// `path` with `a/..` and `.` taken out, as written (links not followed):
/// how problems name the files they are in.
fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

impl<'a> Expander<'a> {
    pub fn new(root: &'a Path, chapter: &Path, book: &'a Mutex<Budgets>) -> Expander<'a> {
        let chapter_dir = chapter.parent().map(Path::to_path_buf).unwrap_or_default();
        let canon = std::fs::canonicalize(chapter).unwrap_or_else(|_| chapter.to_path_buf());
        let book_left = *book.lock().unwrap_or_else(|e| e.into_inner());
        Expander {
            root,
            chapter_dir,
            stack: vec![canon],
            files: Files::default(),
            quizzes: quizzes::Quizzes::default(),
            chapter: Budgets::chapter(),
            book,
            book_left,
            over: false,
            strangers: &[],
            page: Page::default(),
            out: Expanded::default(),
        }
    }

    /// Names the preprocessors lectern does not know, for the warning on
    /// a directive of theirs.
    pub fn strangers(mut self, names: &'a [String]) -> Expander<'a> {
        self.strangers = names;
        self
    }

    /// The chapter at `file` whose text is `text`, expanded.
    pub fn run(mut self, file: &Path, text: &str) -> Expanded {
        let mut top = Level::at(&self.page, String::new());
        // The chapter's own text is never refused: only what includes add.
        let _ = self.expand(text, text, file, 0, &mut top);
        *self.book.lock().unwrap_or_else(|e| e.into_inner()) = self.book_left;
        self.out.text = self.page.text;
        self.out
    }

    /// Takes `n` bytes from the chapter's and the book's budget `over`.
    fn spend(&mut self, n: usize, over: Over) -> Result<(), Over> {
        let (chapter, book) = match over {
            Over::Included => (&mut self.chapter.included, &mut self.book_left.included),
            Over::Scanned => (&mut self.chapter.scanned, &mut self.book_left.scanned),
        };
        let (mut c, mut b) = (*chapter, *book);
        if !(c.take(n) && b.take(n)) {
            return Err(over);
        }
        (*chapter, *book) = (c, b);
        Ok(())
    }

    /// Writes `s` at `level`, counted when an include writes it.
    fn write(&mut self, s: &str, level: &Level, depth: usize) -> Result<(), Over> {
        if depth > 0 {
            self.spend(cost(s, level), Over::Included)?;
        }
        self.page.write(s, level);
        Ok(())
    }

    /// Writes `text` (a part of `whole`, the text of `file`) at `level`
    /// with its directives replaced. Past a cap, an include returns
    /// `Over` up to the chapter's own directive, which is refused whole.
    fn expand(
        &mut self,
        text: &str,
        whole: &str,
        file: &Path,
        depth: usize,
        level: &mut Level,
    ) -> Result<(), Over> {
        let mut last = 0;
        let mut spots = Spots::default();
        for link in links(text) {
            self.write(&text[last..link.start], level, depth)?;
            last = link.end;
            let raw = &text[link.start..link.end];
            let Some(name) = link.name else {
                self.write(&raw[1..], level, depth)?;
                continue;
            };
            let at = spots.find(whole, text, link.start, raw);
            let (mark, quizzes) = (self.page.text.len(), self.out.quizzes.len());
            let gives = match name {
                "include" | "rustdoc_include" | "playground" | "playpen" if self.over => {
                    Gives::Written
                }
                "include" | "rustdoc_include" | "playground" | "playpen" => {
                    self.include(name, link.args, file, depth, level)
                }
                // mdBook's browser-tab title, which a terminal page has no
                // place for: taken out, as mdBook takes it out.
                "title" => Gives::Written,
                "quiz" => match self.quiz(link.args.trim()) {
                    Ok(text) => Gives::Text(text),
                    Err(message) => {
                        self.problem(spots.place(whole, at), file, &message);
                        Gives::Text(format!("\n\n⚠ {message}\n\n"))
                    }
                },
                // Another preprocessor's: left as mdBook leaves it.
                other => {
                    let message = self.stranger(other);
                    self.warn(spots.place(whole, at), file, &message);
                    Gives::Text(raw.to_string())
                }
            };
            match gives {
                Gives::Written => {}
                Gives::Text(t) => self.write(&t, level, depth)?,
                Gives::Warned(message) => {
                    let at = spots.place(whole, at);
                    self.warn(at, file, &message);
                }
                Gives::Refused(Refusal(message)) => {
                    self.problem(spots.place(whole, at), file, &message);
                    self.write(&format!("⚠ {message}"), level, depth)?;
                }
                Gives::Over(over) if depth > 0 => return Err(over),
                Gives::Over(over) => {
                    self.page.truncate(mark);
                    self.out.quizzes.truncate(quizzes);
                    self.over = true;
                    let message = over_cap(link.args, over);
                    self.problem(spots.place(whole, at), file, &message);
                    self.page.write(&format!("⚠ {message}"), level);
                }
            }
        }
        self.write(&text[last..], level, depth)
    }

    /// What lint says of the directive `{{#name}}`, which no preprocessor
    /// lectern knows reads.
    fn stranger(&self, name: &str) -> String {
        let whose = match self.strangers.iter().find(|s| *s == name) {
            Some(s) => format!("preprocessor `{s}`'s, which lectern does not know"),
            None if self.strangers.is_empty() => {
                "for a preprocessor book.toml does not name".to_string()
            }
            None => format!(
                "for a preprocessor lectern does not know (book.toml names {})",
                self.strangers
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        format!("`{{{{#{name}}}}}` is {whose}: it is shown as written")
    }

    fn problem(&mut self, at: (usize, usize), file: &Path, message: &str) {
        self.diagnose(at, file, message, Severity::Error);
    }

    fn warn(&mut self, at: (usize, usize), file: &Path, message: &str) {
        self.diagnose(at, file, message, Severity::Warning);
    }

    fn diagnose(&mut self, at: (usize, usize), file: &Path, message: &str, severity: Severity) {
        // A hostile chapter can refuse without end; lint says enough.
        if self.out.problems.len() >= 1000 {
            return;
        }
        self.out.problems.push(Diagnostic {
            file: file.display().to_string(),
            line: at.0,
            column: at.1,
            path: None,
            severity,
            message: message.to_string(),
        });
    }

    /// The real path and text of `path` (relative to `base`'s folder),
    /// when the book may show it: a regular file inside the book, not
    /// already being expanded, its size allowed for.
    fn read(
        &mut self,
        base: &Path,
        path: &str,
        charge: impl FnOnce(&mut Self, u64) -> Result<(), Gives>,
    ) -> Result<(PathBuf, PathBuf, std::rc::Rc<str>), Gives> {
        let refuse = |m: String| Gives::Refused(Refusal(m));
        let dir = base.parent().unwrap_or(Path::new(""));
        let target = tidy(&dir.join(path));
        let canon = self.files.find(self.root, &target).map_err(|why| {
            refuse(match why {
                super::inside::Refused::Missing => format!("cannot include `{path}`: no such file"),
                super::inside::Refused::Outside => {
                    format!("cannot include `{path}`: it is outside the book")
                }
            })
        })?;
        if let Some(i) = self.stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = self.stack[i..]
                .iter()
                .chain(std::iter::once(&canon))
                .map(|p| {
                    p.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                })
                .collect();
            return Err(refuse(format!(
                "cannot include `{path}`: an include cycle ({})",
                chain.join(" → ")
            )));
        }
        let size = self.files.len(&canon).unwrap_or(0);
        charge(self, size)?;
        let text = self
            .files
            .text(&canon)
            .map_err(|e| refuse(format!("cannot include `{path}`: {e}")))?;
        Ok((target, canon, text))
    }
}

/// What the include refused at a cap says.
fn over_cap(args: &str, over: Over) -> String {
    let spec = args.split_whitespace().next().unwrap_or("");
    let what = match over {
        Over::Included => format!(
            "the chapter would hold over {} MiB of included text",
            caps::MAX_INCLUDED >> 20
        ),
        Over::Scanned => format!(
            "the chapter would read over {} MiB of included files",
            caps::MAX_INCLUDE_SCANNED >> 20
        ),
    };
    format!(
        "cannot include `{spec}`: {what} (or its book over its own limit); later includes are left out"
    )
}

mod include;

#[cfg(test)]
mod tests;
