//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and replies of background work.

use crate::effects::{Reply, Sink};
use ratatui::crossterm::event::{self, Event};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

pub enum Incoming {
    Term(Event),
    /// SIGTERM, SIGHUP or SIGINT: quit cleanly.
    Stop,
    /// SIGCONT: back from Ctrl-Z; the shell may have drawn over the screen
    /// after we did, so draw it all again.
    Resumed,
    Reply(Reply),
}

/// The channel, and the signals it will carry. Signals are caught from
/// here on, so one that arrives while the terminal is being set up still
/// ends in a clean quit; [`listen`] starts delivering them.
pub fn channel() -> (Sender<Incoming>, Receiver<Incoming>, Option<Signals>) {
    let (tx, rx) = std::sync::mpsc::channel();
    #[cfg(unix)]
    let signals = {
        use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM};
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGCONT]).ok()
    };
    #[cfg(not(unix))]
    let signals = None;
    (tx, rx, signals)
}

/// Background work's replies, into the channel.
pub fn sink(tx: &Sender<Incoming>) -> Sink {
    let tx = tx.clone();
    Arc::new(move |reply| tx.send(Incoming::Reply(reply)).is_ok())
}

#[cfg(unix)]
pub type Signals = signal_hook::iterator::Signals;
#[cfg(not(unix))]
pub type Signals = ();

/// Starts the threads that read the terminal and forward signals. Called
/// after the first frame: keys typed before then wait in the terminal.
pub fn listen(tx: &Sender<Incoming>, signals: Option<Signals>) {
    let term_tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if term_tx.send(Incoming::Term(ev)).is_err() {
                break;
            }
        }
    });
    #[cfg(unix)]
    if let Some(mut signals) = signals {
        use signal_hook::consts::SIGCONT;
        let sig_tx = tx.clone();
        std::thread::spawn(move || {
            for sig in signals.forever() {
                let stop = sig != SIGCONT;
                let msg = if stop {
                    Incoming::Stop
                } else {
                    Incoming::Resumed
                };
                if sig_tx.send(msg).is_err() || stop {
                    break;
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = signals;
}
