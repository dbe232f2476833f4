//! The page's pictures: which are drawn, which are on their way, and
//! which could not be. A picture is asked for only when it is near the
//! screen (a lesson of thousands decodes the few it shows), a few at a
//! time, and kept drawn up to a bound. How they are drawn (half blocks or
//! a terminal's graphics protocol) is [`Drawing`], from the settings and
//! the terminal's answer to the start-up query.

use super::{Effect, State};
use crate::layout::PicturePlace;
use crate::model::{Drawn, Graphics, PictureKey, Protocol};
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

/// Pictures decoding at once: each holds one decoded file in memory, so
/// one, and the peak is what the decoder needs for one picture.
const IN_FLIGHT: usize = 1;
/// Drawings kept (a few kilobytes each in half blocks).
const KEPT: usize = 256;
/// The bytes of drawings kept (a graphic is a PNG or sixels of its cells'
/// pixels: tens to hundreds of kilobytes).
const KEPT_BYTES: usize = 64 << 20;

/// How the page's pictures are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Drawing {
    /// In half blocks.
    #[default]
    Cells,
    /// The terminal is being asked what it can draw: pictures wait for
    /// its answer (a moment after the first frame).
    Asking,
    /// With a graphics protocol (half blocks where it cannot draw one).
    Graphics(Graphics),
}

#[derive(Debug, Default)]
pub struct Pictures {
    slots: HashMap<PictureKey, Slot>,
    /// What the drawings ready hold, in bytes.
    held: usize,
    /// Names kitty's pictures: random to this process, so that two
    /// readers in two tmux panes of one terminal do not share names.
    ids: std::collections::hash_map::RandomState,
}

#[derive(Debug)]
enum Slot {
    Asked,
    Ready(Arc<Drawn>),
    /// Shown as its words; why, for the footer when it is opened.
    Failed(String),
}

impl Pictures {
    /// The drawing of `key`, when it is ready.
    pub fn drawn(&self, key: &PictureKey) -> Option<&Arc<Drawn>> {
        match self.slots.get(key) {
            Some(Slot::Ready(d)) => Some(d),
            _ => None,
        }
    }

    /// Why the picture of `key` could not be drawn, if it could not.
    pub fn failed(&self, key: &PictureKey) -> Option<&str> {
        match self.slots.get(key) {
            Some(Slot::Failed(why)) => Some(why),
            _ => None,
        }
    }

    /// The name kitty knows `key`'s picture by: 24 bits (the colour its
    /// cells are written in), never 0.
    pub fn id(&self, key: &PictureKey) -> u32 {
        (self.ids.hash_one(key) as u32 & 0x00ff_ffff).max(1)
    }

    /// A drawing arrived (one asked for: a late one for a page long gone
    /// is kept all the same, as the bound allows).
    pub fn arrived(&mut self, key: PictureKey, drawn: Result<Arc<Drawn>, String>) {
        let bytes = drawn.as_ref().map_or(0, |d| d.bytes());
        if self.slots.len() >= KEPT || self.held + bytes > KEPT_BYTES {
            self.slots.retain(|_, s| matches!(s, Slot::Asked));
            self.held = 0;
        }
        let slot = match drawn {
            Ok(d) => Slot::Ready(d),
            Err(why) => Slot::Failed(why),
        };
        self.held += bytes;
        if let Some(Slot::Ready(old)) = self.slots.insert(key, slot) {
            self.held = self.held.saturating_sub(old.bytes());
        }
    }

    fn in_flight(&self) -> usize {
        self.slots
            .values()
            .filter(|s| matches!(s, Slot::Asked))
            .count()
    }
}

/// Which drawing a place on the page shows, drawn as `drawing` says: a
/// graphic only where its protocol can place it (kitty numbers at most
/// 297 rows and columns).
pub fn key_of(place: &PicturePlace, drawing: Drawing) -> PictureKey {
    let graphics = match drawing {
        Drawing::Graphics(g) if g.protocol != Protocol::Kitty => Some(g),
        Drawing::Graphics(g) => {
            let most = crate::graphics::kitty::most();
            (place.cols <= most && place.rows <= most).then_some(g)
        }
        _ => None,
    };
    PictureKey {
        path: Arc::clone(&place.path),
        cols: place.cols,
        rows: place.rows,
        graphics,
    }
}

/// The pictures whose rows are within a screen of the screen (above or
/// below), in page order.
pub fn near(
    places: &[PicturePlace],
    top: usize,
    rows: usize,
) -> impl Iterator<Item = &PicturePlace> {
    let (from, to) = (top.saturating_sub(rows), top + 2 * rows);
    let first = places.partition_point(|p| p.line + usize::from(p.rows) <= from);
    places[first..].iter().take_while(move |p| p.line < to)
}

/// Asks for the pictures near the screen not drawn yet.
pub fn ask_near(s: &mut State, fx: &mut Vec<Effect>) {
    if !s.prefs.pictures || s.prefs.drawing == Drawing::Asking {
        return;
    }
    let rows = s.geometry().rows();
    let drawing = s.prefs.drawing;
    let r = &mut s.reader;
    let Some(doc) = r.page.doc() else { return };
    let mut free = IN_FLIGHT.saturating_sub(r.pictures.in_flight());
    for place in near(doc.pictures(), r.top, rows) {
        if free == 0 {
            break;
        }
        let key = key_of(place, drawing);
        if !r.pictures.slots.contains_key(&key) {
            r.pictures.slots.insert(key.clone(), Slot::Asked);
            fx.push(Effect::DrawPicture(key));
            free -= 1;
        }
    }
}

/// The terminal said how it draws pictures (or the settings did).
pub fn drawing(s: &mut State, drawing: Drawing) {
    s.prefs.drawing = drawing;
}

/// `O`: the picture on screen opened in the system's viewer, or why not.
pub fn open(s: &mut State, fx: &mut Vec<Effect>) {
    match on_screen(s) {
        Some(place) => fx.push(Effect::OpenPicture(place.path.to_path_buf())),
        None => s.notice = Some(NO_PICTURE.into()),
    }
}

const NO_PICTURE: &str = "No picture on screen to open (O opens the one shown).";

/// The picture on screen to open in the system's viewer: the first whose
/// rows are on it.
fn on_screen(s: &State) -> Option<&PicturePlace> {
    let doc = s.reader.doc()?;
    let rows = s.geometry().rows();
    let top = s.reader.top;
    doc.pictures()
        .iter()
        .find(|p| p.line + usize::from(p.rows) > top && p.line < top + rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(line: usize) -> PicturePlace {
        PicturePlace {
            line,
            indent: 0,
            cols: 10,
            rows: 5,
            path: Arc::new(format!("{line}.png").into()),
        }
    }

    #[test]
    fn only_pictures_near_the_screen_are_near() {
        let places: Vec<_> = (0..1000).map(|i| place(i * 10)).collect();
        let lines: Vec<usize> = near(&places, 5000, 20).map(|p| p.line).collect();
        // From a screen above (4980) to two below (5040).
        assert_eq!(lines, [4980, 4990, 5000, 5010, 5020, 5030]);
    }

    #[test]
    fn a_graphic_is_asked_for_only_where_its_protocol_places_it() {
        let g = Graphics {
            protocol: Protocol::Kitty,
            cell: (8, 16),
        };
        let p = place(0);
        assert_eq!(key_of(&p, Drawing::Graphics(g)).graphics, Some(g));
        assert_eq!(key_of(&p, Drawing::Cells).graphics, None);
        let wide = PicturePlace { cols: 400, ..p };
        assert_eq!(key_of(&wide, Drawing::Graphics(g)).graphics, None);
        let sixel = Graphics {
            protocol: Protocol::Sixel,
            ..g
        };
        assert_eq!(
            key_of(&wide, Drawing::Graphics(sixel)).graphics,
            Some(sixel)
        );
        // Ids: steady, 24 bits, apart for apart pictures.
        let pics = Pictures::default();
        let (a, b) = (
            key_of(&place(0), Drawing::Cells),
            key_of(&place(10), Drawing::Cells),
        );
        assert_eq!(pics.id(&a), pics.id(&a));
        assert_ne!(pics.id(&a), pics.id(&b));
        assert!(pics.id(&a) <= 0x00ff_ffff && pics.id(&a) > 0);
    }
}
