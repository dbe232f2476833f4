//! One channel of everything the reader waits for: terminal events (read
//! on their own thread), signals, and replies of background work.

pub use crate::app::Incoming;
use crate::effects::Sink;
use ratatui::crossterm::event::{self, Event};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, Sender};

/// The channel, with signals handled from here on on their own thread: a
/// signal that arrives while the terminal is set up, the first frame laid
/// out, or the loop busy on a long page still ends in a restored terminal.
/// Whether signals are caught (Ctrl-Z then goes through them).
pub fn channel() -> (Sender<Incoming>, Receiver<Incoming>, Watch) {
    let (tx, rx) = std::sync::mpsc::channel();
    #[cfg(unix)]
    let watch = Watch(signals::catch().map(|s| (s, tx.clone())));
    #[cfg(not(unix))]
    let watch = Watch(None);
    (tx, rx, watch)
}

/// Signals caught (from [`channel`] on, they queue) but not yet acted on:
/// [`Watch::start`] starts the thread that acts on them. A thread is
/// started only when it can matter before the first frame (a folder
/// that may take seconds to read): a lesson named alone starts it after
/// that frame, which a thread started alongside would compete with on two
/// cores (first frame 1.02-1.07 of less with it, 0.88 without).
pub struct Watch(
    #[cfg(unix)] Option<(signals::Caught, Sender<Incoming>)>,
    #[cfg(not(unix))] Option<()>,
);

impl Watch {
    /// Whether signals are caught (Ctrl-Z then goes through them).
    pub fn caught(&self) -> bool {
        self.0.is_some()
    }

    pub fn start(&mut self) {
        #[cfg(unix)]
        if let Some((caught, tx)) = self.0.take() {
            signals::start(caught, tx);
        }
    }
}

/// Background work's replies, into the channel.
pub fn sink(tx: &Sender<Incoming>) -> Sink {
    let tx = tx.clone();
    Arc::new(move |reply| tx.send(Incoming::Reply(reply)).is_ok())
}

/// The main loop has left its loop: what follows is the orderly end
/// (progress written, the journal told), which a signal must not cut.
pub fn leaving() {
    LEAVING.store(true, Ordering::SeqCst);
}

static LEAVING: AtomicBool = AtomicBool::new(false);

/// The signal that asked the reader to quit, if one did: the process then
/// ends with the status a shell expects of a process it ends (128 + the
/// signal), after the orderly quit has given the terminal back.
static ENDED_BY: AtomicI32 = AtomicI32::new(0);

/// The exit status owed to the signal that ended the reader, if one did.
pub fn signal_status() -> Option<u8> {
    match ENDED_BY.load(Ordering::SeqCst) {
        0 => None,
        sig => u8::try_from(128 + sig).ok(),
    }
}

/// What the signal thread does last when it ends the process itself: the
/// writes still held kept aside (a line to print, if any).
type Rescue = Box<dyn Fn() -> Option<String> + Send + Sync>;

static RESCUE: std::sync::OnceLock<Rescue> = std::sync::OnceLock::new();

/// Sets what the signal thread does before it exits on its own.
pub fn on_forced_exit(rescue: impl Fn() -> Option<String> + Send + Sync + 'static) {
    let _ = RESCUE.set(Box::new(rescue));
}

/// Whether `q` quits from what is on screen now (the page, no prompt or
/// overlay): told by the main loop after each event it handles.
static Q_QUITS: AtomicBool = AtomicBool::new(false);

/// Milliseconds (of [`clock`]) since which the main loop has been busy
/// with one event, or 0 while it waits for the next.
static BUSY_SINCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How long the main loop may be busy with one event before a quitting
/// key read meanwhile may act without it (quitting is never queued behind
/// a long layout or highlight): longer than any ordinary frame on a
/// loaded machine, since the orderly quit it then cuts short is what
/// saves the reading place.
const BUSY_LONG: std::time::Duration = std::time::Duration::from_millis(250);

/// How long such a key leaves the loop to quit in order before it ends
/// the process itself.
const KEY_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

fn clock() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    // Never 0, which means idle.
    u64::try_from(start.elapsed().as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// The main loop starts on an event (`true`) or waits for the next, and
/// whether `q` quits from its screen now.
pub fn busy(on: bool, q_quits: bool) {
    BUSY_SINCE.store(if on { clock() } else { 0 }, Ordering::SeqCst);
    Q_QUITS.store(q_quits, Ordering::SeqCst);
}

/// Whether `ev` is the learner quitting (Ctrl-C anywhere, `q` on the
/// page) while the main loop has been busy too long to hear it.
fn quits_past_a_busy_loop(ev: &Event) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    let Event::Key(k) = ev else { return false };
    if k.kind == KeyEventKind::Release {
        return false;
    }
    let quitting = match k.code {
        KeyCode::Char('c') => k.modifiers == KeyModifiers::CONTROL,
        KeyCode::Char('q') => k.modifiers == KeyModifiers::NONE && Q_QUITS.load(Ordering::SeqCst),
        _ => false,
    };
    let since = BUSY_SINCE.load(Ordering::SeqCst);
    quitting && since != 0 && clock().saturating_sub(since) >= BUSY_LONG.as_millis() as u64
}

/// Starts the thread that reads the terminal. Called after the first
/// frame: keys typed before then wait in the terminal.
pub fn listen(tx: &Sender<Incoming>) {
    let term_tx = tx.clone();
    std::thread::spawn(move || {
        let mut replies = super::late_reply::LateReplies::default();
        loop {
            // In the background (`bg`, or continued by `kill %1`) a read of
            // the terminal would stop the whole process (SIGTTIN), one
            // quitting too; it waits for `fg` instead.
            if !crate::tui::terminal::foreground() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                continue;
            }
            // Back in the foreground without a SIGCONT (`fg` of a job
            // running in the background): the terminal is taken again.
            if crate::tui::terminal::owed() && term_tx.send(Incoming::Resumed).is_err() {
                break;
            }
            match event::poll(std::time::Duration::from_millis(250)) {
                Ok(false) => continue,
                Ok(true) => {}
                Err(_) => break,
            }
            // Stopped and sent to the background while it waited: the
            // input is the shell's now.
            if !crate::tui::terminal::foreground() {
                continue;
            }
            let Ok(ev) = event::read() else { break };
            let Some(ev) = replies.pass(ev, std::time::Instant::now()) else {
                continue;
            };
            // The key goes to the loop all the same: if it gets to it in
            // time, the quit is the orderly one.
            if quits_past_a_busy_loop(&ev) {
                std::thread::spawn(|| {
                    std::thread::sleep(KEY_GRACE);
                    #[cfg(unix)]
                    if !LEAVING.load(Ordering::SeqCst) {
                        signals::quit_now();
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
    use super::{ENDED_BY, Incoming, LEAVING, RESCUE};
    use crate::tui::terminal;
    use signal_hook::consts::{
        SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
        SIGVTALRM, SIGXCPU, SIGXFSZ,
    };
    use std::sync::atomic::Ordering;
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

    pub(super) fn start(mut signals: Caught, tx: Sender<Incoming>) {
        std::thread::spawn(move || {
            let mut stopping = false;
            for sig in signals.forever() {
                match sig {
                    // Asked to quit (`kill %1`: SIGTERM, then SIGCONT): a
                    // suspension still pending must not stop the quitting.
                    SIGTSTP if stopping => {}
                    SIGTSTP => {
                        terminal::stop_from_signal();
                        let _ = tx.send(Incoming::Resumed);
                    }
                    SIGCONT => {
                        let _ = tx.send(Incoming::Resumed);
                    }
                    SIGXFSZ => {}
                    // A second one: the learner means it.
                    _ if stopping => exit(sig),
                    _ => {
                        stopping = true;
                        ENDED_BY.store(sig, Ordering::SeqCst);
                        let _ = tx.send(Incoming::Stop);
                        std::thread::spawn(move || {
                            std::thread::sleep(GRACE);
                            if !LEAVING.load(Ordering::SeqCst) {
                                exit(sig);
                            }
                        });
                    }
                }
            }
        });
    }

    /// The learner quit while the main loop is stuck in long work: the
    /// terminal back, the writes still held kept aside, status 0.
    pub(super) fn quit_now() -> ! {
        end(0)
    }

    /// The terminal back as it was, and the status a shell expects of a
    /// process ended by `sig`.
    #[allow(
        clippy::exit,
        reason = "the main thread may be stuck; only exit ends it"
    )]
    fn exit(sig: i32) -> ! {
        end(128 + sig)
    }

    #[allow(
        clippy::exit,
        reason = "the main thread may be stuck; only exit ends it"
    )]
    fn end(status: i32) -> ! {
        crate::loader::progress::abandon();
        // Held to the exit: nothing may take the terminal again.
        let _restored = terminal::restore_from_signal();
        // After the terminal is back, so the line is seen.
        if let Some(line) = RESCUE.get().and_then(|rescue| rescue()) {
            crate::out::stderr(&format!("lectern: {line}"));
        }
        std::process::exit(status)
    }
}
