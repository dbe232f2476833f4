//! The one place lectern's allocations pass through: the system allocator,
//! with what to do when it fails. Rust's own answer to a failed allocation
//! is to print a line and abort, which in the reader left the terminal in
//! the alternate screen with echo off (the shell unusable until `reset`).
//! Every expansion is budgeted so that no input should reach this; if one
//! does, the terminal is given back first, one line says what happened,
//! and the process exits with a status instead of aborting.
//!
//! Stable Rust has no allocation-error hook (`set_alloc_error_hook` is
//! unstable), hence a wrapper of `System`; it is the crate's only unsafe
//! code, the four calls `GlobalAlloc` requires, each passed straight on.
#![allow(unsafe_code)]

// The allocator underneath: the C library's, but on musl, whose
// allocator is slow for the many small allocations of a page's layout
// (a musl build's first frame was no faster than glibc's with it, and
// 0.4 ms faster with mimalloc: BENCHMARKS.md, "a musl build").
#[cfg(target_env = "musl")]
use mimalloc::MiMalloc as System;
#[cfg(not(target_env = "musl"))]
use std::alloc::System;
use std::alloc::{GlobalAlloc, Layout};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// `System`, with `failed` (below) on a failure.
pub struct Guarded;

static ON_FAILURE: OnceLock<fn()> = OnceLock::new();
static FAILING: AtomicBool = AtomicBool::new(false);

/// What to do before the process ends on a failed allocation: give back
/// the terminal. It may allocate a little (a failed request is nearly
/// always a huge one); a failure inside it ends at once.
pub fn on_failure(f: fn()) {
    let _ = ON_FAILURE.set(f);
}

/// The exit status of a process that ran out of memory (EX_SOFTWARE).
const STATUS: i32 = 70;

#[cold]
fn failed(size: usize) -> ! {
    if !FAILING.swap(true, Ordering::SeqCst) {
        if let Some(f) = ON_FAILURE.get() {
            f();
        }
    }
    // No allocation from here on: the line is put together on the stack.
    let mut line = [0u8; 96];
    let head = b"lectern: out of memory (";
    let tail = b" bytes asked for at once)\n";
    let mut n = 0;
    for &b in head {
        line[n] = b;
        n += 1;
    }
    let mut digits = [0u8; 20];
    let mut d = 0;
    let mut v = size;
    loop {
        digits[d] = b'0' + (v % 10) as u8;
        d += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    while d > 0 {
        d -= 1;
        line[n] = digits[d];
        n += 1;
    }
    for &b in tail {
        line[n] = b;
        n += 1;
    }
    #[cfg(unix)]
    let _ = rustix::io::write(std::os::fd::AsFd::as_fd(&std::io::stderr()), &line[..n]);
    #[allow(clippy::exit, reason = "inside the allocator nothing else can end it")]
    std::process::exit(STATUS)
}

// SAFETY: every call is passed to `System` with the same arguments; a null
// it returns never comes back (the process ends in `failed`).
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's contract with `alloc`.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            failed(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's contract with `alloc_zeroed`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            failed(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's contract with `dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller's contract with `realloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            failed(new_size);
        }
        p
    }
}
