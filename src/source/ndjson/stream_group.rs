//! `list --group-by` over a stream (stdin, a pipe, a gzip'd file as it inflates): its pieces are
//! read on every core as they come, as [`select_stream`](super::select_stream) reads them, and
//! what each event that matches tells the counts is handed over in stream order, where the
//! de-duplication decides which count. What is held is the ids read so far and the groups (with
//! a copy of the event that names each), not the input.

use std::borrow::Cow;
use std::sync::Arc;

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::{FxHashMap, FxHashSet};

use super::NotLineDelimited;
use super::aside::{Aside, Noted, Wanted};
use super::candidates::first_pass;
use super::direct::{Direct, Line};
use super::group::{
    Bytes, GroupFields, Grouped, Key, Place, Tally, counted_of, hash_of, read_of, store_of,
};
use super::prefilter::Prefilter;
use super::stream::{self, each_piece, give_back};
use crate::filter::{Filter, Plan};
use crate::source::dump::{self, DumpProblem, PieceRead};
use crate::store::skipping::Skipping;
use crate::store::{Blob, IdKey, Reading, SeenIds, Store};

/// A string of an event of a piece: where the piece holds it as it reads (no escape), else a
/// copy.
enum Held {
    At(usize, usize),
    Own(Vec<u8>),
}

impl Held {
    /// `bytes`, a slice of `piece` or of what reading one of its events decoded.
    fn of(piece: &[u8], bytes: Bytes) -> Held {
        match bytes {
            Cow::Borrowed(b) => {
                let start = b.as_ptr() as usize - piece.as_ptr() as usize;
                Held::At(start, start + b.len())
            }
            Cow::Owned(b) => Held::Own(b),
        }
    }

    fn get<'a>(&'a self, piece: &'a [u8]) -> &'a [u8] {
        match self {
            Held::At(a, z) => &piece[*a..*z],
            Held::Own(b) => b,
        }
    }
}

/// What the counts take of one event that matches.
struct Fact {
    first: Option<Held>,
    second: Option<Held>,
    code: Option<i64>,
    named: bool,
    terminal: bool,
    time: Option<i64>,
    peer: Option<Held>,
    room: Option<Held>,
}

impl Fact {
    /// The fact of the event `piece[a..z]`, read as the plan reads it.
    fn of(piece: &[u8], (a, z): (usize, usize), line: &Line, fields: GroupFields) -> Fact {
        let read = read_of(&piece[a..z], line, fields);
        let held = |b: Option<Bytes>| b.map(|b| Held::of(piece, b));
        let (first, second, code) = read.key.into_parts();
        Fact {
            first: held(first),
            second: held(second),
            code,
            named: read.named,
            terminal: read.terminal,
            time: read.time,
            peer: held(read.peer),
            room: held(read.room),
        }
    }
}

/// One piece of the stream, read: its bytes (or a copy of the events that match), the id of
/// each event, and each event that matches (the place of its id among the ids, where it is in
/// the bytes, and its fact; `None` when it could not be read again).
struct Read {
    bytes: Arc<Blob>,
    ids: Vec<IdKey>,
    events: Vec<(usize, (usize, usize), Option<Fact>)>,
    /// The events that match dropped within the piece as later copies of an id read before in
    /// it (the ids leave them out).
    within: usize,
    /// What [`Wanted`] asked for: the events that may name the filter's room (their
    /// place among the ids, where they are in the bytes), each event's time.
    beside: Vec<(usize, (usize, usize))>,
    times: Vec<i64>,
    read: PieceRead,
}

/// A piece read the fast way: each event's id, and the fact of each that matches.
fn read_fast(
    blob: Arc<Blob>,
    pre: &Prefilter,
    direct: &Direct,
    fields: GroupFields,
    wanted: Wanted,
) -> Result<Read, (Arc<Blob>, NotLineDelimited)> {
    let read = {
        let bytes: &[u8] = &blob;
        let go = || {
            // A byte order mark is left to the full way, as in a file.
            if bytes.starts_with(dump::BYTE_ORDER_MARK) {
                return Err(NotLineDelimited);
            }
            let mut ids = Vec::new();
            let mut events = Vec::new();
            let mut noted = Noted::default();
            let mut skipping = Skipping::default();
            for line in first_pass(bytes, pre, stream::threads_for(bytes))?
                .into_iter()
                .flatten()
            {
                let id = IdKey::of_bytes(line.id).ok_or(NotLineDelimited)?;
                let span = (line.start, line.end);
                let raw = &bytes[line.start..line.end];
                let mut matches = false;
                let mut time = None;
                if line.candidate {
                    // Its time, when wanted, read off the same reading as the facts.
                    let (fact, read_time) = direct.judge(raw, Some(&mut skipping), |l, m| {
                        (
                            m.then(|| Fact::of(bytes, span, l, fields)),
                            wanted.time_of(l),
                        )
                    })?;
                    time = read_time;
                    if let Some(fact) = fact {
                        events.push((ids.len(), span, Some(fact)));
                        matches = true;
                    }
                }
                noted.note(wanted, ids.len(), span, raw, matches, time);
                ids.push(id);
            }
            Ok((ids, events, noted, PieceRead::of(bytes, Vec::new())))
        };
        go()
    };
    match read {
        Ok((ids, events, noted, read)) => Ok(Read {
            bytes: blob,
            ids,
            events,
            within: 0,
            beside: noted.beside,
            times: noted.times,
            read,
        }),
        Err(e) => Err((blob, e)),
    }
}

/// A piece read the full way (see [`stream::read_full`]): the events that match, copied, and
/// their facts.
fn read_full(
    blob: &Arc<Blob>,
    reading: &Reading,
    filter: &Filter,
    fields: GroupFields,
    wanted: Wanted,
) -> Read {
    let piece = stream::read_full(blob, reading, filter, wanted);
    let everything = Filter::default();
    let again = Direct::new(&everything);
    let answer: &[u8] = &piece.answer;
    let events = piece
        .matched
        .iter()
        .zip(&piece.spans)
        .map(|(&i, &span)| {
            let fact = again.read_deduplicated(&answer[span.0..span.1], |l| {
                Fact::of(answer, span, l, fields)
            });
            (i, span, fact.ok().flatten())
        })
        .collect();
    Read {
        bytes: Arc::clone(&piece.answer),
        ids: piece.ids,
        events,
        within: piece.within,
        beside: piece.beside,
        times: piece.times,
        read: piece.read,
    }
}

/// The groups of the events of a stream named `name` that match `filter` (the first `max` of
/// them), with the problems met reading it, as the full way counts and reports them; the store
/// of [`Grouped`] counts every event read (see [`crate::store::Store::events_read`]).
pub fn group_stream(
    name: &str,
    reader: impl std::io::Read + Send,
    filter: &Filter,
    fields: GroupFields,
    max: Option<usize>,
) -> (Grouped, Vec<DumpProblem>) {
    group_in_pieces(name, reader, filter, fields, max, dump::PIECE_BYTES)
}

/// [`group_stream`], the stream cut in pieces of about `piece_bytes`.
fn group_in_pieces(
    name: &str,
    reader: impl std::io::Read + Send,
    filter: &Filter,
    fields: GroupFields,
    max: Option<usize>,
    piece_bytes: usize,
) -> (Grouped, Vec<DumpProblem>) {
    let plan = Plan::new(filter, |s| Some(s.as_bytes()));
    let pre = Prefilter::new(&plan);
    let direct = Direct::new(filter);
    let reading = Reading::start();
    let mut seen = SeenIds::default();
    let mut counter = Counter::default();
    let mut read_events = 0;
    // The events that match dropped as later copies of an id read before.
    let mut dropped = 0;
    let mut left = max.unwrap_or(usize::MAX);
    let mut unread = 0;
    let mut lines = dump::LineProblems::default();
    // Until an event matches, what tells why the filter leaves nothing is kept (see
    // `stream::select_stream`): the events that may name the room asked for, the time the
    // events span.
    let answered = std::sync::atomic::AtomicBool::new(false);
    let room = filter.room().map(crate::store::Needle::new);
    let bounded = filter.since.is_some() || filter.until.is_some();
    let stopped = each_piece(
        name,
        reader,
        piece_bytes,
        |blob, spares| {
            let unanswered = !answered.load(std::sync::atomic::Ordering::Relaxed);
            let wanted = Wanted {
                named: room.as_ref().filter(|_| unanswered),
                times: bounded && unanswered,
            };
            match read_fast(blob, &pre, &direct, fields, wanted) {
                Ok(read) => read,
                Err((blob, _)) => {
                    let read = read_full(&blob, &reading, filter, fields, wanted);
                    give_back(spares, blob);
                    read
                }
            }
        },
        |mut piece: Read, spares| {
            let fresh = seen.record(&mut piece.ids);
            read_events += fresh.iter().filter(|f| **f).count();
            dropped += piece.within + piece.events.iter().filter(|e| !fresh[e.0]).count();
            let bytes: &[u8] = &piece.bytes;
            if !answered.load(std::sync::atomic::Ordering::Relaxed) {
                if piece.events.iter().any(|(i, _, _)| fresh[*i]) {
                    answered.store(true, std::sync::atomic::Ordering::Relaxed);
                    counter.aside = Aside::default();
                } else {
                    counter
                        .aside
                        .add(&piece.beside, &piece.times, &fresh, bytes);
                }
            }
            for (i, (a, z), fact) in std::mem::take(&mut piece.events) {
                if !fresh[i] || left == 0 {
                    continue;
                }
                left -= 1;
                match fact {
                    Some(fact) => counter.add(&fact, bytes, &bytes[a..z]),
                    None => unread += 1,
                }
            }
            lines.add(piece.read);
            give_back(spares, piece.bytes);
        },
    );
    drop(reading);
    let mut problems = lines.into_problems(name, stopped);
    if unread > 0 {
        problems.push(dump::problem(
            name,
            None,
            format!(
                "{} that matched could not be read again",
                crate::text::plural(unread, "event", "events")
            ),
        ));
    }
    let grouped = counter.finish(read_events).unwrap_or_else(|()| {
        problems.push(dump::problem(
            name,
            None,
            "the events that name the groups could not be read again".to_string(),
        ));
        let mut store = Store::new();
        store.left_out(read_events);
        Grouped {
            store,
            groups: Vec::new(),
            dropped: 0,
        }
    });
    (Grouped { dropped, ..grouped }, problems)
}

/// The groups counted so far, in the order their first events were met.
#[derive(Default)]
struct Counter {
    index: HashTable<u32>,
    tallies: Vec<Tally<'static>>,
    /// A copy of each group's first event and of the first that names it, one after another.
    events: Vec<u8>,
    /// Peer and room ids, numbered; the distinct (group, number) pairs; the count by group.
    peer_numbers: FxHashMap<Vec<u8>, u32>,
    room_numbers: FxHashMap<Vec<u8>, u32>,
    peer_pairs: FxHashSet<(u32, u32)>,
    room_pairs: FxHashSet<(u32, u32)>,
    peers: Vec<u32>,
    rooms: Vec<u32>,
    /// Kept while no event has matched.
    aside: Aside,
}

impl Counter {
    /// Counts an event (`raw`, in `piece`) in its group.
    fn add(&mut self, fact: &Fact, piece: &[u8], raw: &[u8]) {
        fn text<'a>(h: &'a Option<Held>, piece: &'a [u8]) -> Option<Bytes<'a>> {
            h.as_ref().map(|h| Cow::Borrowed(h.get(piece)))
        }
        let key = Key::new(
            text(&fact.first, piece),
            text(&fact.second, piece),
            fact.code,
        );
        let hash = hash_of(&key);
        let tallies = &mut self.tallies;
        let g = match self.index.entry(
            hash,
            |&g| tallies[g as usize].key == key,
            |&g| tallies[g as usize].hash,
        ) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let g = tallies.len() as u32;
                e.insert(g);
                let first = copy(&mut self.events, raw);
                tallies.push(Tally {
                    key: key.into_owned(),
                    hash,
                    first,
                    named: fact.named.then_some(first),
                    count: 0,
                    finals: 0,
                    first_ts: i64::MAX,
                    last_ts: i64::MIN,
                });
                self.peers.push(0);
                self.rooms.push(0);
                g
            }
        };
        let t = &mut self.tallies[g as usize];
        t.count += 1;
        t.finals += u32::from(fact.terminal);
        if fact.named && t.named.is_none() {
            t.named = Some(copy(&mut self.events, raw));
        }
        if let Some(ts) = fact.time {
            t.first_ts = t.first_ts.min(ts);
            t.last_ts = t.last_ts.max(ts);
        }
        for (value, numbers, pairs, counts) in [
            (
                &fact.peer,
                &mut self.peer_numbers,
                &mut self.peer_pairs,
                &mut self.peers,
            ),
            (
                &fact.room,
                &mut self.room_numbers,
                &mut self.room_pairs,
                &mut self.rooms,
            ),
        ] {
            let Some(value) = value else { continue };
            let value = value.get(piece);
            let n = match numbers.get(value) {
                Some(&n) => n,
                None => {
                    let n = numbers.len() as u32;
                    numbers.insert(value.to_vec(), n);
                    n
                }
            };
            if pairs.insert((g, n)) {
                counts[g as usize] += 1;
            }
        }
    }

    /// The groups, and a store of the events that name them which counts `read` events read;
    /// an error when those events cannot be read again.
    fn finish(self, read: usize) -> Result<Grouped, ()> {
        let (places, groups) = counted_of(&self.tallies, &self.peers, &self.rooms);
        let blob = Arc::new(Blob::Owned(self.events));
        match store_of(&[blob], &places) {
            Ok(mut store) => {
                if groups.is_empty() {
                    let _ = self.aside.into_store(&mut store);
                }
                store.left_out(read.saturating_sub(store.len()));
                Ok(Grouped {
                    store,
                    groups,
                    dropped: 0,
                })
            }
            Err(_) => Err(()),
        }
    }
}

/// `raw` copied at the end of `events`: its place there.
fn copy(events: &mut Vec<u8>, raw: &[u8]) -> Place {
    let start = events.len();
    events.extend_from_slice(raw);
    let place = (0, start, events.len());
    events.push(b'\n');
    place
}

#[cfg(test)]
mod tests {
    use super::super::group::Counted;
    use super::*;
    use crate::event::{EventType, Field};

    /// Generated events, each tenth followed by a copy of an earlier one's id with another
    /// room, type and finality, and some with escaped strings.
    fn dump() -> Vec<u8> {
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 3000, 4).unwrap();
        let lines: Vec<String> = String::from_utf8(generated)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let mut out = String::new();
        for (k, line) in lines.iter().enumerate() {
            match k % 10 {
                3 => out.push_str(&line.replacen("\"room_id\":\"", "\"room_id\":\"\\u0041", 1)),
                _ => out.push_str(line),
            }
            out.push('\n');
            if k % 10 == 7 {
                let copy = lines[k / 3]
                    .replacen("\"room_id\":\"", "\"room_id\":\"x", 1)
                    .replacen("\"is_terminal\":false", "\"is_terminal\":true", 1)
                    .replacen("\"type\":\"client.", "\"type\":\"client.x", 1);
                out.push_str(&copy);
                out.push('\n');
            }
        }
        out.into_bytes()
    }

    fn summary(grouped: &Grouped) -> Vec<(Counted, Vec<u8>)> {
        grouped
            .groups
            .iter()
            .map(|c| {
                let raw = grouped
                    .store
                    .raw(c.named.unwrap_or(c.row) as usize)
                    .to_vec();
                (c.clone(), raw)
            })
            .collect()
    }

    #[test]
    fn a_stream_in_pieces_is_grouped_as_the_whole_dump_is() {
        let bytes = dump();
        let blob = Arc::new(Blob::Owned(bytes.clone()));
        let fields = [
            GroupFields {
                first: Field::Type,
                second: Some(Field::ErrorName),
                code: true,
                display: None,
            },
            GroupFields {
                first: Field::Peer,
                second: None,
                code: false,
                display: Some(Field::UserName),
            },
            GroupFields {
                first: Field::Room,
                second: None,
                code: false,
                display: Some(Field::RoomName),
            },
        ];
        let filters = [
            Filter::default(),
            Filter {
                types: vec![EventType::Join],
                ..Filter::default()
            },
            Filter::default().with(Field::Room, "673a1f2c9e4b8d0a5c7e3f21"),
        ];
        for fields in fields {
            for filter in &filters {
                for max in [None, Some(1234)] {
                    let want =
                        super::super::group::group(vec![Arc::clone(&blob)], filter, fields, max)
                            .expect("the mapped way reads it");
                    for piece_bytes in [1 << 12, 50_000, 1 << 30] {
                        let (got, problems) = group_in_pieces(
                            "d",
                            std::io::Cursor::new(&bytes),
                            filter,
                            fields,
                            max,
                            piece_bytes,
                        );
                        let what =
                            format!("{fields:?}, {}, {max:?}, {piece_bytes}", filter.describe());
                        assert!(problems.is_empty(), "{what}: {problems:?}");
                        assert!(summary(&got) == summary(&want), "{what}");
                        assert!(!got.groups.is_empty(), "{what}");
                        // The copies dropped that match, counted alike by both ways.
                        assert_eq!(got.dropped, want.dropped, "{what}");
                        assert!(!filter.is_empty() || want.dropped > 0, "{what}: copies");
                    }
                }
            }
        }
    }

    /// Groups that are none come with a store that says why, as the full way's does: a room
    /// given by its name, a range of time that misses every event.
    #[test]
    fn a_stream_with_no_group_tells_why_as_the_full_way_does() {
        let bytes = dump();
        let name = String::from_utf8_lossy(&bytes)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find_map(|e| Some(e["data"]["room_name"].as_str()?.to_ascii_uppercase()))
            .unwrap();
        let filters = [
            Filter::default().with(Field::Room, &name),
            Filter {
                since: Some(crate::filter::TimeBound::rfc3339("2099-01-01T00:00:00Z")),
                ..Filter::default()
            },
            Filter {
                until: Some(crate::filter::TimeBound::rfc3339("2000-01-01T00:00:00Z")),
                types: vec![EventType::Join],
                ..Filter::default()
            },
        ];
        let fields = GroupFields {
            first: Field::Type,
            second: Some(Field::ErrorName),
            code: true,
            display: None,
        };
        for piece_bytes in [1 << 12, 1 << 30] {
            let (full, _) = dump::load_stream("d", std::io::Cursor::new(&bytes), piece_bytes);
            for filter in &filters {
                let (got, _) = group_in_pieces(
                    "d",
                    std::io::Cursor::new(&bytes),
                    filter,
                    fields,
                    None,
                    piece_bytes,
                );
                let what = format!("{}, {piece_bytes}", filter.describe());
                assert!(got.groups.is_empty(), "{what}");
                let why = crate::insight::why_empty(filter, &got.store);
                assert!(!why.is_empty(), "{what}");
                assert_eq!(why, crate::insight::why_empty(filter, &full), "{what}");
                assert_eq!(got.store.events_read(), full.len(), "{what}");
            }
        }
    }
}
