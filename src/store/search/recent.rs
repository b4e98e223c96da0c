//! The answers of the last few search texts, kept for the next search of each: the search the
//! filter holds and a find typed beside it ask in turn at every refresh (a batch loaded, a key),
//! and with one kept, each would replace the other's and be computed again, a pass over every
//! distinct string (25-100 ms at five million events).

use super::bits::SearchBits;
use super::needle::Needle;

/// The answers of the last few texts searched, the latest first.
#[derive(Debug, Default)]
pub struct RecentSearches(Vec<SearchBits>);

/// The answers are kept for this many texts. Each holds a bit per distinct string, set and
/// agent and, for a text a number can hold, per event: about 2 MB at five million events.
const KEPT: usize = 4;

impl RecentSearches {
    /// The answers kept for `needle`, taken out; else those of the longest text `needle`'s holds
    /// (a find typed on), taken out too: the text typed on takes its place.
    pub fn take_for(&mut self, needle: &Needle) -> Option<SearchBits> {
        let at = match self.0.iter().position(|bits| bits.is_for(needle)) {
            Some(at) => at,
            None => (0..self.0.len())
                .filter(|&k| self.0[k].narrows_to(needle))
                .max_by_key(|&k| (self.0[k].text_len(), std::cmp::Reverse(k)))?,
        };
        Some(self.0.remove(at))
    }

    /// Keeps `bits` as the latest, forgetting the oldest past [`KEPT`].
    pub fn keep(&mut self, bits: SearchBits) {
        self.0.insert(0, bits);
        self.0.truncate(KEPT);
    }
}
