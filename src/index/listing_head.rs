//! A large folder's listing as last seen, with only its head read: what a
//! first frame needs before the whole listing is decoded.

use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use super::listing_file;
use crate::loader;
use crate::model::{Course, LessonEntry};

/// See [`super::Index::peek`].
pub struct Snapshot {
    /// The listing's file.
    pub(super) path: PathBuf,
    pub dir: PathBuf,
    pub(super) file: std::fs::File,
    pub(super) body_at: u64,
    pub(super) size: u64,
    pub heads: Vec<listing_file::Head>,
}

impl Snapshot {
    /// Lesson `slug` of course `course` (its first for `None`), with its
    /// place in the course. A record that does not check out (the head was
    /// checked when peeked) is no reason to stop: the listing is dropped,
    /// to be written again, and the folder's files say where the lesson is.
    pub fn find(&self, course: usize, slug: Option<&str>) -> Option<(usize, LessonEntry)> {
        let found = listing_file::find(self.heads.get(course)?, slug)?;
        match self.record(&found) {
            Some(entry) => Some((found.place, entry)),
            None => {
                listing_file::remove(&self.path);
                self.find_in_files(course, slug)
            }
        }
    }

    fn record(&self, found: &listing_file::Found) -> Option<LessonEntry> {
        let range = &found.range;
        // A damaged head must not ask for more than the file holds.
        if self.body_at + range.end as u64 > self.size {
            return None;
        }
        let mut record = vec![0; range.len()];
        let mut file = &self.file;
        file.seek(SeekFrom::Start(self.body_at + range.start as u64))
            .ok()?;
        file.read_exact(&mut record).ok()?;
        listing_file::lesson_at(&record, found, &self.dir)
    }

    fn find_in_files(&self, course: usize, slug: Option<&str>) -> Option<(usize, LessonEntry)> {
        let courses = loader::scan_dir(&self.dir).ok()?;
        let want = &self.heads.get(course)?.slug;
        let c = courses
            .iter()
            .find(|c| &c.slug == want)
            .or_else(|| courses.iter().max_by_key(|c| c.lessons.len()))?;
        let place = match slug {
            Some(slug) => c.index_of(slug)?,
            None => 0,
        };
        Some((place, c.lessons.get(place)?.clone()))
    }

    /// The whole listing (read again from its file, which is replaced,
    /// never rewritten, so it is the same one).
    pub fn decode(&self) -> Option<Vec<Course>> {
        let mut bytes = Vec::new();
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0)).ok()?;
        file.read_to_end(&mut bytes).ok()?;
        listing_file::decode(&bytes, &self.dir)
    }
}
