//! The pieces of a stream written to the temporary file as their bytes come, and mapped from it
//! once cut, are the pieces the same stream cut in memory gives: the same bytes, cut at the same
//! places, whatever size the reads come in and wherever what stays in memory ends.

use proptest::prelude::*;

use super::*;
use crate::source::dump::keep::{Faults, Keep};
use crate::source::dump::stream::{
    Cut, Cutting, Spares, cut_in_pieces, read_stream_keeping, spool_lost,
};

/// A stream's bytes, coming `step` at a time.
struct Steps<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Steps<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(self.bytes.len()).min(self.step);
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// One piece as handed over: its bytes, whether it was cut (else it is the whole file, after
/// its head or not), and whether it is mapped from the file; or what stopped the stream.
#[derive(Debug, PartialEq)]
enum Got {
    Piece {
        bytes: Vec<u8>,
        cut: bool,
        after_head: bool,
        mapped: bool,
    },
    Stopped(DumpProblem),
    Head(Vec<u8>),
}

/// What `cut_in_pieces` hands over for `bytes` read `step` at a time, keeping them as `keep`
/// says, the pieces after the first written to its file as they come for the full way.
fn cut(bytes: &[u8], step: usize, piece_bytes: usize, keep: &Keep, full_way: bool) -> Vec<Got> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let spares = Spares::default();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let reader = Steps { bytes, step };
            let cutting = Cutting {
                name: "t",
                failed: |name, e, _, _| problem(name, None, e.to_string()),
                piece_bytes,
                spares: &spares,
                keep,
                full_way,
            };
            cut_in_pieces(cutting, reader, &tx);
            drop(tx);
        });
        rx.into_iter()
            .map(|got| match got {
                Cut::Piece(bytes) => Got::Piece {
                    mapped: matches!(bytes, Blob::Mapped(_)),
                    bytes: bytes.to_vec(),
                    cut: true,
                    after_head: false,
                },
                Cut::Whole { bytes, after_head } => Got::Piece {
                    mapped: matches!(bytes, Blob::Mapped(_)),
                    bytes: bytes.to_vec(),
                    cut: false,
                    after_head,
                },
                Cut::Stopped(p) => Got::Stopped(p),
                Cut::Lost { from, error } => Got::Stopped(spool_lost("t", from, &error)),
                Cut::Head(bytes) => Got::Head(bytes.to_vec()),
            })
            .collect()
    })
}

/// Lines of a dump as they come: events, blank lines, events written over several lines,
/// damaged lines (some ending as an event does), text that is no JSON.
fn line() -> impl Strategy<Value = String> {
    let events = generated_lines(40, 21);
    prop_oneof![
        6 => (0..events.len()).prop_map(move |i| events[i].clone()),
        1 => Just(String::new()),
        1 => (0u64..1000).prop_map(|seed| {
            let event: serde_json::Value =
                serde_json::from_str(&generated_lines(1, seed)[0]).unwrap();
            serde_json::to_string_pretty(&event).unwrap()
        }),
        1 => Just("{\"id\": broken}".to_string()),
        1 => Just("not json at all".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn pieces_spilled_to_the_file_as_they_come_are_the_pieces_cut_in_memory(
        lines in prop::collection::vec(line(), 0..120),
        step in prop_oneof![1usize..64, 64usize..5000, Just(64 << 10)],
        piece_bytes in 300usize..6000,
        kept in 0.0f64..1.2,
    ) {
        let bytes = lines.join("\n").into_bytes();
        let in_memory = (bytes.len() as f64 * kept) as u64;
        // The plain way: every piece in memory.
        let in_memory_only = cut(&bytes, step, piece_bytes, &Keep::in_a_temporary_file_beyond(u64::MAX), false);
        // No file can be made: the pieces stay in memory.
        let no_file = cut(&bytes, step, piece_bytes, &Keep::in_file_beyond(None, 0), true);
        let without_head = |got: Vec<Got>| -> Vec<Got> {
            got.into_iter().filter(|g| !matches!(g, Got::Head(_))).collect()
        };
        prop_assert_eq!(without_head(no_file), without_head(cut(&bytes, step, piece_bytes, &Keep::in_a_temporary_file_beyond(u64::MAX), false)));
        let keep = Keep::in_file_beyond(Some(on_disk()), in_memory);
        let spilled = cut(&bytes, step, piece_bytes, &keep, true);
        // Each piece's length and whether it was cut, then its bytes.
        let plain = |got: &[Got]| -> (Vec<(usize, bool)>, Vec<Vec<u8>>) {
            got.iter()
                .filter_map(|g| match g {
                    Got::Piece { bytes, cut, .. } => Some(((bytes.len(), *cut), bytes.clone())),
                    Got::Stopped(_) | Got::Head(_) => None,
                })
                .unzip()
        };
        let (spilled_pieces, spilled_bytes) = plain(&spilled);
        let (pieces, bytes_of_pieces) = plain(&in_memory_only);
        prop_assert_eq!(spilled_pieces, pieces);
        prop_assert!(spilled_bytes == bytes_of_pieces, "the pieces' bytes differ");
        let all_in_memory = in_memory_only.iter().all(|g| matches!(g, Got::Piece { mapped: false, .. }));
        prop_assert!(all_in_memory);
        // Past what stays in memory, every piece but the first is read from the file: a piece
        // that starts `at` bytes in goes there when it would end past it.
        let mut at = 0u64;
        for (k, got) in spilled.iter().enumerate() {
            // (A head comes only before the whole of a file that is not cut.)
            let Got::Piece { bytes: piece, cut, mapped, .. } = got else { continue };
            if *cut {
                let past = at + piece_bytes as u64 > in_memory;
                prop_assert_eq!(*mapped, k > 0 && past, "piece {} at {} of {} bytes", k, at, piece.len());
            } else {
                // The whole file, not line-delimited (or not yet told to be): in the file only
                // past what stays in memory.
                prop_assert!(!*mapped || piece.len() as u64 > in_memory);
            }
            at += piece.len() as u64;
        }
        // Read, they give what the file read whole in memory gives.
        let reading = Reading::start();
        let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(bytes.clone())), None);
        let mut batches = Vec::new();
        let keep = Keep::in_file_beyond(Some(on_disk()), in_memory);
        let problems = read_stream_keeping(
            "t",
            Steps { bytes: &bytes, step },
            keep,
            first_of(50, &reading),
            piece_bytes,
            &mut |b| batches.push(b),
        );
        prop_assert_eq!(problems, whole_problems);
        prop_assert_eq!(Read::of(batches, Vec::new()).events, whole.events);
    }
}

/// A file that is not line-delimited goes over whole once it has all come, mapped from the file
/// then; only an envelope's is mapped before, for its head to be read while the rest comes, and
/// only the whole of an envelope says it comes after its head.
#[test]
fn a_whole_file_is_mapped_early_only_for_an_envelopes_head() {
    let events = generated_lines(200, 3).join(",\n");
    let array = format!("[\n{events}\n]\n");
    let envelope = format!("{{\"events\":[\n{events}\n]}}\n");
    for (text, envelope) in [(array, false), (envelope, true)] {
        let faults = Arc::new(Faults::default());
        let keep = Keep::in_file_beyond(Some(on_disk()), 0).with_faults(Arc::clone(&faults));
        let got = cut(text.as_bytes(), 1000, 8 << 10, &keep, true);
        let heads = got.iter().filter(|g| matches!(g, Got::Head(_))).count();
        assert_eq!(heads, usize::from(envelope), "{got:?}");
        let Some(Got::Piece {
            bytes,
            cut: false,
            after_head,
            mapped: true,
        }) = got.last()
        else {
            panic!("not the whole file, mapped: {got:?}");
        };
        assert!(bytes == text.as_bytes());
        assert_eq!(*after_head, envelope);
        // The whole, and an envelope's head before it.
        let maps = faults.maps.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(maps, 1 + usize::from(envelope));
    }
}
