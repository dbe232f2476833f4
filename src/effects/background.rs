//! Threads for work on the side: highlighting, checking folders, indexing,
//! opening the store once the lesson is up. They give way to everything
//! else. On two cores, a busy side thread next to the reader's own would
//! otherwise hold up the terminal that is drawing the reader's frame:
//! first frames measured 2.0 ms with a long tail to 3.5 ms at normal
//! priority, and 2.0 ms with no tail at the lowest.

use std::thread::JoinHandle;

/// Runs `work` on a new thread at the lowest priority.
pub fn spawn<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> JoinHandle<T> {
    std::thread::spawn(move || {
        lower_priority();
        work()
    })
}

/// Runs `work` on a new thread at normal priority, for work that
/// something on screen is waiting for.
pub fn spawn_awaited<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> JoinHandle<T> {
    std::thread::spawn(work)
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    // A thread's own nice value (on Linux it is per thread). Failing only
    // leaves it at normal priority.
    let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}
