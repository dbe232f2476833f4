//! Spaced review: answers become FSRS ratings, cards live in the `review`
//! table.

use chrono::{DateTime, Utc};
use rs_fsrs::{Card, FSRS, Parameters, Rating};
use rusqlite::{Connection, params};

use super::time::{from_ms, to_ms};

/// A wrong answer is Again; a right one is how the learner said it felt
/// (1 again, 2 hard, as for a guess, 3 good, 4 easy), Good unless said.
pub(crate) fn rating(correct: bool) -> Rating {
    rated(correct, None)
}

pub(crate) fn rated(correct: bool, felt: Option<i64>) -> Rating {
    match (correct, felt) {
        (false, _) | (true, Some(1)) => Rating::Again,
        (true, Some(2)) => Rating::Hard,
        (true, Some(4)) => Rating::Easy,
        (true, _) => Rating::Good,
    }
}

/// The long-term scheduler: FSRS's short-term steps would bring a lesson
/// back after minutes, which a reader working through a course does not
/// want; days are the unit here. No fuzz, so a schedule can be tested.
fn fsrs() -> FSRS {
    FSRS::new(Parameters {
        enable_short_term: false,
        enable_fuzz: false,
        ..Parameters::default()
    })
}

/// The card after an answer at `now`. `None` is a lesson never answered:
/// its first answer creates the card.
pub(crate) fn schedule(card: Option<Card>, correct: bool, now: DateTime<Utc>) -> Card {
    schedule_as(card, rating(correct), now)
}

fn schedule_as(card: Option<Card>, rating: Rating, now: DateTime<Utc>) -> Card {
    let card = card.unwrap_or_else(|| Card {
        due: now,
        last_review: now,
        ..Card::default()
    });
    fsrs().next(card, now, rating).card
}

/// A note's card after grades `grades` (`(when, 1 again to 4 easy)`,
/// oldest first), as the learner gave them; `None` before any: a new
/// card, due from `since` (when it became one).
pub(crate) fn graded(grades: &[(DateTime<Utc>, u8)], since: DateTime<Utc>) -> Card {
    let new = Card {
        due: since,
        last_review: since,
        ..Card::default()
    };
    grades
        .iter()
        .fold(None, |card, &(at, rating)| {
            Some(schedule_as(card, rated(true, Some(i64::from(rating))), at))
        })
        .unwrap_or(new)
}

/// Builds check `key`'s card again from its attempts, each review answer
/// rated as the learner said: after an answer or a rating, made here or
/// merged from another machine. In the attempts' order, which every
/// machine agrees on (their time, their device's own order kept: see
/// [`super::sync`]), so every machine with the same answers has the same
/// card.
pub(crate) fn replay(conn: &Connection, key: CardKey) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT coalesce(ord_ms, at_ms), correct AND NOT revealed, review, rating FROM attempt
         WHERE course = ?1 AND lesson = ?2 AND check_id = ?3
         ORDER BY coalesce(ord_ms, at_ms), device, seq, id",
    )?;
    let rows = stmt.query_map(params![key.0, key.1, key.2], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, bool>(1)?,
            row.get::<_, bool>(2)?,
            row.get::<_, Option<i64>>(3)?,
        ))
    })?;
    let mut card: Option<Card> = None;
    for row in rows {
        let (at, correct, review, felt) = row?;
        // As `on_attempt`: the first answer and review answers move it.
        if card.is_none() || review {
            card = Some(schedule_as(card, rated(correct, felt), from_ms(at)));
        }
    }
    match card {
        Some(card) => save(conn, key, &card),
        None => Ok(()),
    }
}

/// [`replay`] for each card of `touched`.
pub(crate) fn replay_touched(
    conn: &Connection,
    touched: &super::sync::Touched,
) -> rusqlite::Result<()> {
    for (course, lesson, check) in touched {
        replay(conn, (course, lesson, check))?;
    }
    Ok(())
}

/// The card change an attempt makes, if any. Answering again inside the
/// lesson (say, after a wrong first try) is not a review, so only the first
/// attempt and review attempts move the schedule.
pub(crate) fn on_attempt(
    current: Option<Card>,
    correct: bool,
    review: bool,
    now: DateTime<Utc>,
) -> Option<Card> {
    match (&current, review) {
        (Some(_), false) => None,
        _ => Some(schedule(current, correct, now)),
    }
}

/// A card's key: a check of a lesson of a course.
pub(crate) type CardKey<'a> = (&'a str, &'a str, &'a str);

pub(crate) fn save(
    conn: &Connection,
    (course, lesson, check): CardKey,
    card: &Card,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO review
             (course, lesson, check_id, due_ms, stability, difficulty, elapsed_days,
              scheduled_days, reps, lapses, state, last_review_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            course,
            lesson,
            check,
            to_ms(card.due),
            card.stability,
            card.difficulty,
            card.elapsed_days,
            card.scheduled_days,
            card.reps,
            card.lapses,
            card.state as i32,
            to_ms(card.last_review),
        ],
    )?;
    Ok(())
}

/// Rebuilds every card from the attempts table, for files written before
/// cards were stored.
pub(crate) fn replay_all(conn: &Connection) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(
        "SELECT course, lesson, check_id, at_ms, correct AND NOT revealed, review FROM attempt
         ORDER BY course, lesson, check_id, at_ms, id",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok((
            (
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
            ),
            row.get::<_, i64>(3)?,
            row.get::<_, bool>(4)?,
            row.get::<_, bool>(5)?,
        ))
    })?;
    type Owned = (String, String, String);
    fn key(k: &Owned) -> CardKey<'_> {
        (&k.0, &k.1, &k.2)
    }
    let mut current: Option<(Owned, Card)> = None;
    for row in rows {
        let (k, at, correct, review) = row?;
        let card = match current.take() {
            Some((c, card)) if c == k => Some(card),
            Some((c, card)) => {
                save(conn, key(&c), &card)?;
                None
            }
            None => None,
        };
        // The first attempt always makes a card, so the default is never used.
        let next = on_attempt(card.clone(), correct, review, from_ms(at))
            .or(card)
            .unwrap_or_default();
        current = Some((k, next));
    }
    if let Some((c, card)) = current {
        save(conn, key(&c), &card)?;
    }
    Ok(())
}

/// A check's card as stored (tests).
#[cfg(test)]
pub(crate) fn load(
    conn: &Connection,
    (course, lesson, check): CardKey,
) -> rusqlite::Result<Option<Card>> {
    conn.query_row(
        "SELECT due_ms, stability, difficulty, elapsed_days, scheduled_days,
                reps, lapses, state, last_review_ms
         FROM review WHERE course = ?1 AND lesson = ?2 AND check_id = ?3",
        params![course, lesson, check],
        |row| {
            Ok(Card {
                due: from_ms(row.get(0)?),
                stability: row.get(1)?,
                difficulty: row.get(2)?,
                elapsed_days: row.get(3)?,
                scheduled_days: row.get(4)?,
                reps: row.get(5)?,
                lapses: row.get(6)?,
                state: state_from(row.get(7)?),
                last_review: from_ms(row.get(8)?),
            })
        },
    )
    .map(Some)
    .or_else(|e| match e {
        rusqlite::Error::QueryReturnedNoRows => Ok(None),
        e => Err(e),
    })
}

#[cfg(test)]
fn state_from(n: i32) -> rs_fsrs::State {
    match n {
        1 => rs_fsrs::State::Learning,
        2 => rs_fsrs::State::Review,
        3 => rs_fsrs::State::Relearning,
        _ => rs_fsrs::State::New,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
    }

    #[test]
    fn answers_map_to_good_and_again() {
        assert_eq!(rating(true), Rating::Good);
        assert_eq!(rating(false), Rating::Again);
    }

    #[test]
    fn a_right_answer_is_rated_as_it_felt_and_a_wrong_one_is_again() {
        assert_eq!(rated(true, Some(2)), Rating::Hard);
        assert_eq!(rated(true, Some(4)), Rating::Easy);
        assert_eq!(rated(true, Some(1)), Rating::Again);
        assert_eq!(rated(false, Some(4)), Rating::Again);
        let card = schedule(None, true, t0());
        let at = card.due;
        let hard = schedule_as(Some(card.clone()), Rating::Hard, at);
        let easy = schedule_as(Some(card), Rating::Easy, at);
        assert!(easy.due > hard.due);
    }

    #[test]
    fn first_answer_creates_a_card_due_in_days() {
        let right = schedule(None, true, t0());
        let wrong = schedule(None, false, t0());
        assert!(right.due >= t0() + Duration::days(1));
        assert!(wrong.due >= t0() + Duration::days(1));
        assert!(right.due > wrong.due);
        assert_eq!(right.reps, 1);
    }

    #[test]
    fn right_review_pushes_due_later_than_wrong_one() {
        let card = schedule(None, true, t0());
        let at = card.due;
        let right = schedule(Some(card.clone()), true, at);
        let wrong = schedule(Some(card.clone()), false, at);
        assert!(right.due > wrong.due, "{:?} vs {:?}", right.due, wrong.due);
        assert!(right.due > card.due);
        assert_eq!(wrong.lapses, card.lapses + 1);
    }

    #[test]
    fn retrying_inside_the_lesson_leaves_the_card() {
        let card = schedule(None, false, t0());
        assert!(on_attempt(Some(card.clone()), true, false, t0()).is_none());
        assert!(on_attempt(Some(card), true, true, t0()).is_some());
        assert!(on_attempt(None, true, true, t0()).is_some());
    }

    #[test]
    fn card_survives_the_table() {
        let conn = super::super::schema::memory().unwrap();
        let card = schedule(None, true, t0());
        save(&conn, ("c", "l", ""), &card).unwrap();
        let back = load(&conn, ("c", "l", "")).unwrap().unwrap();
        assert_eq!(back, card);
        assert!(load(&conn, ("c", "other", "")).unwrap().is_none());
        assert!(
            load(&conn, ("c", "l", "q2")).unwrap().is_none(),
            "each check its card"
        );
    }
}
