//! The terminal the reader runs in, held under a file of its own: its
//! modes (raw while the reader has it, given back as they were found)
//! and its cell size in pixels. Its own file, not standard input: once
//! the key relay runs (see `input`), standard input is the relay's
//! pseudo-terminal, which crossterm reads keys from.

use std::io;

#[cfg(unix)]
pub struct Tty {
    fd: std::os::fd::OwnedFd,
    /// The modes it had before the reader made it raw.
    saved: std::sync::Mutex<Option<rustix::termios::Termios>>,
    /// The key relay's end that keys are written into (`input`), kept
    /// open for as long as the process runs, and the end crossterm reads
    /// (standard input), kept to be given back after another program had
    /// the terminal.
    relay: std::sync::OnceLock<std::os::fd::OwnedFd>,
    relay_stdin: std::sync::OnceLock<std::os::fd::OwnedFd>,
}

/// Standard input lent back to the terminal while another program runs
/// (the learner's editor): the relay's again when dropped.
#[cfg(unix)]
pub struct Lent<'a>(&'a Tty);

#[cfg(unix)]
impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(fd) = self.0.relay_stdin.get() {
            let _ = rustix::stdio::dup2_stdin(fd);
        }
    }
}

#[cfg(unix)]
impl Tty {
    /// Standard input's terminal when it is one (on macOS a tty device
    /// polls where `/dev/tty` does not), else the process's terminal.
    pub fn open() -> io::Result<Tty> {
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        let fd = if rustix::termios::isatty(stdin.as_fd()) {
            stdin.as_fd().try_clone_to_owned()?
        } else {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/tty")?
                .into()
        };
        Ok(Tty {
            fd,
            saved: std::sync::Mutex::new(None),
            relay: std::sync::OnceLock::new(),
            relay_stdin: std::sync::OnceLock::new(),
        })
    }

    /// Standard input the terminal's again until the guard is dropped
    /// (nothing to do without a relay).
    pub fn lend_stdin(&self) -> Lent<'_> {
        if self.relay_stdin.get().is_some() {
            let _ = rustix::stdio::dup2_stdin(&self.fd);
        }
        Lent(self)
    }

    /// Keeps the key relay's ends (once): the one keys are written into,
    /// and a copy of the one made standard input.
    pub fn keep_relay(
        &self,
        keys: std::os::fd::OwnedFd,
        stdin: std::os::fd::OwnedFd,
    ) -> io::Result<()> {
        let taken = || io::Error::other("the relay is open already");
        self.relay.set(keys).map_err(|_| taken())?;
        self.relay_stdin.set(stdin).map_err(|_| taken())
    }

    /// The key relay's end, once open.
    pub fn relay(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        use std::os::fd::AsFd;
        self.relay.get().map(AsFd::as_fd)
    }

    pub fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        use std::os::fd::AsFd;
        self.fd.as_fd()
    }

    fn saved(&self) -> std::sync::MutexGuard<'_, Option<rustix::termios::Termios>> {
        self.saved.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Raw: keys one at a time, unechoed, signals as bytes.
    pub fn raw(&self) -> io::Result<()> {
        use rustix::termios::{OptionalActions, tcgetattr, tcsetattr};
        let now = tcgetattr(&self.fd)?;
        let mut saved = self.saved();
        let mut raw = saved.get_or_insert(now).clone();
        raw.make_raw();
        tcsetattr(&self.fd, OptionalActions::Now, &raw)?;
        Ok(())
    }

    /// The modes it was found in, if it was made raw.
    pub fn cooked(&self) {
        if let Some(modes) = self.saved().take() {
            let _ =
                rustix::termios::tcsetattr(&self.fd, rustix::termios::OptionalActions::Now, &modes);
        }
    }

    /// One cell's width and height in pixels, when the terminal says
    /// (most fill in the window size's pixel fields; some leave them 0).
    pub fn cell_pixels(&self) -> Option<(u16, u16)> {
        let w = rustix::termios::tcgetwinsize(&self.fd).ok()?;
        cell_of(w.ws_xpixel, w.ws_ypixel, w.ws_col, w.ws_row)
    }
}

/// A cell's pixels from a window's pixels and cells, when both are known
/// and plausible.
pub fn cell_of(px_w: u16, px_h: u16, cols: u16, rows: u16) -> Option<(u16, u16)> {
    if cols == 0 || rows == 0 {
        return None;
    }
    let cell = (px_w / cols, px_h / rows);
    ((2..=256).contains(&cell.0) && (2..=512).contains(&cell.1)).then_some(cell)
}

#[cfg(not(unix))]
pub struct Tty;

#[cfg(not(unix))]
impl Tty {
    pub fn open() -> io::Result<Tty> {
        Ok(Tty)
    }

    pub fn lend_stdin(&self) {}

    pub fn raw(&self) -> io::Result<()> {
        ratatui::crossterm::terminal::enable_raw_mode()
    }

    pub fn cooked(&self) {
        let _ = ratatui::crossterm::terminal::disable_raw_mode();
    }

    pub fn cell_pixels(&self) -> Option<(u16, u16)> {
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cell_is_the_window_over_its_cells() {
        assert_eq!(super::cell_of(800, 480, 80, 24), Some((10, 20)));
        assert_eq!(super::cell_of(0, 0, 80, 24), None);
        assert_eq!(super::cell_of(800, 480, 0, 24), None);
    }
}
