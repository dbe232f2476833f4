//! `images` in the config file and `--images`: how pictures are drawn.

use super::table::Spec;
use super::{Settings, Source};
use toml::de::DeValue;

/// The graphics protocol pictures are drawn with; auto asks the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ImagesSetting {
    #[default]
    Auto,
    Kitty,
    Iterm,
    Sixel,
    Halfblocks,
    Off,
}

impl ImagesSetting {
    const NAMES: &[(&str, ImagesSetting)] = &[
        ("auto", ImagesSetting::Auto),
        ("kitty", ImagesSetting::Kitty),
        ("iterm", ImagesSetting::Iterm),
        ("sixel", ImagesSetting::Sixel),
        ("halfblocks", ImagesSetting::Halfblocks),
        ("off", ImagesSetting::Off),
    ];

    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("auto", |(n, _)| n)
    }
}

pub const IMAGES: Spec = Spec {
    key: "images",
    flag: Some((
        "--images",
        "How pictures are drawn: auto (the best the terminal has), kitty, iterm, sixel, \
         halfblocks, or off (their words and file only; TERM=dumb too)",
    )),
    values: "\"auto\", \"kitty\", \"iterm\", \"sixel\", \"halfblocks\" or \"off\"",
    doc: "how a lesson's pictures are drawn: auto (the default) picks the best the terminal \
          has; off shows each as its words and its file",
    read: |s, v, from| {
        let DeValue::String(v) = v else { return false };
        let found = ImagesSetting::NAMES.iter().find(|(n, _)| *n == v.as_ref());
        found.map(|(_, t)| s.images.set(*t, from)).is_some()
    },
    shown: |s| (format!("\"{}\"", s.images.value.name()), &s.images.from),
    default_from: None,
};

impl Settings {
    /// `--images`, over the file's.
    pub fn with_images_flag(mut self, flag: Option<ImagesSetting>) -> Settings {
        if let Some(v) = flag {
            self.images.set(v, Source::Flag("--images"));
        }
        self
    }

    /// Whether pictures get room on the page: not when off, nor on a
    /// terminal that draws no colours (TERM=dumb).
    pub fn pictures(&self) -> bool {
        self.images.value != ImagesSetting::Off
            && std::env::var("TERM").map_or(true, |t| t != "dumb")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_and_the_flag_set_images() {
        let mut s = Settings::default();
        s.read("c.toml", "images = \"off\"\n");
        assert_eq!(s.images.value, ImagesSetting::Off);
        assert_eq!(s.images.from, Source::File(1));
        s.read("c.toml", "images = \"tiles\"\n");
        assert!(
            s.problems[0].contains("`images` must be"),
            "{:?}",
            s.problems
        );
        let s = s.with_images_flag(Some(ImagesSetting::Kitty));
        assert_eq!(s.images.value, ImagesSetting::Kitty);
    }
}
