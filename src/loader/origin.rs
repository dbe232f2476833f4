use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Where a lesson's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    File(PathBuf),
    /// A lesson of the course compiled into the binary, by file name.
    Builtin(&'static str),
}

impl Origin {
    /// What diagnostics call the lesson: its path, or `builtin:NAME`.
    pub fn name(&self) -> String {
        match self {
            Origin::File(p) => p.display().to_string(),
            Origin::Builtin(n) => format!("builtin:{n}"),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        match self {
            Origin::File(p) => Some(p),
            Origin::Builtin(_) => None,
        }
    }

    pub fn read(&self) -> std::io::Result<Cow<'static, [u8]>> {
        match self {
            Origin::File(p) => read_capped(p).map(Cow::Owned),
            Origin::Builtin(n) => super::builtin::get(n)
                .map(|s| Cow::Borrowed(s.as_bytes()))
                .ok_or_else(|| {
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such built-in lesson")
                }),
        }
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
