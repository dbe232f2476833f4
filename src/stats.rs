//! Progress summaries: per course and module, lessons read, checks
//! answered, first-try score, reviews due, streak and misconceptions.
//! The figures and their lines, shared by `lectern stats` (text) and the
//! reader's stats screen; printing is the command's.

use crate::layout::{BOLD, Line, Role, Style, wrap};
use crate::model::Course;
use crate::model::{Days, MisconceptionFigure, ShelfFigure};
use crate::store::{LessonProgress, Store};
use chrono::{DateTime, Duration, TimeZone, Utc};
use std::collections::HashMap;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) lessons: usize,
    pub(crate) read: usize,
    pub(crate) answered: usize,
    pub(crate) first_right: usize,
}

impl Tally {
    pub(crate) fn add(&mut self, p: Option<&LessonProgress>) {
        self.lessons += 1;
        let Some(p) = p else { return };
        self.read += usize::from(p.read);
        let (answered, right) = first_tries(p);
        self.answered += answered;
        self.first_right += right;
    }

    pub(crate) fn score(&self) -> Option<u32> {
        (self.answered > 0).then(|| (self.first_right * 100 / self.answered) as u32)
    }
}

/// Checks answered, and answered right at the first try, of a lesson:
/// every check counts (a chapter of three quizzes is three answers); the
/// lesson-wide figures stand for progress kept before checks had ids.
fn first_tries(p: &LessonProgress) -> (usize, usize) {
    let firsts: Vec<bool> = p
        .checks
        .values()
        .filter_map(|c| c.first_try_correct)
        .collect();
    match p.first_try_correct {
        Some(first) if firsts.is_empty() => (1, usize::from(first)),
        _ => (firsts.len(), firsts.iter().filter(|&&f| f).count()),
    }
}

/// Review figures that need the store (not part of the reader's state).
pub use crate::model::ReviewFigures as Reviews;

/// Weeks of reviews the chart shows.
pub(crate) const WEEKS: usize = 8;

/// The store's figures for `course` at `now`, days cut as `days` says:
/// the same "today" as the review's.
pub(crate) fn reviews<Tz: TimeZone>(
    store: &Store,
    course: &Course,
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> Reviews {
    let slug = course.slug.as_str();
    let today = days.end_of_day(now);
    let week = days.end_of_day_in(now, 6);
    let misconceptions = store
        .misconceptions(Some(slug), 2)
        .into_iter()
        .map(|m| {
            let entry = course.lessons.iter().find(|l| l.slug == m.lesson);
            // Name the idea, not just its number: the option's own words.
            let option_text = entry
                .and_then(|e| crate::loader::load(&e.origin).ok())
                .and_then(|l| l.lesson.checks.into_iter().find(|c| c.id == m.check))
                .and_then(|c| {
                    c.options
                        .get(m.option as usize)
                        .map(|o| crate::model::runs_text(&o.text))
                });
            MisconceptionFigure {
                lesson_title: entry.map_or(m.lesson.clone(), |l| l.title.clone()),
                lesson: m.lesson,
                check: m.check,
                option: m.option,
                option_text,
                times: m.times,
                last: m.last,
            }
        })
        .collect();
    let first_week = days.day(now) - Duration::days(7 * WEEKS as i64 - 1);
    let mut weekly = vec![0u32; WEEKS];
    for at in store.review_times(Some(slug), days.start(first_week)) {
        let w = ((days.day(at) - first_week).num_days() / 7) as usize;
        if let Some(n) = weekly.get_mut(w) {
            *n += 1;
        }
    }
    Reviews {
        due_today: store.due_count(course, today),
        due_week: store.due_count(course, week),
        scheduled: store.upcoming(&[slug], today).1.iter().sum(),
        streak: store.streak_in(now, days),
        misconceptions,
        weekly,
    }
}

/// Eight levels of block, for a chart that is text (it scrolls with the
/// rest of the screen, and prints the same in `lectern stats`).
fn sparkline(values: &[u32]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = values.iter().copied().max().unwrap_or(0).max(1);
    values
        .iter()
        .map(|&v| {
            if v == 0 {
                '·'
            } else {
                BARS[((v as usize * 7).div_ceil(max as usize)).min(7)]
            }
        })
        .collect()
}

/// Every course of the library with its figures: the open courses first
/// (in their order), then the others, most recently read first.
pub(crate) fn shelf_figures<Tz: TimeZone>(
    store: &Store,
    open: &[std::sync::Arc<Course>],
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> Vec<ShelfFigure> {
    let today = days.end_of_day(now);
    let figure = |slug: &str, title: &str, root: Option<&std::path::Path>, lessons, due_today| {
        let progress = store.course_progress(slug);
        ShelfFigure {
            slug: slug.to_owned(),
            title: title.to_owned(),
            root: root.map(std::path::Path::to_path_buf),
            gone: root.is_some_and(|r| !r.exists()),
            lessons,
            read: progress.values().filter(|p| p.read).count(),
            answered: progress.values().map(|p| first_tries(p).0).sum(),
            due_today,
        }
    };
    let mut rows: Vec<ShelfFigure> = open
        .iter()
        .map(|c| {
            let due = store.due_count(c, today);
            figure(&c.slug, &c.title, c.root.as_deref(), c.lessons.len(), due)
        })
        .collect();
    for c in store.library() {
        if !open.iter().any(|o| o.slug == c.slug) {
            let due = store.due_count_shelved(&c.slug, today);
            let lessons = c.lessons as usize;
            rows.push(figure(&c.slug, &c.title, c.root.as_deref(), lessons, due));
        }
    }
    rows
}

/// One course's figures, as `lectern stats` prints them (text or JSON).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    pub(crate) slug: String,
    pub(crate) title: String,
    pub(crate) root: Option<std::path::PathBuf>,
    /// Its folder is gone: the figures are the store's alone.
    pub(crate) gone: bool,
    pub(crate) tally: Tally,
    pub(crate) reviews: Reviews,
}

/// `course`'s figures at `now`. A course whose folder is gone has no
/// lessons to list: its tally counts the lessons the store knows of.
pub(crate) fn summary<Tz: TimeZone>(
    store: &Store,
    course: &Course,
    gone: bool,
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> Summary {
    let progress = store.course_progress(&course.slug);
    let mut tally = Tally::default();
    if gone {
        for p in progress.values() {
            tally.add(Some(p));
        }
    } else {
        for l in &course.lessons {
            tally.add(progress.get(&l.slug));
        }
    }
    Summary {
        slug: course.slug.clone(),
        title: course.title.clone(),
        root: course.root.clone(),
        gone,
        tally,
        reviews: reviews(store, course, now, days),
    }
}

/// The totals over several courses, in one line.
pub(crate) fn total_line(all: &[&Summary], streak: u32) -> Line {
    let mut t = Tally::default();
    let (mut due, mut week) = (0, 0);
    for s in all {
        t.lessons += s.tally.lessons;
        t.read += s.tally.read;
        t.answered += s.tally.answered;
        t.first_right += s.tally.first_right;
        due += s.reviews.due_today;
        week += s.reviews.due_week;
    }
    let score = t.score().map_or("–".to_string(), |s| format!("{s}%"));
    let text = format!(
        "All {} courses: {}/{} read · {} answered · first try {score} · due today {due} · this week {week} · streak {streak} day{}",
        all.len(),
        t.read,
        t.lessons,
        t.answered,
        if streak == 1 { "" } else { "s" }
    );
    let mut out = Vec::new();
    push(
        &mut out,
        &text,
        Style::new(Role::KeyIdea).with(BOLD),
        usize::MAX / 2,
    );
    out.pop().unwrap_or_default()
}

/// A course whose folder is gone: what the store still knows of it.
pub(crate) fn gone_lines(s: &Summary, width: usize) -> Vec<Line> {
    let place = s.root.as_ref().map_or("its folder".to_string(), |r| {
        crate::model::sanitize::clean_owned(&r.to_string_lossy())
    });
    let mut out = Vec::new();
    push(
        &mut out,
        &s.title,
        Style::new(Role::Title).with(BOLD),
        width,
    );
    push(
        &mut out,
        &format!(
            "Its folder is gone ({place}); its progress is kept: {} read · {} answered",
            s.tally.read, s.tally.answered
        ),
        Style::new(Role::Meta),
        width,
    );
    out
}

fn gauge(done: usize, total: usize, cells: usize) -> String {
    let filled = (done * cells).checked_div(total).unwrap_or(0);
    format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
}

fn push(out: &mut Vec<Line>, text: &str, style: Style, width: usize) {
    for spans in wrap::wrap(&[(text, style)], width.max(1)) {
        out.push(Line { spans });
    }
}

/// A course's progress as lines for `width` columns.
pub(crate) fn course_lines(
    course: &Course,
    progress: &HashMap<String, LessonProgress>,
    width: usize,
) -> Vec<Line> {
    let mut out = Vec::new();
    let mut total = Tally::default();
    let mut rows = Vec::new();
    for m in course.modules() {
        let mut t = Tally::default();
        for &i in &m.lessons {
            let p = progress.get(&course.lessons[i].slug);
            t.add(p);
            total.add(p);
        }
        let name = match &m.module {
            Some(md) if !md.title.is_empty() => format!("{}. {}", md.index, md.title),
            Some(md) => format!("Module {}", md.index),
            None => "Lessons".into(),
        };
        rows.push((name, t));
    }
    push(
        &mut out,
        &course.title,
        Style::new(Role::Title).with(BOLD),
        width,
    );
    let cells = width.saturating_sub(40).clamp(4, 20);
    let line = |t: &Tally| {
        let score = t.score().map_or("–".to_string(), |s| format!("{s}%"));
        format!(
            "{} {}/{} read · {} answered · first try {score}",
            gauge(t.read, t.lessons, cells),
            t.read,
            t.lessons,
            t.answered
        )
    };
    push(&mut out, &line(&total), Style::new(Role::Text), width);
    for (name, t) in &rows {
        out.push(Line::default());
        push(
            &mut out,
            name,
            Style::new(Role::Heading(3)).with(BOLD),
            width,
        );
        push(&mut out, &line(t), Style::new(Role::Text), width);
    }
    out
}

/// Every course of the library, one gauge each (the stats screen).
pub(crate) fn library_lines(rows: &[ShelfFigure], width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    if rows.len() < 2 {
        return out;
    }
    push(
        &mut out,
        "Your library",
        Style::new(Role::Heading(3)).with(BOLD),
        width,
    );
    let cells = width.saturating_sub(50).clamp(4, 12);
    for r in rows {
        let gone = if r.gone { " · folder gone" } else { "" };
        let text = format!(
            "{} {}: {}/{} read · {} answered · {} due today{gone}",
            gauge(r.read.min(r.lessons), r.lessons, cells),
            r.title,
            r.read,
            r.lessons,
            r.answered,
            r.due_today
        );
        push(&mut out, &text, Style::new(Role::Text), width);
    }
    out
}

pub(crate) fn review_lines(r: &Reviews, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    push(
        &mut out,
        &format!(
            "Reviews due today: {} · this week: {} · scheduled later: {} · streak: {} day{}",
            r.due_today,
            r.due_week,
            r.scheduled,
            r.streak,
            plural(r.streak)
        ),
        Style::new(Role::KeyIdea),
        width,
    );
    if !r.weekly.is_empty() {
        let this_week = r.weekly.last().copied().unwrap_or(0);
        push(
            &mut out,
            &format!(
                "Reviews, last {} weeks: {}  ({this_week} this week)",
                r.weekly.len(),
                sparkline(&r.weekly)
            ),
            Style::new(Role::Text),
            width,
        );
    }
    if !r.misconceptions.is_empty() {
        push(
            &mut out,
            "Misconceptions to revisit (the digit opens the lesson):",
            Style::new(Role::Wrong).with(BOLD),
            width,
        );
        for (i, m) in r.misconceptions.iter().enumerate() {
            let key = if i < 9 {
                format!("{} ", i + 1)
            } else {
                "  ".into()
            };
            let what = match &m.option_text {
                Some(text) => format!("you chose “{text}”"),
                None => format!("the same wrong option ({})", m.option + 1),
            };
            let last = m.last.with_timezone(&chrono::Local).format("%Y-%m-%d");
            push(
                &mut out,
                &format!(
                    "{key}✘ “{}”: {what} {} times, last on {last}",
                    m.lesson_title, m.times
                ),
                Style::new(Role::Wrong),
                width,
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_wrong_option_is_named_by_its_text() {
        let course = crate::loader::builtin_course();
        let first = &course.lessons[0];
        let lesson = crate::loader::load(&first.origin).unwrap().lesson;
        let check = lesson.checks.into_iter().next().unwrap();
        let wrong = check.options.iter().position(|o| !o.correct).unwrap();
        let mut store = Store::in_memory();
        let now = Utc::now();
        for _ in 0..3 {
            store.apply(&crate::model::Change::Attempt {
                key: crate::model::LessonKey::new(&course.slug, &first.slug),
                check: String::new(),
                option: wrong as u32,
                answer: None,
                correct: false,
                review: false,
                revealed: false,
                at: Some(now),
            });
        }
        let r = reviews(&store, &course, now, &Days::new(4, Utc));
        let text = crate::model::runs_text(&check.options[wrong].text);
        assert_eq!(r.misconceptions.len(), 1);
        assert_eq!(r.misconceptions[0].option_text.as_deref(), Some(&*text));
        assert_eq!(r.misconceptions[0].times, 3);
        let lines = review_lines(&r, 60);
        assert!(lines.iter().all(|l| l.width() <= 60));
        let all: String = lines.iter().map(|l| l.text()).collect();
        assert!(all.contains("3 times"), "{all}");
    }

    #[test]
    fn every_check_of_a_lesson_counts() {
        let check = |first| crate::model::CheckProgress {
            attempts: 1,
            first_try_correct: Some(first),
            ..Default::default()
        };
        let p = LessonProgress {
            first_try_correct: Some(true),
            checks: [("a", true), ("b", false), ("c", true)]
                .map(|(id, f)| (id.to_string(), check(f)))
                .into_iter()
                .collect(),
            ..Default::default()
        };
        let mut t = Tally::default();
        t.add(Some(&p));
        assert_eq!(
            (t.lessons, t.answered, t.first_right, t.score()),
            (1, 3, 2, Some(66))
        );
    }

    #[test]
    fn sparklines_scale_to_the_busiest_week() {
        assert_eq!(sparkline(&[0, 1, 2, 4]), "·▃▅█");
        assert_eq!(sparkline(&[0, 0]), "··");
    }

    #[test]
    fn gauges_and_tallies() {
        assert_eq!(gauge(1, 4, 8), "██░░░░░░");
        assert_eq!(gauge(0, 0, 4), "░░░░");
        let mut t = Tally::default();
        t.add(Some(&LessonProgress {
            read: true,
            first_try_correct: Some(true),
            ..Default::default()
        }));
        t.add(Some(&LessonProgress {
            first_try_correct: Some(false),
            ..Default::default()
        }));
        t.add(None);
        assert_eq!(
            (t.lessons, t.read, t.answered, t.first_right, t.score()),
            (3, 1, 2, 1, Some(50))
        );
    }
}
