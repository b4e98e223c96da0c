//! Buffers of batches already merged, for the next batches to empty and fill. A large dump is read
//! as some forty batches, each with tables of megabytes: built afresh, every one of them would
//! make the system find and clear new pages, and take back the old ones, about a tenth of the
//! processor time of a load. A spare keeps its memory, so the next batch writes to pages the
//! process holds already.
//!
//! Spares are kept only while a dump is being read (see [`crate::store::Reading`]), and dropped when
//! the last read ends: a batch built once (a redacted copy of the store, a page of a live
//! source) gives its buffers back to the system as before.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Spares kept of each kind: as many as batches are built at once on two cores, so that a load
/// holds little more memory than it would without them. With more cores some builders start
/// afresh.
const KEPT: usize = 2;

/// Values of one kind, at most [`KEPT`] of them, kept while a read is under way.
pub(in crate::store) struct Spares<T>(Mutex<Kept<T>>);

struct Kept<T> {
    /// Reads under way.
    reads: usize,
    spares: Vec<T>,
}

impl<T> Spares<T> {
    pub(in crate::store) const fn new() -> Spares<T> {
        Spares(Mutex::new(Kept {
            reads: 0,
            spares: Vec::new(),
        }))
    }

    /// A spare, if one is kept.
    pub(in crate::store) fn take(&self) -> Option<T> {
        self.lock().spares.pop()
    }

    /// Keeps `spare` while a read is under way, unless enough are kept already; else drops it
    /// (outside the lock).
    pub(in crate::store) fn give(&self, spare: T) {
        let mut kept = self.lock();
        if kept.reads > 0 && kept.spares.len() < KEPT {
            kept.spares.push(spare);
            return;
        }
        drop(kept);
        drop(spare);
    }

    pub(in crate::store) fn read_starts(&self) {
        self.lock().reads += 1;
    }

    /// The last read to end drops every spare, giving its memory back.
    pub(in crate::store) fn read_ends(&self) {
        let dropped = {
            let mut kept = self.lock();
            kept.reads -= 1;
            if kept.reads == 0 {
                std::mem::take(&mut kept.spares)
            } else {
                Vec::new()
            }
        };
        drop(dropped);
    }

    /// How many reads are under way.
    #[cfg(test)]
    pub(in crate::store) fn reads(&self) -> usize {
        self.lock().reads
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

    fn taken(spares: &Spares<usize>) -> Vec<usize> {
        let mut taken: Vec<usize> = std::iter::from_fn(|| spares.take()).collect();
        taken.sort_unstable();
        taken
    }

    #[test]
    fn spares_are_kept_up_to_a_limit_while_a_read_is_under_way() {
        let spares = Spares::new();
        spares.give(1);
        assert_eq!(spares.take(), None, "no read under way");
        spares.read_starts();
        for n in 0..KEPT + 3 {
            spares.give(n);
        }
        assert_eq!(taken(&spares), (0..KEPT).collect::<Vec<_>>());
        spares.read_ends();
    }

    #[test]
    fn the_last_read_to_end_drops_every_spare() {
        let spares = Spares::new();
        spares.read_starts();
        spares.read_starts();
        spares.give(7);
        spares.read_ends();
        spares.give(8);
        assert_eq!(taken(&spares), [7, 8], "one read is still under way");
        spares.give(9);
        spares.read_ends();
        assert_eq!(spares.take(), None);
        spares.give(10);
        assert_eq!(spares.take(), None);
    }
}
