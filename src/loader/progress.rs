//! A count of lesson files read, shown on stderr while a large folder is
//! read for the first time (100,000 lessons: seconds with nothing on the
//! screen otherwise). Nothing is shown for the first quarter second, so a
//! small course, or one read from its listing, prints nothing at all;
//! and nothing at all unless stderr is a terminal. The line is cleared
//! when the reading ends, before the reader takes the screen or lint
//! prints its findings.
//!
//! The count is kept where lessons are read ([`tick`], once per file) and
//! shown from there: no thread to start, and on a small course the cost
//! is one relaxed atomic add per lesson.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a reading goes unannounced, and how often the count changes.
const QUIET: Duration = Duration::from_millis(250);
const EVERY: Duration = Duration::from_millis(100);

static READ: AtomicUsize = AtomicUsize::new(0);
static ARMED: AtomicBool = AtomicBool::new(false);
static SHOWN: Mutex<Option<Showing>> = Mutex::new(None);

struct Showing {
    what: &'static str,
    base: usize,
    since: Instant,
    last: Option<Instant>,
}

/// One lesson file read.
pub fn tick() {
    let n = READ.fetch_add(1, Ordering::Relaxed) + 1;
    // Checking the clock every 64 files: a few microseconds' worth.
    if ARMED.load(Ordering::Relaxed) && n.is_multiple_of(64) {
        show(n);
    }
}

fn show(n: usize) {
    let mut shown = SHOWN.lock().unwrap_or_else(|p| p.into_inner());
    let Some(s) = shown.as_mut() else { return };
    let now = Instant::now();
    if now.duration_since(s.since) < QUIET || s.last.is_some_and(|t| now.duration_since(t) < EVERY)
    {
        return;
    }
    s.last = Some(now);
    let line = line(s.what, n - s.base);
    let _ = std::io::stderr().write_all(format!("\r\x1b[K{line}").as_bytes());
}

/// What the count says.
fn line(what: &str, n: usize) -> String {
    let lessons = if n == 1 { "lesson" } else { "lessons" };
    format!("lectern: {what}… {n} {lessons}")
}

/// Shows the count, as `lectern: WHAT… N lessons`, until the guard is
/// dropped; nothing when stderr is not a terminal.
pub fn on_stderr(what: &'static str) -> Counting {
    let armed = std::io::stderr().is_terminal();
    if armed {
        *SHOWN.lock().unwrap_or_else(|p| p.into_inner()) = Some(Showing {
            what,
            base: READ.load(Ordering::Relaxed),
            since: Instant::now(),
            last: None,
        });
        ARMED.store(true, Ordering::Relaxed);
    }
    Counting { armed }
}

/// Clears the count's line if one is shown: for a process ended by a
/// signal while it reads.
pub fn abandon() {
    ARMED.store(false, Ordering::Relaxed);
    let shown = SHOWN.try_lock().ok().and_then(|mut s| s.take());
    if shown.is_some_and(|s| s.last.is_some()) {
        let _ = std::io::stderr().write_all(b"\r\x1b[K");
    }
}

/// While it lives, lessons read are counted on stderr.
pub struct Counting {
    armed: bool,
}

impl Drop for Counting {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        ARMED.store(false, Ordering::Relaxed);
        let showing = SHOWN.lock().unwrap_or_else(|p| p.into_inner()).take();
        if showing.is_some_and(|s| s.last.is_some()) {
            let _ = std::io::stderr().write_all(b"\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_count_reads_as_a_sentence() {
        assert_eq!(
            super::line("reading the course", 1),
            "lectern: reading the course… 1 lesson"
        );
        assert_eq!(super::line("checking", 12), "lectern: checking… 12 lessons");
    }
}
