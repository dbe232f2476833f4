//! The page an expansion writes, in one string from start to end: an
//! included text goes in where its directive stood, with the directive's
//! indentation (or quote marks) repeated after each of its newlines, as
//! mdBook's readers expect (an include in a list item stays in it). Each
//! include's text is written once, never joined into a copy per level,
//! and what it would cost, the repeated indentation included, is known
//! before a byte of it is written: an include after a 100,000-column
//! indent of a file of 100,000 lines asked for 10 GB at once.

/// The page so far.
#[derive(Default)]
pub struct Page {
    pub text: String,
    /// Where the last line begins (just after the last newline).
    line: usize,
}

/// One include being written: what follows each of its newlines, and
/// where on the page it began.
pub struct Level {
    pub lead: String,
    from: usize,
    /// Where the directive's indentation was last looked at: the line's
    /// start, how far it was looked at, and whether all of it so far is
    /// indentation. Looked at once per line, not once per directive.
    seen: (usize, usize, bool),
}

impl Level {
    pub fn at(page: &Page, lead: String) -> Level {
        let from = page.text.len();
        Level {
            lead,
            from,
            seen: (from, from, true),
        }
    }
}

/// The bytes writing `s` at `level` adds: its own, and the lead after
/// each of its newlines (saturating: a size no budget holds).
pub fn cost(s: &str, level: &Level) -> usize {
    match level.lead.len() {
        0 => s.len(),
        lead => {
            let newlines = s.bytes().filter(|&b| b == b'\n').count();
            newlines.saturating_mul(lead).saturating_add(s.len())
        }
    }
}

impl Page {
    /// Writes `s` at `level` (its cost already allowed for).
    pub fn write(&mut self, s: &str, level: &Level) {
        #[cfg(test)]
        crate::work::add(s.len());
        if level.lead.is_empty() || !s.contains('\n') {
            if let Some(n) = s.rfind('\n') {
                self.line = self.text.len() + n + 1;
            }
            self.text.push_str(s);
            return;
        }
        for piece in s.split_inclusive('\n') {
            self.text.push_str(piece);
            if piece.ends_with('\n') {
                self.line = self.text.len();
                self.text.push_str(&level.lead);
            }
        }
    }

    /// The lead for an include at the end of the page, written at
    /// `level`: the level's own, and the text before the directive on its
    /// line when that is all spaces, tabs and `>`.
    pub fn lead_here(&self, level: &mut Level) -> String {
        let start = if self.line > level.from {
            (self.line + level.lead.len()).min(self.text.len())
        } else {
            level.from
        };
        if level.seen.0 != start || level.seen.1 > self.text.len() {
            level.seen = (start, start, true);
        }
        let (_, looked, ok) = &mut level.seen;
        #[cfg(test)]
        crate::work::add(self.text.len() - *looked);
        if *ok {
            *ok = self.text[*looked..]
                .chars()
                .all(|c| c == ' ' || c == '\t' || c == '>');
        }
        *looked = self.text.len();
        let mut lead = level.lead.clone();
        if *ok {
            lead.push_str(&self.text[start..]);
        }
        lead
    }

    /// Takes the page back to `len` bytes (an include refused whole).
    pub fn truncate(&mut self, len: usize) {
        self.text.truncate(len);
        self.line = self.text[..len].rfind('\n').map_or(0, |n| n + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_follow_newlines_and_costs_count_them() {
        let mut page = Page::default();
        let mut top = Level::at(&page, String::new());
        page.write("- item\n  ", &top);
        let lead = page.lead_here(&mut top);
        assert_eq!(lead, "  ");
        let inner = Level::at(&page, lead);
        assert_eq!(cost("a\nb\nc", &inner), 5 + 2 * 2);
        page.write("a\nb\nc", &inner);
        assert_eq!(page.text, "- item\n  a\n  b\n  c");
        assert_eq!(page.lead_here(&mut top), "", "text before it: no lead");
        page.write("\n> ", &top);
        assert_eq!(
            page.lead_here(&mut top),
            "> ",
            "a new line is looked at anew"
        );
        let huge = Level::at(&page, " ".repeat(1 << 20));
        assert_eq!(cost(&"\n".repeat(1 << 20), &huge), (1 << 40) + (1 << 20));
    }
}
