//! A picture decoded and scaled to its cells, in the background: raster
//! files through `image` with its limits set before decoding (a bomb's
//! header is refused, never allocated for), SVG through resvg within the
//! bounds of [`super::picture_svg`]. For a graphics protocol it is also
//! drawn at the pixels of its cells (its proportions kept, the rest of
//! its box clear) and made what the protocol sends: a PNG in base64 for
//! kitty and iTerm2, a sixel sequence. Both kept in the cache folder.

use super::picture_cache as cache;
use super::picture_svg::{self, Svg};
use crate::loader::image_files::{is_svg, pixels};
use crate::model::{Drawn, Graphic, Graphics, PictureKey, Protocol};
use std::path::Path;

/// The most pixels a picture is drawn at for a graphics protocol (a
/// picture the width of a wide screen at a large font); past it, drawn
/// smaller and scaled up by the terminal (kitty, iTerm2).
const MAX_GRAPHIC_PIXELS: u64 = 4 << 20;

/// The picture of `key`, scaled to its cells (from the cache when it was
/// drawn before), or why it cannot be drawn. A graphic that cannot be
/// made leaves the picture in half blocks.
pub fn draw(key: &PictureKey) -> Result<Drawn, String> {
    let cells_key = PictureKey {
        graphics: None,
        ..key.clone()
    };
    let mut source = None;
    let pixels = match cache::get(&cells_key) {
        Some(kept) => kept.pixels,
        None => {
            let src = source.insert(Source::load(&key.path)?);
            let pixels = cells(src, key)?;
            let drawn = Drawn {
                cols: key.cols.max(1),
                rows: key.rows.max(1),
                pixels,
                graphic: None,
            };
            cache::put(&cells_key, &drawn);
            drawn.pixels
        }
    };
    let graphic = key.graphics.and_then(|g| graphic(key, g, &mut source).ok());
    Ok(Drawn {
        cols: key.cols.max(1),
        rows: key.rows.max(1),
        pixels,
        graphic,
    })
}

/// A decoded picture.
enum Source {
    Raster(image::DynamicImage),
    Svg(Box<Svg>),
}

impl Source {
    fn load(path: &Path) -> Result<Source, String> {
        if is_svg(path) {
            return picture_svg::load(path).map(|s| Source::Svg(Box::new(s)));
        }
        // The header first: a picture past the caps is never decoded.
        pixels(path)?;
        let mut reader = image::ImageReader::open(path)
            .and_then(|r| r.with_guessed_format())
            .map_err(|e| format!("cannot read it: {e}"))?;
        reader.limits(crate::loader::image_files::limits());
        let picture = reader
            .decode()
            .map_err(|e| format!("cannot decode it: {e}"))?;
        Ok(Source::Raster(picture))
    }

    /// Its width and height as it means them.
    fn size(&self) -> (f32, f32) {
        match self {
            Source::Raster(p) => (p.width() as f32, p.height() as f32),
            Source::Svg(s) => s.size(),
        }
    }

    /// Drawn over `w` x `h` pixels (stretched to them), as straight RGBA.
    fn rgba(&self, w: u32, h: u32) -> Result<Vec<u8>, String> {
        match self {
            Source::Raster(p) => Ok(p
                .resize_exact(w, h, image::imageops::FilterType::Triangle)
                .into_rgba8()
                .into_raw()),
            Source::Svg(s) => s.rgba(w, h),
        }
    }
}

/// Two pixels a cell, laid on white: a diagram's dark lines on a
/// transparent page stay seen on a dark terminal.
fn cells(src: &Source, key: &PictureKey) -> Result<Vec<[u8; 3]>, String> {
    let (w, h) = (u32::from(key.cols.max(1)), 2 * u32::from(key.rows.max(1)));
    let rgba = src.rgba(w, h)?;
    Ok(rgba
        .chunks_exact(4)
        .map(|p| {
            let [r, g, b, _] = on_white([p[0], p[1], p[2], p[3]]);
            [r, g, b]
        })
        .collect())
}

fn on_white(p: [u8; 4]) -> [u8; 4] {
    let a = u32::from(p[3]);
    let mix = |c: u8| ((u32::from(c) * a + 255 * (255 - a)) / 255) as u8;
    [mix(p[0]), mix(p[1]), mix(p[2]), 255]
}

/// The pixels of `key`'s box of cells, at most [`MAX_GRAPHIC_PIXELS`].
fn box_pixels(key: &PictureKey, g: Graphics) -> (u32, u32) {
    let w = u64::from(key.cols.max(1)) * u64::from(g.cell.0.clamp(1, 256));
    let h = u64::from(key.rows.max(1)) * u64::from(g.cell.1.clamp(1, 512));
    let over = (w * h) as f64 / MAX_GRAPHIC_PIXELS as f64;
    let shrink = if over > 1.0 { over.sqrt() } else { 1.0 };
    let side = |n: u64| ((n as f64 / shrink) as u32).max(1);
    (side(w), side(h))
}

/// The picture as protocol `g` sends it: its PNG from the cache, else
/// drawn now (and kept).
fn graphic(key: &PictureKey, g: Graphics, source: &mut Option<Source>) -> Result<Graphic, String> {
    let (bw, bh) = box_pixels(key, g);
    let (png, rgba) = match cache::get_png(key) {
        Some(png) => (png, None),
        None => {
            let src = match source {
                Some(s) => s,
                None => source.insert(Source::load(&key.path)?),
            };
            let rgba = boxed(src, bw, bh)?;
            let png = encode_png(&rgba, bw, bh)?;
            cache::put_png(key, &png);
            (png, Some(rgba))
        }
    };
    let data = match g.protocol {
        Protocol::Kitty | Protocol::Iterm => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(&png)
        }
        Protocol::Sixel => {
            let rgba = match rgba {
                Some(rgba) => rgba,
                None => image::load_from_memory_with_format(&png, image::ImageFormat::Png)
                    .map_err(|e| e.to_string())?
                    .into_rgba8()
                    .into_raw(),
            };
            crate::graphics::sixel::encode(&rgba, bw, bh).ok_or("too many sixels")?
        }
    };
    Ok(Graphic {
        protocol: g.protocol,
        data,
        len: png.len(),
    })
}

/// The picture in a `bw` x `bh` box: as large as fits with its
/// proportions, centred, laid on white; the rest of the box clear.
fn boxed(src: &Source, bw: u32, bh: u32) -> Result<Vec<u8>, String> {
    let (sw, sh) = src.size();
    let scale = (bw as f32 / sw.max(1.0)).min(bh as f32 / sh.max(1.0));
    let w = ((sw * scale).round() as u32).clamp(1, bw);
    let h = ((sh * scale).round() as u32).clamp(1, bh);
    let inner = src.rgba(w, h)?;
    let (x0, y0) = ((bw - w) / 2, (bh - h) / 2);
    let mut out = vec![0u8; (bw * bh * 4) as usize];
    for y in 0..h {
        for x in 0..w {
            let from = ((y * w + x) * 4) as usize;
            let to = (((y + y0) * bw + x + x0) * 4) as usize;
            let p = [
                inner[from],
                inner[from + 1],
                inner[from + 2],
                inner[from + 3],
            ];
            out[to..to + 4].copy_from_slice(&on_white(p));
        }
    }
    Ok(out)
}

fn encode_png(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Adaptive)
        .write_image(rgba, w, h, image::ExtendedColorType::Rgba8)
        .map_err(|e| e.to_string())?;
    Ok(png)
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
            graphics: None,
        };
        let src = Source::load(&key.path).unwrap();
        let drawn = Drawn {
            cols: 50,
            rows: 6,
            pixels: cells(&src, &key).unwrap(),
            graphic: None,
        };
        assert_eq!(drawn.pixels.len(), 50 * 12);
        if !picture_svg::has_fonts() {
            // No font on this machine: nothing to draw text with.
            return;
        }
        assert!(
            inked(&drawn) > 20,
            "the text is drawn: {} pixels",
            inked(&drawn)
        );
    }

    #[test]
    fn a_graphic_fills_its_box_with_the_picture_centred() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("wide.png");
        // 40x10, twice as wide as the 4x2-cell box of 10x10 cells is.
        image::RgbImage::from_pixel(40, 10, image::Rgb([0, 0, 0]))
            .save(&path)
            .unwrap();
        let src = Source::load(&path).unwrap();
        let rgba = boxed(&src, 40, 20).unwrap();
        let alpha = |x: u32, y: u32| rgba[((y * 40 + x) * 4 + 3) as usize];
        // Rows 5 to 14 are the picture, above and below clear.
        assert_eq!(
            (alpha(0, 4), alpha(0, 5), alpha(39, 14), alpha(0, 15)),
            (0, 255, 255, 0)
        );
        let key = PictureKey {
            path: Arc::new(path),
            cols: 4,
            rows: 2,
            graphics: Some(Graphics {
                protocol: Protocol::Sixel,
                cell: (10, 10),
            }),
        };
        assert_eq!(box_pixels(&key, key.graphics.unwrap()), (40, 20));
        let g = graphic(&key, key.graphics.unwrap(), &mut Some(src)).unwrap();
        assert!(
            g.data.starts_with("\x1bP0;1;0q\"1;1;40;20"),
            "{:?}",
            &g.data[..20]
        );
        // A huge box is drawn smaller, its proportions kept.
        let big = PictureKey {
            cols: 1000,
            rows: 20,
            ..key.clone()
        };
        let g = Graphics {
            protocol: Protocol::Kitty,
            cell: (40, 80),
        };
        let (w, h) = box_pixels(&big, g);
        assert!(u64::from(w) * u64::from(h) <= MAX_GRAPHIC_PIXELS);
        assert!((f64::from(w) / f64::from(h) - 25.0).abs() < 0.1, "{w}x{h}");
    }
}
