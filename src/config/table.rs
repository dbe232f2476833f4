//! The settings, each defined once: its key in the config file, its flag,
//! the values it takes, what it means, how the file's value is read and
//! how it is shown. clap's help, the file reader, `config --show` and the
//! man page are all made from this table.

use super::{Settings, Source, ThemeSetting};
use toml::de::DeValue;

pub struct Spec {
    /// The key in the config file.
    pub key: &'static str,
    /// The flag that overrides the file, and its help.
    pub flag: Option<(&'static str, &'static str)>,
    /// The values the file may give, as a bad value's error words them.
    pub values: &'static str,
    /// What the setting does, and its default.
    pub doc: &'static str,
    /// Takes the file's value; false when it is not one of `values`.
    pub(super) read: fn(&mut Settings, &DeValue<'_>, Source) -> bool,
    /// The value in effect, as the file would write it, and its source.
    pub(super) shown: fn(&Settings) -> (String, &Source),
    /// What a default is said to come from, when more than "default".
    pub(super) default_from: Option<fn() -> String>,
}

pub const THEME: Spec = Spec {
    key: "theme",
    flag: Some((
        "--theme",
        "Colour theme (default: the config file's, else from the terminal \
         background; NO_COLOR, CLICOLOR=0 and TERM=dumb give mono)",
    )),
    values: "\"auto\", \"dark\", \"light\" or \"mono\"",
    doc: "the colour theme; auto (the default) asks the terminal for its background",
    read: |s, v, from| {
        let DeValue::String(v) = v else { return false };
        let found = ThemeSetting::NAMES.iter().find(|(n, _)| *n == v.as_ref());
        found.map(|(_, t)| s.theme.set(*t, from)).is_some()
    },
    shown: |s| (format!("\"{}\"", s.theme.value.name()), &s.theme.from),
    default_from: None,
};

pub const MOUSE: Spec = Spec {
    key: "mouse",
    flag: Some((
        "--no-mouse",
        "Leave the mouse to the terminal (text selection) instead of scrolling",
    )),
    values: "true or false",
    doc: "whether the wheel scrolls the reader (true, the default) or the mouse is left \
          to the terminal for selecting text",
    read: |s, v, from| {
        let DeValue::Boolean(b) = v else { return false };
        s.mouse.set(*b, from);
        true
    },
    shown: |s| (s.mouse.value.to_string(), &s.mouse.from),
    default_from: None,
};

pub const DAY_STARTS_AT: Spec = Spec {
    key: "day-starts-at",
    flag: None,
    values: "an hour from 0 to 23",
    doc: "the hour (local time) a study day starts, 4 by default: reviews done before it \
          count for the day before",
    read: |s, v, from| {
        let DeValue::Integer(i) = v else { return false };
        // In the radix TOML wrote it in: 0x10 is 16, not 10.
        let hour = u8::from_str_radix(&i.as_str().replace('_', ""), i.radix());
        hour.ok()
            .filter(|h| *h < 24)
            .map(|h| s.day_starts_at.set(h, from))
            .is_some()
    },
    shown: |s| (s.day_starts_at.value.to_string(), &s.day_starts_at.from),
    default_from: None,
};

pub const TRUECOLOR: Spec = Spec {
    key: "truecolor",
    flag: None,
    values: "true, false or \"auto\"",
    doc: "24-bit colour (true) or the 256-colour palette (false); auto, the default, \
          follows COLORTERM",
    read: |s, v, from| match v {
        DeValue::Boolean(b) => {
            s.truecolor.set(Some(*b), from);
            true
        }
        DeValue::String(v) if v.as_ref() == "auto" => {
            s.truecolor.set(None, from);
            true
        }
        _ => false,
    },
    shown: |s| {
        let value = s
            .truecolor
            .value
            .map_or("\"auto\"".to_string(), |b| b.to_string());
        (value, &s.truecolor.from)
    },
    default_from: Some(|| {
        let tc = crate::theme::ColourEnv::from_env().truecolor;
        let says = if tc { "24-bit" } else { "256 colours" };
        format!("default: COLORTERM says {says}")
    }),
};

pub const LINEAR: Spec = Spec {
    key: "linear",
    flag: Some((
        "--linear",
        "Read line by line, for screen readers and braille displays: no full-screen \
         drawing, text written once in reading order, typed commands (TERM=dumb at a \
         terminal too)",
    )),
    values: "true or false",
    doc: "the linear reader (true) for screen readers and braille displays, or the \
          full-screen one (false, the default)",
    read: |s, v, from| {
        let DeValue::Boolean(b) = v else { return false };
        s.linear.set(*b, from);
        true
    },
    shown: |s| (s.linear.value.to_string(), &s.linear.from),
    default_from: None,
};

/// Every setting, in the order `config --show` and the man page list them.
pub const SETTINGS: &[&Spec] = &[
    &THEME,
    &MOUSE,
    &DAY_STARTS_AT,
    &TRUECOLOR,
    &LINEAR,
    &super::images::IMAGES,
    &STUCK_AFTER,
    &super::sync_dir::SYNC_DIR,
];

pub const STUCK_AFTER: Spec = Spec {
    key: "stuck-after",
    flag: None,
    values: "a count from 0 to 1000",
    doc: "how many misses make a check stuck, 4 by default (Anki's leech threshold of 8 \
          lapses, halved); 0 never flags one",
    read: |s, v, from| {
        let DeValue::Integer(i) = v else { return false };
        let n = u32::from_str_radix(&i.as_str().replace('_', ""), i.radix());
        n.ok()
            .filter(|n| *n <= 1000)
            .map(|n| s.stuck_after.set(n, from))
            .is_some()
    },
    shown: |s| (s.stuck_after.value.to_string(), &s.stuck_after.from),
    default_from: None,
};

/// The setting the file calls `key`.
pub(super) fn find(key: &str) -> Option<&'static Spec> {
    SETTINGS.iter().copied().find(|s| s.key == key)
}

/// The known keys, for the warning about an unknown one.
pub(super) fn keys() -> String {
    let keys: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
    keys.join(", ")
}
