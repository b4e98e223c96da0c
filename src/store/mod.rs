//! The loaded events: each event's original JSON kept byte for byte (in a memory-mapped dump or an
//! owned page), and beside it a compact row of what filtering and the list need, with repeated
//! strings interned. Events are de-duplicated by `id`; the first copy read wins.

mod batch;
mod bigrams;
mod blob;
mod caseless;
mod ids;
mod intern;
mod numbers;
mod plain;
mod prefetch;
pub mod probe;
mod query;
mod remembered;
#[cfg(test)]
pub(crate) mod scale;
mod search;
mod sets;
mod slices;
mod spares;
mod spelled;
mod uuid;
mod walk;

#[cfg(test)]
pub(crate) use batch::reads_under_way;
pub use batch::{Batch, BatchBuilder, Reading};
use bigrams::Bigrams;
pub use blob::Blob;
pub use intern::{Interner, Sym};
pub use query::Query;
pub use search::{Needle, SearchBits};
pub use sets::SymSets;
use uuid::parse_uuid;

use std::sync::Arc;

use crate::event::Event;
use crate::filter::Filter;
use ids::IdIndex;

/// Below this many events a filter runs on one thread: starting threads would cost more.
const PARALLEL_FROM: usize = 100_000;

/// `Row::ts` of an event without a readable timestamp.
pub const NO_TIME: i64 = i64::MIN;

/// `Row::terminal` values.
pub const TERMINAL_ABSENT: u8 = 0;
pub const TERMINAL_FALSE: u8 = 1;
pub const TERMINAL_TRUE: u8 = 2;

/// What the store knows of one event without re-reading its JSON.
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// Nanoseconds since the epoch, or [`NO_TIME`].
    pub ts: i64,
    /// The event's `error_code` when `has_code` (see [`Row::error_code`]): an `i64` and a flag
    /// where an `Option<i64>` would take 16 bytes.
    code: i64,
    has_code: bool,
    /// Where the event's JSON is: `blobs[blob][offset..offset + len]`.
    pub offset: u64,
    pub len: u32,
    pub blob: u32,
    pub kind: Sym,
    pub terminal: u8,
    pub room_id: Sym,
    pub room_name: Sym,
    pub session_id: Sym,
    pub peer_id: Sym,
    pub user_id: Sym,
    pub user_name: Sym,
    pub role: Sym,
    pub error_name: Sym,
    /// `Sym::NONE` for a long message where long values do not repeat: only the search reads
    /// it, and reads that event's JSON instead (`search_raw`).
    pub error_message: Sym,
    pub action: Sym,
    pub domain: Sym,
    pub sdk: Sym,
    pub sdk_version: Sym,
    pub os: Sym,
    pub os_version: Sym,
    pub device_model: Sym,
    /// The agent's `string`.
    pub agent: Sym,
    pub env: Sym,
    /// The event's other string values, as a set in [`Store::sets`] (for the text search).
    pub others: u32,
    /// Where the quoted `id`, `timestamp` and `data.error_description` strings stand in the
    /// event's JSON: values too varied to intern, which the text search reads in place.
    pub id_at: Span,
    pub ts_at: Span,
    pub description_at: Span,
    /// The text search must read the event's whole JSON: it holds a value that could not be
    /// indexed (an escape that is not valid text, a value too far into a long event) or that
    /// was not worth keeping (a long value where long values do not repeat).
    pub search_raw: bool,
    /// The located id is a canonical UUID, and the timestamp is written with digits and
    /// `T:.Z+-` only: a search text with other characters cannot be in them.
    pub id_is_uuid: bool,
    pub ts_is_plain: bool,
    /// The located description holds an escape.
    pub description_escaped: bool,
    /// How the located timestamp is spelled from `ts`, when it is spelled the usual way: its
    /// number of fraction digits (see `spelled::timestamp_digits`). Here rather than in
    /// [`Located`]: it fits in what the row's alignment leaves free.
    pub ts_digits: Option<u8>,
}

/// What the text search knows of the three strings a row locates in place, which spares it
/// reading them from the dump. Kept beside the rows, not in them: only a search reads it, and
/// the scans of filters and groups stay as short as the rows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Located {
    /// The id's sixteen bytes when it is a canonical UUID (`Row::id_is_uuid`): the search
    /// spells it out again.
    pub id_uuid: [u8; 16],
    /// The pairs of characters of the description, which rule most search texts out without
    /// reading it (`Bigrams::ALL` when they cannot be trusted to).
    pub description_bigrams: Bigrams,
}

/// A string's place within its event's JSON; a length of 0 means none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    at: u16,
    len: u16,
}

impl Span {
    /// The span of `start..end`, `None` when it does not fit.
    pub fn new(start: usize, end: usize) -> Option<Span> {
        Some(Span {
            at: u16::try_from(start).ok()?,
            len: u16::try_from(end - start).ok()?,
        })
    }

    pub fn is_none(self) -> bool {
        self.len == 0
    }

    /// Where it starts in the event's JSON.
    pub fn start(self) -> usize {
        self.at as usize
    }

    /// Its bytes in the event's JSON `raw`.
    pub fn of(self, raw: &[u8]) -> Option<&[u8]> {
        let start = self.at as usize;
        (self.len > 0).then(|| raw.get(start..start + self.len as usize))?
    }
}

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
                parse_uuid(s.as_bytes()).map_or_else(|| IdKey::Text(Box::from(s)), IdKey::Uuid)
            }
        }
    }

    /// The key of an id given as the bytes of a JSON string without escapes.
    pub fn of_bytes(id: &[u8]) -> Option<IdKey> {
        match parse_uuid(id) {
            Some(u) => Some(IdKey::Uuid(u)),
            None => std::str::from_utf8(id)
                .ok()
                .map(|s| IdKey::Text(Box::from(s))),
        }
    }
}

/// The rows of each peer, as a list through the rows: a peer's story and chains read a few rows
/// instead of all of them.
#[derive(Debug, Default)]
struct PeerIndex {
    /// The last row of each peer, by the peer id's symbol (`u32::MAX` for none): symbols are
    /// dense, so a list indexed by them costs less than a map.
    last: Vec<u32>,
    /// For each row, the previous row of its peer (`u32::MAX` for none).
    previous: Vec<u32>,
}

impl PeerIndex {
    fn push(&mut self, peer: Sym, row: u32) {
        let mut previous = u32::MAX;
        if !peer.is_none() {
            let at = peer.0 as usize;
            if at >= self.last.len() {
                self.last.resize((at + 1).next_power_of_two(), u32::MAX);
            }
            previous = std::mem::replace(&mut self.last[at], row);
        }
        self.previous.push(previous);
    }

    /// The rows of `peer`, in load order.
    fn rows(&self, peer: Sym) -> Vec<u32> {
        let mut rows = Vec::new();
        let mut at = if peer.is_none() {
            u32::MAX
        } else {
            self.last.get(peer.0 as usize).copied().unwrap_or(u32::MAX)
        };
        while at != u32::MAX {
            rows.push(at);
            at = self.previous[at as usize];
        }
        rows.reverse();
        rows
    }
}

#[derive(Debug, Default)]
pub struct Store {
    blobs: Vec<Arc<Blob>>,
    rows: Vec<Row>,
    /// Beside each row, up to the last row the search indexed: a store read without the
    /// index (`BatchBuilder::unindexed`, whose rows the search reads whole) keeps none.
    located: Vec<Located>,
    strings: Interner,
    sets: SymSets,
    ids: IdIndex,
    peers: PeerIndex,
    duplicates: usize,
    /// The earliest and the latest time of the events that have one.
    times: Option<(i64, i64)>,
    /// The text search's last answers for each string and set, extended as the store grows.
    search: std::sync::Mutex<Option<SearchBits>>,
    /// The numbers of each event as written, read the first time a search text could be part
    /// of one, and extended as the store grows.
    numbers: std::sync::Mutex<numbers::NumberIndex>,
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

    /// How many events were dropped because an event with the same id was already loaded.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// What the text search knows of row `i`'s located strings.
    pub fn located(&self, i: usize) -> &Located {
        const NOTHING: Located = Located {
            id_uuid: [0; 16],
            description_bigrams: Bigrams::ALL,
        };
        self.located.get(i).unwrap_or(&NOTHING)
    }

    pub fn row(&self, i: usize) -> &Row {
        &self.rows[i]
    }

    pub fn strings(&self) -> &Interner {
        &self.strings
    }

    /// The rows of one peer, in load order; none for `Sym::NONE`.
    pub fn rows_of_peer(&self, peer: Sym) -> Vec<u32> {
        if peer.is_none() {
            return Vec::new();
        }
        self.peers.rows(peer)
    }

    /// The sets of other string values that rows refer to (`Row::others`).
    pub fn sets(&self) -> &SymSets {
        &self.sets
    }

    /// Which strings and sets hold `needle`, computed for what was added since the last search
    /// for the same text.
    pub fn search_bits(&self, needle: &Needle) -> SearchBits {
        let mut cache = self.search.lock().unwrap_or_else(|e| e.into_inner());
        let bits = match cache.take() {
            Some(bits) if bits.is_for(needle) => bits,
            _ => SearchBits::new(needle),
        };
        let bits = bits.extended(&self.strings, &self.sets);
        *cache = Some(bits.clone());
        drop(cache);
        if !needle.is_number_like() {
            return bits;
        }
        let mut numbers = self.numbers.lock().unwrap_or_else(|e| e.into_inner());
        numbers.extend(self);
        bits.with_numbers(numbers.rows_where(|text| needle.matches_number(text.as_bytes())))
    }

    pub fn str(&self, sym: Sym) -> &str {
        self.strings.get(sym)
    }

    /// The event's JSON exactly as it was read.
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
        let mut duplicates = 0;
        let fresh = self.ids.insert_all(&mut batch.ids);
        for ((mut row, located), fresh) in batch.rows.drain(..).zip(fresh) {
            if !fresh {
                duplicates += 1;
                continue;
            }
            row.blob = blob;
            row.kind = map(row.kind);
            row.others = set_remap[row.others as usize];
            for sym in row.syms_mut() {
                *sym = map(*sym);
            }
            if row.ts != NO_TIME {
                self.times = Some(match self.times {
                    Some((a, z)) => (a.min(row.ts), z.max(row.ts)),
                    None => (row.ts, row.ts),
                });
            }
            self.peers.push(row.peer_id, self.rows.len() as u32);
            if !row.search_raw {
                self.located.resize(self.rows.len(), Located::default());
                self.located.push(located);
            }
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

    /// Makes room for the rest of the batch's blob at once, judged by the size of the batch's
    /// events, when the batch does not fit: growing to a million rows one doubling at a time
    /// would copy them over and over. The guess is trusted up to four times the rows held so
    /// far, so that a first batch of unusually small events cannot reserve gigabytes. (The id
    /// set grows on its own, by doubling: its slots are touched all over, so room reserved
    /// there would be memory, not only address space.)
    fn reserve_for(&mut self, batch: &Batch) {
        let n = batch.rows.len();
        if self.rows.capacity() - self.rows.len() >= n {
            return;
        }
        let bytes: u64 = batch.rows.iter().map(|(r, _)| u64::from(r.len) + 1).sum();
        let whole = (batch.blob.len() as u64).saturating_mul(n as u64) / bytes.max(1);
        let cap = self.rows.len().saturating_add(n).saturating_mul(4);
        let expected = usize::try_from(whole).unwrap_or(usize::MAX).min(cap).max(n);
        self.rows.reserve(expected);
        if batch.rows.iter().any(|(row, _)| !row.search_raw) {
            self.located.reserve(expected);
        }
        self.peers.previous.reserve(expected);
    }

    /// Indices of the events in `range` that match the filter, in load order.
    pub fn matching(&self, filter: &Filter, range: std::ops::Range<usize>) -> Vec<u32> {
        if filter.is_empty() {
            // Every event, without reading one: what a store shows while it loads unfiltered.
            return range.map(|i| i as u32).collect();
        }
        let compiled = Query::new(self, filter);
        let scan = |r: std::ops::Range<usize>| -> Vec<u32> {
            // First what the rows answer, then the descriptions left to read: each is fetched
            // a few ahead, as they are scattered over the dump.
            let mut matched = Vec::new();
            let mut unread = Vec::new();
            for i in r {
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
        };
        if range.len() < PARALLEL_FROM {
            return scan(range);
        }
        // Large stores are cut into one slice per core; the slices are joined in order.
        let at = range.start;
        crate::parallel::in_ranges(range.len(), crate::parallel::cores(), |r| {
            scan(at + r.start..at + r.end)
        })
        .concat()
    }

    /// Indices of every event that matches the filter, in load order.
    pub fn filter(&self, filter: &Filter) -> Vec<u32> {
        self.matching(filter, 0..self.rows.len())
    }
}

/// How many descriptions ahead a search asks for the one it will read.
const FETCH_AHEAD: usize = 12;

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

impl Row {
    /// The interned string fields other than `kind`, for remapping.
    fn syms_mut(&mut self) -> [&mut Sym; 18] {
        [
            &mut self.room_id,
            &mut self.room_name,
            &mut self.session_id,
            &mut self.peer_id,
            &mut self.user_id,
            &mut self.user_name,
            &mut self.role,
            &mut self.error_name,
            &mut self.error_message,
            &mut self.action,
            &mut self.domain,
            &mut self.sdk,
            &mut self.sdk_version,
            &mut self.os,
            &mut self.os_version,
            &mut self.device_model,
            &mut self.agent,
            &mut self.env,
        ]
    }

    /// The interned string fields that hold a value of the event as it was written (`env` is
    /// read out of the agent string, and `kind` is apart).
    pub fn value_syms(&self) -> [Sym; 17] {
        [
            self.room_id,
            self.room_name,
            self.session_id,
            self.peer_id,
            self.user_id,
            self.user_name,
            self.role,
            self.error_name,
            self.error_message,
            self.action,
            self.domain,
            self.sdk,
            self.sdk_version,
            self.os,
            self.os_version,
            self.device_model,
            self.agent,
        ]
    }

    /// The event's `error_code`, when it has one.
    pub fn error_code(&self) -> Option<i64> {
        self.has_code.then_some(self.code)
    }

    pub fn set_error_code(&mut self, code: Option<i64>) {
        self.code = code.unwrap_or(0);
        self.has_code = code.is_some();
    }

    pub fn is_terminal(&self) -> Option<bool> {
        match self.terminal {
            TERMINAL_TRUE => Some(true),
            TERMINAL_FALSE => Some(false),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod filter_tests;
