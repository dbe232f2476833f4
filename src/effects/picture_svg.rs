//! SVG pictures through resvg, with the system's fonts (so a figure's
//! text is drawn), within bounds set before any work: the file's bytes,
//! its nesting, and the elements it comes to once every `<use>` is
//! expanded (a few kilobytes of nested `<use>`s expand to billions, which
//! usvg would build); then drawn node by node against a time budget, so a
//! figure that is slow to draw (thousands of blurred layers) ends as its
//! words instead of holding the picture thread.

use resvg::usvg::fontdb::Family;
use resvg::usvg::{self, roxmltree};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The largest SVG read: far past any book's figure, and a bound on the
/// work its parsing can ask for.
const MAX_BYTES: u64 = 4 << 20;
/// The most elements an SVG may come to with its `<use>`s expanded (the
/// Rust Book's largest figure has a few hundred).
pub const MAX_ELEMENTS: u64 = 200_000;
/// The deepest nesting read (the parser and the drawing recurse).
const MAX_DEPTH: usize = 256;
/// How long one drawing of an SVG may take.
pub const TIME: Duration = Duration::from_secs(2);

pub struct Svg {
    tree: usvg::Tree,
}

/// The SVG at `path`, parsed within the bounds above.
pub fn load(path: &Path) -> Result<Svg, String> {
    let bytes = crate::own::read_regular_capped(path, MAX_BYTES, "the picture")
        .map_err(|e| format!("cannot read it: {e}"))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "not an SVG lectern reads: not UTF-8")?;
    expanded_size(text)?;
    let fontdb = fonts();
    let options = usvg::Options {
        resources_dir: path.parent().map(Path::to_path_buf),
        font_family: fontdb.family_name(&Family::Serif).to_string(),
        fontdb,
        ..Default::default()
    };
    let tree = usvg::Tree::from_str(text, &options)
        .map_err(|e| format!("not an SVG lectern reads: {e}"))?;
    Ok(Svg { tree })
}

/// Checks that `text`'s elements, every `<use>` expanded, stay within
/// [`MAX_ELEMENTS`] and its nesting within [`MAX_DEPTH`]; the count.
fn expanded_size(text: &str) -> Result<u64, String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::try_from(MAX_ELEMENTS * 4).unwrap_or(u32::MAX),
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options)
        .map_err(|e| format!("not an SVG lectern reads: {e}"))?;
    // In document order a parent comes before its children.
    let mut depth = vec![0usize; doc.descendants().count() + 1];
    let mut deepest = 0;
    for n in doc.descendants() {
        let d = n.parent().map_or(0, |p| {
            depth.get(p.id().get() as usize).copied().unwrap_or(0) + 1
        });
        if let Some(slot) = depth.get_mut(n.id().get() as usize) {
            *slot = d;
        }
        deepest = deepest.max(d);
    }
    if deepest > MAX_DEPTH {
        return Err(format!("nested {deepest} deep (at most {MAX_DEPTH})"));
    }
    let ids: std::collections::HashMap<&str, roxmltree::NodeId> = doc
        .descendants()
        .filter_map(|n| Some((n.attribute("id")?, n.id())))
        .collect();
    let mut sizes = Sizes {
        ids,
        known: std::collections::HashMap::new(),
    };
    let n = sizes.of(doc.root_element(), 0);
    if n > MAX_ELEMENTS {
        return Err(format!(
            "too large: {n} elements with its <use>s expanded (at most {MAX_ELEMENTS})"
        ));
    }
    Ok(n)
}

/// Elements each element comes to, its `<use>`s expanded: known ones
/// kept, a `<use>` that leads back to itself counted as nothing (usvg
/// leaves it out).
struct Sizes<'a> {
    ids: std::collections::HashMap<&'a str, roxmltree::NodeId>,
    /// `None` while being counted (a cycle).
    known: std::collections::HashMap<roxmltree::NodeId, Option<u64>>,
}

impl Sizes<'_> {
    fn of(&mut self, node: roxmltree::Node, depth: usize) -> u64 {
        match self.known.get(&node.id()) {
            Some(Some(n)) => return *n,
            Some(None) => return 0,
            None => {}
        }
        // Deeper than the nesting allowed: only through `<use>`s, counted
        // as past the bound.
        if depth > MAX_DEPTH * 4 {
            return MAX_ELEMENTS + 1;
        }
        self.known.insert(node.id(), None);
        let mut n: u64 = 1;
        for child in node.children().filter(|c| c.is_element()) {
            n = n.saturating_add(self.of(child, depth + 1));
            if n > MAX_ELEMENTS {
                break;
            }
        }
        if node.tag_name().name() == "use" && n <= MAX_ELEMENTS {
            let href = node
                .attributes()
                .find(|a| a.name() == "href")
                .map(|a| a.value().trim_start_matches('#'));
            if let Some(target) = href.and_then(|h| self.ids.get(h).copied()) {
                if let Some(t) = node.document().get_node(target) {
                    n = n.saturating_add(self.of(t, depth + 1));
                }
            }
        }
        self.known.insert(node.id(), Some(n));
        n
    }
}

impl Svg {
    /// Its width and height as it means them.
    pub fn size(&self) -> (f32, f32) {
        let s = self.tree.size();
        (s.width(), s.height())
    }

    /// Drawn over `w` x `h` pixels (stretched to them), as straight RGBA;
    /// `Err` past [`TIME`].
    pub fn rgba(&self, w: u32, h: u32) -> Result<Vec<u8>, String> {
        self.rgba_by(w, h, Instant::now() + TIME)
    }

    fn rgba_by(&self, w: u32, h: u32, deadline: Instant) -> Result<Vec<u8>, String> {
        let mut canvas = resvg::tiny_skia::Pixmap::new(w, h).ok_or("it has no pixels")?;
        let (sw, sh) = self.size();
        let scale =
            resvg::tiny_skia::Transform::from_scale(w as f32 / sw.max(1.0), h as f32 / sh.max(1.0));
        let root = self.tree.root().children();
        if root.iter().any(unplaceable) {
            resvg::render(&self.tree, scale, &mut canvas.as_mut());
        } else {
            for node in root {
                draw(node, scale, &mut canvas.as_mut(), deadline)?;
            }
        }
        // tiny-skia's pixels are premultiplied.
        Ok(canvas
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect())
    }
}

/// `node` drawn with `transform` (its parent's), the clock checked
/// before each node: a group drawn straight onto the canvas (no opacity,
/// clip, mask or filter) is drawn a child at a time, the same pixels.
fn draw(
    node: &usvg::Node,
    transform: resvg::tiny_skia::Transform,
    canvas: &mut resvg::tiny_skia::PixmapMut,
    deadline: Instant,
) -> Result<(), String> {
    if Instant::now() > deadline {
        return Err(format!("it takes more than {} s to draw", TIME.as_secs()));
    }
    if let usvg::Node::Group(g) = node {
        if !g.should_isolate() && !g.children().iter().any(unplaceable) {
            let inner = transform.pre_concat(g.transform());
            for child in g.children() {
                draw(child, inner, canvas, deadline)?;
            }
            return Ok(());
        }
    }
    // resvg places a node by its bounding box: undone, so that it lands
    // where the whole tree would have drawn it.
    if let Some(b) = node.abs_layer_bounding_box() {
        resvg::render_node(node, transform.pre_translate(b.x(), b.y()), canvas);
    }
    Ok(())
}

/// How many of the SVG at `path`'s texts are drawn, of how many it has:
/// a text whose font this system lacks has no glyphs and is lost (a
/// figure's `Times,serif` labels, without the generic families above).
pub fn texts_drawn(path: &Path) -> Result<(usize, usize), String> {
    let svg = load(path)?;
    let bytes = crate::own::read_regular_capped(path, MAX_BYTES, "the picture")
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, options).map_err(|e| e.to_string())?;
    let written = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| {
            n.descendants()
                .any(|t| t.text().is_some_and(|t| !t.trim().is_empty()))
        })
        .count();
    let (mut texts, mut drawn) = (0, 0);
    count_texts(svg.tree.root(), &mut texts, &mut drawn);
    Ok((drawn, written.max(texts)))
}

fn count_texts(group: &usvg::Group, texts: &mut usize, drawn: &mut usize) {
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => count_texts(g, texts, drawn),
            usvg::Node::Text(t) => {
                *texts += 1;
                if t.flattened().has_children() {
                    *drawn += 1;
                }
            }
            _ => {}
        }
    }
}

/// A shape resvg cannot draw alone (a line along an axis has no box to
/// place it by): its group is drawn whole.
fn unplaceable(node: &usvg::Node) -> bool {
    !matches!(node, usvg::Node::Group(_)) && node.abs_layer_bounding_box().is_none()
}

/// The system's fonts, found once (their files mapped, not read).
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            generic_families(&mut db);
            Arc::new(db)
        })
        .clone()
}

#[cfg(test)]
/// Whether this system has any font to draw an SVG's text with.
pub fn has_fonts() -> bool {
    !fonts().is_empty()
}

/// `serif`, `sans-serif` and `monospace` as faces this system has: the
/// defaults (Times New Roman, Arial, Courier New) are often not installed,
/// and a figure's `font-family="Times,serif"` then lost its text.
fn generic_families(db: &mut usvg::fontdb::Database) {
    let families: Vec<String> = db
        .faces()
        .filter_map(|f| f.families.first().map(|(name, _)| name.clone()))
        .collect();
    let has = |db: &usvg::fontdb::Database, g: Family| {
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

    /// `<use>`s nested `levels` deep, each level using the one below ten
    /// times: 10^levels elements expanded, a few hundred bytes written.
    pub(crate) fn laughs(levels: usize) -> String {
        let mut s = String::from(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1"/>"#,
        );
        for l in 1..=levels {
            s.push_str(&format!("<g id=\"l{l}\">"));
            for _ in 0..10 {
                s.push_str(&format!("<use xlink:href=\"#l{}\"/>", l - 1));
            }
            s.push_str("</g>");
        }
        s.push_str(&format!("</defs><use xlink:href=\"#l{levels}\"/></svg>"));
        s
    }

    #[test]
    fn uses_that_expand_past_the_bound_are_refused_before_usvg() {
        assert!(expanded_size(&laughs(3)).is_ok_and(|n| n > 1000));
        let said = expanded_size(&laughs(9)).unwrap_err();
        assert!(said.contains("elements with its <use>s expanded"), "{said}");
        // A cycle counts once, as usvg draws it.
        let cycle = r##"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><g id="a"><use href="#a"/></g></svg>"##;
        assert_eq!(expanded_size(cycle), Ok(3));
        let deep = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{}{}</svg>"#,
            "<g>".repeat(300),
            "</g>".repeat(300)
        );
        assert!(expanded_size(&deep).unwrap_err().contains("nested"));
    }

    #[test]
    fn a_figure_is_drawn_only_within_its_time() {
        let text = r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="5" height="5"/></svg>"#;
        let options = usvg::Options::default();
        let svg = Svg {
            tree: usvg::Tree::from_str(text, &options).unwrap(),
        };
        assert!(svg.rgba(9, 9).is_ok());
        // Its time already past: not drawn.
        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap();
        let said = svg.rgba_by(9, 9, past).unwrap_err();
        assert!(said.contains("to draw"), "{said}");
    }

    #[test]
    fn drawn_node_by_node_it_is_the_same_picture() {
        let text = r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><g transform="translate(5,2) scale(2)"><rect x="1" y="1" width="4" height="3" fill="red"/><g opacity="0.5"><circle cx="10" cy="4" r="3" fill="blue"/></g><g transform="rotate(10)"><path d="M0 7 L15 7" stroke="green"/><text x="2" y="8" font-size="4">ab</text></g></g><rect x="30" y="10" width="5" height="5" stroke="black" fill="none"/></svg>"#;
        let options = usvg::Options::default();
        let tree = usvg::Tree::from_str(text, &options).unwrap();
        let mut whole = resvg::tiny_skia::Pixmap::new(80, 40).unwrap();
        let scale = resvg::tiny_skia::Transform::from_scale(2.0, 2.0);
        resvg::render(&tree, scale, &mut whole.as_mut());
        let svg = Svg { tree };
        let ours = svg.rgba(80, 40).unwrap();
        let theirs: Vec<u8> = whole
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        let apart: Vec<(usize, u8, u8)> = ours
            .iter()
            .zip(&theirs)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (i, *a, *b))
            .collect();
        assert!(
            apart.is_empty(),
            "{} apart: {:?}",
            apart.len(),
            &apart[..apart.len().min(20)]
        );
    }
}
