//! Groupings with few groups (by error, SDK, OS...): one pass over the shown events counts each
//! group whole, its distinct peers and rooms included, and keeps each event's group in a byte.
//! No list by group is made: a group's events are found in the bytes when they are asked for,
//! and the sparklines of all groups are counted together, once for each width.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use super::*;

/// At most this many groups are counted in one pass: a bit each in a symbol's mark.
pub(super) const FEW: usize = 32;

/// In [`Few::column`]: the event is not shown.
const NOT_SHOWN: u8 = u8::MAX;

/// What a grouping with few groups keeps in place of lists by group.
#[derive(Debug, Clone, Default)]
pub(super) struct Few {
    /// By store index, the number of the event's group ([`NOT_SHOWN`] for an event not shown).
    column: Vec<u8>,
    /// By store index, the time of each shown event: the sparklines read it here, 8 bytes an
    /// event, rather than from rows of 104.
    times: Vec<i64>,
    /// The number in `column` of each group, by place.
    number: Vec<u8>,
    /// Each group's events, by place, once asked for.
    pub(super) members: Vec<OnceLock<Vec<u32>>>,
    /// Each group's count of events, by place: the length of its list of events.
    counts: Vec<u32>,
}

/// What the pass counts of a group.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tally {
    pub(super) count: u32,
    pub(super) finals: u32,
    pub(super) peers: u32,
    pub(super) rooms: u32,
    /// [`NO_TIME`] both when no event has a time; `first` is `i64::MAX` while counting.
    pub(super) first: i64,
    pub(super) last: i64,
    pub(super) display: Sym,
}

impl Tally {
    const ZERO: Tally = Tally {
        count: 0,
        finals: 0,
        peers: 0,
        rooms: 0,
        first: i64::MAX,
        last: NO_TIME,
        display: Sym::NONE,
    };

    /// Adds the counts of a later slice of the same group.
    fn add(&mut self, later: &Tally) {
        self.count += later.count;
        self.finals += later.finals;
        self.peers += later.peers;
        self.rooms += later.rooms;
        self.first = self.first.min(later.first);
        self.last = self.last.max(later.last);
        if self.display.is_none() {
            self.display = later.display;
        }
    }
}

/// The groups of a grouping with few groups, by place (the order their first events were met).
pub(super) struct Counted {
    pub(super) values: Vec<GroupValue>,
    pub(super) tallies: Vec<Tally>,
    pub(super) few: Few,
}

/// What a slice of the shown events met: the numbers of its groups, in the order it met them,
/// and the tally of each number.
struct SliceCount {
    met: Vec<u8>,
    tallies: [Tally; FEW],
}

/// The values numbered so far, shared by the slices: a value's number is its place here.
struct Numbers {
    values: Mutex<Vec<GroupValue>>,
    /// Set once there are more than [`FEW`] values, or the shown events are not in load
    /// order: every slice stops.
    given_up: AtomicBool,
}

impl Numbers {
    fn number(&self, value: GroupValue) -> Option<u8> {
        let mut values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        let n = match values.iter().position(|v| *v == value) {
            Some(n) => n,
            None => {
                values.push(value);
                values.len() - 1
            }
        };
        if n >= FEW {
            self.given_up.store(true, Relaxed);
            return None;
        }
        Some(n as u8)
    }
}

/// Marks by symbol: bit `n` set once group `n` counted the symbol.
struct Marks(Vec<AtomicU32>);

impl Marks {
    /// Marks made of `zeroed`, a list of zeros.
    fn new(zeroed: Vec<u32>) -> Marks {
        let zeroed = std::mem::ManuallyDrop::new(zeroed);
        let (ptr, len, capacity) = (zeroed.as_ptr() as *mut u32, zeroed.len(), zeroed.capacity());
        const { assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>()) };
        // SAFETY: `AtomicU32` has the size and bit validity of `u32` and, as asserted, its
        // alignment; the allocation is handed over whole, with its length and capacity, and
        // the `u32` vector that owned it is never dropped.
        Marks(unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU32>(), len, capacity) })
    }

    /// Marks `sym` for group `n`; whether it was not marked for it before, by any slice.
    #[inline]
    fn first(&self, sym: Sym, n: u8) -> bool {
        let bit = 1u32 << n;
        let mark = &self.0[sym.0 as usize];
        mark.load(Relaxed) & bit == 0 && mark.fetch_or(bit, Relaxed) & bit == 0
    }
}

/// Whether `shown` of a store of `events` are many enough for the one pass: it keeps a byte and
/// a time for every event of the store, shown or not, and finds a group's events by reading
/// every byte. Where they are fewer than a quarter of the store (a room's events of millions),
/// the lists by group cost what the shown events do, and the pass what the store does.
pub(super) fn suits(events: usize, shown: usize) -> bool {
    shown > 0 && shown.saturating_mul(4) >= events
}

/// The shown events grouped in one pass, when they are many enough (see [`suits`]), make at
/// most [`FEW`] groups and are in load order; `None` otherwise (the lists by group are made
/// then).
pub(super) fn count(store: &Store, shown: &[u32], key: GroupKey, parts: usize) -> Option<Counted> {
    if !suits(store.len(), shown.len()) {
        return None;
    }
    let rows = store.rows();
    let symbols = store.strings().len();
    let named = Named::of(store);
    let step = slice_len(shown.len(), parts);
    let numbers = Numbers {
        values: Mutex::new(Vec::new()),
        given_up: AtomicBool::new(false),
    };
    // The peers' marks are read far apart, nearly every page read, then written: they are
    // written first where the shown events are many (see `zeros_for`), as they are nearly
    // wherever the pass runs (from a quarter of the events; a store holds somewhat more strings
    // than events as a rule). The rooms' marks written first too did not measure faster (key e
    // at 5M events): zeroed memory from the system, faulted in as it is touched.
    let peer_marks = Marks::new(crate::memory::zeros_for(symbols, shown.len()));
    let room_marks = Marks::new(vec![0; symbols]);
    let mut column = vec![NOT_SHOWN; rows.len()];
    // Zeroed memory from the system, written where an event is shown.
    let mut times = vec![0i64; rows.len()];
    // Each slice writes the part of the columns from its first event to the next slice's.
    let mut parts_of_column = Vec::new();
    {
        let (mut rest, mut rest_times) = (&mut column[..], &mut times[..]);
        let mut at = 0usize;
        for slice in shown.chunks(step).skip(1) {
            let cut = (slice[0] as usize).checked_sub(at)?.min(rest.len());
            let (part, more) = rest.split_at_mut(cut);
            let (part_times, more_times) = rest_times.split_at_mut(cut);
            parts_of_column.push((part, part_times, at));
            (rest, rest_times) = (more, more_times);
            at += cut;
        }
        parts_of_column.push((rest, rest_times, at));
    }
    type Part<'a> = (&'a mut [u8], &'a mut [i64], usize);
    let count_slice = |(slice, (column, times, base)): (&[u32], Part)| {
        let mut index = Index::new(key, symbols);
        let mut local: Vec<u8> = Vec::new();
        let mut out = SliceCount {
            met: Vec::new(),
            tallies: [Tally::ZERO; FEW],
        };
        let mut previous = None;
        // The peer and room last marked, with their group: events of a peer often follow
        // one another, and their marks need not be read again.
        let (mut last_peer, mut last_room) = ((Sym::NONE, 0u8), (Sym::NONE, 0u8));
        for &i in slice {
            // Events out of load order: their groups' events would not be found in it.
            if previous.is_some_and(|p| p >= i) {
                numbers.given_up.store(true, Relaxed);
                return None;
            }
            previous = Some(i);
            let row = &rows[i as usize];
            let value = key.value_of(store, row);
            let l = index.get_or_insert(value, local.len() as u32) as usize;
            if l == local.len() {
                if numbers.given_up.load(Relaxed) {
                    return None;
                }
                let n = numbers.number(value)?;
                local.push(n);
                out.met.push(n);
            }
            let n = local[l];
            let at = (i as usize).checked_sub(base)?;
            *column.get_mut(at)? = n;
            times[at] = row.ts;
            let t = &mut out.tallies[n as usize];
            t.count += 1;
            t.finals += u32::from(row.is_terminal() == Some(true));
            if row.ts != NO_TIME {
                t.first = t.first.min(row.ts);
                t.last = t.last.max(row.ts);
            }
            if t.display.is_none() {
                t.display = key.display_of(row);
            }
            if (row.peer_id, n) != last_peer && named.names(row.peer_id) {
                last_peer = (row.peer_id, n);
                t.peers += u32::from(peer_marks.first(row.peer_id, n));
            }
            if (row.room_id, n) != last_room && named.names(row.room_id) {
                last_room = (row.room_id, n);
                t.rooms += u32::from(room_marks.first(row.room_id, n));
            }
        }
        Some(out)
    };
    let slices: Vec<SliceCount> = if parts_of_column.len() > 1 {
        shown
            .par_chunks(step)
            .zip(parts_of_column)
            .map(count_slice)
            .collect::<Option<_>>()?
    } else {
        shown
            .chunks(step)
            .zip(parts_of_column)
            .map(count_slice)
            .collect::<Option<_>>()?
    };
    if numbers.given_up.load(Relaxed) {
        return None;
    }
    let values = numbers
        .values
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    // Places in the order the groups were first met, slice after slice.
    let mut number = Vec::with_capacity(values.len());
    for slice in &slices {
        for &n in &slice.met {
            if !number.contains(&n) {
                number.push(n);
            }
        }
    }
    let tallies: Vec<Tally> = number
        .iter()
        .map(|&n| {
            let mut tally = Tally::ZERO;
            for slice in &slices {
                tally.add(&slice.tallies[n as usize]);
            }
            if tally.last == NO_TIME {
                tally.first = NO_TIME;
            }
            tally
        })
        .collect();
    let counts = tallies.iter().map(|t| t.count).collect();
    Some(Counted {
        values: number.iter().map(|&n| values[n as usize]).collect(),
        tallies,
        few: Few {
            column,
            times,
            members: vec![OnceLock::new(); number.len()],
            counts,
            number,
        },
    })
}

impl Few {
    /// The shown indices of the group at place `p`, in load order. The first asked for is made
    /// alone, in one pass over the column: opening the view asks for the largest group's events
    /// only (its facets). A second asked for makes every other group's at once: what asks for
    /// one group's events after another (its share of chains that got through, counted for each
    /// group in turn) asks for the rest next, and a pass for each would read the store's column
    /// once a group. Each list is made at its length, counted in the pass that grouped.
    pub(super) fn members(&self, p: usize) -> &[u32] {
        if self.members[p].get().is_none() {
            let made_before = self.members.iter().any(|m| m.get().is_some());
            // The numbers whose lists are made now, and each list.
            let mut wanted = [false; 256];
            let mut by_number: Vec<Vec<u32>> = vec![Vec::new(); FEW];
            for (q, &n) in self.number.iter().enumerate() {
                if (q == p || made_before) && self.members[q].get().is_none() {
                    wanted[usize::from(n)] = true;
                    by_number[usize::from(n)] = Vec::with_capacity(self.counts[q] as usize);
                }
            }
            if !made_before {
                let n = self.number[p];
                let list = &mut by_number[usize::from(n)];
                list.extend(
                    self.column
                        .iter()
                        .enumerate()
                        .filter(|&(_, &b)| b == n)
                        .map(|(i, _)| i as u32),
                );
            } else {
                for (i, &b) in self.column.iter().enumerate() {
                    if wanted[usize::from(b)] {
                        by_number[usize::from(b)].push(i as u32);
                    }
                }
            }
            for (q, &n) in self.number.iter().enumerate() {
                if wanted[usize::from(n)] {
                    // Made by another thread meanwhile, it is the same list.
                    let _ = self.members[q].set(std::mem::take(&mut by_number[usize::from(n)]));
                }
            }
        }
        self.members[p].get().map_or(&[], Vec::as_slice)
    }

    /// The events of every group counted over `buckets` slices of `lo..=hi`, by place, each
    /// group's `buckets` counts after the one before's.
    pub(super) fn sparklines(&self, (lo, hi): (i64, i64), buckets: usize) -> Vec<u32> {
        let groups = self.number.len();
        let mut by_number = [0usize; FEW];
        for (p, &n) in self.number.iter().enumerate() {
            by_number[n as usize] = p;
        }
        let bucket = Bucket::new(lo, hi, buckets);
        let count = |(column, times): (&[u8], &[i64])| {
            let mut counts = vec![0u32; groups * buckets];
            for (&n, &t) in column.iter().zip(times) {
                if n != NOT_SHOWN && t != NO_TIME {
                    counts[by_number[n as usize] * buckets + bucket.of(t)] += 1;
                }
            }
            counts
        };
        let step = slice_len(self.column.len(), parts_for(self.column.len()));
        self.column
            .par_chunks(step)
            .zip(self.times.par_chunks(step))
            .map(count)
            .reduce(
                || vec![0u32; groups * buckets],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                    a
                },
            )
    }
}

/// The bucket of a time among `buckets` equal slices of `lo..=hi`: `(t - lo) * buckets /
/// width`, exactly. In 64 bits when the product cannot overflow them (a span of under 36 years
/// at 16 buckets): a 128-bit division for each event took longer than the rest of the count.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bucket {
    lo: i64,
    width: u64,
    n: u64,
    narrow: bool,
}

impl Bucket {
    pub(super) fn new(lo: i64, hi: i64, buckets: usize) -> Bucket {
        let width = hi.abs_diff(lo) + 1;
        let n = buckets as u64;
        Bucket {
            lo,
            width,
            n,
            narrow: width.checked_mul(n).is_some(),
        }
    }

    #[inline]
    pub(super) fn of(&self, t: i64) -> usize {
        let off = t.abs_diff(self.lo);
        let b = if self.narrow {
            off * self.n / self.width
        } else {
            (u128::from(off) * u128::from(self.n) / u128::from(self.width)) as u64
        };
        b as usize
    }
}
