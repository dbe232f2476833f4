//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and results of background work.

use crate::state::Action;
use ratatui::crossterm::event::{self, Event};
use std::sync::mpsc::{Receiver, Sender, channel};

pub enum Msg {
    Term(Event),
    /// SIGTERM, SIGHUP or SIGINT: quit cleanly.
    Stop,
    Action(Action),
    /// Searchable text of some lessons for the course index; `true` on
    /// the last chunk.
    IndexChunk(Vec<(crate::loader::Origin, String)>, bool),
}

pub fn start() -> (Sender<Msg>, Receiver<Msg>) {
    let (tx, rx) = channel();
    let term_tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if term_tx.send(Msg::Term(ev)).is_err() {
                break;
            }
        }
    });
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) {
            let sig_tx = tx.clone();
            std::thread::spawn(move || {
                if signals.forever().next().is_some() {
                    let _ = sig_tx.send(Msg::Stop);
                }
            });
        }
    }
    (tx, rx)
}
