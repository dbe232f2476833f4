//! A picture decoded and scaled to its cells, in the background: raster
//! files through `image` with its limits set before decoding (a bomb's
//! header is refused, never allocated for), SVG through resvg with the
//! system's fonts (so its text is drawn) and a cap on its bytes.

use crate::loader::image_files::{is_svg, pixels};
use crate::model::{Drawn, PictureKey};
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
    let options = resvg::usvg::Options {
        resources_dir: path.parent().map(Path::to_path_buf),
        fontdb: fonts(),
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
            std::sync::Arc::new(db)
        })
        .clone()
}
