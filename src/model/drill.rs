//! What a drill asks again, written once for the reader's key, `lectern
//! drill`, the stats and the dashboard: which checks each kind of drill
//! takes, when a check is stuck, and how a drill card's options are
//! shuffled again (pinned ones stay where they stand).

use super::check::{Check, CheckKind, CheckProgress};
use super::lesson::runs_text;
use super::order::pinned;

/// How many misses make a check stuck unless the config says otherwise:
/// Anki's leech threshold of 8 lapses, halved for checks.
pub const STUCK_AFTER: u32 = 4;

/// Which checks a drill takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DrillKind {
    /// Wrong (or after a reveal) on the first try of the current round.
    #[default]
    Missed,
    /// Wrong on the latest answer, whichever round.
    LastWrong,
    /// Not answered in the current round.
    Unanswered,
    /// Missed `stuck-after` times or more, and not answered right since.
    Stuck,
}

impl DrillKind {
    pub const ALL: [DrillKind; 4] = [
        DrillKind::Missed,
        DrillKind::LastWrong,
        DrillKind::Unanswered,
        DrillKind::Stuck,
    ];

    /// As the summary and the footer say it.
    pub fn words(self) -> &'static str {
        match self {
            DrillKind::Missed => "missed",
            DrillKind::LastWrong => "last wrong",
            DrillKind::Unanswered => "unanswered",
            DrillKind::Stuck => "stuck",
        }
    }

    /// Whether a check with progress `p` (none: never answered) is one
    /// this drill takes.
    pub fn takes(self, p: Option<&CheckProgress>, stuck_after: u32) -> bool {
        match self {
            DrillKind::Missed => p.is_some_and(|p| round_first(p) == Some(false)),
            DrillKind::LastWrong => p.is_some_and(|p| p.latest_correct == Some(false)),
            DrillKind::Unanswered => p.is_none_or(|p| round_attempts(p) == 0),
            DrillKind::Stuck => p.is_some_and(|p| stuck(p, stuck_after)),
        }
    }
}

/// A check is stuck once missed `after` times (0: never), until it is
/// answered right again.
pub fn stuck(p: &CheckProgress, after: u32) -> bool {
    after > 0 && p.misses >= after && p.latest_correct != Some(true)
}

/// The current round's number (1 for progress that never had a reset).
pub fn round(p: &CheckProgress) -> u32 {
    p.round.max(1)
}

/// The first try of the current round.
pub fn round_first(p: &CheckProgress) -> Option<bool> {
    if round(p) == 1 {
        p.round_first.or(p.first_try_correct)
    } else {
        p.round_first
    }
}

/// Answers in the current round.
pub fn round_attempts(p: &CheckProgress) -> u32 {
    if round(p) == 1 {
        p.round_attempts.max(p.attempts)
    } else {
        p.round_attempts
    }
}

/// The first try ever as the stats name it.
pub fn first_try_word(p: &CheckProgress) -> Option<&'static str> {
    Some(match p.first_try_correct? {
        true => "right",
        false if p.first_seen => "revealed",
        false => "wrong",
    })
}

/// xorshift64*, for every shuffle of cards and options: enough for a few
/// options; not for anything secret.
pub fn next_random(seed: &mut u64) -> u64 {
    let mut x = *seed | 1;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *seed = x;
    x.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// A fresh display order for `check` in a drill: the options it shows
/// (`check.order`) shuffled again, except the pinned ones ("none of the
/// above", "both 1 and 2"), which keep their places, as the review's
/// shuffle does; a check that is not a choice keeps it.
pub fn reshuffled(check: &Check, seed: &mut u64) -> Vec<usize> {
    let order = check.order.clone();
    if !matches!(check.kind, CheckKind::Choice { .. }) {
        return order;
    }
    let free: Vec<usize> = (0..order.len())
        .filter(|&slot| {
            let option = order[slot];
            check
                .options
                .get(option)
                .is_some_and(|o| !pinned(&runs_text(&o.text)))
        })
        .collect();
    let mut moved: Vec<usize> = free.iter().map(|&slot| order[slot]).collect();
    for i in (1..moved.len()).rev() {
        let j = (next_random(seed) % (i as u64 + 1)) as usize;
        moved.swap(i, j);
    }
    let mut out = order;
    for (slot, option) in free.into_iter().zip(moved) {
        out[slot] = option;
    }
    out
}

/// A drill's queue in a shuffled order (Fisher-Yates with `seed`).
pub fn shuffle_queue<T>(items: &mut [T], seed: &mut u64) {
    for i in (1..items.len()).rev() {
        let j = (next_random(seed) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(first: Option<bool>, latest: Option<bool>, misses: u32) -> CheckProgress {
        CheckProgress {
            attempts: u32::from(first.is_some()),
            first_try_correct: first,
            latest_correct: latest,
            misses,
            round: 1,
            round_attempts: u32::from(first.is_some()),
            round_first: first,
            ..CheckProgress::default()
        }
    }

    #[test]
    fn each_kind_takes_its_checks() {
        let wrong_then_right = p(Some(false), Some(true), 1);
        let right_then_wrong = p(Some(true), Some(false), 1);
        let m = DrillKind::Missed;
        assert!(m.takes(Some(&wrong_then_right), 4) && !m.takes(Some(&right_then_wrong), 4));
        assert!(!m.takes(None, 4));
        let l = DrillKind::LastWrong;
        assert!(l.takes(Some(&right_then_wrong), 4) && !l.takes(Some(&wrong_then_right), 4));
        let u = DrillKind::Unanswered;
        assert!(u.takes(None, 4) && !u.takes(Some(&wrong_then_right), 4));
        let s = DrillKind::Stuck;
        assert!(s.takes(Some(&p(Some(false), Some(false), 4)), 4));
        assert!(!s.takes(Some(&p(Some(false), Some(false), 3)), 4));
        assert!(!s.takes(Some(&p(Some(false), Some(true), 9)), 4), "cleared");
        assert!(!s.takes(Some(&p(Some(false), Some(false), 9)), 0), "off");
    }

    #[test]
    fn a_new_round_asks_again_and_keeps_the_first() {
        let mut round2 = p(Some(false), Some(false), 1);
        round2.round = 2;
        round2.round_attempts = 0;
        round2.round_first = None;
        assert!(DrillKind::Unanswered.takes(Some(&round2), 4));
        assert!(!DrillKind::Missed.takes(Some(&round2), 4));
        assert_eq!(first_try_word(&round2), Some("wrong"));
        round2.first_seen = true;
        assert_eq!(first_try_word(&round2), Some("revealed"));
    }

    #[test]
    fn a_reshuffle_keeps_pinned_options_in_place() {
        let mut c = crate::model::order::tests::single(&["a", "b", "c", "d", "None of the above"]);
        c.order = vec![2, 0, 3, 1, 4];
        let mut seed = 99;
        let orders: Vec<Vec<usize>> = (0..8).map(|_| reshuffled(&c, &mut seed)).collect();
        for o in &orders {
            assert!(Check::is_permutation(o, 5));
            assert_eq!(o[4], 4, "pinned stays last: {o:?}");
        }
        assert!(orders.iter().any(|o| *o != c.order), "{orders:?}");
        c.kind = CheckKind::Short {
            accepted: Vec::new(),
        };
        assert_eq!(reshuffled(&c, &mut seed), c.order);
    }
}
