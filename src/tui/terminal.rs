//! The only code that touches raw mode, the alternate screen, mouse
//! capture and the cursor. Whatever way the reader ends (quit, error,
//! panic, signal), the terminal is given back as it was found.

use super::guard::Guard;
use ratatui::crossterm::event::DisableMouseCapture;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode,
};
use ratatui::crossterm::{cursor, execute, queue};
use ratatui::layout::Rect;
use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard, Once};
use std::time::Duration;

/// The largest screen drawn: a resize to 65535x65535 would ask for two
/// buffers of 4 billion cells (206 GB), and an allocation failure aborts
/// without a panic hook to restore the terminal. No real terminal is this
/// large; a bigger one is drawn in its top-left corner.
pub const MAX_COLS: u16 = 1000;
pub const MAX_ROWS: u16 = 500;

fn clamp(w: u16, h: u16) -> Rect {
    Rect::new(0, 0, w.min(MAX_COLS), h.min(MAX_ROWS))
}

/// ratatui's crossterm backend, with cells written faster (`super::cells`).
pub type Backend = super::cells::Cells<FrameOut>;

/// Collects a frame and writes it to stdout in one go when ratatui
/// flushes, not in pieces of stdout's line buffer. What is never flushed
/// (a panic mid-frame) is dropped, not written over the restored screen.
pub struct FrameOut {
    buf: Vec<u8>,
    guard: Arc<Guard>,
    /// While set, flushes wait: a frame with its pictures is written in
    /// one go (see [`Term::hold`]).
    hold: Arc<std::sync::atomic::AtomicBool>,
}

impl Write for FrameOut {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.hold.load(Ordering::SeqCst) {
            return Ok(());
        }
        let _writing = self.guard.writing();
        if !foreground() {
            // Continued in the background (`bg`): the shell has the screen.
            // The SIGCONT of `fg` redraws everything.
            self.buf.clear();
            return Ok(());
        }
        let mut out = io::stdout().lock();
        let written = out.write_all(&self.buf);
        self.buf.clear();
        written?;
        out.flush()
    }
}

/// Steps aside for a moment after a frame is written, before work that
/// follows it: the frame reaches the terminal through kernel work queued
/// on this CPU, and the terminal then needs a CPU to draw it, which on two
/// cores the reader's next steps (laying out the rest of the page,
/// reading the folder, opening the store) would hold up. Measured in a
/// pseudo-terminal against `less`: going straight on, 1.0-1.2x; yielding
/// the CPU once, 0.9-1.05x; pausing 50 us, 0.89-0.93x and a shorter tail.
pub fn let_frame_show() {
    std::thread::sleep(std::time::Duration::from_micros(50));
}

pub struct Term {
    pub terminal: ratatui::Terminal<Backend>,
    /// What the terminal holds of the pictures.
    pub graphics: super::graphics::Screen,
    /// Shared with the frame's writer: see [`Term::hold`].
    hold: Arc<std::sync::atomic::AtomicBool>,
    mouse: bool,
    area: Rect,
    guard: Arc<Guard>,
    /// Signals are caught on their own thread (Ctrl-Z goes through it).
    pub caught: bool,
    /// Nothing drawn since the screen was cleared on entering.
    blank: bool,
}

/// Mouse capture with button-event tracking: clicks, the wheel and drags
/// (`?1000h`, `?1002h`) in SGR coordinates (`?1006h`), but not every
/// movement of the mouse (`?1003h`, which crossterm's EnableMouseCapture
/// asks for and which makes each move an event to read and drop).
struct ButtonMouse(bool);

impl ratatui::crossterm::Command for ButtonMouse {
    fn write_ansi(&self, f: &mut impl std::fmt::Write) -> std::fmt::Result {
        f.write_str(if self.0 {
            "\x1b[?1000h\x1b[?1002h\x1b[?1006h"
        } else {
            "\x1b[?1006l\x1b[?1002l\x1b[?1000l"
        })
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether this process group owns the terminal. One continued in the
/// background (`bg`, or the SIGCONT that follows `kill %1`) must not
/// change its modes: the kernel would stop it with SIGTTOU, for good each
/// time the call is retried, so that a suspended reader could not be
/// ended but by SIGKILL. It gave the terminal back when it was stopped.
#[cfg(unix)]
pub fn foreground() -> bool {
    let Ok(owner) = rustix::termios::tcgetpgrp(rustix::stdio::stdout()) else {
        return true;
    };
    owner == rustix::process::getpgrp()
}

#[cfg(not(unix))]
pub fn foreground() -> bool {
    true
}

/// Puts the terminal back: mouse off, main screen, cursor shown, cooked
/// mode. Safe to call more than once.
pub fn restore(g: &Guard) {
    if !foreground() {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    cooked(g);
}

/// The terminal's modes as they were found; crossterm's own record of
/// raw mode (its keys' pseudo-terminal, once the relay runs) too.
fn cooked(g: &Guard) {
    if let Some(tty) = g.tty_if_open() {
        tty.cooked();
    }
    let _ = disable_raw_mode();
}

/// The signal thread's restore before the process exits: the main loop
/// may be anywhere, even in the middle of writing a frame or of taking
/// the terminal. The lock comes back to be held until the exit, so that
/// no frame (and no taking, which waits on it too) lands after the
/// restore: one did, once in a while, when SIGTERM came as the first
/// frame was drawn.
pub fn restore_from_signal(g: &Guard) -> Option<MutexGuard<'_, ()>> {
    let writing = g.writing_within(Duration::from_millis(100));
    g.ending.store(true, Ordering::SeqCst);
    if g.taken.load(Ordering::SeqCst) {
        give_back_raw(g);
    }
    writing
}

/// [`restore`] written past stdout's lock (the main thread may hold it,
/// stuck in a write), CAN (0x18) first to end an escape sequence cut
/// short, so the restoring ones are read as such.
fn give_back_raw(g: &Guard) {
    if !foreground() {
        return;
    }
    let mut bytes = b"\x18".to_vec();
    let _ = queue!(
        bytes,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = write_raw(&bytes);
    cooked(g);
}

/// Stops the process the way the terminal's own Ctrl-Z would, with the
/// terminal given back first, and takes it again when continued (SIGCONT).
/// The main loop then redraws everything.
#[cfg(unix)]
pub fn stop_from_signal(g: &Guard) {
    let writing = g.writing_within(Duration::from_millis(100));
    let taken = g.taken.load(Ordering::SeqCst);
    if taken {
        give_back_raw(g);
    }
    // SIGSTOP stops every thread until SIGCONT; raise returns then.
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGSTOP);
    if taken && g.taken.load(Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = setup(&mut out, g.mouse.load(Ordering::SeqCst), g).and_then(|_| out.flush());
    }
    drop(writing);
}

/// Bytes straight to stdout's file, past its lock, which the main thread
/// may hold while stuck.
fn write_raw(bytes: &[u8]) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdout().as_fd().try_clone_to_owned()?;
        std::fs::File::from(fd).write_all(bytes)
    }
    #[cfg(not(unix))]
    {
        let _ = bytes;
        Ok(())
    }
}

fn install_panic_hook(guard: &Arc<Guard>) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The allocation-failure hook is a plain `fn`: it finds the guard
        // here, set once, the one thing it needs.
        static FOR_ALLOC_FAILURE: std::sync::OnceLock<Arc<Guard>> = std::sync::OnceLock::new();
        let _ = FOR_ALLOC_FAILURE.set(Arc::clone(guard));
        crate::alloc_guard::on_failure(|| {
            if let Some(g) = FOR_ALLOC_FAILURE
                .get()
                .filter(|g| g.taken.load(Ordering::SeqCst))
            {
                give_back_raw(g);
            }
        });
        let previous = std::panic::take_hook();
        let guard = Arc::clone(guard);
        std::panic::set_hook(Box::new(move |info| {
            // Restore first so the message lands on the normal screen.
            restore(&guard);
            previous(info);
            // Where a panic aborts (the release build), it ends with a
            // status instead: no SIGABRT, no core dump, no "Aborted".
            if cfg!(panic = "abort") {
                #[allow(clippy::exit, reason = "the panic would abort right after")]
                std::process::exit(101);
            }
        }));
    });
}

/// Raw mode now; the screen switch is queued on `out`, to be written when
/// `out` is flushed.
fn setup(out: &mut impl Write, mouse: bool, g: &Guard) -> io::Result<()> {
    if !foreground() {
        g.owed.store(true, Ordering::SeqCst);
        return Ok(());
    }
    let tty = g
        .tty()
        .ok_or_else(|| io::Error::other("no terminal to read keys from"))?;
    tty.raw()?;
    // crossterm's record of raw mode, given back with the terminal.
    #[cfg(unix)]
    if tty.relay().is_some() {
        ratatui::crossterm::terminal::enable_raw_mode()?;
    }
    queue!(out, EnterAlternateScreen, cursor::Hide)?;
    if mouse {
        queue!(out, ButtonMouse(true))?;
    }
    Ok(())
}

impl Term {
    /// The switch to the alternate screen goes out with the first frame,
    /// in the same write.
    pub fn enter(mouse: bool, guard: Arc<Guard>) -> io::Result<Term> {
        install_panic_hook(&guard);
        // Not while the signal thread gives the terminal back for good.
        let writing = guard.writing();
        if guard.ending.load(Ordering::SeqCst) {
            return Err(io::Error::other("the process is ending"));
        }
        let hold = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut out = FrameOut {
            buf: Vec::new(),
            guard: Arc::clone(&guard),
            hold: Arc::clone(&hold),
        };
        if let Err(e) = setup(&mut out, mouse, &guard) {
            restore(&guard);
            return Err(e);
        }
        // A fixed viewport, resized on resize events: a full-screen one asks
        // the terminal its size before every frame, opening /dev/tty each
        // time (≈ 13 us of each frame, three times before the first).
        let size = ratatui::crossterm::terminal::size()
            .map(|(w, h)| clamp(w, h))
            .inspect_err(|_| restore(&guard))?;
        let viewport = ratatui::Viewport::Fixed(size);
        let terminal = ratatui::Terminal::with_options(
            super::cells::Cells::new(out),
            ratatui::TerminalOptions { viewport },
        )
        .inspect_err(|_| restore(&guard))?;
        guard.mouse.store(mouse, Ordering::SeqCst);
        guard.taken.store(true, Ordering::SeqCst);
        drop(writing);
        Ok(Term {
            terminal,
            graphics: super::graphics::Screen::new(std::env::var_os("TMUX").is_some()),
            hold,
            mouse,
            area: size,
            guard,
            caught: false,
            blank: true,
        })
    }

    /// The frame rendered into the terminal's buffer, written: the first
    /// over the blank screen without ratatui's diff (`cells::over_blank`,
    /// the same cells), the others as ratatui writes them.
    pub fn apply(&mut self) -> io::Result<()> {
        if !std::mem::take(&mut self.blank) {
            return self.terminal.apply_buffer().map(|_| ());
        }
        let mut bytes = Vec::with_capacity(16 << 10);
        let cells = super::cells::over_blank(self.terminal.current_buffer_mut());
        super::cells::write_cells(&mut bytes, cells.into_iter())?;
        self.terminal.backend_mut().write_all(&bytes)?;
        // The rest of what `apply_buffer` does after its diff.
        self.terminal.hide_cursor()?;
        self.terminal.swap_buffers();
        ratatui::backend::Backend::flush(self.terminal.backend_mut())
    }

    /// While `on`, what is written to the screen is kept and written in
    /// one go when released (at the next flush).
    pub fn hold(&self, on: bool) {
        self.hold.store(on, Ordering::SeqCst);
    }

    /// One cell's pixels, when the terminal's window size says.
    pub fn cell_pixels(&self) -> Option<(u16, u16)> {
        self.guard.tty_if_open()?.cell_pixels()
    }

    /// The screen's size, as last set.
    pub fn area(&self) -> Rect {
        self.area
    }

    /// Takes the terminal's size: from a resize event, or asked for when
    /// one may have been missed. Whether it changed.
    pub fn resize(&mut self, size: Option<(u16, u16)>) -> io::Result<bool> {
        let (w, h) = match size {
            Some(size) => size,
            None => ratatui::crossterm::terminal::size()?,
        };
        let area = clamp(w, h);
        if area == self.area() {
            return Ok(false);
        }
        self.clear_pictures();
        self.terminal.resize(area)?;
        self.area = area;
        Ok(true)
    }

    /// Every picture the terminal holds deleted (resize, Ctrl-Z, quit).
    fn clear_pictures(&mut self) {
        let mut bytes = Vec::new();
        self.graphics.clear(&mut bytes);
        if !bytes.is_empty() {
            let out = self.terminal.backend_mut();
            let _ = out.write_all(&bytes).and_then(|_| out.flush());
        }
    }

    pub fn set_mouse(&mut self, on: bool) {
        if on != self.mouse {
            let mut out = io::stdout();
            let _ = if on {
                execute!(out, ButtonMouse(true))
            } else {
                execute!(out, ButtonMouse(false))
            };
            self.mouse = on;
            self.guard.mouse.store(on, Ordering::SeqCst);
        }
    }

    /// Ctrl-Z: the same SIGTSTP a shell's `kill -TSTP` sends, so both go
    /// the one way, through the signal thread ([`stop_from_signal`]); the
    /// SIGCONT that wakes us brings the redraw. Without a signal thread the
    /// default action stops us, and the terminal is taken again here.
    pub fn suspend(&mut self, caught: bool) -> io::Result<()> {
        self.clear_pictures();
        if !caught {
            restore(&self.guard);
        }
        #[cfg(unix)]
        signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
        if caught { Ok(()) } else { self.resume() }
    }

    /// Takes the terminal again and redraws everything. Also called on
    /// SIGCONT, since the shell may reset the terminal after waking us.
    pub fn resume(&mut self) -> io::Result<()> {
        // Continued in the background: the screen is the shell's until the
        // SIGCONT of `fg`.
        if !foreground() {
            self.guard.owed.store(true, Ordering::SeqCst);
            return Ok(());
        }
        let mut out = io::stdout();
        setup(&mut out, self.mouse, &self.guard)?;
        out.flush()?;
        // Not `Terminal::clear`: it asks the terminal for the cursor
        // position, which waits on the event reader thread (deadlock).
        execute!(io::stdout(), Clear(ClearType::All))?;
        // Swapping twice blanks both buffers, so the next draw is full.
        self.terminal.swap_buffers();
        self.terminal.swap_buffers();
        self.graphics.forget();
        Ok(())
    }
}

impl Term {
    /// Gives the terminal to another program for `work` (the learner's
    /// editor), as the shell would have it, and takes it back after: its
    /// keys are not read here meanwhile, and the screen is drawn whole
    /// again.
    pub fn hand_over<T>(&mut self, work: impl FnOnce() -> T) -> T {
        self.clear_pictures();
        self.guard.editing(true);
        let writing = self.guard.writing();
        self.guard.taken.store(false, Ordering::SeqCst);
        restore(&self.guard);
        drop(writing);
        // The other program reads the terminal itself, not the key relay
        // (standard input is the relay's while the reader runs).
        let tty = self.guard.tty_if_open();
        let _given = tty.map(super::tty::Tty::lend_stdin);
        let out = work();
        drop(_given);
        // Not taken again by a process a signal is ending meanwhile.
        if !self.guard.ending.load(Ordering::SeqCst) {
            self.guard.taken.store(true, Ordering::SeqCst);
            let _ = self.resume();
        }
        self.guard.editing(false);
        out
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        self.clear_pictures();
        self.guard.taken.store(false, Ordering::SeqCst);
        let _writing = self.guard.writing();
        restore(&self.guard);
    }
}
