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
pub(in crate::store) struct Spares<T>(Mutex<Kept<T>>);

struct Kept<T> {
    spares: Vec<T>,
    /// Whether one given is kept: not once closed (see [`Spares::close`]) until one is taken.
    open: bool,
}

impl<T> Default for Spares<T> {
    fn default() -> Self {
        Spares(Mutex::new(Kept {
            spares: Vec::new(),
            open: true,
        }))
    }
}

impl<T> Spares<T> {
    /// A spare, if one is kept; those given from now on are kept again (see [`Spares::close`]).
    pub(in crate::store) fn take(&self) -> Option<T> {
        let mut kept = self.lock();
        kept.open = true;
        kept.spares.pop()
    }

    /// Keeps `spare`, unless enough are kept already or they are closed; else drops it (outside
    /// the lock).
    pub(in crate::store) fn give(&self, spare: T) {
        let mut kept = self.lock();
        if kept.open && kept.spares.len() < KEPT {
            kept.spares.push(spare);
            return;
        }
        drop(kept);
        drop(spare);
    }

    /// Drops those kept, and those given from now on until one is next taken: none will be
    /// wanted before then.
    pub(in crate::store) fn close(&self) {
        let mut kept = self.lock();
        kept.open = false;
        let spares = std::mem::take(&mut kept.spares);
        drop(kept);
        drop(spares);
    }

    /// How many are kept.
    #[cfg(test)]
    pub(in crate::store) fn len(&self) -> usize {
        self.lock().spares.len()
    }

    /// A thread that panicked while holding the lock left the list whole (each step above
    /// leaves it valid), so a poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, Kept<T>> {
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

    #[test]
    fn closed_spares_are_dropped_and_none_kept_until_one_is_taken() {
        let spares = Spares::default();
        spares.give(1);
        spares.give(2);
        spares.close();
        assert_eq!(spares.len(), 0, "those kept are dropped");
        spares.give(3);
        assert_eq!(spares.len(), 0, "none kept while closed");
        // Taking one (a builder made after all) opens them again.
        assert_eq!(spares.take(), None);
        spares.give(4);
        assert_eq!(spares.take(), Some(4));
    }
}
