//! Lesson files read, as they are read: a [`Progress`] is handed to what
//! reads a folder, which ticks it once per file; whoever made it is told
//! the count so far.
//!
//! The one listener lectern has is the count on stderr ([`on_stderr`]),
//! shown while a large folder is read for the first time (100,000
//! lessons: seconds with nothing on the screen otherwise). Nothing is
//! shown for the first quarter second, so a small course, or one read
//! from its listing, prints nothing at all; and nothing at all unless
//! stderr is a terminal. The line is cleared when the reading ends,
//! before the reader takes the screen or lint prints its findings.
//!
//! The count is shown from where lessons are read: no thread to start,
//! and on a small course the cost is one relaxed atomic add and one call
//! per lesson.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a reading goes unannounced, and how often the count changes.
const QUIET: Duration = Duration::from_millis(250);
const EVERY: Duration = Duration::from_millis(100);

/// Lesson files read so far, told to a callback at each one.
pub struct Progress<'a> {
    read: AtomicUsize,
    tell: Box<dyn Fn(usize) + Sync + 'a>,
}

impl<'a> Progress<'a> {
    /// `tell` hears the count after each file, from 1 up.
    pub fn new(tell: impl Fn(usize) + Sync + 'a) -> Progress<'a> {
        Progress {
            read: AtomicUsize::new(0),
            tell: Box::new(tell),
        }
    }

    /// For a reading no one watches.
    pub fn none() -> Progress<'static> {
        Progress::new(|_| {})
    }

    /// One lesson file read.
    pub fn tick(&self) {
        let n = self.read.fetch_add(1, Ordering::Relaxed) + 1;
        (self.tell)(n);
    }
}

/// Whether stderr's count line is in use, and drawn: the process has one
/// stderr, and a signal that ends the process mid-reading must clear the
/// line ([`abandon`]) without reaching the reading's [`Counting`].
static LINE: AtomicU8 = AtomicU8::new(OFF);
const OFF: u8 = 0;
const ARMED: u8 = 1;
const DRAWN: u8 = 2;

/// Shows the count, as `lectern: WHAT… N lessons`, while the guard lives
/// and the progress it derefs to is ticked; nothing when stderr is not a
/// terminal.
pub fn on_stderr(what: &'static str) -> Counting {
    if !std::io::stderr().is_terminal() {
        return Counting {
            armed: false,
            progress: Progress::none(),
        };
    }
    LINE.store(ARMED, Ordering::Relaxed);
    let since = Instant::now();
    let last: Mutex<Option<Instant>> = Mutex::new(None);
    Counting {
        armed: true,
        progress: Progress::new(move |n| {
            // Checking the clock every 64 files: a few microseconds' worth.
            if n.is_multiple_of(64) {
                show(what, n, since, &last);
            }
        }),
    }
}

fn show(what: &str, n: usize, since: Instant, last: &Mutex<Option<Instant>>) {
    if LINE.load(Ordering::Relaxed) == OFF {
        return;
    }
    let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
    let now = Instant::now();
    if now.duration_since(since) < QUIET || last.is_some_and(|t| now.duration_since(t) < EVERY) {
        return;
    }
    *last = Some(now);
    let line = line(what, n);
    let _ = std::io::stderr().write_all(format!("\r\x1b[K{line}").as_bytes());
    let _ = LINE.compare_exchange(ARMED, DRAWN, Ordering::Relaxed, Ordering::Relaxed);
}

/// What the count says.
fn line(what: &str, n: usize) -> String {
    let lessons = if n == 1 { "lesson" } else { "lessons" };
    format!("lectern: {what}… {n} {lessons}")
}

/// Clears the count's line if one is shown: for a process ended by a
/// signal while it reads.
pub fn abandon() {
    clear();
}

/// The line off, and wiped if a count was drawn on it.
fn clear() {
    if LINE.swap(OFF, Ordering::Relaxed) == DRAWN {
        let _ = std::io::stderr().write_all(b"\r\x1b[K");
    }
}

/// While it lives, lessons ticked on its progress are counted on stderr:
/// a guard, handed to the reading as the [`Progress`] it holds.
pub struct Counting {
    armed: bool,
    progress: Progress<'static>,
}

impl std::ops::Deref for Counting {
    type Target = Progress<'static>;

    fn deref(&self) -> &Progress<'static> {
        &self.progress
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        if self.armed {
            clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;
    use std::sync::Mutex;

    #[test]
    fn the_count_reads_as_a_sentence() {
        assert_eq!(
            super::line("reading the course", 1),
            "lectern: reading the course… 1 lesson"
        );
        assert_eq!(super::line("checking", 12), "lectern: checking… 12 lessons");
    }

    #[test]
    fn the_callback_hears_every_file_in_turn() {
        let heard = Mutex::new(Vec::new());
        let progress = Progress::new(|n| heard.lock().unwrap().push(n));
        for _ in 0..3 {
            progress.tick();
        }
        drop(progress);
        assert_eq!(heard.into_inner().unwrap(), [1, 2, 3]);
    }
}
