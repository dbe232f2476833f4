//! mdbook-course, Comprehensive Rust's preprocessor. A chapter opens with
//! YAML front matter (`minutes: 5`, `session: Day 1 Morning`), which is
//! data: read, never drawn. `{{%segment outline}}` stands for a table of
//! the slides under the chapter (its SUMMARY.md children) with their
//! minutes, and `{{%session outline}}` for one of the session's segments
//! (the top-level chapters from the one that names the session to the
//! next that names another, in one part), with a 10-minute break between
//! segments, as mdbook-course counts them; `{{%course outline NAME}}` for
//! each session of the course whose front matter names it (`course:
//! NAME`, kept by the sessions after it that name none). A slide's minutes are its own
//! and those of the chapters nested under it; durations are rounded up to
//! 5 minutes past the first 5, as mdbook-course rounds them.

use super::super::summary::Entry;
use super::Chapter;

/// What mdbook-course's directives open and close with.
const OPEN: &str = "{{%";
const CLOSE: &str = "}}";

/// What opens speaker notes, where mdbook-course notes a slide's minutes.
const NOTES: &str = "<details>";

/// The break mdbook-course counts between a session's segments.
const BREAK: u64 = 10;

/// A chapter's front matter, what lectern reads of it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Front {
    pub minutes: u64,
    pub session: Option<String>,
    pub course: Option<String>,
}

/// The front matter `text` opens with, and how many bytes it takes: a
/// `---` line, `key: value` lines, a `---` line.
pub fn front_matter(text: &str) -> Option<(Front, usize)> {
    let body = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut front = Front::default();
    let mut at = text.len() - body.len();
    for line in body.split_inclusive('\n') {
        at += line.len();
        let l = line.trim_end();
        if l == "---" {
            return Some((front, at));
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (key, value) = l.split_once(':')?;
        let value = value.trim().trim_matches(['"', '\'']);
        match key.trim() {
            "minutes" => front.minutes = value.parse().unwrap_or(0),
            "session" => front.session = Some(value.to_string()),
            "course" => front.course = Some(value.to_string()),
            _ => {}
        }
    }
    None
}

/// mdbook-course's duration: rounded up to 5 minutes past the first 5.
pub fn duration(minutes: u64) -> String {
    let m = if minutes > 5 {
        minutes.div_ceil(5) * 5
    } else {
        minutes
    };
    let plural = |n: u64, one: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    };
    match (m / 60, m % 60) {
        (0, m) => plural(m, "minute"),
        (h, 0) => plural(h, "hour"),
        (h, m) => format!("{} and {}", plural(h, "hour"), plural(m, "minute")),
    }
}

/// The chapter's text: its front matter taken out, its outlines made.
pub fn rewrite(text: &str, chapter: &dyn Chapter) -> String {
    let text = match front_matter(text) {
        Some((_, n)) => &text[n..],
        None => text,
    };
    let timed;
    let text = match timing(text, chapter) {
        Some(t) => {
            timed = t;
            timed.as_str()
        }
        None => text,
    };
    if !text.contains(OPEN) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let Some(end) = rest[i..].find(CLOSE).map(|e| i + e) else {
            break;
        };
        let words: Vec<&str> = rest[i + OPEN.len()..end].split_whitespace().collect();
        let made = match words.as_slice() {
            ["segment", "outline"] => segment(chapter),
            ["session", "outline"] => session(chapter),
            ["course", "outline", name @ ..] if !name.is_empty() => {
                course(chapter, &name.join(" "))
            }
            _ => None,
        };
        let after = end + CLOSE.len();
        out.push_str(&made.unwrap_or_else(|| rest[i..after].to_string()));
        rest = &rest[after..];
    }
    out.push_str(rest);
    out
}

/// Speaker notes open with the slide's minutes, as mdbook-course writes
/// them into each `<details>`: for a chapter of a course's session, a
/// segment's own chapter (its minutes) or a slide under it (its minutes
/// and its sub-slides'); a sub-slide, counted in its slide, says none.
fn timing(text: &str, chapter: &dyn Chapter) -> Option<String> {
    if !text.contains(NOTES) {
        return None;
    }
    let (outline, i) = chapter.place()?;
    let entries = &outline.summary.entries;
    let depth = entries[i].depth;
    if depth > 1 || !in_session(entries, i, chapter) {
        return None;
    }
    let (minutes, subs) = match depth {
        0 => (chapter.front(i).minutes, false),
        _ => {
            let subs = entries.get(i + 1).is_some_and(|e| e.depth > depth);
            (slide(entries, i, chapter), subs)
        }
    };
    if minutes == 0 {
        return None;
    }
    let plural = if minutes == 1 { "minute" } else { "minutes" };
    let subs = if subs { "and its sub-slides " } else { "" };
    let note = format!("{NOTES}\nThis slide {subs}should take about {minutes} {plural}. ");
    Some(text.replace(NOTES, &note))
}

/// Whether entry `i` is in a course's session: the top-level chapters up
/// to its own name them (`course:` opens a course, or ends one when it is
/// `none`, and forgets the session; `session:` names one).
fn in_session(entries: &[Entry], i: usize, chapter: &dyn Chapter) -> bool {
    let (mut course, mut session) = (false, false);
    for j in (0..=i).filter(|&j| entries[j].depth == 0) {
        let front = chapter.front(j);
        if let Some(c) = &front.course {
            course = c != "none";
            session = false;
        }
        session |= front.session.is_some();
    }
    course && session
}

/// Entry `i`'s minutes: its own and those of the entries nested under it.
fn slide(entries: &[Entry], i: usize, chapter: &dyn Chapter) -> u64 {
    let depth = entries[i].depth;
    let under = entries[i + 1..]
        .iter()
        .take_while(|e| e.depth > depth)
        .count();
    (i..=i + under).map(|j| chapter.front(j).minutes).sum()
}

/// A table of `rows` (title, minutes), those of no minutes left out.
fn table(head: &str, rows: &[(String, u64)]) -> String {
    let mut out = format!("| {head} | Duration |\n| - | - |\n");
    for (title, m) in rows.iter().filter(|(_, m)| *m > 0) {
        out.push_str(&format!(
            "| {} | {} |\n",
            title.replace('|', "\\|"),
            duration(*m)
        ));
    }
    out
}

/// The outline of the segment the chapter is in: its top-level chapter
/// (a slide of its own minutes) and the slides under it, as mdbook-course
/// makes it wherever in the segment the directive stands.
fn segment(chapter: &dyn Chapter) -> Option<String> {
    let (outline, at) = chapter.place()?;
    let entries = &outline.summary.entries;
    let i = (0..=at)
        .rev()
        .find(|&j| entries[j].depth == 0)
        .unwrap_or(at);
    let depth = entries[i].depth;
    let own = (entries[i].title.clone(), chapter.front(i).minutes);
    let rows: Vec<(String, u64)> = std::iter::once(own)
        .chain(
            (i + 1..entries.len())
                .take_while(|&j| entries[j].depth > depth)
                .filter(|&j| entries[j].depth == depth + 1)
                .map(|j| (entries[j].title.clone(), slide(entries, j, chapter))),
        )
        .collect();
    let total = slide(entries, i, chapter);
    Some(format!(
        "This segment should take about {}. It contains:\n\n{}",
        duration(total),
        table("Slide", &rows)
    ))
}

/// Whether entry `j` opens a session: a top-level chapter naming one.
fn opens(entries: &[Entry], j: usize, chapter: &dyn Chapter) -> bool {
    entries[j].depth == 0 && chapter.front(j).session.is_some()
}

/// The segments (title, minutes) of the session opening at entry
/// `start`, and its minutes with the breaks between them.
fn segments(entries: &[Entry], start: usize, chapter: &dyn Chapter) -> (Vec<(String, u64)>, u64) {
    let part = entries[start].part;
    let rows: Vec<(String, u64)> = (start..entries.len())
        .take_while(|&j| entries[j].part == part && (j == start || !opens(entries, j, chapter)))
        .filter(|&j| entries[j].depth == 0)
        .map(|j| (entries[j].title.clone(), slide(entries, j, chapter)))
        .collect();
    let timed = rows.iter().filter(|(_, m)| *m > 0).count() as u64;
    let total = rows.iter().map(|(_, m)| m).sum::<u64>() + BREAK * timed.saturating_sub(1);
    (rows, total)
}

fn session(chapter: &dyn Chapter) -> Option<String> {
    let (outline, i) = chapter.place()?;
    let entries = &outline.summary.entries;
    // From the chapter that names the session, else the part's first.
    let part = entries[i].part;
    let mut before = (0..=i).rev().take_while(|&j| entries[j].part == part);
    let first = (0..=i)
        .rev()
        .take_while(|&j| entries[j].part == part)
        .last();
    let start = before
        .find(|&j| opens(entries, j, chapter))
        .or(first)
        .unwrap_or(i);
    let (rows, total) = segments(entries, start, chapter);
    Some(format!(
        "Including {BREAK} minute breaks, this session should take about {}. It contains:\n\n{}",
        duration(total),
        table("Segment", &rows)
    ))
}

/// `{{%course outline NAME}}`: each session of the course `name` (those
/// whose front matter says `course: NAME`), with its segments.
fn course(chapter: &dyn Chapter, name: &str) -> Option<String> {
    let (outline, _) = chapter.place()?;
    let entries = &outline.summary.entries;
    let mut out = String::from("Course schedule:\n\n");
    let mut found = false;
    // A session that names no course is in the one named before it.
    let mut current: Option<String> = None;
    for j in (0..entries.len()).filter(|&j| opens(entries, j, chapter)) {
        let front = chapter.front(j);
        if front.course.is_some() {
            current.clone_from(&front.course);
        }
        if current.as_deref() != Some(name) {
            continue;
        }
        found = true;
        let (rows, total) = segments(entries, j, chapter);
        let session = front.session.unwrap_or_default();
        out.push_str(&format!(
            "- {session} ({}, including breaks)\n\n",
            duration(total)
        ));
        out.push_str(&table("Segment", &rows));
        out.push('\n');
    }
    found.then_some(out)
}
