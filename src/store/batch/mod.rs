//! Reading events into batches: a [`BatchBuilder`] reads each event's JSON into a row, interning
//! its strings in tables of its own and indexing them for the text search, off the UI thread; the
//! [`Batch`] it makes is merged into the store.

use std::sync::{Arc, Weak};

use super::read::probe::Probe;
use super::read::remembered::Seen;
use super::read::shape::OddField;
use super::read::walk::StrAt;
use super::{Agents, Blob, IdKey, Interner, Located, Row, SymSets};
use crate::store::memory::spares::Spares;

mod index;
mod tables;

#[cfg(test)]
pub(super) use tables::LONG_TRIAL;
use tables::Tables;

/// Rows read from one blob, with their own string table, ready to be merged into a [`Store`]
/// (built off the UI thread; merging remaps symbols and copies the rows).
///
/// [`Store`]: super::Store
#[derive(Debug)]
pub struct Batch {
    pub(super) blob: Arc<Blob>,
    /// Each row, and what the text search knows of the strings it locates.
    pub(super) rows: Vec<(Row, Located)>,
    pub(super) ids: Vec<IdKey>,
    pub(super) strings: Interner,
    pub(super) sets: SymSets,
    pub(super) agents: Agents,
    /// The rows (by their place in `rows`) whose event holds a field of another type than the
    /// API's, and the first such field of each.
    pub(super) odd: Vec<(u32, OddField)>,
    /// Where its buffers go once it is merged: the spares of the reading that built it, for as
    /// long as that reading lasts.
    spares: Weak<Pool>,
    /// What its builder's memos and trials came to.
    #[cfg(test)]
    pub(super) trials: Trials,
}

/// What a builder's memos and trials came to, for tests to see.
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(super) struct Trials {
    /// How many agents and nested values were remembered.
    pub remembered: (usize, usize),
    /// Whether texts of others were still looked up at the end (see [`Tables::texts_trial`]).
    pub texts_looked_up: bool,
    /// Whether the memos of agents and of nested values had given up (see [`Memo::note`]).
    ///
    /// [`Memo::note`]: super::read::remembered::Memo::note
    pub memos_off: (bool, bool),
    /// Whether new long values were still interned at the end (see [`Tables::long_trial`]).
    pub long_values_kept: bool,
}

impl Batch {
    /// The bytes its events were read from.
    #[cfg(test)]
    pub fn blob(&self) -> &Blob {
        &self.blob
    }

    /// A batch of JSON objects given one by one (redacted events, a test's events), kept in one
    /// owned buffer, one object per line. Fails on the first that cannot be read.
    pub fn of_objects<T: AsRef<[u8]>>(
        objects: impl IntoIterator<Item = T>,
    ) -> Result<Batch, serde_json::Error> {
        let mut bytes = Vec::new();
        let mut spans = Vec::new();
        for object in objects {
            let start = bytes.len();
            bytes.extend_from_slice(object.as_ref());
            spans.push((start, bytes.len()));
            bytes.push(b'\n');
        }
        let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(bytes)));
        for (start, end) in spans {
            builder.push(start, end)?;
        }
        Ok(builder.finish())
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The bytes its buffers hold (its ids' text but the UUIDs' aside).
    #[cfg(test)]
    pub(super) fn heap(&self) -> super::footprint::Bytes {
        use super::footprint::Bytes;
        let strings: Bytes = self.strings.heap().into_iter().sum();
        let sets: Bytes = self.sets.heap().into_iter().sum();
        Bytes::of(&self.rows) + Bytes::of(&self.ids) + strings + sets + self.agents.heap()
    }

    /// Gives the buffers of the batch (merged: its rows moved out, its ids taken) to the next
    /// builder of the reading that built it, which will write to memory the process holds
    /// already, while that reading lasts; else drops them. They are emptied by the builder that
    /// takes them (most often on a reading thread).
    pub(super) fn give_back(self) {
        if let Some(pool) = self.spares.upgrade() {
            pool.batches.give(self.into_buffers());
        }
    }

    /// The reading whose spares the batch's buffers go back to, as a number, while it lasts.
    #[cfg(test)]
    pub(crate) fn reading(&self) -> Option<usize> {
        (self.spares.strong_count() > 0).then_some(self.spares.as_ptr() as usize)
    }

    fn into_buffers(self) -> Buffers {
        let Batch {
            blob: _,
            rows,
            ids,
            strings,
            sets,
            agents,
            odd: _,
            spares: _,
            #[cfg(test)]
                trials: _,
        } = self;
        Buffers {
            rows,
            ids,
            strings,
            sets,
            agents,
        }
    }
}

/// The buffers of a batch that travel to the store.
#[derive(Default)]
struct Buffers {
    rows: Vec<(Row, Located)>,
    ids: Vec<IdKey>,
    strings: Interner,
    sets: SymSets,
    agents: Agents,
}

impl Buffers {
    fn clear(&mut self) {
        let Buffers {
            rows,
            ids,
            strings,
            sets,
            agents,
        } = self;
        rows.clear();
        ids.clear();
        strings.clear();
        sets.clear();
        agents.clear();
    }
}

/// A read of dumps under way, whose builders ([`Reading::builder`]) fill the buffers of its
/// batches already merged and the tables of its builders already finished, rather than memory
/// fresh from the system. Those are kept only while it lasts: once it is dropped, they are
/// dropped with it, and a batch of it merged later drops its own. A batch built once (a
/// redacted copy of the store, a page of a live source) is built by [`BatchBuilder::new`] and
/// gives its buffers back to the system as before.
#[must_use = "spares are kept only while the reading lasts"]
pub struct Reading {
    spares: Arc<Pool>,
}

/// What a reading keeps for its next builders.
#[derive(Default)]
struct Pool {
    batches: Spares<Buffers>,
    tables: Spares<Tables>,
}

impl Reading {
    pub fn start() -> Reading {
        Reading {
            spares: Arc::default(),
        }
    }

    /// A builder of a batch of `blob` on the buffers of a batch of this reading already merged
    /// and on the tables of a builder of it already finished, when some are kept; its batch
    /// gives its buffers back here once merged, and the builder its tables once finished.
    pub fn builder(&self, blob: Arc<Blob>) -> BatchBuilder {
        let batches = self.spares.batches.take().unwrap_or_default();
        let tables = self.spares.tables.take().unwrap_or_default();
        BatchBuilder::on(blob, batches, tables, Arc::downgrade(&self.spares))
    }

    /// Says that no builder of this reading will be made before the next is asked for (the
    /// last piece of a dump is being read): the spares kept are dropped, and so are those given
    /// back meanwhile. The last batches of a load are merged into a store nearly whole, and
    /// their buffers and the tables of the last builders, kept, were held beside it to the end.
    pub fn no_more_builders(&self) {
        self.spares.batches.close();
        self.spares.tables.close();
    }

    /// How many batches' buffers and builders' tables it keeps.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> (usize, usize) {
        (self.spares.batches.len(), self.spares.tables.len())
    }
}

/// Reads events out of one blob into a [`Batch`].
pub struct BatchBuilder {
    blob: Arc<Blob>,
    rows: Vec<(Row, Located)>,
    ids: Vec<IdKey>,
    tables: Tables,
    /// As the batch's `odd`.
    odd: Vec<(u32, OddField)>,
    /// Whether the text search is indexed (see [`BatchBuilder::unindexed`]).
    indexed: bool,
    /// Whether an object that is not an event is refused (see [`BatchBuilder::events_only`]).
    events_only: bool,
    /// Reused for each event's string values.
    walked: Vec<StrAt>,
    /// Reused for each event's remembered values.
    seen: Seen,
    uses: Uses,
    /// The spares of the reading it was made by, if any (see [`Reading::builder`]).
    spares: Weak<Pool>,
}

/// The remembered values an event holds: they give its row the agent's fields, and its index
/// their strings.
#[derive(Debug, Default)]
struct Uses {
    agent: Option<u32>,
    values: Vec<u32>,
    /// Where those read in full this time stand: their strings are the remembered value's.
    read: Vec<std::ops::Range<usize>>,
}

impl BatchBuilder {
    /// A builder on buffers of its own, which its batch gives back to the system once merged:
    /// for a batch built once. The batches of a dump are built by a [`Reading::builder`].
    pub fn new(blob: Arc<Blob>) -> BatchBuilder {
        BatchBuilder::on(blob, Buffers::default(), Tables::default(), Weak::new())
    }

    /// A builder that fills `merged` (emptied here) and `tables` (which must be empty), and
    /// gives them back to `spares`.
    fn on(
        blob: Arc<Blob>,
        mut merged: Buffers,
        tables: Tables,
        spares: Weak<Pool>,
    ) -> BatchBuilder {
        merged.clear();
        debug_assert!(tables.is_clear(), "a builder's tables kept full");
        BatchBuilder {
            blob,
            rows: merged.rows,
            ids: merged.ids,
            tables: Tables {
                strings: merged.strings,
                sets: merged.sets,
                agents: merged.agents,
                ..tables
            },
            odd: Vec::new(),
            indexed: true,
            events_only: false,
            walked: Vec::new(),
            seen: Seen::default(),
            uses: Uses::default(),
            spares,
        }
    }

    /// A builder whose rows leave the text search to read each event's JSON: for a store that
    /// is filtered once by a filter without a search, indexing would only cost time.
    pub fn unindexed(mut self) -> BatchBuilder {
        self.indexed = false;
        self
    }

    /// A builder that refuses an object with no id, type, timestamp or data, as a dump's
    /// reader wants: such an object in a file is something else (a saved error answer), and
    /// showing it as an event would make one up. The service's pages are read as they come.
    pub fn events_only(mut self) -> BatchBuilder {
        self.events_only = true;
        self
    }

    pub fn blob(&self) -> &Arc<Blob> {
        &self.blob
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds the event whose JSON object is `blob[start..end]`.
    pub fn push(&mut self, start: usize, end: usize) -> Result<(), serde_json::Error> {
        // Borrowed, not cloned: the blob's count is shared by every thread reading it.
        let raw = &self.blob[start..end];
        // One pass over the whole event keeps invalid UTF-8 out of the store, even in fields the
        // probe skips; for ASCII text it is far cheaper than parsing.
        let Ok(text) = simdutf8::basic::from_utf8(raw) else {
            // The exact place and reason, for the message.
            let e = std::str::from_utf8(raw).err();
            return Err(serde::de::Error::custom(match e {
                Some(e) => format!("invalid UTF-8: {e}"),
                None => "invalid UTF-8".to_string(),
            }));
        };
        let mut probe = Probe::default();
        Probe::read_walked(
            text,
            &mut self.walked,
            &self.tables.remembered,
            &mut self.seen,
            &mut probe,
        )?;
        if self.events_only && !probe.names_an_event() {
            return Err(serde::de::Error::custom(
                "not an event: the object has no id, type or timestamp string, and no data object",
            ));
        }
        self.tables
            .remember(raw, &probe, &self.walked, &self.seen, &mut self.uses);
        let mut row = self
            .tables
            .row_of(&probe, self.uses.agent)
            .map_err(|e| serde::de::Error::custom(format!("invalid UTF-8: {e}")))?;
        row.offset = start as u64;
        row.len = (end - start) as u32;
        let mut located = Located::default();
        if self.indexed {
            self.tables.index_strings(
                raw,
                &probe,
                &self.walked,
                &self.uses,
                &mut row,
                &mut located,
            );
        } else {
            row.set_search_raw(true);
        }
        let id = match probe.id.get() {
            None => IdKey::Absent,
            // The very string the search located, read as a UUID there: not read again.
            Some(b) if row.id_is_uuid() && row.id_at.holds(raw, b) => {
                IdKey::Uuid(u128::from_le_bytes(located.id_uuid))
            }
            Some(b) => {
                IdKey::of_bytes(b).ok_or_else(|| serde::de::Error::custom("invalid UTF-8 in id"))?
            }
        };
        self.ids.push(id);
        if let Some(odd) = probe.odd {
            self.odd.push((self.rows.len() as u32, odd));
        }
        self.rows.push((row, located));
        Ok(())
    }

    /// The batch, and this builder's own tables kept for the next builder of its reading.
    pub fn finish(self) -> Batch {
        let (batch, tables) = self.split();
        if let Some(pool) = batch.spares.upgrade() {
            pool.tables.give(tables);
        }
        batch
    }

    /// The batch, and this builder's own tables emptied.
    fn split(mut self) -> (Batch, Tables) {
        let batch = Batch {
            blob: self.blob,
            rows: self.rows,
            ids: self.ids,
            odd: self.odd,
            spares: self.spares,
            #[cfg(test)]
            trials: Trials {
                remembered: (
                    self.tables.remembered.agents.len(),
                    self.tables.remembered.values.len(),
                ),
                texts_looked_up: !self.tables.texts_trial.is_off(),
                memos_off: (
                    self.tables.remembered.agents.is_off(),
                    self.tables.remembered.values.is_off(),
                ),
                long_values_kept: !self.tables.long_trial.is_off(),
            },
            strings: std::mem::take(&mut self.tables.strings),
            sets: std::mem::take(&mut self.tables.sets),
            agents: std::mem::take(&mut self.tables.agents),
        };
        self.tables.clear();
        (batch, self.tables)
    }

    /// A builder of a batch of `blob` on the buffers of this one's batch, as if it had been
    /// merged, and on this one's tables.
    #[cfg(test)]
    pub(super) fn then(self, blob: Arc<Blob>) -> BatchBuilder {
        let (batch, tables) = self.split();
        let spares = batch.spares.clone();
        BatchBuilder::on(blob, batch.into_buffers(), tables, spares)
    }
}
