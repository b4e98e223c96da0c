//! Which interned strings, sets and agents hold a search text, and an event matched by its row with them.

use std::sync::Arc;

use rayon::prelude::*;

use super::needle::Needle;
use super::spelled::{Speller, TIMESTAMP_MAX, uuid_text};
use super::{Bigrams, LocatedRows};
use crate::store::memory::prefetch;
use crate::store::{AgentId, Agents, Interner, Row, Span, Store, Sym, SymSets};

/// Below this many strings the answers are computed on one thread.
const PARALLEL_FROM: usize = 50_000;

/// Which interned strings, sets of others and agents hold a search text: with them, matching an event is
/// a few lookups and a look at the three strings its row locates in place.
#[derive(Debug, Clone)]
pub struct SearchBits {
    needle: Needle,
    /// By string: whether it holds the text. Bits, not bytes: a search looks them up at random
    /// for millions of rows (the ids of peers, sessions and users), and 2.9 million strings
    /// take 360 KB so, which stay in the processor's cache.
    strings: Arc<Answers>,
    /// Whether any string holds the text: when none does, no set or agent does either, and an
    /// event's symbols need not be looked up (millions of strings, each lookup a read from
    /// memory for the ids of peers, sessions and users).
    in_a_string: bool,
    sets: Arc<Answers>,
    /// By agent: whether one of its fields written in the event holds the text.
    agents: Arc<Answers>,
    /// Spells the timestamps of the store's rows, with the dates of its days spelled ahead.
    speller: Speller,
    /// For a text that can be part of a number: the events one of whose numbers holds it, as
    /// bits by event (see [`super::numbers::NumberIndex::rows_where`]).
    numbers: Option<Arc<Vec<u64>>>,
}

/// A yes or no for each of a list of things, as bits.
#[derive(Debug, Clone, Default)]
struct Answers {
    words: Vec<u64>,
    len: usize,
}

impl Answers {
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, k: usize) -> bool {
        k < self.len && self.words[k / 64] & (1 << (k % 64)) != 0
    }

    fn push(&mut self, yes: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        self.words[self.len / 64] |= u64::from(yes) << (self.len % 64);
        self.len += 1;
    }

    fn extend(&mut self, answers: impl IntoIterator<Item = bool>) {
        for yes in answers {
            self.push(yes);
        }
    }

    /// How many are yes.
    fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The places of the yeses, ascending.
    fn yeses(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }

    /// `len` noes, then yes where `yes` says so, asked only of the places that are yes here.
    fn narrowed(&self, yes: impl Fn(usize) -> bool) -> Answers {
        let mut out = Answers {
            words: vec![0; self.words.len()],
            len: self.len,
        };
        for k in self.yeses() {
            if yes(k) {
                out.words[k / 64] |= 1 << (k % 64);
            }
        }
        out
    }
}

/// A narrowed search looks at the strings the text before held one at a time when they are at
/// most one in this many; past that, a pass over them all end to end costs less. The tests
/// narrow whatever the share, to compare every narrowing with reading each event.
const NARROWED_ONE_IN: usize = if cfg!(test) { 1 } else { 16 };

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

    /// Whether every string, set or agent that holds `needle`'s text holds this one's: its
    /// lowercase holds this one's lowercase (what each is compared in).
    pub fn narrows_to(&self, needle: &Needle) -> bool {
        !self.needle.lower.is_empty() && needle.lower.contains(&self.needle.lower)
    }

    /// The answers for `needle`, whose text holds this one's ([`SearchBits::narrows_to`]),
    /// for the strings, sets and agents these cover: only those that hold this text are looked
    /// at, when they are few. The rest are answered by [`SearchBits::extended`].
    pub fn narrowed(
        &self,
        needle: &Needle,
        strings: &Interner,
        sets: &SymSets,
        agents: &Agents,
    ) -> SearchBits {
        debug_assert!(self.narrows_to(needle));
        let mut out = SearchBits::new(needle);
        out.speller = self.speller.clone();
        if self.strings.count().saturating_mul(NARROWED_ONE_IN) > self.strings.len() {
            // Most strings hold it: the pass over them all is the faster.
            return out;
        }
        let held = self
            .strings
            .narrowed(|k| needle.matches_str(strings.get(Sym(k as u32))));
        out.in_a_string = held.count() > 0;
        out.sets = Arc::new(
            self.sets
                .narrowed(|k| sets.get(k as u32).iter().any(|s| held.get(s.0 as usize))),
        );
        out.agents = Arc::new(self.agents.narrowed(|k| {
            agents
                .get(AgentId(k as u32))
                .value_syms()
                .into_iter()
                .any(|s| held.get(s.0 as usize))
        }));
        out.strings = Arc::new(held);
        out
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

    /// The length of the text, lowercased: of two texts a third holds, the longer narrows more.
    pub(super) fn text_len(&self) -> usize {
        self.needle.lower.len()
    }

    /// Whether `other` holds these very answers for the strings (not a copy computed again).
    #[cfg(test)]
    pub(in crate::store) fn shares_answers_with(&self, other: &SearchBits) -> bool {
        Arc::ptr_eq(&self.strings, &other.strings)
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
        // Where no string holds the text, no set or agent does: neither is read.
        let in_a_string = self.in_a_string;
        let known = self.sets.len();
        if known < sets.len() {
            let strings = Arc::clone(&self.strings);
            Arc::make_mut(&mut self.sets).extend(
                sets.sets_from(known)
                    .map(|set| in_a_string && set.iter().any(|s| strings.get(s.0 as usize))),
            );
        }
        let known = self.agents.len();
        if known < agents.len() {
            let strings = Arc::clone(&self.strings);
            Arc::make_mut(&mut self.agents).extend(agents.agents_from(known).map(|agent| {
                in_a_string
                    && agent
                        .value_syms()
                        .into_iter()
                        .any(|s| strings.get(s.0 as usize))
            }));
        }
        self
    }

    /// Whether event `i` of `store` (whose strings and sets these answers cover) matches,
    /// answered without reading its description from the dump; `None` when the answer is
    /// whether the text is in the description ([`SearchBits::in_description`]).
    pub fn matches_unread(&self, store: &Store, i: usize) -> Option<bool> {
        if let Some(answer) = self.matches_located(&store.located, i) {
            return Some(answer);
        }
        let row: &Row = store.row(i);
        if row.search_raw() {
            return Some(self.needle.matches_json(store.raw(i)));
        }
        let hit = |s: Sym| self.strings.get(s.0 as usize);
        if self.in_numbers(i)
            || (self.in_a_string
                && (hit(row.kind)
                    || row.value_syms().into_iter().any(hit)
                    || self.agents.get(row.agent.index())
                    || self.sets.get(row.others as usize)))
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
        let located = &store.located;
        // The id and the timestamp are spelled out again from the row when they can be, and
        // the description is read only when it holds every pair of characters of the text.
        let id = if row.id_is_uuid() {
            n.id_like && n.in_lowercase(&uuid_text(located.uuid_bytes(i)))
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
        if row.description_at.is_none() || !self.may_be_in_description(located.pairs(i)) {
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
    /// Whether event `i` matches, answered from what the search keeps beside its row
    /// (`located`) without reading the row, for a text that no interned string holds and that
    /// can be in no timestamp; `None` when the row is to be read (and for other texts). Such a
    /// text is in the event only if it is in one of its numbers, its id or its description:
    /// the flags of `located` say whether the id and the timestamp need reading.
    #[inline]
    pub(in crate::store) fn matches_located(
        &self,
        located: &LocatedRows,
        i: usize,
    ) -> Option<bool> {
        let n = &self.needle;
        if self.in_a_string || n.time_like || !n.ascii || !located.decided_here(i) {
            return None;
        }
        if self.in_numbers(i)
            || (n.id_like
                && located
                    .uuid(i)
                    .is_some_and(|id| n.in_lowercase(&uuid_text(id))))
        {
            return Some(true);
        }
        // Passing, the description is to be read, and its place is in the row.
        (!self.may_be_in_description(located.pairs(i))).then_some(false)
    }

    /// Whether a description of these pairs holds every pair of characters of the text (for a
    /// text that is not ASCII, it may).
    fn may_be_in_description(&self, pairs: &Bigrams) -> bool {
        !self.needle.ascii || pairs.holds(&self.needle.bigrams)
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
