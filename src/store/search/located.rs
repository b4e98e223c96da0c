//! What the search keeps beside the rows ([`Located`], as each batch gives it), in two lists:
//! the description's pairs with two flags of what the search notes of the row (see
//! [`super::bigrams::FLAGS`]), and the id's UUID. With them, a text that no interned string
//! holds is ruled out of most events by 32 bytes each, without reading their rows (104 bytes,
//! which a search would otherwise read whole) or their UUID unless the text could be in one.

use super::Bigrams;
use crate::store::memory::prefetch;
use crate::store::{Located, Row};

/// The flag set when the event's id and timestamp can only hold a text such a search reads
/// beside the row: the row is indexed (not `Row::search_raw`), its id is a canonical UUID or
/// absent, and its timestamp is written with `is_time_char`s only, or absent.
const DECIDED_HERE: usize = 0;
/// The flag set when the id is a canonical UUID, kept beside the row.
const ID_UUID: usize = 1;

impl Located {
    /// Notes in the flags what the search needs of `row` (the row this is beside).
    pub(in crate::store) fn note_row(&mut self, row: &Row) {
        let id_is_uuid = !row.id_at.is_none() && row.id_is_uuid();
        let ts_plain = row.ts_at.is_none() || row.ts_digits().is_some() || row.ts_is_plain();
        let bits = &mut self.description_bigrams;
        bits.set_flag(
            DECIDED_HERE,
            !row.search_raw() && (row.id_at.is_none() || id_is_uuid) && ts_plain,
        );
        bits.set_flag(ID_UUID, id_is_uuid);
    }
}

/// The [`Located`] of each row, up to the last row the search indexed, as two lists.
#[derive(Debug, Default)]
pub(in crate::store) struct LocatedRows {
    /// The description's pairs and the flags.
    pairs: Vec<Bigrams>,
    /// The id's sixteen bytes when it is a canonical UUID.
    uuids: Vec<[u8; 16]>,
}

impl LocatedRows {
    pub fn push(&mut self, located: Located) {
        self.pairs.push(located.description_bigrams);
        self.uuids.push(located.id_uuid);
    }

    /// Fills the rows up to `len` with what rules nothing out (rows the search reads whole).
    pub fn fill_to(&mut self, len: usize) {
        let nothing = Located::default();
        self.pairs.resize(len, nothing.description_bigrams);
        self.uuids.resize(len, nothing.id_uuid);
    }

    pub fn reserve(&mut self, n: usize) {
        self.pairs.reserve(n);
        self.uuids.reserve(n);
    }

    /// Row `i`'s description's pairs (and flags); for a row past the list, every pair and no
    /// flag: nothing is ruled out.
    #[inline]
    pub fn pairs(&self, i: usize) -> &Bigrams {
        self.pairs.get(i).unwrap_or(&Bigrams::ALL)
    }

    /// Whether a text that can be in no timestamp is in event `i` only if it is in an interned
    /// string, a number, the UUID of [`LocatedRows::uuid`] or the description.
    #[inline]
    pub fn decided_here(&self, i: usize) -> bool {
        self.pairs(i).flag(DECIDED_HERE)
    }

    /// Event `i`'s id, when it is a canonical UUID.
    #[inline]
    pub fn uuid(&self, i: usize) -> Option<u128> {
        self.pairs(i).flag(ID_UUID).then(|| self.uuid_bytes(i))
    }

    /// The sixteen bytes kept of event `i`'s id: its UUID when `Row::id_is_uuid`.
    #[inline]
    pub fn uuid_bytes(&self, i: usize) -> u128 {
        self.uuids.get(i).map_or(0, |b| u128::from_le_bytes(*b))
    }

    /// Asks for what is kept of row `i` to be fetched into the cache.
    pub fn prefetch(&self, i: usize) {
        if let (Some(pairs), Some(uuid)) = (self.pairs.get(i), self.uuids.get(i)) {
            prefetch::prefetch(pairs);
            prefetch::prefetch(uuid);
        }
    }

    /// The bytes it holds.
    #[cfg(test)]
    pub fn heap(&self) -> crate::store::footprint::Bytes {
        crate::store::footprint::Bytes::of(&self.pairs)
            + crate::store::footprint::Bytes::of(&self.uuids)
    }
}
