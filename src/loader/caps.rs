//! Limits on a lesson's size in pieces, checked before the file is parsed
//! into a tree: memory grows with the number of JSON values and of
//! markdown lines far more than with bytes (2.8 million tiny blocks in a
//! 59 MB file took 2.5 GB; a 200,000-row markdown table of 1.2 MB took
//! 191 MB). Past a cap the lesson is refused with one located error
//! rather than read at any cost. The caps are far above any lesson a
//! person would write (the largest built-in one has under 2,000 values).

/// JSON values (objects, arrays, strings, numbers, ...) in one lesson file.
pub const MAX_VALUES: usize = 250_000;
/// Lines of a lesson's markdown body.
pub const MAX_MARKDOWN_LINES: usize = 50_000;

/// What mdBook's preprocessing may add to one chapter, counted in the
/// bytes it writes (an include's text with the indentation mdBook repeats
/// on each of its lines): a 6 KB fan-out of includes 10 wide and 10 deep
/// made a 21 MB page, and an include after a 100,000-column indent asked
/// for 10 GB at once. Far above a real book (the Rust Book's largest
/// chapter includes under 100 KB).
pub const MAX_INCLUDED: usize = 8 << 20;
/// The same, for all the chapters of one book read in one go (`lint`, a
/// first search).
pub const MAX_BOOK_INCLUDED: usize = 256 << 20;
/// Bytes of included files one chapter may look through: a one-line range
/// of a large file reads the whole file, and a chapter may take a line of
/// it thousands of times.
pub const MAX_INCLUDE_SCANNED: usize = 64 << 20;
/// The same, for one book read in one go.
pub const MAX_BOOK_INCLUDE_SCANNED: usize = 1 << 30;
/// One mdbook-quiz file (a real one is a few KB).
pub const MAX_QUIZ_BYTES: usize = 256 << 10;
/// Quiz files one chapter may read, each counted every time it is used.
pub const MAX_CHAPTER_QUIZ_BYTES: usize = 4 << 20;
/// Questions one chapter may ask.
pub const MAX_QUESTIONS: usize = 1_000;
/// Chapters of one book's SUMMARY.md.
pub const MAX_CHAPTERS: usize = 20_000;

/// What is left of a cap as work is done against it.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    left: usize,
}

impl Budget {
    pub const fn new(cap: usize) -> Budget {
        Budget { left: cap }
    }

    /// Takes `n` from what is left, or nothing when `n` is more than that.
    pub fn take(&mut self, n: usize) -> bool {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                true
            }
            None => false,
        }
    }
}

/// The byte offset at which `bytes` holds its `MAX_VALUES + 1`th JSON
/// value, if it has that many. One pass, no tree: values are counted by
/// their starts (`{`, `[`, a string in value position, the first byte of
/// a number or literal); an object's keys are not values.
pub fn too_many_values(bytes: &[u8]) -> Option<usize> {
    // Every value but the outermost takes two bytes at least (its first
    // and a `,` or closing bracket after it), so a smaller file cannot
    // hold too many: most lessons skip the count (it was 10% of
    // rendering a lesson, read a byte at a time).
    if bytes.len() <= 2 * MAX_VALUES {
        return None;
    }
    let mut count = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    // Whether the next token starts a value (not a key, not the rest of a
    // number or literal).
    let mut expect_value = true;
    // Which containers are objects; deeper than the parser's own limit
    // (128) only the depth is kept, since such a file is refused anyway.
    let mut objects: Vec<bool> = Vec::new();
    let mut deeper = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        let starts = match b {
            b'{' | b'[' => {
                if objects.len() < 256 {
                    objects.push(b == b'{');
                } else {
                    deeper += 1;
                }
                // An object starts with a key, an array with a value.
                std::mem::replace(&mut expect_value, b == b'[')
            }
            b'}' | b']' => {
                if deeper > 0 {
                    deeper -= 1;
                } else {
                    objects.pop();
                }
                expect_value = false;
                false
            }
            b':' => {
                expect_value = true;
                false
            }
            b',' => {
                expect_value = deeper > 0 || !objects.last().copied().unwrap_or(false);
                false
            }
            b'"' => {
                in_string = true;
                std::mem::replace(&mut expect_value, false)
            }
            b' ' | b'\n' | b'\r' | b'\t' => false,
            _ => std::mem::replace(&mut expect_value, false),
        };
        if starts {
            count += 1;
            if count > MAX_VALUES {
                return Some(i);
            }
        }
    }
    None
}

/// The number of lines of `text`, when it is over [`MAX_MARKDOWN_LINES`].
pub fn too_many_lines(text: &str) -> Option<usize> {
    if text.len() < MAX_MARKDOWN_LINES {
        return None;
    }
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    (lines > MAX_MARKDOWN_LINES).then_some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_by_their_starts_not_their_bytes() {
        let under = format!("[{}]", vec!["1"; MAX_VALUES - 1].join(","));
        assert_eq!(too_many_values(under.as_bytes()), None);
        let over = format!("[{}]", vec!["\"a,{[\\\"\""; MAX_VALUES + 1].join(","));
        let at = too_many_values(over.as_bytes()).expect("over the cap");
        // The value that crosses the cap: the array and the strings before.
        assert_eq!(at, 1 + (MAX_VALUES - 1) * 9);
        // Keys are not values: {"k": 1} is two (the object, the 1).
        let keyed = format!("[{}]", vec!["{\"k\": 1}"; MAX_VALUES / 2 - 1].join(","));
        assert_eq!(too_many_values(keyed.as_bytes()), None);
        let keyed = format!("[{}]", vec!["{\"k\": true}"; MAX_VALUES / 2].join(","));
        assert!(too_many_values(keyed.as_bytes()).is_some());
        // Brackets, commas and quotes inside strings are text.
        let one = format!("[\"{}\"]", "{[,".repeat(MAX_VALUES));
        assert_eq!(too_many_values(one.as_bytes()), None);
    }

    #[test]
    fn lines_past_the_cap_are_counted() {
        assert_eq!(too_many_lines(&"a\n".repeat(MAX_MARKDOWN_LINES - 1)), None);
        assert_eq!(
            too_many_lines(&"a\n".repeat(MAX_MARKDOWN_LINES)),
            Some(MAX_MARKDOWN_LINES + 1)
        );
    }
}
