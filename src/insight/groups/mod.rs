//! The shown events grouped by a key (error, SDK, OS, device, role, room, domain, env, peer).

use rayon::prelude::*;

use super::keys::{Index, compare_values, label_of, parts_of, rank};
use super::named::Named;
use super::{GroupValue, Part, parts_for, slice_len};
use crate::insight::{GroupKey, GroupSort};
use crate::store::{NO_TIME, Row, Store, Sym};

mod count;
mod few;
mod peers;
mod values;
use count::*;
use few::{Bucket, Few};
use values::Values;

/// From this many groups, their ranks are read and their keys sorted on every thread.
const PARALLEL_GROUPS_FROM: usize = 50_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub value: GroupValue,
    /// The room's name (room) or the user's name (peer): the first one met among the group's
    /// events; `Sym::NONE` for the other keys.
    pub display: Sym,
    pub count: u32,
    /// How many have `is_terminal` true.
    pub finals: u32,
    /// Distinct `peer_id`s and `room_id`s; events without one, or with an empty one, add
    /// nothing.
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
///
/// Counted one of three ways, each the same groups: a few groups (by error, SDK, OS...) in one
/// pass that keeps each event's group in a byte (`few`); by peer, in a pass that keeps each
/// event's group number alone, then the events put in group order (`peers`); otherwise in two
/// passes, the second putting the events, their times, peers and rooms in group order and
/// counting the distinct peers and rooms there (`count`).
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// `None` only for `Groups::default()`, the groups of nothing.
    pub key: Option<GroupKey>,
    /// The earliest and latest time among the shown events: the span of every sparkline (to be
    /// read only, as the sparklines kept were counted over it).
    pub span: Option<(i64, i64)>,
    /// By group, in the order their first events were met.
    values: Values,
    sums: Vec<Sums>,
    extents: Vec<Extent>,
    /// See [`rank`]; empty for a grouping by peer, whose ranks are read for each sort.
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
    /// For a grouping of few groups, counted in one pass: each event's group, in place of the
    /// lists by group (`members`, `facts` and `seen` are empty then).
    few: Option<Box<Few>>,
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
        if key == GroupKey::Peer {
            return peers::group(old, store, shown, sort, parts);
        }
        // Rooms are many as a rule: their groups are put in lists straight away. The other
        // keys' are tried in one pass, which gives up past a few groups.
        if key != GroupKey::Room
            && let Some(counted) = few::count(store, shown, key, parts)
        {
            return Groups::of_few(old, store, key, sort, counted);
        }
        Groups::in_lists(old, store, shown, key, sort, parts)
    }

    /// As [`Groups::recompute_in`], the groups always put in lists by group, in two passes.
    pub(in crate::insight) fn in_lists(
        old: Groups,
        store: &Store,
        shown: &[u32],
        key: GroupKey,
        sort: GroupSort,
        parts: usize,
    ) -> Groups {
        let rows = store.rows();
        let symbols = store.strings().len();
        let named = Named::of(store);
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
            reused(old.values.into_whole(), shown.len()),
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
                    group: met.add(key, store, row),
                    fact: Fact {
                        ts: row.ts,
                        peer: named.or_none(row.peer_id),
                        room: named.or_none(row.room_id),
                    },
                };
            }
        };
        each_slice(&mut met, shown, &mut seen, step, first_pass);
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

        let span = span_of(extents.iter().map(|e| (e.first, e.last)));
        let mut ranks = reused(old.ranks, values.len());
        // A string read for each group: hundreds of thousands of groups (one per peer) make it
        // a read from memory each, side by side on every thread.
        ranks.par_extend(
            values
                .par_iter()
                .with_min_len(PARALLEL_GROUPS_FROM)
                .map(|v| rank(store, v.first)),
        );
        let order = reused(old.order, sums.len());
        let mut out = Groups {
            key: Some(key),
            span,
            values: Values::Whole(values),
            sums,
            extents,
            ranks,
            order,
            members,
            facts,
            seen,
            sparklines: Sparklines::default(),
            marks,
            few: None,
        };
        out.sort(store, sort);
        out
    }

    /// The groups [`few::count`] counted. The marks of the grouping before are kept for the
    /// next grouping that makes lists; its lists by event are let go.
    fn of_few(
        old: Groups,
        store: &Store,
        key: GroupKey,
        sort: GroupSort,
        counted: few::Counted,
    ) -> Groups {
        let few::Counted {
            values,
            tallies,
            few,
        } = counted;
        let span = span_of(tallies.iter().map(|t| (t.first, t.last)));
        let mut out = Groups {
            key: Some(key),
            span,
            ranks: values.iter().map(|v| rank(store, v.first)).collect(),
            values: Values::Whole(values),
            sums: tallies
                .iter()
                .map(|t| Sums {
                    count: t.count,
                    finals: t.finals,
                    display: t.display,
                })
                .collect(),
            extents: tallies
                .iter()
                .map(|t| Extent {
                    start: 0,
                    peers: t.peers,
                    rooms: t.rooms,
                    first: t.first,
                    last: t.last,
                })
                .collect(),
            marks: old.marks,
            few: Some(Box::new(few)),
            ..Groups::default()
        };
        out.sort(store, sort);
        out
    }

    /// Groups counted elsewhere (what `list --group-by` reads straight off a dump): each
    /// group's value, name and counts, in the order their first events were met, sorted as
    /// [`Groups::compute`] sorts them. They hold no members and draw no sparklines: what a list
    /// prints of them, not what the explorer narrows to.
    pub fn of_counts(store: &Store, key: GroupKey, sort: GroupSort, groups: &[Group]) -> Groups {
        let mut out = Groups {
            key: Some(key),
            span: None,
            values: Values::Whole(groups.iter().map(|g| g.value).collect()),
            sums: groups
                .iter()
                .map(|g| Sums {
                    count: g.count,
                    finals: g.finals,
                    display: g.display,
                })
                .collect(),
            extents: groups
                .iter()
                .map(|g| Extent {
                    start: 0,
                    peers: g.peers,
                    rooms: g.rooms,
                    first: g.first_seen.unwrap_or(NO_TIME),
                    last: g.last_seen.unwrap_or(NO_TIME),
                })
                .collect(),
            ranks: groups.iter().map(|g| rank(store, g.value.first)).collect(),
            ..Groups::default()
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
            value: self.values.get(p),
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
        self.sort_in(store, sort, PARALLEL_GROUPS_FROM);
    }

    /// [`Groups::sort`], the keys sorted on every thread from `parallel_from` groups on.
    fn sort_in(&mut self, store: &Store, sort: GroupSort, parallel_from: usize) {
        // Sorting packed integer keys is far cheaper than comparing groups when there are
        // hundreds of thousands (one per peer). Each key is, from its highest bits: by count,
        // the count (largest first) then the rank; by last seen, the time (latest first, and a
        // group without a time after every other) then the count; then the group's place.
        // A grouping by peer keeps no ranks (8 bytes a group): they are read for each sort.
        let read;
        let ranks: &[u64] = if self.ranks.len() == self.sums.len() {
            &self.ranks
        } else {
            read = self.values.ranks(store);
            &read
        };
        let mut keys: Vec<u128> = (0..self.sums.len())
            .map(|p| {
                let count = u128::from(!self.sums[p].count);
                let major = match sort {
                    GroupSort::Count => (count << 64) | u128::from(ranks[p]),
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
        if keys.len() < parallel_from {
            keys.sort_unstable();
        } else {
            keys.par_sort_unstable();
        }
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
                    ranks[a]
                        .cmp(&ranks[b])
                        .then_with(|| {
                            compare_values(store, &self.values.get(a), &self.values.get(b))
                        })
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
        let p = self.order[k] as usize;
        if let Some(few) = &self.few {
            return few.members(p);
        }
        // Groups counted elsewhere hold none (see [`Groups::of_counts`]).
        self.members.get(self.range(p)).unwrap_or_default()
    }

    /// The events of group `k` counted over `buckets` equal slices of [`Groups::span`]; events
    /// without a time are left out. Empty when `buckets` is 0 or no shown event has a time.
    /// `store` is the store the groups were counted in.
    pub fn sparkline(&self, store: &Store, k: usize, buckets: usize) -> Vec<u32> {
        let p = self.order[k] as usize;
        if let Some(few) = &self.few {
            // Every group's at once, in one pass over the events, and kept.
            let Some(span) = self.span.filter(|_| buckets > 0) else {
                return Vec::new();
            };
            let mut kept = self.sparklines.0.lock().unwrap_or_else(|e| e.into_inner());
            if !kept.contains_key(&(p, buckets)) {
                let all = few.sparklines(span, buckets);
                for (q, counts) in all.chunks(buckets).enumerate() {
                    kept.insert((q, buckets), counts.to_vec());
                }
            }
            return kept.get(&(p, buckets)).cloned().unwrap_or_default();
        }
        if self.sums[p].count < KEPT_SPARKLINE_FROM {
            return self.count_sparkline(store, p, buckets);
        }
        let mut kept = self.sparklines.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.entry((p, buckets))
            .or_insert_with(|| self.count_sparkline(store, p, buckets))
            .clone()
    }

    /// The sparkline of the group at place `p`: from the times kept in group order, or read
    /// from the rows of its events (a grouping by peer keeps no times).
    fn count_sparkline(&self, store: &Store, p: usize, buckets: usize) -> Vec<u32> {
        let Some((lo, hi)) = self.span.filter(|_| buckets > 0) else {
            return Vec::new();
        };
        let mut counts = vec![0u32; buckets];
        let bucket = Bucket::new(lo, hi, buckets);
        // A time outside the span (read from rows of a store other than the one counted) is
        // left out, where it would be counted in a bucket it does not fall in.
        let mut add = |t: i64| {
            if t != NO_TIME && (lo..=hi).contains(&t) {
                counts[bucket.of(t)] += 1;
            }
        };
        if let Some(facts) = self.facts.get(self.range(p)).filter(|f| !f.is_empty()) {
            facts.iter().for_each(|fact| add(fact.ts));
        } else if let Some(members) = self.members.get(self.range(p)) {
            let rows = store.rows();
            for &i in members {
                add(rows.get(i as usize).map_or(NO_TIME, |row| row.ts));
            }
        }
        counts
    }

    /// The position, in the order of the last sort, of the group with this value.
    pub fn position(&self, value: &GroupValue) -> Option<usize> {
        let p = self.values.position(value)?;
        self.order.iter().position(|&q| q as usize == p)
    }
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
mod tests;
