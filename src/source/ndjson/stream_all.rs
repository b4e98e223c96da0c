//! Every event of a stream (stdin, a pipe, a gzip'd file as it inflates), handed on in stream
//! order as it comes, de-duplicated as the full way does (the first copy of an id wins): what
//! `list` without a filter writes, holding the ids read so far and the pieces being read rather
//! than every event.

use super::aside::Wanted;
use super::direct::Direct;
use super::prefilter::Prefilter;
use super::stream::{Piece, each_piece, give_back, read_fast, read_full};
use crate::filter::{Filter, Plan};
use crate::source::dump::{self, DumpProblem};
use crate::store::{Reading, SeenIds};

/// What [`each_of_stream`] read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Streamed {
    /// The events read, each the first of its id.
    pub events: usize,
    /// The events dropped as later copies of an id read before.
    pub dropped: usize,
}

/// Hands each event of the stream named `name` (its JSON as the full way keeps it) to `each`, in
/// stream order, the first `max` of them when given; stops handing them on at `each`'s first
/// error (the stream is still read, for its problems). Gives what was read (see [`Streamed`]),
/// the problems met as the full way reports them, and `each`'s error.
pub fn each_of_stream(
    name: &str,
    reader: impl std::io::Read + Send,
    max: Option<usize>,
    each: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> (Streamed, Vec<DumpProblem>, std::io::Result<()>) {
    each_in_pieces(name, reader, max, each, dump::PIECE_BYTES)
}

/// [`each_of_stream`], the stream cut in pieces of about `piece_bytes`.
fn each_in_pieces(
    name: &str,
    reader: impl std::io::Read + Send,
    max: Option<usize>,
    mut each: impl FnMut(&[u8]) -> std::io::Result<()>,
    piece_bytes: usize,
) -> (Streamed, Vec<DumpProblem>, std::io::Result<()>) {
    let everything = Filter::default();
    let pre = Prefilter::new(&Plan::new(&everything, |s| Some(s.as_bytes())));
    let direct = Direct::new(&everything);
    let reading = Reading::start();
    let mut seen = SeenIds::default();
    let mut read = Streamed::default();
    let mut left = max.unwrap_or(usize::MAX);
    let mut written = Ok(());
    let mut lines = dump::LineProblems::default();
    let stopped = each_piece(
        name,
        reader,
        piece_bytes,
        |blob, spares| {
            let piece = read_fast(&blob, &pre, &direct, None, Wanted::default())
                .unwrap_or_else(|_| read_full(&blob, &reading, &everything, Wanted::default()));
            // Nothing refers to the piece's bytes any more: the buffer is used again.
            give_back(spares, blob);
            piece
        },
        |mut piece: Piece, _| {
            let fresh = seen.record(&mut piece.ids);
            read.events += fresh.iter().filter(|f| **f).count();
            read.dropped += piece.within + fresh.iter().filter(|f| !**f).count();
            for (&i, &(a, z)) in piece.matched.iter().zip(&piece.spans) {
                if fresh[i] && left > 0 && written.is_ok() {
                    left -= 1;
                    written = each(&piece.answer[a..z]);
                }
            }
            lines.add(piece.read);
        },
    );
    drop(reading);
    let problems = lines.into_problems(name, stopped);
    (read, problems, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_of_a_stream_in_pieces_is_what_the_full_way_loads_with_its_problems() {
        let mut bytes = Vec::new();
        crate::generator::write_ndjson(&mut bytes, 2000, 6).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let mut dump = String::new();
        for (k, line) in text.lines().enumerate() {
            dump.push_str(line);
            dump.push('\n');
            match k % 300 {
                // A copy of an earlier id, an escaped id, an event without one, a damaged line.
                7 => dump.push_str(&format!("{}\n", text.lines().nth(k / 2).unwrap())),
                8 => dump.push_str("{\"id\":\"e\\u0031\",\"type\":\"client.join.failed\"}\n"),
                9 => dump.push_str("  {\"type\":\"client.join.failed\",\"data\":{}}  \n"),
                10 if k > 1000 => dump.push_str("{\"id\":\"cut\",\"data\":{\"room_id\":\n"),
                _ => {}
            }
        }
        let bytes = dump.into_bytes();
        for piece_bytes in [1 << 12, 50_000, 1 << 30] {
            let (full, full_problems) =
                dump::load_stream("d", std::io::Cursor::new(&bytes), piece_bytes);
            assert!(!full_problems.is_empty(), "the dump holds damage");
            let want: Vec<&[u8]> = (0..full.len()).map(|i| full.raw(i)).collect();
            for max in [None, Some(777)] {
                let mut got: Vec<Vec<u8>> = Vec::new();
                let (read, problems, written) = each_in_pieces(
                    "d",
                    std::io::Cursor::new(&bytes),
                    max,
                    |raw| {
                        got.push(raw.to_vec());
                        Ok(())
                    },
                    piece_bytes,
                );
                let n = max.unwrap_or(want.len());
                assert!(written.is_ok());
                assert!(got == want[..n], "{piece_bytes}, {max:?}");
                assert_eq!(problems, full_problems, "{piece_bytes}");
                assert_eq!(read.events, full.events_read(), "{piece_bytes}");
                assert_eq!(read.dropped, full.duplicates(), "{piece_bytes}");
            }
        }
    }
}
