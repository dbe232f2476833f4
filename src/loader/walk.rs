//! The one way lectern looks at folders and opens lesson files, for the
//! reader, lint and the course index alike.
//!
//! A course folder is not trusted any more than a lesson is: a symbolic
//! link may point back up the tree (`x -> .`), and a FIFO or a device
//! named `lesson.json` would block `open()` forever. So the walk follows a
//! link to a folder only to a folder it has not been in (folders are known
//! by device and inode), and nothing but a regular file is ever opened: the
//! rest is named in [`Walk::skipped`]. Names stay `OsString`s throughout;
//! they are made printable only where they are shown.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::Metadata;
use std::io;
use std::path::{Path, PathBuf};

use super::origin::MAX_LESSON_BYTES;
// Why a file of this type is not read: one rule for lessons and for
// lectern's own files.
use crate::own::refusal;

/// What a walk found: lesson files in byte order of their paths, and what
/// it would not open.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Walk {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<Skipped>,
}

/// A lesson-named entry that is not a regular file, or a folder already
/// walked (a link cycle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub why: &'static str,
}

impl Skipped {
    /// One printable line: the path sanitised, then why it was skipped.
    pub fn message(&self) -> String {
        format!("{}: {}, skipped", shown(&self.path), self.why)
    }

    /// The warning lint gives for it.
    pub fn diagnostic(&self) -> super::Diagnostic {
        super::Diagnostic {
            severity: super::Severity::Warning,
            ..super::Diagnostic::error(&shown(&self.path), format!("{}, skipped", self.why))
        }
    }
}

/// A path as a user may see it: lossy for non-UTF-8 bytes, and sanitised.
pub fn shown(path: &Path) -> String {
    super::sanitize::clean_owned(&path.to_string_lossy())
}

fn is_lesson_name(name: &OsStr) -> bool {
    super::source::format_of(name).is_some()
}

/// What a chapter named in a book's SUMMARY.md is wrong with, `None` for
/// a regular file: a FIFO there is not "not found".
pub fn chapter_problem(book: &str, path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Err(_) => Some(format!("chapter file not found: {book}")),
        Ok(meta) => refusal(&meta).map(|why| format!("chapter file {book}: {why}")),
    }
}

/// Identity of a folder, so a link back into the tree is walked once.
fn identity(meta: &Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// One folder's entries: lesson files, and folders (links followed once,
/// by what they point at) not seen before.
fn entries(
    dir: &Path,
    seen: &mut HashSet<(u64, u64)>,
    walk: &mut Walk,
) -> io::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let lesson = is_lesson_name(&entry.file_name());
        // The entry's own type needs no stat: a course may hold thousands
        // of files. Links and folders are looked at closer.
        if kind.is_file() {
            if lesson {
                walk.files.push(entry.path());
            }
            continue;
        }
        if !kind.is_dir() && !kind.is_symlink() && !lesson {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::metadata(&path) else {
            if lesson {
                // A dangling link: reading it will say so.
                walk.files.push(path);
            }
            continue;
        };
        if meta.is_dir() {
            if seen.insert(identity(&meta)) {
                dirs.push(path);
            } else if kind.is_symlink() {
                walk.skipped.push(Skipped {
                    path,
                    why: "a link to a folder already read",
                });
            }
        } else if lesson {
            match refusal(&meta) {
                None => walk.files.push(path),
                Some(why) => walk.skipped.push(Skipped { path, why }),
            }
        }
    }
    Ok(dirs)
}

fn sort(paths: &mut [PathBuf]) {
    // Byte order of the whole path: Path's own ordering walks components
    // and is several times slower on large folders.
    paths.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
}

/// The lesson files directly in `dir` (links followed), and its folders.
pub fn folder(dir: &Path) -> io::Result<(Walk, Vec<PathBuf>)> {
    let mut walk = Walk::default();
    let mut seen = HashSet::new();
    if let Ok(meta) = std::fs::metadata(dir) {
        seen.insert(identity(&meta));
    }
    let mut dirs = entries(dir, &mut seen, &mut walk)?;
    sort(&mut walk.files);
    sort(&mut dirs);
    Ok((walk, dirs))
}

/// Every lesson file under `root` (or `root` itself when it is a file),
/// each folder read once however many links lead to it.
pub fn tree(root: &Path) -> Walk {
    let mut walk = Walk::default();
    let meta = match std::fs::metadata(root) {
        Ok(m) => m,
        Err(_) => {
            walk.files.push(root.to_path_buf());
            return walk;
        }
    };
    if !meta.is_dir() {
        match refusal(&meta) {
            None => walk.files.push(root.to_path_buf()),
            Some(why) => walk.skipped.push(Skipped {
                path: root.to_path_buf(),
                why,
            }),
        }
        return walk;
    }
    let mut seen = HashSet::from([identity(&meta)]);
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let from = walk.files.len();
        let mut dirs = entries(&dir, &mut seen, &mut walk).unwrap_or_default();
        sort(&mut walk.files[from..]);
        // Depth first, in name order: the stack pops the first name next.
        sort(&mut dirs);
        stack.extend(dirs.into_iter().rev());
    }
    walk
}

/// Reads a lesson file without ever blocking on it: only a regular file is
/// opened (a FIFO, device or socket is refused before `open`), the open is
/// non-blocking in case it was swapped for one since, and the type is
/// checked again on the open file. Files over [`MAX_LESSON_BYTES`] are
/// refused before reading.
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    read_regular_with_meta(path).map(|(bytes, _)| bytes)
}

/// [`read_regular`], with the open file's metadata as it was before its
/// bytes were read (a cache's stamp of them, without a stat more).
pub fn read_regular_with_meta(path: &Path) -> io::Result<(Vec<u8>, std::fs::Metadata)> {
    let (file, meta) = crate::own::open_regular(path)?;
    let len = meta.len();
    if len > MAX_LESSON_BYTES {
        return Err(io::Error::other(format!(
            "file is {len} bytes, over the {} MiB limit for a lesson",
            MAX_LESSON_BYTES / 1024 / 1024
        )));
    }
    Ok((
        crate::own::read_capped(file, len, MAX_LESSON_BYTES, "the lesson")?,
        meta,
    ))
}

/// A name's bytes, exactly: what a cache stores so that a name that is not
/// UTF-8 opens again on the next start.
pub fn os_bytes(s: &OsStr) -> &[u8] {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes()
}

/// The name [`os_bytes`] gave.
pub fn os_from_bytes(b: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(b).to_owned()
}

/// A fast 64-bit digest of a file's bytes, for caches to tell a changed
/// file from an unchanged one. Not cryptographic: it guards against
/// coincidence and damage, not against an adversary (who could as well
/// edit the cache).
pub fn digest(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = K ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_le_bytes(w.try_into().unwrap_or_default());
        h = (h ^ v).wrapping_mul(K).rotate_left(31);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(31);
    }
    // Final mix, so that nearby inputs spread over all the bits.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests;
