//! Work cut into slices, each on a thread of its own: the scans of a million rows or strings,
//! which are mostly waiting on memory, done by every core side by side.

use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// How many threads a scan uses: one per core, at most 8.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
}

/// How many parts to cut a scan of `len` items into: one per core, or one below `from` items,
/// where starting threads would cost more than they save.
pub fn parts_for(len: usize, from: usize) -> usize {
    if len < from { 1 } else { cores() }
}

/// The length of each of the (at most) `parts` slices that `len` items are cut into, the last
/// shorter: all of them, in one slice, when `parts` is below 2 or `len` below 2. At least 1.
pub fn slice_len(len: usize, parts: usize) -> usize {
    if parts < 2 || len < 2 {
        len.max(1)
    } else {
        len.div_ceil(parts)
    }
}

/// `work` over `0..len` cut into at most `parts` ranges of equal length (the last shorter), each
/// on a thread of its own, the results in the ranges' order; one range, on this thread, when
/// `parts` is below 2 or `len` below 2.
pub fn in_ranges<R: Send>(
    len: usize,
    parts: usize,
    work: impl Fn(Range<usize>) -> R + Sync,
) -> Vec<R> {
    if parts < 2 || len < 2 {
        return vec![work(0..len)];
    }
    let step = slice_len(len, parts);
    let work = &work;
    each(
        (0..len)
            .step_by(step)
            .map(|start| move || work(start..(start + step).min(len)))
            .collect(),
    )
}

/// [`in_ranges`] over the items of a slice.
pub fn in_slices<T: Sync, R: Send>(
    items: &[T],
    parts: usize,
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    in_ranges(items.len(), parts, |range| work(&items[range]))
}

/// Maps every item of `items` into `out`, which is emptied first and ends as long as `items`,
/// in order: each of at most `parts` slices (see [`slice_len`]) on a thread of its own (one, on
/// this thread, when `parts` is below 2), with a state of its own that `start` makes from the
/// slice's number (0 for the first) and `map` may change. `start` is called on this thread, for
/// each slice in order, before any is mapped. The states come back in the slices' order.
///
/// Each slice writes straight into its own part of `out`'s memory, so that a list reused from
/// one scan to the next is neither cleared nor copied.
pub fn map_into<T: Sync, U: Send, S: Send>(
    items: &[T],
    out: &mut Vec<U>,
    parts: usize,
    mut start: impl FnMut(usize) -> S,
    map: impl Fn(&mut S, &T) -> U + Sync,
) -> Vec<S> {
    out.clear();
    out.reserve(items.len());
    let len = items.len();
    let step = slice_len(len, parts);
    let map = &map;
    let spare = &mut out.spare_capacity_mut()[..len];
    let works: Vec<_> = items
        .chunks(step)
        .zip(spare.chunks_mut(step))
        .enumerate()
        .map(|(k, (from, to))| {
            let mut state = start(k);
            move || {
                for (slot, item) in to.iter_mut().zip(from) {
                    slot.write(map(&mut state, item));
                }
                state
            }
        })
        .collect();
    if works.is_empty() {
        // No items: one state all the same, as from an empty slice.
        return vec![start(0)];
    }
    let states = each(works);
    // SAFETY: `items` and `spare` are cut at the same places, and each slice of `spare` had an
    // item written for each item of its slice of `items` (`each` runs every work, or unwinds
    // before this line): all `len` are written.
    unsafe { out.set_len(len) };
    states
}

/// Runs every work, the first on this thread and each other on a thread of its own, and gives
/// their results in order. A work whose thread the system refuses is run on this thread.
pub fn each<R: Send, F: FnOnce() -> R + Send>(works: Vec<F>) -> Vec<R> {
    if works.len() < 2 {
        return works.into_iter().map(|work| work()).collect();
    }
    // Each work waits in a slot of its own for the thread that runs it.
    let slots: Vec<Mutex<Option<F>>> = works.into_iter().map(|w| Mutex::new(Some(w))).collect();
    let run = |slot: &Mutex<Option<F>>| {
        let work = slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .expect("each work is run once");
        work()
    };
    let run = &run;
    std::thread::scope(|scope| {
        let started: Vec<_> = slots[1..]
            .iter()
            .map(|slot| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || run(slot))
                    .map_err(|_| slot)
            })
            .collect();
        let mut results = Vec::with_capacity(slots.len());
        results.push(run(&slots[0]));
        results.extend(started.into_iter().map(|s| match s {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(slot) => run(slot),
        }));
        results
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_cover_every_item_once_in_order() {
        for len in [0, 1, 2, 3, 7, 10, 100] {
            for parts in [0, 1, 2, 3, 8, 200] {
                let ranges = in_ranges(len, parts, |r| r);
                let items: Vec<usize> = ranges.iter().cloned().flatten().collect();
                assert_eq!(items, (0..len).collect::<Vec<_>>(), "{len} in {parts}");
                assert!(ranges.len() <= parts.max(1), "{len} in {parts}");
                if parts >= 2 && len >= 2 {
                    assert!(ranges.len() >= 2, "{len} in {parts}: cut");
                    assert!(ranges.iter().all(|r| !r.is_empty()));
                }
            }
        }
        let items = [5, 6, 7, 8, 9];
        assert_eq!(
            in_slices(&items, 2, |s| s.to_vec()),
            [vec![5, 6, 7], vec![8, 9]]
        );
    }

    #[test]
    fn every_item_is_mapped_in_place_once_with_its_slices_state() {
        for len in [0, 1, 2, 3, 7, 10, 100] {
            let items: Vec<usize> = (0..len).collect();
            for parts in [0, 1, 2, 3, 8, 200] {
                // Reused memory, longer and shorter than the items.
                let mut out = vec![u64::MAX; (len * 3) % 11];
                let mut started = Vec::new();
                let states = map_into(
                    &items,
                    &mut out,
                    parts,
                    |k| {
                        started.push((k, std::thread::current().id()));
                        (k, usize::MAX, 0usize)
                    },
                    |(_, first, seen), &i| {
                        *first = (*first).min(i);
                        *seen += 1;
                        i as u64 * 10
                    },
                );
                let want: Vec<u64> = items.iter().map(|&i| i as u64 * 10).collect();
                assert_eq!(out, want, "{len} in {parts}");
                // Each state saw one slice, the slices in order, together every item once.
                let ranges = in_ranges(len, parts, |r| r);
                let slices: Vec<(usize, usize, usize)> = ranges
                    .iter()
                    .enumerate()
                    .map(|(k, r)| (k, if r.is_empty() { usize::MAX } else { r.start }, r.len()))
                    .collect();
                assert_eq!(states, slices, "{len} in {parts}");
                // Every state was made here, in the slices' order.
                let here = std::thread::current().id();
                let made: Vec<(usize, std::thread::ThreadId)> =
                    (0..slices.len()).map(|k| (k, here)).collect();
                assert_eq!(started, made, "{len} in {parts}");
            }
        }
    }
}
