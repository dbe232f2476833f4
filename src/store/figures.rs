//! The figures of progress that need the store: a course's reviews, its
//! summary for `lectern stats`, the library's shelf. Their lines are the
//! layout's (`layout::stats`).

use super::Store;
use crate::model::{
    Course, Days, MisconceptionFigure, ReviewFigures, ShelfFigure, Summary, Tally, first_tries,
};
use chrono::{DateTime, Duration, TimeZone, Utc};
use std::borrow::Borrow;

/// Weeks of reviews the chart shows.
pub(crate) const WEEKS: usize = 8;

/// The store's figures for `course` at `now`, days cut as `days` says:
/// the same "today" as the review's.
pub(crate) fn reviews<Tz: TimeZone>(
    store: &Store,
    course: &Course,
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> ReviewFigures {
    let slug = course.slug.as_str();
    let today = days.end_of_day(now);
    let week = days.end_of_day_in(now, 6);
    let misconceptions = misconceptions(store, course);
    let weekly = weekly(store, slug, now, days);
    ReviewFigures {
        due_today: store.due_count(course, today),
        due_week: store.due_count(course, week),
        scheduled: store.upcoming(&[slug], today).1.iter().sum(),
        streak: store.streak_in(now, days),
        misconceptions,
        weekly,
        others: store.sync_status().others().map(|d| d.shown()).collect(),
    }
}

/// The wrong options chosen at least twice, each named by its own words.
fn misconceptions(store: &Store, course: &Course) -> Vec<MisconceptionFigure> {
    store
        .misconceptions(Some(&course.slug), 2)
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
        .collect()
}

/// Review answers per learner-week of the last `WEEKS`, this week last.
fn weekly<Tz: TimeZone>(
    store: &Store,
    slug: &str,
    now: DateTime<Utc>,
    days: &Days<Tz>,
) -> Vec<u32> {
    let first_week = days.day(now) - Duration::days(7 * WEEKS as i64 - 1);
    let mut weekly = vec![0u32; WEEKS];
    for at in store.review_times(Some(slug), days.start(first_week)) {
        let w = ((days.day(at) - first_week).num_days() / 7) as usize;
        if let Some(n) = weekly.get_mut(w) {
            *n += 1;
        }
    }
    weekly
}

/// Every course of the library with its figures: the open courses first
/// (in their order), then the others, most recently read first. The open
/// courses are the reader's, owned or shared (`Course` or `Arc<Course>`).
pub(crate) fn shelf_figures<Tz: TimeZone, C: Borrow<Course>>(
    store: &Store,
    open: &[C],
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
            let c = c.borrow();
            let due = store.due_count(c, today);
            figure(&c.slug, &c.title, c.root.as_deref(), c.lessons.len(), due)
        })
        .collect();
    for c in store.library() {
        if !open.iter().any(|o| o.borrow().slug == c.slug) {
            let due = store.due_count_shelved(&c.slug, today);
            let lessons = c.lessons as usize;
            rows.push(figure(&c.slug, &c.title, c.root.as_deref(), lessons, due));
        }
    }
    rows
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
                drill: false,
                at: Some(now),
            });
        }
        let r = reviews(&store, &course, now, &Days::new(4, Utc));
        let text = crate::model::runs_text(&check.options[wrong].text);
        assert_eq!(r.misconceptions.len(), 1);
        assert_eq!(r.misconceptions[0].option_text.as_deref(), Some(&*text));
        assert_eq!(r.misconceptions[0].times, 3);
        assert_eq!(r.weekly.len(), WEEKS);
    }
}
