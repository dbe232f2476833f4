//! Where each picture of a lesson is: its address made a file the lesson
//! may show (inside its book, by the same rule as includes), with the size
//! its header gives, or why it is not shown. Only headers are read here;
//! the pictures themselves are decoded later, in the background.

use super::source::mdbook::inside::Refused;
use crate::model::{Block, Image, ImageFile};
use std::path::Path;

/// The most pixels a picture may have to be decoded (64 million: an
/// 8000x8000 picture; a decompression bomb says far more in its header).
pub const MAX_PIXELS: u64 = 64 << 20;
/// The longest side a picture may have, in pixels.
pub const MAX_SIDE: u32 = 16_384;
/// The most picture headers one lesson reads while loading: past them a
/// picture's size is found when it is decoded.
const MAX_PROBED: usize = 2_000;
/// The most bytes of an SVG read for its size.
const SVG_HEAD: usize = 8 * 1024;

/// Where the pictures of a lesson from `file` are: relative to its folder,
/// or with a leading `/` to `src`; never outside `root` (canonical).
pub struct Places<'a> {
    pub dir: &'a Path,
    pub src: &'a Path,
    pub root: &'a Path,
}

/// Fills in each picture's file in `blocks` (those not yet looked for).
pub fn resolve(blocks: &mut [Block], at: &Places) {
    let mut look = Lookup::default();
    each_image(blocks, &mut |image| {
        if image.file == ImageFile::Unresolved {
            image.file = find(&image.src, at, &mut look);
        }
    });
}

/// What one lesson's pictures share while they are found: the headers
/// read so far, and each folder's real path (a book's pictures are in a
/// folder or two: each is made canonical once, where a path made
/// canonical whole reads every link of every component: about 90 calls
/// for 13 pictures, before the first frame).
#[derive(Default)]
pub struct Lookup {
    probed: usize,
    dirs: std::collections::HashMap<std::path::PathBuf, Option<std::path::PathBuf>>,
}

impl Lookup {
    /// `path` with every link and `..` resolved, as `canonicalize` gives
    /// it: its folder from those known, itself looked at alone.
    fn canonical(&mut self, path: &Path) -> Option<std::path::PathBuf> {
        let name = match path.components().next_back() {
            Some(std::path::Component::Normal(name)) => name,
            _ => return std::fs::canonicalize(path).ok(),
        };
        let parent = path.parent()?;
        let dir = self
            .dirs
            .entry(parent.to_path_buf())
            .or_insert_with(|| std::fs::canonicalize(parent).ok())
            .clone()?;
        let file = dir.join(name);
        let meta = std::fs::symlink_metadata(&file).ok()?;
        if meta.file_type().is_symlink() {
            std::fs::canonicalize(&file).ok()
        } else {
            Some(file)
        }
    }
}

/// The lesson's pictures, at any depth, in page order.
pub fn each_image(blocks: &mut [Block], f: &mut impl FnMut(&mut Image)) {
    for block in blocks {
        match block {
            Block::Image(image) => f(image),
            Block::List { items, .. } => items.iter_mut().for_each(|i| each_image(i, f)),
            Block::Quote(inner) => each_image(inner, f),
            _ => {}
        }
    }
}

/// What is at address `src`.
pub fn find(src: &str, at: &Places, look: &mut Lookup) -> ImageFile {
    let Some(local) = super::images::local_path(src) else {
        return ImageFile::Remote;
    };
    let path = match local.strip_prefix('/') {
        Some(rest) => at.src.join(rest),
        None => at.dir.join(&local),
    };
    let found = match look.canonical(&path) {
        None => Err(Refused::Missing),
        Some(canon) if canon.starts_with(at.root) => Ok(canon),
        Some(_) => Err(Refused::Outside),
    };
    match found {
        Err(Refused::Missing) => ImageFile::Refused(format!("image `{local}` is missing")),
        Err(Refused::Outside) => {
            ImageFile::Refused(format!("image `{local}` is outside the book: not shown"))
        }
        Ok(path) => {
            let pixels = (look.probed < MAX_PROBED).then(|| {
                look.probed += 1;
                pixels(&path).ok()
            });
            ImageFile::Local {
                path,
                pixels: pixels.flatten(),
            }
        }
    }
}

/// The size a picture's header gives, or why it cannot be shown.
pub fn pixels(path: &Path) -> Result<(u32, u32), String> {
    let (w, h) = if is_svg(path) {
        svg_size(path)?
    } else if let Some(size) = fixed_header(path) {
        size
    } else {
        image::ImageReader::open(path)
            .and_then(|r| r.with_guessed_format())
            .map_err(|e| format!("cannot read it: {e}"))?
            .into_dimensions()
            .map_err(|e| format!("not a picture lectern reads: {e}"))?
    };
    if w == 0 || h == 0 {
        return Err("it has no pixels".into());
    }
    if w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!(
            "too large: {w}x{h} pixels (at most {MAX_SIDE} a side and {} million in all)",
            MAX_PIXELS >> 20
        ));
    }
    Ok((w, h))
}

/// The size a PNG or GIF says in the first bytes of its file, where its
/// format puts it (PNG's IHDR, GIF's screen descriptor): one small read,
/// where a decoder made for the header of each picture of a lesson cost
/// about 60 us of a new process's first frame (BENCHMARKS.md, pictures).
/// Other formats (and anything unexpected) are the decoders' to read.
fn fixed_header(path: &Path) -> Option<(u32, u32)> {
    use std::io::Read;
    let mut head = [0u8; 24];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let le = |b: &[u8]| u32::from(u16::from_le_bytes([b[0], b[1]]));
    if head.starts_with(b"\x89PNG\r\n\x1a\n") && &head[12..16] == b"IHDR" {
        Some((be(&head[16..20]), be(&head[20..24])))
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some((le(&head[6..8]), le(&head[8..10])))
    } else {
        None
    }
}

/// Whether the picture at `path` can be shown, as lint asks: its header
/// read, and a raster picture decoded (within the caps), so a truncated
/// file is found before a reader meets it.
pub fn readable(path: &Path) -> Result<(), String> {
    let (w, h) = pixels(path)?;
    if is_svg(path) {
        return Ok(());
    }
    let mut reader = image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .map_err(|e| format!("cannot read it: {e}"))?;
    reader.limits(limits());
    reader
        .decode()
        .map(|_| ())
        .map_err(|e| format!("cannot decode it ({w}x{h}): {e}"))
}

/// What a decoder may use: the largest picture allowed, in 8-bit RGBA.
pub fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_PIXELS * 4 + (1 << 20));
    limits
}

pub fn is_svg(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg") || e.eq_ignore_ascii_case("svgz"))
}

/// An SVG's size from its root element's `width`/`height`, else its
/// `viewBox`, else a default (what a browser draws it at).
fn svg_size(path: &Path) -> Result<(u32, u32), String> {
    use std::io::Read;
    let mut head = Vec::with_capacity(SVG_HEAD);
    std::fs::File::open(path)
        .and_then(|f| f.take(SVG_HEAD as u64).read_to_end(&mut head))
        .map_err(|e| format!("cannot read it: {e}"))?;
    let text = String::from_utf8_lossy(&head);
    let Some(start) = text.find("<svg") else {
        return Err("not an SVG: no `<svg` element at its start".into());
    };
    let tag = &text[start..];
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let number = |name: &str| attr_number(tag, name);
    let view = attr_value(tag, "viewBox").map(|v| {
        v.split([' ', ','])
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse::<f64>().ok())
            .collect::<Vec<_>>()
    });
    let from_view = view.filter(|v| v.len() == 4).map(|v| (v[2], v[3]));
    let size = match (number("width"), number("height"), from_view) {
        (Some(w), Some(h), _) => (w, h),
        (Some(w), None, Some((vw, vh))) if vw > 0.0 => (w, w * vh / vw),
        (None, Some(h), Some((vw, vh))) if vh > 0.0 => (h * vw / vh, h),
        (_, _, Some(v)) => v,
        _ => (300.0, 150.0),
    };
    let side = |v: f64| v.round().clamp(1.0, f64::from(u32::MAX)) as u32;
    Ok((side(size.0), side(size.1)))
}

/// An attribute's value in a tag's text (` name="…"`).
fn attr_value<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + name.len()..].trim_start();
        rest = &rest[i + name.len()..];
        if before.is_some_and(char::is_whitespace) {
            if let Some(v) = after.strip_prefix('=') {
                let v = v.trim_start();
                let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
                let v = &v[1..];
                return Some(&v[..v.find(q)?]);
            }
        }
    }
    None
}

/// A length attribute in pixels (`120`, `120px`, `90pt`); none for
/// percentages and other units.
fn attr_number(tag: &str, name: &str) -> Option<f64> {
    let v = attr_value(tag, name)?.trim();
    let (n, scale) = match v {
        _ if v.ends_with("px") => (&v[..v.len() - 2], 1.0),
        _ if v.ends_with("pt") => (&v[..v.len() - 2], 4.0 / 3.0),
        _ => (v, 1.0),
    };
    n.trim()
        .parse::<f64>()
        .ok()
        .filter(|n| *n > 0.0)
        .map(|n| n * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_become_files_inside_the_book_or_reasons() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap().join("book");
        std::fs::create_dir_all(root.join("src/img")).unwrap();
        std::fs::write(d.path().join("secret.png"), b"x").unwrap();
        let svg = r#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200pt" viewBox="0 0 300 150"><text>hi</text></svg>"#;
        std::fs::write(root.join("src/img/a.svg"), svg).unwrap();
        std::fs::write(root.join("src/img/bad.png"), b"not a png").unwrap();
        let src = root.join("src");
        let at = Places {
            dir: &src,
            src: &src,
            root: &root,
        };
        let mut n = Lookup::default();
        let got = find("img/a.svg", &at, &mut n);
        assert_eq!(
            got,
            ImageFile::Local {
                path: root.join("src/img/a.svg"),
                pixels: Some((267, 133)),
            }
        );
        assert_eq!(find("https://x.org/a.png", &at, &mut n), ImageFile::Remote);
        let outside = find("../../secret.png", &at, &mut n);
        assert!(matches!(&outside, ImageFile::Refused(m) if m.contains("outside the book")));
        let gone = find("/img/gone.png", &at, &mut n);
        assert!(matches!(&gone, ImageFile::Refused(m) if m.contains("missing")));
        assert!(pixels(&root.join("src/img/bad.png")).is_err());
        // PNG and GIF by their first bytes, as their decoders say.
        let png = root.join("src/img/p.png");
        image::RgbImage::new(7, 3).save(&png).unwrap();
        let gif = root.join("src/img/g.gif");
        image::RgbaImage::new(5, 9).save(&gif).unwrap();
        for (file, size) in [(&png, (7, 3)), (&gif, (5, 9))] {
            assert_eq!(fixed_header(file), Some(size));
            let by_decoder = image::ImageReader::open(file)
                .unwrap()
                .with_guessed_format()
                .unwrap()
                .into_dimensions()
                .unwrap();
            assert_eq!(by_decoder, size);
        }
        // Through a link out of the book, or a folder that is one: outside.
        std::os::unix::fs::symlink(d.path().join("secret.png"), src.join("img/link.png")).unwrap();
        std::os::unix::fs::symlink(d.path(), src.join("out")).unwrap();
        for link in ["img/link.png", "out/secret.png", "img/../out/secret.png"] {
            let got = find(link, &at, &mut n);
            assert!(
                matches!(&got, ImageFile::Refused(m) if m.contains("outside")),
                "{link}: {got:?}"
            );
        }
        // A folder's own name at the end (`.`): made canonical whole.
        assert!(matches!(
            find("img/.", &at, &mut n),
            ImageFile::Local { .. }
        ));
    }
}
