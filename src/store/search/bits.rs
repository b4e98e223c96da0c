//! Which interned strings, sets and agents hold a search text, and an event matched by its row with them.

use std::sync::Arc;

use rayon::prelude::*;

use super::needle::Needle;
use super::spelled::{Speller, TIMESTAMP_MAX, uuid_text};
use crate::store::memory::prefetch;
use crate::store::{Agents, Interner, Located, Row, Span, Store, Sym, SymSets};

/// Below this many strings the answers are computed on one thread.
const PARALLEL_FROM: usize = 50_000;

/// Which interned strings, sets of others and agents hold a search text: with them, matching an event is
/// a few lookups and a look at the three strings its row locates in place.
#[derive(Debug, Clone)]
pub struct SearchBits {
    needle: Needle,
    strings: Arc<Vec<bool>>,
    /// Whether any string holds the text: when none does, no set or agent does either, and an
    /// event's symbols need not be looked up (millions of strings, each lookup a read from
    /// memory for the ids of peers, sessions and users).
    in_a_string: bool,
    sets: Arc<Vec<bool>>,
    /// By agent: whether one of its fields written in the event holds the text.
    agents: Arc<Vec<bool>>,
    /// Spells the timestamps of the store's rows, with the dates of its days spelled ahead.
    speller: Speller,
    /// For a text that can be part of a number: the events one of whose numbers holds it, as
    /// bits by event (see [`super::numbers::NumberIndex::rows_where`]).
    numbers: Option<Arc<Vec<u64>>>,
}

impl SearchBits {
    pub fn new(needle: &Needle) -> SearchBits {
        SearchBits {
            needle: needle.clone(),
            strings: Arc::default(),
            in_a_string: false,
            sets: Arc::default(),
            agents: Arc::default(),
            speller: Speller::default(),
            numbers: None,
        }
    }

    /// These answers, with the events one of whose numbers holds the text.
    pub fn with_numbers(mut self, rows: Vec<u64>) -> SearchBits {
        self.numbers = Some(Arc::new(rows));
        self
    }

    /// Whether one of event `i`'s numbers holds the text.
    fn in_numbers(&self, i: usize) -> bool {
        self.numbers
            .as_ref()
            .and_then(|bits| bits.get(i / 64))
            .is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    pub fn is_for(&self, needle: &Needle) -> bool {
        self.needle == *needle
    }

    /// The answers for every string, set and agent of the store, computing only those added since, and
    /// a speller of the days its events' `times` span.
    pub fn extended(
        mut self,
        strings: &Interner,
        sets: &SymSets,
        agents: &Agents,
        times: Option<(i64, i64)>,
    ) -> SearchBits {
        if let Some((from, to)) = times
            && !self.speller.spans(from, to)
        {
            self.speller = Speller::spanning(from, to);
        }
        let known = self.strings.len();
        if known < strings.len() {
            let needle = &self.needle;
            let answers = if needle.ascii && !needle.lower.is_empty() {
                // Symbol 0, the absent string, holds no text.
                let mut answers = vec![false; usize::from(known == 0)];
                answers.extend(needle.in_strings(strings, known.max(1)));
                answers
            } else {
                let new: Vec<&str> = strings.strings_from(known).collect();
                parallel_map(&new, |s| needle.matches_str(s))
            };
            self.in_a_string |= answers.contains(&true);
            Arc::make_mut(&mut self.strings).extend(answers);
        }
        let known = self.sets.len();
        if known < sets.len() {
            let strings = Arc::clone(&self.strings);
            Arc::make_mut(&mut self.sets).extend(
                sets.sets_from(known)
                    .map(|set| set.iter().any(|s| strings[s.0 as usize])),
            );
        }
        let known = self.agents.len();
        if known < agents.len() {
            let strings = Arc::clone(&self.strings);
            Arc::make_mut(&mut self.agents).extend(agents.agents_from(known).map(|agent| {
                agent
                    .value_syms()
                    .into_iter()
                    .any(|s| strings.get(s.0 as usize).copied().unwrap_or(false))
            }));
        }
        self
    }

    /// Whether event `i` of `store` (whose strings and sets these answers cover) matches,
    /// answered without reading its description from the dump; `None` when the answer is
    /// whether the text is in the description ([`SearchBits::in_description`]).
    pub fn matches_unread(&self, store: &Store, i: usize) -> Option<bool> {
        let row: &Row = store.row(i);
        if row.search_raw() {
            return Some(self.needle.matches_json(store.raw(i)));
        }
        let hit = |s: Sym| self.strings.get(s.0 as usize).copied().unwrap_or(false);
        if self.in_numbers(i)
            || (self.in_a_string
                && (hit(row.kind)
                    || row.value_syms().into_iter().any(hit)
                    || self.agents.get(row.agent.index()).copied().unwrap_or(false)
                    || self.sets.get(row.others as usize).copied().unwrap_or(false)))
        {
            return Some(true);
        }
        let n = &self.needle;
        let read = |span: Span, possible: bool| {
            possible
                && span
                    .of(store.raw(i))
                    .is_some_and(|quoted| n.matches_bytes(quoted))
        };
        let located = store.located(i);
        // The id and the timestamp are spelled out again from the row when they can be, and
        // the description is read only when it holds every pair of characters of the text.
        let id = if row.id_is_uuid() {
            n.id_like && n.in_lowercase(&uuid_text(u128::from_le_bytes(located.id_uuid)))
        } else {
            read(row.id_at, true)
        };
        let ts = || match row.ts_digits() {
            Some(digits) => {
                let mut text = [0; TIMESTAMP_MAX];
                n.time_like
                    && self
                        .speller
                        .spell(row.ts, digits, &mut text)
                        .is_some_and(|text| n.in_lowercase(text))
            }
            None => read(row.ts_at, n.time_like || !row.ts_is_plain()),
        };
        if id || ts() {
            return Some(true);
        }
        if row.description_at.is_none() || !self.may_be_in_description(located) {
            return Some(false);
        }
        None
    }

    /// Whether the text is in event `i`'s description.
    pub fn in_description(&self, store: &Store, i: usize) -> bool {
        let row = store.row(i);
        row.description_at.of(store.raw(i)).is_some_and(|quoted| {
            self.needle
                .matches_quoted(quoted, row.description_escaped())
        })
    }

    /// Asks for event `i`'s description to be fetched into the cache: descriptions are
    /// scattered over a dump too large for it, so a search fetches a few ahead of the one it
    /// reads.
    pub fn fetch_description(&self, store: &Store, i: usize) {
        let at = store.row(i).description_at.start();
        let raw = store.raw(i);
        // A description spans two or three cache lines.
        prefetch(raw, at);
        prefetch(raw, at + 64);
    }
}

impl SearchBits {
    /// Whether the row's description holds every pair of characters of the text (for a text
    /// that is not ASCII, it may).
    fn may_be_in_description(&self, located: &Located) -> bool {
        !self.needle.ascii || located.description_bigrams.holds(&self.needle.bigrams)
    }
}

/// Asks the processor to bring `bytes[at]` into its cache, when there is such a byte.
#[inline]
fn prefetch(bytes: &[u8], at: usize) {
    if let Some(b) = bytes.get(at) {
        prefetch::prefetch(b);
    }
}

/// `f` of each item, computed on every core for long slices.
fn parallel_map<T: Sync>(items: &[T], f: impl Fn(&T) -> bool + Sync) -> Vec<bool> {
    if items.len() < PARALLEL_FROM {
        return items.iter().map(f).collect();
    }
    items.par_iter().map(&f).collect()
}
