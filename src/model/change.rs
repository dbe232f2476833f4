//! A change to the learner's progress, as one value: what the state asks
//! the store to write, what is held back while a frame is drawn, and a
//! line of the journal that keeps a write the file refused. Each says what
//! it is (`"change": "attempt"`) and carries all it needs to be made again
//! (the lesson's keys, the values, the time it was made where the store
//! keeps one), so a log of them replays the same progress anywhere: at the
//! next start, or on another machine.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::anchor::Selector;
use super::{Anchor, LessonKey};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// Where the reader stands in the lesson.
    Position {
        #[serde(flatten)]
        key: LessonKey,
        anchor: Anchor,
    },
    Read {
        #[serde(flatten)]
        key: LessonKey,
    },
    /// Completed, and so read too, whichever was said first.
    Completed {
        #[serde(flatten)]
        key: LessonKey,
    },
    /// The lesson its course opens at next time.
    LastLesson {
        #[serde(flatten)]
        key: LessonKey,
    },
    /// How many checks the lesson holds (as last opened): the contents
    /// show "answered of all" from it.
    Checks {
        #[serde(flatten)]
        key: LessonKey,
        count: u32,
    },
    /// An answer to check `check`; the first creates its review card, a
    /// review answer moves it (right: FSRS Good, wrong: Again).
    Attempt {
        #[serde(flatten)]
        key: LessonKey,
        /// Which of the lesson's checks ("" for a JSON lesson's one).
        check: String,
        /// The option chosen, or [`super::NO_OPTION`].
        option: u32,
        /// Every other kind of answer (typed, several options), as text.
        answer: Option<String>,
        correct: bool,
        /// Given in a spaced review rather than while reading.
        review: bool,
        /// Given after the answer was shown: practice, never a first try.
        revealed: bool,
        /// Given in a drill (practice of what was missed): its own
        /// attempt, never a first try of a check answered before.
        #[serde(default)]
        drill: bool,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// A new round of the checks of `lessons` of `course` starts at `at`:
    /// the page shows them unanswered again, the next answer is the
    /// round's first try. Nothing is deleted: the earlier rounds' attempts
    /// and the first-try score stay.
    Reset {
        course: String,
        lessons: Vec<String>,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// The answer of check `check` was shown: from then on its answers are
    /// practice, in every session.
    Reveal {
        #[serde(flatten)]
        key: LessonKey,
        check: String,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// How the last review answer to check `check` felt, FSRS's rating (1
    /// again to 4 easy): its card is scheduled again with it.
    Rate {
        #[serde(flatten)]
        key: LessonKey,
        check: String,
        rating: u8,
    },
    /// A course opened goes into (or up in) the learner's library, by slug,
    /// so a course that moved keeps its progress and is found where it is.
    Remember {
        slug: String,
        title: String,
        /// Its folder; `None` for the built-in course.
        #[serde(serialize_with = "lossy_path")]
        root: Option<PathBuf>,
        /// Lessons it has; 0 when not known (an outline), which leaves the
        /// count the library had.
        lessons: u32,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// A mark (`m` and a letter) set at a place of a lesson: `'` and the
    /// letter return to it from any lesson of any course. Its `id` is its
    /// letter's, so setting the letter again replaces it (the last
    /// writer wins, on this machine and between machines).
    Mark {
        #[serde(flatten)]
        key: LessonKey,
        id: String,
        letter: char,
        target: Selector,
        /// A tombstone: the mark was taken away (never a row removed).
        #[serde(default)]
        deleted: bool,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// Where the reader stands in the lesson, as text: the words at the
    /// top of the screen, found again after the lesson is edited (text
    /// added above them). [`Change::Position`] stays beside it, for a
    /// lesson whose words are gone and for older readers.
    Place {
        #[serde(flatten)]
        key: LessonKey,
        target: Selector,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// A highlight of a lesson's text, with the learner's note on it (none:
    /// a highlight alone). Each has a random `id` of its own; editing or
    /// deleting it is a later change of the same id.
    Annotation {
        #[serde(flatten)]
        key: LessonKey,
        id: String,
        target: Selector,
        #[serde(default)]
        note: String,
        /// The note, a question, is a review card too (see
        /// [`super::card`]): its grades are [`Change::Grade`]s.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        card: bool,
        #[serde(default)]
        deleted: bool,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
    /// How well the learner recalled the answer of note `note`'s review
    /// card, FSRS's rating (1 again to 4 easy): its card is scheduled
    /// with it. Each grade is kept; none replaces another.
    Grade {
        #[serde(flatten)]
        key: LessonKey,
        note: String,
        rating: u8,
        #[serde(default, with = "instant")]
        at: Option<DateTime<Utc>>,
    },
}

impl Change {
    /// An answer by option to a lesson's one check (a JSON lesson's),
    /// first try or review, made at `at`.
    pub fn option_attempt(
        course: &str,
        lesson: &str,
        option: u32,
        correct: bool,
        review: bool,
        at: DateTime<Utc>,
    ) -> Change {
        Change::Attempt {
            key: LessonKey::new(course, lesson),
            check: String::new(),
            option,
            answer: None,
            correct,
            review,
            revealed: false,
            drill: false,
            at: Some(at),
        }
    }

    /// When it was made, for the changes whose time the store keeps;
    /// `None` too while it is not stamped yet.
    pub fn at(&self) -> Option<DateTime<Utc>> {
        match self {
            Change::Attempt { at, .. }
            | Change::Reveal { at, .. }
            | Change::Remember { at, .. }
            | Change::Mark { at, .. }
            | Change::Place { at, .. }
            | Change::Reset { at, .. }
            | Change::Annotation { at, .. }
            | Change::Grade { at, .. } => *at,
            _ => None,
        }
    }

    /// The change with its time, made at `now` unless it has one already.
    /// The state has no clock: whoever carries a change out stamps it, and
    /// the time stays with it from there (held, journaled, replayed).
    pub fn stamped(mut self, now: DateTime<Utc>) -> Change {
        if let Change::Attempt { at, .. }
        | Change::Reveal { at, .. }
        | Change::Remember { at, .. }
        | Change::Mark { at, .. }
        | Change::Place { at, .. }
        | Change::Reset { at, .. }
        | Change::Annotation { at, .. }
        | Change::Grade { at, .. } = &mut self
        {
            at.get_or_insert(now);
        }
        self
    }

    /// A change the learner would miss: an answer, a reveal, a lesson read
    /// or completed (not where the page stood).
    pub fn is_progress(&self) -> bool {
        matches!(
            self,
            Change::Attempt { .. }
                | Change::Reveal { .. }
                | Change::Reset { .. }
                | Change::Read { .. }
                | Change::Completed { .. }
                | Change::Mark { .. }
                | Change::Annotation { .. }
                | Change::Grade { .. }
        )
    }
}

/// Instants as RFC 3339 text to the millisecond (what the store keeps).
mod instant {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(at: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match at {
            Some(at) => s.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                DateTime::parse_from_rfc3339(&text)
                    .map(|at| at.with_timezone(&Utc))
                    .map_err(D::Error::custom)
            })
            .transpose()
    }
}

/// A folder's path as text, even one that is not UTF-8 (as the store
/// keeps it): a change is never refused for its folder's name.
fn lossy_path<S: serde::Serializer>(root: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
    root.as_deref().map(Path::to_string_lossy).serialize(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap() + chrono::Duration::milliseconds(7)
    }

    fn every_change() -> Vec<Change> {
        let key = LessonKey::new("c", "l\n\"x");
        vec![
            Change::Position {
                key: key.clone(),
                anchor: Anchor { block: 3, line: 9 },
            },
            Change::Read { key: key.clone() },
            Change::Completed { key: key.clone() },
            Change::LastLesson { key: key.clone() },
            Change::Checks {
                key: key.clone(),
                count: 3,
            },
            Change::Attempt {
                key: key.clone(),
                check: String::new(),
                option: 2,
                answer: None,
                correct: true,
                review: false,
                revealed: true,
                drill: false,
                at: Some(at()),
            },
            Change::Attempt {
                key: key.clone(),
                check: "q2\n\"".into(),
                option: crate::model::NO_OPTION,
                answer: Some("error\n 3 déjà".into()),
                correct: false,
                review: true,
                revealed: false,
                drill: true,
                at: Some(at()),
            },
            Change::Reveal {
                key: key.clone(),
                check: "q".into(),
                at: Some(at()),
            },
            Change::Rate {
                key,
                check: "q".into(),
                rating: 4,
            },
            Change::Remember {
                slug: "c".into(),
                title: "A course".into(),
                root: Some("/x/y".into()),
                lessons: 12,
                at: Some(at()),
            },
            Change::Mark {
                key: LessonKey::new("c", "l"),
                id: "mark-a".into(),
                letter: 'a',
                target: Selector {
                    exact: "Ownership".into(),
                    suffix: " is".into(),
                    end: 9,
                    ..Selector::default()
                },
                deleted: false,
                at: Some(at()),
            },
            Change::Place {
                key: LessonKey::new("c", "l"),
                target: Selector {
                    exact: "The stack".into(),
                    start: 40,
                    end: 49,
                    block: 4,
                    ..Selector::default()
                },
                at: Some(at()),
            },
            Change::Annotation {
                key: LessonKey::new("c", "l"),
                id: "9f3a-1".into(),
                target: Selector {
                    exact: "a set\nof rules".into(),
                    prefix: "is ".into(),
                    suffix: " that".into(),
                    start: 13,
                    end: 26,
                    block: 2,
                },
                note: "Why rules?\nAsk.".into(),
                card: true,
                deleted: true,
                at: Some(at()),
            },
            Change::Grade {
                key: LessonKey::new("c", "l"),
                note: "9f3a-1".into(),
                rating: 2,
                at: Some(at()),
            },
            Change::Reset {
                course: "c".into(),
                lessons: vec!["l".into(), "m\n".into()],
                at: Some(at()),
            },
        ]
    }

    #[test]
    fn every_change_is_one_line_of_json_and_back() {
        for change in every_change() {
            let line = serde_json::to_string(&change).unwrap();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Change>(&line).unwrap(), change);
        }
    }

    #[test]
    fn a_line_says_what_it_is_and_names_its_fields() {
        let line = serde_json::to_string(&every_change()[5]).unwrap();
        assert_eq!(
            line,
            r#"{"change":"attempt","course":"c","lesson":"l\n\"x","check":"","option":2,"answer":null,"correct":true,"review":false,"revealed":true,"drill":false,"at":"2026-03-01T09:00:00.007Z"}"#
        );
        let line = serde_json::to_string(&every_change()[9]).unwrap();
        assert!(line.starts_with(r#"{"change":"remember","slug":"c","title":"A course""#));
    }

    #[test]
    fn an_attempt_written_before_drills_reads_as_no_drill() {
        let old = r#"{"change":"attempt","course":"c","lesson":"l","check":"q","option":1,"answer":null,"correct":false,"review":false,"revealed":false,"at":"2026-03-01T09:00:00.007Z"}"#;
        let Change::Attempt { drill, .. } = serde_json::from_str(old).unwrap() else {
            panic!("an attempt");
        };
        assert!(!drill);
    }

    #[test]
    fn a_stamp_gives_a_time_once_and_only_where_the_store_keeps_one() {
        let later = at() + chrono::Duration::days(1);
        for change in every_change() {
            let kept = change.at();
            let stamped = change.clone().stamped(later);
            assert_eq!(stamped.at(), kept, "a time it had stays");
        }
        let unstamped = Change::Reveal {
            key: LessonKey::new("c", "l"),
            check: "q".into(),
            at: None,
        };
        assert_eq!(unstamped.stamped(later).at(), Some(later));
        let read = Change::Read {
            key: LessonKey::new("c", "l"),
        };
        assert_eq!(read.clone().stamped(later), read);
    }

    #[test]
    fn a_note_line_of_an_older_shape_reads_with_its_defaults() {
        let line =
            r#"{"change":"annotation","course":"c","lesson":"l","id":"x","target":{"exact":"q"}}"#;
        let Change::Annotation {
            note,
            deleted,
            target,
            at,
            card,
            ..
        } = serde_json::from_str(line).unwrap()
        else {
            panic!("an annotation");
        };
        assert_eq!(
            (note.as_str(), deleted, target.start, at, card),
            ("", false, 0, None, false)
        );
    }

    #[test]
    fn a_folder_whose_name_is_not_utf8_is_kept_as_text() {
        use std::os::unix::ffi::OsStrExt;
        let root = PathBuf::from(std::ffi::OsStr::from_bytes(b"/x/\xff"));
        let change = Change::Remember {
            slug: "c".into(),
            title: "t".into(),
            root: Some(root),
            lessons: 0,
            at: Some(at()),
        };
        let line = serde_json::to_string(&change).unwrap();
        assert!(line.contains("\"root\":\"/x/\u{fffd}\""), "{line}");
    }
}
