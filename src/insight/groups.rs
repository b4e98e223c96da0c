//! The shown events grouped by a key (error, SDK, OS, device, role, room, domain, env, peer).

use rayon::prelude::*;

use super::keys::{Index, compare_values, label_of, parts_of, rank};
use super::{GroupValue, Part, parts_for, slice_len};
use crate::insight::{GroupKey, GroupSort};
use crate::store::{NO_TIME, Row, Store, Sym, TERMINAL_TRUE};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub value: GroupValue,
    /// The room's name (room) or the user's name (peer): the first one met among the group's
    /// events; `Sym::NONE` for the other keys.
    pub display: Sym,
    pub count: u32,
    /// How many have `is_terminal` true.
    pub finals: u32,
    /// Distinct `peer_id`s and `room_id`s; events without one add nothing.
    pub peers: u32,
    pub rooms: u32,
    /// Nanoseconds; `None` when no event of the group has a time.
    pub first_seen: Option<i64>,
    pub last_seen: Option<i64>,
}

impl Group {
    /// The share of final errors, 0.0 to 1.0.
    pub fn final_share(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            f64::from(self.finals) / f64::from(self.count)
        }
    }

    /// The key's fields, in [`GroupKey::fields`] order.
    pub fn parts<'a>(&self, store: &'a Store, key: GroupKey) -> Vec<Part<'a>> {
        parts_of(store, key, &self.value, self.display)
    }

    /// One line naming the group for people, e.g. `join 500 ServerErrors`, `web 0.11.4`,
    /// `Priya Raman (3f6b2a9e-…)`; `(none)` when every field is absent.
    pub fn label(&self, store: &Store, key: GroupKey) -> String {
        label_of(key, &self.parts(store, key))
    }
}

/// The groups of the shown events under one key, sorted.
///
/// Each group is kept where its first event was met, in lists side by side; a sort orders
/// places in those lists rather than the groups themselves, so that neither a grouping nor a
/// sort moves hundreds of thousands of groups (one per peer) about in memory.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// `None` only for `Groups::default()`, the groups of nothing.
    pub key: Option<GroupKey>,
    /// The earliest and latest time among the shown events: the span of every sparkline (to be
    /// read only, as the sparklines kept were counted over it).
    pub span: Option<(i64, i64)>,
    /// By group, in the order their first events were met.
    values: Vec<GroupValue>,
    sums: Vec<Sums>,
    extents: Vec<Extent>,
    /// See [`rank`].
    ranks: Vec<u64>,
    /// The groups in the order of the last sort, as places in the lists above.
    order: Vec<u32>,
    /// The shown indices, group after group, each group's in load order.
    members: Vec<u32>,
    /// What the counts need of each entry of `members`.
    facts: Vec<Fact>,
    /// Each shown event's group number (in its slice of the first pass), time, peer and room,
    /// in load order: the first pass's list, kept only for the next grouping to fill again (24
    /// bytes a shown event, against a page fault per 4 KiB of fresh memory, about 10 ms for a
    /// million events).
    seen: Vec<Seen>,
    /// The sparklines of large groups, once drawn (see [`Groups::sparkline`]).
    sparklines: Sparklines,
    /// The distinct counts' marks, one pair per run of the second pass.
    marks: Vec<Marks>,
}

/// Marks by symbol for counting distinct peers and rooms: a mark holds the number of the last
/// group that counted the symbol. Kept from one grouping to the next, with the numbers going on
/// from where the last grouping's ended: fresh zeroed memory would cost a page fault per 4 KiB
/// (two lists of 4 bytes per distinct string of the store, a few megabytes), which took longer
/// than the counting.
#[derive(Debug, Default)]
struct Marks {
    peer: Vec<u32>,
    room: Vec<u32>,
    /// The highest number any mark holds.
    last: u32,
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
    fn ready(&mut self, symbols: usize, groups: usize) -> u32 {
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
struct Sums {
    count: u32,
    finals: u32,
    display: Sym,
}

/// Where a group's events are in [`Groups::members`], and what they span.
#[derive(Debug, Clone, Copy)]
struct Extent {
    start: u32,
    peers: u32,
    rooms: u32,
    /// Both [`NO_TIME`] when no event of the group has a time.
    first: i64,
    last: i64,
}

/// Below this many events a group's sparkline is counted again at each frame; from it on, it is
/// counted once and kept: a frame of the groups view draws a sparkline for each group it shows,
/// and for a million shown events in a few large groups, counting them all took 5 ms a frame.
const KEPT_SPARKLINE_FROM: u32 = 1024;

/// Sparklines by group (its place, which a sort does not change) and number of buckets. At most
/// one per `KEPT_SPARKLINE_FROM` shown events and bucket count is kept; a copy of the groups
/// starts without them.
#[derive(Debug, Default)]
struct Sparklines(std::sync::Mutex<rustc_hash::FxHashMap<(usize, usize), Vec<u32>>>);

impl Clone for Sparklines {
    fn clone(&self) -> Sparklines {
        Sparklines::default()
    }
}

/// One event's time, peer and room, side by side so that filling them in group order writes one
/// place per event.
#[derive(Debug, Clone, Copy)]
struct Fact {
    ts: i64,
    peer: Sym,
    room: Sym,
}

/// What the first pass keeps of a shown event.
#[derive(Debug, Clone, Copy)]
struct Seen {
    /// The event's group, numbered by the slice of the first pass that met it.
    group: u32,
    fact: Fact,
}

/// The groups that a slice of the shown events meets, numbered in the order it meets them.
struct Met {
    index: Index,
    values: Vec<GroupValue>,
    sums: Vec<Sums>,
}

impl Met {
    /// Takes in the groups a later slice met, those it met first after these, and gives the
    /// number here of each of its groups.
    fn join(&mut self, later: Met) -> Vec<u32> {
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
    fn add(&mut self, key: GroupKey, row: &Row) -> u32 {
        let value = key.value_of(row);
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
        s.finals += u32::from(row.terminal == TERMINAL_TRUE);
        if s.display.is_none() {
            s.display = key.display_of(row);
        }
        g
    }
}

/// A slice of the first pass: its shown events, what it kept of them, and the number of each
/// of its groups among all groups (`None` for the first slice, whose numbers are those).
type Slice<'a> = (&'a [u32], &'a [Seen], Option<&'a [u32]>);

/// Consecutive groups, and their part of the lists by group, which the second pass fills and
/// counts on a thread of its own.
struct Run<'a> {
    /// The number of the run's first group.
    first: u32,
    extents: &'a mut [Extent],
    sums: &'a [Sums],
    members: &'a mut [u32],
    facts: &'a mut [Fact],
}

impl Run<'_> {
    /// Puts the run's events in group order, each group's in load order: a counting sort over
    /// every slice of the first pass, keeping the events of this run's groups. Every run reads
    /// the whole of the first pass's list (24 bytes an event): reads side by side, where
    /// writing each event from the run of the slice that met it would share the lists' memory
    /// between threads.
    fn fill(&mut self, slices: &[Slice]) {
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
    fn count(&mut self, marks: &mut Marks, symbols: usize) {
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
fn runs_of(sums: &[Sums], parts: usize) -> Vec<std::ops::Range<usize>> {
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

impl Groups {
    /// Groups the shown events (store indices, in load order) under `key`. Linear in the
    /// number of shown events, plus a sort of the groups.
    pub fn compute(store: &Store, shown: &[u32], key: GroupKey, sort: GroupSort) -> Groups {
        Groups::recompute(Groups::default(), store, shown, key, sort)
    }

    /// As [`Groups::compute`], in the memory of `old`, the grouping this one replaces: for a
    /// million shown events its lists are tens of megabytes, and memory fresh from the system
    /// costs a page fault for each of its pages.
    pub fn recompute(
        old: Groups,
        store: &Store,
        shown: &[u32],
        key: GroupKey,
        sort: GroupSort,
    ) -> Groups {
        Groups::recompute_in(old, store, shown, key, sort, parts_for(shown.len()))
    }

    /// As [`Groups::recompute`], each pass cut into at most `parts` slices, each on a thread of
    /// its own.
    fn recompute_in(
        old: Groups,
        store: &Store,
        shown: &[u32],
        key: GroupKey,
        sort: GroupSort,
        parts: usize,
    ) -> Groups {
        let rows = store.rows();
        let symbols = store.strings().len();
        // First pass: each slice of the shown events numbers the groups it meets, in the order
        // it meets them, and keeps what the later passes need of each event, compact and in
        // load order: they read that instead of the wide rows a second time (reading the rows
        // again took as long).
        let step = slice_len(shown.len(), parts);
        let slice_count = shown.len().div_ceil(step).max(1);
        // The list is written in place, each slice's part by the thread of that slice: the list
        // of the grouping before is kept as it is (every place is written again below), and only
        // what it lacks is added first, on every thread when it is long (its pages are new).
        let mut seen = reused_as_it_is(old.seen, shown.len());
        let added = shown.len() - seen.len();
        let filler = Seen {
            group: 0,
            fact: Fact::default(),
        };
        if slice_count > 1 {
            seen.par_extend(rayon::iter::repeat_n(filler, added));
        } else {
            seen.resize(shown.len(), filler);
        }
        // The first slice's lists become the lists of all groups: they take the memory of the
        // grouping before (there are at most as many groups as shown events).
        let mut lists = Some((
            reused(old.values, shown.len()),
            reused(old.sums, shown.len()),
        ));
        let mut met: Vec<Met> = (0..slice_count)
            .map(|slice| {
                let (values, sums) = match slice {
                    0 => lists.take().unwrap_or_default(),
                    _ => Default::default(),
                };
                Met {
                    index: Index::new(key, symbols),
                    values,
                    sums,
                }
            })
            .collect();
        let first_pass = |met: &mut Met, shown: &[u32], seen: &mut [Seen]| {
            for (slot, &i) in seen.iter_mut().zip(shown) {
                let row = &rows[i as usize];
                *slot = Seen {
                    group: met.add(key, row),
                    fact: Fact {
                        ts: row.ts,
                        peer: row.peer_id,
                        room: row.room_id,
                    },
                };
            }
        };
        if slice_count > 1 {
            met.par_iter_mut()
                .zip(shown.par_chunks(step))
                .zip(seen.par_chunks_mut(step))
                .for_each(|((met, shown), seen)| first_pass(met, shown, seen));
        } else {
            first_pass(&mut met[0], shown, &mut seen);
        }
        // The slices' groups as one list, in the order their first events were met: the first
        // slice's as they are, each later slice's new ones after them.
        let mut met = met.into_iter();
        let mut all = met.next().expect("a slice at least");
        let renumbered: Vec<Vec<u32>> = met.map(|later| all.join(later)).collect();
        let Met {
            index,
            mut values,
            mut sums,
        } = all;
        drop(index);
        // Lists by group, filled in the memory of the grouping before, whose groups may have
        // been far more (by peer, then by error): let go of the memory of that many.
        if values.capacity() / 2 > values.len() {
            values.shrink_to_fit();
            sums.shrink_to_fit();
        }

        // Where each group's events go in the lists by group.
        let mut extents = reused(old.extents, sums.len());
        let mut next = 0u32;
        extents.extend(sums.iter().map(|s| {
            next += s.count;
            Extent {
                start: next - s.count,
                peers: 0,
                rooms: 0,
                first: NO_TIME,
                last: NO_TIME,
            }
        }));
        let mut members = reused(old.members, shown.len());
        members.resize(shown.len(), 0);
        let mut facts = reused(old.facts, shown.len());
        facts.resize(shown.len(), Fact::default());

        // Second pass, by runs of groups of about as many events each: each run's events are
        // put in group order, each group's in load order (a counting sort, reading every slice
        // of the first pass's list), then counted.
        let slices: Vec<Slice> = shown
            .chunks(step)
            .zip(seen.chunks(step))
            .enumerate()
            .map(|(k, (shown, seen))| (shown, seen, k.checked_sub(1).map(|k| &*renumbered[k])))
            .collect();
        let runs = runs_of(&sums, parts);
        let mut marks = old.marks;
        marks.resize_with(runs.len(), Marks::default);
        let mut works = Vec::new();
        let mut rest = (&mut extents[..], &mut members[..], &mut facts[..]);
        for (groups, marks) in runs.into_iter().zip(&mut marks) {
            let events: usize = sums[groups.clone()].iter().map(|s| s.count as usize).sum();
            let (extents, members, facts) = std::mem::take(&mut rest);
            let (extents, more_extents) = extents.split_at_mut(groups.len());
            let (members, more_members) = members.split_at_mut(events);
            let (facts, more_facts) = facts.split_at_mut(events);
            rest = (more_extents, more_members, more_facts);
            let mut run = Run {
                first: groups.start as u32,
                extents,
                sums: &sums[groups],
                members,
                facts,
            };
            let slices = &slices;
            works.push(move || {
                run.fill(slices);
                run.count(marks, symbols);
            });
        }
        works.into_par_iter().for_each(|mut work| work());

        let span = extents
            .iter()
            .filter(|e| e.last != NO_TIME)
            .map(|e| (e.first, e.last))
            .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
        let mut ranks = reused(old.ranks, values.len());
        ranks.extend(values.iter().map(|v| rank(store, v.first)));
        let order = reused(old.order, sums.len());
        let mut out = Groups {
            key: Some(key),
            span,
            values,
            sums,
            extents,
            ranks,
            order,
            members,
            facts,
            seen,
            sparklines: Sparklines::default(),
            marks,
        };
        out.sort(store, sort);
        out
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Group `k`, a position in the order of the last sort.
    pub fn group(&self, k: usize) -> Group {
        let p = self.order[k] as usize;
        let (s, e) = (self.sums[p], self.extents[p]);
        let timed = e.last != NO_TIME;
        Group {
            value: self.values[p],
            display: s.display,
            count: s.count,
            finals: s.finals,
            peers: e.peers,
            rooms: e.rooms,
            first_seen: timed.then_some(e.first),
            last_seen: timed.then_some(e.last),
        }
    }

    /// Group `k`, or `None` past the last.
    pub fn get(&self, k: usize) -> Option<Group> {
        (k < self.len()).then(|| self.group(k))
    }

    /// The groups in the order of the last sort.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Group> + '_ {
        (0..self.len()).map(|k| self.group(k))
    }

    /// Sorts by count (largest first) or by last seen (latest first, groups without a time last,
    /// then the largest first); ties by the key's strings, so the order does not depend on load
    /// order.
    pub fn sort(&mut self, store: &Store, sort: GroupSort) {
        // Sorting packed integer keys is far cheaper than comparing groups when there are
        // hundreds of thousands (one per peer). Each key is, from its highest bits: by count,
        // the count (largest first) then the rank; by last seen, the time (latest first, and a
        // group without a time after every other) then the count; then the group's place.
        let mut keys: Vec<u128> = (0..self.sums.len())
            .map(|p| {
                let count = u128::from(!self.sums[p].count);
                let major = match sort {
                    GroupSort::Count => (count << 64) | u128::from(self.ranks[p]),
                    GroupSort::Last => {
                        let last = self.extents[p].last;
                        let latest = if last == NO_TIME {
                            u64::MAX
                        } else {
                            !((last as u64) ^ (1 << 63))
                        };
                        (u128::from(latest) << 32) | count
                    }
                };
                (major << 32) | p as u128
            })
            .collect();
        keys.sort_unstable();
        // Keys equal but for the place are ordered by the strings (equal ranks only say that
        // their first eight bytes agree).
        let major = |key: u128| key >> 32;
        let mut start = 0;
        while start < keys.len() {
            let end = start
                + keys[start..]
                    .iter()
                    .take_while(|&&k| major(k) == major(keys[start]))
                    .count();
            if end - start > 1 {
                keys[start..end].sort_unstable_by(|&a, &b| {
                    let (a, b) = (a as u32 as usize, b as u32 as usize);
                    self.ranks[a]
                        .cmp(&self.ranks[b])
                        .then_with(|| compare_values(store, &self.values[a], &self.values[b]))
                        .then(a.cmp(&b))
                });
            }
            start = end;
        }
        self.order.clear();
        self.order.extend(keys.iter().map(|&k| k as u32));
    }

    /// Where group `p` (a place, not a position) has its events in `members` and `facts`.
    fn range(&self, p: usize) -> std::ops::Range<usize> {
        let start = self.extents[p].start as usize;
        start..start + self.sums[p].count as usize
    }

    /// The shown indices of group `k` (a position in the order of the last sort), in load
    /// order: what the list narrows to when a group is chosen.
    pub fn members(&self, k: usize) -> &[u32] {
        &self.members[self.range(self.order[k] as usize)]
    }

    /// The events of group `k` counted over `buckets` equal slices of [`Groups::span`]; events
    /// without a time are left out. Empty when `buckets` is 0 or no shown event has a time.
    pub fn sparkline(&self, k: usize, buckets: usize) -> Vec<u32> {
        let p = self.order[k] as usize;
        if self.sums[p].count < KEPT_SPARKLINE_FROM {
            return self.count_sparkline(p, buckets);
        }
        let mut kept = self.sparklines.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.entry((p, buckets))
            .or_insert_with(|| self.count_sparkline(p, buckets))
            .clone()
    }

    /// The sparkline of the group at place `p`.
    fn count_sparkline(&self, p: usize, buckets: usize) -> Vec<u32> {
        let Some((lo, hi)) = self.span.filter(|_| buckets > 0) else {
            return Vec::new();
        };
        let mut counts = vec![0u32; buckets];
        // Bucket `(t - lo) * buckets / width`, exactly. In 64 bits when the product cannot
        // overflow them (a span of under 36 years at 16 buckets): a 128-bit division for each
        // event took longer than the rest of the count.
        let width = hi.abs_diff(lo) + 1;
        let n = buckets as u64;
        let narrow = width.checked_mul(n).is_some();
        for fact in &self.facts[self.range(p)] {
            let t = fact.ts;
            if t != NO_TIME {
                let off = t.abs_diff(lo);
                let b = if narrow {
                    off * n / width
                } else {
                    (u128::from(off) * u128::from(n) / u128::from(width)) as u64
                };
                counts[b as usize] += 1;
            }
        }
        counts
    }

    /// The position, in the order of the last sort, of the group with this value.
    pub fn position(&self, value: &GroupValue) -> Option<usize> {
        let p = self.values.iter().position(|v| v == value)?;
        self.order.iter().position(|&q| q as usize == p)
    }
}

/// `items` emptied, to hold `len` items. A list that can hold more than about twice as many is
/// let go instead, so that a grouping of a few events does not keep the memory of a grouping of
/// a million.
fn reused<T>(mut items: Vec<T>, len: usize) -> Vec<T> {
    if items.capacity() / 2 > len {
        return Vec::new();
    }
    items.clear();
    items
}

/// As [`reused`], but with its first items (up to `len`) kept as they are: for a list whose
/// every place is written again, so that only what it lacks need be written first.
fn reused_as_it_is<T>(mut items: Vec<T>, len: usize) -> Vec<T> {
    if items.capacity() / 2 > len {
        return Vec::new();
    }
    items.truncate(len);
    items
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::testing::{SEC, T0, all, demo, ev, store};

    fn with(mut e: serde_json::Value, f: impl FnOnce(&mut serde_json::Value)) -> serde_json::Value {
        f(&mut e["data"]);
        e
    }

    #[test]
    fn errors_are_grouped_by_type_code_and_name_with_their_counts() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 10, "join", "p1", true),
            ev(3, 20, "join", "p2", false),
            with(ev(4, 30, "join", "p3", false), |d| {
                d["room_id"] = json!("room-2")
            }),
            with(ev(5, 5, "publish", "p1", false), |d| {
                d["error_code"] = json!(4006);
                d["error_name"] = json!("ICEDisconnected");
            }),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.len(), 2);
        let join = g.group(0);
        assert_eq!(join.label(&s, GroupKey::Error), "join 500 ServerErrors");
        assert_eq!(
            (join.count, join.finals, join.peers, join.rooms),
            (4, 1, 3, 2)
        );
        assert_eq!(join.first_seen, Some(T0));
        assert_eq!(join.last_seen, Some(T0 + 30 * SEC));
        assert_eq!(join.final_share(), 0.25);
        assert_eq!(g.members(0), [0, 1, 2, 3]);
        assert_eq!(g.members(1), [4]);
        assert_eq!(
            g.group(1).parts(&s, GroupKey::Error),
            [
                Part::Text("client.publish.failed"),
                Part::Code(4006),
                Part::Text("ICEDisconnected")
            ]
        );
        assert_eq!(g.span, Some((T0, T0 + 30 * SEC)));
    }

    #[test]
    fn only_the_shown_events_are_grouped() {
        let s = store(&[ev(1, 0, "join", "p1", false), ev(2, 1, "join", "p2", true)]);
        let g = Groups::compute(&s, &[1], GroupKey::Error, GroupSort::Count);
        assert_eq!(
            (g.group(0).count, g.group(0).finals, g.group(0).peers),
            (1, 1, 1)
        );
        let none = Groups::compute(&s, &[], GroupKey::Error, GroupSort::Count);
        assert!(none.is_empty() && none.span.is_none());
    }

    #[test]
    fn absent_fields_make_a_group_of_their_own_and_count_no_peer() {
        let events = vec![
            with(ev(1, 0, "join", "p1", false), |d| {
                d.as_object_mut().unwrap().remove("peer_id");
                d.as_object_mut().unwrap().remove("room_id");
            }),
            with(ev(2, 0, "join", "p1", false), |d| d["role"] = json!("host")),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
        assert_eq!(g.len(), 2);
        let absent = g.group(g.position(&GroupKey::Role.value_of(s.row(0))).unwrap());
        assert_eq!(absent.label(&s, GroupKey::Role), "(none)");
        assert_eq!(absent.parts(&s, GroupKey::Role), [Part::Absent]);
        assert_eq!((absent.peers, absent.rooms), (0, 0));
        // Equal counts: a present value sorts before the absent one.
        assert_eq!(g.group(0).label(&s, GroupKey::Role), "host");
    }

    #[test]
    fn rooms_and_peers_are_named_by_their_first_name_met() {
        let events = vec![
            with(ev(1, 0, "join", "p1", false), |d| {
                d["user_name"] = json!("Ada")
            }),
            with(ev(2, 0, "join", "p1", false), |d| {
                d["user_name"] = json!("Ada L");
                d["room_name"] = json!("standup");
            }),
        ];
        let s = store(&events);
        let peers = Groups::compute(&s, &all(&s), GroupKey::Peer, GroupSort::Count);
        assert_eq!(peers.group(0).label(&s, GroupKey::Peer), "Ada (p1)");
        let rooms = Groups::compute(&s, &all(&s), GroupKey::Room, GroupSort::Count);
        assert_eq!(
            rooms.group(0).parts(&s, GroupKey::Room),
            [Part::Text("room-1"), Part::Text("standup")]
        );
        assert_eq!(rooms.group(0).count, 2);
    }

    #[test]
    fn the_first_name_met_names_the_group_however_the_events_are_cut_into_slices() {
        // Peer p1 has no name in its first events, then two; room-1 likewise.
        let named = |n: u32, user: Option<&str>| {
            with(ev(n, n.into(), "join", "p1", false), |d| {
                if let Some(user) = user {
                    d["user_name"] = json!(user);
                    d["room_name"] = json!(format!("room of {user}"));
                }
            })
        };
        let firsts = [
            // Met in the second of three slices, or in the first of two.
            [
                None,
                None,
                Some("Ada"),
                Some("Ada"),
                Some("Bea"),
                Some("Bea"),
            ],
            // Met in the last slice only, whatever the cut.
            [None, None, None, None, None, Some("Bea")],
        ];
        for names in firsts {
            let events: Vec<_> = names
                .iter()
                .enumerate()
                .map(|(n, user)| named(n as u32, *user))
                .collect();
            let s = store(&events);
            let first = names.iter().flatten().next().unwrap();
            for parts in [1, 2, 3, 6] {
                let peers = Groups::recompute_in(
                    Groups::default(),
                    &s,
                    &all(&s),
                    GroupKey::Peer,
                    GroupSort::Count,
                    parts,
                );
                assert_eq!(
                    peers.group(0).label(&s, GroupKey::Peer),
                    format!("{first} (p1)"),
                    "in {parts}"
                );
                let rooms = Groups::recompute_in(
                    Groups::default(),
                    &s,
                    &all(&s),
                    GroupKey::Room,
                    GroupSort::Count,
                    parts,
                );
                let room = format!("room of {first}");
                assert_eq!(
                    rooms.group(0).parts(&s, GroupKey::Room),
                    [Part::Text("room-1"), Part::Text(&room)],
                    "in {parts}"
                );
            }
        }
    }

    #[test]
    fn sorting_by_last_seen_puts_the_latest_group_first() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 1, "join", "p1", false),
            ev(3, 50, "connect", "p2", false),
        ];
        let s = store(&events);
        let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.group(0).count, 2);
        g.sort(&s, GroupSort::Last);
        assert_eq!(g.group(0).count, 1);
        assert_eq!(g.group(0).last_seen, Some(T0 + 50 * SEC));
        // Members follow their group through a sort.
        assert_eq!(g.members(0), [2]);
    }

    #[test]
    fn a_group_without_a_time_is_the_least_recent() {
        let untimed = |n| {
            let mut e = ev(n, 0, "publish", "p1", false);
            e.as_object_mut().unwrap().remove("timestamp");
            e
        };
        let s = store(&[
            untimed(1),
            untimed(4),
            ev(2, -5, "join", "p1", false),
            ev(3, 9, "connect", "p1", false),
        ]);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Last);
        let order: Vec<(u32, Option<i64>)> = g.iter().map(|g| (g.count, g.last_seen)).collect();
        assert_eq!(
            order,
            [(1, Some(T0 + 9 * SEC)), (1, Some(T0 - 5 * SEC)), (2, None)]
        );
        assert_eq!(g.group(2).first_seen, None);
        assert_eq!(g.sparkline(2, 3), [0, 0, 0]);
        assert_eq!(g.span, Some((T0 - 5 * SEC, T0 + 9 * SEC)));
    }

    #[test]
    fn sparklines_span_every_shown_event() {
        let events = vec![
            ev(1, 0, "join", "p1", false),
            ev(2, 1, "join", "p1", false),
            ev(3, 99, "join", "p1", false),
            ev(4, 100, "connect", "p2", false),
        ];
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert_eq!(g.sparkline(0, 4), [2, 0, 0, 1]);
        assert_eq!(g.sparkline(1, 4), [0, 0, 0, 1]);
        assert_eq!(g.sparkline(0, 1), [3]);
        assert!(g.sparkline(0, 0).is_empty());
        let total: u32 = g.sparkline(0, 7).iter().sum();
        assert_eq!(total, 3);
    }

    #[test]
    fn sparklines_over_centuries_bucket_as_the_exact_formula_does() {
        // About 440 years: at 16 buckets, the product of the span and the bucket count needs
        // more than 64 bits; at 1 bucket it does not.
        let secs = [
            -7_000_000_000,
            -6_999_999_999,
            -1,
            0,
            3_141_592_653,
            7_000_000_000,
        ];
        let events: Vec<_> = (0..secs.len())
            .map(|n| ev(n as u32, secs[n], "join", "p1", false))
            .collect();
        let s = store(&events);
        let g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        let (lo, hi) = g.span.unwrap();
        assert_eq!(
            (lo, hi),
            (T0 - 7_000_000_000 * SEC, T0 + 7_000_000_000 * SEC)
        );
        for buckets in [1, 3, 16, 1000] {
            let mut want = vec![0u32; buckets];
            for t in secs.map(|x| T0 + x * SEC) {
                let width = i128::from(hi) - i128::from(lo) + 1;
                want[((i128::from(t) - i128::from(lo)) * buckets as i128 / width) as usize] += 1;
            }
            assert_eq!(g.sparkline(0, buckets), want, "{buckets} buckets");
        }
    }

    #[test]
    fn every_key_groups_the_demo_without_losing_an_event() {
        let s = demo();
        let shown = all(&s);
        for key in GroupKey::ALL {
            let g = Groups::compute(&s, &shown, key, GroupSort::Count);
            let total: u32 = g.iter().map(|g| g.count).sum();
            assert_eq!(total as usize, s.len(), "{key:?}");
            let sorted: Vec<Group> = g.iter().collect();
            assert!(
                sorted.windows(2).all(|w| w[0].count >= w[1].count),
                "{key:?}"
            );
            for (k, group) in sorted.iter().enumerate() {
                assert!(
                    g.members(k)
                        .iter()
                        .all(|&i| group.value.matches(key, s.row(i as usize)))
                );
            }
            // Ties are in the order of the keys' strings.
            for w in sorted.windows(2) {
                if w[0].count == w[1].count {
                    assert!(
                        compare_values(&s, &w[0].value, &w[1].value).is_le(),
                        "{key:?}"
                    );
                }
            }
        }
    }

    /// The groups sorted one comparison at a time, by the rules [`Groups::sort`] documents.
    fn sorted_plainly(s: &Store, g: &Groups, sort: GroupSort) -> Vec<Group> {
        let mut groups: Vec<Group> = g.iter().collect();
        groups.sort_by(|a, b| {
            let by_last = match sort {
                GroupSort::Count => std::cmp::Ordering::Equal,
                // Latest first, a group without a time last.
                GroupSort::Last => match (a.last_seen, b.last_seen) {
                    (Some(x), Some(y)) => y.cmp(&x),
                    (x, y) => y.is_some().cmp(&x.is_some()),
                },
            };
            by_last
                .then(b.count.cmp(&a.count))
                .then_with(|| compare_values(s, &a.value, &b.value))
        });
        groups
    }

    #[test]
    fn both_sorts_order_the_groups_as_comparing_them_one_by_one_does() {
        // Many groups tied on time and count, some without a time, names sharing long prefixes.
        let mut events: Vec<serde_json::Value> = (0..40u32)
            .map(|n| {
                let mut e = ev(
                    n,
                    i64::from(n % 3),
                    "join",
                    &format!("peer-{}", n % 7),
                    false,
                );
                e["data"]["role"] = json!(format!("role-with-a-long-prefix-{}", n % 11));
                if n % 5 == 0 {
                    e.as_object_mut().unwrap().remove("timestamp");
                }
                e
            })
            .collect();
        events.extend((0..9).map(|n| ev(100 + n, 2, "publish", "peer-x", n % 2 == 0)));
        for s in [store(&events), demo()] {
            let shown = all(&s);
            for key in GroupKey::ALL {
                for sort in [GroupSort::Count, GroupSort::Last] {
                    let mut g = Groups::compute(&s, &shown, key, sort);
                    let got: Vec<Group> = g.iter().collect();
                    assert_eq!(got, sorted_plainly(&s, &g, sort), "{key:?} {sort:?}");
                    // Sorted again the other way and back: the same order.
                    let other = match sort {
                        GroupSort::Count => GroupSort::Last,
                        GroupSort::Last => GroupSort::Count,
                    };
                    g.sort(&s, other);
                    assert_eq!(g.iter().collect::<Vec<_>>(), sorted_plainly(&s, &g, other));
                    g.sort(&s, sort);
                    assert_eq!(g.iter().collect::<Vec<_>>(), got, "{key:?} {sort:?}");
                }
            }
        }
    }

    #[test]
    fn a_large_group_keeps_its_own_sparkline_when_the_groups_are_sorted_again() {
        // Joins early and many, publishes late and more recent: each order puts the other first.
        let big = KEPT_SPARKLINE_FROM as usize + 100;
        let events: Vec<_> = (0..big + 10)
            .map(|n| ev(n as u32, n as i64, "join", "p1", false))
            .chain((0..big).map(|n| {
                ev(
                    (2 * big + n) as u32,
                    (3 * big + n) as i64,
                    "publish",
                    "p2",
                    false,
                )
            }))
            .collect();
        let s = store(&events);
        let mut g = Groups::compute(&s, &all(&s), GroupKey::Error, GroupSort::Count);
        assert!(g.iter().all(|g| g.count >= KEPT_SPARKLINE_FROM));
        let kept = |g: &Groups| g.sparklines.0.lock().unwrap().len();
        let first = g.sparkline(0, 8);
        assert_eq!(first.iter().sum::<u32>(), g.group(0).count);
        assert_eq!(kept(&g), 1);
        assert_eq!(g.sparkline(0, 8), first, "kept");
        assert_eq!(kept(&g), 1);
        g.sort(&s, GroupSort::Last);
        assert_eq!(kept(&g), 1, "kept by the group, not by its position");
        assert_eq!(g.group(1).count as usize, big + 10);
        assert_eq!(g.sparkline(1, 8), first, "the same group, moved");
        assert_eq!(kept(&g), 1);
        let publishes = g.sparkline(0, 8);
        assert_eq!(publishes.iter().sum::<u32>(), g.group(0).count);
        assert_ne!(publishes, first);
        assert_eq!(kept(&g), 2);
    }

    #[test]
    fn a_grouping_cut_into_slices_on_threads_is_the_grouping_made_in_one() {
        let s = demo();
        let every = all(&s);
        let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
        let few: Vec<u32> = every.iter().copied().take(5).collect();
        // The second half alone: its slices do not start where a grouping of all would.
        let late: Vec<u32> = every[every.len() / 2..].to_vec();
        for shown in [&every, &odd, &few, &late, &vec![]] {
            for key in GroupKey::ALL {
                for sort in [GroupSort::Count, GroupSort::Last] {
                    let one = Groups::recompute_in(Groups::default(), &s, shown, key, sort, 1);
                    let mut many = Groups::default();
                    for parts in [2, 3, 8, 40] {
                        many = Groups::recompute_in(many, &s, shown, key, sort, parts);
                        let case = format!("{key:?} {sort:?} over {} in {parts}", shown.len());
                        assert_eq!(many.span, one.span, "{case}");
                        assert_eq!(seen(&many), seen(&one), "{case}");
                    }
                }
            }
        }
        // Every key over every event, cut in two, has groups met by both slices and groups met
        // by one only, with names met first in either.
        let half = every.len() / 2;
        let met = |range: std::ops::Range<usize>| -> std::collections::HashSet<_> {
            every[range]
                .iter()
                .map(|&i| s.row(i as usize).peer_id)
                .collect()
        };
        let (a, b) = (met(0..half), met(half..every.len()));
        assert!(a.intersection(&b).count() > 0 && b.difference(&a).count() > 0);
    }

    #[test]
    fn runs_of_groups_split_the_events_about_evenly_and_never_cut_a_group() {
        // The runs as (first group, past the last group).
        let runs = |counts: &[u32], parts: usize| -> Vec<(usize, usize)> {
            let sums: Vec<Sums> = counts
                .iter()
                .map(|&count| Sums {
                    count,
                    finals: 0,
                    display: Sym::NONE,
                })
                .collect();
            runs_of(&sums, parts)
                .into_iter()
                .map(|r| (r.start, r.end))
                .collect()
        };
        assert_eq!(runs(&[], 4), [(0, 0)]);
        assert_eq!(runs(&[5, 5, 5, 5], 1), [(0, 4)]);
        assert_eq!(runs(&[5, 5, 5, 5], 2), [(0, 2), (2, 4)]);
        assert_eq!(runs(&[5, 5, 5, 5], 4), [(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(runs(&[5, 5, 5, 5], 8), [(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(runs(&[90, 5, 5], 2), [(0, 1), (1, 3)]);
        assert_eq!(runs(&[5, 5, 90], 2), [(0, 3)]);
        assert_eq!(runs(&[1, 1, 1, 1, 1, 1, 1], 3), [(0, 3), (3, 5), (5, 7)]);
    }

    /// Everything a grouping shows: its groups, and each one's events and sparkline.
    fn seen(g: &Groups) -> Vec<(Group, Vec<u32>, Vec<u32>)> {
        (0..g.len())
            .map(|k| (g.group(k), g.members(k).to_vec(), g.sparkline(k, 7)))
            .collect()
    }

    #[test]
    fn a_grouping_made_in_the_memory_of_another_is_the_grouping_made_afresh() {
        let s = demo();
        let every = all(&s);
        let odd: Vec<u32> = every.iter().copied().filter(|i| i % 2 == 1).collect();
        let few: Vec<u32> = every.iter().copied().take(5).collect();
        // From more events to fewer and back, between keys with many groups and with few.
        let steps = [
            (&every, GroupKey::Peer, GroupSort::Count),
            (&odd, GroupKey::Error, GroupSort::Last),
            (&few, GroupKey::Room, GroupSort::Count),
            (&every, GroupKey::Sdk, GroupSort::Last),
            (&odd, GroupKey::Peer, GroupSort::Last),
        ];
        let mut g = Groups::default();
        for (step, (shown, key, sort)) in steps.into_iter().enumerate() {
            if step == 3 {
                // Marks numbered up to where the next grouping's numbers would overflow.
                for marks in &mut g.marks {
                    marks.last = u32::MAX - 3;
                }
            }
            g = Groups::recompute(g, &s, shown, key, sort);
            let fresh = Groups::compute(&s, shown, key, sort);
            assert_eq!(g.key, Some(key));
            assert_eq!(g.span, fresh.span, "{key:?} over {} events", shown.len());
            assert_eq!(
                seen(&g),
                seen(&fresh),
                "{key:?} over {} events",
                shown.len()
            );
        }
        // A grouping of a few events does not keep the memory of a grouping of them all.
        let big = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
        // Nor a grouping with few groups the memory of one with many.
        let peers = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
        let errors = Groups::recompute(peers, &s, &every, GroupKey::Error, GroupSort::Count);
        assert!(errors.values.capacity() <= errors.len() * 2);
        assert!(errors.sums.capacity() <= errors.len() * 2);
        assert!(errors.order.capacity() <= errors.len() * 2);
        let small = Groups::recompute(big, &s, &few, GroupKey::Peer, GroupSort::Count);
        assert!(small.members.capacity() < every.len() / 2);
        assert!(small.facts.capacity() < every.len() / 2);
        assert!(small.seen.capacity() < every.len() / 2);
        assert!(small.values.capacity() <= few.len() * 2);
        assert!(small.sums.capacity() <= few.len() * 2);
        assert!(small.extents.capacity() <= few.len() * 2);
        assert!(small.ranks.capacity() <= few.len() * 2);
        assert!(small.order.capacity() <= few.len() * 2);
        // A grouping as large as the one before fills that one's lists, whatever the slices.
        for parts in [1, 3] {
            let before = Groups::compute(&s, &every, GroupKey::Peer, GroupSort::Count);
            let lists = (
                before.values.as_ptr(),
                before.sums.as_ptr(),
                before.seen.as_ptr(),
            );
            let again =
                Groups::recompute_in(before, &s, &every, GroupKey::Peer, GroupSort::Last, parts);
            let reused = (
                again.values.as_ptr(),
                again.sums.as_ptr(),
                again.seen.as_ptr(),
            );
            assert_eq!(reused, lists, "in {parts}");
        }
        // Marks for each run of the last grouping only, for as many strings as its store has.
        let runs = Groups::recompute_in(small, &s, &every, GroupKey::Peer, GroupSort::Count, 4);
        assert_eq!(runs.marks.len(), 4);
        let one = Groups::recompute_in(runs, &s, &few, GroupKey::Peer, GroupSort::Count, 1);
        assert_eq!(one.marks.len(), 1);
        assert_eq!(one.marks[0].peer.len(), s.strings().len());
        let tiny = store(&[ev(1, 0, "join", "p1", false)]);
        let one = Groups::recompute(one, &tiny, &all(&tiny), GroupKey::Peer, GroupSort::Count);
        assert_eq!(one.marks[0].peer.len(), tiny.strings().len());
    }

    #[test]
    fn the_web_release_with_the_disconnects_leads_the_sdk_groups_of_disconnects() {
        let s = demo();
        let kinds = crate::insight::Kinds::of(&s);
        let shown: Vec<u32> = all(&s)
            .into_iter()
            .filter(|&i| kinds.slot(s.row(i as usize).kind) == 3)
            .collect();
        let g = Groups::compute(&s, &shown, GroupKey::Sdk, GroupSort::Count);
        assert_eq!(g.group(0).label(&s, GroupKey::Sdk), "web 0.11.4");
        assert!(g.group(0).count > 2 * g.group(1).count);
    }

    #[test]
    fn ranks_order_as_the_strings_do() {
        let s = store(&[
            with(ev(1, 0, "join", "p1", false), |d| d["role"] = json!("host")),
            with(ev(2, 0, "join", "p2", false), |d| {
                d["role"] = json!("hostess-long-name")
            }),
            with(ev(3, 0, "join", "p3", false), |d| {
                d["role"] = json!("host-long-name-a")
            }),
            with(ev(4, 0, "join", "p4", false), |d| {
                d["role"] = json!("guest")
            }),
        ]);
        let g = Groups::compute(&s, &all(&s), GroupKey::Role, GroupSort::Count);
        let labels: Vec<String> = g.iter().map(|g| g.label(&s, GroupKey::Role)).collect();
        assert_eq!(
            labels,
            ["guest", "host", "host-long-name-a", "hostess-long-name"]
        );
    }
}
