//! Dumps read as their bytes come: stdin, pipes, and gzip'd files as they decompress. A thread
//! cuts the bytes into pieces between events while the loader reads each piece on every core as
//! it comes. What is not to be held in memory (see [`Holding`]) is kept in a temporary file,
//! mapped.

use std::io::Read;
use std::sync::Arc;

use super::envelope::{Handed, read_envelope_head};
use super::keep::{Keep, Spool, spool_lost};
use super::pieces::{Batches, next_event_line, scan_blob, scan_blob_after};
use super::scan::is_json_ws;
use super::{
    DumpProblem, Holding, MAX_PROBLEMS_PER_FILE, gzip_damage, is_gzip, positioned, problem, report,
};
use crate::store::{Batch, Blob};

fn read_failure(name: &str, e: &std::io::Error, read: u64) -> DumpProblem {
    let msg = format!("reading stopped after {read} bytes ({e}); the events before it were kept");
    problem(name, None, msg)
}

/// What stopped a gzip'd stream: its data, or the reading of it (a pipe that fails).
fn gzip_stopped(name: &str, e: &std::io::Error, decompressed: u64) -> DumpProblem {
    use std::io::ErrorKind::{InvalidData, InvalidInput, UnexpectedEof};
    if matches!(e.kind(), InvalidData | InvalidInput | UnexpectedEof) {
        gzip_damage(name, e, decompressed)
    } else {
        read_failure(name, e, decompressed)
    }
}

/// Buffers of pieces read and done with, for the next pieces of a stream.
#[derive(Default)]
pub(in crate::source) struct Spares(std::sync::Mutex<Vec<Vec<u8>>>);

impl Spares {
    /// How many buffers are kept: more than the pieces a stream holds at once.
    const MOST: usize = 16;

    /// A buffer given back, emptied, when there is one of at least `capacity` bytes.
    fn take(&self, capacity: usize) -> Option<Vec<u8>> {
        let mut spares = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let at = spares.iter().position(|b| b.capacity() >= capacity)?;
        let mut buffer = spares.swap_remove(at);
        buffer.clear();
        Some(buffer)
    }

    /// Gives a piece's buffer back for a later piece.
    pub(in crate::source) fn give(&self, buffer: Vec<u8>) {
        let mut spares = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if spares.len() < Self::MOST {
            spares.push(buffer);
        }
    }
}

/// What the reading thread of [`read_stream_in_batches`] hands over.
pub(in crate::source) enum Cut {
    /// The next piece of the file, cut between events. Not `cut` when it is the whole file,
    /// which is not line-delimited or ended before its first line did. Past what stays in
    /// memory, it is mapped from a temporary file (see [`Spool`]).
    Piece { bytes: Blob, cut: bool },
    /// The first bytes of a file that is one envelope, handed over before the rest has come so
    /// that its first events show at once; the whole file follows (a `Piece` not `cut`). Only
    /// for the full way's reading ([`read_stream_in_batches`]).
    Head(Blob),
    /// Reading stopped (damaged gzip data, a failing pipe) past what was handed over.
    Stopped(DumpProblem),
}

/// Reads a dump as its bytes come (stdin, a pipe, or a gzip'd file decompressing, told apart by
/// its first two bytes): a thread cuts the bytes into pieces of about `piece_bytes`, where
/// [`split_between_events`](super::pieces::split_between_events) would cut them, while every
/// core reads them as they come, as [`read_pieces`](super::pieces::read_pieces) reads a mapped
/// file's. The pieces past a quarter of the memory free are kept in a temporary file (see
/// [`Keep`]), or every piece after the first, as `holding` says.
/// Problems keep their lines and columns in the whole file. As with `read_pieces`, each piece is
/// read on its own: damage that stops the reading of one (a value cut short, binary data) does
/// not stop the next.
pub(super) fn read_stream_in_batches(
    name: &str,
    reader: impl Read + Send,
    holding: Holding,
    batches: Batches,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let in_memory = match holding {
        // The pieces within the first `piece_bytes`: what is held is the store (about a fifth
        // of the dump) and the pieces being read, not the input.
        Holding::FirstPiece => piece_bytes as u64,
        // A quarter of the memory free now, less the pieces being read (one per core, one
        // waiting its turn, one in the channel, one being filled): the rest is left for
        // callscope's store, the file's pages not yet written out, and others.
        Holding::WhileItFits => {
            let threads = crate::source::ordered::threads() as u64;
            let being_read = (threads + 3) * piece_bytes as u64;
            crate::memory::available()
                .map_or(u64::MAX, |bytes| (bytes / 4).saturating_sub(being_read))
        }
    };
    let keep = Keep::in_a_temporary_file_beyond(in_memory);
    read_stream_keeping(name, reader, keep, batches, piece_bytes, on_batch)
}

/// The pieces of a stream (stdin, a pipe, a gzip'd file, inflated), cut between events as
/// [`read_stream_in_batches`] cuts them, handed to `take` as they come. What stopped the reading
/// (damaged gzip data, a failing pipe) comes last, after the pieces read before it.
///
/// A piece's buffer given back to `spares` once read is used again for a later piece: a new one
/// would have every page of it faulted in afresh.
pub(in crate::source) fn with_pieces<R>(
    name: &str,
    mut reader: impl Read + Send,
    piece_bytes: usize,
    spares: &Spares,
    take: impl FnOnce(&mut (dyn Iterator<Item = Cut> + Send)) -> R,
) -> R {
    let head = match read_head(&mut reader) {
        Ok(head) => head,
        Err((e, at)) => {
            return take(&mut std::iter::once(Cut::Stopped(read_failure(
                name, &e, at,
            ))));
        }
    };
    let gzip = is_gzip(&head);
    let bytes = std::io::Cursor::new(head).chain(reader);
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    // A stream that cannot be cut (an envelope) is held whole until it has all come: past a
    // piece's size, in a temporary file rather than in memory.
    let keep = &Keep::in_a_temporary_file_beyond(piece_bytes as u64);
    std::thread::scope(|scope| {
        if gzip {
            let decoder = flate2::read::MultiGzDecoder::new(bytes);
            scope.spawn(move || {
                cut_in_pieces(
                    name,
                    decoder,
                    gzip_stopped,
                    piece_bytes,
                    spares,
                    keep,
                    false,
                    &tx,
                );
            });
        } else {
            scope.spawn(move || {
                cut_in_pieces(
                    name,
                    bytes,
                    read_failure,
                    piece_bytes,
                    spares,
                    keep,
                    false,
                    &tx,
                );
            });
        }
        take(&mut rx.into_iter())
    })
}

/// A stream's first two bytes (fewer when it ends first): what tells gzip data. A failure to
/// read comes with how many bytes were read before it.
fn read_head(reader: &mut impl Read) -> Result<Vec<u8>, (std::io::Error, u64)> {
    let mut head = Vec::new();
    while head.len() < 2 {
        let mut byte = [0u8];
        match reader.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err((e, head.len() as u64)),
        }
    }
    Ok(head)
}

/// Reads one piece of a stream the full way, as [`read_stream_in_batches`] reads each: its
/// events handed over in batches, and what else it held.
pub(in crate::source) fn read_piece(
    blob: &Arc<Blob>,
    reading: &crate::store::Reading,
    on_batch: &mut dyn FnMut(Batch),
) -> PieceRead {
    let batches = Batches {
        reading,
        first: super::LARGE_BATCH,
    };
    let found = scan_blob(blob, batches, false, on_batch);
    PieceRead::of(blob, found)
}

/// Every event of a stream read the full way, cut in pieces of about `piece_bytes`, into a store.
#[cfg(test)]
pub(in crate::source) fn load_stream(
    name: &str,
    reader: impl Read + Send,
    piece_bytes: usize,
) -> (crate::store::Store, Vec<DumpProblem>) {
    let reading = crate::store::Reading::start();
    let batches = Batches {
        reading: &reading,
        first: 2_000,
    };
    let mut store = crate::store::Store::new();
    let holding = Holding::WhileItFits;
    let problems = read_stream_in_batches(name, reader, holding, batches, piece_bytes, &mut |b| {
        store.merge(b);
    });
    (store, problems)
}

/// [`read_stream_in_batches`], keeping the pieces as `keep` does.
pub(super) fn read_stream_keeping(
    name: &str,
    mut reader: impl Read + Send,
    keep: Keep,
    batches: Batches,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let head = match read_head(&mut reader) {
        Ok(head) => head,
        Err((e, at)) => return vec![read_failure(name, &e, at)],
    };
    let gzip = is_gzip(&head);
    let bytes = std::io::Cursor::new(head).chain(reader);
    if gzip {
        let decoder = flate2::read::MultiGzDecoder::new(bytes);
        read_pieces_as_they_come(
            name,
            decoder,
            gzip_stopped,
            keep,
            batches,
            piece_bytes,
            on_batch,
        )
    } else {
        read_pieces_as_they_come(
            name,
            bytes,
            read_failure,
            keep,
            batches,
            piece_bytes,
            on_batch,
        )
    }
}

/// [`read_stream_in_batches`] once the bytes are known to be gzip or not; `failed` names what
/// stopped the reader. The pieces are read on every core as they come, and their batches handed
/// over in file order.
fn read_pieces_as_they_come(
    name: &str,
    reader: impl Read + Send,
    failed: fn(&str, &std::io::Error, u64) -> DumpProblem,
    keep: Keep,
    batches: Batches,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    // One piece waits while the next is cut; the workers take theirs from it as they may start.
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    // No piece's buffer is given back: what is read stays in the store's batches.
    let spares = &Spares::default();
    let keep = &keep;
    // What the reading of an envelope's head handed over, for the reading of the whole.
    let head = &HeadRead::default();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            cut_in_pieces(name, reader, failed, piece_bytes, spares, keep, true, &tx);
        });
        let mut damage = None;
        let mut problems = LineProblems::default();
        crate::source::ordered::in_order_from(
            rx.into_iter(),
            crate::source::ordered::threads(),
            |k, message, send| match message {
                Cut::Piece { bytes, cut } => {
                    let batches = if k == 0 { batches } else { batches.later() };
                    // Past what stays in memory, the piece was written to the file as it came,
                    // and is mapped from it.
                    let blob = Arc::new(bytes);
                    blob.prepare(0, blob.len());
                    let mut send_batch = |batch| send(Sent::Batch(Box::new(batch)));
                    // A file that came whole (an envelope) is read on every core, as if mapped;
                    // after its head (the one item before it), on from what that handed over.
                    let found = match (cut, k) {
                        (false, 1..) => match head.wait() {
                            Some(handed) => {
                                scan_blob_after(&blob, batches, handed, &mut send_batch)
                            }
                            None => scan_blob(&blob, batches, true, &mut send_batch),
                        },
                        _ => scan_blob(&blob, batches, !cut, &mut send_batch),
                    };
                    send(Sent::Piece(PieceRead::of(&blob, found)));
                }
                Cut::Head(bytes) => {
                    let mut done = head.done();
                    let blob = Arc::new(bytes);
                    let handed = read_envelope_head(&blob, batches, &mut |batch| {
                        send(Sent::Batch(Box::new(batch)))
                    });
                    done.set(handed);
                }
                Cut::Stopped(p) => send(Sent::Stopped(p)),
            },
            |read| match read {
                Sent::Batch(batch) => on_batch(*batch),
                Sent::Piece(piece) => problems.add(piece),
                Sent::Stopped(p) => damage = Some(p),
            },
        );
        problems.into_problems(name, damage)
    })
}

/// What the reading of an envelope's head ([`Cut::Head`]) handed over, given to the reading of
/// the whole, which waits for it.
#[derive(Default)]
struct HeadRead {
    /// `None` until the head is read; then what it handed over, if anything.
    read: std::sync::Mutex<Option<Option<Handed>>>,
    ready: std::sync::Condvar,
}

impl HeadRead {
    /// What the head's reading handed over, once it has ended.
    fn wait(&self) -> Option<Handed> {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(handed) = read.take() {
                return handed;
            }
            read = self.ready.wait(read).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// What says the head's reading has ended: when dropped unset (a panic), with nothing
    /// handed over, so that no reading waits for it forever.
    fn done(&self) -> HeadDone<'_> {
        HeadDone {
            head: self,
            handed: None,
        }
    }
}

/// See [`HeadRead::done`].
struct HeadDone<'h> {
    head: &'h HeadRead,
    handed: Option<Handed>,
}

impl HeadDone<'_> {
    fn set(&mut self, handed: Option<Handed>) {
        self.handed = handed;
    }
}

impl Drop for HeadDone<'_> {
    fn drop(&mut self) {
        let mut read = self.head.read.lock().unwrap_or_else(|e| e.into_inner());
        *read = Some(self.handed.take());
        self.head.ready.notify_all();
    }
}

/// What the reading of one piece of a stream hands over, in order.
enum Sent {
    Batch(Box<Batch>),
    /// Sent after the piece's batches.
    Piece(PieceRead),
    Stopped(DumpProblem),
}

/// What a piece held besides its events.
pub(in crate::source) struct PieceRead {
    /// Its first problems, at their lines (from 1) and columns in the piece: no more than a file
    /// reports.
    pub(in crate::source) errors: Vec<((usize, usize), String)>,
    pub(in crate::source) total_errors: usize,
    /// How many line ends it holds.
    pub(in crate::source) lines: usize,
}

impl PieceRead {
    pub(in crate::source) fn of(bytes: &[u8], found: Vec<super::ScanError>) -> PieceRead {
        PieceRead {
            total_errors: found.len(),
            errors: positioned(bytes, found),
            lines: memchr::memchr_iter(b'\n', bytes).count(),
        }
    }
}

/// The problems of a stream's lines, told as its pieces are handed over in order: each piece's
/// lines numbered on from the lines of the pieces before it, the first few kept.
#[derive(Debug, Default)]
pub(in crate::source) struct LineProblems {
    errors: Vec<((usize, usize), String)>,
    total: usize,
    lines: usize,
}

impl LineProblems {
    /// Adds what the reading of the next piece met.
    pub(in crate::source) fn add(&mut self, piece: PieceRead) {
        for ((line, col), message) in piece.errors {
            if self.errors.len() < MAX_PROBLEMS_PER_FILE {
                self.errors.push(((self.lines + line, col), message));
            }
        }
        self.total += piece.total_errors;
        self.lines += piece.lines;
    }

    /// The problems of the stream named `name`: the damage that stopped it, if any, then those
    /// of its lines.
    pub(in crate::source) fn into_problems(
        self,
        name: &str,
        damage: Option<DumpProblem>,
    ) -> Vec<DumpProblem> {
        let mut problems: Vec<DumpProblem> = damage.into_iter().collect();
        report(name, self.errors, self.total, &mut problems);
        problems
    }
}

/// The size of a stream's first piece, at most: what the first screen waits for.
const FIRST_PIECE_BYTES: usize = 4 << 20;

/// Reads every byte, handing them over in pieces cut between events (the first of about
/// [`FIRST_PIECE_BYTES`], the others of about `piece_bytes`); a file that is not
/// line-delimited goes over whole, held in `keep`'s file past what it keeps in memory (see
/// [`Spool`]). For the full way (`full_way`, [`read_stream_in_batches`]), so are the pieces after
/// the first, each written to the file as its bytes come and mapped from it once cut (what is in
/// flight is then the page cache's, not callscope's memory), and the first bytes of an envelope
/// are handed over at once ([`Cut::Head`]) besides. Stops at the first failure to read (damage,
/// for gzip), after handing over what came before it.
#[allow(clippy::too_many_arguments)]
pub(super) fn cut_in_pieces(
    name: &str,
    mut reader: impl Read,
    failed: fn(&str, &std::io::Error, u64) -> DumpProblem,
    piece_bytes: usize,
    spares: &Spares,
    keep: &Keep,
    full_way: bool,
    tx: &std::sync::mpsc::SyncSender<Cut>,
) {
    let mut chunk = vec![0u8; 64 * 1024];
    // Each piece's buffer is made to hold it from the start: grown a doubling at a time, it would
    // be copied over and over, and its new pages faulted in each time.
    let room = piece_bytes.min(64 << 20) + 2 * chunk.len();
    let mut buf: Vec<u8> = Vec::with_capacity(room);
    let mut read = 0u64;
    // Where the next piece starts in the file.
    let mut at = 0u64;
    // Whether the file can be cut into pieces: told by its first line, once that is whole.
    let mut first_line = FirstLine::default();
    debug_assert!(piece_bytes > 0);
    // How long the bytes must be before a cut is looked for, and where the last look ended (a
    // look goes on from there, rather than over the same lines again).
    // The first piece is smaller: it shows first, and it stays in memory.
    let mut size = piece_bytes.min(FIRST_PIECE_BYTES);
    let mut target = size;
    let mut looked = 0;
    // The bytes from `at` on, once they go to the file (`buf` is empty meanwhile): the whole of
    // a file that is not line-delimited, or the piece being cut.
    let mut spool: Option<Spool> = None;
    let damage = 'read: loop {
        match reader.read(&mut chunk) {
            Ok(0) => break None,
            Ok(n) => {
                read += n as u64;
                match spool.as_mut().map(|spooled| spooled.add(&chunk[..n])) {
                    None => buf.extend_from_slice(&chunk[..n]),
                    Some(Ok(())) => {}
                    // The file failed: what went to it comes back into memory, and the rest
                    // stays there.
                    Some(Err(back)) => {
                        let from = spool.take().map_or(at, |s| s.from());
                        match back {
                            Ok(bytes) => buf = bytes,
                            Err(e) => break Some(spool_lost(name, from, &e)),
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Some(failed(name, &e, read)),
        }
        if first_line.said == Some(false) {
            if spool.is_none() && keep.would_move(0, buf.len()) {
                spool = Spool::start(keep, 0, &buf);
                if spool.is_some() {
                    buf = Vec::new();
                }
            }
            continue;
        }
        // As many pieces as the bytes so far hold.
        while spool.as_ref().map_or(buf.len(), Spool::len) >= target {
            // The piece so far, to look through: in memory, or mapped from the file. A piece
            // goes to the file only once the file is known to be line-delimited.
            let view = match spool.as_ref().map(Spool::view) {
                None => None,
                Some(Ok(view)) => Some(view),
                Some(Err(back)) => {
                    let from = spool.take().map_or(at, |s| s.from());
                    match back {
                        Ok(bytes) => buf = bytes,
                        Err(e) => break 'read Some(spool_lost(name, from, &e)),
                    }
                    None
                }
            };
            let bytes: &[u8] = view.as_deref().unwrap_or(&buf);
            if view.is_none() {
                match first_line.line_delimited(bytes) {
                    Some(true) => {}
                    Some(false) => {
                        target = usize::MAX;
                        let envelope = full_way
                            && crate::source::ndjson::envelope::events_array(&buf).is_some();
                        if keep.would_move(0, buf.len()) {
                            spool = Spool::start(keep, 0, &buf);
                            if spool.is_some() {
                                buf = Vec::new();
                            }
                        }
                        // An envelope's first events are read while the rest comes, from its
                        // head: mapped from the file when the bytes went there, or a copy of
                        // them there when the rest will go there too (else in memory).
                        let head = match spool.as_ref().map(Spool::view) {
                            _ if !envelope => None,
                            None => Some(
                                keep.would_move(0, 2 * piece_bytes)
                                    .then(|| keep.copy_to_file(0, &buf))
                                    .flatten()
                                    .unwrap_or_else(|| Blob::Owned(buf.clone())),
                            ),
                            Some(Ok(view)) => Some(view),
                            // The file cannot be mapped (the bytes stay in it, and are read
                            // back at the end): no events are read early.
                            Some(Err(_)) => None,
                        };
                        if let Some(head) = head
                            && tx.send(Cut::Head(head)).is_err()
                        {
                            return;
                        }
                        break;
                    }
                    // The first line goes on in the next bytes.
                    None => {
                        target = buf.len() + 1;
                        break;
                    }
                }
            }
            let Some(cut) = look_for_cut(bytes, size, &mut looked) else {
                // No place to cut yet: read on, and look again a piece further.
                target = bytes.len() + piece_bytes;
                continue 'read;
            };
            drop(view);
            let next = at + cut as u64;
            // The rest goes to the file when the next piece is to be kept there.
            let spill_next = full_way && keep.would_move(next, piece_bytes);
            let piece = match spool.as_mut() {
                Some(spooled) => match spooled.cut(cut) {
                    Ok(piece) => piece,
                    Err(back) => {
                        let from = spool.take().map_or(at, |s| s.from());
                        match back {
                            Ok(bytes) => buf = bytes,
                            Err(e) => break 'read Some(spool_lost(name, from, &e)),
                        }
                        continue;
                    }
                },
                None => {
                    let rest = &buf[cut..];
                    let started = spill_next.then(|| Spool::start(keep, next, rest)).flatten();
                    let rest = match started {
                        Some(started) => {
                            spool = Some(started);
                            Vec::new()
                        }
                        None => {
                            let want = room.max(buf.len() - cut + chunk.len());
                            let mut rest = spares.take(want).unwrap_or_default();
                            rest.reserve(want);
                            rest.extend_from_slice(&buf[cut..]);
                            rest
                        }
                    };
                    buf.truncate(cut);
                    Blob::Owned(std::mem::replace(&mut buf, rest))
                }
            };
            let piece = Cut::Piece {
                bytes: piece,
                cut: true,
            };
            at = next;
            if tx.send(piece).is_err() {
                return;
            }
            (size, target, looked) = (piece_bytes, piece_bytes, 0);
        }
    };
    let line_delimited = first_line.said == Some(true);
    if let Some(spooled) = spool {
        // The last piece, or the whole of a file that is not line-delimited.
        let from = spooled.from();
        if spooled.len() > 0 || !line_delimited {
            match spooled.finish() {
                Ok(bytes) => {
                    let _ = tx.send(Cut::Piece {
                        bytes,
                        cut: line_delimited,
                    });
                }
                Err(e) => {
                    let _ = tx.send(Cut::Stopped(spool_lost(name, from, &e)));
                    return;
                }
            }
        }
    } else if !buf.is_empty() || first_line.said.is_none() {
        // The last piece of a line-delimited file, or the whole of one that is not.
        let _ = tx.send(Cut::Piece {
            bytes: Blob::Owned(buf),
            cut: line_delimited,
        });
    }
    if let Some(damage) = damage {
        let _ = tx.send(Cut::Stopped(damage));
    }
}

/// Where the piece whose bytes so far are `bytes` may be cut: the first place past `size` (and
/// past where the last look ended, `looked`) where a new piece may start, among whole lines only
/// (the last one may go on in the next bytes). `None` when there is none yet; `looked` is then
/// where the next look goes on from.
fn look_for_cut(bytes: &[u8], size: usize, looked: &mut usize) -> Option<usize> {
    let whole = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    let from = size.max(*looked).min(whole.saturating_sub(1));
    match next_event_line(&bytes[..whole], from) {
        Some(cut) if cut > 0 => Some(cut),
        _ => {
            *looked = whole.saturating_sub(1);
            None
        }
    }
}

/// Whether a file that comes a little at a time is line-delimited, said once its first line
/// (blank lines aside) has come whole. Each look reads only the bytes that came since the last.
#[derive(Default)]
struct FirstLine {
    /// Where the first byte that is not blank is, once it has come.
    starts: Option<usize>,
    /// How many bytes were looked at.
    looked: usize,
    said: Option<bool>,
}

impl FirstLine {
    fn line_delimited(&mut self, bytes: &[u8]) -> Option<bool> {
        if self.said.is_none() {
            if self.starts.is_none() {
                let new = &bytes[self.looked..];
                self.starts = new
                    .iter()
                    .position(|b| !is_json_ws(*b))
                    .map(|i| self.looked + i);
            }
            if let Some(starts) = self.starts
                && memchr::memchr(b'\n', &bytes[starts.max(self.looked)..]).is_some()
            {
                self.said = Some(crate::source::ndjson::looks_line_delimited(bytes));
            }
            self.looked = bytes.len();
        }
        self.said
    }
}
