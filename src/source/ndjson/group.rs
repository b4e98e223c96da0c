//! `list --group-by` over a line-delimited dump or an envelope without a store of every event:
//! the events are chosen as [`select`](super::select) chooses them (the same first passes and
//! de-duplication), and each one that matches is read only for what a group's counts take: its
//! key, whether it is final, its peer, its room, its time and the name shown beside the key. The
//! counts are made on every core, a part of the events each, and joined in input order.
//!
//! What the groups print of their key is read by the store from the first event of each group
//! (and the first that names it): a store of those few events, so that the strings printed are
//! the store's own.

use std::borrow::Cow;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::hash_table::{Entry, HashTable};

use super::candidates::candidates_naming;
use super::direct::{Direct, Line};
use super::{NotLineDelimited, is_bounded, parallel, why_empty_store};
use crate::event::Field;
use crate::filter::{Filter, Record};
use crate::store::skipping::Skipping;
use crate::store::{Blob, Reading, Store};

/// What a grouping reads of an event: its key's fields and the field shown beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupFields {
    pub first: Field,
    pub second: Option<Field>,
    /// Whether the error code is part of the key.
    pub code: bool,
    /// The name shown beside the key (a room's, a user's): the first one met in a group.
    pub display: Option<Field>,
}

/// One group's counts, and where the store of [`Grouped`] holds its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// The group's first event in input order: its row in the store.
    pub row: u32,
    /// The first of its events that has the display field, when that is not the first event.
    pub named: Option<u32>,
    pub count: u32,
    /// How many have `is_terminal` true.
    pub finals: u32,
    /// Distinct peer ids and room ids (an event without one adds nothing).
    pub peers: u32,
    pub rooms: u32,
    /// Nanoseconds; `None` when no event of the group has a time.
    pub first_seen: Option<i64>,
    pub last_seen: Option<i64>,
}

/// The groups of the events that match, in the order their first events were met, and a store
/// of the events they name; when no event matches, a store of what tells why: the events that
/// may name the room asked for, and the span of the times read (see `insight::why_empty`).
#[derive(Debug)]
pub struct Grouped {
    pub store: Store,
    pub groups: Vec<Counted>,
    /// How many events that match were dropped as later copies of an id read before (see
    /// [`super::matching_copies`]).
    pub dropped: usize,
}

/// A string read off an event: borrowed from the dump when it is there as it reads (no escape),
/// else a copy.
pub(super) type Bytes<'a> = Cow<'a, [u8]>;

/// A group's key as bytes: two strings and a code, each absent or not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key<'a> {
    first: Option<Bytes<'a>>,
    second: Option<Bytes<'a>>,
    code: Option<i64>,
}

impl<'a> Key<'a> {
    pub(super) fn new(
        first: Option<Bytes<'a>>,
        second: Option<Bytes<'a>>,
        code: Option<i64>,
    ) -> Key<'a> {
        Key {
            first,
            second,
            code,
        }
    }

    /// Its parts: the two strings and the code.
    pub(super) fn into_parts(self) -> (Option<Bytes<'a>>, Option<Bytes<'a>>, Option<i64>) {
        (self.first, self.second, self.code)
    }

    /// The key holding its own strings.
    pub(super) fn into_owned(self) -> Key<'static> {
        let own = |b: Option<Bytes>| b.map(|b| Cow::Owned(b.into_owned()));
        Key {
            first: own(self.first),
            second: own(self.second),
            code: self.code,
        }
    }
}

/// An event's place: (blob, start, end).
pub(super) type Place = (usize, usize, usize);

/// A group as one part of the events counts it.
pub(super) struct Tally<'a> {
    pub(super) key: Key<'a>,
    pub(super) hash: u64,
    pub(super) first: Place,
    pub(super) named: Option<Place>,
    pub(super) count: u32,
    pub(super) finals: u32,
    /// `i64::MAX` and `i64::MIN` while no event has a time.
    pub(super) first_ts: i64,
    pub(super) last_ts: i64,
}

/// A distinct (group, value) pair of a part: the group as the part numbers it, the hash of the
/// value's bytes, and the value.
type Pair<'a> = (u32, u64, Value<'a>);

/// The longest value held inline by [`Value`]: a peer's id (a UUID, 36 bytes) or a room's.
const SHORT: usize = 38;

/// A peer's or a room's id as a pair holds it: a short one copied inline, as it is met (its
/// bytes are then at hand, not in the dump far behind, when later events are compared with
/// it), a longer one as read. Two values are equal exactly when their bytes are: a value of
/// [`SHORT`] bytes or fewer is always `Short`, its unused bytes zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value<'a> {
    Short(u8, [u8; SHORT]),
    Long(Bytes<'a>),
}

impl<'a> Value<'a> {
    fn of(bytes: Bytes<'a>) -> Value<'a> {
        if bytes.len() <= SHORT {
            let mut short = [0; SHORT];
            short[..bytes.len()].copy_from_slice(&bytes);
            Value::Short(bytes.len() as u8, short)
        } else {
            Value::Long(bytes)
        }
    }
}

/// What one part of the events counts.
#[derive(Default)]
struct Part<'a> {
    tallies: Vec<Tally<'a>>,
    /// The distinct (group, peer) and (group, room) pairs met, by shard of their value's hash.
    peers: Vec<Vec<Pair<'a>>>,
    rooms: Vec<Vec<Pair<'a>>>,
}

/// Groups the events of `blobs` that match `filter` (the first `max` of them, when given) by
/// `fields`. Fails, as [`select`](super::select) does, on what the full path must read.
pub fn group(
    blobs: Vec<Arc<Blob>>,
    filter: &Filter,
    fields: GroupFields,
    max: Option<usize>,
) -> Result<Grouped, NotLineDelimited> {
    let threads = crate::source::ordered::threads();
    let super::candidates::Chosen {
        kept,
        dropped,
        named,
    } = candidates_naming(&blobs, filter, threads)?;
    let direct = Direct::new(filter);
    let dropped = super::matching_dropped(&blobs, &dropped, &direct, filter.is_empty())?;
    // Whether some event matches, told by the choice of the first `max` when it is made.
    let mut matched_any = None;
    // The first `max` that match are known only once each is decided: they are chosen first,
    // and grouped with a filter that keeps all.
    let everything = Filter::default();
    let (kept, direct) = match max {
        Some(max) => {
            let mut chosen: Vec<Vec<(usize, usize)>> = vec![Vec::new(); blobs.len()];
            let mut left = max;
            let mut any = false;
            for (b, spans) in kept.iter().enumerate() {
                let chunks: Vec<&[(usize, usize)]> =
                    spans.chunks(chunk_len(spans.len(), threads)).collect();
                let matched = parallel(&chunks, |chunk| {
                    let mut out = Vec::new();
                    for &(a, z) in *chunk {
                        if direct.matches(&blobs[b][a..z])? {
                            out.push((a, z));
                        }
                    }
                    Ok::<_, NotLineDelimited>(out)
                });
                for part in matched {
                    let part = part?;
                    any |= !part.is_empty();
                    let take = part.len().min(left);
                    chosen[b].extend_from_slice(&part[..take]);
                    left -= take;
                }
            }
            matched_any = Some(any);
            (chosen, Direct::new(&everything))
        }
        None => (kept, direct),
    };
    let total: usize = kept.iter().map(Vec::len).sum();
    let per_chunk = chunk_len(total, threads * 2);
    let chunks: Vec<(usize, &[(usize, usize)])> = kept
        .iter()
        .enumerate()
        .flat_map(|(b, spans)| spans.chunks(per_chunk).map(move |c| (b, c)))
        .collect();
    let shards = threads.max(1);
    let parts = parallel(&chunks, |&(b, spans)| {
        count_part(&blobs, b, spans, &direct, fields, shards)
    });
    let mut all = Vec::with_capacity(parts.len());
    for part in parts {
        all.push(part?);
    }
    let mut grouped = joined(&blobs, all, shards)?;
    grouped.dropped = dropped;
    // Nothing matched (rather than `max` leaving nothing): what tells why goes in the store.
    let none_matched = matched_any.map_or(grouped.groups.is_empty(), |any| !any);
    if none_matched && (is_bounded(filter) || filter.room().is_some()) {
        grouped.store = why_empty_store(&blobs, filter, named, threads)?;
    }
    Ok(grouped)
}

/// About `n` equal chunks of `len` items.
fn chunk_len(len: usize, n: usize) -> usize {
    len.div_ceil(n.max(1)).max(1)
}

/// The hash of a key, or of a value with its group.
pub(super) fn hash_of<T: std::hash::Hash>(t: &T) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(t)
}

/// `bytes`, a slice of the event `raw` or of what its reading decoded, borrowed from the dump
/// when it is a slice of `raw`.
fn held<'a>(raw: &'a [u8], bytes: &[u8]) -> Bytes<'a> {
    let start = (bytes.as_ptr() as usize).wrapping_sub(raw.as_ptr() as usize);
    match raw.get(start..start.wrapping_add(bytes.len())) {
        Some(within) if std::ptr::eq(within.as_ptr(), bytes.as_ptr()) => Cow::Borrowed(within),
        _ => Cow::Owned(bytes.to_vec()),
    }
}

/// What the counts take of one event.
pub(super) struct Read<'a> {
    pub(super) key: Key<'a>,
    pub(super) named: bool,
    pub(super) terminal: bool,
    pub(super) time: Option<i64>,
    pub(super) peer: Option<Bytes<'a>>,
    pub(super) room: Option<Bytes<'a>>,
}

pub(super) fn read_of<'a>(raw: &'a [u8], line: &Line, fields: GroupFields) -> Read<'a> {
    let text = |field: Field| line.text(field).map(|b| held(raw, b));
    Read {
        key: Key {
            first: text(fields.first),
            second: fields.second.and_then(text),
            code: if fields.code {
                line.number(Field::Code)
            } else {
                None
            },
        },
        named: fields.display.is_some_and(|f| line.text(f).is_some()),
        terminal: line.terminal() == Some(true),
        time: line.time(),
        // An empty id names no peer or room: the PEERS and ROOMS counts leave it out.
        peer: text(Field::Peer).filter(|b| !b.is_empty()),
        room: text(Field::Room).filter(|b| !b.is_empty()),
    }
}

/// Counts the events at `spans` of blob `b` that `direct` keeps.
fn count_part<'a>(
    blobs: &'a [Arc<Blob>],
    b: usize,
    spans: &[(usize, usize)],
    direct: &Direct,
    fields: GroupFields,
    shards: usize,
) -> Result<Part<'a>, NotLineDelimited> {
    let mut part = Part {
        tallies: Vec::new(),
        peers: vec![Vec::new(); shards],
        rooms: vec![Vec::new(); shards],
    };
    let mut index: HashTable<u32> = HashTable::new();
    // The distinct pairs met, and tables of their places.
    let mut pairs: [Vec<Pair<'a>>; 2] = [Vec::new(), Vec::new()];
    let mut places_of: [HashTable<u32>; 2] = [HashTable::new(), HashTable::new()];
    let mut skipping = Skipping::default();
    for &(a, z) in spans {
        let raw: &'a [u8] = &blobs[b][a..z];
        let Some(read) =
            direct.read_skipping(raw, &mut skipping, |line| read_of(raw, line, fields))?
        else {
            continue;
        };
        let hash = hash_of(&read.key);
        let tallies = &mut part.tallies;
        let g = match index.entry(
            hash,
            |&g| tallies[g as usize].key == read.key,
            |&g| tallies[g as usize].hash,
        ) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let g = tallies.len() as u32;
                e.insert(g);
                tallies.push(Tally {
                    key: read.key,
                    hash,
                    first: (b, a, z),
                    named: None,
                    count: 0,
                    finals: 0,
                    first_ts: i64::MAX,
                    last_ts: i64::MIN,
                });
                g
            }
        };
        let t = &mut tallies[g as usize];
        t.count += 1;
        t.finals += u32::from(read.terminal);
        if read.named && t.named.is_none() {
            t.named = Some((b, a, z));
        }
        if let Some(ts) = read.time {
            t.first_ts = t.first_ts.min(ts);
            t.last_ts = t.last_ts.max(ts);
        }
        for ((value, pairs), table) in [read.peer, read.room]
            .into_iter()
            .zip(&mut pairs)
            .zip(&mut places_of)
        {
            let Some(value) = value else { continue };
            let value_hash = hash_of(&value);
            let value = Value::of(value);
            let pair_hash = hash_of(&(g, value_hash));
            let known = |&k: &u32| {
                let (pg, vh, pv) = &pairs[k as usize];
                *pg == g && *vh == value_hash && *pv == value
            };
            if table.find(pair_hash, known).is_none() {
                let k = pairs.len() as u32;
                pairs.push((g, value_hash, value));
                table.insert_unique(pair_hash, k, |&k| {
                    let (pg, vh, _) = &pairs[k as usize];
                    hash_of(&(*pg, *vh))
                });
            }
        }
    }
    // Each shard takes the values whose hashes are its own.
    let [peers, rooms] = pairs;
    for (list, out) in [(peers, &mut part.peers), (rooms, &mut part.rooms)] {
        for pair in list {
            out[(pair.1 >> 32) as usize % shards].push(pair);
        }
    }
    Ok(part)
}

/// The parts' counts joined in input order, the distinct peers and rooms counted on every core,
/// and the store of the events that name each group.
fn joined(
    blobs: &[Arc<Blob>],
    parts: Vec<Part>,
    shards: usize,
) -> Result<Grouped, NotLineDelimited> {
    let mut tallies: Vec<Tally> = Vec::new();
    let mut index: HashTable<u32> = HashTable::new();
    // Each part's group numbers among all groups.
    let mut numbers: Vec<Vec<u32>> = Vec::with_capacity(parts.len());
    let mut peer_pairs: Vec<Vec<Vec<Pair>>> = Vec::with_capacity(parts.len());
    let mut room_pairs: Vec<Vec<Vec<Pair>>> = Vec::with_capacity(parts.len());
    for part in parts {
        let mut of_part = Vec::with_capacity(part.tallies.len());
        for t in part.tallies {
            let g = match index.entry(
                t.hash,
                |&g| tallies[g as usize].key == t.key,
                |&g| tallies[g as usize].hash,
            ) {
                Entry::Occupied(e) => {
                    let g = *e.get();
                    let all = &mut tallies[g as usize];
                    all.count += t.count;
                    all.finals += t.finals;
                    if all.named.is_none() {
                        all.named = t.named;
                    }
                    all.first_ts = all.first_ts.min(t.first_ts);
                    all.last_ts = all.last_ts.max(t.last_ts);
                    g
                }
                Entry::Vacant(e) => {
                    let g = tallies.len() as u32;
                    e.insert(g);
                    tallies.push(t);
                    g
                }
            };
            of_part.push(g);
        }
        numbers.push(of_part);
        peer_pairs.push(part.peers);
        room_pairs.push(part.rooms);
    }
    drop(index);
    let groups = tallies.len();
    // Distinct (group, value) pairs, a shard of the values on each thread.
    let shard_numbers: Vec<usize> = (0..shards).collect();
    let distinct = |pairs: &[Vec<Vec<Pair>>]| {
        let counts = parallel(&shard_numbers, |&s| {
            let mut counts = vec![0u32; groups];
            let mut seen: HashTable<(u32, u64, &Value)> = HashTable::new();
            for (part, numbers) in pairs.iter().zip(&numbers) {
                for (g, value_hash, value) in &part[s] {
                    let g = numbers[*g as usize];
                    let hash = hash_of(&(g, *value_hash));
                    if let Entry::Vacant(slot) = seen.entry(
                        hash,
                        |&(sg, _, sv)| sg == g && sv == value,
                        |&(sg, vh, _)| hash_of(&(sg, vh)),
                    ) {
                        slot.insert((g, *value_hash, value));
                        counts[g as usize] += 1;
                    }
                }
            }
            counts
        });
        let mut total = vec![0u32; groups];
        for shard in counts {
            for (t, c) in total.iter_mut().zip(shard) {
                *t += c;
            }
        }
        total
    };
    let peers = distinct(&peer_pairs);
    let rooms = distinct(&room_pairs);

    let (events, counted) = counted_of(&tallies, &peers, &rooms);
    let store = store_of(blobs, &events)?;
    Ok(Grouped {
        store,
        groups: counted,
        dropped: 0,
    })
}

/// Each group's counts, and the places of the events the store of [`Grouped`] holds (each
/// group's first event, and the first that names it when another), in that store's order.
pub(super) fn counted_of(
    tallies: &[Tally],
    peers: &[u32],
    rooms: &[u32],
) -> (Vec<Place>, Vec<Counted>) {
    let mut events: Vec<Place> = Vec::with_capacity(tallies.len());
    let mut counted = Vec::with_capacity(tallies.len());
    for (g, t) in tallies.iter().enumerate() {
        let row = events.len() as u32;
        events.push(t.first);
        let named = match t.named {
            Some(place) if place != t.first => {
                events.push(place);
                Some(row + 1)
            }
            _ => None,
        };
        let timed = t.last_ts != i64::MIN;
        counted.push(Counted {
            row,
            named,
            count: t.count,
            finals: t.finals,
            peers: peers[g],
            rooms: rooms[g],
            first_seen: timed.then_some(t.first_ts),
            last_seen: timed.then_some(t.last_ts),
        });
    }
    (events, counted)
}

/// A store of the events at `places`, in that order (each a distinct event: none is left out as
/// a copy).
pub(super) fn store_of(blobs: &[Arc<Blob>], places: &[Place]) -> Result<Store, NotLineDelimited> {
    let reading = Reading::start();
    let mut store = Store::new();
    let mut start = 0;
    while start < places.len() {
        let b = places[start].0;
        let end = start
            + places[start..]
                .iter()
                .take_while(|place| place.0 == b)
                .count();
        let mut builder = reading.builder(Arc::clone(&blobs[b])).unindexed();
        for &(_, a, z) in &places[start..end] {
            builder.push(a, z).map_err(|_| NotLineDelimited)?;
        }
        let merged = store.merge(builder.finish());
        if merged.added != end - start || merged.first != start {
            return Err(NotLineDelimited);
        }
        start = end;
    }
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Peers and rooms whose ids are about as long as a value held inline, sharing their first
    /// bytes, some written with an escape: each group counts the distinct ones as a set of the
    /// strings does.
    #[test]
    fn distinct_peers_and_rooms_are_counted_by_their_bytes_however_long() {
        let lens = [1, SHORT - 1, SHORT, SHORT + 1, 2 * SHORT + 5];
        let id = |c: char, n: usize| "p".repeat(n - 1) + &c.to_string();
        let mut lines = Vec::new();
        let mut want: BTreeMap<&str, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
        for k in 0..400usize {
            let kind = ["client.join.failed", "client.publish.failed"][k % 2];
            let peer = id(char::from(b'a' + (k % 3) as u8), lens[k / 2 % lens.len()]);
            let room = id(char::from(b'x' + (k % 2) as u8), lens[k / 3 % lens.len()]);
            // The last byte of a peer written as an escape now and then: the same string.
            let written = if k % 7 == 0 {
                let (head, last) = peer.split_at(peer.len() - 1);
                format!("{head}\\u00{:02x}", last.as_bytes()[0])
            } else {
                peer.clone()
            };
            lines.push(format!(
                r#"{{"id":"e{k}","type":"{kind}","data":{{"peer_id":"{written}","room_id":"{room}"}}}}"#
            ));
            let w = want.entry(kind).or_default();
            w.0.insert(peer);
            w.1.insert(room);
        }
        let blob = Arc::new(Blob::Owned(lines.join("\n").into_bytes()));
        let fields = GroupFields {
            first: Field::Type,
            second: None,
            code: false,
            display: None,
        };
        let grouped = group(vec![blob], &Filter::default(), fields, None).unwrap();
        let got: Vec<(u32, u32, u32)> = grouped
            .groups
            .iter()
            .map(|g| (g.count, g.peers, g.rooms))
            .collect();
        let want: Vec<(u32, u32, u32)> = ["client.join.failed", "client.publish.failed"]
            .iter()
            .map(|kind| {
                let (peers, rooms) = &want[kind];
                (200, peers.len() as u32, rooms.len() as u32)
            })
            .collect();
        assert_eq!(got, want);
    }
}
