//! `sync-dir` in the config file, `--sync-dir` and `LECTERN_SYNC_DIR`:
//! the folder a sync tool carries between machines, where each machine
//! keeps its log of changes to the learner's progress (`lectern sync`).

use std::path::{Path, PathBuf};

use super::table::Spec;
use super::{Settings, Source};
use toml::de::DeValue;

/// The variable that names the sync folder, under `--sync-dir`.
pub const VAR: &str = "LECTERN_SYNC_DIR";

pub const SYNC_DIR: Spec = Spec {
    key: "sync-dir",
    flag: Some((
        "--sync-dir",
        "A folder your sync tool carries between machines (Syncthing, Dropbox, a git \
         repository, a USB stick): progress travels through it (default: $LECTERN_SYNC_DIR, \
         else the config file's sync-dir, else none)",
    )),
    values: "an absolute folder (~/ for your home), or \"\" for none",
    doc: "a folder your sync tool carries between machines: each machine appends its changes \
          to its own log in its lectern/ folder and merges the others' (lectern sync); none \
          by default. Never the data folder: the progress database stays out of it",
    read: |s, v, from| {
        let DeValue::String(v) = v else { return false };
        if v.is_empty() {
            s.sync_dir.set(None, from);
            return true;
        }
        let path = home(v);
        path.is_absolute()
            .then(|| s.sync_dir.set(Some(path), from))
            .is_some()
    },
    shown: |s| {
        let value = s.sync_dir.value.as_deref().map(Path::display);
        let value = value.map_or(String::new(), |v| v.to_string());
        (format!("{value:?}"), &s.sync_dir.from)
    },
    default_from: None,
};

/// `~/x` as a path in the home folder; anything else as it is.
fn home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) if !home.is_empty() => PathBuf::from(home).join(rest),
        _ => PathBuf::from(text),
    }
}

impl Settings {
    /// `--sync-dir`, else `LECTERN_SYNC_DIR`, over the file's: a relative
    /// folder is taken from the current one.
    pub fn with_sync_dir_flag(mut self, flag: Option<&Path>) -> Settings {
        let var = std::env::var_os(VAR).filter(|v| !v.is_empty());
        let (given, from) = match (flag, var) {
            (Some(f), _) => (f.to_path_buf(), Source::Flag("--sync-dir")),
            (None, Some(v)) => (PathBuf::from(v), Source::Env(VAR)),
            (None, None) => return self,
        };
        let absolute = std::path::absolute(&given).unwrap_or(given);
        self.sync_dir.set(Some(absolute), from);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_names_an_absolute_folder_or_none() {
        let mut s = Settings::default();
        s.read("c.toml", "sync-dir = \"/srv/sync\"\n");
        assert_eq!(s.sync_dir.value.as_deref(), Some(Path::new("/srv/sync")));
        assert!(
            s.show().contains("sync-dir = \"/srv/sync\""),
            "{}",
            s.show()
        );
        s.read("c.toml", "sync-dir = \"\"\n");
        assert_eq!(s.sync_dir.value, None);
        let mut s = Settings::default();
        s.read("c.toml", "sync-dir = \"relative/x\"\n");
        assert_eq!(s.sync_dir.value, None);
        assert!(s.problems[0].contains("absolute"), "{:?}", s.problems);
    }

    #[test]
    fn the_flag_beats_the_file() {
        let mut s = Settings::default();
        s.read("c.toml", "sync-dir = \"/srv/sync\"\n");
        let s = s.with_sync_dir_flag(Some(Path::new("/mnt/usb")));
        assert_eq!(s.sync_dir.value.as_deref(), Some(Path::new("/mnt/usb")));
        assert_eq!(s.sync_dir.from, Source::Flag("--sync-dir"));
    }
}
