//! The patterns behind the shown events: groups by a key, a timeline, each peer's retry chains and
//! the most common values of the agent fields. Everything is computed from the store's compact
//! rows, never by re-reading an event's JSON, so that a million shown events stay interactive.
//!
//! Inputs are a `&Store` and the indices of the shown events (`&[u32]`, in load order), except for
//! a peer's story, which reads every loaded event of that peer whatever the filter.

mod after;
mod chains;
mod facets;
mod groups;
mod keys;
mod order;
mod report;
mod timeline;

#[cfg(test)]
mod scale;
#[cfg(test)]
mod testing;

pub use after::After;
pub use chains::{
    CHAIN_GAP, Chain, ChainAt, Ending, Outside, Story, chain_at, clock, duration_words, story,
};
pub use facets::{FACET_KEYS, Facet, facets};
pub use groups::{Group, Groups};
pub use keys::{GroupKey, GroupSort, GroupValue, Part};
pub use order::{Order, OrderIndex, SortKey};
pub use report::{sparkline_text, write_groups, write_groups_within};
pub use timeline::{BUCKET_STEPS, Bucket, DAY, Timeline, step_label};

use crate::event::EventType;
use crate::store::{Store, Sym};

/// Slots of the per-type counts: the five known types in `EventType::KNOWN` order, then any other.
pub const TYPE_SLOTS: usize = 6;
pub const OTHER_SLOT: usize = 5;

/// The store's symbols of the five known types, so that a row's type is an integer comparison.
#[derive(Debug, Clone, Copy)]
pub struct Kinds {
    known: [Sym; 5],
}

/// Never handed out by the interner, so a type the store has not seen matches no row.
const UNSEEN: Sym = Sym(u32::MAX);

impl Kinds {
    pub fn of(store: &Store) -> Kinds {
        let mut known = [UNSEEN; 5];
        for (slot, t) in known.iter_mut().zip(EventType::KNOWN.iter()) {
            *slot = store.strings().lookup(t.name()).unwrap_or(UNSEEN);
        }
        Kinds { known }
    }

    /// The type's slot: 0..5 for the known types, [`OTHER_SLOT`] otherwise.
    pub fn slot(&self, kind: Sym) -> usize {
        self.known
            .iter()
            .position(|&k| k == kind)
            .unwrap_or(OTHER_SLOT)
    }

    /// Whether the type is one of the five client error types. Other families (track, recording)
    /// report successes.
    pub fn is_error(&self, kind: Sym) -> bool {
        self.known.contains(&kind)
    }
}

/// How many slices to cut `shown` events into for a count over them (see
/// [`crate::parallel::in_slices`]): below 50,000, one.
fn parts_for(shown: usize) -> usize {
    crate::parallel::parts_for(shown, 50_000)
}

/// The type of a slot; `None` for [`OTHER_SLOT`].
pub fn slot_type(slot: usize) -> Option<EventType> {
    EventType::KNOWN.get(slot).cloned()
}
