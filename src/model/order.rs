//! Options in an order that teaches: shown shuffled, so that the place of
//! the right answer teaches nothing, the same way every time for one
//! learner (by their own seed) and differently for another; unless the
//! lesson fixes the order, or an option is pinned where it stands.

use super::check::{Check, CheckKind};
use super::lesson::runs_text;

/// Whether option text `text` only makes sense where it stands: "none of
/// the above", "both", "all of these", or naming another option by its
/// position ("1 and 2").
pub fn pinned(text: &str) -> bool {
    let t = text.to_lowercase();
    let words = [
        "above", "below", "of these", "both", "neither", "none of", "all of",
    ];
    words.iter().any(|w| t.contains(w))
        || t.split(|c: char| !c.is_alphanumeric())
            .any(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_digit()))
}

/// FNV-1a over the seed and the check's key: stable across runs and
/// builds, unlike the standard hasher.
fn mix(seed: u64, key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

/// The display order of `check` for the learner whose seed is `seed`:
/// `None` when it stays as the lesson has it (not a choice, an order the
/// lesson gives, fewer than two options free to move). `key` names the
/// check (its lesson and id).
pub fn teaching_order(check: &Check, seed: u64, key: &str) -> Option<Vec<usize>> {
    let n = check.options.len();
    let file_order = check.order.iter().copied().eq(0..n);
    if !matches!(check.kind, CheckKind::Choice { .. }) || !file_order || seed == 0 {
        return None;
    }
    let free: Vec<usize> = (0..n)
        .filter(|&i| !pinned(&runs_text(&check.options[i].text)))
        .collect();
    if free.len() < 2 {
        return None;
    }
    let mut moved = free.clone();
    let mut state = mix(seed, key);
    for i in (1..moved.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        moved.swap(i, (state % (i as u64 + 1)) as usize);
    }
    // Pinned options keep their places; the others fill the rest.
    let mut order: Vec<usize> = (0..n).collect();
    for (slot, option) in free.iter().zip(moved) {
        order[*slot] = option;
    }
    Some(order)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::sample_checks;

    /// A single-choice check whose options read `texts`, in that order.
    pub(crate) fn single(texts: &[&str]) -> Check {
        let mut c = sample_checks().remove(0);
        c.kind = CheckKind::Choice { multi: false };
        c.options.truncate(1);
        let proto = c.options[0].clone();
        c.options = texts
            .iter()
            .map(|t| crate::model::CheckOption {
                text: vec![crate::model::Run::plain(*t)],
                ..proto.clone()
            })
            .collect();
        c.order = (0..texts.len()).collect();
        c
    }

    #[test]
    fn stable_per_learner_and_check_and_different_between_learners() {
        let c = single(&["a", "b", "c", "d", "e"]);
        let one = teaching_order(&c, 7, "l/q").unwrap();
        assert_eq!(Some(one.clone()), teaching_order(&c, 7, "l/q"));
        assert!(Check::is_permutation(&one, 5));
        let others: Vec<_> = (8..16).map(|s| teaching_order(&c, s, "l/q")).collect();
        assert!(others.iter().any(|o| o.as_ref() != Some(&one)));
    }

    #[test]
    fn a_pinned_option_keeps_its_place_and_a_given_order_is_kept() {
        let c = single(&["a", "b", "c", "None of the above"]);
        for seed in 1..20 {
            assert_eq!(teaching_order(&c, seed, "k").unwrap()[3], 3);
        }
        let mut given = single(&["a", "b", "c"]);
        given.order = vec![2, 0, 1];
        assert_eq!(teaching_order(&given, 5, "k"), None);
        assert!(pinned("Both 1 and 2") && pinned("Options 1 and 3"));
        assert!(!pinned("Press ?, or read the footer"));
    }
}
