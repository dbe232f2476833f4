//! A picture decoded and scaled to its cells, in the background: raster
//! files through `image` with its limits set before decoding (a bomb's
//! header is refused, never allocated for), SVG through resvg with the
//! system's fonts (so its text is drawn) and a cap on its bytes.

use crate::loader::image_files::{is_svg, pixels};
use crate::model::{Drawn, PictureKey};
use resvg::usvg::fontdb::Family;
use std::path::Path;
use std::sync::OnceLock;

/// The largest SVG read: far past any book's figure, and a bound on the
/// work its parsing and drawing can ask for.
const MAX_SVG_BYTES: u64 = 4 << 20;

/// The picture of `key`, scaled to its cells (from the cache when it was
/// drawn before), or why it cannot be drawn.
pub fn draw(key: &PictureKey) -> Result<Drawn, String> {
    if let Some(kept) = super::picture_cache::get(key) {
        return Ok(kept);
    }
    let drawn = decode(key)?;
    super::picture_cache::put(key, &drawn);
    Ok(drawn)
}

fn decode(key: &PictureKey) -> Result<Drawn, String> {
    let (w, h) = (u32::from(key.cols.max(1)), 2 * u32::from(key.rows.max(1)));
    let rgba = if is_svg(&key.path) {
        svg(&key.path, w, h)?
    } else {
        raster(&key.path, w, h)?
    };
    let pixels = rgba
        .chunks_exact(4)
        .map(|p| {
            // Laid on white: a diagram's dark lines on a transparent page
            // stay seen on a dark terminal.
            let a = u32::from(p[3]);
            let on_white = |c: u8| ((u32::from(c) * a + 255 * (255 - a)) / 255) as u8;
            [on_white(p[0]), on_white(p[1]), on_white(p[2])]
        })
        .collect();
    Ok(Drawn {
        cols: key.cols.max(1),
        rows: key.rows.max(1),
        pixels,
    })
}

fn raster(path: &Path, w: u32, h: u32) -> Result<Vec<u8>, String> {
    // The header first: a picture past the caps is never decoded.
    pixels(path)?;
    let mut reader = image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .map_err(|e| format!("cannot read it: {e}"))?;
    reader.limits(crate::loader::image_files::limits());
    let picture = reader
        .decode()
        .map_err(|e| format!("cannot decode it: {e}"))?;
    let scaled = picture.resize_exact(w, h, image::imageops::FilterType::Triangle);
    Ok(scaled.into_rgba8().into_raw())
}

fn svg(path: &Path, w: u32, h: u32) -> Result<Vec<u8>, String> {
    let bytes = crate::own::read_regular_capped(path, MAX_SVG_BYTES, "the picture")
        .map_err(|e| format!("cannot read it: {e}"))?;
    let fontdb = fonts();
    let options = resvg::usvg::Options {
        resources_dir: path.parent().map(Path::to_path_buf),
        font_family: fontdb.family_name(&Family::Serif).to_string(),
        fontdb,
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_data(&bytes, &options)
        .map_err(|e| format!("not an SVG lectern reads: {e}"))?;
    let mut canvas = resvg::tiny_skia::Pixmap::new(w, h).ok_or("it has no pixels")?;
    let size = tree.size();
    let scale = resvg::tiny_skia::Transform::from_scale(
        w as f32 / size.width().max(1.0),
        h as f32 / size.height().max(1.0),
    );
    resvg::render(&tree, scale, &mut canvas.as_mut());
    // tiny-skia's pixels are premultiplied: undone, they are laid on white.
    Ok(canvas
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect())
}

/// The system's fonts, found once (their files mapped, not read).
fn fonts() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_system_fonts();
            generic_families(&mut db);
            std::sync::Arc::new(db)
        })
        .clone()
}

/// `serif`, `sans-serif` and `monospace` as faces this system has: the
/// defaults (Times New Roman, Arial, Courier New) are often not installed,
/// and a figure's `font-family="Times,serif"` then lost its text.
fn generic_families(db: &mut resvg::usvg::fontdb::Database) {
    let families: Vec<String> = db
        .faces()
        .filter_map(|f| f.families.first().map(|(name, _)| name.clone()))
        .collect();
    let has = |db: &resvg::usvg::fontdb::Database, g: Family| {
        let name = db.family_name(&g).to_string();
        families.contains(&name)
    };
    let like = |word: &str, not: &str| {
        families
            .iter()
            .find(|f| f.contains(word) && (not.is_empty() || !f.contains(not)))
            .or(families.first())
            .cloned()
    };
    if !has(db, Family::Serif) {
        if let Some(f) = like("Serif", "Sans") {
            db.set_serif_family(f);
        }
    }
    if !has(db, Family::SansSerif) {
        if let Some(f) = like("Sans", "Mono") {
            db.set_sans_serif_family(f);
        }
    }
    if !has(db, Family::Monospace) {
        if let Some(f) = like("Mono", "") {
            db.set_monospace_family(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// How many of a drawing's pixels are not the white it is laid on.
    fn inked(d: &Drawn) -> usize {
        d.pixels.iter().filter(|p| **p != [255, 255, 255]).count()
    }

    #[test]
    fn an_svg_keeps_its_text() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("t.svg");
        // As the Rust Book's figures name their font.
        let text = r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="70" font-size="60" font-family="Times,serif">ptr len</text></svg>"#;
        std::fs::write(&path, text).unwrap();
        let key = PictureKey {
            path: Arc::new(path),
            cols: 50,
            rows: 6,
        };
        let drawn = decode(&key).unwrap();
        assert_eq!(drawn.pixels.len(), 50 * 12);
        if fonts().is_empty() {
            // No font on this machine: nothing to draw text with.
            return;
        }
        assert!(
            inked(&drawn) > 20,
            "the text is drawn: {} pixels",
            inked(&drawn)
        );
    }
}
