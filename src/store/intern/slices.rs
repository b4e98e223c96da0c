//! Distinct slices, each stored once: kept end to end in one buffer, numbered in the order they
//! were first seen, and found by a table that holds their numbers and 32 bits of their hashes
//! (where a slice stands is read from where it and the one before end). No allocation per slice:
//! the strings of a store and the sets of them both number in the hundreds of thousands, and
//! millions at five million events. Each costs the eight bytes of its end, and about 12 to 26
//! bytes of table (an 8-byte slot, with the table kept between five sixteenths and eleven
//! sixteenths full).

use std::hash::{BuildHasher, Hash};

use rustc_hash::FxBuildHasher;

use crate::store::memory::prefetch::prefetch;

/// What a slice is made of.
pub trait Item: Copy + Eq + Hash {
    /// Whether two slices are equal.
    fn same(a: &[Self], b: &[Self]) -> bool {
        a == b
    }
}

impl Item for super::Sym {}

impl Item for u8 {
    /// Interned strings are mostly short, and a call to `memcmp` per lookup costs more than
    /// comparing them inline, eight bytes at a time.
    #[inline]
    fn same(a: &[u8], b: &[u8]) -> bool {
        let n = a.len();
        if n != b.len() {
            return false;
        }
        if n > 32 {
            return a == b;
        }
        if n < 8 {
            return a.iter().zip(b).all(|(x, y)| x == y);
        }
        let word =
            |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        // Whole words, then the last eight bytes (overlapping the one before).
        let mut i = 0;
        while i + 8 < n {
            if word(a, i) != word(b, i) {
                return false;
            }
            i += 8;
        }
        word(a, n - 8) == word(b, n - 8)
    }
}

#[derive(Debug)]
pub struct Slices<T> {
    items: Vec<T>,
    /// Where each slice ends in `items` (slice `n` starts where `n - 1` ends).
    ends: Vec<usize>,
    table: Table,
}

/// 32 bits of the hash of a slice's items. The table's hash is spread out from these alone, so
/// it can be made again from what the table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Hashed(u32);

const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hashed {
    fn of<T: Item>(s: &[T]) -> Hashed {
        // Mixed once more, for each of these 32 bits to depend on many bits of the hash: bit
        // `32 + j` of the product depends on the hash's bits up to `32 + j`, which FxHasher's
        // final rotation fills with its best mixed bits. (The table picks a slot by the top bits
        // of these, spread once more: see `Table::home`.)
        Hashed((FxBuildHasher.hash_one(s).wrapping_mul(SPREAD) >> 32) as u32)
    }
}

/// Finds a slice's number by its items: open addressing with linear probing, each slot holding
/// a slice's number and its hash. A lookup reads the slots from the one the hash picks (a cache
/// line holds eight) and, where the whole hash matches, where the slice and the one before it
/// end, then its items. Growing moves slots without reading a slice.
/// Nothing is ever removed, and the table is never more than three quarters full: a lookup
/// always ends, at its slice or at an empty slot.
///
/// It grows without a pause. Once it is five eighths full, the table twice its size is made
/// ready a few slots at each slice interned ([`PREPARED_PER_LOOKUP`]), while this one goes on
/// taking slices; then this one is kept aside (`old`) while the new one takes the slices that
/// come, and its slots are moved into the new one a few at each slice interned
/// ([`MOVED_PER_LOOKUP`]); a lookup reads both meanwhile. A store's table of millions of strings,
/// moved at once, held the merge (on the UI thread) for a long pause, and so did writing the
/// empty slots of a new table of 128 MiB at once (its fresh pages faulted in one by one).
#[derive(Debug, Default)]
struct Table {
    /// A power of two of them, or none before the first slice.
    slots: Vec<Slot>,
    /// How many slices the table holds, in `slots` and in `old`.
    len: usize,
    /// The table before, while its slots are moved into `slots`: those before `moved` are.
    old: Vec<Slot>,
    moved: usize,
    /// The next table, while it is made ready: its slots written so far, all empty, within room
    /// for all of them (nothing before the table is five eighths full).
    next: Vec<Slot>,
}

/// How many empty slots of the next table are written at each slice interned (new or known)
/// once the table is five eighths full: the next table has twice as many slots, so it is ready
/// after a sixteenth of the table's size in lookups, when the table is at most eleven sixteenths
/// full. Should it fill faster than that (it cannot, a new slice taking a lookup), at three
/// quarters full the rest is written at once. (A merge makes room before it looks ahead, and
/// again as it takes each slice: it writes twice as many a slice.)
const PREPARED_PER_LOOKUP: usize = 32;

/// How many slots of the table before are moved at each slice interned (new or known) while the
/// table grows: the new table takes at least half the old one's size in new slices before it
/// grows in turn (it is switched to at three quarters of the old one's fill at most, and grows
/// at five eighths of its own), and the old one is moved after an eighth of its size in
/// lookups, so
/// that it is not held longer than needed (where most slices interned are known already, as in
/// a store late in a load, moving only as new ones come would hold it to the end).
const MOVED_PER_LOOKUP: usize = 8;

/// Eight bytes, where a slot that also told where its slice stands took sixteen: at five
/// million events a store's table has 16 million slots, and growing it holds the table before
/// beside the new one for a while. Where the slice stands costs one more read when the hash
/// matches, of its end and the one before, side by side.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(8))]
struct Slot {
    hash: Hashed,
    /// The slice's number; 0 in an empty slot (slice 0, the empty slice, is never in the table).
    n: u32,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 8);

impl Table {
    /// The slot a hash looks from: the top bits of its spread, for a table of `slots` slots.
    fn home(hash: Hashed, slots: usize) -> usize {
        let spread = u64::from(hash.0).wrapping_mul(SPREAD);
        (spread >> (64 - slots.trailing_zeros())) as usize
    }

    /// Walks from `hash`'s home slot: `Ok(n)` at the first slot with this hash for which `is`
    /// holds, `Err(i)` at the first empty slot (where that slice would go). The table must have
    /// a slot; it has an empty one, being never more than three quarters full.
    fn probe(&self, hash: Hashed, is: impl Fn(Slot) -> bool) -> Result<u32, usize> {
        debug_assert!(
            self.len * 4 <= self.slots.len() * 3,
            "a table too full to probe"
        );
        let empty = match Table::probe_in(&self.slots, hash, &is) {
            Ok(n) => return Ok(n),
            Err(empty) => empty,
        };
        // A slice not moved yet out of the table before is there (one moved is in `slots`).
        if !self.old.is_empty()
            && let Ok(n) = Table::probe_in(&self.old, hash, &is)
        {
            return Ok(n);
        }
        Err(empty)
    }

    /// [`Table::probe`] in `slots` alone, which has an empty slot.
    fn probe_in(slots: &[Slot], hash: Hashed, is: impl Fn(Slot) -> bool) -> Result<u32, usize> {
        let mask = slots.len() - 1;
        let mut i = Table::home(hash, slots.len());
        loop {
            let slot = slots[i];
            if slot.n == 0 {
                return Err(i);
            }
            if slot.hash == hash && is(slot) {
                return Ok(slot.n);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `more` slices, keeping at most five slots in eight full but while the
    /// next table is made ready (the longer runs of a fuller table cost more than the memory
    /// saved).
    #[inline]
    fn reserve(&mut self, more: usize) {
        let needed = self.len + more;
        if needed * 8 > self.slots.len() * 5 {
            self.grow(needed);
        }
    }

    /// Makes more of the table that will take `needed` slices ready, and once it is, sets the
    /// table aside for it, its slots to be moved a few at a time ([`Table::move_some`]). The
    /// table takes the slices meanwhile, up to three quarters full.
    #[cold]
    fn grow(&mut self, needed: usize) {
        let size = (needed * 8 / 5 + 1).next_power_of_two().max(16);
        if self.next.capacity() < size {
            self.next = Vec::with_capacity(size);
        }
        let ready = if needed * 4 > self.slots.len() * 3 {
            size
        } else {
            (self.next.len() + PREPARED_PER_LOOKUP).min(size)
        };
        self.next.resize(ready, Slot::default());
        if ready < size {
            return;
        }
        // The table before last, if any is left, is moved first: the new one counts on
        // holding every slice.
        self.move_some(usize::MAX);
        let next = std::mem::take(&mut self.next);
        self.old = std::mem::replace(&mut self.slots, next);
        self.moved = 0;
    }

    /// Moves up to `n` more slots of the table before into the table, and drops it once every
    /// one is moved. A slot is moved without reading its slice.
    fn move_some(&mut self, n: usize) {
        if self.old.is_empty() {
            return;
        }
        let end = self.moved.saturating_add(n).min(self.old.len());
        let mask = self.slots.len() - 1;
        for &slot in &self.old[self.moved..end] {
            if slot.n != 0 {
                let mut i = Table::home(slot.hash, self.slots.len());
                while self.slots[i].n != 0 {
                    i = (i + 1) & mask;
                }
                self.slots[i] = slot;
            }
        }
        self.moved = end;
        if end == self.old.len() {
            self.old = Vec::new();
            self.moved = 0;
        }
    }

    /// Asks for the slot `hash` looks from to be brought into the cache.
    fn prefetch_home(&self, hash: Hashed) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[Table::home(hash, self.slots.len())]);
        }
    }

    /// The number in the slot `hash` looks from, when that slot holds this hash (the table must
    /// have a slot).
    fn at_home(&self, hash: Hashed) -> Option<u32> {
        let slot = self.slots[Table::home(hash, self.slots.len())];
        (slot.n != 0 && slot.hash == hash).then_some(slot.n)
    }
}

/// Slice 0 is the empty slice.
impl<T> Default for Slices<T> {
    fn default() -> Self {
        Slices {
            items: Vec::new(),
            ends: vec![0],
            table: Table::default(),
        }
    }
}

impl<T> Slices<T> {
    /// Forgets every slice but the empty one, keeping the memory for the next ones.
    pub fn clear(&mut self) {
        self.items.clear();
        self.ends.truncate(1);
        self.table.slots.fill(Slot::default());
        self.table.len = 0;
        self.table.old = Vec::new();
        self.table.moved = 0;
        self.table.next = Vec::new();
    }
}

/// Slice `n` of a buffer and its ends.
#[inline]
fn slice_of<'s, T>(items: &'s [T], ends: &[usize], n: u32) -> &'s [T] {
    let n = n as usize;
    let start = if n == 0 { 0 } else { ends[n - 1] };
    &items[start..ends[n]]
}

impl<T: Item> Slices<T> {
    /// The number of `s`, given now if it is new.
    pub fn intern(&mut self, s: &[T]) -> u32 {
        let Ok(n) = self.intern_checked(s, |_| Ok::<(), std::convert::Infallible>(()));
        n
    }

    /// The number of `s`, given now if it is new and `check` accepts it (a slice already
    /// numbered is not checked again).
    pub fn intern_checked<E>(
        &mut self,
        s: &[T],
        check: impl FnOnce(&[T]) -> Result<(), E>,
    ) -> Result<u32, E> {
        self.intern_hashed(s, Hashed::of(s), check)
    }

    /// [`Slices::intern_checked`] of `s`, whose hash is `h`.
    fn intern_hashed<E>(
        &mut self,
        s: &[T],
        h: Hashed,
        check: impl FnOnce(&[T]) -> Result<(), E>,
    ) -> Result<u32, E> {
        self.table.reserve(1);
        self.table.move_some(MOVED_PER_LOOKUP);
        match self.probe(s, h) {
            Ok(n) => Ok(n),
            Err(empty) => {
                check(s)?;
                Ok(self.add(s, h, empty))
            }
        }
    }

    /// The numbers of every slice of `other` from number `from` on (slice 0, the empty slice,
    /// is never looked up: `from` 0 is taken as 1), each given now if it is new. They are looked
    /// up one after the other, but the memory each lookup reads is asked for several slices
    /// ahead, so that waiting for one overlaps with waiting for others: a store's table is too
    /// large for the cache.
    pub fn intern_all_from(&mut self, other: &Slices<T>, from: usize) -> Vec<u32> {
        /// How many slices ahead the slot a slice looks from is asked for, how many ahead the
        /// ends of the slice found there, and how many ahead its items.
        const SLOT_AHEAD: usize = 24;
        const ENDS_AHEAD: usize = 16;
        const ITEMS_AHEAD: usize = 8;
        let from = from.max(1);
        let slices: Vec<&[T]> = other.from(from).collect();
        let hashes: Vec<Hashed> = slices.iter().map(|s| Hashed::of(s)).collect();
        let mut numbers = Vec::with_capacity(slices.len());
        for (i, (s, &h)) in slices.iter().zip(&hashes).enumerate() {
            // Room for one more at a time, as `intern_hashed` makes it (and before the table's
            // slots are read below): most of a batch's strings are often known already, and
            // room for all of them could double the table for nothing. (Growing only loses what
            // was asked for ahead.)
            self.table.reserve(1);
            if let Some(&ahead) = hashes.get(i + SLOT_AHEAD) {
                self.table.prefetch_home(ahead);
            }
            if let Some(&ahead) = hashes.get(i + ENDS_AHEAD)
                && let Some(n) = self.table.at_home(ahead)
            {
                // Slice `n` starts where `n - 1` ends.
                prefetch(&self.ends[n as usize - 1]);
            }
            if let Some(&ahead) = hashes.get(i + ITEMS_AHEAD)
                && let Some(n) = self.table.at_home(ahead)
                && let Some(item) = self.items.get(self.ends[n as usize - 1])
            {
                prefetch(item);
            }
            let no_check = |_: &[T]| Ok::<(), std::convert::Infallible>(());
            let Ok(n) = self.intern_hashed(s, h, no_check);
            numbers.push(n);
        }
        numbers
    }

    /// The number of `s`, if it has one.
    pub fn find(&self, s: &[T]) -> Option<u32> {
        if self.table.slots.is_empty() {
            return None;
        }
        self.probe(s, Hashed::of(s)).ok()
    }

    /// The number of `s`, whose hash is `h`, or the empty slot where it would go; the items are
    /// compared only when the whole hash matches.
    fn probe(&self, s: &[T], h: Hashed) -> Result<u32, usize> {
        let (items, ends) = (&self.items, &self.ends);
        self.table
            .probe(h, |slot| T::same(slice_of(items, ends, slot.n), s))
    }

    /// Numbers `s`, whose hash is `h`, in the empty slot `empty` (room was made for it).
    fn add(&mut self, s: &[T], h: Hashed, empty: usize) -> u32 {
        let n = u32::try_from(self.ends.len()).expect("fewer than 2^32 distinct slices");
        self.items.extend_from_slice(s);
        self.ends.push(self.items.len());
        debug_assert_eq!(self.table.slots[empty].n, 0, "a slot taken twice");
        self.table.slots[empty] = Slot { hash: h, n };
        self.table.len += 1;
        n
    }

    /// Slice `n`; empty for a number never given.
    pub fn get(&self, n: u32) -> &[T] {
        if n as usize >= self.ends.len() {
            return &[];
        }
        slice_of(&self.items, &self.ends, n)
    }

    /// Every slice from number `from` on, in order.
    pub fn from(&self, from: usize) -> impl Iterator<Item = &[T]> + '_ {
        (from..self.ends.len()).map(|n| slice_of(&self.items, &self.ends, n as u32))
    }

    /// Every slice end to end, and where each ends in that buffer.
    pub fn parts(&self) -> (&[T], &[usize]) {
        (&self.items, &self.ends)
    }

    /// The number of slices, the empty one included.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.len() <= 1
    }
}

#[cfg(test)]
impl<T> Slices<T> {
    /// The bytes its items, the ends of its slices and its tables (the one in use, the one
    /// before while it is moved, the next while it is made ready) hold.
    pub(in crate::store) fn heap(&self) -> [crate::store::footprint::Bytes; 3] {
        use crate::store::footprint::Bytes;
        [
            Bytes::of(&self.items),
            Bytes::of(&self.ends),
            Bytes::table(&self.table.slots)
                + Bytes::table(&self.table.old)
                + Bytes::of(&self.table.next),
        ]
    }
}

#[cfg(test)]
mod tests;
