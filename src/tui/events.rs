//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and results of background work.

use crate::state::Action;
use ratatui::crossterm::event::{self, Event};
use std::sync::mpsc::{Receiver, Sender, channel};

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
    /// from: its headers as they are now.
    Refreshed(std::path::PathBuf, Vec<crate::loader::Headed>),
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
        use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM};
        if let Ok(mut signals) =
            signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGCONT])
        {
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
    }
    (tx, rx)
}
