//! An `<img>` tag's attributes: the picture's address, its words and the
//! size the page asks for (`width`/`height` in pixels, or a `style`
//! width in percent of the text, as the Rust Book writes it).

use super::attr;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ImgTag {
    pub src: String,
    pub alt: String,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// `style="width: 50%"`: a share of the text's width.
    pub percent: Option<u8>,
}

pub(super) fn img(attrs: &str) -> ImgTag {
    let style = attr(attrs, "style").unwrap_or_default();
    let width = attr(attrs, "width");
    ImgTag {
        src: attr(attrs, "src").unwrap_or_default(),
        alt: attr(attrs, "alt").unwrap_or_default(),
        width: width.as_deref().and_then(pixels),
        height: attr(attrs, "height").as_deref().and_then(pixels),
        percent: width
            .as_deref()
            .and_then(percent)
            .or_else(|| style_width(&style).and_then(percent)),
    }
}

/// `300` or `300px`: pixels (up to a bound no screen reaches).
fn pixels(v: &str) -> Option<u32> {
    let v = v.trim();
    let v = v.strip_suffix("px").unwrap_or(v).trim();
    v.parse::<u32>()
        .ok()
        .filter(|&n| (1..=100_000).contains(&n))
}

/// `50%`: a share of the text's width, 1 to 100.
fn percent(v: &str) -> Option<u8> {
    let n = v.trim().strip_suffix('%')?.trim();
    let n = n.split('.').next()?.parse::<u8>().ok()?;
    (1..=100).contains(&n).then_some(n)
}

/// The value of `width:` in a `style` attribute.
fn style_width(style: &str) -> Option<&str> {
    style.split(';').find_map(|decl| {
        let (key, value) = decl.split_once(':')?;
        key.trim()
            .eq_ignore_ascii_case("width")
            .then_some(value.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_pixels_and_percent() {
        let t =
            img(r#" alt="Two tables" src="img/trpl04-01.svg" class="center" style="width: 50%;" "#);
        assert_eq!(t.src, "img/trpl04-01.svg");
        assert_eq!(t.alt, "Two tables");
        assert_eq!((t.width, t.percent), (None, Some(50)));
        let t = img(r#"src=a.png width="300px" height=200"#);
        assert_eq!((t.width, t.height, t.percent), (Some(300), Some(200), None));
        let t = img(r#"src=a.png width="80%" height="-3""#);
        assert_eq!((t.width, t.height, t.percent), (None, None, Some(80)));
        assert_eq!(img("src=a width=99999999999").width, None);
    }
}
