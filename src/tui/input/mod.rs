//! Everything the terminal sends, read by one thread, the same way on
//! every Unix: the answers to the start-up query (and any that comes late)
//! are taken out byte by byte ([`split`]), and every other byte goes on,
//! unchanged, to crossterm's own parser. crossterm has no public parser
//! of bytes, only a reader of standard input when it is a terminal: so
//! standard input becomes a pseudo-terminal of lectern's (the relay),
//! which this thread writes the keys into and crossterm reads them from,
//! Alt, F-keys, the kitty keyboard protocol, mouse and paste included.
//! The query is written when the thread starts and its answer, or the
//! wait's end ([`query::TIMEOUT`]), reaches the loop as
//! [`Incoming::Said`]: nothing waits for it, keys included.
//!
//! Where no relay can be made (no pseudo-terminals, Windows), crossterm
//! reads the terminal itself and nothing is asked (an answer would be read
//! as keys): the environment's hints and the settings decide.

pub mod query;
mod split;

use super::guard::Guard;
use crate::app::Incoming;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// Starts reading the terminal, asking it `ask` first.
pub fn start(tx: &Sender<Incoming>, guard: &Arc<Guard>, ask: Option<query::Ask>) {
    #[cfg(unix)]
    if relay::open(guard).is_ok() {
        let (tx, guard) = (tx.clone(), Arc::clone(guard));
        std::thread::spawn(move || relay::run(&tx, &guard, ask));
        return;
    }
    if let Some(ask) = ask {
        let window = guard.tty_if_open().and_then(super::tty::Tty::cell_pixels);
        let said = query::decide(&ask, &query::Answers::default(), false, window);
        let _ = tx.send(Incoming::Said(said));
    }
}

/// `ask` put to the terminal now, its answer awaited (at most
/// [`query::TIMEOUT`]) with the terminal raw: for a command that prints,
/// not the reader, whose keys would be lost.
pub fn ask_now(ask: query::Ask) -> crate::app::Said {
    #[cfg(unix)]
    if let Ok(tty) = super::tty::Tty::open() {
        let mut answers = query::Answers::default();
        if tty.raw().is_ok() {
            relay::await_answers(&tty, &ask, &mut answers);
            tty.cooked();
        }
        return query::decide(&ask, &answers, answers.done, tty.cell_pixels());
    }
    query::decide(&ask, &query::Answers::default(), false, None)
}

#[cfg(unix)]
mod relay {
    use super::query::{self, Answers, Ask};
    use super::split::Split;
    use crate::app::{Incoming, Said};
    use crate::tui::guard::Guard;
    use crate::tui::terminal::foreground;
    use rustix::fs::{Mode, OFlags};
    use std::os::fd::{AsFd, BorrowedFd};
    use std::sync::mpsc::Sender;
    use std::time::{Duration, Instant};

    /// Standard input made the relay's pseudo-terminal (raw, so it passes
    /// bytes as they are written), its other end kept by the terminal's
    /// holder for the thread to write keys into.
    pub fn open(guard: &Guard) -> std::io::Result<()> {
        let tty = guard
            .tty()
            .ok_or_else(|| std::io::Error::other("no terminal"))?;
        let flags = rustix::pty::OpenptFlags::RDWR
            | rustix::pty::OpenptFlags::NOCTTY
            | rustix::pty::OpenptFlags::CLOEXEC;
        let master = rustix::pty::openpt(flags)?;
        rustix::pty::grantpt(&master)?;
        rustix::pty::unlockpt(&master)?;
        let name = rustix::pty::ptsname(&master, Vec::new())?;
        let relay_end = rustix::fs::open(
            name.as_c_str(),
            OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let mut modes = rustix::termios::tcgetattr(&relay_end)?;
        modes.make_raw();
        rustix::termios::tcsetattr(&relay_end, rustix::termios::OptionalActions::Now, &modes)?;
        rustix::stdio::dup2_stdin(&relay_end)?;
        tty.keep_relay(master, relay_end)?;
        // crossterm's record that its input is raw (its parser reads a lone
        // `\n` as Ctrl-J then, as it did from the terminal).
        ratatui::crossterm::terminal::enable_raw_mode()?;
        Ok(())
    }

    /// The longest a poll waits: the foreground is checked this often.
    const TICK: Duration = Duration::from_millis(250);

    /// The thread: the question written, then what the terminal sends read
    /// until it hangs up.
    pub fn run(tx: &Sender<Incoming>, guard: &Guard, ask: Option<Ask>) {
        let (Some(tty), Some(keys)) = (
            guard.tty_if_open(),
            guard.tty_if_open().and_then(|t| t.relay()),
        ) else {
            return;
        };
        let mut asking = match ask {
            Some(ask) if foreground() => Some(Asking::new(ask, guard)),
            // Sent to the background meanwhile: not asked (its answer would
            // be the shell's input), decided without.
            Some(ask) => {
                let said = query::decide(&ask, &Answers::default(), false, tty.cell_pixels());
                let _ = tx.send(Incoming::Said(said));
                None
            }
            None => None,
        };
        let mut split = Split::default();
        let mut buf = [0u8; 4096];
        loop {
            let now = Instant::now();
            let until = [split.deadline(), asking.as_ref().and_then(Asking::deadline)]
                .into_iter()
                .flatten()
                .min()
                .map_or(TICK, |d| d.saturating_duration_since(now).min(TICK));
            // The learner's editor has the terminal: its keys are its own.
            if guard.is_editing() {
                guard.reader_waiting();
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            let ready = readable(tty.fd(), until) && !guard.is_editing();
            let now = Instant::now();
            // In the background (`bg`) a read would stop the process: the
            // input is the shell's until `fg`.
            let mut out = if ready && foreground() {
                match rustix::io::read(tty.fd(), &mut buf) {
                    Ok(0) => break,
                    Ok(n) => split.push(&buf[..n], now),
                    Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => continue,
                    Err(_) => break,
                }
            } else {
                Default::default()
            };
            let late = split.expire(now);
            out.keys.extend(late.keys);
            if write_all(keys, &out.keys).is_err() {
                break;
            }
            if let Some(a) = asking.as_mut() {
                out.replies.iter().for_each(|r| a.answers.take(r));
                a.tell(tx, now);
            }
        }
        // Hung up: the relay stays open (its reader would spin on a closed
        // one); the hang-up's signal ends the reader.
    }

    /// The question written to `tty`, and its answers read until the
    /// device attributes come or the wait is over.
    pub fn await_answers(tty: &crate::tui::tty::Tty, ask: &Ask, answers: &mut Answers) {
        if write_all(tty.fd(), &ask.bytes()).is_err() {
            return;
        }
        let until = Instant::now() + query::TIMEOUT;
        let mut split = Split::default();
        let mut buf = [0u8; 1024];
        while !answers.done {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !readable(tty.fd(), left) {
                break;
            }
            match rustix::io::read(tty.fd(), &mut buf) {
                Ok(n @ 1..) => {
                    let out = split.push(&buf[..n], Instant::now());
                    out.replies.iter().for_each(|r| answers.take(r));
                }
                Err(rustix::io::Errno::INTR) => {}
                _ => break,
            }
        }
    }

    fn readable(fd: BorrowedFd, wait: Duration) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec};
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
            tv_sec: 0,
            tv_nsec: 250_000_000,
        });
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        rustix::event::poll(&mut fds, Some(&timeout)).is_ok_and(|n| n > 0)
    }

    fn write_all(fd: BorrowedFd, mut bytes: &[u8]) -> rustix::io::Result<()> {
        while !bytes.is_empty() {
            match rustix::io::write(fd, bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The question put, and what has come of it.
    struct Asking {
        ask: Ask,
        answers: Answers,
        /// Until when the first answer is awaited (`None`: told).
        until: Option<Instant>,
        window: Option<(u16, u16)>,
        /// What the loop was told last.
        told: Option<Said>,
    }

    impl Asking {
        fn new(ask: Ask, guard: &Guard) -> Asking {
            let tty = guard.tty_if_open();
            if let Some(tty) = tty {
                // Not in the middle of a frame's write.
                let _writing = guard.writing();
                let _ = write_all(tty.fd().as_fd(), &ask.bytes());
            }
            Asking {
                window: tty.and_then(crate::tui::tty::Tty::cell_pixels),
                ask,
                answers: Answers::default(),
                until: Some(Instant::now() + query::TIMEOUT),
                told: None,
            }
        }

        fn deadline(&self) -> Option<Instant> {
            self.until
        }

        /// The loop told once the terminal has said all it will or the wait
        /// is over; told again if a late answer (kitty's, through tmux)
        /// changes how pictures are drawn.
        fn tell(&mut self, tx: &Sender<Incoming>, now: Instant) {
            let over = self.until.is_some_and(|u| now >= u);
            if self.told.is_none() && !self.answers.done && !over {
                return;
            }
            self.until = None;
            let said = query::decide(&self.ask, &self.answers, self.answers.done, self.window);
            let news = match self.told {
                None => Some(said),
                Some(before) if before.drawing != said.drawing => Some(Said {
                    dark: None,
                    drawing: said.drawing,
                }),
                Some(_) => None,
            };
            if let Some(news) = news {
                self.told = Some(said);
                let _ = tx.send(Incoming::Said(news));
            }
        }
    }
}
