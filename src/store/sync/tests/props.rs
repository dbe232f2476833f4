//! The property of syncing: two or three devices make changes, their logs
//! travel to each other in any order, any number of times, cut at any
//! byte, as conflict copies; once every log has arrived whole, every
//! device holds the same progress, with nothing counted twice and nothing
//! given lost.

use std::collections::BTreeMap;

use chrono::Duration;
use proptest::prelude::*;

use super::{Device, answer, t};
use crate::model::anchor::Selector;
use crate::model::{Change, LessonKey};
use crate::store::Store;

#[derive(Debug, Clone)]
enum Step {
    /// Device `d` answers check `c` of lesson `l`, right or not, in a
    /// review or not, `minutes` after the last change of its clock.
    Answer {
        d: usize,
        l: u8,
        c: u8,
        right: bool,
        review: bool,
        minutes: i64,
    },
    /// Device `d` rates its last review answer of that check.
    Rate {
        d: usize,
        l: u8,
        c: u8,
        rating: u8,
    },
    Reveal {
        d: usize,
        l: u8,
        c: u8,
    },
    Reset {
        d: usize,
        l: u8,
    },
    /// Note `id` written (or deleted) on `d`.
    Note {
        d: usize,
        id: u8,
        text: u8,
        deleted: bool,
        minutes: i64,
    },
    Read {
        d: usize,
        l: u8,
    },
    /// `from`'s log reaches `to`: whole, cut at a fraction of its bytes,
    /// or as a conflict copy (whole or cut).
    Deliver {
        from: usize,
        to: usize,
        how: How,
    },
}

#[derive(Debug, Clone, Copy)]
enum How {
    Whole,
    Cut(f64),
    Syncthing(Option<f64>),
    Dropbox(Option<f64>),
}

fn how() -> impl Strategy<Value = How> {
    let cut = proptest::option::of(0.0..1.0f64);
    prop_oneof![
        3 => Just(How::Whole),
        3 => (0.0..1.0f64).prop_map(How::Cut),
        1 => cut.clone().prop_map(How::Syncthing),
        1 => cut.prop_map(How::Dropbox),
    ]
}

fn step(n: usize) -> impl Strategy<Value = Step> {
    let d = 0..n;
    let (l, c) = (0..2u8, 0..2u8);
    prop_oneof![
        6 => (d.clone(), l.clone(), c.clone(), any::<bool>(), any::<bool>(), 0..3i64)
            .prop_map(|(d, l, c, right, review, minutes)| Step::Answer { d, l, c, right, review, minutes }),
        1 => (d.clone(), l.clone(), c.clone(), 1..5u8)
            .prop_map(|(d, l, c, rating)| Step::Rate { d, l, c, rating }),
        1 => (d.clone(), l.clone(), c).prop_map(|(d, l, c)| Step::Reveal { d, l, c }),
        1 => (d.clone(), l.clone()).prop_map(|(d, l)| Step::Reset { d, l }),
        2 => (d.clone(), 0..3u8, any::<u8>(), any::<bool>(), 0..3i64)
            .prop_map(|(d, id, text, deleted, minutes)| Step::Note { d, id, text, deleted, minutes }),
        1 => (d.clone(), l).prop_map(|(d, l)| Step::Read { d, l }),
        5 => (d.clone(), d, how()).prop_map(|(from, to, how)| Step::Deliver { from, to, how }),
    ]
}

/// The devices, their clocks (each hours off the others) and everything
/// they made, for the checks at the end.
struct World {
    devices: Vec<Device>,
    clocks: Vec<i64>,
    answers: usize,
    /// Each note id's changes, with their device and time.
    notes: BTreeMap<String, Vec<(i64, String, i64, Change)>>,
}

fn lesson(l: u8) -> String {
    format!("l{l}")
}

fn key(l: u8) -> LessonKey {
    LessonKey::new("c", lesson(l))
}

impl World {
    fn new(n: usize) -> World {
        World {
            devices: (0..n).map(|_| Device::new()).collect(),
            // Minutes: one device five hours behind, one on the same
            // clock as the first (changes at the same millisecond).
            clocks: [0, -300, 0][..n].to_vec(),
            answers: 0,
            notes: BTreeMap::new(),
        }
    }

    fn tick(&mut self, d: usize, minutes: i64) -> chrono::DateTime<chrono::Utc> {
        self.clocks[d] += minutes;
        t(self.clocks[d])
    }

    fn make(&mut self, step: &Step) {
        match *step {
            Step::Answer {
                d,
                l,
                c,
                right,
                review,
                minutes,
            } => {
                let at = self.tick(d, minutes);
                let change = match answer(&c.to_string(), right, review, at) {
                    Change::Attempt {
                        check,
                        option,
                        answer,
                        correct,
                        review,
                        revealed,
                        drill,
                        at,
                        ..
                    } => Change::Attempt {
                        key: key(l),
                        check,
                        option,
                        answer,
                        correct,
                        review,
                        revealed,
                        drill,
                        at,
                    },
                    other => other,
                };
                self.devices[d].store.apply(&change);
                self.answers += 1;
            }
            Step::Rate { d, l, c, rating } => self.devices[d].store.apply(&Change::Rate {
                key: key(l),
                check: c.to_string(),
                rating,
            }),
            Step::Reveal { d, l, c } => {
                let at = self.tick(d, 0);
                self.devices[d].store.apply(&Change::Reveal {
                    key: key(l),
                    check: c.to_string(),
                    at: Some(at),
                });
            }
            Step::Reset { d, l } => {
                let at = self.tick(d, 1);
                self.devices[d].store.apply(&Change::Reset {
                    course: "c".into(),
                    lessons: vec![lesson(l)],
                    at: Some(at),
                });
            }
            Step::Note {
                d,
                id,
                text,
                deleted,
                minutes,
            } => {
                let at = self.tick(d, minutes);
                let change = Change::Annotation {
                    key: key(0),
                    id: format!("n{id}"),
                    target: Selector {
                        exact: "quote".into(),
                        ..Selector::default()
                    },
                    note: format!("note {text}"),
                    card: text % 2 == 0,
                    deleted,
                    at: Some(at),
                };
                self.devices[d].store.apply(&change);
                let seq = self.devices[d].store.sync_status().devices[0].read_to;
                let made = (
                    at.timestamp_millis(),
                    self.devices[d].id.clone(),
                    seq,
                    change,
                );
                self.notes.entry(format!("n{id}")).or_default().push(made);
            }
            Step::Read { d, l } => self.devices[d].store.apply(&Change::Read { key: key(l) }),
            Step::Deliver { from, to, how } if from != to => self.deliver(from, to, how),
            Step::Deliver { .. } => {}
        }
    }

    fn deliver(&mut self, from: usize, to: usize, how: How) {
        let bytes = self.devices[from].log_bytes();
        let cut = |f: Option<f64>| match f {
            Some(f) => bytes[..(bytes.len() as f64 * f) as usize].to_vec(),
            None => bytes.clone(),
        };
        let id = self.devices[from].id.clone();
        let (name, bytes) = match how {
            How::Whole => (format!("{id}.log"), bytes.clone()),
            How::Cut(f) => (format!("{id}.log"), cut(Some(f))),
            How::Syncthing(f) => (
                format!("{id}.sync-conflict-20260301-090000-ABC.log"),
                cut(f),
            ),
            How::Dropbox(f) => (format!("{id} (1).log"), cut(f)),
        };
        self.devices[to].receive(&name, &bytes);
        self.devices[to].store.sync_now();
    }

    /// Every log, whole, everywhere; every device merges.
    fn settle(&mut self) {
        for from in 0..self.devices.len() {
            for to in 0..self.devices.len() {
                if from != to {
                    self.deliver(from, to, How::Whole);
                }
            }
        }
    }
}

/// What a device's store holds, as comparable values.
fn contents(s: &Store) -> String {
    let far = t(0) + Duration::days(100_000);
    let progress: BTreeMap<_, _> = s.course_progress("c").into_iter().collect();
    let cards: Vec<(String, i64, String)> = s.read(|conn| {
        let mut stmt = conn.prepare(
            "SELECT course || lesson || check_id, due_ms, stability || ' ' || difficulty || ' ' || reps
             || ' ' || lapses || ' ' || state FROM review ORDER BY 1",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    });
    let mut notes = s.notes();
    notes.sort_by_key(|n| format!("{n:?}"));
    format!(
        "{progress:#?}\n{cards:?}\n{:?}\n{notes:?}\n{:?}",
        s.due(None, far),
        s.misconceptions(None, 1)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_device_ends_with_the_same_progress(
        n in 2..4usize,
        steps in proptest::collection::vec(step(3), 1..40),
    ) {
        let mut w = World::new(n);
        for s in steps.iter().filter(|s| step_fits(s, n)) {
            w.make(s);
        }
        w.settle();
        let first = contents(&w.devices[0].store);
        for d in &w.devices[1..] {
            prop_assert_eq!(&contents(&d.store), &first);
        }
        for d in &w.devices {
            // Nothing counted twice, nothing given lost.
            let kept: usize = (0..2).map(|l| d.store.attempts("c", &lesson(l)).len()).sum();
            prop_assert_eq!(kept, w.answers);
            // Each note as its last writer left it, by (time, device, seq).
            let notes = d.store.notes();
            for (id, made) in &w.notes {
                let last = made.iter().max_by(|a, b| (a.0, &a.1, a.2).cmp(&(b.0, &b.1, b.2))).unwrap();
                let kept = notes.iter().find(|n| matches!(n, Change::Annotation { id: i, .. } if i == id));
                match &last.3 {
                    Change::Annotation { deleted: true, .. } => prop_assert!(kept.is_none(), "{id} deleted"),
                    change => prop_assert_eq!(kept, Some(change)),
                }
            }
        }
    }
}

fn step_fits(s: &Step, n: usize) -> bool {
    match *s {
        Step::Answer { d, .. }
        | Step::Rate { d, .. }
        | Step::Reveal { d, .. }
        | Step::Reset { d, .. }
        | Step::Note { d, .. }
        | Step::Read { d, .. } => d < n,
        Step::Deliver { from, to, .. } => from < n && to < n,
    }
}
