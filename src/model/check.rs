use super::lesson::{Block, Run};

#[derive(Debug, Clone, PartialEq)]
pub struct CheckOption {
    pub text: Vec<Run>,
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
    pub why: Option<Vec<Run>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Right,
    Wrong,
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
    fn permutation_rules() {
        assert!(Check::is_permutation(&[1, 0, 2], 3));
        assert!(!Check::is_permutation(&[1, 1, 2], 3));
        assert!(!Check::is_permutation(&[0, 1], 3));
        assert!(!Check::is_permutation(&[0, 1, 3], 3));
    }
}
