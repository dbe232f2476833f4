//! One way to write a lesson file for a test: a small builder of the
//! lesson format (schema 1, `../shared/lesson-format.md`), so that a test
//! says only what its lesson has that matters to it.
//!
//! ```ignore
//! LessonJson::new("slug").title("Title").position(3)
//!     .para("Some words.").code("rust", "fn main() {}")
//!     .check(CheckJson::single("Which?").right("this").wrong("that", "it looks right"))
//!     .to_string()
//! ```
//!
//! A lesson given blocks or a module has a `reader` tree and its check is
//! the tree's (rich text); one without is markdown only (its `body`) and
//! its check is the plain-text one. A test about malformed or hostile
//! input writes its JSON by hand instead: there the bytes are the point.
//!
//! Serde only, no lectern code: the binaries apart from `it` can take it
//! by `#[path]`.

use serde_json::{Map, Value, json};
use std::fmt;
use std::path::{Path, PathBuf};

/// A lesson file being built. Unset, the course is `c` ("C"), the title
/// is the slug, the position 1 and the markdown body empty.
#[derive(Clone, Debug)]
pub struct LessonJson {
    course: (String, String),
    slug: String,
    title: String,
    position: u32,
    of: Option<u32>,
    minutes: Option<u32>,
    markdown: String,
    module: Option<(u32, String)>,
    blocks: Vec<Value>,
    check: Option<CheckJson>,
}

impl LessonJson {
    pub fn new(slug: &str) -> LessonJson {
        LessonJson {
            course: ("c".into(), "C".into()),
            slug: slug.into(),
            title: slug.into(),
            position: 1,
            of: None,
            minutes: None,
            markdown: String::new(),
            module: None,
            blocks: Vec::new(),
            check: None,
        }
    }

    pub fn course(mut self, slug: &str, title: &str) -> Self {
        self.course = (slug.into(), title.into());
        self
    }

    pub fn title(mut self, title: &str) -> Self {
        self.title = title.into();
        self
    }

    /// 1-based, within the course.
    pub fn position(mut self, position: u32) -> Self {
        self.position = position;
        self
    }

    /// How many lessons the course says it has.
    pub fn of(mut self, of: u32) -> Self {
        self.of = Some(of);
        self
    }

    pub fn minutes(mut self, minutes: u32) -> Self {
        self.minutes = Some(minutes);
        self
    }

    /// The markdown form (`body.text`).
    pub fn markdown(mut self, text: &str) -> Self {
        self.markdown = text.into();
        self
    }

    /// The module of the course the lesson is in (1-based), in its reader
    /// tree; its slug is `module-INDEX`.
    pub fn module(mut self, index: u32, title: &str) -> Self {
        self.module = Some((index, title.into()));
        self
    }

    pub fn h2(self, id: &str, text: &str) -> Self {
        self.block(json!({"t": "h2", "id": id, "runs": runs(text)}))
    }

    pub fn para(self, text: &str) -> Self {
        self.block(json!({"t": "p", "runs": runs(text)}))
    }

    pub fn code(self, lang: &str, text: &str) -> Self {
        self.block(json!({"t": "code", "lang": lang, "text": text}))
    }

    /// Any block of the reader tree, as JSON: the ones above are only the
    /// common ones.
    pub fn block(mut self, block: Value) -> Self {
        self.blocks.push(block);
        self
    }

    pub fn check(mut self, check: CheckJson) -> Self {
        self.check = Some(check);
        self
    }

    pub fn to_value(&self) -> Value {
        let (course_slug, course_title) = &self.course;
        let mut lesson = json!({"slug": self.slug, "title": self.title, "position": self.position});
        if let Some(of) = self.of {
            lesson["of"] = json!(of);
        }
        if let Some(minutes) = self.minutes {
            lesson["minutes"] = json!(minutes);
        }
        let mut v = json!({
            "course": {"slug": course_slug, "title": course_title},
            "lesson": lesson,
            "body": {"format": "markdown", "text": self.markdown},
        });
        if self.module.is_some() || !self.blocks.is_empty() {
            v["reader"] = self.reader();
        } else if let Some(check) = &self.check {
            v["check"] = check.plain();
        }
        v
    }

    /// Writes the lesson (compact JSON) to `dir/file` and returns its path.
    pub fn write(&self, dir: &Path, file: &str) -> PathBuf {
        let path = dir.join(file);
        std::fs::write(&path, self.to_string()).unwrap();
        path
    }

    fn reader(&self) -> Value {
        let mut r = Map::new();
        r.insert("schema".into(), json!(1));
        r.insert("title".into(), json!(self.title));
        r.insert("courseTitle".into(), json!(self.course.1));
        if let Some((index, title)) = &self.module {
            let module = json!({"index": index, "slug": format!("module-{index}"), "title": title});
            r.insert("module".into(), module);
        }
        r.insert("blocks".into(), Value::Array(self.blocks.clone()));
        if let Some(check) = &self.check {
            r.insert("check".into(), check.rich());
        }
        Value::Object(r)
    }
}

/// The lesson as compact JSON: `lesson.to_string()` is the file's text.
impl fmt::Display for LessonJson {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// A check question with one right answer, written in whichever form its
/// lesson has (see the module's comment).
#[derive(Clone, Debug)]
pub struct CheckJson {
    question: String,
    /// Text, whether it is right, and for a wrong one why it tempts.
    options: Vec<(String, bool, Option<String>)>,
    order: Option<Vec<usize>>,
    why: Option<String>,
}

impl CheckJson {
    pub fn single(question: &str) -> CheckJson {
        CheckJson {
            question: question.into(),
            options: Vec::new(),
            order: None,
            why: None,
        }
    }

    pub fn right(mut self, text: &str) -> Self {
        self.options.push((text.into(), true, None));
        self
    }

    pub fn wrong(mut self, text: &str, tempting: &str) -> Self {
        self.options
            .push((text.into(), false, Some(tempting.into())));
        self
    }

    /// The order the options are shown in, as indices into the order they
    /// were added in (the reader tree's `order`).
    pub fn order(mut self, order: &[usize]) -> Self {
        self.order = Some(order.to_vec());
        self
    }

    /// Why the right answer is right (the reader tree's `why`).
    pub fn why(mut self, text: &str) -> Self {
        self.why = Some(text.into());
        self
    }

    /// The plain-text form, the lesson's top-level `check`.
    fn plain(&self) -> Value {
        let options: Vec<Value> = self
            .options
            .iter()
            .map(|(text, correct, tempting)| {
                let mut o = json!({"text": text, "correct": correct});
                if let Some(t) = tempting {
                    o["tempting"] = json!(t);
                }
                o
            })
            .collect();
        json!({"question": self.question, "options": options})
    }

    /// The rich-text form, the reader tree's `check`.
    fn rich(&self) -> Value {
        let options: Vec<Value> = self
            .options
            .iter()
            .map(|(text, correct, tempting)| {
                json!({"text": runs(text), "correct": correct,
                       "tempting": tempting.as_deref().map(runs)})
            })
            .collect();
        let mut c = json!({"question": runs(&self.question), "options": options});
        if let Some(order) = &self.order {
            c["order"] = json!(order);
        }
        if let Some(why) = &self.why {
            c["why"] = runs(why);
        }
        c
    }
}

/// Plain text as the reader tree's inline runs: one run, no flags.
pub fn runs(text: &str) -> Value {
    json!([{ "text": text }])
}
