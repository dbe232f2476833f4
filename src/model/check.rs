use super::lesson::{Block, Run};

#[derive(Debug, Clone, PartialEq)]
pub struct CheckOption {
    pub text: Vec<Run>,
    /// What the option holds past its first paragraph (all of it when it
    /// starts with code): a quiz's option may be a program, drawn boxed
    /// with its indentation under the option's number.
    pub body: Vec<Block>,
    pub correct: bool,
    pub tempting: Option<Vec<Run>>,
}

/// How a question is answered. A JSON lesson's check is always a single
/// `Choice`; mdbook-quiz brings the other kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckKind {
    /// Pick from `options`. `multi`: several are right; the learner
    /// chooses all of them, then submits.
    Choice { multi: bool },
    /// A typed answer, right when it equals one of `accepted` once both
    /// are trimmed and case-folded (mdbook-quiz's rule). The first is the
    /// answer shown when revealed.
    Short { accepted: Vec<String> },
    /// A program to trace: does it compile? If it does, what does it print
    /// (`stdout`); if not, on which line is the error (`line`, 1-based).
    Tracing {
        program: String,
        lang: String,
        compiles: bool,
        stdout: Option<String>,
        line: Option<u32>,
    },
}

/// One check question. `order` is always a valid permutation of option
/// indices: the loader falls back to file order when the file's is not.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Stable within its lesson; the store keys attempts and review cards
    /// by it. A JSON lesson's one check has the empty id, so progress saved
    /// before lessons had several checks still belongs to it.
    pub id: String,
    pub kind: CheckKind,
    /// Index into the lesson's `blocks` before which the check stands;
    /// `None` (or past the end) places it after the last block.
    pub anchor: Option<usize>,
    /// Blocks shown above the question when a prompt holds more than a
    /// line of text (code, lists); empty for a JSON lesson's check.
    pub body: Vec<Block>,
    pub question: Vec<Run>,
    pub options: Vec<CheckOption>,
    pub order: Vec<usize>,
    /// Why the answer is right, shown once answered: blocks, as a quiz's
    /// explanation holds code and lists; a JSON lesson's is one paragraph.
    pub why: Option<Vec<Block>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Right,
    Wrong,
}

/// What the learner gave as an answer, whatever the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// File-order indices of the options chosen (one for a single choice).
    Choice(Vec<usize>),
    /// A typed answer to a short-answer question.
    Text(String),
    /// A tracing question: does it compile, then the output (if it does)
    /// or the line of the error (if not), as typed.
    Tracing { compiles: bool, text: String },
}

/// The store's `option` for an answer that is not one option: the
/// misconception queries only look at the others.
pub const NO_OPTION: u32 = u32::MAX;

impl Answer {
    /// The store's two columns: the option chosen (a single choice), and
    /// the answer as text (every other kind), readable as it is stored.
    pub fn stored(&self) -> (u32, Option<String>) {
        match self {
            Answer::Choice(v) if v.len() == 1 => (v[0] as u32, None),
            Answer::Choice(v) => {
                let list: Vec<String> = v.iter().map(usize::to_string).collect();
                (NO_OPTION, Some(list.join(",")))
            }
            Answer::Text(t) => (NO_OPTION, Some(t.clone())),
            Answer::Tracing { compiles, text } => {
                let head = if *compiles { "compiles" } else { "error" };
                (NO_OPTION, Some(format!("{head}\n{text}")))
            }
        }
    }

    /// The answer the store's columns hold, read for `kind`; `None` when
    /// they say nothing this kind can use (an old row, a hand edit).
    pub fn from_stored(
        kind: &CheckKind,
        option: Option<u32>,
        text: Option<&str>,
    ) -> Option<Answer> {
        match kind {
            CheckKind::Choice { multi: false } => option
                .filter(|&o| o != NO_OPTION)
                .map(|o| Answer::Choice(vec![o as usize])),
            CheckKind::Choice { multi: true } => {
                let text = text?;
                let v: Option<Vec<usize>> = text
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(|p| p.trim().parse().ok())
                    .collect();
                v.map(Answer::Choice)
            }
            CheckKind::Short { .. } => text.map(|t| Answer::Text(t.to_string())),
            CheckKind::Tracing { .. } => {
                let (head, rest) = text?.split_once('\n').unwrap_or((text?, ""));
                let compiles = match head {
                    "compiles" => true,
                    "error" => false,
                    _ => return None,
                };
                Some(Answer::Tracing {
                    compiles,
                    text: rest.to_string(),
                })
            }
        }
    }
}

/// What the learner has done with one check, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckProgress {
    /// Every attempt, reviews included.
    pub attempts: u32,
    pub first_try_correct: Option<bool>,
    /// The option of the last answer, when it was one option.
    pub last_choice: Option<u32>,
    /// The last answer as text (every kind but a single choice).
    pub last_text: Option<String>,
    pub last_correct: Option<bool>,
    /// The answer was shown (a reveal, or a peek at the lesson from a
    /// review card): every answer from then on is practice.
    pub revealed: bool,
    /// Which round of the check this is: 1, then one more for each reset
    /// of its lesson (0 stands for 1: progress not read from the store).
    pub round: u32,
    /// Attempts in the current round (`last_*` are of this round too:
    /// none after a reset until the check is answered again).
    pub round_attempts: u32,
    /// The first try of the current round (the first round's is
    /// `first_try_correct`, which a reset never moves).
    pub round_first: Option<bool>,
    /// Wrong answers in every round, drills and reviews included: what
    /// makes a check stuck.
    pub misses: u32,
    /// The latest answer of any round was right (`None`: never answered).
    pub latest_correct: Option<bool>,
    /// The first answer ever came after the answer was shown.
    pub first_seen: bool,
}

/// A program's output as mdbook-quiz compares it: each line without its
/// trailing spaces, the whole without blank lines at its ends.
pub fn normalize_output(s: &str) -> String {
    let lines: Vec<&str> = s.lines().map(str::trim_end).collect();
    lines.join("\n").trim_matches('\n').to_string()
}

/// A short answer as mdbook-quiz compares it: trimmed and case-folded.
fn fold(s: &str) -> String {
    s.trim().to_lowercase()
}

impl Check {
    /// Option index (in file order) shown at 0-based display position `pos`.
    pub fn option_at(&self, pos: usize) -> Option<usize> {
        self.order.get(pos).copied()
    }

    /// Display position of file-order option `index`.
    pub fn position_of(&self, index: usize) -> Option<usize> {
        self.order.iter().position(|&i| i == index)
    }

    pub fn score(&self, index: usize) -> Verdict {
        match self.options.get(index) {
            Some(o) if o.correct => Verdict::Right,
            _ => Verdict::Wrong,
        }
    }

    /// The file-order indices of every right option.
    pub fn right_set(&self) -> Vec<usize> {
        (0..self.options.len())
            .filter(|&i| self.options[i].correct)
            .collect()
    }

    /// Whether the learner chooses several options, then submits.
    pub fn is_multi(&self) -> bool {
        matches!(self.kind, CheckKind::Choice { multi: true })
    }

    /// Whether the check is answered by choosing options (rather than by
    /// typing).
    pub fn is_choice(&self) -> bool {
        matches!(self.kind, CheckKind::Choice { .. })
    }

    /// Whether the check can be answered at all: a choice needs options,
    /// a short answer something to accept.
    pub fn answerable(&self) -> bool {
        match &self.kind {
            CheckKind::Choice { .. } => !self.options.is_empty(),
            CheckKind::Short { accepted } => accepted.iter().any(|a| !a.trim().is_empty()),
            CheckKind::Tracing { .. } => true,
        }
    }

    /// Scores any kind of answer: a choice is right when the set chosen
    /// is the set of right options; a short answer when it equals one
    /// accepted once both are trimmed and case-folded; a tracing answer
    /// when it says rightly whether the program compiles, then gives its
    /// output (compared as [`normalize_output`] does) or its error's line.
    pub fn score_answer(&self, answer: &Answer) -> Verdict {
        let right = match (&self.kind, answer) {
            (CheckKind::Choice { .. }, Answer::Choice(chosen)) => {
                let mut chosen = chosen.clone();
                chosen.sort_unstable();
                chosen.dedup();
                !chosen.is_empty() && chosen == self.right_set()
            }
            (CheckKind::Short { accepted }, Answer::Text(t)) => {
                let t = fold(t);
                accepted.iter().any(|a| fold(a) == t)
            }
            (
                CheckKind::Tracing {
                    compiles,
                    stdout,
                    line,
                    ..
                },
                Answer::Tracing {
                    compiles: said,
                    text,
                },
            ) => {
                *compiles == *said
                    && if *compiles {
                        normalize_output(stdout.as_deref().unwrap_or("")) == normalize_output(text)
                    } else {
                        match line {
                            Some(l) => text.trim().parse::<u32>().ok() == Some(*l),
                            // No line to compare: saying it fails is all.
                            None => true,
                        }
                    }
            }
            _ => false,
        };
        if right {
            Verdict::Right
        } else {
            Verdict::Wrong
        }
    }

    /// The right answer in words, for a typed kind once revealed.
    pub fn expected_text(&self) -> Option<String> {
        match &self.kind {
            CheckKind::Choice { .. } => None,
            CheckKind::Short { accepted } => accepted.first().cloned(),
            CheckKind::Tracing {
                compiles: true,
                stdout,
                ..
            } => Some(stdout.clone().unwrap_or_default()),
            CheckKind::Tracing { line, .. } => line.map(|l| format!("line {l}")),
        }
    }

    pub fn correct_index(&self) -> Option<usize> {
        self.options.iter().position(|o| o.correct)
    }

    /// Whether `order` is a permutation of `0..n`.
    pub fn is_permutation(order: &[usize], n: usize) -> bool {
        let mut seen = vec![false; n];
        order.len() == n
            && order
                .iter()
                .all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
    }
}

/// Three checks of every kind but the single choice, for tests and
/// benchmarks of lessons with several checks: several answers before
/// block 1 (options "1", "2.5", "-3"; the first and last right), a short
/// answer with a code body before block 2 ("let"), and a tracing program
/// after the last block (it compiles and prints "1\n2").
#[doc(hidden)]
pub fn sample_checks() -> Vec<Check> {
    use super::lesson::Block;
    let text = |t: &str| vec![Run::plain(t)];
    let option = |t: &str, correct: bool, tempting: Option<&str>| CheckOption {
        text: text(t),
        correct,
        tempting: tempting.map(text),
        body: Vec::new(),
    };
    vec![
        Check {
            id: "integers".into(),
            kind: CheckKind::Choice { multi: true },
            anchor: Some(1),
            body: Vec::new(),
            question: text("Which of these are integers?"),
            options: vec![
                option("1", true, None),
                option("2.5", false, Some("it is a number, but not a whole one")),
                option("-3", true, None),
            ],
            order: vec![0, 1, 2],
            why: Some(vec![Block::Paragraph(text(
                "Integers are whole numbers, negative ones too.",
            ))]),
        },
        Check {
            id: "keyword".into(),
            kind: CheckKind::Short {
                accepted: vec!["let".into(), "let mut".into()],
            },
            anchor: Some(2),
            body: vec![Block::code(crate::model::CodeBlock {
                lang: Some("rust".into()),
                label: None,
                badges: Vec::new(),
                text: "___ x = 5;".into(),
                numbered: false,
                marks: Vec::new(),
            })],
            question: text("Which keyword fills the blank?"),
            options: Vec::new(),
            order: Vec::new(),
            why: Some(vec![Block::Paragraph(text(
                "A variable is declared with let.",
            ))]),
        },
        Check {
            id: "trace".into(),
            kind: CheckKind::Tracing {
                program: "fn main() {\n    println!(\"1\");\n    println!(\"2\");\n}".into(),
                lang: "rust".into(),
                compiles: true,
                stdout: Some("1\n2\n".into()),
                line: None,
            },
            anchor: None,
            body: Vec::new(),
            question: text("What does this program do?"),
            options: Vec::new(),
            order: Vec::new(),
            why: Some(vec![Block::Paragraph(text(
                "Each println! prints its line.",
            ))]),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(correct: usize) -> Check {
        Check {
            id: String::new(),
            kind: CheckKind::Choice { multi: false },
            anchor: None,
            body: Vec::new(),
            question: vec![Run::plain("q")],
            options: (0..3)
                .map(|i| CheckOption {
                    text: vec![Run::plain(format!("o{i}"))],
                    correct: i == correct,
                    tempting: None,
                    body: Vec::new(),
                })
                .collect(),
            order: vec![2, 0, 1],
            why: None,
        }
    }

    #[test]
    fn scores_by_file_index() {
        let c = check(1);
        assert_eq!(c.score(1), Verdict::Right);
        assert_eq!(c.score(0), Verdict::Wrong);
        assert_eq!(c.score(9), Verdict::Wrong);
        assert_eq!(c.correct_index(), Some(1));
    }

    #[test]
    fn display_positions_follow_order() {
        let c = check(1);
        assert_eq!(c.option_at(0), Some(2));
        assert_eq!(c.position_of(1), Some(2));
        assert_eq!(c.option_at(3), None);
    }

    #[test]
    fn a_multiple_answer_is_right_only_as_the_whole_set() {
        let mut c = check(1);
        c.kind = CheckKind::Choice { multi: true };
        c.options[2].correct = true;
        assert_eq!(c.score_answer(&Answer::Choice(vec![2, 1])), Verdict::Right);
        assert_eq!(
            c.score_answer(&Answer::Choice(vec![1, 2, 1])),
            Verdict::Right
        );
        assert_eq!(c.score_answer(&Answer::Choice(vec![1])), Verdict::Wrong);
        assert_eq!(
            c.score_answer(&Answer::Choice(vec![0, 1, 2])),
            Verdict::Wrong
        );
        assert_eq!(c.score_answer(&Answer::Choice(vec![])), Verdict::Wrong);
    }

    #[test]
    fn a_short_answer_is_trimmed_and_case_folded() {
        let mut c = check(0);
        c.kind = CheckKind::Short {
            accepted: vec!["Ownership".into(), "the borrow checker".into()],
        };
        for right in ["ownership", "  OWNERSHIP\t", "The Borrow Checker"] {
            assert_eq!(
                c.score_answer(&Answer::Text(right.into())),
                Verdict::Right,
                "{right}"
            );
        }
        for wrong in ["owner ship", "", "borrow checker"] {
            assert_eq!(
                c.score_answer(&Answer::Text(wrong.into())),
                Verdict::Wrong,
                "{wrong}"
            );
        }
        assert_eq!(c.score_answer(&Answer::Choice(vec![0])), Verdict::Wrong);
    }

    fn tracing(compiles: bool) -> Check {
        let mut c = check(0);
        c.kind = CheckKind::Tracing {
            program: "fn main() {}".into(),
            lang: "rust".into(),
            compiles,
            stdout: compiles.then(|| "a = 1\nb = 2\n".into()),
            line: (!compiles).then_some(3),
        };
        c
    }

    #[test]
    fn a_tracing_answer_needs_the_compile_verdict_then_the_output_or_line() {
        let ok = tracing(true);
        let said = |compiles: bool, text: &str| Answer::Tracing {
            compiles,
            text: text.into(),
        };
        assert_eq!(
            ok.score_answer(&said(true, "a = 1  \nb = 2")),
            Verdict::Right
        );
        assert_eq!(
            ok.score_answer(&said(true, "\na = 1\nb = 2\n\n")),
            Verdict::Right
        );
        assert_eq!(
            ok.score_answer(&said(true, "a = 1\n b = 2")),
            Verdict::Wrong
        );
        assert_eq!(ok.score_answer(&said(false, "3")), Verdict::Wrong);
        let err = tracing(false);
        assert_eq!(err.score_answer(&said(false, " 3 ")), Verdict::Right);
        assert_eq!(err.score_answer(&said(false, "4")), Verdict::Wrong);
        assert_eq!(
            err.score_answer(&said(true, "a = 1\nb = 2")),
            Verdict::Wrong
        );
    }

    #[test]
    fn stored_answers_read_back_as_they_were_given() {
        let multi = CheckKind::Choice { multi: true };
        let short = CheckKind::Short { accepted: vec![] };
        let trace = tracing(true).kind;
        for (kind, a) in [
            (CheckKind::Choice { multi: false }, Answer::Choice(vec![2])),
            (multi, Answer::Choice(vec![0, 2])),
            (short, Answer::Text("a, b\nc".into())),
            (
                trace,
                Answer::Tracing {
                    compiles: false,
                    text: "7".into(),
                },
            ),
        ] {
            let (option, text) = a.stored();
            assert_eq!(
                Answer::from_stored(&kind, Some(option), text.as_deref()),
                Some(a)
            );
        }
        assert_eq!(Answer::from_stored(&short_kind(), Some(1), None), None);
    }

    fn short_kind() -> CheckKind {
        CheckKind::Short { accepted: vec![] }
    }

    #[test]
    fn permutation_rules() {
        assert!(Check::is_permutation(&[1, 0, 2], 3));
        assert!(!Check::is_permutation(&[1, 1, 2], 3));
        assert!(!Check::is_permutation(&[0, 1], 3));
        assert!(!Check::is_permutation(&[0, 1, 3], 3));
    }
}
