//! What tells why a filter leaves nothing when a stream is read (see [`super::stream`]): while
//! nothing has matched, the events that may name the room asked for and the time the events
//! span are noted as each piece is read, and kept aside; when nothing matches, they go into the
//! store, beside its rows, for `insight::why_empty` to say why.

use std::sync::Arc;

use super::direct::Line;
use crate::filter::Record;
use crate::store::probe::Probe;
use crate::store::{Blob, NO_TIME, Needle, Reading, Store};
use crate::time::parse_rfc3339_nanos_bytes;

/// What tells why a filter leaves nothing, kept while nothing has matched: copies of the events
/// that may name the room asked for, and the earliest and the latest time of the events read.
#[derive(Default)]
pub(super) struct Aside {
    events: Vec<u8>,
    spans: Vec<(usize, usize)>,
    times: Option<(i64, i64)>,
}

impl Aside {
    /// Keeps what a piece's reading noted of its events that are the first of their id.
    pub(super) fn add(
        &mut self,
        beside: &[(usize, (usize, usize))],
        times: &[i64],
        fresh: &[bool],
        piece: &[u8],
    ) {
        for &(_, (a, z)) in beside.iter().filter(|(i, _)| fresh[*i]) {
            let start = self.events.len();
            self.events.extend_from_slice(&piece[a..z]);
            self.spans.push((start, self.events.len()));
            self.events.push(b'\n');
        }
        let fresh_times = times
            .iter()
            .zip(fresh)
            .filter(|(t, f)| **f && **t != NO_TIME);
        for (&t, _) in fresh_times {
            self.times = Some(crate::store::widened(self.times, t, t));
        }
    }

    /// Adds what it kept to `store`, which holds no answer, beside its rows: how many events
    /// it added.
    pub(super) fn into_store(self, store: &mut Store) -> usize {
        let reading = Reading::start();
        let mut builder = reading
            .builder(Arc::new(Blob::Owned(self.events)))
            .unindexed();
        for (a, z) in self.spans {
            // Read once already: one that does not read again only goes unsaid.
            let _ = builder.push(a, z);
        }
        let added = store.merge(builder.finish()).added;
        if let Some((from, to)) = self.times {
            store.left_out_spanning(from, to);
        }
        added
    }
}

/// What a piece's reading notes beside the answer, for telling why a filter leaves nothing.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Wanted<'a> {
    /// The events that may name this room are kept beside the answer.
    pub(super) named: Option<&'a Needle>,
    /// Each event's time is read.
    pub(super) times: bool,
}

impl Wanted<'_> {
    /// The time of an event read as `line` (`NO_TIME` when it has none), when times are wanted.
    pub(super) fn time_of(&self, line: &Line) -> Option<i64> {
        self.times.then(|| line.time().unwrap_or(NO_TIME))
    }
}

/// What a piece's reading noted beside its answer, as [`Wanted`] asked.
#[derive(Debug, Default)]
pub(super) struct Noted {
    /// The events that do not match but may name the room asked for (see [`super::may_name`]),
    /// as their places among the piece's ids and where each is in the piece.
    pub(super) beside: Vec<(usize, (usize, usize))>,
    /// Each event's time (`NO_TIME` when it has none), by its place among the ids.
    pub(super) times: Vec<i64>,
}

impl Noted {
    /// Notes what `wanted` asks of event number `i` of a piece: `raw`, at `span`, which
    /// `matches` the filter or not, and whose time is `time` when it was read already.
    pub(super) fn note(
        &mut self,
        wanted: Wanted,
        i: usize,
        span: (usize, usize),
        raw: &[u8],
        matches: bool,
        time: Option<i64>,
    ) {
        if !matches && wanted.named.is_some_and(|room| super::may_name(raw, room)) {
            self.beside.push((i, span));
        }
        if wanted.times {
            self.times.push(time.unwrap_or_else(|| time_of(raw)));
        }
    }
}

/// An event's time as a store reads it (`NO_TIME` when it has none it can read).
pub(super) fn time_of(event: &[u8]) -> i64 {
    Probe::read(event)
        .ok()
        .and_then(|p| p.timestamp.get().and_then(parse_rfc3339_nanos_bytes))
        .unwrap_or(NO_TIME)
}
