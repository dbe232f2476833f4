//! What the store keeps of the learner beyond their progress.

use super::Store;

impl Store {
    /// The learner's own random seed, made once with the store: what the
    /// options of every check are shuffled by. 0 when the store is gone.
    pub fn seed(&self) -> u64 {
        self.read(|conn| {
            conn.query_row("SELECT seed FROM learner WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(i64::unsigned_abs)
        })
    }
}
