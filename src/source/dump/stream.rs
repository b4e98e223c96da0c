//! Dumps read as their bytes come: stdin, pipes, and gzip'd files as they decompress. A thread
//! cuts the bytes into pieces between events while the loader reads each piece on every core as
//! it comes. What is not to be held in memory (see [`Holding`]) is kept in a temporary file,
//! mapped.

use std::io::Read;
use std::sync::Arc;

use super::envelope::read_envelope_head;
use super::keep::Keep;
use super::pieces::{Batches, scan_blob, scan_blob_after};
use super::{DumpProblem, Holding, is_gzip, problem};
use crate::store::{Batch, Blob};
use head_sync::HeadRead;

mod cut;
mod head_sync;
mod lines;
mod problems;

use cut::Failed;
pub(super) use cut::KeptBefore;
pub(in crate::source) use cut::{Cut, Spares};
pub(super) use cut::{Cutting, cut_in_pieces};
use problems::{HandedOver, HeadKept};
pub(in crate::source) use problems::{LineProblems, PieceRead, spool_lost};

/// What is said when reading a stream fails after `read` bytes: that the events before it were
/// kept, when they all were.
fn read_failure(name: &str, e: &std::io::Error, read: u64, kept: KeptBefore) -> DumpProblem {
    let stopped = format!("reading stopped after {read} bytes ({e})");
    let msg = match kept {
        KeptBefore::All => format!("{stopped}; the events before it were kept"),
        KeptBefore::Part => stopped,
    };
    problem(name, None, msg)
}

/// What is said when a stream's gzip data is damaged after `decompressed` bytes: that the bytes
/// decompressed before it were read, when they all were.
pub(super) fn gzip_damage(
    name: &str,
    e: &std::io::Error,
    decompressed: u64,
    kept: KeptBefore,
) -> DumpProblem {
    let msg = match kept {
        KeptBefore::All => format!(
            "the gzip data is damaged or cut short ({e}); the {decompressed} bytes decompressed \
             before it were read"
        ),
        KeptBefore::Part => format!(
            "the gzip data is damaged or cut short ({e}) after {decompressed} bytes decompressed"
        ),
    };
    problem(name, None, msg)
}

/// What stopped a gzip'd stream: its data, or the reading of it (a pipe that fails).
fn gzip_stopped(
    name: &str,
    e: &std::io::Error,
    decompressed: u64,
    kept: KeptBefore,
) -> DumpProblem {
    use std::io::ErrorKind::{InvalidData, InvalidInput, UnexpectedEof};
    if matches!(e.kind(), InvalidData | InvalidInput | UnexpectedEof) {
        gzip_damage(name, e, decompressed, kept)
    } else {
        read_failure(name, e, decompressed, kept)
    }
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
/// comes last, after the pieces read before it: damaged gzip data or a failing pipe
/// ([`Cut::Stopped`]), the temporary file lost ([`Cut::Lost`]), or both, the file's first (what
/// is said of it counts the events kept).
///
/// A piece's buffer given back to `spares` once read is used again for a later piece: a new one
/// would have every page of it faulted in afresh.
pub(in crate::source) fn with_pieces<R>(
    name: &str,
    reader: impl Read + Send,
    piece_bytes: usize,
    spares: &Spares,
    take: impl FnOnce(&mut (dyn Iterator<Item = Cut> + Send)) -> R,
) -> R {
    let (bytes, failed) = match as_they_come(name, reader) {
        Ok(coming) => coming,
        Err(stopped) => return take(&mut std::iter::once(Cut::Stopped(stopped))),
    };
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    // A stream that cannot be cut (an envelope) is held whole until it has all come: past a
    // piece's size, in a temporary file rather than in memory.
    let keep = &Keep::in_a_temporary_file_beyond(piece_bytes as u64);
    std::thread::scope(|scope| {
        let cutting = Cutting {
            name,
            failed,
            piece_bytes,
            spares,
            keep,
            full_way: false,
        };
        scope.spawn(move || cut_in_pieces(cutting, bytes, &tx));
        take(&mut rx.into_iter())
    })
}

/// The bytes of the stream `reader` as they come, inflated when they are gzip'd (told by their
/// first two bytes), and what is said when reading them fails; what is said when even those two
/// bytes cannot be read.
fn as_they_come<'r>(
    name: &str,
    mut reader: impl Read + Send + 'r,
) -> Result<(Box<dyn Read + Send + 'r>, Failed), DumpProblem> {
    let head =
        read_head(&mut reader).map_err(|(e, at)| read_failure(name, &e, at, KeptBefore::All))?;
    let gzip = is_gzip(&head);
    let bytes = std::io::Cursor::new(head).chain(reader);
    Ok(match gzip {
        true => (
            Box::new(flate2::read::MultiGzDecoder::new(bytes)),
            gzip_stopped,
        ),
        false => (Box::new(bytes), read_failure),
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
    reader: impl Read + Send,
    keep: Keep,
    batches: Batches,
    piece_bytes: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    match as_they_come(name, reader) {
        Ok((bytes, failed)) => {
            read_pieces_as_they_come(name, bytes, failed, keep, batches, piece_bytes, on_batch)
        }
        Err(stopped) => vec![stopped],
    }
}

/// [`read_stream_in_batches`] once the bytes are known to be gzip or not; `failed` names what
/// stopped the reader. The pieces are read on every core as they come, and their batches handed
/// over in file order.
fn read_pieces_as_they_come(
    name: &str,
    reader: impl Read + Send,
    failed: Failed,
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
        let cutting = Cutting {
            name,
            failed,
            piece_bytes,
            spares,
            keep,
            full_way: true,
        };
        scope.spawn(move || cut_in_pieces(cutting, reader, &tx));
        let mut stopped = Vec::new();
        let mut problems = LineProblems::default();
        // What the reading of an envelope's head kept: said when the whole never comes (its
        // temporary file lost), whose reading would say it all.
        let mut kept_by_head: Option<HeadKept> = None;
        crate::source::ordered::in_order_from(
            rx.into_iter(),
            crate::source::ordered::threads(),
            |k, message, send| {
                // Whether the piece is the whole file, and came after its head.
                let (bytes, whole) = match message {
                    Cut::Piece(bytes) => (bytes, None),
                    Cut::Whole { bytes, after_head } => (bytes, Some(after_head)),
                    Cut::Head(bytes) => {
                        let mut done = head.done();
                        let blob = Arc::new(bytes);
                        let handed = read_envelope_head(&blob, batches, &mut |batch| {
                            send(Sent::Batch(Box::new(batch)))
                        });
                        let read = handed.as_ref().map(HandedOver::of);
                        // The whole's reading, which waits for it, goes on at once.
                        done.set(handed);
                        drop(done);
                        if let Some(read) = read {
                            send(Sent::Head(HeadKept::of(&blob, read)));
                        }
                        return;
                    }
                    Cut::Stopped(p) => return send(Sent::Stopped(p)),
                    Cut::Lost { from, error } => return send(Sent::Lost { from, error }),
                };
                let batches = if k == 0 { batches } else { batches.later() };
                // Past what stays in memory, the piece was written to the file as it came, and
                // is mapped from it.
                let blob = Arc::new(bytes);
                blob.prepare(0, blob.len());
                let mut send_batch = |batch| send(Sent::Batch(Box::new(batch)));
                // A file that came whole (an envelope) is read on every core, as if mapped;
                // after its head, on from what that handed over.
                let found = match whole {
                    Some(true) => match head.wait() {
                        Some(handed) => scan_blob_after(&blob, batches, handed, &mut send_batch),
                        None => scan_blob(&blob, batches, true, &mut send_batch),
                    },
                    Some(false) => scan_blob(&blob, batches, true, &mut send_batch),
                    None => scan_blob(&blob, batches, false, &mut send_batch),
                };
                send(Sent::Piece(PieceRead::of(&blob, found)));
            },
            |read| match read {
                Sent::Batch(batch) => on_batch(*batch),
                Sent::Head(kept) => kept_by_head = Some(kept),
                Sent::Piece(piece) => {
                    // The whole file came, and its reading says everything.
                    kept_by_head = None;
                    problems.add(piece);
                }
                Sent::Stopped(p) => stopped.push(p),
                // An envelope's whole, lost from its start: what is said counts what its head's
                // reading kept.
                Sent::Lost { from, error } => stopped.push(match &kept_by_head {
                    Some(kept) if from == 0 => kept.lost(name, &error),
                    _ => spool_lost(name, from, &error),
                }),
            },
        );
        if let Some(kept) = kept_by_head {
            problems.add(kept.read());
        }
        problems.into_problems(name, stopped)
    })
}

/// What the reading of one piece of a stream hands over, in order.
enum Sent {
    Batch(Box<Batch>),
    /// Sent after an envelope's head's batches: what they kept.
    Head(HeadKept),
    /// Sent after the piece's batches.
    Piece(PieceRead),
    Stopped(DumpProblem),
    /// See [`Cut::Lost`].
    Lost {
        from: u64,
        error: std::io::Error,
    },
}
