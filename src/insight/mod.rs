//! The patterns behind the shown events: groups by a key, a timeline, each peer's retry chains and
//! the most common values of the agent fields. Everything is computed from the store's compact
//! rows, never by re-reading an event's JSON, so that a million shown events stay interactive.
//!
//! Inputs are a `&Store` and the indices of the shown events (`&[u32]`, in load order), except for
//! a peer's story, which reads every loaded event of that peer whatever the filter.

mod after;
mod chains;
mod empty;
mod facets;
mod groups;
mod keys;
mod named;
mod order;
mod outcome;
mod quality;
mod report;
mod timeline;
mod verdict;

#[cfg(test)]
mod scale;
#[cfg(test)]
mod testing;

pub use after::After;
pub use chains::{
    CHAIN_GAP, Chain, ChainAt, Ending, Outside, Story, chain_at, duration_words, story,
};
pub use empty::{WhyEmpty, literal_values, room_ids_named, why_empty};
pub use facets::{FACET_KEYS, Facet, facets};
pub use groups::{Group, Groups};
pub use keys::{GroupKey, GroupSort, GroupValue, Part};
pub use order::{Order, OrderIndex, SortKey};
pub use outcome::{Told, failing_of, outcomes, tell, tell_with, tracks_in};
pub use quality::{Around, Summary, around};
pub use report::{sparkline_text, write_groups, write_groups_within};
pub use timeline::{BUCKET_STEPS, Bucket, DAY, Timeline, step_label};
pub use verdict::{Attempt, Failing, Fetched, Outcome, TrackSeen, Verdict, known_span, verdict};

use rayon::prelude::*;

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

/// How many slices to cut `shown` events into for a count over them (see [`in_slices`]): one
/// per thread of rayon's pool, or one below 50,000, where handing the slices to threads would
/// cost more than it saves.
fn parts_for(shown: usize) -> usize {
    if shown < 50_000 {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// How many items each of `parts` slices of `len` items holds (the last fewer): all of them in
/// one below 2 parts. At least 1.
fn slice_len(len: usize, parts: usize) -> usize {
    len.div_ceil(parts.max(1)).max(1)
}

/// `work` over `items` cut into at most `parts` slices of [`slice_len`], each on a thread of
/// rayon's pool, the results in the slices' order; one slice, on this thread, below 2 parts.
/// (A count over the slices of the shown events, each with tables of its own, then summed: the
/// cores wait on memory side by side.)
fn in_slices<T: Sync, R: Send>(
    items: &[T],
    parts: usize,
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    if parts < 2 || items.len() < 2 {
        return vec![work(items)];
    }
    items
        .par_chunks(slice_len(items.len(), parts))
        .map(&work)
        .collect()
}

/// The type of a slot; `None` for [`OTHER_SLOT`].
pub fn slot_type(slot: usize) -> Option<EventType> {
    EventType::KNOWN.get(slot).cloned()
}
