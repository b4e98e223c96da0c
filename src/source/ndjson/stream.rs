//! The fast path over a stream (stdin, a pipe, a gzip'd file as it inflates): its pieces, cut
//! between events as the full way cuts them, are read on every core as they come, and only the
//! events that match are kept, copied out of their piece. What is held is the answer and the ids
//! read so far (for de-duplication), not the input.
//!
//! A piece the fast path cannot read (damage, an odd event) is read the full way, as the full way
//! reads each piece of a stream on its own: its events go into a store of their own, the filter
//! picks from it, and its problems are reported at their lines in the whole stream.

use std::io::Read;
use std::sync::Arc;

use super::NotLineDelimited;
use super::aside::{Aside, Noted, Wanted};
use super::candidates::first_pass;
use super::direct::Direct;
use super::prefilter::Prefilter;
use crate::filter::{Filter, Plan};
use crate::source::dump::{self, Cut, DumpProblem, PieceRead};
use crate::store::probe::Probe;
use crate::store::{Batch, Blob, IdKey, Needle, OddField, OddFields, Reading, SeenIds, Store};

/// What one piece of the stream gave.
pub(super) struct Piece {
    /// The id of each event, in order (those the full way drops within the piece left out).
    pub(super) ids: Vec<IdKey>,
    /// Which of them match, as indices into `ids`, ascending.
    pub(super) matched: Vec<usize>,
    /// The matching events, copied out of the piece one after another.
    pub(super) answer: Arc<Blob>,
    /// Where each matching event is in `answer`.
    pub(super) spans: Vec<(usize, usize)>,
    /// The matching events read into a batch, when every one of them is the first of its id
    /// in the piece (the stream's de-duplication decides the rest).
    pub(super) batch: Option<Batch>,
    /// Events that do not match but may name the room the filter asks for (see
    /// [`super::may_name`]), as indices into `ids`, and where each is in `answer`: what tells why the
    /// filter leaves nothing, when it does.
    pub(super) beside: Vec<(usize, (usize, usize))>,
    /// When asked for, each event's time (`NO_TIME` when it has none), by its index in `ids`:
    /// what tells the time the events span when a filter bounded in time leaves nothing.
    pub(super) times: Vec<i64>,
    /// The events that match dropped within the piece as later copies of an id read before in
    /// it (the ids leave them out; see [`super::matching_copies`]).
    pub(super) within: usize,
    /// Its problems and its line count.
    pub(super) read: PieceRead,
    /// The events read in full that hold a field of another type than the API's, as indices
    /// into `ids`, ascending, each with the first such field.
    pub(super) odd: Vec<(usize, OddField)>,
}

/// Cuts the stream named `name` into pieces of about `piece_bytes`, reads each with `read` on
/// every core, and hands each piece read to `take` in stream order; both are given the spare
/// buffers, to hand a piece's back once nothing refers to it. Gives what stopped the stream (its
/// temporary file lost, damage), if anything. The stream readers (select, group, every event) go
/// through this.
pub(super) fn each_piece<P: Send>(
    name: &str,
    reader: impl Read + Send,
    piece_bytes: usize,
    read: impl Fn(Arc<Blob>, &dump::Spares) -> P + Sync,
    mut take: impl FnMut(P, &dump::Spares),
) -> Vec<DumpProblem> {
    /// What the reading threads hand over, in stream order.
    enum Sent<P> {
        Piece(Box<P>),
        Stopped(DumpProblem),
    }
    let mut stopped = Vec::new();
    let threads = crate::source::ordered::threads();
    let spares = dump::Spares::default();
    dump::with_pieces(name, reader, piece_bytes, &spares, |pieces| {
        crate::source::ordered::in_order_from(
            pieces,
            threads,
            |_, cut, send| match cut {
                Cut::Piece(bytes) | Cut::Whole { bytes, .. } => {
                    send(Sent::Piece(Box::new(read(Arc::new(bytes), &spares))));
                }
                Cut::Stopped(p) => send(Sent::Stopped(p)),
                Cut::Lost { from, error } => {
                    send(Sent::Stopped(dump::spool_lost(name, from, &error)))
                }
                // Only the full way's reading is handed an envelope's head.
                Cut::Head(_) => {}
            },
            |sent| match sent {
                Sent::Piece(piece) => take(*piece, &spares),
                Sent::Stopped(p) => stopped.push(p),
            },
        );
    });
    stopped
}

/// How many cores read a piece: one, as the others read the pieces beside it; every core for an
/// envelope, which is never cut (see [`dump::Cut::Whole`]): it is the stream's one piece.
pub(super) fn threads_for(bytes: &[u8]) -> usize {
    if super::looks_like_envelope(bytes) {
        crate::source::ordered::threads()
    } else {
        1
    }
}

/// Hands a piece's buffer back to the spares, once nothing else refers to it.
pub(super) fn give_back(spares: &dump::Spares, blob: Arc<Blob>) {
    if let Ok(Blob::Owned(buffer)) = Arc::try_unwrap(blob) {
        spares.give(buffer);
    }
}

/// Selects the events of a stream named `name` that match `filter`, as
/// [`Source::select_offline`](crate::source::Source::select_offline) selects them from the full
/// way's store: the store holds the events that match (and no other; it counts the others as
/// read, see [`Store::events_read`]), the indices are all of them, in stream order; and how many
/// that match were dropped as later copies of an id read before.
pub fn select_stream(
    name: &str,
    reader: impl Read + Send,
    filter: &Filter,
) -> (Store, Vec<DumpProblem>, Vec<u32>, usize) {
    select_in_pieces(name, reader, filter, dump::PIECE_BYTES)
}

/// [`select_stream`], the stream cut in pieces of about `piece_bytes`.
fn select_in_pieces(
    name: &str,
    reader: impl Read + Send,
    filter: &Filter,
    piece_bytes: usize,
) -> (Store, Vec<DumpProblem>, Vec<u32>, usize) {
    let plan = Plan::new(filter, |s| Some(s.as_bytes()));
    let pre = Prefilter::new(&plan);
    let direct = Direct::new(filter);
    let reading = Reading::start();
    let mut seen = SeenIds::default();
    let mut store = Store::new();
    let mut rows: Vec<u32> = Vec::new();
    let mut unread = Vec::new();
    // The events read, each the first of its id, that are not in the store: those that do not
    // match.
    let mut left_out = 0;
    // The events that match dropped as later copies of an id read before.
    let mut dropped = 0;
    let mut lines = dump::LineProblems::default();
    // The events read in full, each the first of its id, that hold a field of another type
    // than the API's: the store holds only those that match.
    let mut odd = OddFields::default();
    // A room given by its name where its id is wanted leaves nothing, and the full way says so
    // from the events it holds (see `insight::why_empty`); so is the time the events span when
    // a range of time leaves nothing. Until something matches, what tells it is kept aside;
    // when nothing has, it goes into the store, not among its rows, for that to be said.
    let answered = std::sync::atomic::AtomicBool::new(false);
    let room = filter.room().map(Needle::new);
    let bounded = filter.since.is_some() || filter.until.is_some();
    let mut aside = Aside::default();
    let stopped = each_piece(
        name,
        reader,
        piece_bytes,
        |blob, spares| {
            let unanswered = !answered.load(std::sync::atomic::Ordering::Relaxed);
            let named = room.as_ref().filter(|_| unanswered);
            let wanted = Wanted {
                named,
                times: bounded && unanswered,
            };
            let piece = read_fast(&blob, &pre, &direct, Some((&reading, filter)), wanted)
                .unwrap_or_else(|_| read_full(&blob, &reading, filter, wanted));
            // Nothing refers to the piece's bytes any more: the buffer is used again.
            give_back(spares, blob);
            piece
        },
        |mut piece: Piece, _| {
            let fresh = seen.record(&mut piece.ids);
            for &(i, field) in &piece.odd {
                if fresh[i] {
                    odd.note(field);
                }
            }
            let all_fresh = piece.matched.iter().all(|&i| fresh[i]);
            dropped += piece.within + piece.matched.iter().filter(|&&i| !fresh[i]).count();
            let batch = match piece.batch.take() {
                Some(batch) if all_fresh => batch,
                // Some match but are later copies of an id read before: the batch is made
                // again of the others.
                _ => {
                    let keep = piece.matched.iter().map(|&i| fresh[i]);
                    let spans = piece.spans.iter().zip(keep).filter(|(_, k)| *k);
                    let spans = spans.map(|(s, _)| *s);
                    batch_of_read(&reading, &piece.answer, spans, filter, &mut unread)
                }
            };
            let merged = store.merge(batch);
            left_out += fresh.iter().filter(|f| **f).count() - merged.added;
            rows.extend((merged.first..merged.first + merged.added).map(|i| i as u32));
            if rows.is_empty() {
                aside.add(&piece.beside, &piece.times, &fresh, &piece.answer);
            } else if !answered.swap(true, std::sync::atomic::Ordering::Relaxed) {
                aside = Aside::default();
            }
            lines.add(piece.read);
        },
    );
    drop(reading);
    if rows.is_empty() {
        left_out -= aside.into_store(&mut store);
    }
    let mut problems = lines.into_problems(name, stopped);
    problems.extend(unread.into_iter().map(|m| dump::problem(name, None, m)));
    store.left_out(left_out);
    store.read_odd_fields(odd);
    (store, problems, rows, dropped)
}

/// A piece read the fast way: each event's id and, for the candidates, the filter's answer; the
/// events that match read into a batch when `batch` is given (the reading and the filter); what
/// `wanted` asks for beside them.
pub(super) fn read_fast(
    blob: &Arc<Blob>,
    pre: &Prefilter,
    direct: &Direct,
    batch: Option<(&Reading, &Filter)>,
    wanted: Wanted,
) -> Result<Piece, NotLineDelimited> {
    let bytes: &[u8] = blob;
    // A byte order mark is left to the full way, as in a file.
    if bytes.starts_with(dump::BYTE_ORDER_MARK) {
        return Err(NotLineDelimited);
    }
    // A piece that is not line-delimited is the whole stream: the first pass reads it as an
    // envelope, or fails and leaves it to the full way.
    let mut ids = Vec::new();
    let mut matched = Vec::new();
    let mut events = Vec::new();
    let mut noted = Noted::default();
    let mut odd = Vec::new();
    for line in first_pass(bytes, pre, threads_for(bytes))?
        .into_iter()
        .flatten()
    {
        let id = IdKey::of_bytes(line.id).ok_or(NotLineDelimited)?;
        let span = (line.start, line.end);
        let event = &bytes[line.start..line.end];
        // A candidate's time, when wanted, is read off the same reading as the filter's answer.
        let (matches, time, odd_field) = match line.candidate {
            true => direct.judge(event, None, |l, matches| {
                (matches, wanted.time_of(l), l.odd())
            })?,
            false => (false, None, None),
        };
        if let Some(field) = odd_field {
            odd.push((ids.len(), field));
        }
        if matches {
            matched.push(ids.len());
            events.push(span);
        }
        noted.note(wanted, ids.len(), span, event, matches, time);
        ids.push(id);
    }
    let Noted { beside, times } = noted;
    let found = events.len();
    let all = events
        .into_iter()
        .chain(beside.iter().map(|&(_, span)| span));
    let (answer, mut spans) = match **blob {
        // A mapped piece (a whole stream kept in a file, see `dump::Cut::Whole`) has no buffer
        // to give back: the answer is read from it, rather than copied out of what may be all
        // of it.
        Blob::Mapped(_) => (Arc::clone(blob), all.collect()),
        Blob::Owned(_) => copied(all.map(|(a, z)| &bytes[a..z])),
    };
    let beside = beside.iter().map(|&(i, _)| i).zip(spans.split_off(found));
    let beside = beside.collect();
    let batch = match batch {
        Some((reading, filter)) => Some(
            batch_of(reading, &answer, spans.iter().copied(), filter)
                .map_err(|_| NotLineDelimited)?,
        ),
        None => None,
    };
    Ok(Piece {
        ids,
        matched,
        answer,
        spans,
        batch,
        beside,
        times,
        within: 0,
        read: PieceRead::of(bytes, Vec::new()),
        odd,
    })
}

/// A piece read the full way, into a store of its own, which the filter picks from; what
/// `wanted` asks for is noted beside the answer.
pub(super) fn read_full(
    blob: &Arc<Blob>,
    reading: &Reading,
    filter: &Filter,
    wanted: Wanted,
) -> Piece {
    let mut own = Store::new();
    let read = dump::read_piece(blob, reading, &mut |batch| {
        own.merge(batch);
    });
    let picked = own.filter(filter);
    let within = super::matching_copies(own.dropped_raws(), filter);
    let mut odd = Vec::new();
    let ids = (0..own.len())
        .map(|i| {
            // The id as the store read it (every event in it was read so), and the field of
            // another type it holds, if any.
            let probe = Probe::read(own.raw(i)).ok();
            if let Some(field) = probe.as_ref().and_then(|p| p.odd) {
                odd.push((i, field));
            }
            match probe.as_ref().and_then(|p| p.id.get()) {
                None => IdKey::Absent,
                Some(b) => IdKey::of_bytes(b).unwrap_or(IdKey::Absent),
            }
        })
        .collect();
    let matched: Vec<usize> = picked.iter().map(|&i| i as usize).collect();
    let times = match wanted.times {
        true => own.rows().iter().map(|r| r.ts).collect(),
        false => Vec::new(),
    };
    let beside: Vec<usize> = match wanted.named {
        // `matched` is in ascending order.
        Some(room) => (0..own.len())
            .filter(|i| matched.binary_search(i).is_err() && super::may_name(own.raw(*i), room))
            .collect(),
        None => Vec::new(),
    };
    let all = matched.iter().chain(&beside).map(|&i| own.raw(i));
    let (answer, mut spans) = copied(all);
    let beside = beside.into_iter().zip(spans.split_off(matched.len()));
    let beside = beside.collect();
    // The store dropped the piece's later copies already: every event that matches is the
    // first of its id in the piece. (A store's event reads again as it read: else the batch is
    // made again when handed over, and says what it could not read.)
    let batch = batch_of(reading, &answer, spans.iter().copied(), filter).ok();
    Piece {
        ids,
        matched,
        answer,
        spans,
        batch,
        beside,
        times,
        within,
        read,
        odd,
    }
}

/// `events` copied one after another (a line end between them), and where each is.
fn copied<'a>(events: impl Iterator<Item = &'a [u8]>) -> (Arc<Blob>, Vec<(usize, usize)>) {
    let mut bytes = Vec::new();
    let mut spans = Vec::new();
    for event in events {
        let start = bytes.len();
        bytes.extend_from_slice(event);
        spans.push((start, bytes.len()));
        bytes.push(b'\n');
    }
    bytes.shrink_to_fit();
    (Arc::new(Blob::Owned(bytes)), spans)
}

/// The events of `blob` at `spans` read into a batch (indexed for the text search only when the
/// filter searches); the first that cannot be read stops it.
fn batch_of(
    reading: &Reading,
    blob: &Arc<Blob>,
    spans: impl Iterator<Item = (usize, usize)>,
    filter: &Filter,
) -> Result<Batch, serde_json::Error> {
    let mut builder = reading.builder(Arc::clone(blob));
    if filter.search.is_none() {
        builder = builder.unindexed();
    }
    for (a, z) in spans {
        builder.push(a, z)?;
    }
    Ok(builder.finish())
}

/// [`batch_of`] for events that were read before (into a store, or by the filter), which read
/// again the same way: one that does not is left out, and said.
fn batch_of_read(
    reading: &Reading,
    blob: &Arc<Blob>,
    spans: impl Iterator<Item = (usize, usize)>,
    filter: &Filter,
    unread: &mut Vec<String>,
) -> Batch {
    let mut builder = reading.builder(Arc::clone(blob));
    if filter.search.is_none() {
        builder = builder.unindexed();
    }
    for (a, z) in spans {
        if let Err(e) = builder.push(a, z) {
            unread.push(format!(
                "an event that matched could not be read again: {e}"
            ));
        }
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{EventType, Field};
    use crate::filter::TimeBound;

    /// NDJSON with what the fast path leaves to the full way here and there: escaped ids, a
    /// damaged line, an envelope line, ids copied across pieces, events without an id.
    fn dump() -> Vec<u8> {
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 3000, 9).unwrap();
        let mut out = Vec::new();
        let lines: Vec<&[u8]> = generated
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        for (k, line) in lines.iter().enumerate() {
            out.extend_from_slice(line);
            out.push(b'\n');
            match k % 500 {
                // A copy of an earlier event's id, with another room.
                17 => {
                    let earlier = String::from_utf8_lossy(lines[k / 2]).into_owned();
                    let copy = earlier.replacen("\"room_id\":\"", "\"room_id\":\"x", 1);
                    out.extend_from_slice(copy.as_bytes());
                    out.push(b'\n');
                }
                101 if k > 1000 => {
                    out.extend_from_slice(b"{\"id\":\"cut\",\"data\":{\"room_id\":\n")
                }
                202 => out
                    .extend_from_slice(b"{\"id\":\"e\\u0031\",\"type\":\"client.join.failed\"}\n"),
                303 => out.extend_from_slice(b"{\"type\":\"client.join.failed\",\"data\":{}}\n"),
                404 => out.extend_from_slice(
                    b"{\"events\":[{\"id\":\"in-envelope\",\"type\":\"client.join.failed\"}]}\n",
                ),
                // A room whose name is written with an escape, of no other event.
                405 => out.extend_from_slice(
                    b"{\"id\":\"esc\",\"data\":{\"room_id\":\"r-esc\",\"room_name\":\"Lobby\\u002d9\"}}\n",
                ),
                _ => {}
            }
        }
        out
    }

    fn filters() -> Vec<Filter> {
        vec![
            Filter::default(),
            Filter {
                types: vec![EventType::Join],
                ..Filter::default()
            },
            Filter::default().with(Field::Room, "673a1f2c9e4b8d0a5c7e3f21"),
            Filter {
                search: Some("TIMEOUT".into()),
                ..Filter::default()
            },
            // Rooms given by their names, in another case, one of them written with an escape:
            // nothing matches, and why is told.
            Filter::default().with(Field::Room, "WEEKLY-ALLHANDS"),
            Filter {
                types: vec![EventType::Join],
                ..Filter::default().with(Field::Room, "weekly-allhands")
            },
            Filter::default().with(Field::Room, "lobby-9"),
            // Ranges of time: one that holds some events, two that miss every one (nothing
            // matches, and the time the events span is told).
            Filter {
                since: Some(TimeBound::rfc3339("2026-11-18T09:00:00Z")),
                ..Filter::default().with(Field::Room, "673a1f2c9e4b8d0a5c7e3f21")
            },
            Filter {
                since: Some(TimeBound::rfc3339("2099-01-01T00:00:00Z")),
                ..Filter::default()
            },
            Filter {
                until: Some(TimeBound::rfc3339("2000-01-01T00:00:00Z")),
                types: vec![EventType::Join],
                ..Filter::default()
            },
        ]
    }

    #[test]
    fn a_stream_in_pieces_selects_what_the_full_way_selects_with_the_same_problems() {
        let bytes = dump();
        for piece_bytes in [1 << 12, 50_000, 1 << 30] {
            let mut empty = 0;
            // The copies dropped that a filter matched, over every filter.
            let mut copied = 0;
            // The full way, reading the same stream in the same pieces.
            let (full, full_problems) =
                dump::load_stream("d", std::io::Cursor::new(&bytes), piece_bytes);
            assert!(!full_problems.is_empty(), "the dump holds damage");
            for filter in filters() {
                let want: Vec<&[u8]> = full
                    .filter(&filter)
                    .iter()
                    .map(|&i| full.raw(i as usize))
                    .collect();
                let (store, problems, rows, dropped) =
                    select_in_pieces("d", std::io::Cursor::new(&bytes), &filter, piece_bytes);
                let got: Vec<&[u8]> = rows.iter().map(|&i| store.raw(i as usize)).collect();
                let what = format!("{} in pieces of {piece_bytes}", filter.describe());
                assert!(got == want, "{what}: {} against {}", got.len(), want.len());
                let copies = super::super::matching_copies(full.dropped_raws(), &filter);
                assert_eq!(dropped, copies, "{what}");
                copied += copies;
                assert_eq!(problems, full_problems, "{what}");
                assert_eq!(store.events_read(), full.len(), "{what}");
                // Only the answer is held, and when there is none, what tells why.
                let why = crate::insight::why_empty(&filter, &store);
                assert_eq!(why, crate::insight::why_empty(&filter, &full), "{what}");
                // Every filter here that leaves nothing says why: a room given by its name,
                // a range of time that misses every event.
                if rows.is_empty() {
                    assert!(!why.is_empty(), "{what}: nothing, and no reason");
                    empty += 1;
                }
                if !rows.is_empty() || filter.room().is_none() {
                    assert_eq!(store.len(), rows.len(), "{what}");
                }
            }
            // Three rooms given by their names and two ranges of time leave nothing.
            assert_eq!(empty, 5, "in pieces of {piece_bytes}");
            assert!(copied > 0, "the dump holds copies that match");
            let named = select_in_pieces(
                "d",
                std::io::Cursor::new(&bytes),
                &Filter::default().with(Field::Room, "LOBBY-9"),
                piece_bytes,
            );
            let why = crate::insight::why_empty(&Filter::default(), &named.0);
            assert!(named.2.is_empty());
            assert_eq!(why.len(), 0, "no filter, no reason");
            let why = crate::insight::why_empty(
                &Filter::default().with(Field::Room, "LOBBY-9"),
                &named.0,
            );
            assert!(
                matches!(&why[..], [crate::insight::WhyEmpty::RoomName { ids, .. }] if ids == &["r-esc"]),
                "{why:?}"
            );
        }
    }

    #[test]
    fn a_gzip_stream_is_inflated_and_read_as_the_plain_one() {
        use std::io::Write;
        let bytes = dump();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&bytes).unwrap();
        let gz = gz.finish().unwrap();
        for filter in filters() {
            let plain = select_in_pieces("d", std::io::Cursor::new(&bytes), &filter, 50_000);
            let inflated = select_in_pieces("d", std::io::Cursor::new(&gz), &filter, 50_000);
            let raws = |(store, _, rows, _): &(Store, Vec<DumpProblem>, Vec<u32>, usize)| {
                rows.iter()
                    .map(|&i| store.raw(i as usize).to_vec())
                    .collect::<Vec<_>>()
            };
            assert_eq!(raws(&inflated), raws(&plain), "{}", filter.describe());
            assert_eq!(inflated.1, plain.1);
            assert_eq!(inflated.3, plain.3);
        }
        // Cut short: what came before the damage is kept, and the damage said.
        let cut = &gz[..gz.len() / 2];
        let (_, problems, rows, _) =
            select_in_pieces("d", std::io::Cursor::new(cut), &Filter::default(), 50_000);
        assert!(!rows.is_empty());
        assert!(
            problems[0]
                .message
                .contains("gzip data is damaged or cut short"),
            "{problems:?}"
        );
    }
}
