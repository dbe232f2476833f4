//! A large folder's courses as last seen, already grouped and in reading
//! order, in `postcard` (serde's compact binary form). For a 10,000-lesson
//! course, what a first frame needs (the head and one record) is read in
//! well under a millisecond, and the whole listing decodes in a few.
//!
//! The file is a fixed frame, then two parts. The frame: the magic, the
//! length of the head and the digests of the head and of the body. The
//! head ([`HeadDoc`]): the folder's path, and each course's slug, title,
//! lesson count and table of its lessons' slugs, where each lesson's
//! record lies in the body and the record's digest (the table kept as
//! bytes, so that a first frame decodes its slots only up to the lesson it
//! shows). The body: every lesson's [`Record`], in
//! course order, each encoded on its own so that a first frame decodes
//! the head and one record; the rest is decoded after it. Paths and file
//! names are their bytes as the system gave them (a name need not be
//! UTF-8). Anything that does not decode exactly, for this folder, with
//! every digest it is read under matching, is no listing at all: the
//! folder is then read again (and the listing written again).

use crate::loader::Origin;
use crate::loader::walk::{digest, os_bytes, os_from_bytes};
use crate::model::{Course, LessonEntry, LessonStatus, Module};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Bumped whenever the layout below changes.
/// (4: postcard. 5: a course's table as bytes.)
const MAGIC: &[u8; 8] = b"lectern5";

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
    let bytes = encode(dir, courses).ok_or_else(|| std::io::Error::other("listing not encoded"))?;
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
                crate::own::remove_if_headed(&path, super::text_plan_file::ANY_MAGIC);
            }
            _ => {}
        }
    }
    // Fails, as it should, unless the folder is now empty.
    let _ = std::fs::remove_dir(dir);
}

/// The head: which folder, and each course with its table of lessons
/// (written so; read as [`HeadRef`]).
#[derive(Serialize)]
struct HeadDoc {
    dir: Vec<u8>,
    courses: Vec<CourseDoc>,
}

/// A course as kept in the head.
#[derive(Serialize)]
struct CourseDoc {
    slug: String,
    title: String,
    count: u64,
    /// Its lessons' [`Slot`]s, one after the other, as bytes: a first
    /// frame reads the table up to the lesson it shows, where decoding all
    /// 10,000 slots of a course cost it 4 M instructions (1 ms).
    table: Vec<u8>,
}

/// The head as read: its lessons' slugs borrowed from the bytes.
#[derive(Deserialize)]
struct HeadRef<'a> {
    #[serde(borrow)]
    dir: &'a [u8],
    #[serde(borrow)]
    courses: Vec<CourseRef<'a>>,
}

/// [`CourseDoc`] as read.
#[derive(Deserialize)]
struct CourseRef<'a> {
    slug: String,
    title: String,
    count: u64,
    #[serde(borrow)]
    table: &'a [u8],
}

/// [`Slot`] as read, its slug borrowed as bytes (a `str`'s encoding, not
/// checked as UTF-8 again: [`find`] compares it with a slug that is).
#[derive(Deserialize)]
struct SlotRef<'a> {
    slug: &'a [u8],
    at: u64,
    len: u64,
    digest: u64,
}

/// A course of a listing, with where each of its lessons' records is.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub slug: String,
    pub title: String,
    pub count: usize,
    /// The head's bytes (shared by its courses), and where in them this
    /// course's table of slots is.
    bytes: std::sync::Arc<[u8]>,
    table: Range<usize>,
}

impl Head {
    /// The course's slots in order, each decoded as it is reached; they end
    /// early at one that does not decode.
    fn slots(&self) -> impl Iterator<Item = SlotRef<'_>> {
        let mut rest = self.bytes.get(self.table.clone()).unwrap_or_default();
        std::iter::from_fn(move || {
            let (slot, more) = postcard::take_from_bytes::<SlotRef>(rest).ok()?;
            rest = more;
            Some(slot)
        })
    }
}

/// A lesson in a course's table: its slug, and its record's place in the
/// body and digest.
#[derive(Serialize)]
struct Slot {
    slug: String,
    at: u64,
    len: u64,
    digest: u64,
}

/// One lesson as kept in the body.
#[derive(Serialize, Deserialize)]
struct Record {
    /// Relative to the folder: a markdown course's lessons sit in its
    /// folders too (a flat folder's are just file names).
    name: Vec<u8>,
    slug: String,
    title: String,
    position: Option<u32>,
    minutes: Option<u32>,
    module: Option<(u32, String, String)>,
    /// A broken lesson's diagnostic, as JSON (its serde form is JSON's).
    broken: Option<String>,
}

/// `None` only if serde cannot encode a value, which these never are.
pub fn encode(dir: &Path, courses: &[Course]) -> Option<Vec<u8>> {
    let mut body = Vec::with_capacity(64 * 1024);
    let mut heads = Vec::with_capacity(courses.len());
    for c in courses {
        let mut table = Vec::with_capacity(c.lessons.len() * 48);
        for l in &c.lessons {
            let at = body.len();
            body = postcard::to_extend(&record(dir, l), body).ok()?;
            let slot = Slot {
                slug: l.slug.clone(),
                at: at as u64,
                len: (body.len() - at) as u64,
                digest: digest(&body[at..]),
            };
            table = postcard::to_extend(&slot, table).ok()?;
        }
        heads.push(CourseDoc {
            slug: c.slug.clone(),
            title: c.title.clone(),
            count: c.lessons.len() as u64,
            table,
        });
    }
    let doc = HeadDoc {
        dir: os_bytes(dir.as_os_str()).to_vec(),
        courses: heads,
    };
    let head = postcard::to_stdvec(&doc).ok()?;
    let mut out = Vec::with_capacity(PREFIX + head.len() + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&digest(&head).to_le_bytes());
    out.extend_from_slice(&digest(&body).to_le_bytes());
    out.extend_from_slice(&head);
    out.extend_from_slice(&body);
    Some(out)
}

fn record(dir: &Path, l: &LessonEntry) -> Record {
    let name = l
        .origin
        .path()
        .and_then(|p| {
            p.strip_prefix(dir)
                .ok()
                .or_else(|| p.file_name().map(Path::new))
        })
        .map(|p| os_bytes(p.as_os_str()).to_vec())
        .unwrap_or_default();
    Record {
        name,
        slug: l.slug.clone(),
        title: l.title.clone(),
        position: l.position,
        minutes: l.minutes,
        module: l
            .module
            .as_ref()
            .map(|m| (m.index, m.slug.clone(), m.title.clone())),
        broken: match &l.status {
            LessonStatus::Ok => None,
            LessonStatus::Broken(why) => Some(serde_json::to_string(why).unwrap_or_default()),
        },
    }
}

/// The frame's `u64` at `at`.
fn u64_at(prefix: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(prefix.get(at..at + 8)?.try_into().ok()?))
}

/// The head's length, from the first [`PREFIX`] bytes of a listing.
pub fn head_len(prefix: &[u8]) -> Option<usize> {
    let n = prefix.strip_prefix(MAGIC.as_slice())?.get(..4)?;
    usize::try_from(u32::from_le_bytes(n.try_into().ok()?)).ok()
}

/// The digests of the head and of the body, from the first [`PREFIX`]
/// bytes of a listing.
fn digests(prefix: &[u8]) -> Option<(u64, u64)> {
    prefix.starts_with(MAGIC).then_some(())?;
    let at = MAGIC.len() + 4;
    Some((u64_at(prefix, at)?, u64_at(prefix, at + 8)?))
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
    let (head_bytes, mut body) = checked_parts(bytes)?;
    let mut courses = Vec::new();
    for h in heads(head_bytes, dir)? {
        let mut lessons = Vec::with_capacity(h.count);
        for _ in 0..h.count {
            let (r, rest) = postcard::take_from_bytes::<Record>(body).ok()?;
            body = rest;
            lessons.push(lesson(r, dir)?);
        }
        courses.push(Course {
            slug: h.slug,
            title: h.title,
            root: Some(dir.to_path_buf()),
            lessons,
        });
    }
    body.is_empty().then_some(courses)
}

/// The digests a listing says its head and body have (checked by
/// [`decode_files`]): which listing it is.
pub fn sums(bytes: &[u8]) -> Option<(u64, u64)> {
    digests(bytes.get(..PREFIX)?)
}

/// A lesson's file, where its record is in the listing's bytes, and the
/// record's digest.
pub type FileAt = (PathBuf, Range<usize>, u64);

/// The lessons of a listing (`bytes` whole, checked as [`decode`] checks
/// it) by file, in course order, each with where its record is in the
/// body; the records themselves are decoded only for the lessons shown
/// ([`lesson_at`]). Of 10,000 lessons a search needs every file but shows 20.
pub fn decode_files(bytes: &[u8], dir: &Path) -> Option<(Vec<Head>, Vec<FileAt>)> {
    let (head_bytes, body) = checked_parts(bytes)?;
    let start = PREFIX + head_bytes.len();
    let heads = heads(head_bytes, dir)?;
    let mut files = Vec::with_capacity(heads.iter().map(|h| h.count).sum());
    for h in &heads {
        let before = files.len();
        for s in h.slots() {
            let range = slot_range(&s)?;
            // The record starts with its file's name: read only that.
            let (name, _) = postcard::take_from_bytes::<&[u8]>(body.get(range.clone())?).ok()?;
            files.push((
                joined(dir, name),
                start + range.start..start + range.end,
                s.digest,
            ));
        }
        (files.len() - before == h.count).then_some(())?;
    }
    Some((heads, files))
}

fn slot_range(s: &SlotRef) -> Option<Range<usize>> {
    let at = usize::try_from(s.at).ok()?;
    Some(at..at.checked_add(usize::try_from(s.len).ok()?)?)
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

/// The courses in a listing's head (the bytes after [`PREFIX`]), if it is
/// the head of `dir`'s listing.
pub fn heads(head: &[u8], dir: &Path) -> Option<Vec<Head>> {
    let bytes: std::sync::Arc<[u8]> = head.into();
    let doc: HeadRef = postcard::from_bytes(&bytes).ok()?;
    (doc.dir == os_bytes(dir.as_os_str())).then_some(())?;
    // Where a course's table lies in the bytes it was read from.
    let base = bytes.as_ptr() as usize;
    let mut out = Vec::with_capacity(doc.courses.len());
    for c in doc.courses {
        let start = (c.table.as_ptr() as usize).checked_sub(base)?;
        out.push(Head {
            slug: c.slug,
            title: c.title,
            count: usize::try_from(c.count).ok()?,
            bytes: bytes.clone(),
            table: start..start + c.table.len(),
        });
    }
    Some(out)
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
pub fn find(course: &Head, slug: Option<&str>) -> Option<Found> {
    let (place, s) = course
        .slots()
        .take(course.count)
        .enumerate()
        .find(|(_, s)| slug.is_none_or(|want| want.as_bytes() == s.slug))?;
    Some(Found {
        place,
        range: slot_range(&s)?,
        digest: s.digest,
    })
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
    let (r, rest) = postcard::take_from_bytes::<Record>(record).ok()?;
    rest.is_empty().then_some(())?;
    lesson(r, dir)
}

fn lesson(r: Record, dir: &Path) -> Option<LessonEntry> {
    let status = match r.broken {
        None => LessonStatus::Ok,
        Some(why) => LessonStatus::Broken(serde_json::from_str(&why).ok()?),
    };
    // Sized once: `join` would grow the buffer as it appends.
    let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 1 + r.name.len());
    path.push(dir);
    path.push(os_from_bytes(&r.name));
    Some(LessonEntry {
        origin: Origin::File(path),
        slug: r.slug,
        title: r.title,
        position: r.position,
        minutes: r.minutes,
        module: r
            .module
            .map(|(index, slug, title)| Box::new(Module { index, slug, title })),
        status,
    })
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
        assert_eq!(decode(&encode(dir, &courses).unwrap(), dir), Some(empty));
        assert_eq!(
            decode(&encode(dir, &courses).unwrap(), Path::new("/other")),
            None
        );
    }

    #[test]
    fn anything_but_a_whole_listing_is_none() {
        let dir = Path::new("/d");
        let bytes = encode(dir, &[course(dir)]).unwrap();
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
        let bytes = encode(dir, &courses).unwrap();
        let (head, body) = parts(&bytes);
        let hs = heads(head, dir).unwrap();
        assert_eq!(hs.len(), 2);
        assert_eq!((hs[1].slug.as_str(), hs[1].count), ("c", 3));
        let full = decode(&bytes, dir).unwrap();
        let at = |h: &Head, slug: Option<&str>| {
            find(h, slug).map(|f| (f.place, lesson_at(&body[f.range.clone()], &f, dir).unwrap()))
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
        let mut bytes = encode(dir, &[course(dir)]).unwrap();
        let n = head_len(&bytes[..PREFIX]).unwrap();
        let (prefix, rest) = bytes.split_at(PREFIX);
        assert!(head_checks(prefix, &rest[..n]));
        for b in &mut bytes[PREFIX + n..] {
            *b = b'#';
        }
        let (head, body) = parts(&bytes);
        let h = &heads(head, dir).unwrap()[0];
        let f = find(h, None).unwrap();
        assert_eq!(lesson_at(&body[f.range.clone()], &f, dir), None);
        assert_eq!(decode(&bytes, dir), None);
        // A changed head is caught by its digest.
        let mut bytes = encode(dir, &[course(dir)]).unwrap();
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
        assert_eq!(decode(&encode(dir, &courses).unwrap(), dir), Some(courses));
    }

    proptest! {
        #[test]
        fn damaged_listings_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512),
                                        at in 0usize..64, flip in any::<u8>()) {
            let _ = decode(&bytes, Path::new("/d"));
            let mut good = encode(Path::new("/d"), &[course(Path::new("/d"))]).unwrap();
            let i = at % good.len();
            good[i] ^= flip;
            let _ = decode(&good, Path::new("/d"));
            if let Some(n) = head_len(&good[..PREFIX]) {
                let head = good.get(PREFIX..PREFIX.saturating_add(n)).unwrap_or_default();
                let body = good.get(PREFIX.saturating_add(n)..).unwrap_or_default();
                for h in heads(head, Path::new("/d")).unwrap_or_default() {
                    for slug in [Some("a.json-slug"), None] {
                        if let Some(f) = find(&h, slug) {
                            let _ = body.get(f.range.clone()).map(|r| lesson_at(r, &f, Path::new("/d")));
                        }
                    }
                }
            }
        }
    }
}
