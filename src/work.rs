//! Work counted rather than timed, for the tests of scaling (4x the input,
//! about 4x the work): code that must stay linear adds what it looks at,
//! and a test reads how much `f` made it look at. A busy machine changes a
//! time, never a count. Only in test builds.

use std::cell::Cell;

thread_local! {
    static DONE: Cell<usize> = const { Cell::new(0) };
}

/// `n` more units of work (bytes measured, bytes scanned) on this thread.
pub(crate) fn add(n: usize) {
    DONE.with(|d| d.set(d.get() + n));
}

/// The units of work `f` does on this thread.
pub(crate) fn of(f: impl FnOnce()) -> usize {
    let before = DONE.with(Cell::get);
    f();
    DONE.with(Cell::get) - before
}
