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
    pub text: Text,
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
