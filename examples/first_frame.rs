//! First-frame harness: how long until a full-screen program shows a marker.
//!
//! ```text
//! first_frame [--runs 20] [--cols 100 --rows 30] --marker TEXT [--keys q] -- CMD ARGS...
//! first_frame --compare --cmd 'lectern l.json' --cmd 'less l.md' --marker TEXT [--marker TEXT2]
//! ```
//!
//! Each run starts the command in a fresh pseudo-terminal (portable-pty) of
//! the given size, with `TERM=xterm-256color`. The clock starts just before
//! the spawn. A thread reads the pty and timestamps every chunk as it
//! arrives; the main thread feeds the chunks to a `vt100::Parser` and stops
//! the clock at the arrival of the chunk after which the marker text is
//! anywhere on the emulated screen (`screen().contents()`, rows joined by
//! newlines, so a marker must not straddle a line break). Then it sends the
//! quit keys (default `q`), waits for the exit and kills the process after a
//! timeout.
//!
//! Terminal queries that programs may wait on are answered from the output
//! stream, as a terminal would: cursor position (`ESC[6n`), status
//! (`ESC[5n`), primary and secondary device attributes (`ESC[c`, `ESC[>c`),
//! window size in characters and pixels (`ESC[18t`, `ESC[14t`, `ESC[16t`),
//! mode requests (`ESC[?N$p`, answered "not recognised") and the
//! foreground / background / cursor colour (OSC 10/11/12 with `?`). The
//! kitty keyboard query `ESC[?u` is not answered, as by xterm, so a program
//! that sends it followed by `ESC[c` learns that the protocol is absent.
//!
//! Peak RSS: `/proc/PID/status` `VmHWM` (the kernel's high-water mark of
//! the resident set) is read for the child and all its descendants at the
//! moment the marker appears and again just before the quit keys are sent;
//! the largest value of a single process is reported. These reads happen
//! after the clock has stopped, so they do not change the timing. A program
//! that exits on its own before the marker read (like `cat`) has no RSS.
//!
//! With several commands (`--cmd` flags) the runs interleave: A B C A B C
//! ..., so that machine noise spreads evenly. A `--cmd` that is a plain
//! command line (words, quotes, backslashes) is split and executed
//! directly; one with shell syntax runs under `bash -c` (about 1 ms more;
//! bash execs a lone simple command, so the pid is still the program's). One `--marker` is
//! shared by all commands, or one is given per command, in order. A
//! trailing `-- CMD ARGS...` counts as the first command (run directly).
//! `--warmup` runs (default 1 per command) are done first and not counted.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

#[derive(Parser, Debug)]
#[command(
    about = "Time to first frame of terminal programs in a pseudo-terminal",
    after_help = "Examples:\n  \
        first_frame --marker 'Two very different clocks' -- less lesson.md\n  \
        first_frame --compare --cmd 'lectern l.json' --cmd 'less l.md' --marker 'Two very different clocks'"
)]
struct Args {
    /// Measured runs per command.
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Unmeasured runs per command before the measured ones.
    #[arg(long, default_value_t = 1)]
    warmup: usize,
    #[arg(long, default_value_t = 100)]
    cols: u16,
    #[arg(long, default_value_t = 30)]
    rows: u16,
    /// Text whose appearance on screen stops the clock: once (shared) or once per command.
    #[arg(long, required = true)]
    marker: Vec<String>,
    /// Keys sent after the marker appears, to quit. Escapes: \e \r \n \t \xHH \\.
    #[arg(long, default_value = "q")]
    keys: String,
    /// Compare mode: commands are given with --cmd (implied by --cmd).
    #[arg(long)]
    compare: bool,
    /// A command as a shell string; repeat for several. A plain command line
    /// (words, quotes and backslashes only) is split and run directly; one
    /// with shell syntax ($, ;, |, &, <, >, globs, VAR=...) with `bash -c`.
    #[arg(long = "cmd")]
    cmds: Vec<String>,
    /// Run every --cmd with `bash -c`, even plain ones.
    #[arg(long)]
    shell: bool,
    /// Table label per command, in order (default: the command itself).
    #[arg(long = "label")]
    labels: Vec<String>,
    /// Give up on a run when the marker has not appeared after this long.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Kill the program when it has not exited this long after the quit keys.
    #[arg(long, default_value_t = 3_000)]
    quit_timeout_ms: u64,
    /// Keep the program running this long after the marker before quitting
    /// (e.g. to let background work finish).
    #[arg(long, default_value_t = 0)]
    hold_ms: u64,
    /// Also report "settled": the arrival of the last output chunk after the
    /// marker, once the program has been quiet for this long (0: off).
    #[arg(long, default_value_t = 0)]
    settle_ms: u64,
    /// Set VAR to a new empty temporary directory for every run (e.g. LECTERN_DATA_DIR).
    #[arg(long, value_name = "VAR")]
    fresh_env: Vec<String>,
    /// Extra environment for the commands, KEY=VALUE.
    #[arg(long, value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// Output format of the results.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Also write the results as TSV to this file (for scripts).
    #[arg(long, value_name = "FILE")]
    tsv_out: Option<std::path::PathBuf>,
    /// Print each run's time to stderr.
    #[arg(long, short)]
    verbose: bool,
    /// Print the screen as it was when the marker appeared (first measured run of each command) to stderr.
    #[arg(long)]
    show: bool,
    /// The command to time, run directly (counts as the first command).
    #[arg(last = true)]
    command: Vec<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Markdown,
    Tsv,
}

struct Spec {
    label: String,
    argv: Vec<String>,
    marker: String,
}

struct Config {
    cols: u16,
    rows: u16,
    keys: Vec<u8>,
    timeout: Duration,
    quit_timeout: Duration,
    hold: Duration,
    settle: Duration,
    fresh_env: Vec<String>,
    env: Vec<(String, String)>,
}

struct RunOk {
    first_frame: Duration,
    /// The screen when the marker appeared.
    screen: String,
    /// Arrival of the last chunk before a quiet period (with --settle-ms).
    settled: Option<Duration>,
    /// Peak RSS in KiB of the largest process of the tree, if it could be read.
    rss_kib: Option<u64>,
    /// From sending the quit keys to the exit.
    quit: Option<Duration>,
    killed: bool,
}

#[derive(Default)]
struct Stats {
    times: Vec<Duration>,
    rss_kib: Option<u64>,
    quits: Vec<Duration>,
    settles: Vec<Duration>,
    failures: usize,
    killed: usize,
    first_failure: Option<String>,
}

/// Splits a plain command line into words (single quotes, double quotes
/// and backslashes as in sh); None when it needs a shell.
fn split_plain(s: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        ch => word.push(ch),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' | '!' => return None,
                        ch => word.push(ch),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next()? {
                    '\n' => return None,
                    ch => word.push(ch),
                }
            }
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '[' | ']' | '{'
            | '}' | '~' | '!' | '#' | '\n' => return None,
            ch => {
                in_word = true;
                word.push(ch);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    // `VAR=value cmd` is an assignment, which needs the shell.
    if words.first().is_some_and(|w| w.contains('=')) {
        return None;
    }
    Some(words)
}

fn parse_keys(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('e') => out.push(0x1b),
            Some('r') => out.push(b'\r'),
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('\\') => out.push(b'\\'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let b = u8::from_str_radix(&hex, 16)
                    .map_err(|_| format!("bad \\x escape in --keys: \\x{hex}"))?;
                out.push(b);
            }
            other => return Err(format!("unknown escape in --keys: \\{other:?}")),
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Terminal queries

enum ScanState {
    Ground,
    Esc,
    Csi(Vec<u8>),
    Osc(Vec<u8>),
    OscEsc(Vec<u8>),
}

/// Finds terminal queries in the output stream, across chunk boundaries.
struct QueryScanner {
    state: ScanState,
}

enum Query {
    CursorPosition { private: bool },
    Status,
    PrimaryAttributes,
    SecondaryAttributes,
    TextAreaChars,
    TextAreaPixels,
    CellPixels,
    Mode { private: bool, mode: String },
    Colour { which: u8, st: bool },
}

impl QueryScanner {
    fn new() -> Self {
        QueryScanner {
            state: ScanState::Ground,
        }
    }

    /// Feeds one byte; returns a query when this byte completes one.
    fn feed(&mut self, b: u8) -> Option<Query> {
        const MAX: usize = 64;
        let state = std::mem::replace(&mut self.state, ScanState::Ground);
        let (next, query) = match state {
            ScanState::Ground => (
                if b == 0x1b {
                    ScanState::Esc
                } else {
                    ScanState::Ground
                },
                None,
            ),
            ScanState::Esc => (
                match b {
                    b'[' => ScanState::Csi(Vec::new()),
                    b']' => ScanState::Osc(Vec::new()),
                    0x1b => ScanState::Esc,
                    _ => ScanState::Ground,
                },
                None,
            ),
            ScanState::Csi(mut buf) => match b {
                0x20..=0x3f => {
                    if buf.len() < MAX {
                        buf.push(b);
                    }
                    (ScanState::Csi(buf), None)
                }
                0x40..=0x7e => (ScanState::Ground, csi_query(&buf, b)),
                0x1b => (ScanState::Esc, None),
                _ => (ScanState::Ground, None),
            },
            ScanState::Osc(mut buf) => match b {
                0x07 => (ScanState::Ground, osc_query(&buf, false)),
                0x1b => (ScanState::OscEsc(buf), None),
                _ => {
                    if buf.len() < MAX {
                        buf.push(b);
                    }
                    (ScanState::Osc(buf), None)
                }
            },
            ScanState::OscEsc(buf) => match b {
                b'\\' => (ScanState::Ground, osc_query(&buf, true)),
                b'[' => (ScanState::Csi(Vec::new()), None),
                b']' => (ScanState::Osc(Vec::new()), None),
                _ => (ScanState::Ground, None),
            },
        };
        self.state = next;
        query
    }
}

fn csi_query(params: &[u8], fin: u8) -> Option<Query> {
    match (params, fin) {
        (b"6", b'n') => Some(Query::CursorPosition { private: false }),
        (b"?6", b'n') => Some(Query::CursorPosition { private: true }),
        (b"5", b'n') => Some(Query::Status),
        (b"" | b"0", b'c') => Some(Query::PrimaryAttributes),
        (b">" | b">0", b'c') => Some(Query::SecondaryAttributes),
        (b"18", b't') => Some(Query::TextAreaChars),
        (b"14", b't') => Some(Query::TextAreaPixels),
        (b"16", b't') => Some(Query::CellPixels),
        (p, b'p') if p.ends_with(b"$") => {
            let private = p.starts_with(b"?");
            let digits = &p[usize::from(private)..p.len() - 1];
            if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                Some(Query::Mode {
                    private,
                    mode: String::from_utf8_lossy(digits).into_owned(),
                })
            } else {
                None
            }
        }
        _ => None,
    }
}

fn osc_query(buf: &[u8], st: bool) -> Option<Query> {
    match buf {
        b"10;?" => Some(Query::Colour { which: 10, st }),
        b"11;?" => Some(Query::Colour { which: 11, st }),
        b"12;?" => Some(Query::Colour { which: 12, st }),
        _ => None,
    }
}

fn reply(q: &Query, screen: &vt100::Screen, rows: u16, cols: u16) -> Vec<u8> {
    let (r, c) = screen.cursor_position();
    let s = match q {
        Query::CursorPosition { private: false } => format!("\x1b[{};{}R", r + 1, c + 1),
        Query::CursorPosition { private: true } => format!("\x1b[?{};{};1R", r + 1, c + 1),
        Query::Status => "\x1b[0n".to_string(),
        Query::PrimaryAttributes => "\x1b[?1;2c".to_string(),
        Query::SecondaryAttributes => "\x1b[>0;0;0c".to_string(),
        Query::TextAreaChars => format!("\x1b[8;{rows};{cols}t"),
        Query::TextAreaPixels => format!("\x1b[4;{};{}t", rows as u32 * 16, cols as u32 * 8),
        Query::CellPixels => "\x1b[6;16;8t".to_string(),
        Query::Mode { private, mode } => {
            format!("\x1b[{}{mode};0$y", if *private { "?" } else { "" })
        }
        Query::Colour { which, st } => {
            let rgb = if *which == 11 {
                "0000/0000/0000"
            } else {
                "ffff/ffff/ffff"
            };
            let end = if *st { "\x1b\\" } else { "\x07" };
            format!("\x1b]{which};rgb:{rgb}{end}")
        }
    };
    s.into_bytes()
}

/// The emulated terminal: a vt100 parser plus the query answerer.
struct Term {
    parser: vt100::Parser,
    scanner: QueryScanner,
    rows: u16,
    cols: u16,
}

impl Term {
    fn new(rows: u16, cols: u16) -> Self {
        let nz = |v: u16| std::num::NonZeroU16::new(v.max(1)).unwrap();
        Term {
            parser: vt100::Parser::new(nz(rows), nz(cols), 0),
            scanner: QueryScanner::new(),
            rows,
            cols,
        }
    }

    /// Processes a chunk; answers queries through `writer` at the point where
    /// they occur (so a cursor-position report sees the right cursor).
    fn process(&mut self, bytes: &[u8], writer: &mut dyn Write) {
        let mut done = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if let Some(q) = self.scanner.feed(b) {
                self.parser.process(&bytes[done..=i]);
                done = i + 1;
                let answer = reply(&q, self.parser.screen(), self.rows, self.cols);
                let _ = writer.write_all(&answer);
                let _ = writer.flush();
            }
        }
        self.parser.process(&bytes[done..]);
    }

    fn contains(&self, marker: &str) -> bool {
        self.parser.screen().contents().contains(marker)
    }
}

// ---------------------------------------------------------------------------
// /proc

/// The child and all its descendants.
fn process_tree(root: u32) -> Vec<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // "pid (comm) state ppid ..." where comm may hold spaces and parens.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok()) {
                children.entry(ppid).or_default().push(pid);
            }
        }
    }
    let mut out = vec![root];
    let mut k = 0;
    while k < out.len() {
        if let Some(c) = children.get(&out[k]) {
            out.extend(c);
        }
        k += 1;
    }
    out
}

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn peak_rss_kib(root: Option<u32>) -> Option<u64> {
    let root = root?;
    process_tree(root).into_iter().filter_map(vm_hwm_kib).max()
}

// ---------------------------------------------------------------------------
// One run

type Chunk = (Instant, Vec<u8>);

/// Drains output until `until`, answering queries; returns true when the
/// output ended (the pty closed).
fn drain(rx: &Receiver<Chunk>, term: &mut Term, writer: &mut dyn Write, until: Instant) -> bool {
    loop {
        let now = Instant::now();
        if now >= until {
            return false;
        }
        match rx.recv_timeout(until - now) {
            Ok((_, bytes)) => term.process(&bytes, writer),
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => return true,
        }
    }
}

fn run_once(spec: &Spec, cfg: &Config) -> Result<RunOk, String> {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: cfg.rows,
            cols: cfg.cols,
            pixel_width: cfg.cols * 8,
            pixel_height: cfg.rows * 16,
        })
        .map_err(|e| format!("openpty: {e}"))?;

    let mut cmd = CommandBuilder::from_argv(spec.argv.iter().map(OsString::from).collect());
    if let Ok(cwd) = std::env::current_dir() {
        cmd.cwd(cwd);
    }
    cmd.env("TERM", "xterm-256color");
    if let Ok(dir) = std::env::var("LECTERN_DATA_DIR") {
        cmd.env("LECTERN_DATA_DIR", dir);
    }
    for (k, v) in &cfg.env {
        cmd.env(k, v);
    }
    let mut fresh = Vec::new();
    for var in &cfg.fresh_env {
        let dir = tempfile::Builder::new()
            .prefix("first-frame-")
            .tempdir()
            .map_err(|e| format!("tempdir: {e}"))?;
        cmd.env(var, dir.path());
        fresh.push(dir);
    }

    let mut reader = pair
        .master
        .try_clone_reader()
        .map_err(|e| format!("pty reader: {e}"))?;
    let mut writer = pair
        .master
        .take_writer()
        .map_err(|e| format!("pty writer: {e}"))?;
    let (tx, rx) = mpsc::channel::<Chunk>();
    // The reader thread exists before the clock starts; it ends when the
    // pty closes (all processes holding the slave side have exited).
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send((Instant::now(), buf[..n].to_vec())).is_err() {
                        break;
                    }
                }
            }
        }
    });

    let mut term = Term::new(cfg.rows, cfg.cols);
    let t0 = Instant::now();
    let mut child = pair
        .slave
        .spawn_command(cmd)
        .map_err(|e| format!("spawn {:?}: {e}", spec.argv))?;
    drop(pair.slave);
    let pid = child.process_id();

    // Wait for the marker.
    let deadline = t0 + cfg.timeout;
    let mut first_frame = None;
    let mut closed = false;
    while first_frame.is_none() {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        match rx.recv_timeout(deadline - now) {
            Ok((at, bytes)) => {
                term.process(&bytes, &mut *writer);
                if term.contains(&spec.marker) {
                    first_frame = Some(at - t0);
                }
            }
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => {
                closed = true;
                break;
            }
        }
    }
    let mut rss = peak_rss_kib(pid);
    let screen = term.parser.screen().contents();

    let Some(first_frame) = first_frame else {
        let why = if closed {
            "the program exited before the marker appeared"
        } else {
            "timed out waiting for the marker"
        };
        kill_tree(&mut *child, pid);
        return Err(format!(
            "{why} (marker {:?}); last screen:\n{}",
            spec.marker,
            screen.trim_end()
        ));
    };

    let mut settled = None;
    if !cfg.settle.is_zero() && !closed {
        let mut last = t0 + first_frame;
        loop {
            if last.elapsed() > cfg.timeout {
                break;
            }
            match rx.recv_timeout(cfg.settle) {
                Ok((at, bytes)) => {
                    term.process(&bytes, &mut *writer);
                    last = at;
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    closed = true;
                    break;
                }
            }
        }
        settled = Some(last - t0);
    }
    if !cfg.hold.is_zero() && !closed {
        closed = drain(&rx, &mut term, &mut *writer, Instant::now() + cfg.hold);
    }
    rss = rss.max(peak_rss_kib(pid));

    // Quit.
    let mut quit = None;
    let mut killed = false;
    let exited_already = matches!(child.try_wait(), Ok(Some(_)));
    if !exited_already {
        let sent = Instant::now();
        let _ = writer.write_all(&cfg.keys);
        let _ = writer.flush();
        let quit_deadline = sent + cfg.quit_timeout;
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                quit = Some(sent.elapsed());
                break;
            }
            if Instant::now() >= quit_deadline {
                kill_tree(&mut *child, pid);
                killed = true;
                break;
            }
            if closed {
                std::thread::sleep(Duration::from_millis(1));
            } else {
                closed = drain(
                    &rx,
                    &mut term,
                    &mut *writer,
                    (Instant::now() + Duration::from_millis(2)).min(quit_deadline),
                );
            }
        }
    }
    let _ = child.wait();
    drop(fresh);
    Ok(RunOk {
        first_frame,
        screen,
        settled,
        rss_kib: rss,
        quit,
        killed,
    })
}

/// Ends the child (SIGHUP, then SIGKILL) and any descendants still alive.
fn kill_tree(child: &mut dyn portable_pty::Child, pid: Option<u32>) {
    let tree = pid.map(process_tree).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    let rest: Vec<String> = tree
        .iter()
        .skip(1)
        .filter(|p| std::path::Path::new(&format!("/proc/{p}")).exists())
        .map(u32::to_string)
        .collect();
    if !rest.is_empty() {
        let _ = std::process::Command::new("kill")
            .arg("-KILL")
            .args(&rest)
            .status();
    }
}

// ---------------------------------------------------------------------------
// Reporting

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(sorted: &[Duration]) -> Duration {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// Nearest-rank percentile.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

struct Row {
    label: String,
    runs: usize,
    failures: usize,
    median: Option<f64>,
    min: Option<f64>,
    p90: Option<f64>,
    max: Option<f64>,
    rss_mib: Option<f64>,
    quit: Option<f64>,
    settled: Option<f64>,
    ratio: Option<f64>,
}

fn rows(specs: &[Spec], stats: &mut [Stats]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for (spec, st) in specs.iter().zip(stats.iter_mut()) {
        st.times.sort();
        st.quits.sort();
        st.settles.sort();
        let t = &st.times;
        let some = !t.is_empty();
        out.push(Row {
            label: spec.label.clone(),
            runs: t.len(),
            failures: st.failures,
            median: some.then(|| ms(median(t))),
            min: some.then(|| ms(t[0])),
            p90: some.then(|| ms(percentile(t, 90.0))),
            max: some.then(|| ms(t[t.len() - 1])),
            rss_mib: st.rss_kib.map(|k| k as f64 / 1024.0),
            quit: (!st.quits.is_empty()).then(|| ms(median(&st.quits))),
            settled: (!st.settles.is_empty()).then(|| ms(median(&st.settles))),
            ratio: None,
        });
    }
    let base = out.first().and_then(|r| r.median);
    for r in &mut out {
        r.ratio = match (r.median, base) {
            (Some(m), Some(b)) if b > 0.0 => Some(m / b),
            _ => None,
        };
    }
    out
}

fn f1(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"))
}

fn f2(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

fn format_rows(rows: &[Row], format: Format) -> String {
    let mut out = String::new();
    macro_rules! outln {
        ($($arg:tt)*) => {{
            out.push_str(&format!($($arg)*));
            out.push('\n');
        }};
    }
    let with_settled = rows.iter().any(|r| r.settled.is_some());
    let mut header = vec![
        "command",
        "median ms",
        "p90 ms",
        "min ms",
        "peak RSS MiB",
        "ratio",
        "quit ms",
    ];
    if with_settled {
        header.push("settled ms");
    }
    header.push("runs");
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut c = vec![
                r.label.clone(),
                f1(r.median),
                f1(r.p90),
                f1(r.min),
                f1(r.rss_mib),
                f2(r.ratio),
                f1(r.quit),
            ];
            if with_settled {
                c.push(f1(r.settled));
            }
            c.push(if r.failures > 0 {
                format!("{} ({} failed)", r.runs, r.failures)
            } else {
                r.runs.to_string()
            });
            c
        })
        .collect();
    match format {
        Format::Tsv => {
            outln!(
                "command\tmedian_ms\tp90_ms\tmin_ms\tmax_ms\tpeak_rss_mib\tratio\tquit_ms\tsettled_ms\truns\tfailures"
            );
            for r in rows {
                outln!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    r.label.replace(['\t', '\n'], " "),
                    f2(r.median),
                    f2(r.p90),
                    f2(r.min),
                    f2(r.max),
                    f2(r.rss_mib),
                    f2(r.ratio),
                    f2(r.quit),
                    f2(r.settled),
                    r.runs,
                    r.failures
                );
            }
        }
        Format::Markdown => {
            outln!("| {} |", header.join(" | "));
            let rule: String = (0..header.len())
                .map(|i| if i == 0 { "---|" } else { "---:|" })
                .collect();
            outln!("|{rule}");
            for c in &cells {
                let mut c = c.clone();
                c[0] = format!("`{}`", c[0].replace('|', "\\|"));
                outln!("| {} |", c.join(" | "));
            }
        }
        Format::Table => {
            let mut width: Vec<usize> = header.iter().map(|h| h.len()).collect();
            for c in &cells {
                for (w, s) in width.iter_mut().zip(c.iter()) {
                    *w = (*w).max(s.chars().count());
                }
            }
            let line = |c: &[String]| {
                let mut s = String::new();
                for (i, (cell, w)) in c.iter().zip(width.iter()).enumerate() {
                    if i == 0 {
                        s.push_str(&format!("{cell:<w$}"));
                    } else {
                        s.push_str(&format!("  {cell:>w$}"));
                    }
                }
                s.trim_end().to_string()
            };
            let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
            outln!("{}", line(&header));
            for c in &cells {
                outln!("{}", line(c));
            }
        }
    }
    out
}

fn main() {
    let args = Args::parse();
    match real_main(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("first_frame: {e}");
            std::process::exit(2);
        }
    }
}

fn real_main(args: Args) -> Result<i32, String> {
    let shell = if std::path::Path::new("/bin/bash").exists() {
        "bash"
    } else {
        "sh"
    };
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    if !args.command.is_empty() {
        commands.push((args.command.join(" "), args.command.clone()));
    }
    for c in &args.cmds {
        let argv = match split_plain(c) {
            Some(words) if !args.shell && !words.is_empty() => words,
            _ => vec![shell.into(), "-c".into(), c.clone()],
        };
        commands.push((c.clone(), argv));
    }
    if commands.is_empty() {
        return Err("no command: give `-- CMD ARGS...` or --cmd 'shell string'".into());
    }
    if args.compare && commands.len() < 2 {
        eprintln!("first_frame: note: --compare with a single command");
    }
    let markers = match args.marker.len() {
        1 => vec![args.marker[0].clone(); commands.len()],
        n if n == commands.len() => args.marker.clone(),
        n => {
            return Err(format!(
                "{n} markers for {} commands: give one shared marker or one per command",
                commands.len()
            ));
        }
    };
    if markers.iter().any(String::is_empty) {
        return Err("empty marker".into());
    }
    if !args.labels.is_empty() && args.labels.len() != commands.len() {
        return Err(format!(
            "{} labels for {} commands",
            args.labels.len(),
            commands.len()
        ));
    }
    if args.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let specs: Vec<Spec> = commands
        .into_iter()
        .zip(markers)
        .enumerate()
        .map(|(i, ((label, argv), marker))| Spec {
            label: args.labels.get(i).cloned().unwrap_or(label),
            argv,
            marker,
        })
        .collect();
    let mut env = Vec::new();
    for kv in &args.env {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--env wants KEY=VALUE, got {kv:?}"))?;
        env.push((k.to_string(), v.to_string()));
    }
    let cfg = Config {
        cols: args.cols,
        rows: args.rows,
        keys: parse_keys(&args.keys)?,
        timeout: Duration::from_millis(args.timeout_ms),
        quit_timeout: Duration::from_millis(args.quit_timeout_ms),
        hold: Duration::from_millis(args.hold_ms),
        settle: Duration::from_millis(args.settle_ms),
        fresh_env: args.fresh_env.clone(),
        env,
    };

    let mut stats: Vec<Stats> = specs.iter().map(|_| Stats::default()).collect();
    eprintln!(
        "first_frame: {} command(s), {} warm-up + {} measured run(s) each, interleaved, {}x{}",
        specs.len(),
        args.warmup,
        args.runs,
        cfg.cols,
        cfg.rows
    );
    for round in 0..args.warmup + args.runs {
        let measured = round >= args.warmup;
        for (i, spec) in specs.iter().enumerate() {
            let st = &mut stats[i];
            match run_once(spec, &cfg) {
                Ok(r) => {
                    if args.verbose {
                        eprintln!(
                            "{} run {round}: {:.2} ms, rss {} KiB{}{}",
                            spec.label,
                            ms(r.first_frame),
                            r.rss_kib.map_or("-".into(), |k| k.to_string()),
                            if measured { "" } else { " (warm-up)" },
                            if r.killed { ", killed" } else { "" }
                        );
                    }
                    if measured && args.show && st.times.is_empty() {
                        eprintln!(
                            "--- {} at the marker ({:.2} ms) ---\n{}\n---",
                            spec.label,
                            ms(r.first_frame),
                            r.screen.trim_end()
                        );
                    }
                    if measured {
                        st.times.push(r.first_frame);
                        st.rss_kib = st.rss_kib.max(r.rss_kib);
                        st.quits.extend(r.quit);
                        st.settles.extend(r.settled);
                        st.killed += usize::from(r.killed);
                    }
                }
                Err(e) => {
                    if measured {
                        st.failures += 1;
                    }
                    if st.first_failure.is_none() {
                        eprintln!("first_frame: {} failed: {e}", spec.label);
                        st.first_failure = Some(e);
                    }
                }
            }
        }
    }
    for (spec, st) in specs.iter().zip(&stats) {
        if st.killed > 0 {
            eprintln!(
                "first_frame: note: {} did not exit after the quit keys in {} run(s) and was killed",
                spec.label, st.killed
            );
        }
    }
    let rows = rows(&specs, &mut stats);
    print!("{}", format_rows(&rows, args.format));
    if let Some(path) = &args.tsv_out {
        std::fs::write(path, format_rows(&rows, Format::Tsv))
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(if rows.iter().any(|r| r.failures > 0) {
        1
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: &[&str]) -> Option<Vec<String>> {
        Some(v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn plain_command_lines_are_split() {
        assert_eq!(split_plain("less /tmp/a.md"), w(&["less", "/tmp/a.md"]));
        assert_eq!(
            split_plain("less /tmp/a\\ b.md"),
            w(&["less", "/tmp/a b.md"])
        );
        assert_eq!(
            split_plain("x 'a b' \"c d\" ''"),
            w(&["x", "a b", "c d", ""])
        );
        assert_eq!(
            split_plain("  bat  --paging=always f"),
            w(&["bat", "--paging=always", "f"])
        );
        assert_eq!(
            split_plain("bat --color always f"),
            w(&["bat", "--color", "always", "f"])
        );
    }

    #[test]
    fn shell_syntax_needs_a_shell() {
        for s in [
            "a; b",
            "a | b",
            "sleep 1 && x",
            "X=1 y",
            "echo $HOME",
            "ls *.md",
            "a > f",
            "'open",
        ] {
            assert_eq!(split_plain(s), None, "{s}");
        }
    }

    #[test]
    fn queries_are_found_across_chunks() {
        let mut sc = QueryScanner::new();
        let found: Vec<bool> = b"ab\x1b[6nx\x1b[?1049h\x1b[c\x1b]11;?\x07"
            .iter()
            .map(|&b| sc.feed(b).is_some())
            .collect();
        assert_eq!(found.iter().filter(|x| **x).count(), 3);
        let mut term = Term::new(30, 100);
        let mut out = Vec::new();
        term.process(b"\x1b[5;7H\x1b[6", &mut out);
        term.process(b"n", &mut out);
        assert_eq!(out, b"\x1b[5;7R");
    }

    #[test]
    fn keys_and_percentiles() {
        assert_eq!(parse_keys("q").unwrap(), b"q");
        assert_eq!(parse_keys("\\e:q\\r\\x03").unwrap(), b"\x1b:q\r\x03");
        let v: Vec<Duration> = (1..=10).map(Duration::from_millis).collect();
        assert_eq!(percentile(&v, 90.0), Duration::from_millis(9));
        assert_eq!(median(&v), Duration::from_micros(5500));
    }
}
