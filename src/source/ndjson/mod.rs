//! A fast, exact path for selecting events from line-delimited dumps (one event object per line,
//! the shape `callscope list --format ndjson` and most exports write), and from a dump that is one
//! envelope (what `list --format json` and the explorer's save write), whose events are found by
//! their structure alone, on every core, and then read as lines are (see `envelope`).
//!
//! Only lines that could match are parsed: a line must hold the literal JSON text of each id filter
//! (and of one of the types) and the search text in any case, unless it holds an escape (`\`),
//! since an escape could spell a value differently. Every line's top-level `id` is still read, so
//! that de-duplication (the first copy of an id wins) stays exactly that of the full path. Every
//! line that is not parsed is still validated (UTF-8, and one JSON value): a damaged line hands
//! the file over to the full path, which reports and counts the damage as it does without a
//! filter, so that a filter never hides a damaged event. (That check is what the fast path pays
//! for exactness: on a dump of a million events selected by type and room, where five lines in
//! six are skipped, it takes the CPU time from 0.6-0.7 s to 1.5-1.7 s, mostly serde_json's
//! skipping parser. A hand-written grammar check of lines without escapes, strings skipped to
//! their closing quote, measured no cheaper, 1.7-1.8 s, and was not kept.)

use std::sync::Arc;

use crate::filter::Filter;
use crate::store::{Blob, NO_TIME, Needle, OddFields, Reading, Store};

use direct::Direct;
pub use stream::select_stream;
pub use stream_all::{Streamed, each_of_stream};
pub use stream_group::group_stream;

/// Whether a file looks line-delimited: its first non-blank line (after a byte order mark) is one
/// complete JSON object.
pub fn looks_line_delimited(bytes: &[u8]) -> bool {
    let first = bytes[super::dump::mark_len(bytes)..]
        .split(|&b| b == b'\n')
        .map(trim)
        .find(|l| !l.is_empty());
    match first {
        Some(line) => {
            line.first() == Some(&b'{')
                && line.last() == Some(&b'}')
                && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
        }
        None => false,
    }
}

/// Whether a file opens as one envelope (`{"limit":..,"events":[`, as `list --format json`
/// writes): the fast path reads its events as it reads lines (see `envelope`).
pub fn looks_like_envelope(bytes: &[u8]) -> bool {
    envelope::events_array(bytes).is_some()
}

/// Trims JSON's whitespace (space, tab, CR, LF; not the form feed ASCII also counts).
pub(crate) fn trim(line: &[u8]) -> &[u8] {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = line.iter().position(|b| !ws(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    &line[start..end]
}

/// How many events [`select`] reads into one batch.
const SELECT_BATCH: usize = 32_768;

/// Why the fast path handed over to the full one.
#[derive(Debug, PartialEq, Eq)]
pub struct NotLineDelimited;

/// Selects the events of line-delimited `blobs` (in order) that match `filter`: a store of the
/// candidate lines and the indices of those that match, in input order, de-duplicated as the full
/// path does, and how many later copies that match were dropped (see [`matching_copies`]). Fails (and the caller uses the full path, which reports the damage) when a line is
/// not an event object with a plain string id, or is not valid JSON.
///
/// Three passes: every line's id and whether it may match (in parallel, one slice of the file per
/// core); de-duplication in input order; then only the candidates are parsed (in parallel). The
/// store's text search is indexed only when the filter searches.
pub fn select(
    blobs: Vec<Arc<Blob>>,
    filter: &Filter,
) -> Result<(Store, Vec<u32>, usize), NotLineDelimited> {
    let threads = super::ordered::threads();
    let candidates::Chosen {
        kept,
        dropped,
        named,
    } = candidates::candidates_naming(&blobs, filter, threads)?;
    let dropped = matching_dropped(&blobs, &dropped, &Direct::new(filter), filter.is_empty())?;
    let reading = Reading::start();
    let mut store = Store::new();
    let mut result = Ok(());
    for (blob, candidates) in blobs.iter().zip(&kept) {
        // Batches of a bounded size, merged in input order as they are read: the batches
        // waiting in memory stay few however many events are selected.
        let chunks: Vec<&[(usize, usize)]> = candidates.chunks(SELECT_BATCH).collect();
        super::ordered::in_order(
            chunks.len(),
            threads,
            |k, send| {
                let mut builder = reading.builder(Arc::clone(blob));
                if filter.search.is_none() {
                    builder = builder.unindexed();
                }
                for &(a, z) in chunks[k] {
                    if builder.push(a, z).is_err() {
                        return send(Err(NotLineDelimited));
                    }
                }
                send(Ok(builder.finish()));
            },
            |batch| match batch {
                Ok(batch) if result.is_ok() => drop(store.merge(batch)),
                Ok(_) => {}
                Err(e) => result = Err(e),
            },
        );
    }
    result?;
    // The store holds candidates only; the filter decides.
    let rows = store.filter(filter);
    if rows.is_empty() {
        // The store holds candidates only: what tells why nothing matched is added beside them.
        explain_empty(&mut store, &blobs, filter, named, Some(&kept), threads)?;
    }
    drop(reading);
    Ok((store, rows, dropped))
}

/// Events chosen by where their JSON is, without a store: all that the formats which copy each
/// event's JSON need.
#[derive(Debug)]
pub struct Spans {
    blobs: Vec<Arc<Blob>>,
    /// (blob, start, end), in input order.
    spans: Vec<(usize, usize, usize)>,
    /// When none is chosen and the filter asks for a room or a range of time: what tells why
    /// (see [`why_empty_store`]).
    why_empty: Option<Store>,
    /// How many later copies of an id read before that match were dropped.
    dropped: usize,
    /// The events read (the candidates: those the filter may match) that hold a field of
    /// another type than the API's.
    odd: OddFields,
}

impl Spans {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// When no event was chosen, a store that holds what tells why, as the store [`select`]
    /// makes would (see `insight::why_empty`); `None` when events were chosen, or when the
    /// filter asks for neither a room nor a range of time (nothing then tells why).
    pub fn why_empty(&self) -> Option<&Store> {
        self.why_empty.as_ref()
    }

    /// How many events that match were dropped as later copies of an id read before (see
    /// [`matching_copies`]).
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The events read, those the filter may match, that hold a field of another type than
    /// the API's (read as absent, so that no filter of that field matches them).
    pub fn odd(&self) -> OddFields {
        self.odd.clone()
    }

    /// Each selected event's JSON exactly as it was read, in input order.
    pub fn raws(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.spans
            .iter()
            .map(|&(b, start, end)| &self.blobs[b][start..end])
    }
}

/// What [`select`] selects, read straight off each candidate's fields instead of through a store:
/// the same events, with none of the interning a store does.
///
/// When nothing matches, what tells why is taken from the same reading (see
/// [`Spans::why_empty`]), so that the caller need not read the input again to say it.
pub fn select_spans(blobs: Vec<Arc<Blob>>, filter: &Filter) -> Result<Spans, NotLineDelimited> {
    let direct = Direct::new(filter);
    let threads = super::ordered::threads();
    let candidates::Chosen {
        kept,
        dropped,
        named,
    } = candidates::candidates_naming(&blobs, filter, threads)?;
    let dropped = matching_dropped(&blobs, &dropped, &direct, filter.is_empty())?;
    let mut spans = Vec::new();
    let mut odd = OddFields::default();
    for (b, (blob, candidates)) in blobs.iter().zip(&kept).enumerate() {
        let bytes: &[u8] = blob;
        let chunk = candidates.len().div_ceil(threads).max(1);
        let chunks: Vec<&[(usize, usize)]> = candidates.chunks(chunk).collect();
        let parts = parallel(&chunks, |part| {
            let mut out = Vec::new();
            let mut odd = OddFields::default();
            for &(a, z) in *part {
                let (matches, odd_field) =
                    direct.judge(&bytes[a..z], None, |line, matches| (matches, line.odd()))?;
                if let Some(field) = odd_field {
                    odd.note(field);
                }
                if matches {
                    out.push((b, a, z));
                }
            }
            Ok::<_, NotLineDelimited>((out, odd))
        });
        // In input order: the first field met is the first candidate's that holds one.
        for part in parts {
            let (part, part_odd) = part?;
            spans.extend(part);
            odd.add(part_odd);
        }
    }
    let why_empty = match spans.is_empty() && (is_bounded(filter) || filter.room().is_some()) {
        true => Some(why_empty_store(&blobs, filter, named, threads)?),
        false => None,
    };
    Ok(Spans {
        blobs,
        spans,
        why_empty,
        dropped,
        odd,
    })
}

/// Whether `filter` asks for a range of time.
fn is_bounded(filter: &Filter) -> bool {
    filter.since.is_some() || filter.until.is_some()
}

/// The span of the times of every event of `blobs` (the first copy of each id, as a store of
/// the whole input holds them): what a range of time that leaves nothing is told against (see
/// `insight::why_empty`). Read only then, in a pass of its own: the first pass reads no line's
/// time, and the candidates' times alone would tell the span of a part of the input as that
/// of all of it.
fn span_of_times(
    blobs: &[Arc<Blob>],
    threads: usize,
) -> Result<Option<(i64, i64)>, NotLineDelimited> {
    let every = candidates::first_of_every_id(blobs, threads)?;
    let mut span = None;
    for (blob, events) in blobs.iter().zip(&every) {
        let chunks: Vec<&[(usize, usize)]> = events
            .chunks(events.len().div_ceil(threads).max(1))
            .collect();
        let parts = parallel(&chunks, |chunk| {
            chunk
                .iter()
                .map(|&(a, z)| aside::time_of(&blob[a..z]))
                .filter(|&t| t != NO_TIME)
                .fold(None, |span, t| Some(crate::store::widened(span, t, t)))
        });
        for part in parts {
            span = widened(span, part);
        }
    }
    Ok(span)
}

/// Two spans of time joined.
fn widened(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match b {
        Some((from, to)) => Some(crate::store::widened(a, from, to)),
        None => a,
    }
}

/// What tells why `filter` leaves nothing of `blobs`: a store of its own, given what
/// [`explain_empty`] adds. It says what the store [`select`] makes of the same input says, which
/// holds the candidates besides: an event whose room id or name is the text asked for, in any
/// case, is among those that may name it.
fn why_empty_store(
    blobs: &[Arc<Blob>],
    filter: &Filter,
    named: Option<candidates::Kept>,
    threads: usize,
) -> Result<Store, NotLineDelimited> {
    let mut store = Store::new();
    explain_empty(&mut store, blobs, filter, named, None, threads)?;
    Ok(store)
}

/// Adds to `store`, whose filter left nothing, what tells why (see `insight::why_empty`):
/// - a room given by its name where its id is wanted leaves nothing, and the store must hold the
///   events that name it for that to be said. `named` is them, when the first pass told them;
///   else the input is read again. Those in `held` (the store's own events, per blob in input
///   order) are not added twice;
/// - a range of time that leaves nothing is told against the span of every event, where the
///   store may hold only a part of the input.
fn explain_empty(
    store: &mut Store,
    blobs: &[Arc<Blob>],
    filter: &Filter,
    named: Option<candidates::Kept>,
    held: Option<&candidates::Kept>,
    threads: usize,
) -> Result<(), NotLineDelimited> {
    if let Some(room) = filter.room() {
        let named = match named {
            Some(named) => named,
            None => candidates::naming(blobs, &Needle::new(room), threads)?,
        };
        let reading = Reading::start();
        for (k, (blob, named)) in blobs.iter().zip(named).enumerate() {
            let held: &[(usize, usize)] = held.map_or(&[], |held| &held[k]);
            let is_held = |a: usize| held.binary_search_by_key(&a, |&(start, _)| start).is_ok();
            let mut builder = reading.builder(Arc::clone(blob)).unindexed();
            for (a, z) in named.into_iter().filter(|&(a, _)| !is_held(a)) {
                builder.push(a, z).map_err(|_| NotLineDelimited)?;
            }
            store.merge(builder.finish());
        }
    }
    if is_bounded(filter)
        && let Some((from, to)) = span_of_times(blobs, threads)?
    {
        store.left_out_spanning(from, to);
    }
    Ok(())
}

/// Whether an event may give the room `room` (a needle of its text) as its name or its id, in
/// any case of its ASCII letters (see `insight::why_empty`): its JSON holds the text so, or
/// holds what may spell it otherwise (an escape, or a character whose lowercase is ASCII; see
/// [`Needle::may_be_in`]). One vectorised look at the event rather than one at each place of
/// the text's first letter.
pub(super) fn may_name(event: &[u8], room: &Needle) -> bool {
    room.may_be_in(event)
}

/// How many of `copies` (events dropped as later copies of an id read before) `filter` matches:
/// what a filtered answer lost to de-duplication. Every one without a filter; a copy the filter
/// cannot read (the store kept it all the same) is counted, so that it is said rather than lost.
pub fn matching_copies<'a>(copies: impl Iterator<Item = &'a [u8]>, filter: &Filter) -> usize {
    if filter.is_empty() {
        return copies.count();
    }
    let direct = Direct::new(filter);
    copies
        .filter(|raw| !matches!(direct.read_deduplicated(raw, |_| ()), Ok(None)))
        .count()
}

/// How many of the dropped copies at `dropped` (per blob, in input order) `filter` matches (see
/// [`matching_copies`]), judged as the fast path judges a candidate: a copy it cannot read
/// hands the input over to the full way.
fn matching_dropped(
    blobs: &[Arc<Blob>],
    dropped: &candidates::Kept,
    direct: &Direct,
    empty: bool,
) -> Result<usize, NotLineDelimited> {
    let mut n = 0;
    for (blob, spans) in blobs.iter().zip(dropped) {
        if empty {
            n += spans.len();
            continue;
        }
        for &(a, z) in spans {
            n += usize::from(direct.read_deduplicated(&blob[a..z], |_| ())?.is_some());
        }
    }
    Ok(n)
}

/// Runs `f` on each item, on the threads of rayon's pool; the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(&f).collect()
}

mod aside;
mod candidates;
mod check;
mod direct;
pub(in crate::source) mod envelope;
pub mod group;
mod id;
mod prefilter;
mod stream;
mod stream_all;
mod stream_group;
mod walk;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Field;

    #[test]
    fn without_a_filter_the_first_copy_of_each_id_is_kept_and_later_ones_checked() {
        let event = |id: &str, n: u32| format!(r#"{{"id":"{id}","type":"t","data":{{"n":{n}}}}}"#);
        let lines: Vec<String> = (0..5000)
            .map(|k| event(&format!("e{}", k % 3001), k))
            .collect();
        let text = lines.join("\n");
        let spans = |text: &str| {
            let blobs = vec![Arc::new(Blob::Owned(text.as_bytes().to_vec()))];
            candidates::candidates_naming(&blobs, &Filter::default(), 2).map(|chosen| {
                chosen.kept[0]
                    .iter()
                    .map(|&(a, z)| text[a..z].to_string())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(spans(&text).unwrap(), lines[..3001].to_vec());
        // A later copy that is damaged (its id read, its data not JSON) hands the dump to the
        // full way, which reports it; the same line as a first copy is parsed, and fails too.
        let damaged = format!("{text}\n{}", r#"{"id":"e7","type":"t","data":{"n":}}"#);
        assert_eq!(spans(&damaged).err(), Some(NotLineDelimited));
    }

    #[test]
    fn a_room_named_in_another_case_is_told_from_the_first_pass_as_from_a_second_reading() {
        let mut bytes = Vec::new();
        crate::generator::write_ndjson(&mut bytes, 3000, 9).unwrap();
        let (full, _) =
            crate::source::dump::load_stream("d", std::io::Cursor::new(&bytes), 1 << 30);
        let blobs = vec![Arc::new(Blob::Owned(bytes))];
        // In capitals no line holds the name as written: no event is a candidate, and the
        // first pass tells which may name the room. In lower case its events are candidates,
        // none matches, and the input is read again for them.
        for (name, early) in [("WEEKLY-ALLHANDS", true), ("weekly-allhands", false)] {
            let filter = Filter::default().with(Field::Room, name);
            let named = candidates::candidates_naming(&blobs, &filter, 2)
                .unwrap()
                .named;
            assert_eq!(named.is_some(), early, "{name}");
            let again = candidates::naming(&blobs, &Needle::new(name), 2).unwrap();
            if let Some(named) = named {
                assert_eq!(named, again, "{name}");
            }
            assert!(again.iter().any(|spans| !spans.is_empty()), "{name}");
            let (store, rows, _) = select(blobs.clone(), &filter).unwrap();
            assert!(rows.is_empty(), "{name}");
            let why = crate::insight::why_empty(&filter, &store);
            assert!(
                matches!(&why[..], [crate::insight::WhyEmpty::RoomName { ids, .. }]
                    if ids == &["673a1f2c9e4b8d0a5c7e3f21"]),
                "{name}: {why:?}"
            );
            assert_eq!(why, crate::insight::why_empty(&filter, &full), "{name}");
        }
    }

    #[test]
    fn a_damaged_line_never_stops_the_fast_path_with_a_panic() {
        // Every cut of an event, and every place of a byte that changes JSON's structure: each
        // goes through both passes and every way of selecting, after a good line.
        let good = r#"{"id":"g","type":"client.join.failed","data":{"room_id":"r"}}"#;
        let event = r#"{"data":{"x":"a\"b\\","n":[1,{"k":"v"}],"room_id":"r"},"id":"e\u0031","type":"client.join.failed"}"#;
        let filters = [
            Filter::default(),
            Filter {
                search: Some("b".into()),
                ..Filter::default()
            }
            .with(Field::Room, "r"),
        ];
        let mut damaged: Vec<Vec<u8>> = (1..event.len())
            .map(|cut| event.as_bytes()[..cut].to_vec())
            .collect();
        for at in 0..event.len() {
            for &b in br#""\{}[]:,"# {
                let mut line = event.as_bytes().to_vec();
                line[at] = b;
                damaged.push(line);
            }
        }
        for line in damaged {
            let mut text = format!("{good}\n").into_bytes();
            text.extend_from_slice(&line);
            let blob = Arc::new(Blob::Owned(text));
            for filter in &filters {
                let _ = select(vec![Arc::clone(&blob)], filter);
                let _ = select_spans(vec![Arc::clone(&blob)], filter);
            }
        }
    }
}
