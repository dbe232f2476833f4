//! `{{#quiz path}}`: the quiz file's checks kept, a sentinel paragraph in
//! the directive's place (and a note for each question that cannot be
//! asked). A quiz file is parsed once per chapter however often it is
//! used (one of 1.5 MB used 200 times took over a minute), and bounded:
//! its size, the quiz bytes a chapter reads (each use counted) and the
//! questions it asks (see `caps`).

use super::super::quiz::{self, Quiz};
use super::{Expander, Gives, Refusal, sentinel};
use crate::loader::caps::{self, Budget};
use crate::model::{Diagnostic, Severity};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

type Parsed = Rc<Result<Quiz, (usize, String)>>;

pub struct Quizzes {
    /// By real path and the path as written (it makes ids).
    parsed: HashMap<(PathBuf, String), Parsed>,
    bytes: Budget,
    questions: Budget,
}

impl Default for Quizzes {
    fn default() -> Quizzes {
        Quizzes {
            parsed: HashMap::new(),
            bytes: Budget::new(caps::MAX_CHAPTER_QUIZ_BYTES),
            questions: Budget::new(caps::MAX_QUESTIONS),
        }
    }
}

impl Expander<'_> {
    /// The text standing for `{{#quiz path}}`, or why it is refused.
    pub(super) fn quiz(&mut self, path: &str) -> Result<String, String> {
        let n = self.out.quizzes.len();
        self.out.quizzes.push(Vec::new());
        let refuse = |m: String| Gives::Refused(Refusal(m));
        let charge = |me: &mut Self, size: u64| {
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            if size > caps::MAX_QUIZ_BYTES {
                let cap = caps::MAX_QUIZ_BYTES >> 10;
                return Err(refuse(format!("cannot include `{path}`: over {cap} KiB")));
            }
            if !me.quizzes.bytes.take(size) {
                let cap = caps::MAX_CHAPTER_QUIZ_BYTES >> 20;
                let why = format!(
                    "cannot include `{path}`: the chapter's quizzes would be over {cap} MiB"
                );
                return Err(refuse(why));
            }
            Ok(())
        };
        let (qpath, canon, text) = match self.read(&self.chapter_dir.join("_"), path, charge) {
            Ok(found) => found,
            Err(Gives::Refused(Refusal(message))) => return Err(refused(&message)),
            Err(_) => unreachable!("a quiz is charged only to its own budgets"),
        };
        let key = (canon, path.to_string());
        let first = !self.quizzes.parsed.contains_key(&key);
        let parsed = self
            .quizzes
            .parsed
            .entry(key)
            .or_insert_with(|| Rc::new(quiz::parse(&text, path)))
            .clone();
        let name = qpath.display().to_string();
        let q = match &*parsed {
            Err((at, message)) => {
                let message = format!("the quiz does not parse: {message}");
                if first {
                    self.quiz_problem(&name, &text, *at, true, message.clone());
                }
                return Ok(format!("\n\n⚠ `{path}`: {message}\n\n"));
            }
            Ok(q) => q,
        };
        if first {
            for (at, error, message) in &q.problems {
                self.quiz_problem(&name, &text, *at, *error, message.clone());
            }
        }
        if !self.quizzes.questions.take(q.checks.len()) {
            let why = format!(
                "cannot include `{path}`: the chapter would ask over {} questions",
                caps::MAX_QUESTIONS
            );
            return Err(refused(&why));
        }
        let notes: String = q
            .notes
            .iter()
            .map(|note| format!("\n\n> ⚠ {}", note.replace('\n', "\n> ")))
            .collect();
        self.out.quizzes[n] = q.checks.clone();
        Ok(format!("{notes}\n\n{}\n\n", sentinel(n)))
    }

    fn quiz_problem(&mut self, name: &str, text: &str, at: usize, error: bool, message: String) {
        if self.out.problems.len() >= 1000 {
            return;
        }
        let (line, column) = super::super::summary::line_col(text, at);
        self.out.problems.push(Diagnostic {
            file: name.to_string(),
            line,
            column,
            path: None,
            severity: if error {
                Severity::Error
            } else {
                Severity::Warning
            },
            message,
        });
    }
}

/// What a refused quiz says.
fn refused(message: &str) -> String {
    message.replacen("cannot include", "cannot read the quiz", 1)
}
