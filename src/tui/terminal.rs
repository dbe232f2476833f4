//! The only code that touches raw mode, the alternate screen, mouse
//! capture and the cursor. Whatever way the reader ends (quit, error,
//! panic, signal), the terminal is given back as it was found.

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::DisableMouseCapture;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute, queue};
use ratatui::layout::Rect;
use std::io::{self, Write};
use std::sync::Once;

pub type Backend = CrosstermBackend<FrameOut>;

/// Collects a frame and writes it to stdout in one go when ratatui
/// flushes, not in pieces of stdout's line buffer. What is never flushed
/// (a panic mid-frame) is dropped, not written over the restored screen.
#[derive(Default)]
pub struct FrameOut {
    buf: Vec<u8>,
}

impl Write for FrameOut {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
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
    mouse: bool,
    area: Rect,
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

/// Puts the terminal back: mouse off, main screen, cursor shown, cooked
/// mode. Safe to call more than once.
pub fn restore() {
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = disable_raw_mode();
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Restore first so the message lands on the normal screen.
            restore();
            previous(info);
        }));
    });
}

/// Raw mode now; the screen switch is queued on `out`, to be written when
/// `out` is flushed.
fn setup(out: &mut impl Write, mouse: bool) -> io::Result<()> {
    enable_raw_mode()?;
    queue!(out, EnterAlternateScreen, cursor::Hide)?;
    if mouse {
        queue!(out, ButtonMouse(true))?;
    }
    Ok(())
}

impl Term {
    /// The switch to the alternate screen goes out with the first frame,
    /// in the same write.
    pub fn enter(mouse: bool) -> io::Result<Term> {
        install_panic_hook();
        let mut out = FrameOut::default();
        if let Err(e) = setup(&mut out, mouse) {
            restore();
            return Err(e);
        }
        // A fixed viewport, resized on resize events: a full-screen one asks
        // the terminal its size before every frame, opening /dev/tty each
        // time (≈ 13 us of each frame, three times before the first).
        let size = ratatui::crossterm::terminal::size()
            .map(|(w, h)| Rect::new(0, 0, w, h))
            .inspect_err(|_| restore())?;
        let viewport = ratatui::Viewport::Fixed(size);
        let terminal = ratatui::Terminal::with_options(
            CrosstermBackend::new(out),
            ratatui::TerminalOptions { viewport },
        )
        .inspect_err(|_| restore())?;
        Ok(Term {
            terminal,
            mouse,
            area: size,
        })
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
        let area = Rect::new(0, 0, w, h);
        if area == self.area() {
            return Ok(false);
        }
        self.terminal.resize(area)?;
        self.area = area;
        Ok(true)
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
        }
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again on resume.
    pub fn suspend(&mut self) -> io::Result<()> {
        restore();
        #[cfg(unix)]
        signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
        self.resume()
    }

    /// Takes the terminal again and redraws everything. Also called on
    /// SIGCONT, since the shell may reset the terminal after waking us.
    pub fn resume(&mut self) -> io::Result<()> {
        let mut out = io::stdout();
        setup(&mut out, self.mouse)?;
        out.flush()?;
        // Not `Terminal::clear`: it asks the terminal for the cursor
        // position, which waits on the event reader thread (deadlock).
        execute!(io::stdout(), Clear(ClearType::All))?;
        // Swapping twice blanks both buffers, so the next draw is full.
        self.terminal.swap_buffers();
        self.terminal.swap_buffers();
        Ok(())
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        restore();
    }
}
