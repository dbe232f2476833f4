//! Drawings kept in the cache folder, one file per picture file, its
//! size and modification time, and the cells drawn (and, for a graphics
//! protocol, the cell's pixels): a lesson opened again shows its pictures
//! without decoding them again. Half blocks are kept as their colours, a
//! graphic as a PNG. A file that does not read back as one (another
//! program's, cut short) is a miss, and is written over.

use crate::model::{Drawn, PictureKey};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// What starts each file: the format, so another version's is a miss.
const MAGIC: &[u8] = b"lectern-picture-1\n";
/// The largest drawing kept (a 2000-column, 20-row picture is 240 kB).
const MAX_BYTES: u64 = 1 << 20;
/// The largest PNG kept (a picture of 4 million pixels, most of them
/// photograph).
const MAX_PNG_BYTES: u64 = 24 << 20;

/// The folder drawings are kept in, when there is a cache folder.
fn folder() -> Option<PathBuf> {
    crate::index::cache_dir().map(|d| d.join("pictures"))
}

/// The file for `key`'s drawing: by the picture's path, length and
/// modification time (a changed file is another drawing), the cells and
/// the protocol's cell size.
fn file_for(dir: &Path, key: &PictureKey) -> Option<PathBuf> {
    let meta = std::fs::metadata(&*key.path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (
        &*key.path,
        meta.len(),
        meta.modified().ok(),
        key.cols,
        key.rows,
        key.graphics.map(|g| g.cell),
    )
        .hash(&mut h);
    let kind = if key.graphics.is_some() {
        "png"
    } else {
        "cells"
    };
    Some(dir.join(format!("{:016x}.{kind}", h.finish())))
}

/// The drawing kept for `key`, if one is.
pub fn get(key: &PictureKey) -> Option<Drawn> {
    get_in(&folder()?, key)
}

/// Keeps `drawn` for `key`; a cache that cannot be written is only slower.
pub fn put(key: &PictureKey, drawn: &Drawn) {
    if let Some(dir) = folder() {
        put_in(&dir, key, drawn);
    }
}

/// The PNG kept for `key`'s graphic, if one is.
pub fn get_png(key: &PictureKey) -> Option<Vec<u8>> {
    let file = file_for(&folder()?, key)?;
    let bytes = crate::own::read_regular_capped(&file, MAX_PNG_BYTES, "a drawing").ok()?;
    bytes.starts_with(b"\x89PNG\r\n\x1a\n").then_some(bytes)
}

/// Keeps `png` as `key`'s graphic.
pub fn put_png(key: &PictureKey, png: &[u8]) {
    if let Some(file) = folder().and_then(|dir| file_for(&dir, key)) {
        write_beside(&file, png);
    }
}

fn get_in(dir: &Path, key: &PictureKey) -> Option<Drawn> {
    let file = file_for(dir, key)?;
    let bytes = crate::own::read_regular_capped(&file, MAX_BYTES, "a drawing").ok()?;
    let body = bytes.strip_prefix(MAGIC)?;
    let want = usize::from(key.cols) * usize::from(key.rows) * 2 * 3;
    if body.len() != want {
        return None;
    }
    let pixels = body.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    Some(Drawn {
        cols: key.cols,
        rows: key.rows,
        pixels,
        graphic: None,
    })
}

fn put_in(dir: &Path, key: &PictureKey, drawn: &Drawn) {
    let Some(file) = file_for(dir, key) else {
        return;
    };
    let mut bytes = MAGIC.to_vec();
    bytes.extend(drawn.pixels.iter().flatten());
    write_beside(&file, &bytes);
}

/// Written beside, then renamed: a reader never sees half a file.
fn write_beside(file: &Path, bytes: &[u8]) {
    if let Some(dir) = file.parent() {
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
    }
    let part = file.with_extension("part");
    if std::fs::write(&part, bytes).is_ok() {
        let _ = std::fs::rename(&part, file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_drawing_reads_back_and_a_changed_file_is_a_miss() {
        let d = tempfile::tempdir().unwrap();
        let picture = d.path().join("a.png");
        std::fs::write(&picture, b"one").unwrap();
        let key = PictureKey {
            path: Arc::new(picture.clone()),
            cols: 2,
            rows: 1,
            graphics: None,
        };
        let dir = d.path().join("cache");
        assert_eq!(get_in(&dir, &key), None);
        let drawn = Drawn {
            cols: 2,
            rows: 1,
            pixels: vec![[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]],
            graphic: None,
        };
        put_in(&dir, &key, &drawn);
        assert_eq!(get_in(&dir, &key), Some(drawn));
        // Another size, a file cut short, a changed picture: misses.
        let wider = PictureKey {
            cols: 3,
            ..key.clone()
        };
        assert_eq!(get_in(&dir, &wider), None);
        let file = file_for(&dir, &key).unwrap();
        std::fs::write(&file, &MAGIC[..5]).unwrap();
        assert_eq!(get_in(&dir, &key), None);
        std::fs::write(&picture, b"longer").unwrap();
        assert_ne!(file_for(&dir, &key).unwrap(), file, "a changed file");
    }
}
