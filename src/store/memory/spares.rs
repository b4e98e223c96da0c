//! Buffers of batches already merged, for the next batches to empty and fill. A large dump is read
//! as some forty batches, each with tables of megabytes: built afresh, every one of them would
//! make the system find and clear new pages, and take back the old ones, about a tenth of the
//! processor time of a load. A spare keeps its memory, so the next batch writes to pages the
//! process holds already.
//!
//! Spares are kept by the [`Reading`](crate::store::Reading) of a dump, which builds its batches
//! and drops them when it ends: a batch built once (a redacted copy of the store, a page of a
//! live source) gives its buffers back to the system as before.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Spares kept of each kind: as many as batches are built at once on two cores, so that a load
/// holds little more memory than it would without them. With more cores some builders start
/// afresh.
const KEPT: usize = 2;

/// Values of one kind, at most [`KEPT`] of them.
pub(in crate::store) struct Spares<T>(Mutex<Vec<T>>);

impl<T> Default for Spares<T> {
    fn default() -> Self {
        Spares(Mutex::new(Vec::new()))
    }
}

impl<T> Spares<T> {
    /// A spare, if one is kept.
    pub(in crate::store) fn take(&self) -> Option<T> {
        self.lock().pop()
    }

    /// Keeps `spare`, unless enough are kept already; else drops it (outside the lock).
    pub(in crate::store) fn give(&self, spare: T) {
        let mut kept = self.lock();
        if kept.len() < KEPT {
            kept.push(spare);
            return;
        }
        drop(kept);
        drop(spare);
    }

    /// How many are kept.
    #[cfg(test)]
    pub(in crate::store) fn len(&self) -> usize {
        self.lock().len()
    }

    /// A thread that panicked while holding the lock left the list whole (each step above
    /// leaves it valid), so a poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, Vec<T>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spares_are_kept_up_to_a_limit() {
        let spares = Spares::default();
        for n in 0..KEPT + 3 {
            spares.give(n);
        }
        let mut taken: Vec<usize> = std::iter::from_fn(|| spares.take()).collect();
        taken.sort_unstable();
        assert_eq!(taken, (0..KEPT).collect::<Vec<_>>());
        spares.give(7);
        assert_eq!(spares.take(), Some(7));
        assert_eq!(spares.take(), None);
    }
}
