//! Reading a lesson's bytes from wherever its [`Origin`] says they are.

use super::Origin;
use std::borrow::Cow;

/// The bytes of the lesson at `origin`: a file (capped at
/// [`MAX_LESSON_BYTES`]) or a lesson built into the binary.
pub fn read(origin: &Origin) -> std::io::Result<Cow<'static, [u8]>> {
    match origin {
        // Never `open` what is not a regular file: a FIFO would block.
        Origin::File(p) => super::walk::read_regular(p).map(Cow::Owned),
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
