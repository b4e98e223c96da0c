//! Reads saved dumps in every shape PRODUCT.md accepts: an API response envelope; a JSON array of
//! envelopes or of events; NDJSON of either; several JSON values one after another; any of these
//! gzip-compressed (known by content); `-` for stdin; a folder of such files.
//!
//! A damaged file keeps every event read before the damage (and, for line-delimited files, after
//! it), and the problem is reported with the file's path and line:column.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::store::{Batch, BatchBuilder, Blob};

use stream::read_stream_in_batches;

/// Extensions of the files read from a folder.
pub const FOLDER_EXTENSIONS: &[&str] = &["json", "ndjson", "jsonl", "gz"];

/// The largest batch [`read_file_in_batches`] makes.
pub const LARGE_BATCH: usize = 65_536;

/// Line-delimited files at least this large are read on every core.
const PARALLEL_BYTES: usize = 32 << 20;

/// The size of the pieces a large line-delimited file is cut into for reading on every core.
const PIECE_BYTES: usize = 32 << 20;

/// The UTF-8 byte order mark some tools write before a file's text: not part of it.
pub(crate) const BYTE_ORDER_MARK: &[u8] = &[0xEF, 0xBB, 0xBF];

/// The length of the byte order mark `bytes` start with: 0 or 3.
pub(crate) fn mark_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len()
    } else {
        0
    }
}

/// Builds batches that start at `size` events and grow up to [`LARGE_BATCH`].
struct Batcher {
    builder: BatchBuilder,
    limit: usize,
    size: usize,
}

impl Batcher {
    fn new(blob: Arc<Blob>, size: usize) -> Batcher {
        Batcher {
            builder: BatchBuilder::new(blob).events_only(),
            limit: size,
            size,
        }
    }

    fn push(
        &mut self,
        start: usize,
        end: usize,
        on_full: &mut dyn FnMut(Batch),
    ) -> Result<(), String> {
        self.builder.push(start, end).map_err(|e| e.to_string())?;
        if self.builder.len() >= self.limit {
            self.limit = self.limit.saturating_mul(4).min(self.size.max(LARGE_BATCH));
            let blob = Arc::clone(self.builder.blob());
            let next = BatchBuilder::new(blob).events_only();
            on_full(std::mem::replace(&mut self.builder, next).finish());
        }
        Ok(())
    }

    fn finish(self) -> Batch {
        self.builder.finish()
    }
}

/// Problems reported for one file past this count are summed up in one line.
const MAX_PROBLEMS_PER_FILE: usize = 20;

/// Something wrong with one input, said for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpProblem {
    pub path: String,
    /// 1-based line and column, when the problem is at a place in the file.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for DumpProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{}:{}: {}", self.path, line, col, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for DumpProblem {}

/// One input file's bytes, ready to scan.
pub struct DumpFile {
    pub path: String,
    pub blob: Arc<Blob>,
}

/// Expands a command-line source argument into files: `-` is stdin, a folder is every file with
/// one of [`FOLDER_EXTENSIONS`] in it (sorted by name), anything else is one file.
pub fn expand(arg: &str) -> Result<Vec<PathBuf>, DumpProblem> {
    if arg == "-" {
        return Ok(vec![PathBuf::from("-")]);
    }
    let path = Path::new(arg);
    let meta = std::fs::metadata(path).map_err(|e| problem(arg, None, io_message(&e)))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| problem(arg, None, io_message(&e)))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| FOLDER_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(problem(
            arg,
            None,
            "the folder holds no .json, .ndjson, .jsonl or .gz file".into(),
        ));
    }
    Ok(files)
}

/// Reads every event of one file (or stdin for `-`), handing them over in batches as
/// [`read_file_in_batches`] does. A gzip'd file, stdin or a pipe is read as it comes (see
/// `stream::read_stream_in_batches`), so that its first events show before the rest has arrived.
pub fn read_path_in_batches(
    path: &Path,
    size: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let name = display_name(path);
    if path == Path::new("-") {
        return read_stream_in_batches(&name, std::io::stdin(), size, PIECE_BYTES, on_batch);
    }
    let opened = std::fs::File::open(path).and_then(|file| {
        let regular = file.metadata()?.is_file();
        Ok((file, regular))
    });
    let blob = match opened {
        // A pipe or device (`<(zcat dump.gz)`) has no length to map.
        Ok((file, false)) => {
            return read_stream_in_batches(&name, file, size, PIECE_BYTES, on_batch);
        }
        Ok((file, true)) => Blob::map_file(&file),
        Err(e) => Err(e),
    };
    match blob {
        Ok(blob) if is_gzip(&blob) => {
            read_stream_in_batches(&name, &blob[..], size, PIECE_BYTES, on_batch)
        }
        Ok(blob) => read_file_in_batches(
            DumpFile {
                path: name,
                blob: Arc::new(blob),
            },
            size,
            on_batch,
        ),
        Err(e) => vec![problem(&name, None, io_message(&e))],
    }
}

/// A file's name for people: `<stdin>` for `-`.
pub(crate) fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// A regular file's bytes, mapped, when they are not gzip data: what reading a file whole
/// without decompressing it needs (`None` for a pipe, a folder, a file that cannot be opened).
/// Anything but a regular file is refused before it is opened: opening a named pipe, then
/// closing it, could leave its writer with no reader.
pub fn map_plain_file(path: &Path) -> Option<Blob> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    // Again on what was opened: the path may name something else by now, and `map_file` would
    // read a pipe whole.
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let blob = Blob::map_file(&file).ok()?;
    (!is_gzip(&blob)).then_some(blob)
}

fn gzip_damage(name: &str, e: &std::io::Error, decompressed: u64) -> DumpProblem {
    let msg = format!(
        "the gzip data is damaged or cut short ({e}); the {decompressed} bytes decompressed before it were read"
    );
    problem(name, None, msg)
}

/// Reads every event of a file into a batch. Problems are returned beside the batch: what could
/// be read always is.
pub fn read_file(file: DumpFile) -> (Batch, Vec<DumpProblem>) {
    let mut batches = Vec::new();
    // On one thread and with an unbounded size there is exactly one batch.
    let problems = read(file, usize::MAX, false, &mut |b| batches.push(b));
    (batches.pop().expect("one batch"), problems)
}

/// Reads every event of a file, handing them over in batches as they are read: the first holds at
/// most `size` events, later ones grow up to [`LARGE_BATCH`] (so the first screen of a large dump
/// shows at once, and the rest arrives without a flood of tiny batches).
pub fn read_file_in_batches(
    file: DumpFile,
    size: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    read(file, size, true, on_batch)
}

fn read(
    file: DumpFile,
    size: usize,
    may_parallel: bool,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let mut problems = Vec::new();
    let errors = scan_blob(&file.blob, size, may_parallel, on_batch);
    let bytes: &[u8] = &file.blob;
    let total = errors.len();
    report(&file.path, positioned(bytes, errors), total, &mut problems);
    problems
}

/// Reads every event of a file's bytes, handing them over in batches, and gives the problems
/// met, at their byte offsets.
fn scan_blob(
    blob: &Arc<Blob>,
    size: usize,
    may_parallel: bool,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    let bytes: &[u8] = blob;
    let mut errors = Vec::new();
    let threads = crate::parallel::cores();
    if may_parallel
        && threads > 1
        && bytes.len() >= PARALLEL_BYTES
        && super::ndjson::looks_line_delimited(bytes)
    {
        read_pieces(blob, size, threads, PIECE_BYTES, on_batch, &mut errors);
    } else {
        let mut batcher = Batcher::new(Arc::clone(blob), size);
        let mut push = |start: usize, end: usize| batcher.push(start, end, on_batch);
        if super::ndjson::looks_line_delimited(bytes) {
            scan_lines(bytes, &mut push, &mut errors);
        } else {
            scan(bytes, &mut push, &mut errors);
        }
        on_batch(batcher.finish());
    }
    errors
}

/// Adds a file's problems, given at their lines and columns: at most [`MAX_PROBLEMS_PER_FILE`]
/// of the `total`, and a line for the rest. A file that holds nothing but blanks is a dump of no
/// events, as callscope writes one when nothing matches, not a problem.
fn report(
    path: &str,
    positioned: Vec<((usize, usize), String)>,
    total: usize,
    problems: &mut Vec<DumpProblem>,
) {
    problems.extend(
        positioned
            .into_iter()
            .map(|(at, message)| problem(path, Some(at), message)),
    );
    if total > MAX_PROBLEMS_PER_FILE {
        problems.push(problem(
            path,
            None,
            format!("{} more problems not shown", total - MAX_PROBLEMS_PER_FILE),
        ));
    }
}

/// Cuts a line-delimited file into about `n` pieces, each starting on a line that is one whole
/// JSON object right after a line that ends one (`}`). In valid JSON such a line can only start
/// a new top-level value, so no piece starts or ends inside a value written over several lines
/// (a pretty-printed envelope among the lines), which a piece alone could not read.
fn split_between_events(bytes: &[u8], n: usize) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for k in 1..n {
        let target = (bytes.len() * k / n).max(start);
        if let Some(cut) = next_event_line(bytes, target)
            && cut > start
        {
            pieces.push((start, cut));
            start = cut;
        }
    }
    if start < bytes.len() {
        pieces.push((start, bytes.len()));
    }
    pieces
}

/// The start of the first line after `from` that may start a piece (see
/// [`split_between_events`]): a whole object, right after a line (blank lines aside) that is one
/// too. A damaged line that ends in `}` is not one, so a piece never ends on it: read whole, its
/// damage is found where it reads on into the next line, and so it is in pieces.
fn next_event_line(bytes: &[u8], from: usize) -> Option<usize> {
    let is_object = |line: &[u8]| {
        line.first() == Some(&b'{')
            && line.last() == Some(&b'}')
            && serde_json::from_slice::<IgnoredAny>(line).is_ok()
    };
    let mut at = from + memchr::memchr(b'\n', &bytes[from..])? + 1;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        let line = super::ndjson::trim(&bytes[at..end]);
        let before = bytes[..at].iter().rposition(|b| !is_json_ws(*b));
        let line_before = before.map(|i| {
            let start = memchr::memrchr(b'\n', &bytes[..i]).map_or(0, |n| n + 1);
            super::ndjson::trim(&bytes[start..=i])
        });
        if is_object(line) && line_before.is_none_or(is_object) {
            return Some(at);
        }
        at = end + 1;
    }
    None
}

/// What reading a part of a line-delimited file on a worker thread gives.
enum Piece {
    Batch(Box<Batch>),
    /// The part's problems.
    Problems(Vec<ScanError>),
}

/// Reads a large line-delimited file on `threads` cores: it is cut into pieces of about
/// `piece_bytes` at line ends, each worker reads the next piece not yet taken, and the batches
/// are handed over in file order (so the first copy of an id is the one kept, as on one thread).
/// Small pieces keep few batches waiting for their turn: memory stays low, and the last batches
/// handed over are few.
pub(super) fn read_pieces(
    blob: &Arc<Blob>,
    size: usize,
    threads: usize,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
    errors: &mut Vec<ScanError>,
) {
    let bytes: &[u8] = blob;
    let count = bytes.len().div_ceil(piece_bytes).max(threads);
    let pieces = split_between_events(bytes, count);
    super::ordered::in_order(
        pieces.len(),
        threads,
        |k, send| {
            let (a, b) = pieces[k];
            blob.prepare(a, b);
            // The first batch of the file is small, so that the first screen shows at once.
            let first = if k == 0 { size } else { LARGE_BATCH };
            let mut batcher = Batcher::new(Arc::clone(blob), first);
            let mut errs = Vec::new();
            let mut send_batch = |batch: Batch| send(Piece::Batch(Box::new(batch)));
            scan_lines(
                &bytes[a..b],
                &mut |s, e| batcher.push(a + s, a + e, &mut send_batch),
                &mut errs,
            );
            let last = batcher.finish();
            if !last.is_empty() {
                send_batch(last);
            }
            for e in &mut errs {
                e.offset += a;
            }
            send(Piece::Problems(errs));
        },
        |piece| match piece {
            Piece::Batch(batch) => on_batch(*batch),
            Piece::Problems(errs) => errors.extend(errs),
        },
    );
}

/// Reads a line-delimited file: each line that is an event object is read in a single pass; any
/// other line (an envelope, an array, damage) goes through [`scan`], which knows every shape.
fn scan_lines(
    bytes: &[u8],
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let envelope_key = memchr::memmem::Finder::new(b"\"events\"");
    // A byte order mark is not part of the first line.
    let mut start = mark_len(bytes);
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line_start = start;
        start = end + 1;
        let line = &bytes[line_start..end];
        let lead = line.iter().take_while(|b| is_json_ws(**b)).count();
        let trail = line[lead..]
            .iter()
            .rev()
            .take_while(|b| is_json_ws(**b))
            .count();
        let (s, e) = (line_start + lead, end - trail);
        if s >= e {
            continue;
        }
        let text = &bytes[s..e];
        if text[0] == b'{' && envelope_key.find(text).is_none() && event(s, e).is_ok() {
            continue;
        }
        // Anything else is read the thorough way: a line that is one whole value (an envelope, an
        // array) by itself, else the rest of the file (damage, or a value spread over lines).
        let whole = serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
        let rest = if whole { text } else { &bytes[s..] };
        let mut found = Vec::new();
        scan(rest, &mut |a, b| event(s + a, s + b), &mut found);
        errors.extend(found.into_iter().map(|x| ScanError {
            offset: s + x.offset,
            message: x.message,
        }));
        if !whole {
            return;
        }
    }
}

/// A problem at a byte offset of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub offset: usize,
    pub message: String,
}

/// Finds every event object in `bytes`, calling `event(start, end)` for each, in order. Damage is
/// pushed to `errors` with its byte offset; scanning resumes on the next line when the damage is
/// confined to one line (line-delimited dumps), and stops otherwise.
pub fn scan(
    bytes: &[u8],
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    if looks_binary(bytes) {
        errors.push(ScanError {
            offset: 0,
            message: "this is not a JSON dump: it holds binary data".into(),
        });
        return;
    }
    // A UTF-8 byte order mark, as some editors write, is not JSON.
    let mut pos = mark_len(bytes);
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<&RawValue>();
        let value_start = pos + skip_ws(rest, 0);
        match stream.next() {
            None => return,
            Some(Ok(raw)) => {
                let start = offset_in(bytes, raw.get().as_bytes());
                let end = start + raw.get().len();
                visit_top(bytes, start, end, event, errors);
                pos += stream.byte_offset();
                continue;
            }
            Some(Err(e)) => {
                let at = if e.is_eof() {
                    bytes.len()
                } else {
                    (pos + offset_of_line_col(rest, e.line(), e.column())).min(bytes.len())
                };
                // Salvage the complete events of a damaged array or envelope.
                salvage(bytes, value_start, event, errors);
                // Resume on the next line when the damage is confined to the value's first line,
                // or when that line is a cut record of a line-delimited dump (the parser ran on
                // into the next line, which holds a whole object of its own).
                let first = value_start.min(at);
                let next = memchr::memchr(b'\n', &bytes[first..]).map(|nl| first + nl + 1);
                let resume = next.filter(|&next| {
                    next > at
                        || (!is_lone_bracket(&bytes[first..next]) && starts_a_record(bytes, next))
                });
                match resume {
                    Some(next) if next <= at => {
                        // Point at the end of the cut line, not at the sound line after it.
                        let end = if bytes[..next - 1].ends_with(b"\r") {
                            next - 2
                        } else {
                            next - 1
                        };
                        errors.push(ScanError {
                            offset: end,
                            message: format!(
                                "the line ends before its JSON value does: it is cut short ({})",
                                bare_json_error(&e)
                            ),
                        });
                    }
                    _ => errors.push(ScanError {
                        offset: at,
                        message: describe_json_error(&e),
                    }),
                }
                match resume {
                    Some(next) => pos = next,
                    None => return,
                }
            }
        }
    }
}

/// Classifies one complete top-level value: an envelope, an array (of envelopes or events), or an
/// event.
fn visit_top(
    bytes: &[u8],
    start: usize,
    end: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let value = &bytes[start..end];
    match value.first() {
        Some(b'{') => visit_object(bytes, start, end, event, errors),
        Some(b'[') => match serde_json::from_slice::<Vec<&RawValue>>(value) {
            Ok(items) => {
                for item in items {
                    let s = offset_in(bytes, item.get().as_bytes());
                    let e = s + item.get().len();
                    if bytes[s] == b'{' {
                        visit_object(bytes, s, e, event, errors);
                    } else {
                        errors.push(not_an_object(s, bytes[s]));
                    }
                }
            }
            Err(e) => errors.push(ScanError {
                offset: start,
                message: describe_json_error(&e),
            }),
        },
        Some(&b) => errors.push(not_an_object(start, b)),
        None => {}
    }
}

/// An object is an envelope when it has an `events` array and no `type`; otherwise an event.
fn visit_object(
    bytes: &[u8],
    start: usize,
    end: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    let value = &bytes[start..end];
    let shape = serde_json::from_slice::<Shape>(value).unwrap_or(Shape::Event);
    match shape {
        Shape::Envelope(items) => {
            for item in items {
                let s = offset_in(bytes, item.get().as_bytes());
                let e = s + item.get().len();
                if bytes[s] == b'{' {
                    if let Err(message) = event(s, e) {
                        errors.push(ScanError { offset: s, message });
                    }
                } else {
                    errors.push(not_an_object(s, bytes[s]));
                }
            }
        }
        Shape::Event => {
            if let Err(message) = event(start, end) {
                errors.push(ScanError {
                    offset: start,
                    message,
                });
            }
        }
    }
}

/// After a top-level value failed to parse, re-reads it element by element so that the events
/// complete before the damage are kept.
fn salvage(
    bytes: &[u8],
    start: usize,
    event: &mut dyn FnMut(usize, usize) -> Result<(), String>,
    errors: &mut Vec<ScanError>,
) {
    if start >= bytes.len() || !matches!(bytes[start], b'{' | b'[') {
        return;
    }
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(&bytes[start..]);
    let _ = SalvageSeed {
        base: bytes,
        found: &mut found,
        depth: 0,
    }
    .deserialize(&mut de);
    for (s, e) in found {
        visit_object(bytes, s, e, event, errors);
    }
}

/// Collects the spans of complete objects inside arrays and inside an envelope's `events`, up to
/// where the input breaks.
struct SalvageSeed<'a, 'b> {
    base: &'a [u8],
    found: &'b mut Vec<(usize, usize)>,
    depth: u8,
}

impl<'de, 'b> DeserializeSeed<'de> for SalvageSeed<'de, 'b> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'b> Visitor<'de> for SalvageSeed<'de, 'b> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array or an envelope")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            let s = offset_in(self.base, item.get().as_bytes());
            // Nothing else in an array can hold an event; its damage is reported by the caller.
            if self.base[s] == b'{' {
                self.found.push((s, s + item.get().len()));
            }
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.depth > 0 {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        }
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "events" {
                map.next_value_seed(SalvageSeed {
                    base: self.base,
                    found: &mut *self.found,
                    depth: self.depth + 1,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// What a JSON object is: an envelope (its events) or an event.
enum Shape<'a> {
    Envelope(Vec<&'a RawValue>),
    Event,
}

impl<'de> serde::Deserialize<'de> for Shape<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shape<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape<'de>, A::Error> {
                let mut events: Option<&'de RawValue> = None;
                let mut has_type = false;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "events" => events = Some(map.next_value()?),
                        "type" => {
                            has_type = true;
                            map.next_value::<IgnoredAny>()?;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                match events {
                    Some(raw) if !has_type && raw.get().starts_with('[') => {
                        let items: Vec<&'de RawValue> =
                            serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
                        Ok(Shape::Envelope(items))
                    }
                    _ => Ok(Shape::Event),
                }
            }
        }
        d.deserialize_map(V)
    }
}

fn not_an_object(offset: usize, first: u8) -> ScanError {
    let found = match first {
        b'"' => "a string",
        b'[' => "an array",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    };
    ScanError {
        offset,
        message: format!("expected an event or an envelope (a JSON object), found {found}"),
    }
}

/// serde_json's message without the " at line L column C" it appends: the position is reported
/// separately.
fn bare_json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn describe_json_error(e: &serde_json::Error) -> String {
    let text = bare_json_error(e);
    if e.is_eof() {
        format!("the JSON ends too early: the file is truncated ({text})")
    } else {
        format!("invalid JSON: {text}")
    }
}

/// A NUL byte, or many control bytes, in the first few kilobytes: not a text dump.
fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
        .count();
    controls > head.len() / 10 + 1
}

fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Skips JSON whitespace (which, unlike ASCII whitespace, excludes the form feed).
fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// A line holding only `{` or `[`: the opening of a pretty-printed value, not a record.
fn is_lone_bracket(line: &[u8]) -> bool {
    let start = skip_ws(line, 0);
    let rest = &line[start..];
    matches!(rest.first(), Some(b'{' | b'[')) && skip_ws(rest, 1) == rest.len()
}

/// Whether the first non-blank line from `start` is one whole JSON object.
fn starts_a_record(bytes: &[u8], start: usize) -> bool {
    let start = skip_ws(bytes, start);
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |nl| start + nl);
    let line = &bytes[start..end];
    line.first() == Some(&b'{') && serde_json::from_slice::<IgnoredAny>(line).is_ok()
}

/// Where `inner`, a sub-slice of `outer`, starts in it.
fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

/// The byte offset of serde_json's (1-based line, column) in `bytes`.
fn offset_of_line_col(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &bytes[start..]) {
            Some(nl) => start += nl + 1,
            None => return bytes.len(),
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len())
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    line_cols(bytes, [offset])[0]
}

/// [`line_col`] of each offset, counting line ends in one pass over the bytes when the offsets
/// ascend (as a scan finds its problems), rather than from the start for each. A column is
/// still counted back from its offset to the start of its line.
fn line_cols(bytes: &[u8], offsets: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    // Line ends before `counted`.
    let (mut counted, mut lines) = (0, 0);
    offsets
        .into_iter()
        .map(|offset| {
            let offset = offset.min(bytes.len());
            if offset < counted {
                (counted, lines) = (0, 0);
            }
            lines += memchr::memchr_iter(b'\n', &bytes[counted..offset]).count();
            counted = offset;
            let before = &bytes[..offset];
            // A byte order mark is not a column an editor shows.
            let line_start = memchr::memrchr(b'\n', before).map_or(mark_len(before), |i| i + 1);
            let col = String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1;
            (lines + 1, col)
        })
        .collect()
}

/// The first [`MAX_PROBLEMS_PER_FILE`] problems found in `bytes`, at their lines and columns.
fn positioned(bytes: &[u8], found: Vec<ScanError>) -> Vec<((usize, usize), String)> {
    let first = &found[..found.len().min(MAX_PROBLEMS_PER_FILE)];
    let at = line_cols(bytes, first.iter().map(|e| e.offset));
    at.into_iter()
        .zip(found.into_iter().map(|e| e.message))
        .collect()
}

fn problem(path: &str, position: Option<(usize, usize)>, message: String) -> DumpProblem {
    DumpProblem {
        path: path.to_string(),
        position,
        message,
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => format!("cannot read: {e}"),
    }
}

mod stream;

#[cfg(test)]
mod tests;
