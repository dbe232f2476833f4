//! `lectern sync [--status] [--json] [--name NAME]`: merges the changes
//! other machines left in the sync folder and says what came (this
//! machine's own log brought up to date first); `--status` lists every
//! device seen, its last change and how far this machine has read it;
//! `--name` names this machine.

use std::fmt::Write as _;

use chrono::{DateTime, Local, Utc};
use serde_json::{Value, json};

use crate::cli::Common;
use crate::config::Settings;
use crate::store::Store;
use crate::store::sync::{Merged, Status};

/// What `lectern sync` is asked.
pub(super) struct How {
    pub(super) status: bool,
    pub(super) json: bool,
    pub(super) name: Option<String>,
}

const NO_FOLDER: &str = "no sync folder: set sync-dir in the config file, or give --sync-dir DIR \
                         or LECTERN_SYNC_DIR (a folder your sync tool carries between machines)";

pub(super) fn run(how: &How, common: &Common, settings: &Settings) -> super::Outcome {
    let folder = settings.sync_dir.value.as_deref();
    if folder.is_none() && !how.status && how.name.is_none() {
        return Err(NO_FOLDER.into());
    }
    let mut store = Store::open(Store::data_dir(common.data_dir.as_deref()).as_deref());
    if let Some(name) = &how.name {
        store.name_device(name)?;
    }
    if let Some(folder) = folder {
        store.sync_to(folder);
    }
    let merged = folder.filter(|_| !how.status).map(|_| store.sync_now());
    let status = store.sync_status();
    let logs = folder.map(|f| f.join(crate::store::sync::FOLDER));
    let out = if how.json {
        let v = to_json(logs.as_deref(), merged.as_ref(), &status);
        format!("{}\n", crate::out::json(&serde_json::to_string_pretty(&v)?))
    } else {
        crate::out::clean_lines(&text(logs.as_deref(), merged.as_ref(), &status, how.status))
    };
    crate::out::stdout(&out)?;
    for line in [store.take_warning(), store.close()].into_iter().flatten() {
        crate::out::stderr(&format!("lectern: {line}"));
    }
    match merged.and_then(|m| m.problem) {
        Some(problem) => Err(problem.into()),
        None => Ok(()),
    }
}

fn when(at: Option<DateTime<Utc>>) -> String {
    at.map_or_else(
        || "no change yet".into(),
        |at| {
            at.with_timezone(&Local)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        },
    )
}

fn text(
    logs: Option<&std::path::Path>,
    merged: Option<&Merged>,
    status: &Status,
    list: bool,
) -> String {
    let mut out = String::new();
    let _ = match logs {
        Some(f) => writeln!(out, "Sync folder: {}", f.display()),
        None => writeln!(out, "No sync folder set (sync-dir): nothing travels yet."),
    };
    if let Some(me) = status.devices.iter().find(|d| d.me) {
        let named = me
            .name
            .as_deref()
            .map_or(String::new(), |n| format!("{n}, "));
        let _ = writeln!(
            out,
            "This machine: {named}device {}, {} changes",
            me.id, me.changes
        );
    }
    if let Some(m) = merged {
        let others = status.others().count();
        let _ = match m.summary() {
            Some(said) => writeln!(out, "{said}"),
            None if others == 0 => writeln!(out, "No other machine has written here yet."),
            None => writeln!(out, "Nothing new from {others} other machine(s)."),
        };
        if m.damaged > 0 {
            let _ = writeln!(
                out,
                "{} damaged line(s) skipped (cut or changed in transit).",
                m.damaged
            );
        }
        if m.unknown > 0 {
            let _ = writeln!(out, "{} line(s) of a newer lectern left for it.", m.unknown);
        }
    }
    if list || merged.is_none() {
        for d in status.others() {
            let missing = match d.missing() {
                0 => String::new(),
                n => format!(", {n} not received"),
            };
            let _ = writeln!(
                out,
                "  {} ({}): {} changes, read up to {}{missing}; last change {}",
                d.shown(),
                d.id,
                d.changes,
                d.read_to,
                when(d.last_change)
            );
        }
        if status.damaged > 0 {
            let _ = writeln!(out, "{} damaged line(s) skipped in all.", status.damaged);
        }
    }
    out
}

fn to_json(logs: Option<&std::path::Path>, merged: Option<&Merged>, status: &Status) -> Value {
    let me = status.devices.iter().find(|d| d.me);
    let devices: Vec<Value> = status
        .devices
        .iter()
        .map(|d| {
            json!({
                "device": d.id,
                "name": d.name,
                "this": d.me,
                "changes": d.changes,
                "read_to": d.read_to,
                "missing": d.missing(),
                "last_change": d.last_change.map(|t| t.to_rfc3339()),
            })
        })
        .collect();
    let mut v = json!({
        "folder": logs.map(|f| f.display().to_string()),
        "device": me.map(|d| d.id.clone()),
        "name": me.and_then(|d| d.name.clone()),
        "devices": devices,
        "damaged_lines": status.damaged,
    });
    if let Some(m) = merged {
        let from: Vec<Value> = m
            .devices
            .iter()
            .map(|(id, b)| {
                json!({
                    "device": id, "name": b.name, "answers": b.answers, "ratings": b.ratings,
                    "reveals": b.reveals, "rounds": b.rounds, "notes": b.notes, "read": b.read,
                    "places": b.places, "library": b.library, "names": b.names,
                })
            })
            .collect();
        v["merged"] = Value::Array(from);
    }
    v
}
