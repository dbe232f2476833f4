//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and results of background work.

use crate::state::Action;
use ratatui::crossterm::event::{self, Event};
use std::sync::mpsc::{Receiver, Sender};

pub enum Msg {
    Term(Event),
    /// SIGTERM, SIGHUP or SIGINT: quit cleanly.
    Stop,
    /// SIGCONT: back from Ctrl-Z; the shell may have drawn over the screen
    /// after we did, so draw it all again.
    Resumed,
    Action(Action),
    /// Searchable text of some lessons for the course index; `true` on
    /// the last chunk.
    IndexChunk(Vec<(crate::loader::Origin, String)>, bool),
    /// A folder's lessons changed since the listing the reader started
    /// from: its courses as they are now.
    Refreshed(std::path::PathBuf, Vec<crate::model::Course>),
}

/// The channel, and the signals it will carry. Signals are caught from
/// here on, so one that arrives while the terminal is being set up still
/// ends in a clean quit; [`listen`] starts delivering them.
pub fn channel() -> (Sender<Msg>, Receiver<Msg>, Option<Signals>) {
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

#[cfg(unix)]
pub type Signals = signal_hook::iterator::Signals;
#[cfg(not(unix))]
pub type Signals = ();

/// Starts the threads that read the terminal and forward signals. Called
/// after the first frame: keys typed before then wait in the terminal.
pub fn listen(tx: &Sender<Msg>, signals: Option<Signals>) {
    let term_tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if term_tx.send(Msg::Term(ev)).is_err() {
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
                let msg = if sig == SIGCONT {
                    Msg::Resumed
                } else {
                    Msg::Stop
                };
                let stop = matches!(msg, Msg::Stop);
                if sig_tx.send(msg).is_err() || stop {
                    break;
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = signals;
}
