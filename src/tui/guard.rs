//! What the main loop, the terminal reader's thread, the signal thread
//! and the panic hook share about the terminal and the end of the
//! process: one object, made by the reader and handed to each (no
//! process-wide statics), so that whatever way the reader ends, the one
//! that ends it knows what to give back.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// What the signal thread does last when it ends the process itself: the
/// writes still held kept aside (a line to print, if any).
type Rescue = Box<dyn Fn() -> Option<String> + Send + Sync>;

#[derive(Default)]
pub struct Guard {
    /// Whether the terminal is ours (raw mode, alternate screen), and
    /// whether the mouse is captured: what the signal thread must know to
    /// give the terminal back and take it again, whatever the loop does.
    pub(super) taken: AtomicBool,
    pub(super) mouse: AtomicBool,
    /// The terminal was to be taken while this process was in the
    /// background (`bg`, `lectern &`): it is taken once the process is in
    /// the foreground again, which `fg` of a running job does not signal.
    pub(super) owed: AtomicBool,
    /// Held while a frame is written, and by the signal thread from giving
    /// the terminal back to taking it again, so no frame lands on the
    /// shell's screen in between.
    writing: Mutex<()>,
    /// Set once the process is ending: the terminal is not taken again.
    pub(super) ending: AtomicBool,
    /// The main loop has left its loop: what follows is the orderly end
    /// (progress written, the journal told), which a signal must not cut.
    leaving: AtomicBool,
    /// The signal that asked the reader to quit, if one did.
    ended_by: AtomicI32,
    rescue: OnceLock<Rescue>,
    /// Whether `q` quits from what is on screen now (the page, no prompt
    /// or overlay): told by the main loop after each event it handles.
    q_quits: AtomicBool,
    /// Milliseconds (of `clock`) since which the main loop has been busy
    /// with one event, or 0 while it waits for the next.
    busy_since: AtomicU64,
    start: OnceLock<Instant>,
    /// The terminal under its own file, once opened (its modes, its
    /// keys' relay).
    tty: OnceLock<Option<super::tty::Tty>>,
    /// The learner's editor has the terminal: the terminal's reader
    /// leaves its keys alone, and Ctrl-C there is the editor's.
    editing: AtomicBool,
    /// The terminal's reader has seen `editing` and stopped reading.
    reader_waits: AtomicBool,
}

impl Guard {
    /// The terminal, opened the first time it is asked for.
    pub(super) fn tty(&self) -> Option<&super::tty::Tty> {
        self.tty
            .get_or_init(|| super::tty::Tty::open().ok())
            .as_ref()
    }

    /// The terminal if it was opened (a restore opens nothing).
    pub(super) fn tty_if_open(&self) -> Option<&super::tty::Tty> {
        self.tty.get().and_then(Option::as_ref)
    }

    pub(super) fn writing(&self) -> MutexGuard<'_, ()> {
        self.writing.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The lock, unless a frame has been stuck in its write for a while (a
    /// terminal that stopped reading): the signal thread goes ahead
    /// without.
    pub(super) fn writing_within(&self, wait: Duration) -> Option<MutexGuard<'_, ()>> {
        let start = Instant::now();
        loop {
            match self.writing.try_lock() {
                Ok(g) => return Some(g),
                Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => return None,
            }
        }
    }

    /// Whether the terminal is owed a taking (see `owed`), cleared.
    pub fn owed(&self) -> bool {
        self.owed.swap(false, Ordering::SeqCst)
    }

    /// The main loop has left its loop (see `leaving`).
    pub fn leave(&self) {
        self.leaving.store(true, Ordering::SeqCst);
    }

    pub(super) fn is_leaving(&self) -> bool {
        self.leaving.load(Ordering::SeqCst)
    }

    pub(super) fn ended_by(&self, sig: i32) {
        self.ended_by.store(sig, Ordering::SeqCst);
    }

    /// The exit status owed to the signal that ended the reader, if one
    /// did: 128 + the signal, as a shell expects of a process it ends.
    pub fn signal_status(&self) -> Option<u8> {
        match self.ended_by.load(Ordering::SeqCst) {
            0 => None,
            sig => u8::try_from(128 + sig).ok(),
        }
    }

    /// Sets what the signal thread does before it exits on its own.
    pub fn on_forced_exit(&self, rescue: impl Fn() -> Option<String> + Send + Sync + 'static) {
        let _ = self.rescue.set(Box::new(rescue));
    }

    pub(super) fn rescue(&self) -> Option<String> {
        self.rescue.get().and_then(|rescue| rescue())
    }

    /// The main loop starts on an event (`true`) or waits for the next,
    /// and whether `q` quits from its screen now.
    pub fn busy(&self, on: bool, q_quits: bool) {
        let since = if on { self.clock() } else { 0 };
        self.busy_since.store(since, Ordering::SeqCst);
        self.q_quits.store(q_quits, Ordering::SeqCst);
    }

    pub(super) fn q_quits(&self) -> bool {
        self.q_quits.load(Ordering::SeqCst)
    }

    /// How long the main loop has been busy with one event (zero while it
    /// waits).
    pub(super) fn busy_for(&self) -> Duration {
        match self.busy_since.load(Ordering::SeqCst) {
            0 => Duration::ZERO,
            since => Duration::from_millis(self.clock().saturating_sub(since)),
        }
    }

    /// The editor takes the terminal (`true`) or gives it back. Taking
    /// it waits, a little, for the terminal's reader to stop reading, so
    /// that no key meant for the editor is read here.
    pub(super) fn editing(&self, on: bool) {
        self.reader_waits.store(false, Ordering::SeqCst);
        self.editing.store(on, Ordering::SeqCst);
        let start = Instant::now();
        while on && !self.reader_waits.load(Ordering::SeqCst) {
            // The reader polls a quarter of a second at a time; one that
            // never started never answers.
            if start.elapsed() > Duration::from_millis(400) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub(super) fn is_editing(&self) -> bool {
        self.editing.load(Ordering::SeqCst)
    }

    /// The terminal's reader, told to stop: it says it has.
    pub(super) fn reader_waiting(&self) {
        self.reader_waits.store(true, Ordering::SeqCst);
    }

    fn clock(&self) -> u64 {
        let start = *self.start.get_or_init(Instant::now);
        // Never 0, which means idle.
        u64::try_from(start.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }
}
