//! What the search notes of a row beside its description's pairs, in two of their bits (see
//! [`super::bigrams::FLAGS`]): with them, a text that no interned string holds is ruled out of
//! most events by their [`Located`] alone, without reading their rows, which are twice as wide
//! and which a search would otherwise read whole.

use crate::store::{Located, Row};

/// The flag set when the event's id and timestamp can only hold a text such a search reads off
/// `Located`: the row is indexed (not `Row::search_raw`), its id is a canonical UUID or absent,
/// and its timestamp is written with `is_time_char`s only, or absent.
const DECIDED_HERE: usize = 0;
/// The flag set when the id is a canonical UUID: `Located::id_uuid` holds it.
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

    /// Whether a text that can be in no timestamp is in the event only if it is in an interned
    /// string, a number, the UUID of [`Located::uuid`] or the description.
    pub(in crate::store) fn decided_here(&self) -> bool {
        self.description_bigrams.flag(DECIDED_HERE)
    }

    /// The event's id, when it is a canonical UUID.
    pub(in crate::store) fn uuid(&self) -> Option<u128> {
        self.description_bigrams
            .flag(ID_UUID)
            .then(|| u128::from_le_bytes(self.id_uuid))
    }
}
