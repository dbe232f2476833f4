//! Everything the commands print goes through here, for two reasons:
//!
//! * A closed pipe (`lectern stats | true`) is the reader of the output
//!   going away, not an error: `println!` would panic on it (EPIPE, since
//!   Rust ignores SIGPIPE). The first write that finds the pipe closed
//!   stops all later ones, and the command ends with the status a shell
//!   gives a process killed by SIGPIPE (141), quietly.
//! * Messages (errors, warnings, clap's usage errors) carry bytes from
//!   outside: file names, argv, paths, the OS's and SQLite's words. Each
//!   line is sanitised before it reaches the terminal.

use crate::model::sanitize::clean;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// The status of a command whose output was cut off by a closed pipe.
pub(crate) const CLOSED_STATUS: u8 = 141;

/// Text for stdout as is: the caller built it from sanitised content
/// (render's styles are escape sequences of its own). A closed pipe is
/// not an error; anything else (a full disk under `> file`) is.
pub(crate) fn stdout(text: &str) -> std::io::Result<()> {
    write(&mut std::io::stdout().lock(), text.as_bytes())
}

/// One message per line on stderr, each line sanitised. If stderr cannot
/// take it there is nowhere left to say so.
pub(crate) fn stderr(message: &str) {
    let lines = clean_lines(message);
    let _ = write(&mut std::io::stderr().lock(), lines.as_bytes());
}

/// JSON text (serde_json's) safe for a terminal with the same value: it
/// escapes only the C0 controls, so DEL, C1 controls, bidi overrides,
/// zero-width and tag characters in a string (a file name's path, kept
/// exact for scripts) would reach the terminal raw. Each becomes a
/// `\uXXXX` escape; outside strings JSON holds nothing but ASCII.
pub(crate) fn json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut units = [0u16; 2];
    for c in text.chars() {
        if c >= '\u{7f}' && crate::model::sanitize::is_invisible(c) {
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `message`'s lines, each sanitised, each ending in a newline.
pub(crate) fn clean_lines(message: &str) -> String {
    let mut out = String::with_capacity(message.len() + 1);
    for line in message.lines() {
        out.push_str(&clean(line));
        out.push('\n');
    }
    out
}

fn write(w: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    match w.write_all(bytes).and_then(|()| w.flush()) {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// Whether a pipe closed under a write.
pub(crate) fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// `status`, unless the output was cut off.
pub(crate) fn status(status: ExitCode) -> ExitCode {
    if closed() {
        ExitCode::from(CLOSED_STATUS)
    } else {
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_a_message_is_sanitised() {
        let m = clean_lines("error: unexpected argument '--\u{1b}]0;PWNED\u{7}.json'\n\nUsage: x");
        assert!(!m.contains('\u{1b}') && !m.contains('\u{7}'), "{m:?}");
        assert_eq!(m.lines().count(), 3);
        assert!(m.ends_with("Usage: x\n"));
    }

    #[test]
    fn json_escapes_what_a_terminal_would_act_on_and_keeps_the_value() {
        let value = serde_json::json!({"path": "a\u{7f}\u{9b}\u{202e}b\u{200b}\u{e0041}é"});
        let text = json(&serde_json::to_string_pretty(&value).unwrap());
        let raw = |c: char| c != '\n' && crate::model::sanitize::is_invisible(c);
        assert!(!text.chars().any(raw), "{text:?}");
        assert!(
            text.contains("\\u202e") && text.contains("\\udb40\\udc41"),
            "{text}"
        );
        assert!(text.contains('é') && text.contains('\n'), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn a_closed_pipe_stops_the_writes() {
        struct Closed(usize);
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                self.0 += 1;
                Err(ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut w = Closed(0);
        assert!(write(&mut w, b"a").is_ok() && write(&mut w, b"b").is_ok());
        assert_eq!(w.0, 1);
        assert!(closed());
    }
}
