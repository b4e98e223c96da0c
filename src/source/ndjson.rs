//! A fast, exact path for selecting events from line-delimited dumps (one event object per line,
//! the shape `callscope list --format ndjson` and most exports write).
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

use std::hash::BuildHasher;
use std::sync::{Arc, LazyLock};

use hashbrown::hash_table::{Entry, HashTable};
use memchr::memmem::Finder;

use crate::event::{Field, agent_string_env};
use crate::filter::{Filter, Plan, Record, Want};
use crate::store::probe::{AgentProbe, LStr, Probe};
use crate::store::{Blob, Needle, Reading, Store};
use crate::time::parse_rfc3339_nanos;

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

/// Trims JSON's whitespace (space, tab, CR, LF; not the form feed ASCII also counts).
pub(crate) fn trim(line: &[u8]) -> &[u8] {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = line.iter().position(|b| !ws(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    &line[start..end]
}

/// The literal texts a matching line must contain (a value equal to a filter's is written either
/// as those bytes or with an escape).
struct Prefilter {
    /// At least one of these (the selected types), when types are filtered.
    any_of: Vec<Finder<'static>>,
    /// Every one of these (the id filters).
    all_of: Vec<Finder<'static>>,
    /// Finds the escapes that could spell one of the values differently: `\u` when no value
    /// holds a character JSON may also escape otherwise (`"`, `\`, `/`, controls), else any `\`.
    escape: Finder<'static>,
    /// The search text, which a line must hold unless an escape could hide it.
    search: Option<Needle>,
    /// `any_of` and `all_of` as `"value"` with nothing escaped: what a line whose escapes are
    /// decoded holds where a string equal to the value stands, however it was written.
    any_of_decoded: Vec<Finder<'static>>,
    all_of_decoded: Vec<Finder<'static>>,
}

impl Prefilter {
    fn new(plan: &Plan<&[u8]>) -> Prefilter {
        let literal = |s: &[u8]| {
            let quoted = serde_json::to_string(&String::from_utf8_lossy(s)).unwrap_or_default();
            Finder::new(quoted.as_bytes()).into_owned()
        };
        let decoded = |s: &[u8]| {
            let mut quoted = Vec::with_capacity(s.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(s);
            quoted.push(b'"');
            Finder::new(&quoted).into_owned()
        };
        let types: &[&[u8]] = plan.types().unwrap_or_default();
        // The values a matching event holds as whole JSON strings: the wanted ones of every
        // field but the env, which stands within the agent's string. (A type no reader holds
        // is left out of the plan's types, and makes no line a candidate.)
        let wanted: Vec<&[u8]> = plan
            .conditions()
            .iter()
            .filter(|c| !c.negate && c.field != Field::Env)
            .filter_map(|c| match c.want {
                Want::Text(v) => Some(v),
                _ => None,
            })
            .collect();
        let plain = types.iter().chain(&wanted).all(|v| {
            !String::from_utf8_lossy(v)
                .chars()
                .any(|c| matches!(c, '"' | '\\' | '/') || c.is_control())
        });
        Prefilter {
            any_of: types.iter().map(|t| literal(t)).collect(),
            all_of: wanted.iter().map(|v| literal(v)).collect(),
            escape: Finder::new(if plain { &b"\\u"[..] } else { &b"\\"[..] }).into_owned(),
            search: plan.search().map(Needle::new),
            any_of_decoded: types.iter().map(|t| decoded(t)).collect(),
            all_of_decoded: wanted.iter().map(|v| decoded(v)).collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.any_of.is_empty() && self.all_of.is_empty() && self.search.is_none()
    }

    /// Whether the line may match: false only when it certainly cannot.
    fn may_match(&self, line: &[u8]) -> bool {
        // The line as its strings read, decoded at most once.
        let decoded = std::cell::OnceCell::new();
        let decoded = || decoded.get_or_init(|| unescaped(line)).as_slice();
        if let Some(needle) = &self.search
            && (!needle.may_be_in(line)
                // Any escape may spell the text: looked for again as the strings read.
                || memchr::memchr(b'\\', line).is_some() && !needle.may_be_in(decoded()))
        {
            return false;
        }
        if holds(line, &self.any_of, &self.all_of) {
            return true;
        }
        if self.escape.find(line).is_none() {
            return false;
        }
        // An escape may spell a value differently (writers such as Python's escape everything
        // but ASCII): the line is looked at again as its strings read.
        holds(decoded(), &self.any_of_decoded, &self.all_of_decoded)
    }
}

/// Whether `text` holds one of `any_of` (when there are any) and all of `all_of`.
fn holds(text: &[u8], any_of: &[Finder], all_of: &[Finder]) -> bool {
    (any_of.is_empty() || any_of.iter().any(|f| f.find(text).is_some()))
        && all_of.iter().all(|f| f.find(text).is_some())
}

/// A line with every JSON escape in it decoded (but for a `\u` escape that is half of a
/// surrogate pair, kept as written): a string value reads as its text between its quotes.
fn unescaped(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'\\', &line[i..]) {
        out.extend_from_slice(&line[i..i + off]);
        i += off;
        let Some(&c) = line.get(i + 1) else {
            out.push(b'\\');
            break;
        };
        if c == b'u' {
            match decode_u(&line[i..]) {
                Some((ch, len)) => {
                    out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                    i += len;
                }
                None => {
                    out.push(b'\\');
                    i += 1;
                }
            }
            continue;
        }
        out.push(match c {
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            other => other,
        });
        i += 2;
    }
    out.extend_from_slice(&line[i..]);
    out
}

/// The character of the `\uXXXX` escape (or surrogate pair of two) that `b` starts with, and
/// how many bytes it spans.
fn decode_u(b: &[u8]) -> Option<(char, usize)> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
        if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    };
    let first = hex(2)?;
    if (0xD800..0xDC00).contains(&first) {
        if b.get(6..8)? != b"\\u" {
            return None;
        }
        let second = hex(8)?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
        return Some((char::from_u32(code)?, 12));
    }
    Some((char::from_u32(first)?, 6))
}

/// How many events [`select`] reads into one batch.
const SELECT_BATCH: usize = 32_768;

/// Why the fast path handed over to the full one.
#[derive(Debug, PartialEq, Eq)]
pub struct NotLineDelimited;

/// What the first pass learns of one line.
struct LineInfo<'a> {
    start: usize,
    end: usize,
    /// The bytes of its top-level id, which has no escape: two ids are the same string exactly
    /// when their bytes are equal.
    id: &'a [u8],
    /// [`id_hash`] of the id.
    hash: u64,
    candidate: bool,
}

/// Selects the events of line-delimited `blobs` (in order) that match `filter`: a store of the
/// candidate lines and the indices of those that match, in input order, de-duplicated as the full
/// path does. Fails (and the caller uses the full path, which reports the damage) when a line is
/// not an event object with a plain string id, or is not valid JSON.
///
/// Three passes: every line's id and whether it may match (in parallel, one slice of the file per
/// core); de-duplication in input order; then only the candidates are parsed (in parallel). The
/// store's text search is indexed only when the filter searches.
pub fn select(
    blobs: Vec<Arc<Blob>>,
    filter: &Filter,
) -> Result<(Store, Vec<u32>), NotLineDelimited> {
    let threads = super::ordered::threads();
    let kept = candidates(&blobs, filter, threads)?;
    let reading = Reading::start();
    let mut store = Store::new();
    let mut result = Ok(());
    for (blob, candidates) in blobs.iter().zip(kept) {
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
    drop(reading);
    result?;
    // The store holds candidates only; the filter decides.
    let rows = store.filter(filter);
    Ok((store, rows))
}

/// Events chosen by where their JSON is, without a store: all that the formats which copy each
/// event's JSON need.
#[derive(Debug)]
pub struct Spans {
    blobs: Vec<Arc<Blob>>,
    /// (blob, start, end), in input order.
    spans: Vec<(usize, usize, usize)>,
}

impl Spans {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
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
pub fn select_spans(blobs: Vec<Arc<Blob>>, filter: &Filter) -> Result<Spans, NotLineDelimited> {
    let direct = Direct::new(filter);
    let threads = super::ordered::threads();
    let kept = candidates(&blobs, filter, threads)?;
    let mut spans = Vec::new();
    for (b, (blob, candidates)) in blobs.iter().zip(kept).enumerate() {
        let bytes: &[u8] = blob;
        let chunk = candidates.len().div_ceil(threads).max(1);
        let chunks: Vec<&[(usize, usize)]> = candidates.chunks(chunk).collect();
        let parts = parallel(&chunks, |part| {
            let mut out = Vec::new();
            for &(a, z) in *part {
                if direct.matches(&bytes[a..z])? {
                    out.push((b, a, z));
                }
            }
            Ok::<_, NotLineDelimited>(out)
        });
        for part in parts {
            spans.extend(part?);
        }
    }
    Ok(Spans { blobs, spans })
}

/// An event read off a line's probe, as the plan reads it: the same fields, read the same way,
/// as the row a store would make of the same probe.
struct Line<'p, 'a> {
    probe: &'p Probe<'a>,
    raw: &'p [u8],
    search: Option<&'p Needle>,
}

impl<'p, 'a> Record for Line<'p, 'a> {
    type Text = &'p [u8];

    fn text(&self, field: Field) -> Option<&'p [u8]> {
        if field == Field::Type {
            return self.probe.kind.get();
        }
        let data = self.probe.data.0.as_ref()?;
        let agent: Option<&'p AgentProbe<'a>> = data.agent.0.as_ref();
        let from_agent = |f: fn(&'p AgentProbe<'a>) -> &'p LStr<'a>| agent.and_then(|a| f(a).get());
        match field {
            Field::Type => None,
            Field::Code => None,
            Field::Room => data.room_id.get(),
            Field::Session => data.session_id.get(),
            Field::Peer => data.peer_id.get(),
            Field::User => data.user_id.get(),
            Field::ErrorName => data.error_name.get(),
            Field::Action => data.action.get(),
            Field::RoomName => data.room_name.get(),
            Field::UserName => data.user_name.get(),
            Field::Role => data.role.get(),
            // The data's own domain, else the agent's.
            Field::Domain => data.domain.get().or_else(|| from_agent(|a| &a.domain)),
            Field::Sdk => from_agent(|a| &a.sdk),
            Field::SdkVersion => from_agent(|a| &a.sdk_version),
            Field::Os => from_agent(|a| &a.os),
            Field::OsVersion => from_agent(|a| &a.os_version),
            Field::Device => from_agent(|a| &a.device_model),
            Field::Env => {
                let string = std::str::from_utf8(from_agent(|a| &a.string)?).ok()?;
                agent_string_env(string).map(str::as_bytes)
            }
        }
    }

    fn number(&self, field: Field) -> Option<i64> {
        match field {
            Field::Code => self.probe.data.0.as_ref()?.error_code.0,
            _ => None,
        }
    }

    fn terminal(&self) -> Option<bool> {
        self.probe.data.0.as_ref()?.is_terminal.0
    }

    fn time(&self) -> Option<i64> {
        self.probe.timestamp.as_str().and_then(parse_rfc3339_nanos)
    }

    fn has_search_text(&self) -> Option<bool> {
        Some(self.search.is_none_or(|n| n.matches_json(self.raw)))
    }
}

/// The filter applied to an event's probe, deciding exactly as `Store::matching` decides on the
/// row a store would make of the same probe: both evaluate the filter's [`Plan`].
struct Direct<'f> {
    plan: Plan<&'f [u8]>,
    search: Option<Needle>,
}

impl<'f> Direct<'f> {
    fn new(filter: &'f Filter) -> Direct<'f> {
        let plan = Plan::new(filter, |s| Some(s.as_bytes()));
        let search = plan.search().map(Needle::new).filter(|n| !n.is_empty());
        Direct { plan, search }
    }

    /// Whether the event matches; an error for an event the store would refuse (the full path
    /// then reports it where it stands).
    fn matches(&self, raw: &[u8]) -> Result<bool, NotLineDelimited> {
        if simdutf8::basic::from_utf8(raw).is_err() {
            return Err(NotLineDelimited);
        }
        let probe = Probe::read(raw).map_err(|_| NotLineDelimited)?;
        // The line was de-duplicated on the id its first pass read: the store would use this one.
        if !probe.strings_are_utf8() || probe.id.get() != top_level_id(raw) {
            return Err(NotLineDelimited);
        }
        let line = Line {
            probe: &probe,
            raw,
            search: self.search.as_ref(),
        };
        Ok(self.plan.matches(&line).unwrap_or(false))
    }
}

/// The first two passes: for each blob, the lines that may match and are the first of their id,
/// as (start, end) in input order.
fn candidates(
    blobs: &[Arc<Blob>],
    filter: &Filter,
    threads: usize,
) -> Result<Vec<Vec<(usize, usize)>>, NotLineDelimited> {
    let pre = Prefilter::new(&Plan::new(filter, |s| Some(s.as_bytes())));
    // Every line of every blob, in input order: one part per slice of a blob.
    let mut parts: Vec<(usize, Vec<LineInfo>)> = Vec::new();
    for (b, blob) in blobs.iter().enumerate() {
        let bytes: &[u8] = blob;
        let slices = split_at_lines(bytes, threads);
        for part in parallel(&slices, |&(a, z)| read_lines(bytes, a, z, &pre)) {
            parts.push((b, part?));
        }
    }
    let mut kept: Vec<Vec<(usize, usize)>> = vec![Vec::new(); blobs.len()];
    for (b, start, end) in first_copies(blobs, &parts, threads)? {
        kept[b].push((start, end));
    }
    Ok(kept)
}

/// The candidate lines that are the first line of their id in input order, as (blob, start,
/// end), in input order. Only the candidates' ids are kept in a table, cut into one part per
/// thread by their hashes, each part filled by a thread of its own; the other lines are looked
/// up in those tables in parallel, each lowering the first position of its id.
///
/// A candidate that is not the first of its id is not parsed either: it is validated as the
/// lines that are not candidates are (see [`is_one_json_value`]), and fails the whole when
/// damaged, so that the full way reports it.
fn first_copies(
    blobs: &[Arc<Blob>],
    parts: &[(usize, Vec<LineInfo>)],
    threads: usize,
) -> Result<Vec<(usize, usize, usize)>, NotLineDelimited> {
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
        return Ok(Vec::new());
    }
    let shards = threads.max(1);
    // The high half of the hash picks the part; a table places an id by the low bits.
    let shard_of = |hash: u64| (hash >> 32) as usize % shards;
    let shard_numbers: Vec<usize> = (0..shards).collect();
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
        let mut kept = Vec::new();
        for &(b, at, lines) in *group {
            for (j, line) in lines.iter().enumerate() {
                if !line.candidate {
                    continue;
                }
                if position(line).is_some_and(|p| p.load(Ordering::Relaxed) == at + j) {
                    kept.push((b, line.start, line.end));
                } else if !is_one_json_value(&blobs[b][line.start..line.end]) {
                    return Err(NotLineDelimited);
                }
            }
        }
        Ok(kept)
    });
    let mut all = Vec::new();
    for part in kept {
        all.extend(part?);
    }
    Ok(all)
}

/// The hash of an id, as the first pass takes it and [`first_copies`] looks it up.
fn id_hash(id: &[u8]) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(id)
}

/// Runs `f` on each item, on the threads of rayon's pool; the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(&f).collect()
}

/// Cuts `bytes` into about `n` slices that end at line ends.
pub(crate) fn split_at_lines(bytes: &[u8], n: usize) -> Vec<(usize, usize)> {
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
        // A line that does not end its object is damaged (most often cut short, as the last
        // line of a dump still being written): the full way reports it.
        if line[0] != b'{' || line[line.len() - 1] != b'}' {
            return Err(NotLineDelimited);
        }
        // A line without a plain top-level id (an envelope, an odd event) goes the full way;
        // so does one that names `events`, which the full way reads as an envelope when that is
        // an array and the line has no type.
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
        let a = line_start + lead;
        out.push(LineInfo {
            start: a,
            end: a + line.len(),
            id,
            hash: id_hash(id),
            candidate,
        });
    }
    Ok(out)
}

/// `"id"`, however often a line spells it.
static ID_KEYS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"id\""));

/// What makes the full way look at a line as a possible envelope.
static EVENTS_KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"events\""));

/// What `\u` escapes start with: a line without one cannot hold half a surrogate pair.
static U_ESCAPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\u"));

/// Whether `line` is one well-formed JSON value in UTF-8 with no escape that leaves half a
/// surrogate pair: the check of every line the fast path does not parse, at least as strict as
/// the full way's reading of an event (which refuses the same, and may refuse less: a line it
/// would take is then only handed over to it). serde_json's skipping parser validates the JSON
/// without building anything; the strings of a line with a `\u` escape are read as text too.
fn is_one_json_value(line: &[u8]) -> bool {
    if simdutf8::basic::from_utf8(line).is_err() {
        return false;
    }
    if U_ESCAPE.find(line).is_none() {
        return serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok();
    }
    serde_json::from_slice::<AsText>(line).is_ok()
}

/// Any JSON value, read with every string (keys included) decoded as text: an escape that
/// leaves half a surrogate pair is refused, as reading the string would refuse it.
struct AsText;

impl<'de> serde::Deserialize<'de> for AsText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AsText, D::Error> {
        d.deserialize_any(AsText)
    }
}

impl<'de> serde::de::Visitor<'de> for AsText {
    type Value = AsText;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_i64<E>(self, _: i64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_u64<E>(self, _: u64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_f64<E>(self, _: f64) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_str<E>(self, _: &str) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_unit<E>(self) -> Result<AsText, E> {
        Ok(AsText)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<AsText, A::Error> {
        while seq.next_element::<AsText>()?.is_some() {}
        Ok(AsText)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<AsText, A::Error> {
        while map.next_entry::<AsText, AsText>()?.is_some() {}
        Ok(AsText)
    }
}

/// The top-level `id` of a one-line JSON object (its bytes), when it is a plain string (no
/// escapes). `None` when it is absent, not a string, escaped, or the line cannot be read this way.
fn top_level_id(line: &[u8]) -> Option<&[u8]> {
    find_top_level_id(line, true)
}

/// [`top_level_id`], looking from the end of the line too when `from_end`.
fn find_top_level_id(line: &[u8], from_end: bool) -> Option<&[u8]> {
    let mut i = 1;
    let mut tried_from_end = !from_end;
    loop {
        i = skip_ws(line, i);
        match line.get(i)? {
            b'}' => return None,
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(line, i)?;
        let key = &line[i + 1..key_end - 1];
        i = skip_ws(line, key_end);
        if line.get(i)? != &b':' {
            return None;
        }
        i = skip_ws(line, i + 1);
        if key == b"id" {
            if line.get(i)? != &b'"' {
                return None;
            }
            let end = string_end(line, i)?;
            let value = &line[i + 1..end - 1];
            if memchr::memchr(b'\\', value).is_some() {
                return None;
            }
            return Some(value);
        }
        if !tried_from_end && matches!(line.get(i), Some(b'{' | b'[')) {
            // Rather than walk through an object (`data`, when it comes first), look from the
            // end of the line, where the id then often stands.
            tried_from_end = true;
            if let Some(id) = id_from_end(line) {
                return id;
            }
        }
        i = skip_value(line, i)?;
    }
}

/// The top-level `id` of a one-line JSON object that ends with `}`, read from its end: its
/// members are read back to front as long as their values are strings or plain values. `None`
/// when that ends at an object or array before an answer, or when `"id"` is also written before
/// the key found (a key written twice: the first one is the id, which only the walk from the
/// start can tell).
fn id_from_end(line: &[u8]) -> Option<Option<&[u8]>> {
    static ID_KEY: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\"id\""));
    // One past the member being read.
    let mut end = line.len().checked_sub(1)?;
    if line[end] != b'}' {
        return None;
    }
    loop {
        end = skip_ws_back(line, end);
        let last = *line.get(end.checked_sub(1)?)?;
        let value_start = match last {
            b'"' => string_start_back(line, end - 1)?,
            b'}' | b']' => return None,
            b'{' if end == 1 => return Some(None),
            _ => {
                // A number, `true`, `false` or `null`.
                let mut at = end;
                while at > 0
                    && !matches!(line[at - 1], b':' | b',' | b'{')
                    && !line[at - 1].is_ascii_whitespace()
                {
                    at -= 1;
                }
                at
            }
        };
        let colon = skip_ws_back(line, value_start);
        if colon == 0 || line[colon - 1] != b':' {
            return None;
        }
        let key_end = skip_ws_back(line, colon - 1);
        if key_end == 0 || line[key_end - 1] != b'"' {
            return None;
        }
        let key_start = string_start_back(line, key_end - 1)?;
        if &line[key_start..key_end] == b"\"id\"" {
            if ID_KEY.find(&line[..key_start]).is_some() {
                return None;
            }
            let value = &line[value_start..end];
            let plain = value.len() >= 2
                && value[0] == b'"'
                && memchr::memchr(b'\\', &value[1..value.len() - 1]).is_none();
            return Some(plain.then(|| &value[1..value.len() - 1]));
        }
        let before = skip_ws_back(line, key_start);
        match line.get(before.checked_sub(1)?)? {
            b',' => end = before - 1,
            b'{' if before == 1 => return Some(None),
            _ => return None,
        }
    }
}

/// Where the whitespace that ends just before `end` starts.
fn skip_ws_back(b: &[u8], mut end: usize) -> usize {
    while end > 0 && b[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

/// The opening quote of the string whose closing quote is `b[close]`: the nearest quote before
/// it that follows an even number of backslashes.
fn string_start_back(b: &[u8], close: usize) -> Option<usize> {
    let mut at = close;
    loop {
        at = memchr::memrchr(b'"', &b[..at])?;
        let backslashes = b[..at].iter().rev().take_while(|&&c| c == b'\\').count();
        if backslashes % 2 == 0 {
            return Some(at);
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// One past the closing quote of the string opening at `start`.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    loop {
        let off = memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[i + off] == b'\\' {
            i += off + 2;
        } else {
            return Some(i + off + 1);
        }
    }
}

/// Where a walk through an object or array stands: how deep, and whether inside a string.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Walk {
    depth: usize,
    in_string: bool,
}

/// One past the end of the object or array that opens at `start`, `None` when the line ends
/// first. Brackets within strings do not count, nor does the character after a backslash.
/// Sixteen bytes at a time, and without a branch per string where they hold no backslash: when
/// an event's `data` comes before its `id`, every line's `data` is walked through to find the
/// id.
fn skip_container(b: &[u8], start: usize) -> Option<usize> {
    let mut walk = Walk::default();
    let mut i = start;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        while i + 16 <= b.len() {
            // SAFETY: SSE2 is part of every x86_64 processor, and the sixteen bytes loaded,
            // `i..i + 16`, are within `b` (an unaligned load has no other requirement).
            let (quote, backslash, open, close) = unsafe {
                let x = _mm_loadu_si128(b.as_ptr().add(i).cast());
                let is = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
                (
                    _mm_movemask_epi8(is(b'"')) as u32,
                    _mm_movemask_epi8(is(b'\\')) as u32,
                    _mm_movemask_epi8(_mm_or_si128(is(b'{'), is(b'['))) as u32,
                    _mm_movemask_epi8(_mm_or_si128(is(b'}'), is(b']'))) as u32,
                )
            };
            if backslash == 0 {
                // Which bytes are within a string: those after an odd number of quotes (a
                // prefix XOR), counting the string the walk is in.
                let mut inside = quote;
                inside ^= inside << 1;
                inside ^= inside << 2;
                inside ^= inside << 4;
                inside ^= inside << 8;
                if walk.in_string {
                    inside = !inside;
                }
                walk.in_string ^= quote.count_ones() % 2 == 1;
                let mut brackets = (open | close) & !inside & 0xFFFF;
                while brackets != 0 {
                    let j = brackets.trailing_zeros();
                    brackets &= brackets - 1;
                    if open & (1 << j) != 0 {
                        walk.depth += 1;
                    } else {
                        walk.depth -= 1;
                        if walk.depth == 0 {
                            return Some(i + j as usize + 1);
                        }
                    }
                }
                i += 16;
                continue;
            }
            // With escapes, a byte of note at a time.
            let mut bits = quote | backslash | open | close;
            // Whether the first byte of the next sixteen is escaped.
            let mut escaped_next = false;
            while bits != 0 {
                let j = bits.trailing_zeros();
                let bit = 1 << j;
                bits &= bits - 1;
                if walk.in_string {
                    if backslash & bit != 0 {
                        if j == 15 {
                            escaped_next = true;
                        } else {
                            bits &= !(bit << 1);
                        }
                    } else if quote & bit != 0 {
                        walk.in_string = false;
                    }
                } else if quote & bit != 0 {
                    walk.in_string = true;
                } else if open & bit != 0 {
                    walk.depth += 1;
                } else if close & bit != 0 {
                    walk.depth -= 1;
                    if walk.depth == 0 {
                        return Some(i + j as usize + 1);
                    }
                }
            }
            i += 16 + usize::from(escaped_next);
        }
    }
    walk_bytewise(b, i, walk)
}

/// The rest of [`skip_container`]'s walk from `i`, a byte at a time.
fn walk_bytewise(b: &[u8], mut i: usize, mut walk: Walk) -> Option<usize> {
    while let Some(&c) = b.get(i) {
        if walk.in_string {
            match c {
                b'\\' => i += 1,
                b'"' => walk.in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => walk.in_string = true,
                b'{' | b'[' => walk.depth += 1,
                b'}' | b']' => {
                    walk.depth -= 1;
                    if walk.depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// One past the end of the value starting at `start`.
fn skip_value(b: &[u8], start: usize) -> Option<usize> {
    match b.get(start)? {
        b'"' => string_end(b, start),
        b'{' | b'[' => skip_container(b, start),
        _ => {
            let mut i = start;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') && !b[i].is_ascii_whitespace()
            {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefilter(filter: &Filter) -> Prefilter {
        Prefilter::new(&Plan::new(filter, |s| Some(s.as_bytes())))
    }

    #[test]
    fn reads_the_top_level_id_wherever_it_stands() {
        assert_eq!(
            top_level_id(br#"{"version":"2.0","id":"abc","data":{"id":"x"}}"#),
            Some(&b"abc"[..])
        );
        assert_eq!(
            top_level_id(br#"{"data":{"id":"x","a":[1,{"b":"}"}]},"id":"late"}"#),
            Some(&b"late"[..])
        );
        assert_eq!(top_level_id(br#"{"data":{"id":"x"}}"#), None);
        assert_eq!(top_level_id(br#"{"id":"a\u0062"}"#), None);
        assert_eq!(top_level_id(br#"{"id":7,"x":1}"#), None);
    }

    #[test]
    fn the_id_read_from_the_end_of_a_line_is_the_one_read_from_its_start() {
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 200, 8).unwrap();
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for line in generated.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
            let v: serde_json::Map<String, serde_json::Value> =
                serde_json::from_slice(line).unwrap();
            // As written, and with every member in reverse order (`data` before `id`).
            lines.push(line.to_vec());
            let reversed: serde_json::Map<_, _> = v.into_iter().rev().collect();
            lines.push(serde_json::to_vec(&reversed).unwrap());
        }
        for text in [
            r#"{"data":{"x":1},"id":"last"}"#,
            r#"{"data":{"x":1} , "n" : -1.5e3 ,"ok":true,"no":null, "id" : "spaced" }"#,
            r#"{"data":{"id":"nested"},"id":"top"}"#,
            r#"{"data":{"x":1},"id":"a","id":"b"}"#,
            r#"{"id":"first","data":{"x":1},"id":"second"}"#,
            r#"{"data":{"x":1},"id":7}"#,
            r#"{"data":{"x":1},"id":"e\u0031"}"#,
            r#"{"data":{"x":1},"i\u0064":"escaped key"}"#,
            r#"{"data":{"x":1},"m":"say \"id\"","id":"q"}"#,
            r#"{"data":{"x":1},"m":"ends with \\","id":"bs"}"#,
            r#"{"data":{"x":1},"m":"a \\\" b","id":"bs2"}"#,
            r#"{"data":[1,{"a":"}"}],"kind":"id"}"#,
            r#"{"data":{"x":1},"tail":[1,2]}"#,
            r#"{"data":{"x":1}}"#,
            r#"{"id":"only"}"#,
            r#"{}"#,
        ] {
            lines.push(text.as_bytes().to_vec());
        }
        // Damaged lines that still end with a brace: read without a panic, and alike when still
        // valid. (Damage that the walk from the start stops at may be after the id read from
        // the end: such a line is then parsed only if it may match, as one damaged after its id
        // always was.)
        let event = r#"{"data":{"x":"a","n":[1,{"k":"v"}]},"id":"e1","type":"t"}"#;
        for at in 0..event.len() - 1 {
            for &b in br#""\{}[]:, "# {
                let mut line = event.as_bytes().to_vec();
                line[at] = b;
                lines.push(line);
            }
        }
        let mut from_end = 0;
        for line in &lines {
            let forward = find_top_level_id(line, false);
            if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err() {
                let _ = find_top_level_id(line, true);
                continue;
            }
            assert_eq!(
                find_top_level_id(line, true),
                forward,
                "{}",
                String::from_utf8_lossy(line)
            );
            from_end += usize::from(id_from_end(line).is_some_and(|id| id.is_some()));
        }
        assert!(from_end > 200, "{from_end} ids read from the end");
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

    #[test]
    fn objects_are_skipped_sixteen_bytes_at_a_time_as_a_byte_at_a_time() {
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let mut generated = Vec::new();
        crate::generator::write_ndjson(&mut generated, 40, 5).unwrap();
        lines.extend(generated.split(|&c| c == b'\n').map(<[u8]>::to_vec));
        // Escapes and brackets in strings at every place in a block of sixteen, and cuts.
        for pad in 0..20 {
            let p = "p".repeat(pad);
            lines.push(
                format!(r#"{{"a":"{p}\\","b":["{p}\"]","{{"],"c":{{"d":"\\\"}}"}}}}"#).into_bytes(),
            );
            lines.push(format!(r#"[{p}{{"k":"\\\\"}},[[],{{}}],"{p}\"\\"]"#).into_bytes());
            let long = "q".repeat(pad * 3);
            lines.push(
                format!(r#"{{"a":"{p}[{{","b":["}}]{long}",{{"c":"]]"}}],"d":"{long}{{"}}"#)
                    .into_bytes(),
            );
        }
        let cuts: Vec<Vec<u8>> = lines
            .iter()
            .flat_map(|l| (0..l.len()).step_by(7).map(move |n| l[..n].to_vec()))
            .collect();
        lines.extend(cuts);
        let mut ends = 0;
        for line in &lines {
            for start in 0..line.len() {
                if !matches!(line[start], b'{' | b'[') {
                    continue;
                }
                let bytewise = walk_bytewise(line, start, Walk::default());
                assert_eq!(
                    skip_container(line, start),
                    bytewise,
                    "{} from {start}",
                    String::from_utf8_lossy(line)
                );
                ends += usize::from(bytewise.is_some());
            }
        }
        assert!(ends > 1000, "{ends}");
    }

    #[test]
    fn a_search_text_is_looked_for_in_the_bytes_in_any_case() {
        let pre = prefilter(&Filter {
            search: Some("Timeout".into()),
            ..Filter::default()
        });
        assert!(pre.may_match(br#"{"data":{"error_description":"upstream TIMEOUT"}}"#));
        assert!(!pre.may_match(br#"{"data":{"error_description":"refused"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"timeout"}}"#));
        // An escape may spell the text, or spell something else.
        assert!(pre.may_match(br#"{"data":{"error_description":"\u0074imeout"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"time\u004FUT"}}"#));
        assert!(!pre.may_match(br#"{"data":{"error_description":"refused","user":"Zo\u00eb"}}"#));
        // Where the decoded text holds what could fold into the text (İ, the Kelvin sign), or a
        // backslash (`\\u0074` is a backslash and `u0074`), the line is parsed to know.
        assert!(pre.may_match(br#"{"data":{"error_description":"\u0130"}}"#));
        assert!(pre.may_match(br#"{"data":{"error_description":"\\u0074imeout"}}"#));
    }

    #[test]
    fn a_line_with_an_escape_may_match_when_its_strings_read_as_the_value() {
        let f = Filter {
            ..Filter::default()
        }
        .with(Field::Room, "r1");
        let pre = prefilter(&f);
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"r1"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"\u0072\u0031"}}"#));
        assert!(pre.may_match(br#"{"data":{"room_id":"\u0072\u0031","user_name":"Zo\u00eb"}}"#));
        // Escapes elsewhere do not make a line with another room a candidate.
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","user_name":"Zo\u00eb"}}"#));
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","m":"say \"hi\""}}"#));
        assert!(!pre.may_match(br#"{"data":{"room_id":"r2","m":"\ud83d \\u0022r1\\u0022"}}"#));
        let slash = prefilter(
            &Filter {
                ..Filter::default()
            }
            .with(Field::Room, "a/b"),
        );
        assert!(slash.may_match(br#"{"data":{"room_id":"a\/b"}}"#));
        assert!(!slash.may_match(br#"{"data":{"room_id":"a\\/b"}}"#));
        let quote = prefilter(
            &Filter {
                ..Filter::default()
            }
            .with(Field::Room, "a\"b"),
        );
        assert!(quote.may_match(br#"{"data":{"room_id":"a\"b"}}"#));
        assert!(quote.may_match(br#"{"data":{"room_id":"a\u0022b"}}"#));
        let emoji = prefilter(
            &Filter {
                types: vec![crate::event::EventType::Join],
                ..Filter::default()
            }
            .with(Field::Room, "\u{1F600}x"),
        );
        assert!(emoji.may_match(
            br#"{"type":"client.join.\u0066ailed","data":{"room_id":"\ud83d\ude00x"}}"#
        ));
        assert!(!emoji.may_match(br#"{"type":"client.join.failed","data":{"room_id":"\ud83dx"}}"#));
    }
}
