//! The machinery of a grouping's two passes: what the first pass notes of each shown event,
//! what the second sums of each group, and the marks that count distinct peers and rooms.

use super::*;

/// Marks by symbol for counting distinct peers and rooms: a mark holds the number of the last
/// group that counted the symbol. Kept from one grouping to the next, with the numbers going on
/// from where the last grouping's ended: fresh zeroed memory would cost a page fault per 4 KiB
/// (two lists of 4 bytes per distinct string of the store, 23 MB each at five million
/// events), which took longer than the counting.
#[derive(Debug, Default)]
pub(super) struct Marks {
    pub(super) peer: Vec<u32>,
    pub(super) room: Vec<u32>,
    /// The highest number any mark holds.
    pub(super) last: u32,
}

impl Clone for Marks {
    /// Marks are memory, not content: a copy starts without them.
    fn clone(&self) -> Marks {
        Marks::default()
    }
}

impl Marks {
    /// Room for `symbols` symbols, and the number after which `groups` groups can be numbered
    /// without meeting a number a mark holds.
    pub(super) fn ready(&mut self, symbols: usize, groups: usize) -> u32 {
        let fits = u32::try_from(groups)
            .ok()
            .and_then(|g| self.last.checked_add(g))
            .is_some();
        // Fresh lists at first, when the numbers would overflow, or when the store has far
        // fewer strings than the marks were made for (a new live query starts a new store):
        // zeroed memory, which only the pages a grouping touches fault in.
        if !fits || self.peer.is_empty() || self.peer.len() / 2 > symbols {
            *self = Marks {
                peer: vec![0; symbols],
                room: vec![0; symbols],
                last: 0,
            };
        }
        // Symbols the store gained since hold no mark yet.
        if self.peer.len() < symbols {
            self.peer.resize(symbols, 0);
            self.room.resize(symbols, 0);
        }
        let base = self.last;
        self.last += groups as u32;
        base
    }
}

/// What the first pass counts of a group: small, so that the sums of a million groups stay in
/// cache while every shown event adds to one of them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sums {
    pub(super) count: u32,
    pub(super) finals: u32,
    pub(super) display: Sym,
}

/// Where a group's events are in [`Groups::members`], and what they span.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extent {
    pub(super) start: u32,
    pub(super) peers: u32,
    pub(super) rooms: u32,
    /// Both [`NO_TIME`] when no event of the group has a time.
    pub(super) first: i64,
    pub(super) last: i64,
}

/// Below this many events a group's sparkline is counted again at each frame; from it on, it is
/// counted once and kept: a frame of the groups view draws a sparkline for each group it shows,
/// and for a million shown events in a few large groups, counting them all took 5 ms a frame.
pub(super) const KEPT_SPARKLINE_FROM: u32 = 1024;

/// Sparklines by group (its place, which a sort does not change) and number of buckets. Groups
/// put in lists keep at most one per `KEPT_SPARKLINE_FROM` shown events and bucket count; few
/// groups counted in one pass keep every group's (at most [`super::few::FEW`] a bucket count),
/// counted together. A copy of the groups starts without them.
#[derive(Debug, Default)]
pub(super) struct Sparklines(
    pub(super) std::sync::Mutex<rustc_hash::FxHashMap<(usize, usize), Vec<u32>>>,
);

impl Clone for Sparklines {
    fn clone(&self) -> Sparklines {
        Sparklines::default()
    }
}

/// One event's time, peer and room, side by side so that filling them in group order writes one
/// place per event.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fact {
    pub(super) ts: i64,
    pub(super) peer: Sym,
    pub(super) room: Sym,
}

/// What the first pass keeps of a shown event.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seen {
    /// The event's group, numbered by the slice of the first pass that met it.
    pub(super) group: u32,
    pub(super) fact: Fact,
}

/// The groups that a slice of the shown events meets, numbered in the order it meets them.
pub(super) struct Met {
    pub(super) index: Index,
    pub(super) values: Vec<GroupValue>,
    pub(super) sums: Vec<Sums>,
}

impl Met {
    /// Takes in the groups a later slice met, those it met first after these, and gives the
    /// number here of each of its groups.
    pub(super) fn join(&mut self, later: Met) -> Vec<u32> {
        let pairs = later.values.into_iter().zip(later.sums);
        pairs
            .map(|(value, add)| {
                let g = self.index.get_or_insert(value, self.sums.len() as u32);
                if g as usize == self.sums.len() {
                    self.values.push(value);
                    self.sums.push(add);
                } else {
                    let s = &mut self.sums[g as usize];
                    s.count += add.count;
                    s.finals += add.finals;
                    // The first name met, in load order, whichever slice met it.
                    if s.display.is_none() {
                        s.display = add.display;
                    }
                }
                g
            })
            .collect()
    }

    /// Counts a row in its group, and gives the group's number.
    pub(super) fn add(&mut self, key: GroupKey, store: &Store, row: &Row) -> u32 {
        let value = key.value_of(store, row);
        let g = self.index.get_or_insert(value, self.sums.len() as u32);
        if g as usize == self.sums.len() {
            self.values.push(value);
            self.sums.push(Sums {
                count: 0,
                finals: 0,
                display: Sym::NONE,
            });
        }
        let s = &mut self.sums[g as usize];
        s.count += 1;
        s.finals += u32::from(row.is_terminal() == Some(true));
        if s.display.is_none() {
            s.display = key.display_of(row);
        }
        g
    }
}

/// A slice of the first pass: its shown events, what it kept of them, and the number of each
/// of its groups among all groups (`None` for the first slice, whose numbers are those).
pub(super) type Slice<'a> = (&'a [u32], &'a [Seen], Option<&'a [u32]>);

/// Consecutive groups, and their part of the lists by group, which the second pass fills and
/// counts on a thread of its own.
pub(super) struct Run<'a> {
    /// The number of the run's first group.
    pub(super) first: u32,
    pub(super) extents: &'a mut [Extent],
    pub(super) sums: &'a [Sums],
    pub(super) members: &'a mut [u32],
    pub(super) facts: &'a mut [Fact],
}

impl Run<'_> {
    /// Puts the run's events in group order, each group's in load order: a counting sort over
    /// every slice of the first pass, keeping the events of this run's groups. Every run reads
    /// the whole of the first pass's list (24 bytes an event): reads side by side, where
    /// writing each event from the run of the slice that met it would share the lists' memory
    /// between threads.
    pub(super) fn fill(&mut self, slices: &[Slice]) {
        let Some(base) = self.extents.first().map(|e| e.start) else {
            return;
        };
        let (first, len) = (self.first, self.extents.len() as u32);
        let mut next: Vec<u32> = self.extents.iter().map(|e| e.start - base).collect();
        let (members, facts) = (&mut *self.members, &mut *self.facts);
        let mut put = |g: u32, i: u32, fact: Fact| {
            let j = g.wrapping_sub(first);
            if j < len {
                let at = &mut next[j as usize];
                members[*at as usize] = i;
                facts[*at as usize] = fact;
                *at += 1;
            }
        };
        for &(shown, seen, numbers) in slices {
            let pairs = shown.iter().zip(seen);
            match numbers {
                None => pairs.for_each(|(&i, s)| put(s.group, i, s.fact)),
                Some(numbers) => {
                    pairs.for_each(|(&i, s)| put(numbers[s.group as usize], i, s.fact))
                }
            }
        }
    }

    /// Counts each group's distinct peers and rooms and finds its first and last times. With
    /// the events in group order, a symbol was already counted for this group exactly when its
    /// mark holds this group's number (numbered from past every number the marks hold). The
    /// times are read here too, in order, rather than per event in the first pass, where a
    /// million groups would make every event a cache miss.
    pub(super) fn count(&mut self, marks: &mut Marks, symbols: usize) {
        if self.extents.is_empty() {
            return;
        }
        let base = marks.ready(symbols, self.extents.len());
        let (peer_mark, room_mark) = (&mut marks.peer, &mut marks.room);
        let mut start = 0;
        for (g, (extent, s)) in self.extents.iter_mut().zip(self.sums).enumerate() {
            let g = base + g as u32 + 1;
            let range = start..start + s.count as usize;
            start = range.end;
            let (mut first, mut last) = (i64::MAX, NO_TIME);
            for &Fact { ts, peer, room } in &self.facts[range] {
                // NO_TIME is i64::MIN: it never raises a maximum, and is kept out of the minimum.
                last = last.max(ts);
                if ts != NO_TIME {
                    first = first.min(ts);
                }
                if !peer.is_none() && peer_mark[peer.0 as usize] != g {
                    peer_mark[peer.0 as usize] = g;
                    extent.peers += 1;
                }
                if !room.is_none() && room_mark[room.0 as usize] != g {
                    room_mark[room.0 as usize] = g;
                    extent.rooms += 1;
                }
            }
            if last != NO_TIME {
                extent.first = first;
                extent.last = last;
            }
        }
    }
}

/// Cuts the groups into at most `parts` runs of consecutive groups with about as many events
/// each (a group is never cut): one run when `parts` is below 2.
pub(super) fn runs_of(sums: &[Sums], parts: usize) -> Vec<std::ops::Range<usize>> {
    let total: u64 = sums.iter().map(|s| u64::from(s.count)).sum();
    let parts = parts.max(1) as u64;
    let mut runs = Vec::new();
    let (mut start, mut events) = (0, 0u64);
    for (p, s) in sums.iter().enumerate() {
        events += u64::from(s.count);
        // A run ends once the events so far reach the next share, unless the groups do.
        if events * parts >= total * (runs.len() as u64 + 1) && p + 1 < sums.len() {
            runs.push(start..p + 1);
            start = p + 1;
        }
    }
    runs.push(start..sums.len());
    runs
}

impl Default for Fact {
    fn default() -> Fact {
        Fact {
            ts: NO_TIME,
            peer: Sym::NONE,
            room: Sym::NONE,
        }
    }
}

/// `items` emptied, to hold `len` items. A list that can hold more than about twice as many is
/// let go instead, so that a grouping of a few events does not keep the memory of a grouping of
/// a million.
pub(super) fn reused<T>(mut items: Vec<T>, len: usize) -> Vec<T> {
    if items.capacity() / 2 > len {
        return Vec::new();
    }
    items.clear();
    items
}

/// The span of groups' (first, last) times: from the earliest first to the latest last, of
/// the groups with a time (a group without one has `NO_TIME` last); `None` when none has.
pub(super) fn span_of(extents: impl Iterator<Item = (i64, i64)>) -> Option<(i64, i64)> {
    extents
        .filter(|&(_, last)| last != NO_TIME)
        .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)))
}

/// `pass` over each slice of `step` shown events, with the slice's own `met` and its part of
/// `seen` (as long as `shown`): on the threads of rayon's pool when there is more than one
/// slice, on this thread otherwise.
pub(super) fn each_slice<M: Send, S: Send>(
    met: &mut [M],
    shown: &[u32],
    seen: &mut [S],
    step: usize,
    pass: impl Fn(&mut M, &[u32], &mut [S]) + Sync,
) {
    if met.len() > 1 {
        met.par_iter_mut()
            .zip(shown.par_chunks(step))
            .zip(seen.par_chunks_mut(step))
            .for_each(|((met, shown), seen)| pass(met, shown, seen));
    } else {
        pass(&mut met[0], shown, seen);
    }
}
