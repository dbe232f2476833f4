//! The page's pictures: which are drawn, which are on their way, and
//! which could not be. A picture is asked for only when it is near the
//! screen (a lesson of thousands decodes the few it shows), a few at a
//! time, and kept drawn up to a bound.

use super::{Effect, State};
use crate::layout::PicturePlace;
use crate::model::{Drawn, PictureKey};
use std::collections::HashMap;
use std::sync::Arc;

/// Pictures decoding at once: each holds one decoded file in memory, so
/// one, and the peak is what the decoder needs for one picture.
const IN_FLIGHT: usize = 1;
/// Drawings kept (a few kilobytes each: a picture's cells, not its file).
const KEPT: usize = 256;

#[derive(Debug, Default)]
pub struct Pictures {
    slots: HashMap<PictureKey, Slot>,
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

    /// A drawing arrived (one asked for: a late one for a page long gone
    /// is kept all the same, as the bound allows).
    pub fn arrived(&mut self, key: PictureKey, drawn: Result<Arc<Drawn>, String>) {
        if self.slots.len() >= KEPT {
            self.slots.retain(|_, s| matches!(s, Slot::Asked));
        }
        let slot = match drawn {
            Ok(d) => Slot::Ready(d),
            Err(why) => Slot::Failed(why),
        };
        self.slots.insert(key, slot);
    }

    fn in_flight(&self) -> usize {
        self.slots
            .values()
            .filter(|s| matches!(s, Slot::Asked))
            .count()
    }
}

/// Which drawing a place on the page shows.
pub fn key_of(place: &PicturePlace) -> PictureKey {
    PictureKey {
        path: Arc::clone(&place.path),
        cols: place.cols,
        rows: place.rows,
    }
}

/// The pictures whose rows are within a screen of the screen (above or
/// below), in page order.
fn near(places: &[PicturePlace], top: usize, rows: usize) -> impl Iterator<Item = &PicturePlace> {
    let (from, to) = (top.saturating_sub(rows), top + 2 * rows);
    let first = places.partition_point(|p| p.line + usize::from(p.rows) <= from);
    places[first..].iter().take_while(move |p| p.line < to)
}

/// Asks for the pictures near the screen not drawn yet.
pub fn ask_near(s: &mut State, fx: &mut Vec<Effect>) {
    if !s.prefs.pictures {
        return;
    }
    let rows = s.geometry().rows();
    let r = &mut s.reader;
    let Some(doc) = r.page.doc() else { return };
    let mut free = IN_FLIGHT.saturating_sub(r.pictures.in_flight());
    for place in near(doc.pictures(), r.top, rows) {
        if free == 0 {
            break;
        }
        let key = key_of(place);
        if !r.pictures.slots.contains_key(&key) {
            r.pictures.slots.insert(key.clone(), Slot::Asked);
            fx.push(Effect::DrawPicture(key));
            free -= 1;
        }
    }
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
}
