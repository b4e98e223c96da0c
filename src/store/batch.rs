use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::intern::Slices;
use super::memory::spares::Spares;
use super::read::probe::Probe;
use super::read::remembered::{Agent, Met, Remembered, Seen, Trial};
use super::read::walk::{Field, StrAt};
use super::search::{Bigrams, is_time_char, timestamp_digits};
use super::{
    Blob, IdKey, Interner, Located, NO_TIME, Row, Span, Sym, SymSets, TERMINAL_ABSENT,
    TERMINAL_FALSE, TERMINAL_TRUE, parse_uuid,
};
use crate::event::agent_string_env;
use crate::time::parse_rfc3339_nanos_bytes;

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

    /// Keeps the buffers of the batch (merged: its rows moved out, its ids taken) for the next
    /// builder, which will write to memory the process holds already, while a dump is read.
    /// They are emptied by the builder that takes them (most often on a reading thread).
    pub(super) fn give_back(self) {
        SPARE_BATCHES.give(self.into_buffers());
    }

    fn into_buffers(self) -> Buffers {
        let Batch {
            blob: _,
            rows,
            ids,
            strings,
            sets,
            #[cfg(test)]
                trials: _,
        } = self;
        Buffers {
            rows,
            ids,
            strings,
            sets,
        }
    }
}

/// What merged batches held, and what finished builders remembered: the next builders fill
/// them (see [`super::memory::spares`]).
static SPARE_BATCHES: Spares<Buffers> = Spares::new();
static SPARE_TABLES: Spares<Tables> = Spares::new();

/// The buffers of a batch that travel to the store.
#[derive(Default)]
struct Buffers {
    rows: Vec<(Row, Located)>,
    ids: Vec<IdKey>,
    strings: Interner,
    sets: SymSets,
}

impl Buffers {
    fn clear(&mut self) {
        let Buffers {
            rows,
            ids,
            strings,
            sets,
        } = self;
        rows.clear();
        ids.clear();
        strings.clear();
        sets.clear();
    }
}

/// Held while a dump is read: merged batches give their buffers to the next builders only
/// while one is, and when the last read ends the buffers kept are dropped. A batch built once
/// (a redacted copy of the store, a page of a live source) gives its buffers back to the
/// system as before.
#[must_use = "spares are kept only while the guard lives"]
pub struct Reading(());

impl Reading {
    pub fn start() -> Reading {
        SPARE_BATCHES.read_starts();
        SPARE_TABLES.read_starts();
        Reading(())
    }
}

/// How many reads are under way.
#[cfg(test)]
pub(crate) fn reads_under_way() -> usize {
    SPARE_BATCHES.reads()
}

impl Drop for Reading {
    fn drop(&mut self) {
        SPARE_BATCHES.read_ends();
        SPARE_TABLES.read_ends();
    }
}

/// How many bytes of texts of others a builder remembers. Where agents or other values vary
/// from event to event, nearly every text is new and remembering them all would only cost
/// memory; the sets they stand for are interned all the same.
const MAX_TEXTS_OF_OTHERS: usize = 1 << 20;

/// Reads events out of one blob into a [`Batch`].
pub struct BatchBuilder {
    blob: Arc<Blob>,
    rows: Vec<(Row, Located)>,
    ids: Vec<IdKey>,
    tables: Tables,
    /// Whether the text search is indexed (see [`BatchBuilder::unindexed`]).
    indexed: bool,
    /// Whether an object that is not an event is refused (see [`BatchBuilder::events_only`]).
    events_only: bool,
    /// Reused for each event's string values.
    walked: Vec<StrAt>,
    /// Reused for each event's remembered values.
    seen: Seen,
    uses: Uses,
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

/// What a builder's rows refer to, and what it remembers to read the next event faster.
struct Tables {
    strings: Interner,
    sets: SymSets,
    /// The `env` of each distinct agent string: agents repeat, so each is decoded once.
    env_of_agent: FxHashMap<Sym, Sym>,
    /// The agent objects and nested values read.
    remembered: Remembered,
    /// Reused for each event's other string values' text.
    others_text: Vec<u8>,
    /// The symbols of an event's other values, reused from one event to the next.
    others: Vec<Sym>,
    /// Each distinct text of others seen, and the set of others of each (text `n`'s at `n - 1`).
    texts_of_others: Slices<u8>,
    set_of_text: Vec<u32>,
    /// Whether texts repeat. Where keys come in a new order in each event, they seldom do, and
    /// looking them up and keeping them took a tenth of a load's time (they crowd the
    /// processor's cache): the trial turns that off early in each batch.
    texts_trial: Trial,
    /// Whether long values (see [`LONG_VALUE`]) repeat: where each is new (a stack trace, a
    /// session description), interning them would keep a copy of most of the dump.
    long_trial: Trial,
}

impl BatchBuilder {
    /// A builder that fills the buffers of a batch already merged and of a builder already
    /// finished, when some are kept (see [`Reading`]).
    pub fn new(blob: Arc<Blob>) -> BatchBuilder {
        BatchBuilder::on(
            blob,
            SPARE_BATCHES.take().unwrap_or_default(),
            SPARE_TABLES.take().unwrap_or_default(),
        )
    }

    /// A builder that fills `merged` (emptied here) and `tables` (which must be empty).
    fn on(blob: Arc<Blob>, mut merged: Buffers, tables: Tables) -> BatchBuilder {
        merged.clear();
        debug_assert!(tables.is_clear(), "a builder's tables kept full");
        BatchBuilder {
            blob,
            rows: merged.rows,
            ids: merged.ids,
            tables: Tables {
                strings: merged.strings,
                sets: merged.sets,
                ..tables
            },
            indexed: true,
            events_only: false,
            walked: Vec::new(),
            seen: Seen::default(),
            uses: Uses::default(),
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
            row.search_raw = true;
        }
        self.ids.push(match probe.id.get() {
            None => IdKey::Absent,
            Some(b) => {
                IdKey::of_bytes(b).ok_or_else(|| serde::de::Error::custom("invalid UTF-8 in id"))?
            }
        });
        self.rows.push((row, located));
        Ok(())
    }

    /// The batch, and this builder's own tables kept for the next one.
    pub fn finish(self) -> Batch {
        let (batch, tables) = self.split();
        SPARE_TABLES.give(tables);
        batch
    }

    /// The batch, and this builder's own tables emptied.
    fn split(mut self) -> (Batch, Tables) {
        let batch = Batch {
            blob: self.blob,
            rows: self.rows,
            ids: self.ids,
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
        };
        self.tables.clear();
        (batch, self.tables)
    }

    /// A builder of a batch of `blob` on the buffers of this one's batch, as if it had been
    /// merged, and on this one's tables.
    #[cfg(test)]
    pub(super) fn then(self, blob: Arc<Blob>) -> BatchBuilder {
        let (batch, tables) = self.split();
        BatchBuilder::on(blob, batch.into_buffers(), tables)
    }

    /// A builder on buffers of its own, whatever was given back.
    #[cfg(test)]
    pub(super) fn afresh(blob: Arc<Blob>) -> BatchBuilder {
        BatchBuilder::on(blob, Buffers::default(), Tables::default())
    }
}

/// Texts of others are judged on the first this many events of a batch (see [`Trial`]). Where
/// they repeat, a quarter or more of the first thousand are found, against one or two in a
/// hundred where keys come in a new order each time; the first few hundred find next to none
/// whatever the dump, as every text is new then.
const TEXTS_TRIAL: u32 = 1024;

/// An other value or a message this long or longer is interned only where long values repeat
/// (see [`Tables::keeps_long_value`]).
const LONG_VALUE: usize = 256;

/// Long values are judged on the first this many of a batch (see [`Trial`]).
pub(super) const LONG_TRIAL: u32 = 256;

impl Default for Tables {
    fn default() -> Self {
        Tables {
            strings: Interner::default(),
            sets: SymSets::default(),
            env_of_agent: FxHashMap::default(),
            remembered: Remembered::default(),
            others_text: Vec::new(),
            others: Vec::new(),
            texts_of_others: Slices::default(),
            set_of_text: Vec::new(),
            texts_trial: Trial::new(TEXTS_TRIAL),
            long_trial: Trial::new(LONG_TRIAL),
        }
    }
}

impl Tables {
    /// Whether nothing of a batch is left in them (checked in debug builds).
    fn is_clear(&self) -> bool {
        self.strings.len() == 1
            && self.sets.len() == 1
            && self.env_of_agent.is_empty()
            && self.remembered.is_empty()
            && self.texts_of_others.len() == 1
            && self.set_of_text.is_empty()
            && self.texts_trial.is_untried()
            && self.long_trial.is_untried()
    }

    /// Forgets what was read, keeping the memory (each part names the batch's strings).
    fn clear(&mut self) {
        let Tables {
            strings,
            sets,
            env_of_agent,
            remembered,
            others_text,
            others,
            texts_of_others,
            set_of_text,
            texts_trial,
            long_trial,
        } = self;
        strings.clear();
        sets.clear();
        env_of_agent.clear();
        remembered.clear();
        others_text.clear();
        others.clear();
        texts_of_others.clear();
        set_of_text.clear();
        texts_trial.clear();
        long_trial.clear();
    }

    /// The row of an event, whose agent is remembered agent `agent` when given.
    fn row_of(&mut self, p: &Probe, agent: Option<u32>) -> Result<Row, std::str::Utf8Error> {
        // Only the search reads the message from the row: a long one is kept as a long other
        // value would be (see `index_strings`).
        let message = match p.data.0.as_ref().and_then(|d| d.error_message.get()) {
            Some(m) if m.len() >= LONG_VALUE && !self.keeps_long_value(m) => {
                // Refused as it would be if kept: whether an event is read cannot depend on
                // where it falls in a batch.
                std::str::from_utf8(m)?;
                None
            }
            m => m,
        };
        let s = &mut self.strings;
        let mut row = Row {
            ts: p
                .timestamp
                .get()
                .and_then(parse_rfc3339_nanos_bytes)
                .unwrap_or(NO_TIME),
            kind: s.intern_bytes_opt(p.kind.get())?,
            terminal: TERMINAL_ABSENT,
            ..Row::default()
        };
        let Some(d) = &p.data.0 else {
            return Ok(row);
        };
        row.set_error_code(d.error_code.0);
        row.terminal = match d.is_terminal.0 {
            Some(true) => TERMINAL_TRUE,
            Some(false) => TERMINAL_FALSE,
            None => TERMINAL_ABSENT,
        };
        row.room_id = s.intern_bytes_opt(d.room_id.get())?;
        row.room_name = s.intern_bytes_opt(d.room_name.get())?;
        row.session_id = s.intern_bytes_opt(d.session_id.get())?;
        row.peer_id = s.intern_bytes_opt(d.peer_id.get())?;
        row.user_id = s.intern_bytes_opt(d.user_id.get())?;
        row.user_name = s.intern_bytes_opt(d.user_name.get())?;
        row.role = s.intern_bytes_opt(d.role.get())?;
        row.error_name = s.intern_bytes_opt(d.error_name.get())?;
        row.error_message = s.intern_bytes_opt(message)?;
        row.action = s.intern_bytes_opt(d.action.get())?;
        if let Some(a) = agent.map(|k| self.remembered.agents.get(k)) {
            row.sdk = a.sdk;
            row.sdk_version = a.sdk_version;
            row.os = a.os;
            row.os_version = a.os_version;
            row.device_model = a.device_model;
            row.domain = match d.domain.get() {
                Some(own) => s.intern_bytes(own)?,
                None => a.domain,
            };
            row.agent = a.string;
            row.env = a.env;
        } else if let Some(a) = &d.agent.0 {
            row.sdk = s.intern_bytes_opt(a.sdk.get())?;
            row.sdk_version = s.intern_bytes_opt(a.sdk_version.get())?;
            row.os = s.intern_bytes_opt(a.os.get())?;
            row.os_version = s.intern_bytes_opt(a.os_version.get())?;
            row.device_model = s.intern_bytes_opt(a.device_model.get())?;
            // `domain` is a field of publish and join data, and of every agent.
            row.domain = s.intern_bytes_opt(d.domain.get().or(a.domain.get()))?;
            row.agent = s.intern_bytes_opt(a.string.get())?;
            row.env = env_of(s, &mut self.env_of_agent, row.agent);
        } else {
            row.domain = s.intern_bytes_opt(d.domain.get())?;
        }
        Ok(row)
    }

    /// The remembered values the event holds, by what its reading met (`seen`): those it read
    /// in full are remembered now when they can be (see [`super::read::remembered::Memo::insert`]), but
    /// not those holding an escape, rare enough to be left to the usual reading.
    fn remember(&mut self, raw: &[u8], p: &Probe, strings: &[StrAt], seen: &Seen, uses: &mut Uses) {
        uses.values.clear();
        uses.read.clear();
        uses.agent = match &seen.agent {
            Some(Met::Known(k)) => {
                self.remembered.agents.note(true);
                Some(*k)
            }
            Some(Met::Read(span)) => {
                self.remembered.agents.note(false);
                let k = self.remember_agent(raw, span, p, strings);
                if k.is_some() {
                    uses.read.push(span.clone());
                }
                k
            }
            None => None,
        };
        for met in &seen.values {
            match met {
                Met::Known(k) => {
                    self.remembered.values.note(true);
                    uses.values.push(*k);
                }
                Met::Read(span) => {
                    self.remembered.values.note(false);
                    let found = || interned_within(&mut self.strings, raw, strings, span, |_| true);
                    if let Some(k) = self.remembered.values.insert(&raw[span.clone()], found) {
                        uses.values.push(k);
                        uses.read.push(span.clone());
                    }
                }
            }
        }
    }

    /// Remembers the agent object `raw[span]` of event `p`, whose strings are `strings`.
    fn remember_agent(
        &mut self,
        raw: &[u8],
        span: &std::ops::Range<usize>,
        p: &Probe,
        strings: &[StrAt],
    ) -> Option<u32> {
        let a = p.data.0.as_ref()?.agent.0.as_ref()?;
        let Tables {
            strings: s,
            remembered,
            env_of_agent,
            ..
        } = self;
        remembered.agents.insert(&raw[span.clone()], || {
            // All but the fields a row holds, and the domain, which the row holds unless `data`
            // has its own (see `index_strings`).
            let others = interned_within(s, raw, strings, span, |at| !at.field.is_agent_field())?;
            let mut field = |f: Option<&[u8]>| s.intern_bytes_opt(f).ok();
            let agent_string = field(a.string.get())?;
            Some(Agent {
                sdk: field(a.sdk.get())?,
                sdk_version: field(a.sdk_version.get())?,
                device_model: field(a.device_model.get())?,
                os: field(a.os.get())?,
                os_version: field(a.os_version.get())?,
                domain: field(a.domain.get())?,
                string: agent_string,
                env: env_of(s, env_of_agent, agent_string),
                others,
            })
        })
    }

    /// Whether the long value `value` (an other value or a message of [`LONG_VALUE`] bytes or
    /// more) is interned: while the batch's trial of long values lasts, and after it where
    /// they were found interned already often enough (or where this one is). Where they were
    /// not, the event's row sends the search to its JSON in the dump instead
    /// (`Row::search_raw`), which keeps the store a fraction of the dump's size when long values
    /// are each new.
    fn keeps_long_value(&mut self, value: &[u8]) -> bool {
        let known = self.strings.find_bytes(value).is_some();
        if self.long_trial.is_off() {
            // One interned already costs nothing more.
            return known;
        }
        self.long_trial.note(known);
        true
    }

    /// Makes sure the text search can find every string value of the event without reading
    /// its JSON: a value is either the one a row field holds for its place, one of the three
    /// varied values the row locates in place, or interned into the row's set of others. The
    /// strings of the remembered values an event holds (`uses`) are the values'.
    fn index_strings(
        &mut self,
        raw: &[u8],
        p: &Probe,
        strings: &[StrAt],
        uses: &Uses,
        row: &mut Row,
        located: &mut Located,
    ) {
        // The other values, each followed by 0xFF (a byte UTF-8 never holds).
        let mut text = std::mem::take(&mut self.others_text);
        text.clear();
        let data = p.data.0.as_ref();
        let held_of = held_by_field(p, row);
        for s in strings {
            let (a, z, escaped) = (s.start as usize, s.end as usize, s.escaped);
            if uses.read.iter().any(|span| span.contains(&a)) {
                continue;
            }
            let inner = &raw[a + 1..z - 1];
            // Located in place: searched by reading the quoted string itself.
            let locate = |slot: &mut Span| -> bool {
                if !slot.is_none() {
                    return false;
                }
                match Span::new(a, z) {
                    Some(span) => {
                        *slot = span;
                        true
                    }
                    None => false,
                }
            };
            match s.field {
                Field::Id if locate(&mut row.id_at) => {
                    let uuid = parse_uuid(inner);
                    row.id_is_uuid = uuid.is_some();
                    located.id_uuid = uuid.unwrap_or(0).to_le_bytes();
                    continue;
                }
                Field::Timestamp if locate(&mut row.ts_at) => {
                    row.ts_is_plain = inner.iter().all(|&b| is_time_char(b));
                    row.ts_digits = (row.ts != NO_TIME)
                        .then(|| timestamp_digits(inner, row.ts))
                        .flatten();
                    continue;
                }
                Field::ErrorDescription if locate(&mut row.description_at) => {
                    row.description_escaped = escaped;
                    located.description_bigrams = if escaped {
                        match serde_json::from_slice::<String>(&raw[a..z]) {
                            Ok(text) => description_bigrams(text.as_bytes()),
                            Err(_) => Bigrams::ALL,
                        }
                    } else {
                        description_bigrams(inner)
                    };
                    continue;
                }
                _ => {}
            }
            let held = held_of[s.field as usize];
            let unescaped;
            let value: &[u8] = if escaped {
                match serde_json::from_slice::<String>(&raw[a..z]) {
                    Ok(text) => {
                        unescaped = text;
                        unescaped.as_bytes()
                    }
                    Err(_) => {
                        row.search_raw = true;
                        continue;
                    }
                }
            } else {
                inner
            };
            // A field read without escapes is the very bytes of this string.
            let is_held = held.is_some_and(|h| {
                (!escaped && std::ptr::eq(h.as_ptr(), inner.as_ptr()) && h.len() == inner.len())
                    || h == value
            });
            if is_held {
                continue;
            }
            if value.len() >= LONG_VALUE && !self.keeps_long_value(value) {
                // Left in the dump: the search reads this event's JSON.
                row.search_raw = true;
                continue;
            }
            text.extend_from_slice(value);
            text.push(0xFF);
        }
        // The remembered values' strings, by their number: 0xFE for the agent, 0xFD for a
        // nested value (other bytes UTF-8 never holds), then four bytes.
        for &k in &uses.values {
            text.push(0xFD);
            text.extend_from_slice(&k.to_le_bytes());
        }
        if let Some(k) = uses.agent {
            text.push(0xFE);
            text.extend_from_slice(&k.to_le_bytes());
            // The agent's domain is an other value when `data` has a domain of its own.
            let own = self.remembered.agents.get(k).domain;
            let agent_domain = self.strings.get(own).as_bytes();
            if let Some(data_domain) = data.and_then(|d| d.domain.get())
                && !own.is_none()
                && agent_domain != data_domain
            {
                text.extend_from_slice(agent_domain);
                text.push(0xFF);
            }
        }
        let known = if self.texts_trial.is_off() {
            None
        } else {
            let known = self.texts_of_others.find(&text);
            self.texts_trial.note(known.is_some());
            known
        };
        row.others = match known {
            // Texts are numbered from 1 (0 is the empty slice, never found).
            Some(n) => self.set_of_text[n as usize - 1],
            None => {
                // Events share their others: each distinct text is interned once.
                let mut others = std::mem::take(&mut self.others);
                others.clear();
                let mut all_text = true;
                let mut rest = text.as_slice();
                while let Some(&first) = rest.first() {
                    if let 0xFD | 0xFE = first {
                        let k = u32::from_le_bytes(rest[1..5].try_into().expect("four bytes"));
                        others.extend_from_slice(match first {
                            0xFE => &self.remembered.agents.get(k).others,
                            _ => self.remembered.values.get(k),
                        });
                        rest = &rest[5..];
                        continue;
                    }
                    let end = memchr::memchr(0xFF, rest).expect("each value ends with 0xFF");
                    match self.strings.intern_bytes(&rest[..end]) {
                        Ok(sym) => others.push(sym),
                        Err(_) => all_text = false,
                    }
                    rest = &rest[end + 1..];
                }
                others.sort_unstable();
                others.dedup();
                let set = self.sets.intern(&others);
                if !all_text {
                    row.search_raw = true;
                } else if !self.texts_trial.is_off()
                    && self.texts_of_others.parts().0.len() < MAX_TEXTS_OF_OTHERS
                {
                    // Only a new text comes here: it is numbered one past the last.
                    let n = self.texts_of_others.intern(&text) as usize;
                    debug_assert_eq!(n, self.set_of_text.len() + 1);
                    self.set_of_text.push(set);
                }
                self.others = others;
                set
            }
        };
        self.others_text = text;
    }
}

/// The value the row field of event `p` holds, for each field that is one (`None` for the
/// others): a value read there needs no place among the event's other values. The row may have
/// left out a long message (see `Tables::row_of`): it is an other value then. Looked up by
/// field rather than matched, as keys may come in any order and a branch per value would be
/// mispredicted.
fn held_by_field<'p>(p: &'p Probe, row: &Row) -> [Option<&'p [u8]>; Field::COUNT] {
    let mut held = [None; Field::COUNT];
    held[Field::Type as usize] = p.kind.get();
    let Some(d) = p.data.0.as_ref() else {
        return held;
    };
    let agent = d.agent.0.as_ref();
    // The row's domain is the data's, else the agent's.
    let domain = d.domain.get().or(agent.and_then(|a| a.domain.get()));
    for (field, value) in [
        (Field::UserId, d.user_id.get()),
        (Field::UserName, d.user_name.get()),
        (Field::PeerId, d.peer_id.get()),
        (Field::RoomId, d.room_id.get()),
        (Field::RoomName, d.room_name.get()),
        (Field::SessionId, d.session_id.get()),
        (Field::Role, d.role.get()),
        (Field::ErrorName, d.error_name.get()),
        (
            Field::ErrorMessage,
            d.error_message
                .get()
                .filter(|_| !row.error_message.is_none()),
        ),
        (Field::Action, d.action.get()),
        (Field::Domain, domain),
    ] {
        held[field as usize] = value;
    }
    let Some(a) = agent else {
        return held;
    };
    for (field, value) in [
        (Field::AgentDomain, domain),
        (Field::Sdk, a.sdk.get()),
        (Field::SdkVersion, a.sdk_version.get()),
        (Field::DeviceModel, a.device_model.get()),
        (Field::Os, a.os.get()),
        (Field::OsVersion, a.os_version.get()),
        (Field::AgentString, a.string.get()),
    ] {
        held[field as usize] = value;
    }
    held
}

/// The `env` an agent string names, decoded once per distinct string.
fn env_of(strings: &mut Interner, known: &mut FxHashMap<Sym, Sym>, agent_string: Sym) -> Sym {
    if let Some(&env) = known.get(&agent_string) {
        return env;
    }
    let env = agent_string_env(strings.get(agent_string)).map(str::to_owned);
    let env = strings.intern_opt(env.as_deref());
    known.insert(agent_string, env);
    env
}

/// The pairs of characters of a description, as the text search reads it. The two characters
/// whose lowercase is ASCII (İ, KELVIN SIGN) start with one of two bytes: a description holding
/// one of those could hold pairs that are not its own, so nothing is ruled out for it.
fn description_bigrams(text: &[u8]) -> Bigrams {
    if memchr::memchr2(0xC4, 0xE2, text).is_some() {
        Bigrams::ALL
    } else {
        Bigrams::of(text)
    }
}

/// The strings of `strings` (in the order of the text `raw`) that stand within `span` and that
/// `keep` keeps, interned, sorted and without repeats; `None` when one holds an escape or one
/// kept is long (a remembered value holds neither).
fn interned_within(
    interner: &mut Interner,
    raw: &[u8],
    strings: &[StrAt],
    span: &std::ops::Range<usize>,
    keep: impl Fn(&StrAt) -> bool,
) -> Option<Vec<Sym>> {
    let from = strings.partition_point(|s| (s.start as usize) < span.start);
    let to = strings.partition_point(|s| (s.start as usize) < span.end);
    let mut syms = Vec::new();
    for at in &strings[from..to] {
        if at.escaped {
            return None;
        }
        if keep(at) {
            let inner = &raw[at.start as usize + 1..at.end as usize - 1];
            // A long value is the event's own to keep or not (see `Tables::keeps_long_value`).
            if inner.len() >= LONG_VALUE {
                return None;
            }
            syms.push(interner.intern_bytes(inner).ok()?);
        }
    }
    syms.sort_unstable();
    syms.dedup();
    Some(syms)
}
