//! The cutting of a stream's bytes into pieces between events, as they come, on a thread of its
//! own: what [`cut_in_pieces`] hands over, and where it holds the bytes meanwhile.

use std::io::Read;
use std::sync::mpsc::SyncSender;

use super::lines::{FirstLine, look_for_cut};
use crate::source::dump::DumpProblem;
use crate::source::dump::keep::{Keep, Spool};
use crate::store::Blob;

/// What the reading thread of [`read_stream_in_batches`](super::read_stream_in_batches) hands
/// over.
pub(in crate::source) enum Cut {
    /// The next piece of a line-delimited file, cut between events. Past what stays in memory,
    /// it is mapped from a temporary file (see [`Spool`]).
    Piece(Blob),
    /// The whole file, which is not line-delimited or ended before its first line did: its one
    /// piece, kept as a piece is. `after_head` when its head ([`Cut::Head`]) was handed over
    /// before it.
    Whole { bytes: Blob, after_head: bool },
    /// The first bytes of a file that is one envelope, handed over before the rest has come so
    /// that its first events show at once; the whole file follows (a [`Cut::Whole`] after its
    /// head), unless reading stops first. Only for the full way's reading
    /// ([`read_stream_in_batches`](super::read_stream_in_batches)).
    Head(Blob),
    /// Reading stopped (damaged gzip data, a failing pipe) past what was handed over. After a
    /// [`Cut::Lost`], it claims no events kept: what is said of that counts those that were.
    Stopped(DumpProblem),
    /// The bytes from `from` on went to the temporary file, which failed (`error`), and could
    /// not be read back: nothing from there on is handed over. What is said of it is the
    /// reader's to write, which knows what it kept (an envelope's head, read as it came).
    Lost { from: u64, error: std::io::Error },
}

/// What is said when reading a stream fails, after how many bytes, and which of the events
/// before it were kept.
pub(super) type Failed = fn(&str, &std::io::Error, u64, KeptBefore) -> DumpProblem;

/// Which of the events before a failure to read a stream were kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::source::dump) enum KeptBefore {
    /// Every one.
    All,
    /// Those before the bytes lost with the temporary file ([`Cut::Lost`]): what is said of
    /// that counts them.
    Part,
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

/// The size of a stream's first piece, at most: what the first screen waits for.
const FIRST_PIECE_BYTES: usize = 4 << 20;

/// How many bytes each read of the stream asks for.
const CHUNK_BYTES: usize = 64 * 1024;

/// How a stream is cut, and where its pieces are kept: see [`cut_in_pieces`].
pub(in crate::source::dump) struct Cutting<'a> {
    /// The stream's name, for its problems.
    pub(in crate::source::dump) name: &'a str,
    /// What is said when reading the stream fails, after how many bytes.
    pub(in crate::source::dump) failed: Failed,
    /// The size of a piece after the first, about.
    pub(in crate::source::dump) piece_bytes: usize,
    /// Buffers to fill, given back by the pieces read before.
    pub(in crate::source::dump) spares: &'a Spares,
    /// Where the bytes past what stays in memory go.
    pub(in crate::source::dump) keep: &'a Keep,
    /// Whether the pieces are for the full way's reading ([`read_stream_in_batches`](
    /// super::read_stream_in_batches)).
    pub(in crate::source::dump) full_way: bool,
}

/// Reads every byte, handing them over in pieces cut between events (the first of about
/// [`FIRST_PIECE_BYTES`], the others of about `piece_bytes`); a file that is not
/// line-delimited goes over whole, held in `keep`'s file past what it keeps in memory (see
/// [`Spool`]). For the full way (`full_way`), so are the pieces after the first, each written to
/// the file as its bytes come and mapped from it once cut (what is in flight is then the page
/// cache's, not callscope's memory), and the first bytes of an envelope are handed over at once
/// ([`Cut::Head`]) besides. Stops at the first failure to read (damage, for gzip), and when the
/// file fails and what it held cannot be read back ([`Cut::Lost`]), after handing over what came
/// before; the bytes it held are said lost even when the reading failed too, and the failure then
/// claims no more kept than what is said of them counts.
pub(in crate::source::dump) fn cut_in_pieces(
    cutting: Cutting<'_>,
    mut reader: impl Read,
    tx: &SyncSender<Cut>,
) {
    debug_assert!(cutting.piece_bytes > 0);
    let mut cutter = Cutter::new(cutting, tx);
    let mut chunk = vec![0u8; CHUNK_BYTES];
    let mut read = 0u64;
    let stopped = loop {
        match reader.read(&mut chunk) {
            Ok(0) => break None,
            Ok(n) => {
                read += n as u64;
                if let Err(lost) = cutter.add(&chunk[..n]) {
                    break Some(Ended::Lost(lost));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Some(Ended::Failed(e, read)),
        }
        match cutter.hand_over_pieces() {
            Ok(()) => {}
            Err(Stop::Lost(lost)) => break Some(Ended::Lost(lost)),
            Err(Stop::Gone) => return,
        }
    };
    cutter.finish(stopped);
}

/// What ended a stream's cutting before its bytes did.
enum Ended {
    /// The temporary file failed, and its bytes could not be read back: the [`Cut::Lost`] that
    /// says so.
    Lost(Cut),
    /// Reading failed, after how many bytes: said once whether the last piece was lost is known.
    Failed(std::io::Error, u64),
}

/// Why the cutting stops before the stream's end.
enum Stop {
    /// The temporary file failed, and its bytes could not be read back: the [`Cut::Lost`] that
    /// says so.
    Lost(Cut),
    /// Nothing takes the pieces any more.
    Gone,
}

/// The state of [`cut_in_pieces`]: the bytes of the piece being cut, and where they are.
struct Cutter<'a> {
    cutting: Cutting<'a>,
    tx: &'a SyncSender<Cut>,
    /// How many bytes each piece's buffer is made to hold from the start: grown a doubling at a
    /// time, it would be copied over and over, and its new pages faulted in each time.
    room: usize,
    /// The bytes from `at` on while they are in memory (empty while they go to the file).
    buf: Vec<u8>,
    /// The bytes from `at` on, once they go to the file: the whole of a file that is not
    /// line-delimited, or the piece being cut.
    spool: Option<Spool<'a>>,
    /// Where the next piece starts in the file.
    at: u64,
    /// Whether the file can be cut into pieces: told by its first line, once that is whole.
    first_line: FirstLine,
    /// How long the bytes must be before a cut is looked for (the first piece is smaller: it
    /// shows first, and it stays in memory), how long before the next look, and where the last
    /// look ended (a look goes on from there, rather than over the same lines again).
    size: usize,
    target: usize,
    looked: usize,
    /// Whether an envelope's first bytes were handed over as its head.
    head: bool,
}

impl<'a> Cutter<'a> {
    fn new(cutting: Cutting<'a>, tx: &'a SyncSender<Cut>) -> Cutter<'a> {
        let room = cutting.piece_bytes.min(64 << 20) + 2 * CHUNK_BYTES;
        let size = cutting.piece_bytes.min(FIRST_PIECE_BYTES);
        Cutter {
            cutting,
            tx,
            room,
            buf: Vec::with_capacity(room),
            spool: None,
            at: 0,
            first_line: FirstLine::default(),
            size,
            target: size,
            looked: 0,
            head: false,
        }
    }

    /// Hands `cut` over; `Stop::Gone` when nothing takes it any more.
    fn send(&self, cut: Cut) -> Result<(), Stop> {
        self.tx.send(cut).map_err(|_| Stop::Gone)
    }

    /// Adds the next bytes that came, to the file or in memory. When the file fails, what went to
    /// it comes back into memory, and the rest stays there; the [`Cut::Lost`] when it cannot.
    fn add(&mut self, bytes: &[u8]) -> Result<(), Cut> {
        match self.spool.as_mut().map(|spooled| spooled.add(bytes)) {
            None => self.buf.extend_from_slice(bytes),
            Some(Ok(())) => {}
            Some(Err(back)) => {
                self.fall_back_to_memory(back)?;
                self.buf.extend_from_slice(bytes);
            }
        }
        Ok(())
    }

    /// Once the file failed: the spool is dropped, and the bytes it held, read `back`, are in
    /// memory again. The [`Cut::Lost`] when they could not be read back.
    fn fall_back_to_memory(&mut self, back: std::io::Result<Vec<u8>>) -> Result<(), Cut> {
        let from = self.spool.take().map_or(self.at, |s| s.from());
        match back {
            Ok(bytes) => {
                self.buf = bytes;
                Ok(())
            }
            Err(error) => Err(Cut::Lost { from, error }),
        }
    }

    /// Sends the bytes from the file's start on to the file when they are to go there.
    fn spool_from_the_start(&mut self) {
        if self.spool.is_none() && self.cutting.keep.would_move(0, self.buf.len()) {
            self.spool = Spool::start(self.cutting.keep, 0, &self.buf);
            if self.spool.is_some() {
                self.buf = Vec::new();
            }
        }
    }

    /// Hands over as many pieces as the bytes so far hold.
    fn hand_over_pieces(&mut self) -> Result<(), Stop> {
        if self.first_line.said == Some(false) {
            self.spool_from_the_start();
            return Ok(());
        }
        while self.spool.as_ref().map_or(self.buf.len(), Spool::len) >= self.target {
            // The piece so far, to look through: in memory, or mapped from the file. A piece
            // goes to the file only once the file is known to be line-delimited.
            let view = match self.spool.as_ref().map(Spool::view) {
                None => None,
                Some(Ok(view)) => Some(view),
                Some(Err(back)) => {
                    self.fall_back_to_memory(back).map_err(Stop::Lost)?;
                    None
                }
            };
            let bytes: &[u8] = view.as_deref().unwrap_or(&self.buf);
            if view.is_none() {
                match self.first_line.line_delimited(bytes) {
                    Some(true) => {}
                    Some(false) => return self.whole_file_follows(),
                    // The first line goes on in the next bytes.
                    None => {
                        self.target = self.buf.len() + 1;
                        return Ok(());
                    }
                }
            }
            let Some(cut) = look_for_cut(bytes, self.size, &mut self.looked) else {
                // No place to cut yet: read on, and look again a piece further.
                self.target = bytes.len() + self.cutting.piece_bytes;
                return Ok(());
            };
            drop(view);
            self.cut_at(cut)?;
        }
        Ok(())
    }

    /// Once the file is known not to be line-delimited: it goes over whole once it has all come,
    /// to the file past what stays in memory, and an envelope's head is handed over now.
    fn whole_file_follows(&mut self) -> Result<(), Stop> {
        self.target = usize::MAX;
        let envelope = self.cutting.full_way
            && crate::source::ndjson::envelope::events_array(&self.buf).is_some();
        self.spool_from_the_start();
        if envelope && let Some(head) = self.head_of_envelope() {
            self.send(Cut::Head(head))?;
            self.head = true;
        }
        Ok(())
    }

    /// An envelope's first bytes, for its first events to be read while the rest comes: mapped
    /// from the file when the bytes went there, or a copy of them there when the rest will go
    /// there too (else in memory). `None` when the file cannot be mapped (the bytes stay in it,
    /// and are read back at the end): no events are read early.
    fn head_of_envelope(&self) -> Option<Blob> {
        let keep = self.cutting.keep;
        match &self.spool {
            None => Some(
                keep.would_move(0, 2 * self.cutting.piece_bytes)
                    .then(|| keep.copy_to_file(0, &self.buf))
                    .flatten()
                    .unwrap_or_else(|| Blob::Owned(self.buf.clone())),
            ),
            Some(spooled) => spooled.view().ok(),
        }
    }

    /// Hands over the piece of the bytes so far that ends at `cut`; the rest starts the next,
    /// which goes to the file when it is to be kept there. When the file fails as the piece is
    /// mapped, nothing is handed over: the bytes are in memory again, to be cut there.
    fn cut_at(&mut self, cut: usize) -> Result<(), Stop> {
        let next = self.at + cut as u64;
        let piece = match self.spool.as_mut() {
            Some(spooled) => match spooled.cut(cut) {
                Ok(piece) => piece,
                Err(back) => return self.fall_back_to_memory(back).map_err(Stop::Lost),
            },
            None => self.cut_in_memory(cut, next),
        };
        self.at = next;
        self.send(Cut::Piece(piece))?;
        let piece_bytes = self.cutting.piece_bytes;
        (self.size, self.target, self.looked) = (piece_bytes, piece_bytes, 0);
        Ok(())
    }

    /// The piece of the bytes in memory that ends at `cut`; the rest, which starts `next` bytes
    /// into the stream, goes to the file when the next piece is to be kept there (for the full
    /// way), else to a buffer of its own.
    fn cut_in_memory(&mut self, cut: usize, next: u64) -> Blob {
        let Cutting {
            keep, piece_bytes, ..
        } = self.cutting;
        let spill_next = self.cutting.full_way && keep.would_move(next, piece_bytes);
        let rest = &self.buf[cut..];
        let rest = match spill_next.then(|| Spool::start(keep, next, rest)).flatten() {
            Some(started) => {
                self.spool = Some(started);
                Vec::new()
            }
            None => {
                let want = self.room.max(rest.len() + CHUNK_BYTES);
                let mut buffer = self.cutting.spares.take(want).unwrap_or_default();
                buffer.reserve(want);
                buffer.extend_from_slice(rest);
                buffer
            }
        };
        self.buf.truncate(cut);
        Blob::Owned(std::mem::replace(&mut self.buf, rest))
    }

    /// Hands over what is left once the stream has ended: the last piece, or the whole of a file
    /// that is not line-delimited; then what `stopped` the stream, if anything.
    fn finish(mut self, stopped: Option<Ended>) {
        let lost = match self.last_piece() {
            Some(Ok(last)) => match self.send(last) {
                Ok(()) => None,
                Err(_) => return,
            },
            Some(Err(lost)) => Some(lost),
            None => None,
        };
        let stopped = stopped.map(|ended| match ended {
            Ended::Lost(lost) => lost,
            Ended::Failed(e, read) => {
                let kept = match lost {
                    None => KeptBefore::All,
                    Some(_) => KeptBefore::Part,
                };
                Cut::Stopped((self.cutting.failed)(self.cutting.name, &e, read, kept))
            }
        });
        // Both said when the file failed as the reading stopped: neither hides the other.
        for stop in lost.into_iter().chain(stopped) {
            if self.send(stop).is_err() {
                return;
            }
        }
    }

    /// The last piece, or the whole of a file that is not line-delimited, once the stream has
    /// ended; the [`Cut::Lost`] when it was in the file, which failed, and could not be read back.
    fn last_piece(&mut self) -> Option<Result<Cut, Cut>> {
        let line_delimited = self.first_line.said == Some(true);
        let bytes = match self.spool.take() {
            Some(spooled) if spooled.len() > 0 || !line_delimited => {
                let from = spooled.from();
                match spooled.finish() {
                    Ok(bytes) => bytes,
                    Err(error) => return Some(Err(Cut::Lost { from, error })),
                }
            }
            None if !self.buf.is_empty() || self.first_line.said.is_none() => {
                Blob::Owned(std::mem::take(&mut self.buf))
            }
            Some(_) | None => return None,
        };
        Some(Ok(match line_delimited {
            true => Cut::Piece(bytes),
            false => Cut::Whole {
                bytes,
                after_head: self.head,
            },
        }))
    }
}
