//! The one pseudo-terminal harness: the real binary (or a shell) in a pty
//! whose output is fed to a vt100 parser, keys typed into it, and waits
//! on what a person would see. It answers the queries a terminal answers
//! (cursor position, device attributes, and the background colour when
//! told one). Waits are generous (debug builds, busy CI machines) and
//! nothing asserts on timing: every wait is for a condition.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const WAIT: Duration = Duration::from_secs(10);

pub const LEAVE_ALT: &[u8] = b"\x1b[?1049l";
pub const ENTER_ALT: &[u8] = b"\x1b[?1049h";
pub const SHOW_CURSOR: &[u8] = b"\x1b[?25h";
pub const HIDE_CURSOR: &[u8] = b"\x1b[?25l";

/// The variables that choose colours and the config file: removed, so a
/// developer's own settings never reach a test.
pub const COLOUR_VARS: &[&str] = &[
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "COLORFGBG",
    "LECTERN_CONFIG",
];

pub struct Screen {
    pub parser: vt100::Parser,
    pub raw: Vec<u8>,
    pub eof: bool,
    /// Terminal queries seen (and answered).
    pub queries: usize,
}

pub struct Term {
    pub master: Box<dyn MasterPty + Send>,
    pub writer: Arc<Mutex<Box<dyn Write + Send>>>,
    pub child: Box<dyn Child + Send + Sync>,
    pub screen: Arc<Mutex<Screen>>,
}

/// How to start the process in the pty.
pub struct Opts<'a> {
    pub cols: u16,
    pub rows: u16,
    /// Where progress and caches go (`LECTERN_DATA_DIR`, its `cache/`).
    pub data: &'a Path,
    /// The answer to the background query (OSC 11), or none at all.
    pub background: Option<&'static str>,
    /// Whether it answers kitty's graphics query (passed through tmux or
    /// not) as kitty does.
    pub kitty: bool,
    /// A cell's pixels, told when asked (XTWINOPS 16), or nothing.
    pub cell: Option<(u16, u16)>,
    /// A terminal that answers nothing (but the cursor's place): the
    /// start-up query waits its time out.
    pub silent: bool,
    /// Set after the colour variables are removed.
    pub vars: &'a [(&'a str, &'a str)],
}

impl<'a> Opts<'a> {
    pub fn new(data: &'a Path, cols: u16, rows: u16) -> Opts<'a> {
        Opts {
            cols,
            rows,
            data,
            background: None,
            kitty: false,
            cell: None,
            silent: false,
            vars: &[],
        }
    }
}

pub fn size(rows: u16, cols: u16) -> PtySize {
    PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

pub fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// What the terminal answers besides the cursor and device attributes.
#[derive(Clone, Copy)]
struct Answering {
    background: Option<&'static str>,
    kitty: bool,
    cell: Option<(u16, u16)>,
    silent: bool,
}

/// The replies a terminal would send to what `chunk` asks.
fn replies(chunk: &[u8], screen: &vt100::Screen, a: Answering) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if find(chunk, b"\x1b[6n").is_some() {
        let (r, c) = screen.cursor_position();
        out.push(format!("\x1b[{};{}R", r + 1, c + 1).into_bytes());
    }
    if a.silent {
        return out;
    }
    if let Some(bg) = a.background.filter(|_| find(chunk, b"\x1b]11;?").is_some()) {
        out.push(format!("\x1b]11;{bg}\x1b\\").into_bytes());
    }
    // Plain or inside tmux's passthrough (its ESCs doubled).
    if a.kitty && find(chunk, b"_Gi=31,").is_some() {
        out.push(b"\x1b_Gi=31;OK\x1b\\".to_vec());
    }
    if let Some((w, h)) = a.cell.filter(|_| find(chunk, b"\x1b[16t").is_some()) {
        out.push(format!("\x1b[6;{h};{w}t").into_bytes());
    }
    if find(chunk, b"\x1b[c").is_some() || find(chunk, b"\x1b[0c").is_some() {
        out.push(b"\x1b[?62;22c".to_vec());
    }
    out
}

impl Term {
    /// `lectern ARGS` in a `cols`×`rows` pty, progress kept in `data`.
    pub fn spawn(args: &[&Path], data: &Path, cols: u16, rows: u16) -> Term {
        Term::lectern(args, &Opts::new(data, cols, rows))
    }

    /// `lectern ARGS` started as `opts` say.
    pub fn lectern(args: &[&Path], opts: &Opts) -> Term {
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_lectern"));
        for a in args {
            cmd.arg(a);
        }
        Term::command(cmd, opts)
    }

    /// `cmd` (lectern, or a shell to run it under job control) in the pty.
    pub fn spawn_command(cmd: CommandBuilder, data: &Path, cols: u16, rows: u16) -> Term {
        Term::command(cmd, &Opts::new(data, cols, rows))
    }

    pub fn command(mut cmd: CommandBuilder, opts: &Opts) -> Term {
        let pair = native_pty_system()
            .openpty(size(opts.rows, opts.cols))
            .unwrap();
        if cmd.get_env("TERM").is_none() {
            cmd.env("TERM", "xterm-256color");
        }
        for v in COLOUR_VARS {
            cmd.env_remove(v);
        }
        for (k, v) in opts.vars {
            cmd.env(k, v);
        }
        cmd.env("LECTERN_DATA_DIR", opts.data);
        cmd.env("LECTERN_CACHE_DIR", opts.data.join("cache"));
        cmd.cwd(opts.data);
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let reader = pair.master.try_clone_reader().unwrap();
        let writer = Arc::new(Mutex::new(pair.master.take_writer().unwrap()));
        let screen = Arc::new(Mutex::new(Screen {
            parser: vt100::Parser::new(nz(opts.rows), nz(opts.cols), 0),
            raw: Vec::new(),
            eof: false,
            queries: 0,
        }));
        let (scr, w) = (screen.clone(), writer.clone());
        let answering = Answering {
            background: opts.background,
            kitty: opts.kitty,
            cell: opts.cell,
            silent: opts.silent,
        };
        std::thread::spawn(move || read_into(reader, &scr, &w, answering));
        Term {
            master: pair.master,
            writer,
            child,
            screen,
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().parser.screen().contents()
    }

    pub fn raw(&self) -> Vec<u8> {
        self.screen.lock().unwrap().raw.clone()
    }

    pub fn rows(&self) -> Vec<String> {
        let s = self.screen.lock().unwrap();
        let (_, cols) = s.parser.screen().size();
        s.parser.screen().rows(0, cols.get()).collect()
    }

    /// Waits until `pred` holds for the screen text; panics with the
    /// screen after `WAIT`.
    /// `pred` runs with the screen unlocked: it may look at `self`.
    pub fn wait_until(&self, what: &str, pred: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            let text = self.contents();
            if pred(&text) {
                return;
            }
            if start.elapsed() > WAIT {
                panic!("timed out waiting for {what}; screen:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `pred` holds for the bytes written so far and the
    /// screen they drew (the screen locked meanwhile: `pred` must not
    /// look at `self`); panics with both after `WAIT`.
    pub fn wait_raw(&self, what: &str, pred: impl Fn(&[u8], &vt100::Screen) -> bool) {
        let start = Instant::now();
        loop {
            {
                let s = self.screen.lock().unwrap();
                if pred(&s.raw, s.parser.screen()) {
                    return;
                }
                if start.elapsed() > WAIT {
                    let raw = String::from_utf8_lossy(&s.raw);
                    let tail: String = raw.chars().rev().take(400).collect();
                    let tail: String = tail.chars().rev().collect();
                    panic!(
                        "timed out waiting for {what}; screen:\n{}\nraw tail: {tail:?}",
                        s.parser.screen().contents()
                    );
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_for(&self, text: &str) {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text));
    }

    /// Waits until nothing more has been written for a while: the frame
    /// being drawn is all on screen (a busy machine hands it over in
    /// pieces).
    pub fn wait_settled(&self) {
        let quiet = Duration::from_millis(150);
        let start = Instant::now();
        let (mut len, mut since) = (self.raw().len(), Instant::now());
        while since.elapsed() < quiet {
            if start.elapsed() > WAIT {
                panic!("the screen never settled");
            }
            std::thread::sleep(Duration::from_millis(20));
            let now = self.raw().len();
            if now != len {
                (len, since) = (now, Instant::now());
            }
        }
    }

    pub fn wait_gone(&self, text: &str) {
        self.wait_until(&format!("{text:?} to go"), |s| !s.contains(text));
    }

    pub fn press(&self, keys: &str) {
        let mut w = self.writer.lock().unwrap();
        w.write_all(keys.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    /// Esc on its own, so it is not read as the start of a sequence: the
    /// pauses are the typist's, not a wait for the reader.
    pub fn esc(&self) {
        std::thread::sleep(Duration::from_millis(50));
        self.press("\x1b");
        std::thread::sleep(Duration::from_millis(50));
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        self.screen
            .lock()
            .unwrap()
            .parser
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.master.resize(size(rows, cols)).unwrap();
    }

    /// Waits for the process to end and its output to be read.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        let status = loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                break st;
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("lectern did not exit; screen:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        while !self.screen.lock().unwrap().eof && start.elapsed() < WAIT * 2 {
            std::thread::sleep(Duration::from_millis(10));
        }
        status
    }

    /// The terminal was given back: after the last time the reader entered
    /// the alternate screen it left it and showed the cursor again.
    pub fn assert_restored(&self) {
        let s = self.screen.lock().unwrap();
        let raw = &s.raw;
        let entered = rfind(raw, ENTER_ALT).expect("the alternate screen was used");
        let tail = &raw[entered..];
        let left = find(tail, LEAVE_ALT).expect("left the alternate screen");
        let shown = rfind(tail, SHOW_CURSOR).expect("cursor shown again");
        assert!(
            shown > left,
            "cursor shown after leaving the alternate screen"
        );
        if let Some(hidden) = rfind(tail, HIDE_CURSOR) {
            assert!(hidden < shown, "cursor hidden again at the end");
        }
        assert!(rfind(tail, ENTER_ALT).is_none_or(|e| e == 0));
        let screen = s.parser.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "cursor still hidden");
        // Mouse reporting is off again.
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse capture left on"
        );
    }

    /// `q`, a successful exit, and the terminal given back.
    pub fn quit_cleanly(&mut self) {
        self.press("q");
        let status = self.wait_exit();
        assert!(status.success(), "exit status {status:?}");
        self.assert_restored();
    }
}

/// Feeds what the process writes to the screen, answering its queries,
/// until the pty closes.
fn read_into(
    mut reader: Box<dyn Read + Send>,
    screen: &Mutex<Screen>,
    writer: &Mutex<Box<dyn Write + Send>>,
    answering: Answering,
) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut s = screen.lock().unwrap();
        s.parser.process(&buf[..n]);
        s.raw.extend_from_slice(&buf[..n]);
        let replies = replies(&buf[..n], s.parser.screen(), answering);
        s.queries += replies.len();
        drop(s);
        for r in replies {
            let mut w = writer.lock().unwrap();
            let _ = w.write_all(&r);
            let _ = w.flush();
        }
    }
    screen.lock().unwrap().eof = true;
}

impl Drop for Term {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}
