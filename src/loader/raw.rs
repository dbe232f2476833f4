//! Serde mirror of the fixed-shape parts of a lesson file: no logic, just
//! the fields as the format names them. The open-ended parts (blocks,
//! runs, figures) are walked by `convert`, since unknown kinds there must
//! be kept rather than rejected.

use super::sanitize::clean_owned;
use serde::{Deserialize, Deserializer};

/// A string from the file, made terminal-safe as it is deserialised, so
/// nothing can reach the model unsanitised.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(Text(clean_owned(&s)))
    }
}

pub fn text(t: Option<Text>) -> Option<String> {
    t.map(|t| t.0).filter(|s| !s.trim().is_empty())
}

#[derive(Debug, Deserialize)]
pub struct Course {
    pub slug: Text,
    pub title: Option<Text>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonInfo {
    pub slug: Text,
    pub title: Text,
    pub position: Option<u32>,
    pub of: Option<u32>,
    pub minutes: Option<u32>,
    pub answer: Option<Text>,
    pub key_idea: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Body {
    pub format: Option<Text>,
    /// Checked here, read where it lies (see [`IsStr`]).
    #[allow(dead_code)]
    pub text: IsStr,
}

/// A string, checked to be one and not kept: a markdown body is most of
/// its file, and a cleaned copy of it held all through the parse was a
/// byte of memory per byte of file. The convert pass borrows the text
/// from the value (cleaned, it is copied only where it holds a control).
#[derive(Debug)]
pub struct IsStr;

impl<'de> Deserialize<'de> for IsStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IsStr;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<IsStr, E> {
                Ok(IsStr)
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(Debug, Deserialize)]
pub struct Link {
    pub slug: Text,
    pub title: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Licence {
    pub name: Option<Text>,
    pub url: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Review {
    pub status: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Module {
    pub index: Option<u32>,
    pub slug: Option<Text>,
    pub title: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Column {
    pub title: Option<Text>,
    #[serde(default)]
    pub items: Vec<Text>,
}

#[derive(Debug, Deserialize)]
pub struct PlainCheck {
    pub question: Text,
    pub options: Vec<PlainOption>,
    pub why: Option<Text>,
}

#[derive(Debug, Deserialize)]
pub struct PlainOption {
    pub text: Text,
    #[serde(default)]
    pub correct: Option<bool>,
    pub tempting: Option<Text>,
}
