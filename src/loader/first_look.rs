//! A first look at a large folder of lesson files, for the first frame of
//! a course never read before: each file's `course.slug` and
//! `lesson.position`, read from its first bytes only, to find the lesson
//! the course opens at without reading every header whole. At 100,000
//! lessons the headers are 2 GB of JSON (about 6.6 s, BENCHMARKS.md, issue
//! 23); their first bytes are 200 MB of reads that two threads share. The
//! whole headers follow in the background.
//!
//! The look gives up (and the folder is read whole before the first frame,
//! as it always was) whenever it cannot be sure: a file whose first bytes
//! do not hold both fields, more than one course, a folder of markdown.

use super::Origin;
use std::path::{Path, PathBuf};

/// Fewer lesson files than this are read whole before the first frame, as
/// ever: that path needs no second pass, and its cost (about 55 us a
/// lesson, BENCHMARKS.md) is still a quarter second here.
pub const LARGE: usize = 5_000;

/// Bytes of each file looked at: gen_course and hand-written lessons put
/// `course` and `lesson` first; a file that puts them later is not
/// guessed at.
const PREFIX: usize = 4096;

/// An object's braces (named: as literals they would read as the code's own).
const OPEN: u8 = 0x7b;
const CLOSE: u8 = 0x7d;

/// What the first look found: the lesson the course opens at.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstLook {
    pub first: PathBuf,
    /// Lesson files in the folder.
    pub files: usize,
    pub course_slug: String,
}

/// The lesson at the lowest position of the one course in `dir`, if the
/// folder holds at least [`LARGE`] lesson JSON files and each file's first
/// bytes say its course and position.
pub fn first_lesson(dir: &Path) -> Option<FirstLook> {
    first_lesson_of(dir, LARGE)
}

/// [`first_lesson`] of a folder of at least `large` lesson files.
fn first_lesson_of(dir: &Path, large: usize) -> Option<FirstLook> {
    if dir.join("book.toml").exists() {
        return None;
    }
    let files = super::course::lesson_files(dir).ok()?;
    // A folder holding JSON lessons lists only those (markdown beside them
    // is not a lesson): one JSON file says the folder is of JSON lessons.
    let json = |f: &PathBuf| super::format_of(f.as_os_str()) == Some(super::source::Format::Json);
    if files.len() < large || !files.first().is_some_and(json) {
        return None;
    }
    let looks = look_all(&files)?;
    let course_slug = looks.first()?.0.clone();
    if looks.iter().any(|(slug, _)| *slug != course_slug) {
        return None;
    }
    // The course's order: by position, then the files' reading order.
    let low = looks.iter().map(|l| l.1).min()?;
    let first = files
        .iter()
        .zip(&looks)
        .filter(|(_, l)| l.1 == low)
        .map(|(f, _)| Origin::File(f.clone()))
        .min_by(crate::model::reading_order)?;
    Some(FirstLook {
        first: first.path()?.to_path_buf(),
        files: files.len(),
        course_slug,
    })
}

/// Every file's (course slug, position), on as many threads as there are
/// cores; `None` if any file's first bytes do not say both.
fn look_all(files: &[PathBuf]) -> Option<Vec<(String, u32)>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let jobs: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|f| look(f)).collect::<Option<Vec<_>>>())
            })
            .collect();
        let mut out = Vec::with_capacity(files.len());
        for job in jobs {
            out.extend(job.join().ok()??);
        }
        Some(out)
    })
}

fn look(path: &Path) -> Option<(String, u32)> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut buf = vec![0; PREFIX];
    let mut n = 0;
    while n < PREFIX {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(_) => return None,
        }
    }
    head_fields(&buf[..n])
}

/// `course.slug` and `lesson.position` of a lesson's JSON, from its first
/// bytes (which may stop anywhere).
pub(crate) fn head_fields(bytes: &[u8]) -> Option<(String, u32)> {
    let mut scan = Scan { bytes, at: 0 };
    let (mut slug, mut position) = (None, None);
    scan.expect(OPEN)?;
    while slug.is_none() || position.is_none() {
        let key = scan.string()?;
        scan.expect(b':')?;
        match key.as_str() {
            "course" => slug = scan.field_of_object("slug", Scan::string)?,
            "lesson" => position = scan.field_of_object("position", Scan::number)?,
            _ => scan.skip_value()?,
        }
        if scan.peek()? == b',' {
            scan.at += 1;
        } else {
            break;
        }
    }
    Some((slug?, position?))
}

/// A cursor over JSON bytes that may end early (every step is `None` then).
struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scan<'_> {
    fn peek(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.at) {
            if !b.is_ascii_whitespace() {
                return Some(b);
            }
            self.at += 1;
        }
        None
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// A string, its escapes decoded (by serde_json, which knows them all).
    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let start = self.at - 1;
        loop {
            match *self.bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        serde_json::from_slice(self.bytes.get(start..self.at)?).ok()
    }

    fn number(&mut self) -> Option<u32> {
        self.peek()?;
        let start = self.at;
        while self.bytes.get(self.at)?.is_ascii_digit() {
            self.at += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.at])
            .ok()?
            .parse()
            .ok()
    }

    /// The field `name` of the object here, read with `read`; the rest of
    /// the object skipped (`Some(None)`: the object has no such field).
    fn field_of_object<T>(
        &mut self,
        name: &str,
        read: fn(&mut Self) -> Option<T>,
    ) -> Option<Option<T>> {
        self.expect(OPEN)?;
        let mut found = None;
        if self.peek()? == CLOSE {
            self.at += 1;
            return Some(None);
        }
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            if key == name && found.is_none() {
                found = Some(read(self)?);
            } else {
                self.skip_value()?;
            }
            match self.peek()? {
                b',' => self.at += 1,
                CLOSE => {
                    self.at += 1;
                    return Some(found);
                }
                _ => return None,
            }
        }
    }

    /// Past one value of any kind, its nesting and strings followed.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                // The value is over: what follows is the enclosing one's.
                b',' | CLOSE | b']' if depth == 0 => return Some(()),
                b'"' => self.string_raw()?,
                OPEN | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                CLOSE | b']' => {
                    depth -= 1;
                    self.at += 1;
                }
                b',' | b':' => self.at += 1,
                _ => {
                    // A number, true, false or null.
                    while !matches!(
                        *self.bytes.get(self.at)?,
                        b',' | CLOSE | b']' | b' ' | b'\n' | b'\r' | b'\t'
                    ) {
                        self.at += 1;
                    }
                }
            }
        }
    }

    /// Past a string, undecoded.
    fn string_raw(&mut self) -> Option<()> {
        self.expect(b'"')?;
        loop {
            match *self.bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                _ => self.at += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{first_lesson_of, head_fields};

    fn lesson(dir: &std::path::Path, name: &str, course: &str, position: u32) {
        let j = format!(
            r#"{{"course":{{"slug":"{course}","title":"C"}},"lesson":{{"slug":"{name}","title":"T","position":{position}}},"reader":{{"schema":1,"blocks":[]}}}}"#
        );
        std::fs::write(dir.join(format!("{name}.json")), j).unwrap();
    }

    #[test]
    fn the_lowest_position_opens_whatever_the_names() {
        let dir = tempfile::tempdir().unwrap();
        for (name, p) in [("a", 3), ("b", 2), ("c", 1), ("d", 1), ("e", 9)] {
            lesson(dir.path(), name, "one", p);
        }
        let look = first_lesson_of(dir.path(), 5).unwrap();
        // Two at position 1: the first by name, as the course orders them.
        assert_eq!(look.first, dir.path().join("c.json"));
        assert_eq!((look.files, look.course_slug.as_str()), (5, "one"));
        assert_eq!(
            first_lesson_of(dir.path(), 6),
            None,
            "a small folder is read whole"
        );
    }

    #[test]
    fn any_doubt_reads_the_folder_whole() {
        let two = tempfile::tempdir().unwrap();
        lesson(two.path(), "a", "one", 1);
        lesson(two.path(), "b", "other", 2);
        assert_eq!(first_lesson_of(two.path(), 1), None, "two courses");
        let late = tempfile::tempdir().unwrap();
        lesson(late.path(), "a", "one", 1);
        let far = format!(
            r#"{{"reader":{{"x":"{}"}},"course":{{"slug":"one"}},"lesson":{{"position":2}}}}"#,
            "y".repeat(5000)
        );
        std::fs::write(late.path().join("b.json"), far).unwrap();
        assert_eq!(
            first_lesson_of(late.path(), 1),
            None,
            "a header past the first bytes"
        );
        let book = tempfile::tempdir().unwrap();
        lesson(book.path(), "a", "one", 1);
        std::fs::write(book.path().join("book.toml"), "").unwrap();
        assert_eq!(first_lesson_of(book.path(), 1), None, "an mdBook");
    }

    #[test]
    fn the_course_and_position_are_read_from_the_first_bytes() {
        let j = br#"{"course":{"slug":"c\u0041","title":"T","tags":[1,{"a":"}"}]},
            "lesson":{"slug":"l","answer":"a \"quoted\" {brace","position":7,"of":9},
            "reader":{"blocks":[{"t":"p"#;
        assert_eq!(head_fields(j), Some(("cA".into(), 7)));
    }

    #[test]
    fn either_order_and_whitespace() {
        let j = b"{ \"lesson\" : { \"position\" : 3 } , \"course\" : { \"slug\" : \"x\" } }";
        assert_eq!(head_fields(j), Some(("x".into(), 3)));
    }

    #[test]
    fn a_file_cut_short_or_missing_a_field_says_nothing() {
        assert_eq!(
            head_fields(br#"{"course":{"slug":"x"},"lesson":{"slug":"#),
            None
        );
        assert_eq!(head_fields(br#"{"course":{"slug":"x"},"lesson":{}}"#), None);
        assert_eq!(
            head_fields(br#"{"lesson":{"position":-1},"course":{"slug":"x"}}"#),
            None
        );
        assert_eq!(head_fields(b"not json"), None);
        assert_eq!(head_fields(b""), None);
        assert_eq!(head_fields(br#"{"reader":{"blocks":[]},"x":1}"#), None);
    }
}
