//! The loaded events: each event's original JSON kept byte for byte (in a memory-mapped dump or an
//! owned page), and beside it a compact row of what filtering and the list need, with repeated
//! strings interned. Events are de-duplicated by `id`; the first copy read wins.
//!
//! - [`Store`] (here) holds the rows, each event's [`Row`] (`row`), and merges batches.
//! - `batch/` reads events into a [`Batch`] off the UI thread: a [`BatchBuilder`], made by the
//!   [`Reading`] of a dump, makes each event's row and indexes its strings for the search.
//! - `read/` reads an event's JSON without building a tree ([`probe`] and its fast path).
//! - `intern/` stores each distinct string, set of strings and id once ([`Interner`]).
//! - `search/` is the text search ([`Needle`], [`SearchBits`]).
//! - `memory/` is where the bytes are kept ([`Blob`]) and how memory is reused.
//! - `tracks` holds the rows of the track events, and each user's among them.
//! - `chains` finds the rows of a peer, or the track events of a user, as lists through them.
//! - `brief` keeps each row's type and `is_terminal` in a byte beside the rows, which a filter of
//!   types and of final or retried errors reads in place of the rows.

mod batch;
mod brief;
mod chains;
#[cfg(test)]
mod footprint;
mod intern;
mod memory;
mod query;
mod read;
mod row;
#[cfg(test)]
pub(crate) mod scale;
mod search;
mod tracks;

pub use batch::{Batch, BatchBuilder, Reading};
pub use intern::ids::IdKey;
pub use intern::{Agent, AgentId, Agents, Interner, Sym, SymSets};
pub use memory::Blob;
pub use query::Query;
pub use read::shape::{OddField, OddFields};
pub use read::{next_stop, probe, skipping};
use row::{Located, Span};
pub use row::{NO_TIME, Row};
pub use search::{Needle, NumberWork, SearchBits};

use std::sync::Arc;

use rayon::prelude::*;

use crate::event::Event;
use crate::filter::Filter;
use intern::ids::IdIndex;

/// Below this many events a filter runs on one thread: starting threads would cost more.
const PARALLEL_FROM: usize = 100_000;

/// The events seen after which the size of a batch's events is trusted to tell how many the
/// rest of its blob holds (see [`Store::reserve_for`]).
const TRUSTED_SAMPLE: usize = 20_000;

/// The rows of each peer, as a list through the rows: a peer's story and chains read a few rows
/// instead of all of them. The last row of each peer is kept by the peer id's symbol, in a list:
/// most symbols of a store are peer ids.
type PeerIndex = chains::Chains<chains::BySymbol>;

#[derive(Debug, Default)]
pub struct Store {
    blobs: Vec<Arc<Blob>>,
    rows: Vec<Row>,
    /// Beside each row, its type and `is_terminal` in a byte, for the filters of those.
    briefs: brief::Briefs,
    /// Beside each row, up to the last row the search indexed: a store read without the
    /// index (`BatchBuilder::unindexed`, whose rows the search reads whole) keeps none.
    located: search::LocatedRows,
    strings: Interner,
    sets: SymSets,
    /// The distinct agents rows refer to (`Row::agent`).
    agents: Agents,
    ids: IdIndex,
    peers: PeerIndex,
    /// The rows of track events (a type starting with `track.`) that have a time, in load
    /// order, and those of each user.
    tracks: tracks::Tracks,
    duplicates: usize,
    /// The events held that hold a field of another type than the API's.
    odd: OddFields,
    /// Where each event dropped as a later copy of an id is: (blob, offset, length), in the
    /// order they were met.
    dropped: Vec<(u32, u64, u32)>,
    /// The earliest and the latest time of the events that have one.
    times: Option<(i64, i64)>,
    /// The time range of the events read beside the store and left out of it, when the reader
    /// that left them out noted it (see [`Store::left_out_spanning`]).
    left_out_times: Option<(i64, i64)>,
    /// Events read beside these, each the first of its id, that a reader keeping only those
    /// that match left out.
    left_out: usize,
    /// The text search's answers for each string and set, for the last few texts, extended as
    /// the store grows.
    search: std::sync::Mutex<search::RecentSearches>,
    /// The numbers of each event as written, read the first time a search text could be part
    /// of one, and extended as the store grows.
    /// Shared with the thread that reads them ahead of a search ([`Store::number_work`]).
    numbers: Arc<std::sync::Mutex<search::NumberIndex>>,
}

/// The ids of events read, for a reader that de-duplicates as a store does without keeping every
/// event: an id is new when no equal one was recorded before it (an absent one always is).
#[derive(Debug, Default)]
pub struct SeenIds(IdIndex);

impl SeenIds {
    /// Records `ids`, in order, and empties them; for each, whether it is new.
    pub fn record(&mut self, ids: &mut Vec<IdKey>) -> Vec<bool> {
        self.0.insert_all(ids)
    }
}

/// What merging a batch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Merged {
    /// Index of the first added row (rows are only ever appended).
    pub first: usize,
    pub added: usize,
    pub duplicates: usize,
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The earliest and the latest time (nanoseconds since the epoch) of the events that have
    /// one; `None` when none has.
    pub fn time_range(&self) -> Option<(i64, i64)> {
        self.times
    }

    /// How many events were read into it, or beside it by a reader that kept only those that
    /// match (the first copy of each id; the same as [`Store::len`] for a store read whole).
    pub fn events_read(&self) -> usize {
        self.rows.len() + self.left_out
    }

    /// The events of another type than the API's among every event read, the store's and
    /// those read beside it (see [`Store::left_out`]), in place of the store's own count.
    pub fn read_odd_fields(&mut self, odd: OddFields) {
        self.odd = odd;
    }

    /// Counts `n` events read beside the store's and left out of it.
    pub fn left_out(&mut self, n: usize) {
        self.left_out += n;
    }

    /// Notes the earliest and the latest time of the events read beside the store's and left
    /// out of it (see [`Store::left_out`]).
    pub fn left_out_spanning(&mut self, from: i64, to: i64) {
        self.left_out_times = Some(widened(self.left_out_times, from, to));
    }

    /// The earliest and the latest time of every event read, the store's and those read beside
    /// it (see [`Store::left_out_spanning`]); `None` when none has one.
    pub fn time_range_read(&self) -> Option<(i64, i64)> {
        match self.left_out_times {
            Some((from, to)) => Some(widened(self.times, from, to)),
            None => self.times,
        }
    }

    /// How many events were dropped because an event with the same id was already loaded.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// The events held that hold a field of another type than the API's, read as absent there.
    pub fn odd_fields(&self) -> OddFields {
        self.odd.clone()
    }

    /// The JSON of each event dropped because an event with the same id was already loaded, in
    /// the order they were met.
    pub fn dropped_raws(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.dropped.iter().map(|&(blob, offset, len)| {
            let start = offset as usize;
            &self.blobs[blob as usize][start..start + len as usize]
        })
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn row(&self, i: usize) -> &Row {
        &self.rows[i]
    }

    pub fn strings(&self) -> &Interner {
        &self.strings
    }

    /// The fields of `row`'s agent (every one absent for an event without one).
    pub fn agent(&self, row: &Row) -> &Agent {
        self.agents.get(row.agent)
    }

    /// The distinct agents rows refer to.
    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    /// The rows of one peer, in load order; none for `Sym::NONE`.
    pub fn rows_of_peer(&self, peer: Sym) -> Vec<u32> {
        self.peers.of(peer)
    }

    /// The rows of the track events that have a time (their type starts with `track.`), in
    /// load order.
    pub fn track_rows(&self) -> &[u32] {
        self.tracks.rows()
    }

    /// The rows of `user`'s track events that have a time, in load order; none for
    /// `Sym::NONE`.
    pub fn track_rows_of_user(&self, user: Sym) -> Vec<u32> {
        self.tracks.of_user(user)
    }

    /// The sets of other string values that rows refer to (`Row::others`).
    pub fn sets(&self) -> &SymSets {
        &self.sets
    }

    /// Which strings and sets hold `needle`, computed for what was added since the last search
    /// for the same text.
    pub fn search_bits(&self, needle: &Needle) -> SearchBits {
        let mut cache = self.search.lock().unwrap_or_else(|e| e.into_inner());
        let bits = match cache.take_for(needle) {
            Some(bits) if bits.is_for(needle) => bits,
            // A text typed longer (a find): only the strings the text before held can hold it.
            Some(bits) => bits.narrowed(needle, &self.strings, &self.sets, &self.agents),
            None => SearchBits::new(needle),
        };
        let mut lap = crate::time::Lap::new(std::time::Instant::now());
        let bits = bits.extended(&self.strings, &self.sets, &self.agents, self.times);
        cache.keep(bits.clone());
        drop(cache);
        let strings_ms = lap.split();
        if !needle.is_number_like() {
            tracing::trace!(strings_ms, "search bits");
            return bits;
        }
        let mut numbers = self.numbers.lock().unwrap_or_else(|e| e.into_inner());
        lap.split();
        numbers.extend(self);
        let numbers_ms = lap.split();
        let rows = numbers.rows_where(|text| needle.matches_number(text.as_bytes()));
        tracing::trace!(strings_ms, numbers_ms, rows_ms = lap.split(), "search bits");
        bits.with_numbers(rows)
    }

    /// What reading the numbers of the next `most` events (at least one) not read yet takes,
    /// to read them on a thread of their own before a search needs them (see
    /// [`NumberWork::read`]); `None` when every event's were read already. Making it is a pass
    /// over those events' rows (about 20 ns a row): five million at once held the UI thread
    /// for 100 ms.
    pub fn number_work(&self, most: usize) -> Option<NumberWork> {
        let covered = self.numbers.lock().unwrap_or_else(|e| e.into_inner()).len();
        if covered >= self.rows.len() {
            return None;
        }
        // One pass over the rows, which are wide.
        let end = self.rows.len().min(covered.saturating_add(most.max(1)));
        let left = &self.rows[covered..end];
        let mut places = search::Places::with_capacity(left.len());
        for r in left {
            places.push(search::Place {
                blob: r.blob,
                start: r.offset,
                len: r.len,
            });
        }
        Some(NumberWork {
            index: Arc::clone(&self.numbers),
            blobs: self.blobs.clone(),
            from: covered,
            places,
        })
    }

    /// How many events' numbers were read (for tests of the reading ahead).
    #[cfg(test)]
    pub(crate) fn numbers_read(&self) -> usize {
        self.numbers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn str(&self, sym: Sym) -> &str {
        self.strings.get(sym)
    }

    /// The event's JSON exactly as it was read.
    /// Event `i`'s id as written in its JSON, quotes and escapes included, where it was located
    /// when the event was read.
    pub fn id_written(&self, i: usize) -> Option<&[u8]> {
        self.rows[i].id_at.of(self.raw(i))
    }

    pub fn raw(&self, i: usize) -> &[u8] {
        let row = &self.rows[i];
        let start = row.offset as usize;
        &self.blobs[row.blob as usize][start..start + row.len as usize]
    }

    /// The full reading of one event (for the detail pane); done only when it is needed.
    pub fn event(&self, i: usize) -> Event {
        // Every raw span was parsed as a JSON object when it was loaded.
        Event::parse(self.raw(i)).unwrap_or_else(|_| Event::from_object(Default::default()))
    }

    /// Appends a batch's new events, dropping those whose id is already loaded.
    pub fn merge(&mut self, mut batch: Batch) -> Merged {
        let first = self.rows.len();
        let blob = self.blobs.len() as u32;
        self.reserve_for(&batch);
        self.blobs.push(Arc::clone(&batch.blob));
        let remap = self.strings.intern_all(&batch.strings);
        let map = |s: Sym| remap[s.0 as usize];
        let mut scratch = Vec::new();
        let set_remap: Vec<u32> = batch
            .sets
            .sets_from(0)
            .map(|set| {
                scratch.clear();
                scratch.extend(set.iter().map(|&s| map(s)));
                scratch.sort_unstable();
                scratch.dedup();
                self.sets.intern(&scratch)
            })
            .collect();
        let agent_remap: Vec<AgentId> = batch
            .agents
            .agents_from(0)
            .map(|agent| self.agents.intern(agent.map(map)))
            .collect();
        let mut duplicates = 0;
        // Whether each type is a track event's, asked once per type.
        let mut track_kinds = rustc_hash::FxHashMap::default();
        let fresh = self.ids.insert_all(&mut batch.ids);
        let mut odd = batch.odd.iter().peekable();
        for (k, ((mut row, located), fresh)) in batch.rows.drain(..).zip(fresh).enumerate() {
            // The field of another type, of the first copy of an id only.
            if let Some(&(_, field)) = odd.next_if(|(at, _)| *at as usize == k)
                && fresh
            {
                self.odd.note(field);
            }
            if !fresh {
                duplicates += 1;
                self.dropped.push((blob, row.offset, row.len));
                continue;
            }
            row.blob = blob;
            row.kind = map(row.kind);
            row.others = set_remap[row.others as usize];
            row.agent = agent_remap[row.agent.index()];
            for sym in row.syms_mut() {
                *sym = map(*sym);
            }
            if row.ts != NO_TIME {
                self.times = Some(widened(self.times, row.ts, row.ts));
            }
            self.peers.push(row.peer_id);
            if row.ts != NO_TIME && self.is_track_kind(&mut track_kinds, row.kind) {
                self.tracks.push(self.rows.len() as u32, row.user_id);
            }
            if !row.search_raw() {
                let mut located = located;
                located.note_row(&row);
                self.located.fill_to(self.rows.len());
                self.located.push(located);
            }
            self.briefs.push(&row);
            self.rows.push(row);
        }
        self.duplicates += duplicates;
        batch.give_back();
        Merged {
            first,
            added: self.rows.len() - first,
            duplicates,
        }
    }

    /// Whether `kind` is a track event's type, remembered in `known` for the rest of a merge.
    fn is_track_kind(&self, known: &mut rustc_hash::FxHashMap<Sym, bool>, kind: Sym) -> bool {
        *known
            .entry(kind)
            .or_insert_with(|| self.strings.get(kind).starts_with("track."))
    }

    /// Makes room for the rest of the batch's blob at once, judged by the size of the batch's
    /// events, when the batch does not fit: growing to a million rows one doubling at a time
    /// would copy them over and over, each copy a pause of the UI thread that merges (hundreds
    /// of milliseconds past a million rows). Until [`TRUSTED_SAMPLE`] events were seen, the
    /// guess is trusted up to four times the rows held so far, so that a first batch of
    /// unusually small events cannot reserve gigabytes; past that, it is trusted whole. (The
    /// id set grows on its own, by doubling: its slots are touched all over, so room reserved
    /// there would be memory, not only address space, and a guess of the events a few tens of
    /// per cent high would double it.)
    fn reserve_for(&mut self, batch: &Batch) {
        let n = batch.rows.len();
        if self.rows.capacity() - self.rows.len() >= n {
            return;
        }
        let bytes: u64 = batch.rows.iter().map(|(r, _)| u64::from(r.len) + 1).sum();
        let whole = (batch.blob.len() as u64).saturating_mul(n as u64) / bytes.max(1);
        let seen = self.rows.len().saturating_add(n);
        let cap = if seen >= TRUSTED_SAMPLE {
            usize::MAX
        } else {
            seen.saturating_mul(4)
        };
        let expected = usize::try_from(whole).unwrap_or(usize::MAX).min(cap).max(n);
        self.rows.reserve(expected);
        self.briefs.reserve(expected);
        if batch.rows.iter().any(|(row, _)| !row.search_raw()) {
            self.located.reserve(expected);
        }
        self.peers.previous.reserve(expected);
    }

    /// Indices of the events in `range` that match the filter, in load order.
    pub fn matching(&self, filter: &Filter, range: std::ops::Range<usize>) -> Vec<u32> {
        self.matching_in(filter, range.clone(), slices_for(range.len()))
    }

    /// [`Store::matching`], `range` cut into `parts` slices read on the pool's threads, whose
    /// answers are joined in order.
    fn matching_in(
        &self,
        filter: &Filter,
        range: std::ops::Range<usize>,
        parts: usize,
    ) -> Vec<u32> {
        if filter.is_empty() {
            // Every event, without reading one: what a store shows while it loads unfiltered.
            return range.map(|i| i as u32).collect();
        }
        let mut lap = crate::time::Lap::new(std::time::Instant::now());
        let compiled = Query::new(self, filter);
        tracing::trace!(query_ms = lap.split(), "filter compiled");
        self.compiled_matching_in(&compiled, range, parts)
    }

    /// The events in `range` that `compiled` (a filter compiled for this store as it is)
    /// keeps, in load order: [`Store::matching`] for a filter compiled once and asked of
    /// several ranges in turn (a find looked for a part at a time).
    pub fn matching_compiled(&self, compiled: &Query, range: std::ops::Range<usize>) -> Vec<u32> {
        self.compiled_matching_in(compiled, range.clone(), slices_for(range.len()))
    }

    /// [`Store::matching_compiled`], `range` cut into `parts` slices read on the pool's
    /// threads, whose answers are joined in order.
    fn compiled_matching_in(
        &self,
        compiled: &Query,
        range: std::ops::Range<usize>,
        parts: usize,
    ) -> Vec<u32> {
        if parts <= 1 || range.is_empty() {
            return self.scan(compiled, range);
        }
        let step = range.len().div_ceil(parts);
        let starts: Vec<usize> = range.clone().step_by(step).collect();
        let slices: Vec<Vec<u32>> = starts
            .into_par_iter()
            .map(|start| self.scan(compiled, start..(start + step).min(range.end)))
            .collect();
        slices.concat()
    }

    /// Whether event `i` is one `compiled` (a filter compiled for this store as it is)
    /// keeps: one event's answer, its description read from the dump when that decides.
    pub fn keeps(&self, compiled: &Query, i: usize) -> bool {
        if let Some(sieve) = compiled.sieve() {
            match sieve.verdict(self.briefs.get(i)) {
                brief::Verdict::Out => return false,
                brief::Verdict::In => return true,
                brief::Verdict::Read => {}
            }
        }
        compiled
            .matches_unread(self, i)
            .unwrap_or_else(|| compiled.in_description(self, i))
    }

    /// The events of `rows` (indices in load order) that match the filter, in load order: what
    /// [`Store::matching`] gives, reading only those events.
    pub fn matching_among(&self, filter: &Filter, rows: &[u32]) -> Vec<u32> {
        self.matching_among_in(filter, rows, slices_for(rows.len()))
    }

    /// [`Store::matching_among`], `rows` cut into `parts` slices read on the pool's threads,
    /// whose answers are joined in order.
    fn matching_among_in(&self, filter: &Filter, rows: &[u32], parts: usize) -> Vec<u32> {
        if filter.is_empty() {
            return rows.to_vec();
        }
        self.compiled_among_in(&Query::new(self, filter), rows, parts)
    }

    /// The events of `rows` (indices in load order) that `compiled` (a filter compiled for
    /// this store as it is) keeps, in load order: [`Store::matching_among`] for a filter
    /// compiled once.
    pub fn matching_among_compiled(&self, compiled: &Query, rows: &[u32]) -> Vec<u32> {
        self.compiled_among_in(compiled, rows, slices_for(rows.len()))
    }

    /// [`Store::matching_among_compiled`], `rows` cut into `parts` slices read on the pool's
    /// threads, whose answers are joined in order.
    fn compiled_among_in(&self, compiled: &Query, rows: &[u32], parts: usize) -> Vec<u32> {
        // The rows are scattered (a find's candidates, a group's members): each is asked for
        // some ahead of its turn, where the processor would wait for it.
        let each = |rows: &[u32]| {
            let ahead = |k: usize| {
                if let Some(&i) = rows.get(k + ROWS_AHEAD) {
                    self.prefetch_row(i as usize);
                }
            };
            self.scan(
                compiled,
                rows.iter().enumerate().map(|(k, &i)| {
                    ahead(k);
                    i as usize
                }),
            )
        };
        if parts <= 1 || rows.is_empty() {
            return each(rows);
        }
        let step = rows.len().div_ceil(parts);
        let slices: Vec<Vec<u32>> = rows.par_chunks(step).map(each).collect();
        slices.concat()
    }

    /// The events of `rows` (ascending) that `compiled` keeps: first what the rows answer, then
    /// the descriptions left to read, each fetched a few ahead, as they are scattered over the
    /// dump.
    fn scan(&self, compiled: &Query, rows: impl Iterator<Item = usize>) -> Vec<u32> {
        let mut matched = Vec::new();
        let mut unread = Vec::new();
        let sieve = compiled.sieve();
        for i in rows {
            // The type and `is_terminal` first, from their byte: most rows are ruled out or in
            // without being read.
            if let Some(sieve) = sieve {
                match sieve.verdict(self.briefs.get(i)) {
                    brief::Verdict::Out => continue,
                    brief::Verdict::In => {
                        matched.push(i as u32);
                        continue;
                    }
                    brief::Verdict::Read => {}
                }
            }
            match compiled.matches_unread(self, i) {
                Some(true) => matched.push(i as u32),
                Some(false) => {}
                None => unread.push(i as u32),
            }
        }
        if unread.is_empty() {
            return matched;
        }
        let mut found = Vec::new();
        for (k, &i) in unread.iter().enumerate() {
            if let Some(&ahead) = unread.get(k + FETCH_AHEAD) {
                compiled.fetch_description(self, ahead as usize);
            }
            if compiled.in_description(self, i as usize) {
                found.push(i);
            }
        }
        merge_sorted(&matched, &found)
    }

    /// Asks for row `i`, and what the search knows of its strings, to be fetched into the cache.
    fn prefetch_row(&self, i: usize) {
        let row = &self.rows[i];
        // A row spans two cache lines (or three, the middle one ahead of its use anyway).
        memory::prefetch::prefetch(row);
        memory::prefetch::prefetch_end(row);
        self.located.prefetch(i);
    }

    /// Indices of every event that matches the filter, in load order.
    pub fn filter(&self, filter: &Filter) -> Vec<u32> {
        self.matching(filter, 0..self.rows.len())
    }
}

/// How many slices a filter cuts `len` events into: one per thread of the pool from
/// [`PARALLEL_FROM`] on.
fn slices_for(len: usize) -> usize {
    if len < PARALLEL_FROM {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// How many descriptions ahead a search asks for the one it will read.
const FETCH_AHEAD: usize = 12;

/// How many rows ahead a filter of scattered rows asks for the one it will read.
const ROWS_AHEAD: usize = 16;

/// The span `span` widened to hold `from..=to` (that span alone when there is none).
pub(crate) fn widened(span: Option<(i64, i64)>, from: i64, to: i64) -> (i64, i64) {
    match span {
        Some((a, z)) => (a.min(from), z.max(to)),
        None => (from, to),
    }
}

/// The numbers of two ascending lists, in one ascending list.
fn merge_sorted(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod filter_tests;
