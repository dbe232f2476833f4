//! Progress summaries: per course and module, lessons read, checks
//! answered, first-try score, reviews due, streak and misconceptions.
//! The figures and their lines, shared by `lectern stats` (text) and the
//! reader's stats screen; printing is the command's.

use crate::layout::{BOLD, Line, Role, Style, wrap};
use crate::model::Course;
use crate::store::{LessonProgress, Store};
use chrono::{Duration, Utc};
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
        if let Some(first) = p.first_try_correct {
            self.answered += 1;
            self.first_right += usize::from(first);
        }
    }

    pub(crate) fn score(&self) -> Option<u32> {
        (self.answered > 0).then(|| (self.first_right * 100 / self.answered) as u32)
    }
}

/// Review figures that need the store (not part of the reader's state).
pub use crate::model::ReviewFigures as Reviews;

pub(crate) fn reviews(store: &Store, course: &Course) -> Reviews {
    let now = Utc::now();
    let end_of_day = now + Duration::hours(24);
    let misconceptions = store
        .misconceptions(Some(&course.slug), 2)
        .into_iter()
        .map(|m| {
            let entry = course.lessons.iter().find(|l| l.slug == m.lesson);
            let title = entry.map_or(m.lesson.clone(), |l| l.title.clone());
            // Name the idea, not just its number: the option's own words.
            let option = entry
                .and_then(|e| crate::loader::load(&e.origin).ok())
                .and_then(|l| l.lesson.check)
                .and_then(|c| {
                    c.options
                        .get(m.option as usize)
                        .map(|o| crate::model::runs_text(&o.text))
                });
            match option {
                Some(text) => format!("“{title}”: you chose “{text}” {} times", m.times),
                None => format!("“{title}”: the same wrong option chosen {} times", m.times),
            }
        })
        .collect();
    Reviews {
        due_today: store.due(Some(&course.slug), end_of_day).len(),
        due_week: store.due(Some(&course.slug), now + Duration::days(7)).len(),
        streak: store.streak(now),
        misconceptions,
    }
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

pub(crate) fn review_lines(r: &Reviews, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    push(
        &mut out,
        &format!(
            "Reviews due today: {} · this week: {} · streak: {} day{}",
            r.due_today,
            r.due_week,
            r.streak,
            if r.streak == 1 { "" } else { "s" }
        ),
        Style::new(Role::KeyIdea),
        width,
    );
    if !r.misconceptions.is_empty() {
        push(
            &mut out,
            "Misconceptions to revisit:",
            Style::new(Role::Wrong).with(BOLD),
            width,
        );
        for m in &r.misconceptions {
            push(&mut out, &format!("✘ {m}"), Style::new(Role::Wrong), width);
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
        let check = lesson.check.unwrap();
        let wrong = check.options.iter().position(|o| !o.correct).unwrap();
        let mut store = Store::in_memory();
        let now = Utc::now();
        for _ in 0..3 {
            store.record_attempt(&course.slug, &first.slug, wrong as u32, false, false, now);
        }
        let r = reviews(&store, &course);
        let text = crate::model::runs_text(&check.options[wrong].text);
        assert_eq!(r.misconceptions.len(), 1);
        assert!(
            r.misconceptions[0].contains(&text),
            "{:?}",
            r.misconceptions
        );
        assert!(r.misconceptions[0].contains("3 times"));
        assert!(review_lines(&r, 60).iter().all(|l| l.width() <= 60));
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
