//! Generates synthetic courses in the lesson format (schema 1) for benchmarks.
//!
//! ```text
//! cargo run --release --example gen_course -- --lessons 1000 --out /tmp/course-1000 [--seed 1]
//! cargo run --release --example gen_course -- --huge 4000000 --out /tmp/huge [--seed 1]
//! ```
//!
//! Every lesson carries both forms: `body` (markdown) and `reader` (schema 1),
//! with modules of about eight lessons, code blocks in several languages,
//! compare figures (as the hero and among the blocks), headings, paragraphs,
//! lists with bold / code / italic runs and a four-option check question.
//! Lessons are 10-30 KB. The text is made up from a word list by a seeded
//! xorshift generator, so the output is the same for the same seed.
//!
//! File names start with a hash of the lesson slug, so they do not sort in
//! course order: a reader must order lessons by `lesson.position`.
//! `--huge BYTES` writes one single lesson of roughly that size instead.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Parser;
use serde::Serialize;

#[derive(Parser, Debug)]
#[command(about = "Generate a synthetic lectern course (lesson JSON files) for benchmarks")]
struct Args {
    /// Number of lessons in the course.
    #[arg(long, default_value_t = 100)]
    lessons: usize,
    /// Output folder (created if missing; existing files are overwritten, others left alone).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write one single lesson of roughly this many bytes instead of a course.
    #[arg(long)]
    huge: Option<usize>,
    /// Worker threads (default: available cores).
    #[arg(long)]
    threads: Option<usize>,
}

// ---------------------------------------------------------------------------
// Pseudo-random numbers

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // splitmix64 scramble so nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "that",
    "for",
    "it",
    "on",
    "with",
    "as",
    "by",
    "at",
    "from",
    "each",
    "every",
    "one",
    "two",
    "three",
    "more",
    "less",
    "most",
    "few",
    "many",
    "this",
    "which",
    "when",
    "where",
    "while",
    "because",
    "so",
    "but",
    "or",
    "not",
    "only",
    "also",
    "then",
    "than",
    "once",
    "again",
    "still",
    "often",
    "rarely",
    "usually",
    "always",
    "never",
    "early",
    "late",
    "small",
    "large",
    "cheap",
    "costly",
    "fast",
    "slow",
    "simple",
    "careful",
    "quiet",
    "loud",
    "stable",
    "fragile",
    "honest",
    "useful",
    "plain",
    "narrow",
    "wide",
    "deep",
    "shallow",
    "local",
    "remote",
    "shared",
    "private",
    "steady",
    "sudden",
    "gradual",
    "hidden",
    "visible",
    "request",
    "response",
    "server",
    "client",
    "queue",
    "cache",
    "index",
    "table",
    "record",
    "file",
    "folder",
    "buffer",
    "stream",
    "packet",
    "thread",
    "process",
    "lock",
    "signal",
    "budget",
    "deadline",
    "metric",
    "sample",
    "median",
    "tail",
    "spike",
    "trace",
    "log",
    "alert",
    "rollout",
    "release",
    "branch",
    "commit",
    "review",
    "test",
    "fixture",
    "schema",
    "field",
    "column",
    "key",
    "value",
    "token",
    "batch",
    "model",
    "weight",
    "layer",
    "vector",
    "matrix",
    "graph",
    "node",
    "edge",
    "path",
    "route",
    "service",
    "worker",
    "job",
    "task",
    "step",
    "stage",
    "phase",
    "loop",
    "limit",
    "error",
    "failure",
    "retry",
    "timeout",
    "backoff",
    "window",
    "frame",
    "screen",
    "terminal",
    "reader",
    "writer",
    "parser",
    "lexer",
    "compiler",
    "runtime",
    "memory",
    "disk",
    "network",
    "latency",
    "throughput",
    "bandwidth",
    "cost",
    "price",
    "bill",
    "team",
    "user",
    "customer",
    "owner",
    "editor",
    "author",
    "lesson",
    "course",
    "module",
    "question",
    "answer",
    "idea",
    "reason",
    "habit",
    "rule",
    "pattern",
    "trade",
    "choice",
    "default",
    "option",
    "setting",
    "measure",
    "count",
    "compare",
    "read",
    "write",
    "send",
    "receive",
    "store",
    "load",
    "parse",
    "render",
    "draw",
    "scroll",
    "wait",
    "block",
    "split",
    "merge",
    "sort",
    "search",
    "match",
    "filter",
    "group",
    "join",
    "build",
    "ship",
    "deploy",
    "watch",
    "check",
    "prove",
    "guess",
    "explain",
    "predict",
    "reduce",
    "raise",
    "lower",
    "double",
    "halve",
    "keep",
    "drop",
    "grow",
    "shrink",
    "move",
    "copy",
    "hold",
    "free",
    "start",
    "stop",
    "finish",
    "begin",
    "repeat",
    "skip",
    "choose",
    "avoid",
    "prefer",
    "trust",
    "doubt",
    "notice",
    "ignore",
    "decide",
    "learn",
];

const NOUNS: &[&str] = &[
    "request",
    "server",
    "client",
    "queue",
    "cache",
    "index",
    "table",
    "record",
    "buffer",
    "stream",
    "thread",
    "process",
    "budget",
    "metric",
    "sample",
    "trace",
    "rollout",
    "release",
    "schema",
    "column",
    "token",
    "batch",
    "model",
    "layer",
    "vector",
    "graph",
    "service",
    "worker",
    "deadline",
    "retry",
    "timeout",
    "window",
    "frame",
    "reader",
    "parser",
    "compiler",
    "runtime",
    "latency",
    "throughput",
    "lesson",
    "module",
    "pattern",
    "default",
    "setting",
    "habit",
];

const ADJECTIVES: &[&str] = &[
    "small", "large", "cheap", "costly", "fast", "slow", "simple", "careful", "quiet", "stable",
    "fragile", "honest", "useful", "plain", "narrow", "wide", "deep", "shallow", "local", "remote",
    "shared", "private", "steady", "sudden", "gradual", "hidden", "visible", "second", "last",
];

const VERBS: &[&str] = &[
    "measure", "count", "compare", "read", "write", "send", "store", "load", "parse", "render",
    "split", "merge", "sort", "search", "filter", "group", "build", "ship", "watch", "check",
    "reduce", "raise", "keep", "drop", "move", "hold", "repeat", "skip", "choose", "avoid",
];

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn slugify(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

fn words(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let n = rng.range(lo, hi);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

fn title(rng: &mut Rng) -> String {
    let s = match rng.range(0, 3) {
        0 => format!(
            "{} the {} {}",
            rng.pick(VERBS),
            rng.pick(ADJECTIVES),
            rng.pick(NOUNS)
        ),
        1 => format!(
            "why the {} {} {}",
            rng.pick(NOUNS),
            rng.pick(VERBS),
            words(rng, 1, 3)
        ),
        2 => format!(
            "{} {} and {} {}",
            rng.pick(ADJECTIVES),
            rng.pick(NOUNS),
            rng.pick(ADJECTIVES),
            rng.pick(NOUNS)
        ),
        _ => format!(
            "how a {} {} the {}",
            rng.pick(NOUNS),
            rng.pick(VERBS),
            rng.pick(NOUNS)
        ),
    };
    capitalise(&s)
}

fn sentence(rng: &mut Rng, lo: usize, hi: usize, end: char) -> String {
    let n = rng.range(lo, hi);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            if i > 3 && i + 2 < n && rng.chance(7) {
                s.push(',');
            }
            s.push(' ');
        }
        let w = rng.pick(WORDS);
        if i == 0 {
            s.push_str(&capitalise(w));
        } else if rng.chance(2) {
            write!(s, "{}", rng.range(2, 4096)).unwrap();
        } else {
            s.push_str(w);
        }
    }
    s.push(end);
    s
}

fn identifier(rng: &mut Rng) -> String {
    format!("{}_{}", rng.pick(VERBS), rng.pick(NOUNS))
}

// ---------------------------------------------------------------------------
// The lesson format

#[derive(Serialize, Clone)]
struct Run {
    text: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    b: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    i: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    code: bool,
}

impl Run {
    fn plain(text: String) -> Self {
        Run {
            text,
            b: false,
            i: false,
            code: false,
        }
    }
}

type Runs = Vec<Run>;

fn runs_markdown(runs: &[Run], out: &mut String) {
    for r in runs {
        if r.code {
            write!(out, "`{}`", r.text).unwrap();
        } else if r.b {
            write!(out, "**{}**", r.text).unwrap();
        } else if r.i {
            write!(out, "*{}*", r.text).unwrap();
        } else {
            out.push_str(&r.text);
        }
    }
}

#[derive(Serialize, Clone)]
struct Column {
    title: String,
    items: Vec<String>,
}

#[derive(Serialize, Clone)]
struct Compare {
    #[serde(rename = "type")]
    kind: &'static str,
    title: String,
    caption: String,
    left: Column,
    right: Column,
}

#[derive(Serialize, Clone)]
#[serde(tag = "t")]
enum Block {
    #[serde(rename = "h2")]
    H2 { id: String, runs: Runs },
    #[serde(rename = "h3")]
    H3 { id: String, runs: Runs },
    #[serde(rename = "p")]
    P { runs: Runs },
    #[serde(rename = "ul")]
    Ul { items: Vec<Runs> },
    #[serde(rename = "ol")]
    Ol { start: usize, items: Vec<Runs> },
    #[serde(rename = "code")]
    Code {
        lang: &'static str,
        label: &'static str,
        text: String,
    },
    #[serde(rename = "figure")]
    Figure {
        label: &'static str,
        figure: Compare,
        alt: String,
    },
}

#[derive(Serialize)]
struct Hero {
    kind: &'static str,
    figure: Block,
}

#[derive(Serialize)]
struct Course<'a> {
    slug: &'a str,
    title: &'a str,
    url: String,
    level: &'static str,
    track: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LessonId<'a> {
    slug: &'a str,
    title: &'a str,
    url: String,
    position: usize,
    of: usize,
    minutes: usize,
    answer: Option<String>,
    key_idea: Option<String>,
}

#[derive(Serialize)]
struct Body {
    format: &'static str,
    text: String,
}

#[derive(Serialize)]
struct PlainOption {
    text: String,
    correct: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tempting: Option<String>,
}

#[derive(Serialize)]
struct PlainCheck {
    question: String,
    options: Vec<PlainOption>,
}

#[derive(Serialize)]
struct Link<'a> {
    slug: &'a str,
    title: &'a str,
    url: String,
}

#[derive(Serialize)]
struct ReaderLink<'a> {
    slug: &'a str,
    title: &'a str,
    minutes: usize,
}

#[derive(Serialize)]
struct ReaderOption {
    text: Runs,
    correct: bool,
    tempting: Option<Runs>,
}

#[derive(Serialize)]
struct ReaderCheck {
    question: Runs,
    options: Vec<ReaderOption>,
    order: Vec<usize>,
    why: Option<Runs>,
}

#[derive(Serialize)]
struct ModuleRef<'a> {
    index: usize,
    slug: &'a str,
    title: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Reader<'a> {
    schema: u32,
    title: &'a str,
    course_title: &'a str,
    module: ModuleRef<'a>,
    answer: Option<String>,
    key_idea: Option<String>,
    hero: Hero,
    blocks: Vec<Block>,
    check: ReaderCheck,
    prev: Option<ReaderLink<'a>>,
    next: Option<ReaderLink<'a>>,
}

#[derive(Serialize)]
struct Review {
    status: &'static str,
}

#[derive(Serialize)]
struct Licence {
    name: &'static str,
    url: &'static str,
}

#[derive(Serialize)]
struct Lesson<'a> {
    course: Course<'a>,
    lesson: LessonId<'a>,
    body: Body,
    check: PlainCheck,
    prev: Option<Link<'a>>,
    next: Option<Link<'a>>,
    authorship: String,
    review: Review,
    cite: String,
    licence: Licence,
    reader: Reader<'a>,
}

// ---------------------------------------------------------------------------
// Course plan: identities of all lessons, made before any content

struct Module {
    slug: String,
    title: String,
}

struct Meta {
    slug: String,
    title: String,
    minutes: usize,
    target: usize,
    module: usize, // 0-based index into modules
}

struct Plan {
    seed: u64,
    course_slug: String,
    course_title: String,
    modules: Vec<Module>,
    lessons: Vec<Meta>,
}

const BASE_URL: &str = "https://example.org/learn";

fn minutes_for(bytes: usize) -> usize {
    // Roughly half the file is the markdown body; ~6 bytes a word, 200 words a minute.
    (bytes / 2 / 6 / 200).max(2)
}

fn plan_course(n: usize, seed: u64, huge: Option<usize>) -> Plan {
    let mut rng = Rng::new(seed ^ 0xC0FF_EE00);
    let (course_slug, course_title) = match huge {
        Some(bytes) => (
            format!("gen-huge-{bytes}"),
            format!("Generated course: one lesson of {bytes} bytes"),
        ),
        None if seed == 1 => (
            format!("gen-course-{n}"),
            format!("Generated course of {n} lessons"),
        ),
        None => (
            format!("gen-course-{n}-s{seed}"),
            format!("Generated course of {n} lessons (seed {seed})"),
        ),
    };
    let mut modules = Vec::new();
    let mut module_of = Vec::with_capacity(n);
    let mut module_slugs = HashSet::new();
    while module_of.len() < n {
        let size = rng.range(6, 10);
        let mut title = title(&mut rng);
        let mut slug = slugify(&title);
        while !module_slugs.insert(slug.clone()) {
            title = self::title(&mut rng);
            slug = slugify(&title);
        }
        for _ in 0..size {
            if module_of.len() < n {
                module_of.push(modules.len());
            }
        }
        modules.push(Module { slug, title });
    }
    let mut slugs = HashSet::new();
    let mut lessons = Vec::with_capacity(n);
    for module in module_of {
        let title = title(&mut rng);
        let base = slugify(&title);
        let mut slug = base.clone();
        let mut k = 2;
        while !slugs.insert(slug.clone()) {
            slug = format!("{base}-{k}");
            k += 1;
        }
        let target = match huge {
            Some(bytes) => bytes,
            // Skewed towards the middle: the sum of two uniforms.
            None => 10_300 + rng.range(0, 9_000) + rng.range(0, 9_000),
        };
        lessons.push(Meta {
            slug,
            title,
            minutes: minutes_for(target),
            target,
            module,
        });
    }
    Plan {
        seed,
        course_slug,
        course_title,
        modules,
        lessons,
    }
}

// ---------------------------------------------------------------------------
// Content

/// Text of a paragraph or list item as runs with the odd bold, italic or code span.
fn rich_runs(rng: &mut Rng, sentences: usize, lead_bold: bool) -> Runs {
    let mut runs: Runs = Vec::new();
    let mut plain = String::new();
    if lead_bold {
        runs.push(Run {
            b: true,
            ..Run::plain(format!("{}.", capitalise(&words(rng, 1, 3))))
        });
        plain.push(' ');
    }
    for s in 0..sentences {
        if s > 0 {
            plain.push(' ');
        }
        let n = rng.range(7, 22);
        for i in 0..n {
            if i > 0 {
                plain.push(' ');
            }
            let roll = rng.next() % 100;
            if i > 0 && i + 1 < n && roll < 6 {
                // A styled span in the middle of the sentence.
                if !plain.is_empty() {
                    runs.push(Run::plain(std::mem::take(&mut plain)));
                }
                let run = match roll % 3 {
                    0 => Run {
                        code: true,
                        ..Run::plain(identifier(rng))
                    },
                    1 => Run {
                        b: true,
                        ..Run::plain(words(rng, 1, 3))
                    },
                    _ => Run {
                        i: true,
                        ..Run::plain(words(rng, 1, 2))
                    },
                };
                runs.push(run);
            } else {
                let w = rng.pick(WORDS);
                if i == 0 {
                    plain.push_str(&capitalise(w));
                } else {
                    plain.push_str(w);
                }
            }
        }
        plain.push('.');
    }
    if !plain.is_empty() {
        runs.push(Run::plain(plain));
    }
    runs
}

fn code_sample(rng: &mut Rng) -> (&'static str, &'static str, String) {
    let mut t = String::new();
    match rng.range(0, 4) {
        0 => {
            for _ in 0..rng.range(1, 3) {
                let f = identifier(rng);
                let v = rng.pick(NOUNS);
                let k = rng.range(2, 64);
                writeln!(t, "/// {}", sentence(rng, 5, 10, '.')).unwrap();
                writeln!(t, "pub fn {f}(items: &[u64]) -> u64 {{").unwrap();
                writeln!(t, "    let mut {v} = 0u64;").unwrap();
                writeln!(
                    t,
                    "    for item in items.iter().filter(|x| **x % {k} != 0) {{"
                )
                .unwrap();
                writeln!(t, "        {v} = {v}.wrapping_add(item * {k});").unwrap();
                writeln!(t, "    }}").unwrap();
                writeln!(t, "    {v}").unwrap();
                writeln!(t, "}}\n").unwrap();
            }
            ("rust", "Rust", t.trim_end().to_string())
        }
        1 => {
            for _ in 0..rng.range(1, 3) {
                let f = identifier(rng);
                let v = rng.pick(NOUNS);
                writeln!(t, "def {f}(rows, limit={}):", rng.range(1, 500)).unwrap();
                writeln!(t, "    \"\"\"{}\"\"\"", sentence(rng, 4, 9, '.')).unwrap();
                writeln!(t, "    {v} = []").unwrap();
                writeln!(t, "    for row in rows:").unwrap();
                writeln!(t, "        if row.get(\"{}\", 0) > limit:", rng.pick(NOUNS)).unwrap();
                writeln!(t, "            {v}.append(row)").unwrap();
                writeln!(t, "    return sorted({v}, key=len)\n").unwrap();
            }
            ("python", "Python", t.trim_end().to_string())
        }
        2 => {
            let dir = rng.pick(NOUNS);
            writeln!(t, "# {}", sentence(rng, 4, 9, '.')).unwrap();
            writeln!(t, "set -euo pipefail").unwrap();
            for _ in 0..rng.range(2, 6) {
                match rng.range(0, 3) {
                    0 => writeln!(t, "mkdir -p \"$HOME/{dir}/{}\"", rng.pick(NOUNS)).unwrap(),
                    1 => writeln!(
                        t,
                        "grep -c '{}' /var/log/{dir}.log | sort -n | tail -{}",
                        rng.pick(WORDS),
                        rng.range(1, 20)
                    )
                    .unwrap(),
                    2 => writeln!(
                        t,
                        "for f in {dir}/*.json; do wc -c \"$f\"; done | sort -n | head -{}",
                        rng.range(1, 9)
                    )
                    .unwrap(),
                    _ => writeln!(t, "echo \"{} $(date +%s)\"", rng.pick(WORDS)).unwrap(),
                }
            }
            ("bash", "Bash", t.trim_end().to_string())
        }
        3 => {
            writeln!(t, "{{").unwrap();
            let n = rng.range(3, 7);
            for i in 0..n {
                let comma = if i + 1 < n { "," } else { "" };
                match rng.range(0, 2) {
                    0 => writeln!(
                        t,
                        "  \"{}\": {}{comma}",
                        identifier(rng),
                        rng.range(0, 10_000)
                    )
                    .unwrap(),
                    1 => writeln!(
                        t,
                        "  \"{}\": \"{}\"{comma}",
                        rng.pick(NOUNS),
                        words(rng, 1, 4)
                    )
                    .unwrap(),
                    _ => writeln!(
                        t,
                        "  \"{}\": [{}, {}, {}]{comma}",
                        rng.pick(NOUNS),
                        rng.range(0, 99),
                        rng.range(0, 99),
                        rng.range(0, 99)
                    )
                    .unwrap(),
                }
            }
            write!(t, "}}").unwrap();
            ("json", "JSON", t)
        }
        _ => {
            let f = identifier(rng);
            let ty = capitalise(rng.pick(NOUNS));
            writeln!(t, "// {} reports {}", f, sentence(rng, 3, 8, '.')).unwrap();
            writeln!(t, "type {ty} struct {{").unwrap();
            writeln!(t, "\tName  string").unwrap();
            writeln!(t, "\tCount int").unwrap();
            writeln!(t, "}}\n").unwrap();
            writeln!(t, "func {f}(xs []{ty}) (int, error) {{").unwrap();
            writeln!(t, "\ttotal := 0").unwrap();
            writeln!(t, "\tfor _, x := range xs {{").unwrap();
            writeln!(t, "\t\tif x.Count > {} {{", rng.range(1, 999)).unwrap();
            writeln!(
                t,
                "\t\t\treturn 0, fmt.Errorf(\"{}: %s\", x.Name)",
                words(rng, 2, 4)
            )
            .unwrap();
            writeln!(t, "\t\t}}").unwrap();
            writeln!(t, "\t\ttotal += x.Count").unwrap();
            writeln!(t, "\t}}").unwrap();
            writeln!(t, "\treturn total, nil").unwrap();
            write!(t, "}}").unwrap();
            ("go", "Go", t)
        }
    }
}

fn compare_figure(rng: &mut Rng) -> Block {
    let column = |rng: &mut Rng| Column {
        title: capitalise(&format!("{}: {}", rng.pick(NOUNS), words(rng, 2, 5))),
        items: (0..rng.range(2, 5))
            .map(|_| capitalise(&words(rng, 3, 10)))
            .collect(),
    };
    let left = column(rng);
    let right = column(rng);
    let figure = Compare {
        kind: "compare",
        title: capitalise(&words(rng, 3, 7)),
        caption: format!(
            "{} {}",
            sentence(rng, 8, 18, '.'),
            sentence(rng, 8, 18, '.')
        ),
        left,
        right,
    };
    let mut alt = format!("Figure: {}.", figure.title);
    for col in [&figure.left, &figure.right] {
        write!(alt, " {}: {}.", col.title, col.items.join("; ")).unwrap();
    }
    write!(alt, " {}", figure.caption).unwrap();
    Block::Figure {
        label: "Figure",
        figure,
        alt,
    }
}

/// Builds the lesson blocks and the matching markdown.
struct Content {
    blocks: Vec<Block>,
    md: String,
    /// Serialized size of the blocks so far, plus the markdown.
    size: usize,
    ids: HashSet<String>,
}

impl Content {
    fn push(&mut self, block: Block) {
        let before = self.md.len();
        if !self.md.is_empty() {
            self.md.push('\n');
        }
        match &block {
            Block::H2 { runs, .. } => {
                self.md.push_str("## ");
                runs_markdown(runs, &mut self.md);
                self.md.push('\n');
            }
            Block::H3 { runs, .. } => {
                self.md.push_str("### ");
                runs_markdown(runs, &mut self.md);
                self.md.push('\n');
            }
            Block::P { runs } => {
                runs_markdown(runs, &mut self.md);
                self.md.push('\n');
            }
            Block::Ul { items } => {
                for item in items {
                    self.md.push_str("- ");
                    runs_markdown(item, &mut self.md);
                    self.md.push('\n');
                }
            }
            Block::Ol { start, items } => {
                for (k, item) in items.iter().enumerate() {
                    write!(self.md, "{}. ", start + k).unwrap();
                    runs_markdown(item, &mut self.md);
                    self.md.push('\n');
                }
            }
            Block::Code { lang, text, .. } => {
                writeln!(self.md, "```{lang}\n{text}\n```").unwrap();
            }
            Block::Figure { alt, .. } => {
                writeln!(self.md, "> {alt}").unwrap();
            }
        }
        // JSON escaping adds a little to the markdown copy too.
        let md_added = self.md.len() - before;
        self.size += md_added + md_added / 16 + json_size(&block);
        self.blocks.push(block);
    }

    fn heading(&mut self, rng: &mut Rng, level: u8) {
        let text = capitalise(&words(rng, 2, 6));
        let base = slugify(&text);
        let mut id = base.clone();
        let mut k = 2;
        while !self.ids.insert(id.clone()) {
            id = format!("{base}-{k}");
            k += 1;
        }
        let runs = vec![Run::plain(text)];
        self.push(if level == 2 {
            Block::H2 { id, runs }
        } else {
            Block::H3 { id, runs }
        });
    }

    fn list_items(rng: &mut Rng) -> Vec<Runs> {
        let lead = rng.chance(50);
        (0..rng.range(2, 6))
            .map(|_| {
                let sentences = rng.range(1, 2);
                rich_runs(rng, sentences, lead)
            })
            .collect()
    }

    /// One section: an h2 and a handful of blocks under it.
    /// Stops early once the content reaches `target` bytes.
    fn section(&mut self, rng: &mut Rng, hero_alt: Option<&str>, target: usize) {
        self.heading(rng, 2);
        let n = rng.range(2, 6);
        for k in 0..n {
            if k > 0 && self.size >= target {
                break;
            }
            let roll = rng.range(0, 99);
            if k == 0 || roll < 45 {
                let s = rng.range(2, 6);
                self.push(Block::P {
                    runs: rich_runs(rng, s, false),
                });
                if k == 0
                    && let Some(alt) = hero_alt
                {
                    // The body carries the hero figure as a blockquote of its alt text.
                    self.md.push('\n');
                    writeln!(self.md, "> {alt}").unwrap();
                    self.size += alt.len() + 3;
                }
            } else if roll < 58 {
                self.push(Block::Ul {
                    items: Self::list_items(rng),
                });
            } else if roll < 66 {
                let start = if rng.chance(85) { 1 } else { rng.range(2, 9) };
                self.push(Block::Ol {
                    start,
                    items: Self::list_items(rng),
                });
            } else if roll < 84 {
                let (lang, label, text) = code_sample(rng);
                self.push(Block::Code { lang, label, text });
            } else if roll < 94 {
                self.heading(rng, 3);
                let s = rng.range(1, 4);
                self.push(Block::P {
                    runs: rich_runs(rng, s, false),
                });
            } else {
                self.push(compare_figure(rng));
            }
        }
    }
}

fn json_size<T: Serialize>(v: &T) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Counter(0);
    serde_json::to_writer(&mut c, v).expect("serialize");
    c.0
}

fn runs_of(s: String) -> Runs {
    vec![Run::plain(s)]
}

/// Generates lesson `idx` (0-based) of the plan as JSON bytes.
fn lesson_json(plan: &Plan, idx: usize) -> Vec<u8> {
    let meta = &plan.lessons[idx];
    let n = plan.lessons.len();
    let mut rng = Rng::new(plan.seed.wrapping_mul(1_000_003) ^ (idx as u64 + 1));

    let hero = compare_figure(&mut rng);
    let hero_alt = match &hero {
        Block::Figure { alt, .. } => alt.clone(),
        _ => unreachable!(),
    };

    // Check question.
    let correct = rng.range(0, 3);
    let mut options = Vec::new();
    for k in 0..4 {
        let text = sentence(&mut rng, 6, 16, '.');
        let tempting = (k != correct).then(|| sentence(&mut rng, 10, 24, '.'));
        options.push((text, tempting));
    }
    let mut order: Vec<usize> = (0..4).collect();
    for k in (1..4).rev() {
        let j = rng.range(0, k);
        order.swap(k, j);
    }
    let question = sentence(&mut rng, 10, 24, '?');
    let why = rng.chance(80).then(|| rich_runs(&mut rng, 2, false));
    let key_idea = format!(
        "{} {}",
        sentence(&mut rng, 14, 30, '.'),
        sentence(&mut rng, 10, 20, '.')
    );
    let answer = rng.chance(75).then(|| sentence(&mut rng, 14, 30, '.'));

    let overhead = 2_500 + hero_alt.len() * 3 + key_idea.len() * 2;
    let mut content = Content {
        blocks: Vec::new(),
        md: String::new(),
        size: overhead,
        ids: HashSet::new(),
    };
    let mut first = true;
    while content.size < meta.target {
        content.section(&mut rng, first.then_some(hero_alt.as_str()), meta.target);
        first = false;
    }

    let course_url = format!("{BASE_URL}/{}", plan.course_slug);
    let lesson_url = |slug: &str| format!("{course_url}/{slug}");
    let module = &plan.modules[meta.module];
    let prev = idx.checked_sub(1).map(|k| &plan.lessons[k]);
    let next = plan.lessons.get(idx + 1);

    let lesson = Lesson {
        course: Course {
            slug: &plan.course_slug,
            title: &plan.course_title,
            url: course_url.clone(),
            level: "intermediate",
            track: "build",
        },
        lesson: LessonId {
            slug: &meta.slug,
            title: &meta.title,
            url: lesson_url(&meta.slug),
            position: idx + 1,
            of: n,
            minutes: meta.minutes,
            answer: answer.clone(),
            key_idea: Some(key_idea.clone()),
        },
        body: Body {
            format: "markdown",
            text: content.md,
        },
        check: PlainCheck {
            question: question.clone(),
            options: options
                .iter()
                .enumerate()
                .map(|(k, (text, tempting))| PlainOption {
                    text: text.clone(),
                    correct: k == correct,
                    tempting: tempting.clone(),
                })
                .collect(),
        },
        prev: prev.map(|m| Link {
            slug: &m.slug,
            title: &m.title,
            url: lesson_url(&m.slug),
        }),
        next: next.map(|m| Link {
            slug: &m.slug,
            title: &m.title,
            url: lesson_url(&m.slug),
        }),
        authorship: format!(
            "Synthetic lesson written by lectern's gen_course example (seed {}).",
            plan.seed
        ),
        review: Review {
            status: "Generated for benchmarks",
        },
        cite: format!(
            "gen_course (seed {}) '{}', in {}. Available at: {}",
            plan.seed,
            meta.title,
            plan.course_title,
            lesson_url(&meta.slug)
        ),
        licence: Licence {
            name: "CC0 1.0",
            url: "https://creativecommons.org/publicdomain/zero/1.0/",
        },
        reader: Reader {
            schema: 1,
            title: &meta.title,
            course_title: &plan.course_title,
            module: ModuleRef {
                index: meta.module + 1,
                slug: &module.slug,
                title: &module.title,
            },
            answer: if rng.chance(50) { None } else { answer },
            key_idea: Some(key_idea),
            hero: Hero {
                kind: "figure",
                figure: hero,
            },
            blocks: content.blocks,
            check: ReaderCheck {
                question: runs_of(question),
                options: options
                    .into_iter()
                    .enumerate()
                    .map(|(k, (text, tempting))| ReaderOption {
                        text: runs_of(text),
                        correct: k == correct,
                        tempting: tempting.map(runs_of),
                    })
                    .collect(),
                order,
                why,
            },
            prev: prev.map(|m| ReaderLink {
                slug: &m.slug,
                title: &m.title,
                minutes: m.minutes,
            }),
            next: next.map(|m| ReaderLink {
                slug: &m.slug,
                title: &m.title,
                minutes: m.minutes,
            }),
        },
    };
    serde_json::to_vec(&lesson).expect("serialize lesson")
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for b in s.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

fn file_name(slug: &str) -> String {
    format!("{:08x}-{slug}.json", fnv1a(slug))
}

fn write_lesson(plan: &Plan, idx: usize, out: &Path) -> std::io::Result<(PathBuf, usize)> {
    let bytes = lesson_json(plan, idx);
    let path = out.join(file_name(&plan.lessons[idx].slug));
    std::fs::write(&path, &bytes)?;
    Ok((path, bytes.len()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    std::fs::create_dir_all(&args.out)?;
    let start = Instant::now();

    if let Some(bytes) = args.huge {
        let plan = plan_course(1, args.seed, Some(bytes));
        let (path, size) = write_lesson(&plan, 0, &args.out)?;
        eprintln!(
            "wrote 1 lesson, {size} bytes, in {:.2} s",
            start.elapsed().as_secs_f64()
        );
        println!("{}", path.display());
        return Ok(());
    }

    let n = args.lessons;
    if n == 0 {
        return Err("--lessons must be at least 1".into());
    }
    let plan = plan_course(n, args.seed, None);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
        .clamp(1, 64);

    let results: Vec<std::io::Result<(usize, usize, usize)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let plan = &plan;
                let out = &args.out;
                s.spawn(move || -> std::io::Result<(usize, usize, usize)> {
                    let (mut total, mut min, mut max) = (0usize, usize::MAX, 0usize);
                    for idx in (t..n).step_by(threads) {
                        let (_, size) = write_lesson(plan, idx, out)?;
                        total += size;
                        min = min.min(size);
                        max = max.max(size);
                    }
                    Ok((total, min, max))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    let (mut total, mut min, mut max) = (0usize, usize::MAX, 0usize);
    for r in results {
        let (t, lo, hi) = r?;
        total += t;
        min = min.min(lo);
        max = max.max(hi);
    }
    eprintln!(
        "wrote {n} lessons ({} modules) of course {} to {}: {:.1} MB, {min}..{max} bytes each, in {:.2} s",
        plan.modules.len(),
        plan.course_slug,
        args.out.display(),
        total as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
