//! Reading the sync folder: every device's log but this one's, each from
//! where this machine last stopped in it. Only files: no store, no clock.
//!
//! What the transports leave is read as it comes. Any file whose name
//! ends in `.log` is a log, whatever it is called: Syncthing's
//! `ID.sync-conflict-….log`, Dropbox's `ID (1).log` and a copy made by
//! hand are read like the original, and each record says which device
//! made it, so their duplicates are dropped by (device, seq) when merged.
//! A last line without its end (a sync in progress) is left for the next
//! look; a line whose checksum fails is skipped and counted. A file that
//! shrank or whose bytes before the place reached changed (replaced, cut,
//! checked out again) is read again from its start: merging is idempotent.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use super::record::{self, Line, MAX_LINE, Record};

/// Where this machine is in one file of the folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    /// Bytes read: the end of the last whole line taken.
    pub offset: u64,
    /// The CRC-32 of up to [`TAIL`] bytes before `offset`: the same file,
    /// as long as they are the same.
    pub tail: u32,
    /// Lines of it skipped as damaged, so far.
    pub damaged: u32,
}

/// Every file's cursor, by file name.
pub type Cursors = HashMap<String, Cursor>;

/// What a look at the folder found.
#[derive(Debug, Default)]
pub struct Look {
    pub(crate) records: Vec<Record>,
    /// The files read, with where reading them stopped.
    pub(crate) files: Vec<(String, Cursor)>,
    /// Every log file the folder holds now, when it was listed (the
    /// cursors of others are dropped).
    pub(crate) present: Option<Vec<String>>,
    /// Lines skipped this look: damaged, or not records this lectern knows.
    pub(crate) damaged: u32,
    pub(crate) unknown: u32,
    /// The budget ran out: look again for the rest.
    pub(crate) more: bool,
    /// Why the folder could not be read, if it could not.
    pub(crate) problem: Option<String>,
}

/// Bytes before a cursor that say the file is the one read.
const TAIL: u64 = 64;

/// The most files of a folder looked at: a folder of logs holds one per
/// machine and a few copies.
const MAX_FILES: usize = 1000;

/// What one look takes, all files together; the rest waits for the next.
/// Its records are merged on the reader's loop in one transaction: a
/// first look at a year of another machine's changes (10,000 records, a
/// few MB) is merged a chunk at a time, the screen answering between
/// (500 records: about 30 ms, BENCHMARKS.md).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub bytes: u64,
    pub records: usize,
}

impl Budget {
    /// A look's while the reader runs.
    pub(crate) const LOOK: Budget = Budget {
        bytes: 32 << 20,
        records: 500,
    };
    /// A look's when nothing waits for the screen (`lectern sync`): each
    /// chunk is a commit, and builds its cards again.
    pub(crate) const NOW: Budget = Budget {
        bytes: 32 << 20,
        records: 20_000,
    };
}

/// Reads the logs of `folder` (every `*.log` but `own`, this device's) from
/// `cursors`, within `budget`.
pub(crate) fn look(folder: &Path, own: &str, cursors: &Cursors, budget: Budget) -> Look {
    let mut out = Look::default();
    let entries = match std::fs::read_dir(folder) {
        Ok(e) => e,
        // No folder yet: no other machine has written.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return out,
        Err(e) => {
            out.problem = Some(format!("{}: {e}", folder.display()));
            return out;
        }
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| is_log(n) && n != own)
        .take(MAX_FILES)
        .collect();
    names.sort();
    let mut budget = budget;
    for name in &names {
        if budget.records == 0 || budget.bytes == 0 {
            out.more = true;
            break;
        }
        let at = cursors.get(name).copied().unwrap_or_default();
        // Gone meanwhile, or not a file: nothing to read in it.
        let Ok(read) = read(&folder.join(name), at, &mut budget) else {
            continue;
        };
        out.records.extend(read.records);
        out.damaged += read.damaged;
        out.unknown += read.unknown;
        out.more |= read.more;
        if read.cursor != at {
            out.files.push((name.clone(), read.cursor));
        }
    }
    out.present = Some(names);
    out
}

/// A log's name: hidden files are a sync tool's own (Syncthing's
/// `.syncthing.*.tmp`).
fn is_log(name: &str) -> bool {
    name.ends_with(".log") && !name.starts_with('.') && !name.starts_with('~')
}

/// What reading one file from a cursor found.
pub(crate) struct Taken {
    pub records: Vec<Record>,
    pub cursor: Cursor,
    /// Lines skipped this time: damaged, or not records this lectern knows.
    pub damaged: u32,
    pub unknown: u32,
    pub more: bool,
}

/// Reads the whole lines of `path` after `at`, within `budget`.
pub(crate) fn read(path: &Path, at: Cursor, budget: &mut Budget) -> io::Result<Taken> {
    // A FIFO or a device in the folder is never opened (it would block).
    let (mut file, meta) = crate::own::open_regular(path)?;
    let len = meta.len();
    let mut cursor = at;
    if at.offset > len || (at.offset > 0 && tail(&file, at.offset)? != at.tail) {
        cursor = Cursor::default();
    }
    let want = (len - cursor.offset).min(budget.bytes);
    let mut bytes = Vec::with_capacity(usize::try_from(want).unwrap_or(0));
    file.seek(SeekFrom::Start(cursor.offset))?;
    (&mut file).take(want).read_to_end(&mut bytes)?;
    let at_end = cursor.offset + bytes.len() as u64 >= len;
    let mut read = Taken {
        records: Vec::new(),
        cursor,
        damaged: 0,
        unknown: 0,
        more: !at_end,
    };
    let mut taken = 0;
    for piece in bytes.split_inclusive(|b| *b == b'\n') {
        if read.records.len() >= budget.records {
            read.more = true;
            break;
        }
        let whole = piece.ends_with(b"\n");
        // A last line without its end waits for the rest, unless it is
        // longer than any line can be.
        if !whole && (piece.len() <= MAX_LINE || !at_end) {
            break;
        }
        taken += piece.len();
        match record::decode(piece.strip_suffix(b"\n").unwrap_or(piece)) {
            Line::Record(r) => read.records.push(*r),
            Line::Damaged => read.damaged += 1,
            Line::Unknown => read.unknown += 1,
        }
    }
    budget.bytes -= taken as u64;
    budget.records -= read.records.len();
    read.cursor.offset += taken as u64;
    read.cursor.damaged += read.damaged;
    if taken > 0 {
        read.cursor.tail = tail(&file, read.cursor.offset)?;
    }
    Ok(read)
}

/// The CRC-32 of up to [`TAIL`] bytes before `offset`.
fn tail(mut file: &File, offset: u64) -> io::Result<u32> {
    let from = offset.saturating_sub(TAIL);
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::with_capacity(TAIL as usize);
    file.take(offset - from).read_to_end(&mut bytes)?;
    Ok(crc32fast::hash(&bytes))
}
