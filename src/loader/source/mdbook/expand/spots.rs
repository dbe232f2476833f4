//! Where the directives of one file's text stand, as line and column in
//! that file, for the problems lint names: each directive looked for after
//! the last one, and each place counted on from the last place counted,
//! never from the file's start again (a thousand problems in a long file
//! each counted from the start were a thousand passes over it).

use super::super::summary::line_col;

pub struct Spots {
    /// Where the last directive was found.
    found: usize,
    /// The last place counted: its byte, line and column.
    at: usize,
    line: usize,
    column: usize,
}

impl Default for Spots {
    fn default() -> Spots {
        Spots {
            found: 0,
            at: 0,
            line: 1,
            column: 1,
        }
    }
}

impl Spots {
    /// The byte of `whole` where the directive `raw` stands: `start` in
    /// `text` when `text` is a slice of `whole`, else the next `raw` after
    /// the last one found (included lines keep their order).
    pub fn find(&mut self, whole: &str, text: &str, start: usize, raw: &str) -> Option<usize> {
        let at = match offset_in(whole, text) {
            Some(o) => Some(o + start),
            None => whole.get(self.found..)?.find(raw).map(|n| self.found + n),
        }?;
        self.found = at + raw.len();
        Some(at)
    }

    /// Line and column (1-based) of byte `at` of `whole`.
    pub fn place(&mut self, whole: &str, at: Option<usize>) -> (usize, usize) {
        let Some(at) = at.filter(|&a| a >= self.at && whole.is_char_boundary(a)) else {
            return line_col(whole, at.unwrap_or(0));
        };
        let gap = &whole[self.at..at];
        (self.line, self.column) = match gap.rfind('\n') {
            Some(n) => (
                self.line + gap.matches('\n').count(),
                gap[n + 1..].chars().count() + 1,
            ),
            None => (self.line, self.column + gap.chars().count()),
        };
        self.at = at;
        (self.line, self.column)
    }
}

/// Where `part` starts in `whole`, when it is a slice of it.
fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let at = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (at + part.len() <= whole.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_on_in_order() {
        let whole = "ab\n{{x}} {{x}}\nçç{{x}}";
        let mut s = Spots::default();
        let copy = whole.to_string();
        let found: Vec<(usize, usize)> = (0..3)
            .map(|_| {
                let at = s.find(whole, &copy, 0, "{{x}}");
                s.place(whole, at)
            })
            .collect();
        assert_eq!(found, [(2, 1), (2, 7), (3, 3)]);
        let mut s = Spots::default();
        let at = s.find(whole, &whole[3..], 6, "{{x}}");
        assert_eq!(
            s.place(whole, at),
            (2, 7),
            "a slice is placed by its offset"
        );
    }
}
