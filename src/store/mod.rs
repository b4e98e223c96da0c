//! The loaded events: each event's original JSON kept byte for byte (in a memory-mapped dump or an
//! owned page), and beside it a compact row of what filtering and the list need, with repeated
//! strings interned. Events are de-duplicated by `id`; the first copy read wins.

mod batch;
mod blob;
mod intern;
pub mod probe;
mod search;

pub use batch::{Batch, BatchBuilder};
pub use blob::Blob;
pub use intern::{Interner, Sym};
pub use search::Needle;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::event::Event;
use crate::filter::Filter;

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
    pub error_code: Option<i64>,
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
    pub error_message: Sym,
    pub action: Sym,
    pub domain: Sym,
    pub sdk: Sym,
    pub sdk_version: Sym,
    pub os: Sym,
    pub os_version: Sym,
    pub device_model: Sym,
    pub env: Sym,
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
            Some(s) => parse_uuid(s).map_or_else(|| IdKey::Text(Box::from(s)), IdKey::Uuid),
        }
    }
}

/// Parses exactly `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex, so that two ids map to
/// the same key only when their strings are equal.
fn parse_uuid(s: &str) -> Option<u128> {
    let b = s.as_bytes();
    if b.len() != 36 {
        return None;
    }
    let mut v: u128 = 0;
    for (i, &c) in b.iter().enumerate() {
        if matches!(i, 8 | 13 | 18 | 23) {
            if c != b'-' {
                return None;
            }
            continue;
        }
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => return None,
        };
        v = (v << 4) | d as u128;
    }
    Some(v)
}

#[derive(Debug, Default)]
struct IdIndex {
    uuids: FxHashMap<u128, u32>,
    texts: FxHashMap<Box<str>, u32>,
}

impl IdIndex {
    /// Records the id for row `row`; false when the id was already loaded.
    fn insert(&mut self, key: IdKey, row: u32) -> bool {
        use std::collections::hash_map::Entry;
        match key {
            IdKey::Absent => true,
            IdKey::Uuid(u) => match self.uuids.entry(u) {
                Entry::Vacant(e) => {
                    e.insert(row);
                    true
                }
                Entry::Occupied(_) => false,
            },
            IdKey::Text(t) => match self.texts.entry(t) {
                Entry::Vacant(e) => {
                    e.insert(row);
                    true
                }
                Entry::Occupied(_) => false,
            },
        }
    }
}

#[derive(Debug, Default)]
pub struct Store {
    blobs: Vec<Arc<Blob>>,
    rows: Vec<Row>,
    strings: Interner,
    ids: IdIndex,
    duplicates: usize,
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

    /// How many events were dropped because an event with the same id was already loaded.
    pub fn duplicates(&self) -> usize {
        self.duplicates
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
    pub fn merge(&mut self, batch: Batch) -> Merged {
        let first = self.rows.len();
        let blob = self.blobs.len() as u32;
        self.blobs.push(batch.blob);
        let remap: Vec<Sym> = batch
            .strings
            .strings()
            .iter()
            .enumerate()
            .map(|(i, s)| if i == 0 { Sym::NONE } else { self.strings.intern(s) })
            .collect();
        let map = |s: Sym| remap[s.0 as usize];
        let mut duplicates = 0;
        self.rows.reserve(batch.rows.len());
        for (mut row, id) in batch.rows.into_iter().zip(batch.ids) {
            if !self.ids.insert(id, self.rows.len() as u32) {
                duplicates += 1;
                continue;
            }
            row.blob = blob;
            row.kind = map(row.kind);
            for sym in row.syms_mut() {
                *sym = map(*sym);
            }
            self.rows.push(row);
        }
        self.duplicates += duplicates;
        Merged {
            first,
            added: self.rows.len() - first,
            duplicates,
        }
    }

    /// Indices of the events in `range` that match the filter, in load order.
    pub fn matching(&self, filter: &Filter, range: std::ops::Range<usize>) -> Vec<u32> {
        let compiled = filter.compile(self);
        let mut out = Vec::new();
        for i in range {
            if compiled.matches(self, i) {
                out.push(i as u32);
            }
        }
        out
    }

    /// Indices of every event that matches the filter, in load order.
    pub fn filter(&self, filter: &Filter) -> Vec<u32> {
        self.matching(filter, 0..self.rows.len())
    }
}

impl Row {
    /// The interned string fields other than `kind`, for remapping.
    fn syms_mut(&mut self) -> [&mut Sym; 17] {
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
            &mut self.env,
        ]
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
