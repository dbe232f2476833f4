//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and replies of background work.

use super::guard::Guard;
pub use crate::app::Incoming;
use crate::effects::Sink;
use ratatui::crossterm::event::{self, Event};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

/// The channel, with signals handled from here on on their own thread: a
/// signal that arrives while the terminal is set up, the first frame laid
/// out, or the loop busy on a long page still ends in a restored terminal.
/// Whether signals are caught (Ctrl-Z then goes through them).
pub fn channel(guard: &Arc<Guard>) -> (Sender<Incoming>, Receiver<Incoming>, Watch) {
    let (tx, rx) = std::sync::mpsc::channel();
    #[cfg(unix)]
    let watch = Watch(signals::catch().map(|s| (s, tx.clone(), Arc::clone(guard))));
    #[cfg(not(unix))]
    let watch = {
        let _ = guard;
        Watch(None)
    };
    (tx, rx, watch)
}

/// Signals caught (from [`channel`] on, they queue) but not yet acted on:
/// [`Watch::start`] starts the thread that acts on them. A thread is
/// started only when it can matter before the first frame (a folder
/// that may take seconds to read): a lesson named alone starts it after
/// that frame, which a thread started alongside would compete with on two
/// cores (first frame 1.02-1.07 of less with it, 0.88 without).
pub struct Watch(
    #[cfg(unix)] Option<(signals::Caught, Sender<Incoming>, Arc<Guard>)>,
    #[cfg(not(unix))] Option<()>,
);

impl Watch {
    /// Whether signals are caught (Ctrl-Z then goes through them).
    pub fn caught(&self) -> bool {
        self.0.is_some()
    }

    pub fn start(&mut self) {
        #[cfg(unix)]
        if let Some((caught, tx, guard)) = self.0.take() {
            signals::start(caught, tx, guard);
        }
    }
}

/// Background work's replies, into the channel.
pub fn sink(tx: &Sender<Incoming>) -> Sink {
    let tx = tx.clone();
    Arc::new(move |reply| tx.send(Incoming::Reply(reply)).is_ok())
}

/// How long the main loop may be busy with one event before a quitting
/// key read meanwhile may act without it (quitting is never queued behind
/// a long layout or highlight): longer than any ordinary frame on a
/// loaded machine, since the orderly quit it then cuts short is what
/// saves the reading place.
const BUSY_LONG: std::time::Duration = std::time::Duration::from_millis(250);

/// How long such a key leaves the loop to quit in order before it ends
/// the process itself.
const KEY_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// Whether `ev` is the learner quitting (Ctrl-C anywhere, `q` on the
/// page) while the main loop has been busy too long to hear it.
fn quits_past_a_busy_loop(ev: &Event, guard: &Guard) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    let Event::Key(k) = ev else { return false };
    if k.kind == KeyEventKind::Release {
        return false;
    }
    let quitting = match k.code {
        KeyCode::Char('c') => k.modifiers == KeyModifiers::CONTROL,
        KeyCode::Char('q') => k.modifiers == KeyModifiers::NONE && guard.q_quits(),
        _ => false,
    };
    quitting && guard.busy_for() >= BUSY_LONG
}

/// Starts the thread that reads crossterm's events: the keys the relay
/// passes on (`input`), or the terminal itself where there is no relay.
/// Called after the first frame: keys typed before then wait in the
/// terminal.
pub fn listen(tx: &Sender<Incoming>, guard: &Arc<Guard>) {
    let term_tx = tx.clone();
    let guard = Arc::clone(guard);
    std::thread::spawn(move || {
        // crossterm watches for resizes from its first poll on: one made
        // between the first frame and then would never be told, so the
        // size is told once from here (the same size changes nothing).
        if crate::tui::terminal::foreground()
            && event::poll(std::time::Duration::ZERO).is_ok()
            && let Ok((w, h)) = ratatui::crossterm::terminal::size()
        {
            let _ = term_tx.send(Incoming::Term(Event::Resize(w, h)));
        }
        loop {
            // In the background (`bg`, or continued by `kill %1`) a read of
            // the terminal would stop the whole process (SIGTTIN), one
            // quitting too; it waits for `fg` instead.
            if !crate::tui::terminal::foreground() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                continue;
            }
            // The learner's editor has the terminal: its keys are its own.
            if guard.is_editing() {
                guard.reader_waiting();
                std::thread::sleep(std::time::Duration::from_millis(20));
                continue;
            }
            // Back in the foreground without a SIGCONT (`fg` of a job
            // running in the background): the terminal is taken again.
            if guard.owed() && term_tx.send(Incoming::Resumed).is_err() {
                break;
            }
            match event::poll(std::time::Duration::from_millis(250)) {
                Ok(false) => continue,
                Ok(true) if guard.is_editing() => continue,
                Ok(true) => {}
                Err(_) => break,
            }
            // Stopped and sent to the background while it waited: the
            // input is the shell's now.
            if !crate::tui::terminal::foreground() {
                continue;
            }
            let Ok(ev) = event::read() else { break };
            // The key goes to the loop all the same: if it gets to it in
            // time, the quit is the orderly one.
            if quits_past_a_busy_loop(&ev, &guard) {
                let guard = Arc::clone(&guard);
                std::thread::spawn(move || {
                    std::thread::sleep(KEY_GRACE);
                    #[cfg(unix)]
                    if !guard.is_leaving() {
                        signals::quit_now(&guard);
                    }
                });
            }
            if term_tx.send(Incoming::Term(ev)).is_err() {
                break;
            }
        }
    });
}

#[cfg(unix)]
mod signals {
    use super::Incoming;
    use crate::tui::guard::Guard;
    use crate::tui::terminal;
    use signal_hook::consts::{
        SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
        SIGVTALRM, SIGXCPU, SIGXFSZ,
    };
    use std::sync::Arc;
    use std::sync::mpsc::Sender;
    use std::time::Duration;

    /// How long the main loop has to quit in order (its last answer
    /// written) before the signal thread gives the terminal back and exits
    /// on its own: a loop stuck in a long layout or a blocked read.
    const GRACE: Duration = Duration::from_millis(400);

    pub(crate) type Caught = signal_hook::iterator::Signals;

    pub(super) fn catch() -> Option<Caught> {
        // Every signal whose default would end the process with the
        // terminal still raw: each ends it through the orderly quit, as
        // SIGTERM does. SIGXFSZ (a file-size limit) is caught so that it
        // ends nothing: the write it stops fails (EFBIG) and the store
        // handles that as it does a full disk.
        let set = [
            SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2, SIGALRM,
            SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
        ];
        signal_hook::iterator::Signals::new(set).ok()
    }

    pub(super) fn start(mut signals: Caught, tx: Sender<Incoming>, guard: Arc<Guard>) {
        std::thread::spawn(move || {
            let mut stopping = false;
            for sig in signals.forever() {
                match sig {
                    // Asked to quit (`kill %1`: SIGTERM, then SIGCONT): a
                    // suspension still pending must not stop the quitting.
                    SIGTSTP if stopping => {}
                    SIGTSTP => {
                        terminal::stop_from_signal(&guard);
                        let _ = tx.send(Incoming::Resumed);
                    }
                    SIGCONT => {
                        let _ = tx.send(Incoming::Resumed);
                    }
                    SIGXFSZ => {}
                    // Ctrl-C in an editor that leaves it to the terminal
                    // (as git does while its editor runs).
                    SIGINT | SIGQUIT if guard.is_editing() => {}
                    // A second one: the learner means it.
                    _ if stopping => exit(sig, &guard),
                    _ => {
                        stopping = true;
                        guard.ended_by(sig);
                        let _ = tx.send(Incoming::Stop);
                        let guard = Arc::clone(&guard);
                        std::thread::spawn(move || {
                            std::thread::sleep(GRACE);
                            if !guard.is_leaving() {
                                exit(sig, &guard);
                            }
                        });
                    }
                }
            }
        });
    }

    /// The learner quit while the main loop is stuck in long work: the
    /// terminal back, the writes still held kept aside, status 0.
    pub(super) fn quit_now(guard: &Guard) -> ! {
        end(0, guard)
    }

    /// The terminal back as it was, and the status a shell expects of a
    /// process ended by `sig`.
    #[allow(
        clippy::exit,
        reason = "the main thread may be stuck; only exit ends it"
    )]
    fn exit(sig: i32, guard: &Guard) -> ! {
        end(128 + sig, guard)
    }

    #[allow(
        clippy::exit,
        reason = "the main thread may be stuck; only exit ends it"
    )]
    fn end(status: i32, guard: &Guard) -> ! {
        crate::loader::progress::abandon();
        // Held to the exit: nothing may take the terminal again.
        let _restored = terminal::restore_from_signal(guard);
        // After the terminal is back, so the line is seen.
        if let Some(line) = guard.rescue() {
            crate::out::stderr(&format!("lectern: {line}"));
        }
        std::process::exit(status)
    }
}
