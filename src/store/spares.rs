//! Buffers of batches already merged, emptied for the next batches to fill. A large dump is read
//! as some forty batches, each with tables of megabytes: built afresh, every one of them would
//! make the system find and clear new pages, and take back the old ones, about a tenth of the
//! processor time of a load. A spare keeps its memory, so the next batch writes to pages the
//! process holds already.

use std::sync::{Mutex, PoisonError};

/// Spares kept of each kind: as many as batches are usually built at once (a load reads with
/// two threads), so that a load holds little more memory than it would without them.
const KEPT: usize = 2;

/// Emptied values of one kind, at most [`KEPT`] of them.
pub(super) struct Spares<T>(Mutex<Vec<T>>);

impl<T> Spares<T> {
    pub(super) const fn new() -> Spares<T> {
        Spares(Mutex::new(Vec::new()))
    }

    /// A spare, if one is kept.
    pub(super) fn take(&self) -> Option<T> {
        self.lock().pop()
    }

    /// Keeps `spare` (which the caller has emptied), unless enough are kept already.
    pub(super) fn give(&self, spare: T) {
        let mut kept = self.lock();
        if kept.len() < KEPT {
            kept.push(spare);
        }
    }

    /// Drops every spare, giving its memory back.
    pub(super) fn forget(&self) {
        // Dropped outside the lock.
        let kept = std::mem::take(&mut *self.lock());
        drop(kept);
    }

    /// A thread that panicked while holding the lock left the list whole (each step above
    /// leaves it valid), so a poisoned lock is used as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<T>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spares_are_kept_up_to_a_limit_and_all_forgotten_at_once() {
        let spares = Spares::new();
        assert_eq!(spares.take(), None);
        for n in 0..KEPT + 3 {
            spares.give(n);
        }
        let mut taken: Vec<usize> = std::iter::from_fn(|| spares.take()).collect();
        taken.sort_unstable();
        assert_eq!(taken, (0..KEPT).collect::<Vec<_>>());
        spares.give(7);
        spares.forget();
        assert_eq!(spares.take(), None);
    }
}
