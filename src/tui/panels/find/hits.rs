//! A find's answers: which loaded events hold its text, looked at a part at a time, the first
//! part on the key and the rest in turns of the loop of their own (see [`Find::refresh`]).

use std::sync::Arc;

use super::Jump;
use crate::filter::Filter;
use crate::store::{Query, Store};
use crate::tui::model::Events;

/// How many loaded events a find looks at in one turn of the explorer's loop; the rest are
/// looked at in the turns that follow, each when no key or batch waits ([`crate::tui::model::Model::has_work`]).
/// At five million events, looking at every one at once took 140-470 ms on two cores for a
/// digit or four and held the keys that long; a part of this many takes 10-30 ms there on a
/// quiet machine.
pub const FIND_STEP: usize = 1 << 18;

/// A find in force: its text, and which loaded events hold it, looked at a part at a time.
#[derive(Debug, Clone)]
pub struct Find {
    pub text: String,
    /// Bit `i` is set when loaded event `i` holds the text, for the events before `covered`.
    hits: Vec<u64>,
    /// How many loaded events were looked at: those after it are looked at in the turns to
    /// come, and one by one meanwhile where they are asked about ([`Find::hit`]).
    covered: usize,
    /// The find whose text this one's holds, typed before it: before its `covered`, only the
    /// events that hold its text can hold this one.
    within: Option<Within>,
    /// The search compiled for the store of this generation.
    compiled: Option<(u64, Arc<Query>)>,
    /// How many of the shown events hold the text, once every loaded event was looked at, for
    /// the generation of the shown events it was counted for.
    shown_hits: Option<(u64, usize)>,
    /// The jump to the first event that holds the text, while it is still looked for.
    pub(super) jump: Option<Jump>,
}

/// The events a find typed before held, which a find of a longer text looks at alone.
#[derive(Debug, Clone)]
struct Within {
    hits: Vec<u64>,
    covered: usize,
}

impl Find {
    /// A find of `text` whose events are looked at from its first [`Find::refresh`] on.
    pub fn lazy(text: &str) -> Find {
        Find {
            text: text.to_string(),
            hits: Vec::new(),
            covered: 0,
            within: None,
            compiled: None,
            shown_hits: None,
            jump: None,
        }
    }

    /// A find of `text` that holds `before`'s text (see [`super::narrows`]): of the events `before`
    /// looked at, only those that hold its text are looked at, as only they can hold this one.
    pub(super) fn narrowed(before: &Find, text: &str) -> Find {
        Find {
            within: Some(Within {
                hits: before.hits.clone(),
                covered: before.covered,
            }),
            ..Find::lazy(text)
        }
    }

    /// This find without the jump it still owes.
    pub(super) fn without_jump(self) -> Find {
        Find { jump: None, ..self }
    }

    /// Whether loaded event `row` was looked at by a part (else it is looked at on its own
    /// where asked about).
    pub(super) fn covers(&self, row: u32) -> bool {
        (row as usize) < self.covered
    }

    /// Whether every loaded event was looked at.
    pub fn complete(&self, store: &Store) -> bool {
        self.covered >= store.len()
    }

    /// How many of the shown events hold the text; `None` while some loaded events are not
    /// looked at yet.
    pub fn shown_hits(&self) -> Option<usize> {
        self.shown_hits.map(|(_, n)| n)
    }

    /// The share of the loaded events looked at, in per cent (rounded down, 99 at most until
    /// every one is).
    pub fn looked_at_percent(&self, store: &Store) -> usize {
        match store.len() {
            0 => 100,
            _ if self.complete(store) => 100,
            len => (self.covered * 100 / len).min(99),
        }
    }

    /// Whether loaded event `row` holds the text: from the part looked at, else looked at on
    /// its own (the list's rows on the screen, a jump).
    pub fn hit(&self, store: &Store, row: u32) -> bool {
        let i = row as usize;
        if i < self.covered {
            return self.hits[i / 64] & (1 << (i % 64)) != 0;
        }
        self.compiled
            .as_ref()
            .is_some_and(|(_, compiled)| i < store.len() && store.keeps(compiled, i))
    }

    /// Whether there is more to do: events not looked at yet, or a jump still owed.
    pub fn has_work(&self, store: &Store) -> bool {
        !self.complete(store) || self.jump.is_some()
    }

    /// Brings the find up to date with the events: the next `step` loaded events looked at,
    /// and once every one was, the shown ones that hold the text counted again when they
    /// changed.
    pub fn refresh(&mut self, events: &Events, step: usize) {
        let store = &events.store;
        if self.covered > store.len() {
            // A store that replaced the one looked at (the events it was made for are gone).
            *self = Find::lazy(&self.text);
        }
        if self.compiled.as_ref().map(|(g, _)| *g) != Some(events.generation.store) {
            let filter = Filter {
                search: Some(self.text.clone()),
                ..Filter::default()
            };
            self.compiled = Some((
                events.generation.store,
                Arc::new(Query::new(store, &filter)),
            ));
        }
        self.look_at(store, step);
        if !self.complete(store) {
            self.shown_hits = None;
            return;
        }
        if self.shown_hits.map(|(g, _)| g) != Some(events.generation.shown) {
            // Every loaded event shown: the bits set are the count. Else the shown events in
            // load order, which reads the bits in order.
            let n = if events.matching.len() == store.len() {
                self.hits.iter().map(|w| w.count_ones() as usize).sum()
            } else {
                events
                    .matching
                    .iter()
                    .filter(|&&i| self.hit(store, i))
                    .count()
            };
            self.shown_hits = Some((events.generation.shown, n));
        }
    }

    /// Looks at the next `step` loaded events (at least one).
    fn look_at(&mut self, store: &Store, step: usize) {
        let Some((_, compiled)) = &self.compiled else {
            return;
        };
        let from = self.covered;
        if from >= store.len() {
            return;
        }
        let mut to = from.saturating_add(step.max(1)).min(store.len());
        let found = match &self.within {
            Some(within) if from < within.covered => {
                to = to.min(within.covered);
                let candidates = set_bits(&within.hits, from..to);
                store.matching_among_compiled(compiled, &candidates)
            }
            _ => store.matching_compiled(compiled, from..to),
        };
        self.hits.resize(store.len().div_ceil(64), 0);
        for i in found {
            self.hits[i as usize / 64] |= 1 << (i % 64);
        }
        self.covered = to;
        if self
            .within
            .as_ref()
            .is_some_and(|within| to >= within.covered)
        {
            self.within = None;
        }
    }
}

/// The places of the bits set in `words` within `range`, ascending.
fn set_bits(words: &[u64], range: std::ops::Range<usize>) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        let w = i / 64;
        let Some(&word) = words.get(w) else { break };
        // The bits of this word from `i` on, up to the range's end.
        let mut bits = word >> (i % 64);
        let base = i;
        let width = (64 - i % 64).min(range.end - i);
        if width < 64 {
            bits &= (1u64 << width) - 1;
        }
        while bits != 0 {
            out.push((base + bits.trailing_zeros() as usize) as u32);
            bits &= bits - 1;
        }
        i += width;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2000,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]

        /// Whatever the range (within a word, across words, past the words' end), the places
        /// are those of the bits set in it, one at a time.
        #[test]
        fn set_bits_are_the_bits_set_in_the_range_one_by_one(
            words in proptest::collection::vec(proptest::num::u64::ANY, 0..5),
            start in 0usize..400,
            len in 0usize..400,
        ) {
            let range = start..start + len;
            let one_by_one: Vec<u32> = range
                .clone()
                .filter(|&i| words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0))
                .map(|i| i as u32)
                .collect();
            proptest::prop_assert_eq!(set_bits(&words, range), one_by_one);
        }
    }
}
