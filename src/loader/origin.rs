//! Reading a lesson's bytes from wherever its [`Origin`] says they are.

use super::Origin;
use std::borrow::Cow;
use std::path::Path;

/// The bytes of the lesson at `origin`: a file (capped at
/// [`MAX_LESSON_BYTES`]) or a lesson built into the binary.
pub fn read(origin: &Origin) -> std::io::Result<Cow<'static, [u8]>> {
    match origin {
        Origin::File(p) => read_capped(p).map(Cow::Owned),
        Origin::Builtin(n) => super::builtin::get(n)
            .map(|s| Cow::Borrowed(s.as_bytes()))
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such built-in lesson")
            }),
    }
}

/// Largest lesson file we read; larger ones are refused before reading so a
/// stray multi-gigabyte file cannot exhaust memory.
pub const MAX_LESSON_BYTES: u64 = 64 * 1024 * 1024;

fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_LESSON_BYTES {
        return Err(std::io::Error::other(format!(
            "file is {len} bytes, over the {} MiB limit for a lesson",
            MAX_LESSON_BYTES / 1024 / 1024
        )));
    }
    let mut buf = Vec::with_capacity(len as usize);
    // `take` guards against a file that grows while we read it.
    file.take(MAX_LESSON_BYTES + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > MAX_LESSON_BYTES {
        return Err(std::io::Error::other(
            "file grew past the lesson size limit while reading",
        ));
    }
    Ok(buf)
}
