//! Distinct slices, each stored once: kept end to end in one buffer, numbered in the order they
//! were first seen, and found by a table that holds their numbers, 32 bits of their hashes and
//! where they stand. No allocation per slice, and a few bytes of overhead each: the strings of a
//! store and the sets of them both number in the hundreds of thousands.

use std::hash::{BuildHasher, Hash};

use rustc_hash::FxBuildHasher;

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
        // Mixed once more, for the low bits of these 32 to depend on many bits of the hash: bit
        // `32 + j` of the product depends on the hash's bits up to `32 + j`, which FxHasher's
        // final rotation fills with its best mixed bits.
        Hashed((FxBuildHasher.hash_one(s).wrapping_mul(SPREAD) >> 32) as u32)
    }
}

/// Finds a slice's number by its items: open addressing with linear probing, each slot holding
/// a slice's number, its hash and where its items stand. A lookup reads the slots from the one
/// the hash picks (a cache line holds four) and, where the whole hash matches, the items: nothing
/// else. Growing moves slots without reading a slice.
#[derive(Debug, Default)]
struct Table {
    /// A power of two of them, or none before the first slice.
    slots: Vec<Slot>,
    /// How many slots hold a slice.
    len: usize,
}

#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
struct Slot {
    hash: Hashed,
    /// The slice's number; 0 in an empty slot (slice 0, the empty slice, is never in the table).
    n: u32,
    /// Where the slice's items start, shifted left by [`LEN_BITS`], and its length, or
    /// [`LONG`] for a length of that or more (read from `ends` then).
    at: u64,
}

const LEN_BITS: u32 = 24;
const LONG: u64 = (1 << LEN_BITS) - 1;

impl Slot {
    fn new(hash: Hashed, n: u32, start: usize, len: usize) -> Slot {
        let start = u64::try_from(start)
            .ok()
            .filter(|&s| s < 1 << (64 - LEN_BITS))
            .expect("fewer than 2^40 items of distinct slices");
        Slot {
            hash,
            n,
            at: start << LEN_BITS | (len as u64).min(LONG),
        }
    }

    fn start(self) -> usize {
        (self.at >> LEN_BITS) as usize
    }

    /// The slice's items.
    fn of<'s, T>(self, items: &'s [T], ends: &[usize]) -> &'s [T] {
        let start = self.start();
        let end = match self.at & LONG {
            LONG => ends[self.n as usize],
            len => start + len as usize,
        };
        &items[start..end]
    }
}

impl Table {
    /// The slot a hash looks from: the top bits of its spread, for a table of `slots` slots.
    fn home(hash: Hashed, slots: usize) -> usize {
        let spread = u64::from(hash.0).wrapping_mul(SPREAD);
        (spread >> (64 - slots.trailing_zeros())) as usize
    }

    /// The number of the slice `is` holds true for among those whose hash is `hash`, or the
    /// empty slot where it would go. The table must have a slot.
    fn probe(&self, hash: Hashed, is: impl Fn(Slot) -> bool) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = Table::home(hash, self.slots.len());
        loop {
            let slot = self.slots[i];
            if slot.n == 0 {
                return Err(i);
            }
            if slot.hash == hash && is(slot) {
                return Ok(slot.n);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `more` slices without growing again, keeping at most five slots in eight
    /// full (the longer runs of a fuller table cost more than the memory saved).
    #[inline]
    fn reserve(&mut self, more: usize) {
        let needed = self.len + more;
        if needed * 8 > self.slots.len() * 5 {
            self.grow(needed);
        }
    }

    /// Moves every slot into a table with room for `needed` slices.
    #[cold]
    fn grow(&mut self, needed: usize) {
        let size = (needed * 8 / 5 + 1).next_power_of_two().max(16);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.n != 0) {
            let mut i = Table::home(slot.hash, size);
            while self.slots[i].n != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }

    /// Asks for the slot `hash` looks from to be brought into the cache.
    fn prefetch_home(&self, hash: Hashed) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[Table::home(hash, self.slots.len())]);
        }
    }
}

/// Asks for the cache line holding `value` to be read ahead of its use.
#[inline]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault; the pointer is a
    // reference's.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
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

/// Slice `n` of a buffer and its ends.
fn slice_of<'s, T>(items: &'s [T], ends: &[usize], n: u32) -> &'s [T] {
    let n = n as usize;
    let start = if n == 0 { 0 } else { ends[n - 1] };
    &items[start..ends[n]]
}

impl<T: Item> Slices<T> {
    /// The number of `s`, given now if it is new.
    pub fn intern(&mut self, s: &[T]) -> u32 {
        match self.intern_checked(s, |_| Ok::<(), std::convert::Infallible>(())) {
            Ok(n) => n,
        }
    }

    /// The number of `s`, given now if it is new and `check` accepts it (a slice already
    /// numbered is not checked again).
    pub fn intern_checked<E>(
        &mut self,
        s: &[T],
        check: impl FnOnce(&[T]) -> Result<(), E>,
    ) -> Result<u32, E> {
        let h = Hashed::of(s);
        self.table.reserve(1);
        let empty = match self.probe(s, h) {
            Ok(n) => return Ok(n),
            Err(empty) => empty,
        };
        check(s)?;
        Ok(self.add(s, h, empty))
    }

    /// The numbers of every slice of `other` from number `from` on, each given now if it is
    /// new. Several slices are looked up at once, so that waiting for the memory of one table
    /// slot overlaps with waiting for others: a store's table is too large for the cache.
    pub fn intern_all_from(&mut self, other: &Slices<T>, from: usize) -> Vec<u32> {
        /// How many slices ahead the slot a slice looks from is asked for, and how many ahead
        /// the items of the slice found there.
        const SLOT_AHEAD: usize = 16;
        const ITEMS_AHEAD: usize = 8;
        let from = from.max(1);
        let slices: Vec<&[T]> = other.from(from).collect();
        let hashes: Vec<Hashed> = slices.iter().map(|s| Hashed::of(s)).collect();
        self.table.reserve(slices.len());
        let mut numbers = Vec::with_capacity(slices.len());
        for (i, (s, &h)) in slices.iter().zip(&hashes).enumerate() {
            if let Some(&ahead) = hashes.get(i + SLOT_AHEAD) {
                self.table.prefetch_home(ahead);
            }
            if let Some(&ahead) = hashes.get(i + ITEMS_AHEAD) {
                let slot = self.table.slots[Table::home(ahead, self.table.slots.len())];
                if slot.n != 0
                    && slot.hash == ahead
                    && let Some(item) = self.items.get(slot.start())
                {
                    prefetch(item);
                }
            }
            numbers.push(match self.probe(s, h) {
                Ok(n) => n,
                Err(empty) => self.add(s, h, empty),
            });
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
        self.table.probe(h, |slot| T::same(slot.of(items, ends), s))
    }

    /// Numbers `s`, whose hash is `h`, in the empty slot `empty` (room was made for it).
    fn add(&mut self, s: &[T], h: Hashed, empty: usize) -> u32 {
        let n = u32::try_from(self.ends.len()).expect("fewer than 2^32 distinct slices");
        let start = self.items.len();
        self.items.extend_from_slice(s);
        self.ends.push(self.items.len());
        self.table.slots[empty] = Slot::new(h, n, start, s.len());
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
mod tests {
    use super::super::Sym;
    use super::*;

    #[test]
    fn each_distinct_slice_is_numbered_once_and_read_back_whole() {
        let mut sets: Slices<Sym> = Slices::default();
        let a = sets.intern(&[Sym(1), Sym(4)]);
        let b = sets.intern(&[Sym(1), Sym(4), Sym(9)]);
        let c = sets.intern(&[Sym(4)]);
        assert_eq!(sets.intern(&[Sym(1), Sym(4)]), a);
        assert_eq!(sets.find(&[Sym(1), Sym(4), Sym(9)]), Some(b));
        assert_eq!(sets.find(&[Sym(9)]), None);
        assert_eq!((a, b, c), (1, 2, 3));
        assert_eq!(sets.len(), 4);
        assert_eq!(sets.get(0), &[] as &[Sym]);
        assert_eq!(sets.get(b), &[Sym(1), Sym(4), Sym(9)]);
        assert_eq!(sets.get(c), &[Sym(4)]);
        assert_eq!(sets.get(99), &[] as &[Sym]);
        let from_two: Vec<&[Sym]> = sets.from(2).collect();
        assert_eq!(from_two, [&[Sym(1), Sym(4), Sym(9)][..], &[Sym(4)][..]]);
        // Slice 0 is not found: an empty slice interned is a slice of its own.
        assert_eq!(sets.find(&[]), None);
        assert_eq!(sets.intern(&[]), 4);
        assert_eq!(sets.get(4), &[] as &[Sym]);
    }

    #[test]
    fn bytes_of_every_length_up_to_forty_compare_equal_only_to_themselves() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=40 {
            let a = &base[..n];
            assert!(u8::same(a, a));
            assert!(!u8::same(a, &base[..n.saturating_sub(1)]) || n == 0);
            for k in 0..n {
                let mut b = a.to_vec();
                b[k] ^= 0x20;
                assert!(!u8::same(a, &b), "{n} {k}");
            }
        }
    }

    #[test]
    fn interning_all_of_another_gives_the_numbers_one_by_one_would() {
        let words = |range: std::ops::Range<u32>| -> Vec<String> {
            range
                .map(|n| format!("word-{}", n * 7919 % 10_007))
                .collect()
        };
        // A table that already holds some of them, and grows while taking the rest.
        let mut all: Slices<u8> = Slices::default();
        let mut one_by_one: Slices<u8> = Slices::default();
        for w in words(0..300) {
            all.intern(w.as_bytes());
            one_by_one.intern(w.as_bytes());
        }
        let mut other: Slices<u8> = Slices::default();
        let mut theirs = words(200..5_000);
        theirs.push(String::new());
        theirs.push("x".repeat(100));
        for w in &theirs {
            other.intern(w.as_bytes());
        }
        let numbers = all.intern_all_from(&other, 1);
        let expected: Vec<u32> = theirs
            .iter()
            .map(|w| one_by_one.intern(w.as_bytes()))
            .collect();
        assert_eq!(numbers, expected);
        assert_eq!(all.len(), one_by_one.len());
        for (w, n) in theirs.iter().zip(&numbers) {
            assert_eq!(all.get(*n), w.as_bytes());
            assert_eq!(all.find(w.as_bytes()), Some(*n));
        }
        // From a later number on: only those.
        assert_eq!(all.intern_all_from(&other, 4_000), &expected[3_999..]);
        assert_eq!(all.len(), one_by_one.len());
    }

    #[test]
    fn a_slice_too_long_for_its_slot_is_found_and_read_back_whole() {
        let long = vec![b'a'; LONG as usize + 5];
        let mut just_under = long.clone();
        just_under.truncate(LONG as usize - 1);
        let mut s: Slices<u8> = Slices::default();
        let a = s.intern(b"before");
        let l = s.intern(&long);
        let u = s.intern(&just_under);
        let b = s.intern(b"after");
        assert_eq!(s.get(l), &long[..]);
        assert_eq!(s.get(u), &just_under[..]);
        assert_eq!((s.find(&long), s.find(&just_under)), (Some(l), Some(u)));
        assert_eq!((s.get(a), s.get(b)), (&b"before"[..], &b"after"[..]));
        assert_eq!(s.find(&long[..long.len() - 1]), None);
    }

    #[test]
    fn many_slices_survive_the_table_growing() {
        let mut s: Slices<u8> = Slices::default();
        let numbers: Vec<u32> = (0..20_000)
            .map(|n| s.intern(n.to_string().as_bytes()))
            .collect();
        for (n, k) in numbers.iter().enumerate() {
            assert_eq!(s.get(*k), n.to_string().as_bytes());
            assert_eq!(s.find(n.to_string().as_bytes()), Some(*k));
        }
        assert_eq!(s.len(), 20_001);
        // Sets whose symbols differ only in their high bits, as in a store of many strings.
        let mut sets: Slices<Sym> = Slices::default();
        let set = |n: u32| [Sym(7), Sym(n << 12)];
        let numbers: Vec<u32> = (0..20_000).map(|n| sets.intern(&set(n))).collect();
        for (n, k) in (0..20_000).zip(&numbers) {
            assert_eq!(sets.get(*k), set(n));
            assert_eq!(sets.find(&set(n)), Some(*k));
        }
        assert_eq!(sets.len(), 20_001);
    }
}
