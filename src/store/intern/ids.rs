//! The ids loaded so far, for de-duplication (the first copy of an id read is the one kept).

use rustc_hash::FxHashSet;
use uuid::Uuid;

/// The key events are de-duplicated on. Canonical lowercase UUIDs (every id the service sends)
/// are kept as 16 bytes; any other id string as itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IdKey {
    Absent,
    Uuid(u128),
    Text(Box<str>),
}

impl IdKey {
    pub fn of(id: Option<&str>) -> IdKey {
        match id {
            None => IdKey::Absent,
            Some(s) => {
                canonical_uuid(s.as_bytes()).map_or_else(|| IdKey::Text(Box::from(s)), IdKey::Uuid)
            }
        }
    }

    /// The key of an id given as the bytes of a JSON string without escapes.
    pub fn of_bytes(id: &[u8]) -> Option<IdKey> {
        match canonical_uuid(id) {
            Some(u) => Some(IdKey::Uuid(u)),
            None => std::str::from_utf8(id)
                .ok()
                .map(|s| IdKey::Text(Box::from(s))),
        }
    }
}

/// The number of the UUID `b` spells, when it spells it the canonical way, as the service
/// writes ids: exactly `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex. Other spellings
/// of the same number (uppercase, braced, a URN, without hyphens) are not, so that two ids map to
/// the same key only when their strings are equal.
pub(in crate::store) fn canonical_uuid(b: &[u8]) -> Option<u128> {
    // `uuid` reads a UUID of 36 bytes only hyphenated, but in either case. Read, every byte is
    // a hex digit or a hyphen, and of those only `A` to `F` have bit 0x20 clear: one pass that
    // ANDs them all tells the case (and costs less than looking for an uppercase letter first).
    let uuid = Uuid::try_parse_ascii(b).ok()?;
    (b.len() == 36 && b.iter().fold(0xFF, |all, &c| all & c) & 0x20 != 0).then(|| uuid.as_u128())
}

#[derive(Debug, Default)]
pub(in crate::store) struct IdIndex {
    uuids: UuidSet,
    texts: FxHashSet<Box<str>>,
}

impl IdIndex {
    /// Records a batch's ids, in order, and empties `ids`; for each, whether it is new (not
    /// loaded before, nor earlier in the batch). An event without an id is always new.
    pub(in crate::store) fn insert_all(&mut self, ids: &mut Vec<IdKey>) -> Vec<bool> {
        let mut fresh = vec![true; ids.len()];
        let uuids: Vec<(u64, u32, u128)> = ids
            .iter()
            .enumerate()
            .filter_map(|(i, id)| match id {
                IdKey::Uuid(u) => Some((hash(*u), i as u32, *u)),
                _ => None,
            })
            .collect();
        for (h, i, u) in by_hash(uuids) {
            fresh[i as usize] = self.uuids.insert(h, u);
        }
        for (i, id) in ids.drain(..).enumerate() {
            if let IdKey::Text(t) = id {
                fresh[i] = self.texts.insert(t);
            }
        }
        fresh
    }
}

/// A batch's UUIDs (each with its hash and its place in the batch, in the batch's order) in
/// the order of the top bits of their hashes, and within those in the batch's order: the set's
/// tables are then walked from start to end rather than at random, and an id's first copy in
/// the batch still comes first among its copies (they have one hash). A counting sort, by about
/// a quarter as many buckets as ids: by callgrind, the id set's part of the merge of the first
/// 96,000 events of a million-event dump took 50M instructions this way against 82M by a
/// comparison sort of the whole hashes.
fn by_hash(uuids: Vec<(u64, u32, u128)>) -> Vec<(u64, u32, u128)> {
    let bits = (uuids.len() / 4).max(1).ilog2().min(16);
    if bits == 0 {
        return uuids;
    }
    let shift = 64 - bits;
    let bucket = |h: u64| (h >> shift) as usize;
    // Where each bucket starts, then where its next id goes.
    let mut next = vec![0u32; (1 << bits) + 1];
    for &(h, ..) in &uuids {
        next[bucket(h) + 1] += 1;
    }
    for b in 1..next.len() {
        next[b] += next[b - 1];
    }
    let mut sorted = vec![(0, 0, 0); uuids.len()];
    for id in uuids {
        let at = &mut next[bucket(id.0)];
        sorted[*at as usize] = id;
        *at += 1;
    }
    sorted
}

/// UUIDs in open-addressing tables whose slot is chosen by the top bits of a hash, so that ids
/// sorted by hash are inserted walking the tables from start to end.
///
/// The ids are kept in [`PARTS`] parts by the top bits of their hash, each a table of its own
/// that grows on its own, at a fill of its own (between five eighths and three quarters): the
/// parts fill alike, so with one fill for all they would all grow in the same batch, and each
/// grows alone instead, a batch now and then. At five million ids, one table grown at once held
/// the merge (on the UI thread) for hundreds of milliseconds: re-inserting every id, and writing
/// 128 MiB of fresh pages.
#[derive(Debug, Default)]
struct UuidSet {
    /// None before the first id, then [`PARTS`] of them.
    parts: Vec<Part>,
    /// The zero UUID, which marks an empty slot in the parts.
    has_zero: bool,
}

/// How many bits of an id's hash pick its part.
const PART_BITS: u32 = 6;
const PARTS: usize = 1 << PART_BITS;

/// The fewest slots of a part.
const PART_MIN: usize = 16;

#[derive(Debug, Default)]
struct Part {
    /// `0` for an empty slot; a power of two of them, or none before the part's first id.
    slots: Vec<u128>,
    len: usize,
}

fn hash(u: u128) -> u64 {
    ((u as u64) ^ ((u >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl UuidSet {
    /// Adds `u` (whose hash is `h`); false when it was there already.
    fn insert(&mut self, h: u64, u: u128) -> bool {
        if u == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        if self.parts.is_empty() {
            self.parts = (0..PARTS).map(|_| Part::default()).collect();
        }
        let p = (h >> (64 - PART_BITS)) as usize;
        let part = &mut self.parts[p];
        part.make_room(p);
        // Within its part, the slot is picked by the bits of the hash below the part's.
        let at = slot_for(&part.slots, h << PART_BITS, u);
        if part.slots[at] == u {
            return false;
        }
        part.slots[at] = u;
        part.len += 1;
        true
    }
}

impl Part {
    /// Makes room for one more in part number `p`, which is at most `(5 + p / PARTS) / 8`
    /// full: linear probing stays short while a table is at most three quarters full.
    fn make_room(&mut self, p: usize) {
        let limit = self.slots.len() * (5 * PARTS + p) / (8 * PARTS);
        if self.len < limit {
            return;
        }
        let size = (self.slots.len() * 2).max(PART_MIN);
        let old = std::mem::replace(&mut self.slots, crate::memory::written_zeros(size));
        // Old slots are in hash order (but for the few that wrapped around the end), so the new
        // table is filled from start to end too.
        for u in old.into_iter().filter(|&u| u != 0) {
            let at = slot_for(&self.slots, hash(u) << PART_BITS, u);
            self.slots[at] = u;
        }
    }
}

/// The slot that holds `u` (whose hash is `h`), or the empty one where it goes: probing starts
/// at the top bits of the hash and goes on slot by slot. `slots` (a power of two of them) is
/// never full.
fn slot_for(slots: &[u128], h: u64, u: u128) -> usize {
    let mask = slots.len() - 1;
    let mut at = (h >> (64 - slots.len().trailing_zeros())) as usize;
    while slots[at] != 0 && slots[at] != u {
        at = (at + 1) & mask;
    }
    at
}

#[cfg(test)]
impl IdIndex {
    /// The bytes it holds.
    pub(in crate::store) fn heap(&self) -> crate::store::footprint::Bytes {
        use crate::store::footprint::Bytes;
        let texts: usize = self.texts.iter().map(|t| t.len()).sum();
        self.uuids
            .parts
            .iter()
            .map(|p| Bytes::table(&p.slots))
            .sum::<Bytes>()
            + Bytes::of(&self.uuids.parts)
            + Bytes::hashed::<Box<str>>(self.texts.capacity())
            + Bytes {
                used: texts,
                allocated: texts,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reading, digit by digit, of a canonical UUID.
    fn reference(b: &[u8]) -> Option<u128> {
        if b.len() != 36 {
            return None;
        }
        let mut v = 0u128;
        for (i, &c) in b.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                if c != b'-' {
                    return None;
                }
                continue;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                _ => return None,
            };
            v = v << 4 | u128::from(d);
        }
        Some(v)
    }

    #[test]
    fn reads_canonical_uuids_digit_for_digit() {
        let id = "a6e7ce20-68c4-4e68-be09-6ff5e1b8b9eb";
        assert_eq!(
            canonical_uuid(id.as_bytes()),
            Some(0xa6e7ce20_68c4_4e68_be09_6ff5e1b8b9eb)
        );
        assert_eq!(
            canonical_uuid(b"00000000-0000-0000-0000-000000000000"),
            Some(0)
        );
        assert_eq!(
            canonical_uuid(b"ffffffff-ffff-ffff-ffff-ffffffffffff"),
            Some(u128::MAX)
        );
    }

    #[test]
    fn every_byte_in_every_place_is_judged_as_the_plain_reading_judges_it() {
        let id = b"0123abcd-ef45-6789-a0b1-c2d3e4f5a6b7";
        assert_eq!(canonical_uuid(id), reference(id));
        for i in 0..id.len() {
            for byte in 0..=255u8 {
                let mut m = *id;
                m[i] = byte;
                assert_eq!(canonical_uuid(&m), reference(&m), "byte {byte:#x} at {i}");
            }
        }
    }

    #[test]
    fn only_the_canonical_spelling_of_a_uuid_is_read_as_one() {
        let canonical = "0123abcd-ef45-6789-a0b1-c2d3e4f5a6b7";
        let number = canonical_uuid(canonical.as_bytes()).unwrap();
        let uuid = Uuid::from_u128(number);
        // The same number spelled every other way the `uuid` crate reads.
        let others = [
            canonical.to_uppercase(),
            "0123ABCD-ef45-6789-a0b1-c2d3e4f5a6b7".to_string(),
            format!("{{{canonical}}}"),
            format!("urn:uuid:{canonical}"),
            canonical.replace('-', ""),
            uuid.braced().to_string(),
            uuid.urn().to_string(),
            uuid.simple().to_string(),
            uuid.hyphenated().to_string().to_uppercase(),
        ];
        for other in &others {
            assert_eq!(
                Uuid::try_parse(other).map(|u| u.as_u128()),
                Ok(number),
                "{other}"
            );
            assert_eq!(canonical_uuid(other.as_bytes()), None, "{other}");
            assert_ne!(
                IdKey::of(Some(other)),
                IdKey::of(Some(canonical)),
                "{other}"
            );
            assert_eq!(IdKey::of(Some(other)), IdKey::Text(other.as_str().into()));
        }
        assert_eq!(IdKey::of(Some(canonical)), IdKey::Uuid(number));
        assert_eq!(
            IdKey::of_bytes(canonical.as_bytes()),
            Some(IdKey::Uuid(number))
        );
        // As events: each spelling is an event of its own, the canonical one among them.
        let mut ids = IdIndex::default();
        let mut keys: Vec<IdKey> = others.iter().map(|o| IdKey::of(Some(o))).collect();
        keys.push(IdKey::of(Some(canonical)));
        let fresh = ids.insert_all(&mut keys);
        // `{canonical}` and `braced()` are the same string, as are the URNs and the simple
        // ones: their second copies are not new.
        let distinct: std::collections::HashSet<&str> = others.iter().map(String::as_str).collect();
        assert_eq!(fresh.iter().filter(|&&f| f).count(), distinct.len() + 1);
        assert!(fresh[others.len()], "the canonical id is new");
    }

    fn uuid(n: u128) -> IdKey {
        IdKey::Uuid(n)
    }

    #[test]
    fn the_first_copy_of_an_id_is_new_and_later_ones_are_not() {
        let mut ids = IdIndex::default();
        let fresh = ids.insert_all(&mut vec![
            uuid(7),
            IdKey::Text("x".into()),
            uuid(7),
            IdKey::Absent,
            uuid(0),
            IdKey::Absent,
            uuid(0),
            IdKey::Text("x".into()),
        ]);
        assert_eq!(fresh, [true, true, false, true, true, true, false, false]);
        // Against what was loaded before.
        let fresh = ids.insert_all(&mut vec![
            uuid(8),
            uuid(7),
            IdKey::Text("x".into()),
            uuid(0),
        ]);
        assert_eq!(fresh, [true, false, false, false]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 64,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        /// Whatever ids come, in batches of whatever size (a few ids, or thousands, where
        /// they are put in order by their hashes' top bits), each is new exactly where a plain
        /// set of the ids seen so far does not hold it yet: its first copy, in the batch it
        /// first comes in.
        #[test]
        fn ids_are_new_exactly_where_a_plain_set_says_so(
            batches in proptest::collection::vec(
                proptest::collection::vec(0u128..3_000, 0..6_000),
                1..5,
            ),
            spread in proptest::bool::ANY,
        ) {
            let mut ids = IdIndex::default();
            let mut seen = std::collections::HashSet::new();
            for batch in batches {
                // Small numbers, or the same spread over all 128 bits.
                let batch: Vec<u128> = batch
                    .into_iter()
                    .map(|n| if spread { n.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) } else { n })
                    .collect();
                let expected: Vec<bool> = batch.iter().map(|&u| seen.insert(u)).collect();
                let fresh = ids.insert_all(&mut batch.iter().map(|&u| uuid(u)).collect());
                proptest::prop_assert_eq!(fresh, expected);
            }
        }
    }

    #[test]
    fn ids_are_put_in_order_by_their_hashes_top_bits_keeping_the_batchs_order_within() {
        let uuids: Vec<(u64, u32, u128)> = (0..10_000u32)
            .map(|i| {
                let u = u128::from(i % 3_000);
                (hash(u), i, u)
            })
            .collect();
        let sorted = by_hash(uuids.clone());
        let mut expected = uuids;
        // 10,000 ids: by 2,048 buckets, the hashes' top 11 bits.
        expected.sort_by_key(|&(h, i, _)| (h >> 53, i));
        assert_eq!(sorted, expected);
        // Too few to sort: as they came.
        let few = vec![(9, 0, 1), (3, 1, 2), (5, 2, 3)];
        assert_eq!(by_hash(few.clone()), few);
    }

    #[test]
    fn a_hundred_thousand_ids_survive_the_table_growing() {
        let mut ids = IdIndex::default();
        // Ids that differ in few bits, as sequential ones would.
        let batch = |from: u128| (from..from + 25_000).map(uuid).collect::<Vec<_>>();
        for k in 0..4 {
            assert!(
                ids.insert_all(&mut batch(k * 25_000))
                    .into_iter()
                    .all(|f| f)
            );
        }
        for k in 0..4 {
            assert!(
                ids.insert_all(&mut batch(k * 25_000))
                    .into_iter()
                    .all(|f| !f)
            );
        }
        assert_eq!(
            ids.uuids.parts.iter().map(|p| p.len).sum::<usize>(),
            100_000 - 1
        );
        assert!(ids.uuids.has_zero);
        assert_eq!(
            ids.insert_all(&mut batch(99_999))
                .iter()
                .filter(|&&f| f)
                .count(),
            24_999
        );
    }

    #[test]
    fn the_parts_of_the_id_set_grow_a_few_at_a_time() {
        let mut ids = IdIndex::default();
        // Sequential ids, in batches of 2,000, as a dump's are merged.
        let batch = |k: u128| (k * 2_000..(k + 1) * 2_000).map(uuid).collect::<Vec<_>>();
        let slots = |ids: &IdIndex| -> Vec<usize> {
            ids.uuids.parts.iter().map(|p| p.slots.len()).collect()
        };
        let mut before = slots(&ids);
        let mut most_grown = 0;
        let mut mixed = false;
        for k in 0..100 {
            assert!(ids.insert_all(&mut batch(k)).into_iter().all(|f| f), "{k}");
            let now = slots(&ids);
            // Small parts all grow in the first batches; past 40,000 ids, each grows alone.
            if k >= 20 {
                let grown = now.iter().zip(&before).filter(|(a, b)| a != b).count();
                most_grown = most_grown.max(grown);
            }
            mixed |= now.iter().any(|&n| n != now[0]);
            before = now;
        }
        assert_eq!(
            ids.uuids.parts.iter().map(|p| p.len).sum::<usize>(),
            200_000 - 1
        );
        // Never every part in one batch: they grow at fills of their own.
        assert!(
            most_grown < PARTS / 2,
            "{most_grown} parts grew in one batch"
        );
        assert!(mixed, "parts of different sizes at some point");
        for part in &ids.uuids.parts {
            assert!(part.len * 4 <= part.slots.len() * 3);
        }
        // Every id is still known.
        for k in 0..100 {
            assert!(ids.insert_all(&mut batch(k)).into_iter().all(|f| !f), "{k}");
        }
    }
}
