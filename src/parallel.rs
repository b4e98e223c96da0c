//! Work cut into slices, each on a thread of its own: the scans of a million rows or strings,
//! which are mostly waiting on memory, done by every core side by side.

use std::ops::Range;

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

/// `work` over `0..len` cut into at most `parts` ranges of equal length (the last shorter), each
/// on a thread of its own, the results in the ranges' order; one range, on this thread, when
/// `parts` is below 2 or `len` below 2. A range whose thread the system refuses is worked on this
/// thread.
pub fn in_ranges<R: Send>(
    len: usize,
    parts: usize,
    work: impl Fn(Range<usize>) -> R + Sync,
) -> Vec<R> {
    if parts < 2 || len < 2 {
        return vec![work(0..len)];
    }
    let step = len.div_ceil(parts);
    let work = &work;
    std::thread::scope(|scope| {
        let started: Vec<_> = (0..len)
            .step_by(step)
            .map(|start| {
                let range = start..(start + step).min(len);
                std::thread::Builder::new()
                    .spawn_scoped(scope, {
                        let range = range.clone();
                        move || work(range)
                    })
                    .map_err(|_| range)
            })
            .collect();
        started
            .into_iter()
            .map(|s| match s {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(range) => work(range),
            })
            .collect()
    })
}

/// [`in_ranges`] over the items of a slice.
pub fn in_slices<T: Sync, R: Send>(
    items: &[T],
    parts: usize,
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    in_ranges(items.len(), parts, |range| work(&items[range]))
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
}
