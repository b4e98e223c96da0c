//! The first two passes: every line's id and whether it may match, then the first copy of each
//! id among the candidates.

use std::hash::BuildHasher;
use std::sync::{Arc, LazyLock};

use hashbrown::hash_table::{Entry, HashTable};
use memchr::memmem::Finder;

use super::check::is_one_json_value;
use super::envelope;
use super::id::top_level_id;
use super::prefilter::Prefilter;
use super::{NotLineDelimited, parallel, trim};
use crate::filter::{Filter, Plan};
use crate::store::{Blob, Needle};

/// What the first pass learns of one line.
pub(super) struct LineInfo<'a> {
    pub(super) start: usize,
    pub(super) end: usize,
    /// The bytes of its top-level id, which has no escape: two ids are the same string exactly
    /// when their bytes are equal.
    pub(super) id: &'a [u8],
    /// [`id_hash`] of the id.
    hash: u64,
    pub(super) candidate: bool,
}

/// What the first two passes choose: for each blob, the lines that may match and are the first
/// of their id, and the candidates dropped as later copies of an id read before, each as (start,
/// end) in input order; and when none may match and the filter asks for a room, what [`naming`]
/// gives, told from the same first pass rather than another reading of the input: the filter
/// then leaves nothing, and those events say why.
pub(super) struct Chosen {
    pub(super) kept: Kept,
    pub(super) dropped: Kept,
    pub(super) named: Option<Kept>,
}

/// The first two passes (see [`Chosen`]).
pub(super) fn candidates_naming(
    blobs: &[Arc<Blob>],
    filter: &Filter,
    threads: usize,
) -> Result<Chosen, NotLineDelimited> {
    let pre = Prefilter::new(&Plan::new(filter, |s| Some(s.as_bytes())));
    let mut parts = lines_of(blobs, &pre, threads)?;
    let (kept, dropped) = first_and_later(blobs, &parts, threads)?;
    let named = match filter.room() {
        Some(room) if kept.iter().all(Vec::is_empty) => {
            mark_naming(blobs, &mut parts, &Needle::new(room));
            Some(first_of_their_ids(blobs, &parts, threads)?)
        }
        _ => None,
    };
    Ok(Chosen {
        kept,
        dropped,
        named,
    })
}

/// The events that may name the room `room` (see [`super::may_name`]) and are the first of
/// their id, as (start, end) for each blob in input order: what a room given by its name is
/// told with when the filter leaves nothing.
pub(super) fn naming(
    blobs: &[Arc<Blob>],
    room: &Needle,
    threads: usize,
) -> Result<Kept, NotLineDelimited> {
    let mut parts = every_line(blobs, threads)?;
    mark_naming(blobs, &mut parts, room);
    first_of_their_ids(blobs, &parts, threads)
}

/// Every event that is the first of its id, as (start, end) for each blob in input order: the
/// events a store of the whole input holds.
pub(super) fn first_of_every_id(
    blobs: &[Arc<Blob>],
    threads: usize,
) -> Result<Kept, NotLineDelimited> {
    first_of_their_ids(blobs, &every_line(blobs, threads)?, threads)
}

/// The first pass over every blob with every line a candidate.
fn every_line(blobs: &[Arc<Blob>], threads: usize) -> Result<Parts<'_>, NotLineDelimited> {
    let everything = Prefilter::new(&Plan::new(&Filter::default(), |s| Some(s.as_bytes())));
    lines_of(blobs, &everything, threads)
}

/// For each blob, (start, end) of some of its events, in input order.
pub(super) type Kept = Vec<Vec<(usize, usize)>>;

/// Every line of every blob, in input order: one part per slice of a blob.
type Parts<'a> = Vec<(usize, Vec<LineInfo<'a>>)>;

/// The first pass over every blob.
fn lines_of<'a>(
    blobs: &'a [Arc<Blob>],
    pre: &Prefilter,
    threads: usize,
) -> Result<Parts<'a>, NotLineDelimited> {
    let mut parts = Vec::new();
    for (b, blob) in blobs.iter().enumerate() {
        for part in first_pass(blob, pre, threads)? {
            parts.push((b, part));
        }
    }
    Ok(parts)
}

/// Makes the candidates the lines that may name the room `room` (see [`super::may_name`]).
fn mark_naming(blobs: &[Arc<Blob>], parts: &mut Parts, room: &Needle) {
    use rayon::prelude::*;
    parts.par_iter_mut().for_each(|(b, lines)| {
        for line in lines {
            line.candidate = super::may_name(&blobs[*b][line.start..line.end], room);
        }
    });
}

/// The candidates of `parts` that are the first of their id, as (start, end) for each blob in
/// input order.
fn first_of_their_ids(
    blobs: &[Arc<Blob>],
    parts: &Parts,
    threads: usize,
) -> Result<Kept, NotLineDelimited> {
    Ok(first_and_later(blobs, parts, threads)?.0)
}

/// The candidates of `parts` that are the first of their id, and those that are later copies,
/// each as (start, end) for each blob in input order.
fn first_and_later(
    blobs: &[Arc<Blob>],
    parts: &Parts,
    threads: usize,
) -> Result<(Kept, Kept), NotLineDelimited> {
    let mut kept: Kept = vec![Vec::new(); blobs.len()];
    let mut dropped: Kept = vec![Vec::new(); blobs.len()];
    let (first, later) = first_copies(blobs, parts, threads)?;
    for (b, start, end) in first {
        kept[b].push((start, end));
    }
    for (b, start, end) in later {
        dropped[b].push((start, end));
    }
    Ok((kept, dropped))
}

/// The first pass over the events of one blob (an envelope's, or the lines of NDJSON), in parts
/// read on `threads` cores, in order.
pub(super) fn first_pass<'a>(
    bytes: &'a [u8],
    pre: &Prefilter,
    threads: usize,
) -> Result<Vec<Vec<LineInfo<'a>>>, NotLineDelimited> {
    if let Some(open) = envelope::events_array(bytes) {
        let read = |from, to, first| {
            let mut out = Vec::new();
            let end = envelope::walk_events(bytes, from, to, first, &mut |a, z| {
                out.push(read_event(bytes, a, z, pre)?);
                Ok(())
            })?;
            Ok((out, end))
        };
        return envelope::read_in_pieces(bytes, open, threads, read);
    }
    let slices = split_at_lines(bytes, threads);
    parallel(&slices, |&(a, z)| read_lines(bytes, a, z, pre))
        .into_iter()
        .collect()
}

/// The candidate lines that are the first line of their id in input order, as (blob, start,
/// end), in input order. Only the candidates' ids are kept in a table, cut into one part per
/// thread by their hashes, each part filled by a thread of its own; the other lines are looked
/// up in those tables in parallel, each lowering the first position of its id.
///
/// A candidate that is not the first of its id is not parsed either: it is validated as the
/// lines that are not candidates are (see [`is_one_json_value`]), and fails the whole when
/// damaged, so that the full way reports it. Those candidates are given beside the first ones,
/// as (blob, start, end) in input order: the copies dropped that may match.
fn first_copies(
    blobs: &[Arc<Blob>],
    parts: &[(usize, Vec<LineInfo>)],
    threads: usize,
) -> Result<(Spans, Spans), NotLineDelimited> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut base = Vec::with_capacity(parts.len());
    let mut total = 0;
    let mut candidates = 0;
    for (_, lines) in parts {
        base.push(total);
        total += lines.len();
        candidates += lines.iter().filter(|line| line.candidate).count();
    }
    if candidates == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let shards = threads.max(1);
    // The high half of the hash picks the part; a table places an id by the low bits.
    let shard_of = |hash: u64| (hash >> 32) as usize % shards;
    let shard_numbers: Vec<usize> = (0..shards).collect();
    if candidates == total {
        return first_copies_of_all(blobs, parts, &base, threads);
    }
    // Each id's first position among the candidates, by shard.
    let first: Vec<HashTable<(&[u8], AtomicUsize)>> = parallel(&shard_numbers, |&k| {
        let mut table: HashTable<(&[u8], AtomicUsize)> =
            HashTable::with_capacity(candidates / shards + candidates / 8 + 16);
        for ((_, lines), &at) in parts.iter().zip(&base) {
            for (j, line) in lines.iter().enumerate() {
                if line.candidate
                    && shard_of(line.hash) == k
                    && let Entry::Vacant(slot) =
                        table.entry(line.hash, |e| e.0 == line.id, |e| id_hash(e.0))
                {
                    slot.insert((line.id, AtomicUsize::new(at + j)));
                }
            }
        }
        table
    });
    let position = |line: &LineInfo| {
        first[shard_of(line.hash)]
            .find(line.hash, |e| e.0 == line.id)
            .map(|e| &e.1)
    };
    let indexed: Vec<(usize, usize, &[LineInfo])> = base
        .iter()
        .zip(parts)
        .map(|(&at, (b, lines))| (*b, at, lines.as_slice()))
        .collect();
    let groups: Vec<&[(usize, usize, &[LineInfo])]> = indexed
        .chunks(indexed.len().div_ceil(threads).max(1))
        .collect();
    parallel(&groups, |group| {
        for &(_, at, lines) in *group {
            for (j, line) in lines.iter().enumerate() {
                if !line.candidate
                    && let Some(pos) = position(line)
                {
                    pos.fetch_min(at + j, Ordering::Relaxed);
                }
            }
        }
    });
    // Every lowering is done (the threads have ended): each candidate is kept when it is still
    // the first of its id.
    let kept = parallel(&groups, |group| {
        let (mut kept, mut later) = (Vec::new(), Vec::new());
        for &(b, at, lines) in *group {
            for (j, line) in lines.iter().enumerate() {
                if !line.candidate {
                    continue;
                }
                if position(line).is_some_and(|p| p.load(Ordering::Relaxed) == at + j) {
                    kept.push((b, line.start, line.end));
                } else if !is_one_json_value(&blobs[b][line.start..line.end]) {
                    return Err(NotLineDelimited);
                } else {
                    later.push((b, line.start, line.end));
                }
            }
        }
        Ok((kept, later))
    });
    let (mut all, mut dropped) = (Vec::new(), Vec::new());
    for part in kept {
        let (kept, later) = part?;
        all.extend(kept);
        dropped.extend(later);
    }
    Ok((all, dropped))
}

/// Events as (blob, start, end), in input order.
type Spans = Vec<(usize, usize, usize)>;

/// [`first_copies`] when every line is a candidate (no filter, as `list` of every event and
/// most groupings ask): the first line of each id is the first met in input order, and one
/// pass that notes the later copies as it fills the tables is all it takes.
fn first_copies_of_all(
    blobs: &[Arc<Blob>],
    parts: &[(usize, Vec<LineInfo>)],
    base: &[usize],
    threads: usize,
) -> Result<(Spans, Spans), NotLineDelimited> {
    let shards = threads.max(1);
    let shard_of = |hash: u64| (hash >> 32) as usize % shards;
    let shard_numbers: Vec<usize> = (0..shards).collect();
    let total: usize = parts.iter().map(|(_, lines)| lines.len()).sum();
    // The later copies, by their place in input order, each shard's in order.
    let copies: Vec<Vec<usize>> = parallel(&shard_numbers, |&k| {
        let mut table: HashTable<&[u8]> = HashTable::with_capacity(total / shards + total / 8 + 16);
        let mut copies = Vec::new();
        for ((_, lines), &at) in parts.iter().zip(base) {
            for (j, line) in lines.iter().enumerate() {
                if shard_of(line.hash) != k {
                    continue;
                }
                match table.entry(line.hash, |e| *e == line.id, |e| id_hash(e)) {
                    Entry::Vacant(slot) => drop(slot.insert(line.id)),
                    Entry::Occupied(_) => copies.push(at + j),
                }
            }
        }
        copies
    });
    let mut copies: Vec<usize> = copies.into_iter().flatten().collect();
    copies.sort_unstable();
    let mut all = Vec::with_capacity(total - copies.len());
    let mut dropped = Vec::with_capacity(copies.len());
    let mut next = copies.iter().peekable();
    for ((b, lines), &at) in parts.iter().zip(base) {
        for (j, line) in lines.iter().enumerate() {
            if next.next_if_eq(&&(at + j)).is_some() {
                // A later copy is not parsed: it is checked, as in `first_copies`.
                if !is_one_json_value(&blobs[*b][line.start..line.end]) {
                    return Err(NotLineDelimited);
                }
                dropped.push((*b, line.start, line.end));
            } else {
                all.push((*b, line.start, line.end));
            }
        }
    }
    Ok((all, dropped))
}

/// The hash of an id, as the first pass takes it and [`first_copies`] looks it up.
fn id_hash(id: &[u8]) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(id)
}

/// Cuts `bytes` into about `n` slices that end at line ends.
fn split_at_lines(bytes: &[u8], n: usize) -> Vec<(usize, usize)> {
    let mut slices = Vec::new();
    let mut start = 0;
    for k in 1..=n {
        if start >= bytes.len() {
            break;
        }
        let target = (bytes.len() * k / n).max(start);
        let end = if k == n {
            bytes.len()
        } else {
            memchr::memchr(b'\n', &bytes[target..]).map_or(bytes.len(), |i| target + i + 1)
        };
        slices.push((start, end));
        start = end;
    }
    slices
}

/// The first pass over the lines of `bytes[from..to]`.
fn read_lines<'a>(
    bytes: &'a [u8],
    from: usize,
    to: usize,
    pre: &Prefilter,
) -> Result<Vec<LineInfo<'a>>, NotLineDelimited> {
    let mut out = Vec::with_capacity((to - from) / 1024 + 1);
    let mut start = from;
    while start < to {
        let end = memchr::memchr(b'\n', &bytes[start..to]).map_or(to, |i| start + i);
        let line_start = start;
        start = end + 1;
        let line = &bytes[line_start..end];
        let trimmed = trim(line);
        let lead = trimmed.as_ptr() as usize - line.as_ptr() as usize;
        let line = trimmed;
        if line.is_empty() {
            continue;
        }
        let a = line_start + lead;
        out.push(read_event(bytes, a, a + line.len(), pre)?);
    }
    Ok(out)
}

/// The first pass over one event, `bytes[start..end]`: a line of NDJSON without the whitespace
/// around it, or an event of an envelope.
fn read_event<'a>(
    bytes: &'a [u8],
    start: usize,
    end: usize,
    pre: &Prefilter,
) -> Result<LineInfo<'a>, NotLineDelimited> {
    let line = &bytes[start..end];
    // A line that does not end its object is damaged (most often cut short, as the last
    // line of a dump still being written): the full way reports it.
    if line[0] != b'{' || line[line.len() - 1] != b'}' {
        return Err(NotLineDelimited);
    }
    // A line without a plain top-level id (an envelope, an odd event) goes the full way;
    // so does one that names `events`, which the full way reads as an envelope when that is
    // an array and the line has no type (an event of an envelope is never read as one, but is
    // rare enough to be left to the full way too).
    let id = top_level_id(line).ok_or(NotLineDelimited)?;
    if EVENTS_KEY.find(line).is_some() {
        return Err(NotLineDelimited);
    }
    // A line that spells `"id"` twice may hold the key twice, and the full way takes the
    // last one: only it can tell which event this line is a copy of.
    if ID_KEYS.find_iter(line).nth(1).is_some() {
        return Err(NotLineDelimited);
    }
    let candidate = pre.is_empty() || pre.may_match(line);
    // A line that is not parsed is still checked to be one well-formed JSON value: damage
    // in it is then reported, by the full way, exactly as without a filter.
    if !candidate && !is_one_json_value(line) {
        return Err(NotLineDelimited);
    }
    Ok(LineInfo {
        start,
        end,
        id,
        hash: id_hash(id),
        candidate,
    })
}

/// `"id"`, however often a line spells it.
static ID_KEYS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"id\""));

/// What makes the full way look at a line as a possible envelope.
static EVENTS_KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"events\""));
