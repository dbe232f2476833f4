//! The config file, `$XDG_CONFIG_HOME/lectern/config.toml` (the platform's
//! config folder elsewhere; `LECTERN_CONFIG` or `--config` name another),
//! and the settings in effect: a flag overrides the file, the file the
//! defaults. A file that cannot be read or holds a bad value never stops
//! the reader: each problem is one located line, and that setting keeps
//! its default.

pub(crate) mod images;
pub(crate) mod sync_dir;
pub(crate) mod table;

pub use images::ImagesSetting;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
pub use table::{SETTINGS, Spec};

/// `theme` in the file and `--theme`: auto asks the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeSetting {
    Auto,
    Dark,
    Light,
    Mono,
}

impl ThemeSetting {
    const NAMES: &[(&str, ThemeSetting)] = &[
        ("auto", ThemeSetting::Auto),
        ("dark", ThemeSetting::Dark),
        ("light", ThemeSetting::Light),
        ("mono", ThemeSetting::Mono),
    ];

    /// The theme asked for; `None` for auto.
    pub fn kind(self) -> Option<crate::theme::ThemeKind> {
        use crate::theme::ThemeKind;
        match self {
            ThemeSetting::Auto => None,
            ThemeSetting::Dark => Some(ThemeKind::Dark),
            ThemeSetting::Light => Some(ThemeKind::Light),
            ThemeSetting::Mono => Some(ThemeKind::Mono),
        }
    }

    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("auto", |(n, _)| n)
    }
}

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Default,
    /// The config file, at this line.
    File(usize),
    Flag(&'static str),
    /// An environment variable.
    Env(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting<T> {
    pub value: T,
    pub from: Source,
}

impl<T> Setting<T> {
    fn default(value: T) -> Self {
        Setting {
            value,
            from: Source::Default,
        }
    }

    fn set(&mut self, value: T, from: Source) {
        *self = Setting { value, from };
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The file looked at (`None`: no config folder on this platform).
    pub file: Option<PathBuf>,
    pub found: bool,
    pub theme: Setting<ThemeSetting>,
    pub mouse: Setting<bool>,
    /// The hour (local time, 0-23) a study day starts: reviews done before
    /// it count for the day before. For the store's study day (issue 11).
    pub day_starts_at: Setting<u8>,
    /// 24-bit colour: `None` follows COLORTERM.
    pub truecolor: Setting<Option<bool>>,
    /// The linear reader, for screen readers and braille displays.
    pub linear: Setting<bool>,
    /// How pictures are drawn.
    pub images: Setting<ImagesSetting>,
    /// Misses that make a check stuck (0: never).
    pub stuck_after: Setting<u32>,
    /// The folder a sync tool carries between machines (none: no syncing).
    pub sync_dir: Setting<Option<PathBuf>>,
    /// Located warnings and errors about the file, one line each.
    pub problems: Vec<String>,
}

/// A study day starts at 4 in the morning, as in Anki: a late session
/// still counts for the evening it began in.
pub const DAY_STARTS_AT: u8 = 4;

/// Unknown settings listed one by one; past this, a count.
const MAX_UNKNOWN: usize = 20;

/// A config file is a few lines; one past this is not one.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The config file's text: a regular file only (a FIFO would hang every
/// command, a link to `/dev/zero` read without end), up to a size.
fn read_file(path: &Path) -> std::io::Result<String> {
    let bytes = crate::own::read_regular_capped(path, MAX_CONFIG_BYTES, "the config file")?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            file: None,
            found: false,
            theme: Setting::default(ThemeSetting::Auto),
            mouse: Setting::default(true),
            day_starts_at: Setting::default(DAY_STARTS_AT),
            truecolor: Setting::default(None),
            linear: Setting::default(false),
            images: Setting::default(ImagesSetting::Auto),
            stuck_after: Setting::default(crate::model::drill::STUCK_AFTER),
            sync_dir: Setting::default(None),
            problems: Vec::new(),
        }
    }
}

/// The file: `--config`, else `$LECTERN_CONFIG`, else the platform's.
fn file_path(explicit: Option<&Path>) -> (Option<PathBuf>, bool) {
    if let Some(p) = explicit {
        return (Some(p.to_path_buf()), true);
    }
    if let Some(p) = std::env::var_os("LECTERN_CONFIG").filter(|p| !p.is_empty()) {
        return (Some(PathBuf::from(p)), true);
    }
    let dirs = crate::own::platform_dirs();
    (dirs.map(|d| d.config_dir().join("config.toml")), false)
}

impl Settings {
    /// The learner's study day, starting at `day-starts-at` (local time):
    /// one notion of "today" for review, stats and the streak.
    pub(crate) fn days(&self) -> crate::model::Days {
        crate::model::Days::new(u32::from(self.day_starts_at.value), chrono::Local)
    }
}

/// The line and column of a byte offset of `text`. Where each line starts
/// is found once: a problem's place is then a search, not a count from the
/// top (40,000 keys took 12 s).
fn locator(text: &str) -> impl Fn(usize) -> (usize, usize) + '_ {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    move |offset: usize| {
        let offset = offset.min(text.len());
        let line = starts.partition_point(|&s| s <= offset);
        let start = starts[line - 1];
        let col = text.get(start..offset).map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

impl Settings {
    /// The settings in effect: the file's, then the flags'.
    pub fn load(explicit: Option<&Path>, theme: Option<ThemeSetting>, no_mouse: bool) -> Settings {
        Settings::load_with(explicit, theme, no_mouse, false)
    }

    /// [`Settings::load`], with `--linear` too.
    pub fn load_with(
        explicit: Option<&Path>,
        theme: Option<ThemeSetting>,
        no_mouse: bool,
        linear: bool,
    ) -> Settings {
        let (file, named) = file_path(explicit);
        let mut s = Settings {
            file: file.clone(),
            ..Settings::default()
        };
        if let Some(path) = &file {
            match read_file(path) {
                Ok(text) => {
                    s.found = true;
                    s.read(&path.display().to_string(), &text);
                }
                // A missing file at the usual place is the usual case; one
                // named on purpose is worth a word.
                Err(e) if named || e.kind() != std::io::ErrorKind::NotFound => {
                    s.problems.push(format!(
                        "{}: error: cannot read the config file: {e}",
                        path.display()
                    ))
                }
                Err(_) => {}
            }
        }
        let flag = |spec: &Spec| Source::Flag(spec.flag.map_or(spec.key, |(f, _)| f));
        if let Some(t) = theme {
            s.theme.set(t, flag(&table::THEME));
        }
        if no_mouse {
            s.mouse.set(false, flag(&table::MOUSE));
        }
        if linear {
            s.linear.set(true, flag(&table::LINEAR));
        }
        s
    }

    /// Takes the settings of a file's text; `name` locates problems.
    pub fn read(&mut self, name: &str, text: &str) {
        let at = locator(text);
        let spans = match toml::de::DeTable::parse(text) {
            Ok(t) => t.into_inner(),
            Err(e) => {
                let (line, col) = at(e.span().map_or(0, |r| r.start));
                let msg = e.message().trim().replace('\n', " ");
                let msg = crate::model::sanitize::clean_owned(&msg);
                self.problems.push(format!(
                    "{name}:{line}:{col}: error: {msg} (the file is ignored)"
                ));
                return;
            }
        };
        // In the file's order, so problems read top to bottom.
        let mut entries: Vec<_> = spans.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let mut unknown = 0;
        for (key, value) in entries {
            let (line, col) = at(key.span().start);
            let vcol = at(value.span().start).1;
            let k = key.get_ref().as_ref();
            let problem = |kind: &str, msg: String| format!("{name}:{line}:{col}: {kind}: {msg}");
            let bad = |expected: &str| {
                let msg = format!("`{k}` must be {expected} (keeping the default)");
                format!("{name}:{line}:{vcol}: error: {msg}")
            };
            match table::find(k) {
                Some(spec) => {
                    if !(spec.read)(self, value.get_ref(), Source::File(line)) {
                        self.problems.push(bad(spec.values));
                    }
                }
                None if unknown >= MAX_UNKNOWN => unknown += 1,
                None => {
                    unknown += 1;
                    let k = crate::model::sanitize::clean(k);
                    let known = table::keys();
                    let msg = format!("unknown setting `{k}` (known: {known})");
                    self.problems.push(problem("warning", msg));
                }
            }
        }
        if unknown > MAX_UNKNOWN {
            let more = unknown - MAX_UNKNOWN;
            self.problems.push(format!(
                "{name}: warning: {more} more unknown settings not listed"
            ));
        }
    }

    /// `lectern config --show`: each setting, its value and its source.
    pub fn show(&self) -> String {
        let mut out = String::new();
        let file = self.file.as_ref().map(|p| p.display().to_string());
        let _ = match (&file, self.found) {
            (Some(f), true) => writeln!(out, "# config file: {f}"),
            (Some(f), false) => writeln!(out, "# config file: {f} (not found: defaults)"),
            (None, _) => writeln!(out, "# config file: none on this platform"),
        };
        let from = |s: &Source| match s {
            Source::Default => "default".to_string(),
            Source::File(line) => format!("{}:{line}", file.as_deref().unwrap_or("config")),
            Source::Flag(f) => format!("flag {f}"),
            Source::Env(v) => format!("environment {v}"),
        };
        for spec in SETTINGS {
            let (value, source) = (spec.shown)(self);
            let source = match (source, spec.default_from) {
                (Source::Default, Some(said)) => said(),
                (s, _) => from(s),
            };
            let _ = writeln!(out, "{:<24} # {source}", format!("{} = {value}", spec.key));
        }
        for p in &self.problems {
            let _ = writeln!(out, "# {p}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Settings {
        let mut s = Settings::default();
        s.read("config.toml", text);
        s
    }

    #[test]
    fn the_file_sets_each_setting_and_says_where() {
        let s = read("theme = \"light\"\nmouse = false\nday-starts-at = 5\ntruecolor = true\n");
        assert_eq!(s.theme.value, ThemeSetting::Light);
        assert_eq!(s.theme.from, Source::File(1));
        assert!(!s.mouse.value);
        assert_eq!(s.day_starts_at.value, 5);
        assert_eq!(s.day_starts_at.from, Source::File(3));
        assert_eq!(s.truecolor.value, Some(true));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
    }

    #[test]
    fn unknown_keys_warn_and_bad_values_keep_the_default() {
        let s = read("theme = \"purple\"\ncolour = 3\nday-starts-at = 24\nmouse = \"yes\"\n");
        assert_eq!(s.theme.value, ThemeSetting::Auto);
        assert_eq!(s.day_starts_at.value, DAY_STARTS_AT);
        assert!(s.mouse.value);
        assert_eq!(
            s.problems,
            [
                "config.toml:1:9: error: `theme` must be \"auto\", \"dark\", \"light\" or \"mono\" (keeping the default)",
                "config.toml:2:1: warning: unknown setting `colour` (known: theme, mouse, day-starts-at, truecolor, linear, images, stuck-after, sync-dir)",
                "config.toml:3:17: error: `day-starts-at` must be an hour from 0 to 23 (keeping the default)",
                "config.toml:4:9: error: `mouse` must be true or false (keeping the default)",
            ]
        );
    }

    #[test]
    fn stuck_after_is_a_count_and_keeps_its_default_when_bad() {
        assert_eq!(read("stuck-after = 6\n").stuck_after.value, 6);
        assert_eq!(read("stuck-after = 0\n").stuck_after.value, 0);
        let s = read("stuck-after = -1\n");
        assert_eq!(s.stuck_after.value, crate::model::drill::STUCK_AFTER);
        assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    }

    #[test]
    fn an_hour_is_read_in_the_radix_it_is_written_in() {
        assert_eq!(read("day-starts-at = 0x10\n").day_starts_at.value, 16);
        assert_eq!(read("day-starts-at = 0o7\n").day_starts_at.value, 7);
        assert_eq!(read("day-starts-at = 1_0\n").day_starts_at.value, 10);
        let s = read("day-starts-at = 0x18\n");
        assert_eq!(s.day_starts_at.value, DAY_STARTS_AT);
        assert_eq!(s.problems.len(), 1);
    }

    #[test]
    fn many_unknown_keys_are_counted_not_listed_and_read_in_linear_work() {
        let text: String = (0..40_000).map(|i| format!("k{i} = 1\n")).collect();
        let s = read(&format!("{text}theme = \"dark\"\n"));
        assert_eq!(s.theme.value, ThemeSetting::Dark);
        assert_eq!(s.theme.from, Source::File(40_001));
        assert_eq!(s.problems.len(), MAX_UNKNOWN + 1);
        assert!(
            s.problems[0].starts_with("config.toml:1:1: warning"),
            "{}",
            s.problems[0]
        );
        assert!(
            s.problems[MAX_UNKNOWN].contains("39980 more"),
            "{:?}",
            s.problems.last()
        );
    }

    #[test]
    fn a_config_file_that_is_a_fifo_or_a_device_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.toml");
        crate::own::mkfifo(&fifo);
        let s = Settings::load(Some(&fifo), None, false);
        assert!(s.problems[0].contains("FIFO"), "{:?}", s.problems);
        let zero = dir.path().join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let s = Settings::load(Some(&zero), None, false);
        assert!(s.problems[0].contains("device"), "{:?}", s.problems);
    }

    #[test]
    fn a_broken_file_is_one_located_error() {
        let s = read("theme = \"dark\"\nmouse = \n");
        assert_eq!(s.theme.value, ThemeSetting::Auto);
        assert_eq!(s.problems.len(), 1);
        assert!(
            s.problems[0].starts_with("config.toml:2:"),
            "{}",
            s.problems[0]
        );
        assert!(s.problems[0].contains("error"), "{}", s.problems[0]);
    }

    #[test]
    fn flags_override_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, "theme = \"light\"\nmouse = true\n").unwrap();
        let s = Settings::load(Some(&path), Some(ThemeSetting::Mono), true);
        assert_eq!(s.theme.value, ThemeSetting::Mono);
        assert_eq!(s.theme.from, Source::Flag("--theme"));
        assert!(!s.mouse.value);
        let s = Settings::load(Some(&path), None, false);
        assert_eq!(s.theme.value, ThemeSetting::Light);
        assert!(s.show().contains("theme = \"light\""), "{}", s.show());
        let missing = Settings::load(Some(&dir.path().join("none.toml")), None, false);
        assert_eq!(missing.problems.len(), 1);
        assert_eq!(missing.theme.value, ThemeSetting::Auto);
    }
}
