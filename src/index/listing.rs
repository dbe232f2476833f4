//! A large folder's courses as last seen, in a compact binary form, already
//! grouped and in reading order. For a 10,000-lesson course, what a first
//! frame needs (the head and one record) is read in well under a
//! millisecond, and the whole listing decodes in 4-5 ms (as JSON: 14).
//!
//! Strings are a `u32` length and UTF-8 bytes; paths and file names are
//! their bytes as the system gave them (a name need not be UTF-8). After
//! the magic come the length of the head and the digests of the head and of
//! the body, then the head: the folder's path, and each course's slug,
//! title and size with a table of its lessons' slugs, where each lesson's
//! record lies in the body and the record's digest. The body follows: every
//! lesson, in course order, with its file by name within the folder. A
//! first frame reads the head and one record; the body is decoded after it.
//! Anything that does not decode exactly, for this folder, with every
//! digest it is read under matching, is no listing at all: the folder is
//! then read again (and the listing written again).

use crate::loader::Origin;
use crate::loader::walk::{digest, os_bytes, os_from_bytes};
use crate::model::{Course, LessonEntry, LessonStatus, Module};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Bumped whenever the layout below changes.
const MAGIC: &[u8; 8] = b"lectern3";

/// Magic, the head's length and the two digests: what to read before the
/// head.
pub const PREFIX: usize = MAGIC.len() + 4 + 8 + 8;

/// Replaces `file` whole (a new file renamed over it), so a reader never
/// sees half a listing.
pub fn write(file: &Path, dir: &Path, courses: &[Course]) -> std::io::Result<()> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // A listing already as it would be written is left alone.
    let bytes = encode(dir, courses);
    if read(file).is_some_and(|old| old == bytes) {
        return Ok(());
    }
    replace(file, &bytes)
}

/// `file` replaced by `bytes` at once: a reader sees the old file or the
/// new one, never part of one.
pub(super) fn replace(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = file.with_extension(format!("tmp.{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The most a cache file here can be: a listing of 100,000 lessons is
/// about 25 MB. A larger file under a listing's name is not one.
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A cache file (a listing or its plan) opened to read, if it is a regular
/// file (a FIFO there would hang every start) of a size it can have.
pub fn open(file: &Path) -> Option<(std::fs::File, u64)> {
    let (f, meta) = crate::own::open_regular(file).ok()?;
    (meta.len() <= MAX_FILE_BYTES).then_some((f, meta.len()))
}

/// A cache file's bytes (see [`open`]).
pub fn read(file: &Path) -> Option<Vec<u8>> {
    crate::own::read_regular_capped(file, MAX_FILE_BYTES, "a listing").ok()
}

/// What every listing lectern has written starts with, whatever its
/// version: the proof that a file under `listings/` is lectern's.
const ANY_MAGIC: &[u8] = b"lectern";

/// Removes the listing `file`, if it is one.
pub fn remove(file: &Path) {
    crate::own::remove_if_headed(file, ANY_MAGIC);
}

/// Removes the listings an older lectern kept in `dir` (and their plans),
/// then `dir` itself if nothing else is left in it: a file there that is
/// not a listing is not lectern's, and stays.
pub fn remove_old(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let path = e.path();
        match path.extension().and_then(|x| x.to_str()) {
            Some("bin") => remove(&path),
            Some("plan") => {
                crate::own::remove_if_headed(&path, super::kept::ANY_MAGIC);
            }
            _ => {}
        }
    }
    // Fails, as it should, unless the folder is now empty.
    let _ = std::fs::remove_dir(dir);
}

pub fn encode(dir: &Path, courses: &[Course]) -> Vec<u8> {
    let mut head = Out(Vec::with_capacity(16 * 1024));
    let mut body = Out(Vec::with_capacity(64 * 1024));
    head.bytes(os_bytes(dir.as_os_str()));
    head.len(courses.len());
    for c in courses {
        head.str(&c.slug);
        head.str(&c.title);
        head.len(c.lessons.len());
        for l in &c.lessons {
            let at = body.0.len();
            record(&mut body, dir, l);
            head.str(&l.slug);
            head.len(at);
            head.len(body.0.len() - at);
            head.u64(digest(&body.0[at..]));
        }
    }
    let mut out = Out(Vec::with_capacity(PREFIX + head.0.len() + body.0.len()));
    out.0.extend_from_slice(MAGIC);
    out.len(head.0.len());
    out.u64(digest(&head.0));
    out.u64(digest(&body.0));
    out.0.extend_from_slice(&head.0);
    out.0.extend_from_slice(&body.0);
    out.0
}

fn record(out: &mut Out, dir: &Path, l: &LessonEntry) {
    // Relative to the folder: a markdown course's lessons sit in its
    // folders too (a flat folder's are just file names, as before).
    let name = l
        .origin
        .path()
        .and_then(|p| {
            p.strip_prefix(dir)
                .ok()
                .or_else(|| p.file_name().map(Path::new))
        })
        .map(|p| os_bytes(p.as_os_str()))
        .unwrap_or_default();
    out.bytes(name);
    out.str(&l.slug);
    out.str(&l.title);
    out.opt(l.position);
    out.opt(l.minutes);
    match &l.module {
        Some(m) => {
            out.0.push(1);
            out.u32(m.index);
            out.str(&m.slug);
            out.str(&m.title);
        }
        None => out.0.push(0),
    }
    match &l.status {
        LessonStatus::Ok => out.0.push(0),
        LessonStatus::Broken(why) => {
            out.0.push(1);
            out.str(&serde_json::to_string(why).unwrap_or_default());
        }
    }
}

/// The head's length, from the first [`PREFIX`] bytes of a listing.
pub fn head_len(prefix: &[u8]) -> Option<usize> {
    let mut r = In(prefix.strip_prefix(MAGIC.as_slice())?);
    let n = usize::try_from(r.u32()?).ok()?;
    Some(n)
}

/// The digests of the head and of the body, from the first [`PREFIX`]
/// bytes of a listing.
fn digests(prefix: &[u8]) -> Option<(u64, u64)> {
    let mut r = In(prefix.get(MAGIC.len() + 4..PREFIX)?);
    Some((r.u64()?, r.u64()?))
}

/// Whether `head` (the bytes after [`PREFIX`]) is the head `prefix` was
/// written with.
pub fn head_checks(prefix: &[u8], head: &[u8]) -> bool {
    digests(prefix).is_some_and(|(h, _)| h == digest(head))
}

/// A listing's head and body, if both are what its digests say.
fn checked_parts(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = head_len(bytes.get(..PREFIX)?)?;
    let head = bytes.get(PREFIX..PREFIX.checked_add(n)?)?;
    let (head_sum, body_sum) = digests(&bytes[..PREFIX])?;
    let body = &bytes[PREFIX + n..];
    (head_sum == digest(head) && body_sum == digest(body)).then_some((head, body))
}

/// The courses of `dir` encoded by [`encode`]; `None` unless `bytes` is
/// exactly one well-formed listing.
pub fn decode(bytes: &[u8], dir: &Path) -> Option<Vec<Course>> {
    let (head_bytes, body_bytes) = checked_parts(bytes)?;
    let mut body = In(body_bytes);
    let mut courses = Vec::new();
    for h in heads(head_bytes, dir)? {
        let mut lessons = Vec::with_capacity(h.count);
        for _ in 0..h.count {
            lessons.push(lesson(&mut body, dir)?);
        }
        courses.push(Course {
            slug: h.slug,
            title: h.title,
            root: Some(dir.to_path_buf()),
            lessons,
        });
    }
    body.0.is_empty().then_some(courses)
}

/// The digests a listing says its head and body have (checked by
/// [`decode_files`]): which listing it is.
pub fn sums(bytes: &[u8]) -> Option<(u64, u64)> {
    digests(bytes.get(..PREFIX)?)
}

/// A lesson's file, and where its record is in a listing.
/// A lesson's file, where its record is in the listing's bytes, and the
/// record's digest.
pub type FileAt = (PathBuf, Range<usize>, u64);

/// The lessons of a listing (`bytes` whole, checked as [`decode`] checks
/// it) by file, in course order, each with where its record is in the
/// body; the records themselves are decoded only for the lessons shown
/// ([`entry`]). Of 10,000 lessons a search needs every file but shows 20.
pub fn decode_files(bytes: &[u8], dir: &Path) -> Option<(Vec<Head>, Vec<FileAt>)> {
    let (head_bytes, body) = checked_parts(bytes)?;
    let n = head_bytes.len();
    let heads = heads(head_bytes, dir)?;
    let mut files = Vec::with_capacity(heads.iter().map(|h| h.count).sum());
    for h in &heads {
        let mut t = In(head_bytes.get(h.table.clone())?);
        for _ in 0..h.count {
            t.take_str()?;
            let at = t.len_unchecked()?;
            let range = at..at.checked_add(t.len_unchecked()?)?;
            let sum = t.u64()?;
            let name = In(body.get(range.clone())?).take_str()?;
            files.push((
                joined(dir, name),
                PREFIX + n + range.start..PREFIX + n + range.end,
                sum,
            ));
        }
    }
    Some((heads, files))
}

/// `dir` and `name` as one path, in one allocation (10,000 of them in a
/// later search).
pub(super) fn joined(dir: &Path, name: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let dir = os_bytes(dir.as_os_str());
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    PathBuf::from(std::ffi::OsString::from_vec(path))
}

/// A course of a listing, without its lessons.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub slug: String,
    pub title: String,
    pub count: usize,
    /// Where its table of lessons is in the head.
    table: std::ops::Range<usize>,
}

/// The courses in a listing's head (the bytes after [`PREFIX`]).
pub fn heads(head: &[u8], dir: &Path) -> Option<Vec<Head>> {
    let mut r = In(head);
    if r.take_str()? != os_bytes(dir.as_os_str()) {
        return None;
    }
    let n = r.len()?;
    let mut heads = Vec::with_capacity(n);
    for _ in 0..n {
        let slug = r.string()?;
        let title = r.string()?;
        let count = r.len()?;
        let from = head.len() - r.0.len();
        for _ in 0..count {
            r.take_str()?;
            r.take(16)?;
        }
        heads.push(Head {
            slug,
            title,
            count,
            table: from..head.len() - r.0.len(),
        });
    }
    r.0.is_empty().then_some(heads)
}

/// Where a lesson's record is in the body, and the digest it was written
/// with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The lesson's place in its course.
    pub place: usize,
    pub range: std::ops::Range<usize>,
    digest: u64,
}

/// Where lesson `slug` of `course` is (its first lesson for `None`).
pub fn find(head: &[u8], course: &Head, slug: Option<&str>) -> Option<Found> {
    let mut r = In(head.get(course.table.clone())?);
    for place in 0..course.count {
        let this = r.take_str()?;
        let at = r.len_unchecked()?;
        let len = r.len_unchecked()?;
        let digest = r.u64()?;
        if slug.is_none_or(|want| want.as_bytes() == this) {
            let range = at..at.checked_add(len)?;
            return Some(Found {
                place,
                range,
                digest,
            });
        }
    }
    None
}

impl Found {
    /// The record of the lesson at `place`, at `range` of the body, that
    /// was written with `digest`.
    pub(super) fn at(place: usize, range: Range<usize>, digest: u64) -> Found {
        Found {
            place,
            range,
            digest,
        }
    }
}

/// One lesson's record, as [`find`] located it; `None` unless it is the
/// record that was written there.
pub fn lesson_at(record: &[u8], found: &Found, dir: &Path) -> Option<LessonEntry> {
    if digest(record) != found.digest {
        return None;
    }
    let mut r = In(record);
    let l = lesson(&mut r, dir)?;
    r.0.is_empty().then_some(l)
}

fn lesson(r: &mut In, dir: &Path) -> Option<LessonEntry> {
    let name = r.take_str()?;
    // Sized once: `join` would grow the buffer as it appends.
    let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 1 + name.len());
    path.push(dir);
    path.push(os_from_bytes(name));
    let slug = r.string()?;
    let title = r.string()?;
    let position = r.opt()?;
    let minutes = r.opt()?;
    let module = match r.byte()? {
        0 => None,
        1 => Some(Module {
            index: r.u32()?,
            slug: r.string()?,
            title: r.string()?,
        }),
        _ => return None,
    };
    let status = match r.byte()? {
        0 => LessonStatus::Ok,
        1 => LessonStatus::Broken(serde_json::from_str(&r.string()?).ok()?),
        _ => return None,
    };
    Some(LessonEntry {
        origin: Origin::File(path),
        slug,
        title,
        position,
        minutes,
        module: module.map(Box::new),
        status,
    })
}

/// The writer of the listing's encoding (also the kept plan's, `kept`).
pub(super) struct Out(pub(super) Vec<u8>);

impl Out {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(super) fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    pub(super) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(super) fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }

    pub(super) fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// `None` as 0, `Some(v)` as `v + 1` (a `u32::MAX` is kept as `None`).
    fn opt(&mut self, v: Option<u32>) {
        self.u32(v.and_then(|v| v.checked_add(1)).unwrap_or(0));
    }
}

/// The reader of [`Out`]'s encoding: `None` past the end.
pub(super) struct In<'a>(pub(super) &'a [u8]);

impl<'a> In<'a> {
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    pub(super) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    pub(super) fn len(&mut self) -> Option<usize> {
        let n = usize::try_from(self.u32()?).ok()?;
        // A count can never exceed the bytes left: a damaged length must
        // not reserve gigabytes.
        (n <= self.0.len()).then_some(n)
    }

    pub(super) fn take_str(&mut self) -> Option<&'a [u8]> {
        let n = self.len()?;
        self.take(n)
    }

    fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.take_str()?).ok()
    }

    /// A length or offset that may exceed what is left (it points
    /// elsewhere).
    fn len_unchecked(&mut self) -> Option<usize> {
        usize::try_from(self.u32()?).ok()
    }

    pub(super) fn string(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }

    fn opt(&mut self) -> Option<Option<u32>> {
        Some(self.u32()?.checked_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn course(dir: &Path) -> Course {
        let entry = |name: &str, pos: Option<u32>, module: bool, broken: bool| LessonEntry {
            origin: Origin::File(dir.join(name)),
            slug: format!("{name}-slug"),
            title: format!("Title of {name} — ünïcode 漢字"),
            position: pos,
            minutes: pos.map(|p| p * 2),
            module: module.then(|| {
                Box::new(Module {
                    index: 3,
                    slug: "m".into(),
                    title: "Module three".into(),
                })
            }),
            status: if broken {
                LessonStatus::Broken(crate::model::Diagnostic::error("a.json", "expected `{`"))
            } else {
                LessonStatus::Ok
            },
        };
        Course {
            slug: "c".into(),
            title: "Course".into(),
            root: Some(dir.to_path_buf()),
            lessons: vec![
                entry("a.json", Some(1), true, false),
                entry("b.json", Some(0), false, false),
                entry("zz.json", None, false, true),
            ],
        }
    }

    #[test]
    fn a_listing_round_trips() {
        let dir = Path::new("/some/course dir");
        let courses = vec![course(dir), Course::default()];
        let mut empty = courses.clone();
        empty[1].root = Some(dir.to_path_buf());
        assert_eq!(decode(&encode(dir, &courses), dir), Some(empty));
        assert_eq!(decode(&encode(dir, &courses), Path::new("/other")), None);
    }

    #[test]
    fn anything_but_a_whole_listing_is_none() {
        let dir = Path::new("/d");
        let bytes = encode(dir, &[course(dir)]);
        for cut in 0..bytes.len() {
            assert_eq!(decode(&bytes[..cut], dir), None, "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer, dir), None);
        assert_eq!(decode(b"[{\"json\": true}]", dir), None);
    }

    /// The head and the records, read the way a first frame reads them.
    fn parts(bytes: &[u8]) -> (&[u8], &[u8]) {
        let n = head_len(&bytes[..PREFIX]).unwrap();
        (&bytes[PREFIX..PREFIX + n], &bytes[PREFIX + n..])
    }

    #[test]
    fn heads_and_find_agree_with_decode() {
        let dir = Path::new("/d");
        let courses = vec![course(dir), course(dir)];
        let bytes = encode(dir, &courses);
        let (head, body) = parts(&bytes);
        let hs = heads(head, dir).unwrap();
        assert_eq!(hs.len(), 2);
        assert_eq!((hs[1].slug.as_str(), hs[1].count), ("c", 3));
        let full = decode(&bytes, dir).unwrap();
        let at = |h: &Head, slug: Option<&str>| {
            find(head, h, slug)
                .map(|f| (f.place, lesson_at(&body[f.range.clone()], &f, dir).unwrap()))
        };
        for (h, c) in hs.iter().zip(&full) {
            assert_eq!(at(h, None), Some((0, c.lessons[0].clone())));
            for (i, l) in c.lessons.iter().enumerate() {
                assert_eq!(at(h, Some(&l.slug)), Some((i, l.clone())));
            }
            assert_eq!(at(h, Some("nope")), None);
        }
        assert_eq!(heads(head, Path::new("/other")), None);
        assert_eq!(heads(&head[..head.len() - 1], dir), None);
    }

    #[test]
    fn garbage_after_the_head_is_caught() {
        let dir = Path::new("/d");
        let mut bytes = encode(dir, &[course(dir)]);
        let n = head_len(&bytes[..PREFIX]).unwrap();
        let (prefix, rest) = bytes.split_at(PREFIX);
        assert!(head_checks(prefix, &rest[..n]));
        for b in &mut bytes[PREFIX + n..] {
            *b = b'#';
        }
        let (head, body) = parts(&bytes);
        let h = &heads(head, dir).unwrap()[0];
        let f = find(head, h, None).unwrap();
        assert_eq!(lesson_at(&body[f.range.clone()], &f, dir), None);
        assert_eq!(decode(&bytes, dir), None);
        // A changed head is caught by its digest.
        let mut bytes = encode(dir, &[course(dir)]);
        bytes[PREFIX + 6] ^= 1;
        let (prefix, rest) = bytes.split_at(PREFIX);
        assert!(!head_checks(prefix, &rest[..n]));
    }

    #[test]
    fn names_that_are_not_utf8_round_trip() {
        let dir = Path::new("/d");
        let mut c = course(dir);
        c.lessons[0].origin = Origin::File(dir.join(os_from_bytes(b"caf\xe9.json")));
        let courses = vec![c];
        assert_eq!(decode(&encode(dir, &courses), dir), Some(courses));
    }

    proptest! {
        #[test]
        fn damaged_listings_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512),
                                        at in 0usize..64, flip in any::<u8>()) {
            let _ = decode(&bytes, Path::new("/d"));
            let mut good = encode(Path::new("/d"), &[course(Path::new("/d"))]);
            let i = at % good.len();
            good[i] ^= flip;
            let _ = decode(&good, Path::new("/d"));
            if let Some(n) = head_len(&good[..PREFIX]) {
                let head = good.get(PREFIX..PREFIX.saturating_add(n)).unwrap_or_default();
                let body = good.get(PREFIX.saturating_add(n)..).unwrap_or_default();
                for h in heads(head, Path::new("/d")).unwrap_or_default() {
                    for slug in [Some("a.json-slug"), None] {
                        if let Some(f) = find(head, &h, slug) {
                            let _ = body.get(f.range.clone()).map(|r| lesson_at(r, &f, Path::new("/d")));
                        }
                    }
                }
            }
        }
    }
}
