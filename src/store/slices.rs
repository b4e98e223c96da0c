//! Distinct slices, each stored once: kept end to end in one buffer, numbered in the order they
//! were first seen, and found by a table that holds their numbers and 32 bits of their hashes. No
//! allocation per slice, and a few bytes of overhead each: the strings of a store and the sets of
//! them both number in the hundreds of thousands.

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;
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
    /// The slices' numbers, each with the hash of its items (see [`Hashed`]): growing the table
    /// then moves entries without reading a slice, and a lookup compares the items of a slice
    /// only when the whole hash matches.
    table: HashTable<(u32, Hashed)>,
}

/// 32 bits of the hash of a slice's items. The table's hash is spread out from these alone, so
/// it can be made again from what the table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hashed(u32);

const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hashed {
    fn of<T: Item>(s: &[T]) -> Hashed {
        // Mixed once more, for the low bits of these 32 (which pick the bucket) to depend on many
        // bits of the hash: bit `32 + j` of the product depends on the hash's bits up to
        // `32 + j`, which FxHasher's final rotation fills with its best mixed bits.
        Hashed((FxBuildHasher.hash_one(s).wrapping_mul(SPREAD) >> 32) as u32)
    }

    /// The hash the table places an entry by: its low bits pick the bucket, and its top seven
    /// bits are the tag compared first.
    fn spread(self) -> u64 {
        u64::from(self.0).wrapping_mul(SPREAD)
    }
}

/// Slice 0 is the empty slice.
impl<T> Default for Slices<T> {
    fn default() -> Self {
        Slices {
            items: Vec::new(),
            ends: vec![0],
            table: HashTable::new(),
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
        if let Some(n) = self.find_hashed(s, h) {
            return Ok(n);
        }
        check(s)?;
        let n = u32::try_from(self.ends.len()).expect("fewer than 2^32 distinct slices");
        self.items.extend_from_slice(s);
        self.ends.push(self.items.len());
        self.table
            .insert_unique(h.spread(), (n, h), |&(_, h)| h.spread());
        Ok(n)
    }

    /// The number of `s`, if it has one.
    pub fn find(&self, s: &[T]) -> Option<u32> {
        self.find_hashed(s, Hashed::of(s))
    }

    /// The number of `s`, whose hash is `h`, if it has one: the items are compared only when
    /// the whole hash matches.
    fn find_hashed(&self, s: &[T], h: Hashed) -> Option<u32> {
        self.table
            .find(h.spread(), |&(n, hn)| {
                hn == h && T::same(slice_of(&self.items, &self.ends, n), s)
            })
            .map(|&(n, _)| n)
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
