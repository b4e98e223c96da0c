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
        // By hash, so that the table is walked in order rather than at random; an id's first
        // copy in the batch comes first among its copies.
        let mut uuids: Vec<(u64, u32, u128)> = ids
            .iter()
            .enumerate()
            .filter_map(|(i, id)| match id {
                IdKey::Uuid(u) => Some((hash(*u), i as u32, *u)),
                _ => None,
            })
            .collect();
        uuids.sort_unstable_by_key(|&(h, i, _)| (h, i));
        self.uuids.reserve(uuids.len());
        for (h, i, u) in uuids {
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

/// UUIDs in one open-addressing table whose slot is chosen by the top bits of a hash, so that
/// ids sorted by hash are inserted walking the table from start to end.
///
/// The table grows without a pause: a full one is kept aside as the table before (`old`) while
/// a new one twice its size takes the ids that come, and the ids of the old one are moved into
/// it a few at each id looked up ([`MOVED_PER_INSERT`]), long before the new one is full in turn. At
/// five million ids, moving them all at once held the merge (on the UI thread) for hundreds of
/// milliseconds.
#[derive(Debug, Default)]
struct UuidSet {
    /// `0` for an empty slot; the zero UUID itself is `has_zero`.
    slots: Vec<u128>,
    /// The table before, while its ids are moved into `slots`: those before `moved` are.
    old: Vec<u128>,
    moved: usize,
    has_zero: bool,
    /// The ids held, in both tables.
    len: usize,
}

/// How many slots of the table before are moved at each id looked up (new or not) while the
/// table grows: the new table takes as many new ids as the old one held before it is full in
/// turn, and the old one is moved after an eighth of that many lookups at most, so that it is
/// not held longer than needed.
const MOVED_PER_INSERT: usize = 8;

fn hash(u: u128) -> u64 {
    ((u as u64) ^ ((u >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl UuidSet {
    /// Adds `u` (whose hash is `h`); false when it was there already.
    fn insert(&mut self, h: u64, u: u128) -> bool {
        if u == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        self.reserve(1);
        self.move_some(MOVED_PER_INSERT);
        let at = slot_for(&self.slots, h, u);
        if self.slots[at] == u {
            return false;
        }
        if !self.old.is_empty() && self.old[slot_for(&self.old, h, u)] == u {
            // Not moved yet (one moved is in `slots` too).
            return false;
        }
        self.slots[at] = u;
        self.len += 1;
        true
    }

    /// The slots `n` more need: linear probing stays short while the table is at most three
    /// quarters full.
    fn needed(&self, n: usize) -> usize {
        (self.len + n).saturating_mul(4) / 3 + 1
    }

    /// Makes room for `n` more, keeping the table at most three quarters full: a table too
    /// small is set aside, its ids to be moved into the new one a few at a time.
    fn reserve(&mut self, n: usize) {
        let needed = self.needed(n);
        if needed <= self.slots.len() {
            return;
        }
        // The table before last, if any is left, is moved first: the new table counts on
        // holding every id.
        self.move_some(usize::MAX);
        let size = needed.next_power_of_two().max(1024);
        self.old = std::mem::replace(&mut self.slots, written_zeros(size));
        self.moved = 0;
    }

    /// Moves the ids of up to `n` more slots of the table before into the table, and drops it
    /// once every one is moved.
    fn move_some(&mut self, n: usize) {
        if self.old.is_empty() {
            return;
        }
        let end = self.moved.saturating_add(n).min(self.old.len());
        // Old slots are in hash order (but for the few that wrapped around the end), so the new
        // table is filled from start to end too.
        for &u in &self.old[self.moved..end] {
            if u != 0 {
                let at = slot_for(&self.slots, hash(u), u);
                self.slots[at] = u;
            }
        }
        self.moved = end;
        if end == self.old.len() {
            self.old = Vec::new();
            self.moved = 0;
        }
    }
}

/// `size` empty slots, every page of them written once (a slot in each 4 KiB, and the last). A
/// large zeroed buffer comes fresh from the system; a page of it read before it is written is
/// mapped to the shared zero page, and the write that follows faults again and flushes the page
/// from every core's TLB (an interrupt to each reading thread). Probing reads slots before
/// writing them, so pages are written first.
fn written_zeros(size: usize) -> Vec<u128> {
    const PER_PAGE: usize = 4096 / std::mem::size_of::<u128>();
    let mut slots = vec![0; size];
    for page in slots.chunks_mut(PER_PAGE) {
        // SAFETY: `page` is a non-empty chunk, so its first slot is valid for a write. Volatile,
        // because a plain store of the zero already there would be dropped as useless.
        unsafe { std::ptr::write_volatile(page.as_mut_ptr(), 0) };
    }
    // The buffer need not start on a page: its last page may hold only its last slots.
    if let Some(last) = slots.last_mut() {
        // SAFETY: a reference to a slot is valid for a write.
        unsafe { std::ptr::write_volatile(last, 0) };
    }
    slots
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
        assert_eq!(ids.uuids.len, 100_000 - 1);
        assert!(ids.uuids.has_zero);
        assert!(
            ids.uuids.old.is_empty(),
            "every id moved into the grown table"
        );
        assert_eq!(
            ids.insert_all(&mut batch(99_999))
                .iter()
                .filter(|&&f| f)
                .count(),
            24_999
        );
    }

    #[test]
    fn ids_not_yet_moved_out_of_the_table_before_are_still_known() {
        let mut ids = IdIndex::default();
        // 768 ids fill the first table (1,024 slots) three quarters: the next batch grows it.
        let batch = |from: u128, n: u128| (from..from + n).map(uuid).collect::<Vec<_>>();
        assert!(ids.insert_all(&mut batch(1, 767)).into_iter().all(|f| f));
        assert!(ids.uuids.old.is_empty());
        let grown = ids.insert_all(&mut batch(768, 10));
        assert!(grown.iter().all(|&f| f));
        // The table grew, and only part of the one before is moved.
        assert_eq!(ids.uuids.slots.len(), 2048);
        assert!(ids.uuids.moved > 0 && ids.uuids.moved < ids.uuids.old.len());
        // Every id is known, wherever it is kept, and an id met again is not new (in batches
        // small enough not to grow the table again).
        assert!(ids.insert_all(&mut batch(1, 50)).into_iter().all(|f| !f));
        assert!(ids.uuids.moved < ids.uuids.old.len());
        // Each id looked up moves a few: the table before is soon gone even with no new id.
        assert!(ids.insert_all(&mut batch(51, 727)).into_iter().all(|f| !f));
        assert!(ids.uuids.old.is_empty());
        assert!(ids.insert_all(&mut batch(778, 400)).into_iter().all(|f| f));
        assert_eq!(ids.uuids.len, 1_177);
        assert!(ids.insert_all(&mut batch(1, 1_177)).into_iter().all(|f| !f));
    }
}
