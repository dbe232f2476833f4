//! Course-search keys harness: how long after a key its echo, its hits and
//! their snippets are on screen, in the reader's course search.
//!
//! ```text
//! search_keys [--cols 100 --rows 30] [--runs 5] [--warmup 1] --ready TEXT \
//!     --query 'buffer worker' [--query Q2 ...] -- lectern DIR
//! ```
//!
//! The command runs in a pseudo-terminal (portable-pty, `TERM=xterm-256color`)
//! whose output a reader thread timestamps chunk by chunk and a
//! `vt100::Parser` turns into a screen. Once `--ready` is on screen and the
//! output has been quiet for `--quiet-ms`, `s` opens the course search. Then
//! each query is typed one key at a time, each key sent when the screen has
//! been quiet for `--quiet-ms` after the one before (so every key is measured
//! alone), and after the query Ctrl-U clears the prompt. For each key, from
//! the moment it is written:
//!
//! - echo: the arrival of the first chunk after which the prompt reads
//!   `› QUERY▏` with the key in it;
//! - hits: the first chunk after which the echo is there and the status line
//!   and every hit's heading row are as they are once the screen is quiet
//!   (the hits of that query drawn, titles before snippets); a key after
//!   which they are as they were before it (the same hits) has no hits time;
//! - snippets: the first chunk after which the whole screen is as it is when
//!   quiet.
//!
//! The first `--warmup` passes over the queries are not counted. Output: a
//! markdown table of median, p95 (nearest rank) and max per measure, and the
//! count of keys. Only the reader's start-up queries that it waits for are
//! answered (the background colour, OSC 11, and device attributes, `ESC[c`).

use std::ffi::OsString;
use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clap::Parser;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

#[derive(Parser, Debug)]
#[command(about = "Per-key latency of the reader's course search in a pseudo-terminal")]
struct Args {
    #[arg(long, default_value_t = 100)]
    cols: u16,
    #[arg(long, default_value_t = 30)]
    rows: u16,
    /// Measured passes over the queries.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Passes typed first and not counted.
    #[arg(long, default_value_t = 1)]
    warmup: usize,
    /// Text on screen once the reader is up.
    #[arg(long)]
    ready: String,
    /// A query typed key by key (repeatable).
    #[arg(long = "query", required = true)]
    queries: Vec<String>,
    /// Quiet output for this long means the screen is settled.
    #[arg(long, default_value_t = 300)]
    quiet_ms: u64,
    /// Each key's figures, tab-separated, to this file.
    #[arg(long)]
    tsv_out: Option<std::path::PathBuf>,
    /// The command (the reader on a course).
    #[arg(last = true, required = true)]
    cmd: Vec<String>,
}

type Chunk = (Instant, Vec<u8>);

/// The emulated screen, and the writer for keys and answers.
struct Term {
    parser: vt100::Parser,
    writer: Box<dyn Write + Send>,
    rx: Receiver<Chunk>,
    /// Kept open while the child runs.
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Term {
    fn feed(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
        // The reader waits for these at start-up (each in one write).
        if contains(bytes, b"\x1b]11;?") {
            self.send(b"\x1b]11;rgb:0000/0000/0000\x1b\\");
        }
        if contains(bytes, b"\x1b[c") {
            self.send(b"\x1b[?1;2c");
        }
        if contains(bytes, b"\x1b[6n") {
            let (r, c) = self.parser.screen().cursor_position();
            self.send(format!("\x1b[{};{}R", r + 1, c + 1).as_bytes());
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let _ = self.writer.write_all(bytes);
        let _ = self.writer.flush();
    }

    fn rows(&self) -> Vec<String> {
        let screen = self.parser.screen();
        let (_, cols) = screen.size();
        screen.rows(0, cols.get()).collect()
    }

    /// Chunks until the output has been quiet for `quiet`, each with the
    /// screen after it; at most `limit` in all.
    fn until_quiet(&mut self, quiet: Duration, limit: Duration) -> Vec<(Instant, Vec<String>)> {
        let end = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let wait = quiet.min(end.saturating_duration_since(Instant::now()));
            match self.rx.recv_timeout(wait) {
                Ok((at, bytes)) => {
                    self.feed(&bytes);
                    seen.push((at, self.rows()));
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return seen,
            }
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The status line and the hits' heading rows of the search overlay, found
/// below the prompt row; `None` without a prompt on screen.
fn hits_of(rows: &[String]) -> Option<Vec<String>> {
    let prompt = rows.iter().position(|r| r.contains("› "))?;
    let mut out = vec![rows.get(prompt + 1)?.clone()];
    out.extend(rows.iter().skip(prompt + 2).step_by(2).cloned());
    Some(out)
}

/// A figure's name and how it is read off a key.
type Measure = (&'static str, fn(&Key) -> Option<f64>);

/// One key's figures, in ms after it was written.
struct Key {
    query: String,
    echo: Option<f64>,
    hits: Option<f64>,
    snippets: Option<f64>,
}

fn measure_key(term: &mut Term, typed: &str, c: char, quiet: Duration, before: &[String]) -> Key {
    let echo_text = format!("› {typed}▏");
    let t0 = Instant::now();
    term.send(c.to_string().as_bytes());
    let seen = term.until_quiet(quiet, Duration::from_secs(10));
    let ms = |at: Instant| at.saturating_duration_since(t0).as_secs_f64() * 1000.0;
    let echoed = |rows: &[String]| rows.iter().any(|r| r.contains(&echo_text));
    let last = seen.last().map(|s| s.1.clone()).unwrap_or_default();
    let settled = hits_of(&last);
    let echo = seen.iter().find(|s| echoed(&s.1)).map(|s| ms(s.0));
    let changed = settled.is_some() && hits_of(before) != settled;
    let hits = seen
        .iter()
        .find(|s| changed && echoed(&s.1) && hits_of(&s.1) == settled)
        .map(|s| ms(s.0));
    let snippets = seen.iter().find(|s| s.1 == last).map(|s| ms(s.0));
    Key {
        query: typed.to_string(),
        echo,
        hits,
        snippets: snippets.filter(|_| changed),
    }
}

fn start(args: &Args) -> Result<(Term, Box<dyn portable_pty::Child + Send + Sync>), String> {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: args.rows,
            cols: args.cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(|e| format!("openpty: {e}"))?;
    let mut cmd = CommandBuilder::from_argv(args.cmd.iter().map(OsString::from).collect());
    if let Ok(cwd) = std::env::current_dir() {
        cmd.cwd(cwd);
    }
    cmd.env("TERM", "xterm-256color");
    let mut reader = pair.master.try_clone_reader().map_err(|e| e.to_string())?;
    let writer = pair.master.take_writer().map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel::<Chunk>();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            if tx.send((Instant::now(), buf[..n].to_vec())).is_err() {
                break;
            }
        }
    });
    let child = pair
        .slave
        .spawn_command(cmd)
        .map_err(|e| format!("spawn {:?}: {e}", args.cmd))?;
    drop(pair.slave);
    let nz = |v: u16| std::num::NonZeroU16::new(v.max(1)).expect("at least 1");
    let term = Term {
        parser: vt100::Parser::new(nz(args.rows), nz(args.cols), 0),
        writer,
        rx,
        _master: pair.master,
    };
    Ok((term, child))
}

/// Waits (up to a minute) until `marker` is on screen and the output is
/// quiet.
fn wait_for(term: &mut Term, marker: &str, quiet: Duration) -> Result<(), String> {
    let end = Instant::now() + Duration::from_secs(60);
    while Instant::now() < end {
        term.until_quiet(quiet, Duration::from_secs(1));
        if term.rows().iter().any(|r| r.contains(marker)) {
            term.until_quiet(quiet, Duration::from_secs(30));
            return Ok(());
        }
    }
    Err(format!(
        "no {marker:?} on screen:\n{}",
        term.rows().join("\n")
    ))
}

fn run(args: &Args) -> Result<Vec<Key>, String> {
    let quiet = Duration::from_millis(args.quiet_ms);
    let (mut term, mut child) = start(args)?;
    wait_for(&mut term, &args.ready, quiet)?;
    term.send(b"s");
    wait_for(&mut term, "Search the course", quiet)?;
    let mut keys = Vec::new();
    for pass in 0..args.warmup + args.runs {
        for q in &args.queries {
            let mut typed = String::new();
            for c in q.chars() {
                typed.push(c);
                let before = term.rows();
                let key = measure_key(&mut term, &typed, c, quiet, &before);
                if key.echo.is_none() {
                    return Err(format!("no echo of {typed:?}:\n{}", term.rows().join("\n")));
                }
                if pass >= args.warmup {
                    keys.push(key);
                }
            }
            // Ctrl-U: an empty prompt for the next query.
            term.send(b"\x15");
            term.until_quiet(quiet, Duration::from_secs(10));
        }
    }
    term.send(b"\x1b");
    term.until_quiet(quiet, Duration::from_secs(2));
    term.send(b"q");
    term.until_quiet(quiet, Duration::from_secs(2));
    let _ = child.kill();
    Ok(keys)
}

/// Median, p95 (nearest rank) and max of `v`, in ms.
fn stats(mut v: Vec<f64>) -> Option<(f64, f64, f64)> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let rank = |p: f64| v[((p * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Some((rank(0.5), rank(0.95), v[v.len() - 1]))
}

fn main() {
    let args = Args::parse();
    let keys = match run(&args) {
        Ok(keys) => keys,
        Err(e) => {
            eprintln!("search_keys: {e}");
            std::process::exit(1);
        }
    };
    if let Some(path) = &args.tsv_out {
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        let mut out = String::from("query\techo_ms\thits_ms\tsnippets_ms\n");
        for k in &keys {
            let row = [k.query.clone(), f(k.echo), f(k.hits), f(k.snippets)];
            out.push_str(&(row.join("\t") + "\n"));
        }
        if let Err(e) = std::fs::write(path, out) {
            eprintln!("search_keys: {}: {e}", path.display());
        }
    }
    println!("| after a key | median ms | p95 ms | max ms | keys |");
    println!("|---|---:|---:|---:|---:|");
    let measures: [Measure; 3] = [
        ("echo (the prompt shows it)", |k| k.echo),
        ("hits drawn (titles)", |k| k.hits),
        ("snippets drawn (screen settled)", |k| k.snippets),
    ];
    for (name, get) in measures {
        let v: Vec<f64> = keys.iter().filter_map(get).collect();
        let n = v.len();
        match stats(v) {
            Some((p50, p95, max)) => println!("| {name} | {p50:.1} | {p95:.1} | {max:.1} | {n} |"),
            None => println!("| {name} | - | - | - | 0 |"),
        }
    }
    let same = keys.iter().filter(|k| k.hits.is_none()).count();
    println!(
        "\n{} keys measured ({} passes over {:?}); {same} left the hits as they were (no hits time).",
        keys.len(),
        args.runs,
        args.queries
    );
}
