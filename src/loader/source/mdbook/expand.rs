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

use super::lines::{self, Take};
use super::quiz;
use crate::model::{Check, Diagnostic, Severity};
use std::path::{Path, PathBuf};

/// How deep included files may include others (mdBook's limit).
pub const MAX_DEPTH: usize = 10;

/// How much included text one chapter may hold: files that include each
/// other several times over, 10 deep, would otherwise grow without end.
pub const MAX_INCLUDED: usize = 8 * 1024 * 1024;

/// Marks where a quiz stands: a paragraph of its own, found and removed
/// once the page is parsed.
pub fn sentinel(n: usize) -> String {
    format!("lectern-quiz-anchor-{n}-3f1c")
}

#[derive(Debug, Default)]
pub struct Expanded {
    pub text: String,
    /// `{{#title}}`'s, when the chapter has one.
    pub title: Option<String>,
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
    /// Bytes included so far (see [`MAX_INCLUDED`]).
    included: usize,
    out: Expanded,
}

struct Link<'t> {
    start: usize,
    end: usize,
    /// `None`: an escaped directive.
    name: Option<&'t str>,
    args: &'t str,
}

/// Every directive of `s` in order, as mdBook's pattern finds them.
fn links(s: &str) -> Vec<Link<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = s[i..].find("{{").map(|p| p + i) {
        if p > i && s.as_bytes()[p - 1] == b'\\' && s[p..].starts_with("{{#") {
            let line_end = s[p..].find('\n').map_or(s.len(), |n| p + n);
            if let Some(q) = s[p..line_end].rfind("}}") {
                let end = p + q + 2;
                out.push(Link {
                    start: p - 1,
                    end,
                    name: None,
                    args: "",
                });
                i = end;
                continue;
            }
        }
        match directive(s, p) {
            Some(link) => {
                i = link.end;
                out.push(link);
            }
            None => i = p + 1,
        }
    }
    out
}

/// `{{ #name args }}` at `p`: `\s*#[a-zA-Z0-9_]+\s+[^}]+}}`.
fn directive(s: &str, p: usize) -> Option<Link<'_>> {
    let after = &s[p + 2..];
    let body = after.trim_start();
    let hash = p + 2 + (after.len() - body.len());
    let rest = body.strip_prefix('#')?;
    let n = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if n == 0 {
        return None;
    }
    let name = &rest[..n];
    let tail = &rest[n..];
    if !tail.starts_with(char::is_whitespace) {
        return None;
    }
    let close = tail.find('}')?;
    if !tail[close..].starts_with("}}") || tail[..close].trim().is_empty() {
        return None;
    }
    let args_start = hash + 1 + n;
    Some(Link {
        start: p,
        end: args_start + close + 2,
        name: Some(name),
        args: &tail[..close],
    })
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

/// What went wrong with one directive, said in the page and to lint.
struct Refusal(String);

impl<'a> Expander<'a> {
    pub fn new(root: &'a Path, chapter: &Path) -> Expander<'a> {
        let chapter_dir = chapter.parent().map(Path::to_path_buf).unwrap_or_default();
        let canon = std::fs::canonicalize(chapter).unwrap_or_else(|_| chapter.to_path_buf());
        Expander {
            root,
            chapter_dir,
            stack: vec![canon],
            included: 0,
            out: Expanded::default(),
        }
    }

    /// The chapter at `file` whose text is `text`, expanded.
    pub fn run(mut self, file: &Path, text: &str) -> Expanded {
        self.out.text = self.expand(text, text, file, 0);
        self.out
    }

    /// `text` (a part of `whole`, the text of `file`) with its directives
    /// replaced.
    fn expand(&mut self, text: &str, whole: &str, file: &Path, depth: usize) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for link in links(text) {
            out.push_str(&text[last..link.start]);
            last = link.end;
            let raw = &text[link.start..link.end];
            let Some(name) = link.name else {
                out.push_str(&raw[1..]);
                continue;
            };
            let args = link.args;
            let result = match name {
                "include" | "rustdoc_include" | "playground" | "playpen" => {
                    self.include(name, args, file, depth)
                }
                "title" => {
                    self.out.title = Some(args.trim().to_string());
                    Ok(String::new())
                }
                "quiz" => Ok(self.quiz(args.trim(), whole, raw, file)),
                _ => {
                    // Another preprocessor's: left as mdBook leaves it.
                    out.push_str(raw);
                    continue;
                }
            };
            match result {
                Ok(expanded) => {
                    let prefix = out.rsplit('\n').next().unwrap_or("");
                    // mdBook repeats the line's indent (or quote) on each
                    // included line, so an include in a list item stays in it.
                    let prefix = if prefix.chars().all(|c| c == ' ' || c == '\t' || c == '>') {
                        prefix.to_string()
                    } else {
                        String::new()
                    };
                    let joined = expanded
                        .lines()
                        .collect::<Vec<_>>()
                        .join(&format!("\n{prefix}"));
                    out.push_str(&joined);
                }
                Err(Refusal(message)) => {
                    self.problem(whole, raw, file, Severity::Error, &message);
                    out.push_str(&format!("⚠ {message}"));
                }
            }
        }
        out.push_str(&text[last..]);
        out
    }

    fn problem(&mut self, whole: &str, raw: &str, file: &Path, severity: Severity, message: &str) {
        // A hostile chapter can refuse without end; lint says enough.
        if self.out.problems.len() >= 1000 {
            return;
        }
        let at = whole.find(raw).unwrap_or(0);
        let (line, column) = super::summary::line_col(whole, at);
        self.out.problems.push(Diagnostic {
            file: file.display().to_string(),
            line,
            column,
            path: None,
            severity,
            message: message.to_string(),
        });
    }

    /// The text of `path` (relative to `base`'s folder), when the book
    /// may show it: a regular file inside the book, not already being
    /// expanded.
    fn read(&self, base: &Path, path: &str) -> Result<(PathBuf, PathBuf, String), Refusal> {
        let dir = base.parent().unwrap_or(Path::new(""));
        let target = tidy(&dir.join(path));
        let shown = || path.to_string();
        let canon = std::fs::canonicalize(&target)
            .map_err(|_| Refusal(format!("cannot include `{}`: no such file", shown())))?;
        if !canon.starts_with(self.root) {
            return Err(Refusal(format!(
                "cannot include `{}`: it is outside the book",
                shown()
            )));
        }
        if let Some(i) = self.stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = self.stack[i..]
                .iter()
                .chain(std::iter::once(&canon))
                .map(|p| {
                    p.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                })
                .collect();
            return Err(Refusal(format!(
                "cannot include `{}`: an include cycle ({})",
                shown(),
                chain.join(" → ")
            )));
        }
        let size = std::fs::metadata(&canon).map_or(0, |m| m.len());
        if size > crate::loader::MAX_LESSON_BYTES {
            return Err(Refusal(format!(
                "cannot include `{}`: the file is too large",
                shown()
            )));
        }
        let bytes = crate::loader::walk::read_regular(&canon)
            .map_err(|e| Refusal(format!("cannot include `{}`: {e}", shown())))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok((target, canon, text))
    }

    fn include(
        &mut self,
        kind: &str,
        args: &str,
        file: &Path,
        depth: usize,
    ) -> Result<String, Refusal> {
        let mut words = args.split_whitespace();
        let spec = words.next().unwrap_or("");
        let attrs: Vec<&str> = words.collect();
        let playground = matches!(kind, "playground" | "playpen");
        let (path, take) = match spec.split_once(':') {
            Some((p, rest)) if !playground => (p, lines::parse_take(Some(rest))),
            _ => (spec, Take::Lines(0, None)),
        };
        if depth >= MAX_DEPTH {
            return Err(Refusal(format!(
                "cannot include `{path}`: includes nested over {MAX_DEPTH} deep"
            )));
        }
        let (target, canon, whole) = self.read(file, path)?;
        let missing = |name: &str| {
            Refusal(format!(
                "cannot include `{spec}`: `{path}` has no anchor `{name}`"
            ))
        };
        let taken = match (&take, kind == "rustdoc_include") {
            (Take::Lines(s, e), false) => lines::take_lines(&whole, *s, *e),
            (Take::Lines(s, e), true) => lines::rustdoc_lines(&whole, *s, *e),
            (Take::Anchor(a), false) => {
                lines::take_anchored(&whole, a).ok_or_else(|| missing(a))?
            }
            (Take::Anchor(a), true) => {
                lines::rustdoc_anchored(&whole, a).ok_or_else(|| missing(a))?
            }
        };
        let taken = if playground {
            let lang = if attrs.is_empty() {
                "rust".to_string()
            } else {
                format!("rust,{}", attrs.join(","))
            };
            format!("```{lang}\n{taken}\n```\n")
        } else {
            taken
        };
        self.included += taken.len();
        if self.included > MAX_INCLUDED {
            return Err(Refusal(format!(
                "cannot include `{spec}`: the chapter would hold over {} MiB of included text",
                MAX_INCLUDED >> 20
            )));
        }
        self.stack.push(canon);
        let expanded = self.expand(&taken, &whole, &target, depth + 1);
        self.stack.pop();
        Ok(expanded)
    }

    /// A `{{#quiz path}}`: its checks kept, a sentinel paragraph in its
    /// place (and a note for each question that cannot be asked).
    fn quiz(&mut self, path: &str, whole: &str, raw: &str, file: &Path) -> String {
        let n = self.out.quizzes.len();
        self.out.quizzes.push(Vec::new());
        let chapter = self.chapter_dir.join("_");
        let (qpath, _, text) = match self.read(&chapter, path) {
            Ok(found) => found,
            Err(Refusal(message)) => {
                let message = message.replacen("cannot include", "cannot read the quiz", 1);
                self.problem(whole, raw, file, Severity::Error, &message);
                return format!("\n\n⚠ {message}\n\n");
            }
        };
        let name = qpath.display().to_string();
        match quiz::parse(&text, path) {
            Err((at, message)) => {
                let (line, column) = super::summary::line_col(&text, at);
                let message = format!("the quiz does not parse: {message}");
                self.out.problems.push(Diagnostic {
                    file: name,
                    line,
                    column,
                    path: None,
                    severity: Severity::Error,
                    message: message.clone(),
                });
                format!("\n\n⚠ `{path}`: {message}\n\n")
            }
            Ok(q) => {
                for (at, error, message) in q.problems {
                    let (line, column) = super::summary::line_col(&text, at);
                    let severity = if error {
                        Severity::Error
                    } else {
                        Severity::Warning
                    };
                    self.out.problems.push(Diagnostic {
                        file: name.clone(),
                        line,
                        column,
                        path: None,
                        severity,
                        message,
                    });
                }
                let notes: String = q
                    .notes
                    .iter()
                    .map(|note| format!("\n\n> ⚠ {}", note.replace('\n', "\n> ")))
                    .collect();
                self.out.quizzes[n] = q.checks;
                format!("{notes}\n\n{}\n\n", sentinel(n))
            }
        }
    }
}

#[cfg(test)]
mod tests;
