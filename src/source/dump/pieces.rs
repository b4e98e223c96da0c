//! A file's bytes read into batches: a large line-delimited file, or envelope (see `envelope`),
//! cut into pieces between events, read on every core and handed over in file order.

use std::sync::Arc;

use serde::de::IgnoredAny;

use super::envelope::{Handed, read_envelope, read_envelope_after, read_rest_the_full_way};
use super::scan::{ScanError, is_json_ws, scan, scan_lines};
use super::{LARGE_BATCH, PARALLEL_BYTES, PIECE_BYTES};
use crate::store::{Batch, BatchBuilder, Blob, Reading};

/// Builds batches that start at `size` events and grow up to [`LARGE_BATCH`].
/// How a file's events are handed over: in batches built on the spares of `reading`, the first
/// of at most `first` events (so that the first screen of a large dump shows at once), later ones
/// growing up to [`LARGE_BATCH`].
#[derive(Clone, Copy)]
pub(super) struct Batches<'r> {
    pub(super) reading: &'r Reading,
    pub(super) first: usize,
}

impl Batches<'_> {
    /// The batches of a part of the file after its start, which need not be small.
    pub(super) fn later(self) -> Self {
        Batches {
            first: LARGE_BATCH,
            ..self
        }
    }
}

pub(super) struct Batcher<'r> {
    reading: &'r Reading,
    builder: BatchBuilder,
    limit: usize,
    size: usize,
}

impl<'r> Batcher<'r> {
    pub(super) fn new(batches: Batches<'r>, blob: Arc<Blob>) -> Batcher<'r> {
        Batcher {
            reading: batches.reading,
            builder: batches.reading.builder(blob).events_only(),
            limit: batches.first,
            size: batches.first,
        }
    }

    pub(super) fn push(
        &mut self,
        start: usize,
        end: usize,
        on_full: &mut dyn FnMut(Batch),
    ) -> Result<(), String> {
        self.builder.push(start, end).map_err(|e| e.to_string())?;
        if self.builder.len() >= self.limit {
            self.limit = self.limit.saturating_mul(4).min(self.size.max(LARGE_BATCH));
            let blob = Arc::clone(self.builder.blob());
            let next = self.reading.builder(blob).events_only();
            on_full(std::mem::replace(&mut self.builder, next).finish());
        }
        Ok(())
    }

    pub(super) fn finish(self) -> Batch {
        self.builder.finish()
    }
}

/// Reads every event of a file's bytes, handing them over in batches, and gives the problems
/// met, at their byte offsets.
pub(super) fn scan_blob(
    blob: &Arc<Blob>,
    batches: Batches,
    may_parallel: bool,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    let bytes: &[u8] = blob;
    let mut errors = Vec::new();
    let cores = cores_for(bytes.len()).filter(|_| may_parallel);
    if let Some((threads, piece_bytes)) = cores
        && let Some(found) = read_envelope(blob, batches, threads, piece_bytes, on_batch)
    {
        errors = found;
    } else if let Some((threads, piece_bytes)) = cores
        && crate::source::ndjson::looks_line_delimited(bytes)
    {
        read_pieces(blob, batches, threads, piece_bytes, on_batch, &mut errors);
    } else {
        let mut batcher = Batcher::new(batches, Arc::clone(blob));
        let mut push = |start: usize, end: usize| batcher.push(start, end, on_batch);
        if crate::source::ndjson::looks_line_delimited(bytes) {
            scan_lines(bytes, &mut push, &mut errors);
        } else {
            scan(bytes, &mut push, &mut errors);
        }
        on_batch(batcher.finish());
    }
    errors
}

/// [`scan_blob`] of a whole file that is one envelope, its first events `handed` over already as
/// its head came (see [`Cut::Head`](super::stream::Cut::Head)): the rest is read as `scan_blob`
/// reads it, on every core when it is large, without those events.
pub(super) fn scan_blob_after(
    blob: &Arc<Blob>,
    batches: Batches,
    handed: Handed,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    scan_blob_after_on(blob, batches, handed, cores_for(blob.len()), on_batch)
}

/// How many threads read a file of `len` bytes, and the size of their pieces: `None` for one
/// thread, when the machine has one core or the file is small.
fn cores_for(len: usize) -> Option<(usize, usize)> {
    let threads = crate::source::ordered::threads();
    (threads > 1 && len >= PARALLEL_BYTES).then_some((threads, PIECE_BYTES))
}

/// [`scan_blob_after`], on `cores` (how many, and the size of the pieces) when given, else on
/// this thread.
pub(super) fn scan_blob_after_on(
    blob: &Arc<Blob>,
    batches: Batches,
    handed: Handed,
    cores: Option<(usize, usize)>,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<ScanError> {
    let handed = match cores {
        Some((threads, piece_bytes)) => {
            match read_envelope_after(blob, batches, threads, piece_bytes, handed, on_batch) {
                Ok(found) => return found,
                Err(handed) => handed,
            }
        }
        None => handed,
    };
    read_rest_the_full_way(blob, batches, handed, on_batch)
}

/// Cuts a line-delimited file into about `n` pieces, each starting on a line that is one whole
/// JSON object right after a line that ends one (`}`). In valid JSON such a line can only start
/// a new top-level value, so no piece starts or ends inside a value written over several lines
/// (a pretty-printed envelope among the lines), which a piece alone could not read.
pub(super) fn split_between_events(bytes: &[u8], n: usize) -> Vec<(usize, usize)> {
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
pub(super) fn next_event_line(bytes: &[u8], from: usize) -> Option<usize> {
    let is_object = |line: &[u8]| {
        line.first() == Some(&b'{')
            && line.last() == Some(&b'}')
            && serde_json::from_slice::<IgnoredAny>(line).is_ok()
    };
    let mut at = from + memchr::memchr(b'\n', &bytes[from..])? + 1;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        let line = crate::source::ndjson::trim(&bytes[at..end]);
        let before = bytes[..at].iter().rposition(|b| !is_json_ws(*b));
        let line_before = before.map(|i| {
            let start = memchr::memrchr(b'\n', &bytes[..i]).map_or(0, |n| n + 1);
            crate::source::ndjson::trim(&bytes[start..=i])
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
    batches: Batches,
    threads: usize,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
    errors: &mut Vec<ScanError>,
) {
    let bytes: &[u8] = blob;
    let count = bytes.len().div_ceil(piece_bytes).max(threads);
    let pieces = split_between_events(bytes, count);
    crate::source::ordered::in_order(
        pieces.len(),
        threads,
        |k, send| {
            let (a, b) = pieces[k];
            blob.prepare(a, b);
            let batches = if k == 0 { batches } else { batches.later() };
            let mut batcher = Batcher::new(batches, Arc::clone(blob));
            if k + 1 == pieces.len() {
                // The last builder is made: spares kept from now on would only be held.
                batches.reading.no_more_builders();
            }
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
