//! Groupings by peer: a group for each of hundreds of thousands of peers. Every event of a
//! peer's group has that peer, and nearly every peer is in one room: the first pass counts
//! each group whole (its rooms as one room, or more), and only the groups met in more than one
//! room have their rooms counted from their events. What the pass keeps of an event is its
//! group's number alone, and no list but the members is made in group order.

use rayon::prelude::*;

use super::values::first_only;
use super::*;

/// A slice of the first pass: its shown events, their groups, and the number of each of its
/// groups among all groups (`None` for the first slice, whose numbers are those).
type Slice<'a> = (&'a [u32], &'a [u32], Option<&'a [u32]>);

/// In [`Tally::room`]: the group's events name more than one room.
const ROOMS: Sym = Sym(u32::MAX);

/// What the first pass counts of a group: on one aligned half of a cache line, so that a
/// million groups cost one read from memory an event.
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
struct Tally {
    count: u32,
    finals: u32,
    display: Sym,
    /// The one room the group's events name, `Sym::NONE` for none yet, or [`ROOMS`].
    room: Sym,
    /// `i64::MAX` and [`NO_TIME`] while no event has a time.
    first: i64,
    last: i64,
}

impl Tally {
    const ZERO: Tally = Tally {
        count: 0,
        finals: 0,
        display: Sym::NONE,
        room: Sym::NONE,
        first: i64::MAX,
        last: NO_TIME,
    };

    fn room(&mut self, room: Sym) {
        if !room.is_none() && self.room != room {
            self.room = if self.room.is_none() { room } else { ROOMS };
        }
    }

    /// Adds the counts of a later slice of the same group.
    fn add(&mut self, later: &Tally) {
        self.count += later.count;
        self.finals += later.finals;
        if self.display.is_none() {
            self.display = later.display;
        }
        self.room(later.room);
        self.first = self.first.min(later.first);
        self.last = self.last.max(later.last);
    }
}

/// The groups a slice of the shown events meets, numbered in the order it meets them.
struct Met {
    index: Index,
    /// Each group's peer.
    values: Vec<Sym>,
    tallies: Vec<Tally>,
}

impl Met {
    /// Takes in the groups a later slice met, and gives the number here of each of them. Which
    /// of them this slice met too is looked up first, on every thread (a read from memory far
    /// from the last for each of hundreds of thousands of peers); the groups are then taken in
    /// in order. A later slice meets each of its peers once, so that none of its groups is
    /// numbered here between the two.
    fn join(&mut self, later: Met) -> Vec<u32> {
        let index = &self.index;
        let found: Vec<Option<u32>> = later
            .values
            .par_iter()
            .with_min_len(JOIN_LOOKUPS_FROM)
            .map(|&value| index.get(first_only(value)))
            .collect();
        later
            .values
            .into_iter()
            .zip(later.tallies)
            .zip(found)
            .map(|((value, add), found)| match found {
                Some(g) => {
                    self.tallies[g as usize].add(&add);
                    g
                }
                None => {
                    let g = self
                        .index
                        .get_or_insert(first_only(value), self.tallies.len() as u32);
                    self.values.push(value);
                    self.tallies.push(add);
                    g
                }
            })
            .collect()
    }
}

/// From this many groups met by a later slice, they are looked up on every thread.
const JOIN_LOOKUPS_FROM: usize = 1_024;

/// The shown events grouped by peer, in the memory of `old` where it fits.
pub(super) fn group(
    old: Groups,
    store: &Store,
    shown: &[u32],
    sort: GroupSort,
    parts: usize,
) -> Groups {
    let key = GroupKey::Peer;
    let rows = store.rows();
    let symbols = store.strings().len();
    let named = Named::of(store);
    let step = slice_len(shown.len(), parts);
    // The group of each shown event, in its slice's numbers.
    let mut seen = vec![0u32; shown.len()];
    // The first slice's lists become the lists of all groups, in the memory of the grouping
    // before.
    // Room for as many tallies as events, taken from the system as it is written: grown by
    // doubling, they would be copied each time (their alignment rules out growing in place).
    let mut first_values = Some(reused(old.values.into_firsts(), shown.len()));
    // Each slice's index is made here, before the pass: made by each slice's thread, the
    // indexes written first at once took longer (Shift-Tab at 5M events, two threads). The
    // first slice's index also takes every later slice's groups, when they are joined: it is
    // touched for every shown event.
    let mut met: Vec<Met> = shown
        .chunks(step)
        .enumerate()
        .map(|(k, slice)| Met {
            index: Index::dense_for(symbols, if k == 0 { shown.len() } else { slice.len() }),
            values: first_values.take().unwrap_or_default(),
            tallies: Vec::with_capacity(slice.len()),
        })
        .collect();
    if met.is_empty() {
        met.push(Met {
            index: Index::dense_for(symbols, 0),
            values: Vec::new(),
            tallies: Vec::new(),
        });
    }
    let first_pass = |met: &mut Met, shown: &[u32], seen: &mut [u32]| {
        for (slot, &i) in seen.iter_mut().zip(shown) {
            let row = &rows[i as usize];
            let g = met
                .index
                .get_or_insert(first_only(row.peer_id), met.tallies.len() as u32);
            if g as usize == met.tallies.len() {
                met.values.push(row.peer_id);
                met.tallies.push(Tally::ZERO);
            }
            let t = &mut met.tallies[g as usize];
            t.count += 1;
            t.finals += u32::from(row.is_terminal() == Some(true));
            if t.display.is_none() {
                t.display = row.user_name;
            }
            t.room(named.or_none(row.room_id));
            if row.ts != NO_TIME {
                t.first = t.first.min(row.ts);
                t.last = t.last.max(row.ts);
            }
            *slot = g;
        }
    };
    each_slice(&mut met, shown, &mut seen, step, first_pass);
    let mut met = met.into_iter();
    let mut all = met.next().expect("a slice at least");
    let renumbered: Vec<Vec<u32>> = met.map(|later| all.join(later)).collect();
    let Met {
        index,
        mut values,
        tallies,
    } = all;
    drop(index);
    if values.capacity() / 2 > values.len() {
        values.shrink_to_fit();
    }
    let mut sums = reused(old.sums, tallies.len());
    sums.extend(tallies.iter().map(|t| Sums {
        count: t.count,
        finals: t.finals,
        display: t.display,
    }));
    if sums.capacity() / 2 > sums.len() {
        sums.shrink_to_fit();
    }
    let mut extents = reused(old.extents, sums.len());
    let mut next = 0u32;
    extents.extend(tallies.iter().zip(&values).map(|(t, v)| {
        next += t.count;
        let timed = t.last != NO_TIME;
        Extent {
            start: next - t.count,
            // Every event of the group has its peer.
            peers: u32::from(!named.or_none(*v).is_none()),
            rooms: u32::from(!t.room.is_none()),
            first: if timed { t.first } else { NO_TIME },
            last: t.last,
        }
    }));
    let multi: Vec<usize> = (0..tallies.len())
        .filter(|&p| tallies[p].room == ROOMS)
        .collect();
    drop(tallies);

    // The events in group order, each group's in load order: a counting sort in runs of groups
    // on every thread, each reading the whole list of the first pass.
    let mut members = reused(old.members, shown.len());
    members.resize(shown.len(), 0);
    let slices: Vec<Slice> = shown
        .chunks(step)
        .zip(seen.chunks(step))
        .enumerate()
        .map(|(k, (shown, seen))| (shown, seen, k.checked_sub(1).map(|k| &*renumbered[k])))
        .collect();
    let runs = runs_of(&sums, parts);
    let mut works = Vec::new();
    let mut rest = &mut members[..];
    for groups in runs {
        let events: usize = sums[groups.clone()].iter().map(|s| s.count as usize).sum();
        let (mine, more) = std::mem::take(&mut rest).split_at_mut(events);
        rest = more;
        let extents = &extents[groups.clone()];
        let slices = &slices;
        works.push(move || fill(groups.start as u32, extents, mine, slices));
    }
    works.into_par_iter().for_each(|mut work| work());
    drop(slices);
    drop(seen);

    // The rooms of the groups met in more than one, counted from their events.
    if !multi.is_empty() {
        let mut marked = vec![0u64; symbols / 64 + 1];
        for p in multi {
            let range = extents[p].start as usize..(extents[p].start + sums[p].count) as usize;
            let mut rooms = 0;
            for &i in &members[range.clone()] {
                let room = named.or_none(rows[i as usize].room_id);
                // Symbol 0 is no room: its word is cleared with the others.
                let (word, bit) = (room.0 as usize / 64, 1u64 << (room.0 % 64));
                if !room.is_none() && marked[word] & bit == 0 {
                    marked[word] |= bit;
                    rooms += 1;
                }
            }
            for &i in &members[range] {
                marked[rows[i as usize].room_id.0 as usize / 64] = 0;
            }
            extents[p].rooms = rooms;
        }
    }

    let span = super::count::span_of(extents.iter().map(|e| (e.first, e.last)));
    let order = reused(old.order, sums.len());
    let mut out = Groups {
        key: Some(key),
        span,
        values: Values::Firsts(values),
        sums,
        extents,
        order,
        members,
        ..Groups::default()
    };
    out.sort(store, sort);
    out
}

/// Puts the events of the groups from number `first` on (as many as `extents`) in `members`,
/// in group order and each group's in load order.
fn fill(first: u32, extents: &[Extent], members: &mut [u32], slices: &[Slice]) {
    let Some(base) = extents.first().map(|e| e.start) else {
        return;
    };
    let len = extents.len() as u32;
    let mut next: Vec<u32> = extents.iter().map(|e| e.start - base).collect();
    let mut put = |g: u32, i: u32| {
        let j = g.wrapping_sub(first);
        if j < len {
            let at = &mut next[j as usize];
            members[*at as usize] = i;
            *at += 1;
        }
    };
    for &(shown, seen, numbers) in slices {
        let pairs = shown.iter().zip(seen);
        match numbers {
            None => pairs.for_each(|(&i, &g)| put(g, i)),
            Some(numbers) => pairs.for_each(|(&i, &g)| put(numbers[g as usize], i)),
        }
    }
}
