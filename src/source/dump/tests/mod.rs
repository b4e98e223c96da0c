//! Tests of reading dumps. The fixtures and helpers the themes share are here; each module below
//! holds the tests of one theme.

use std::io::Write;

use super::pieces::{Batcher, Batches, next_event_line, read_pieces};
use super::scan::scan_lines;
use super::*;

/// The batches of a test's read, on the spares of `reading`: the first of at most `first`
/// events.
fn first_of(first: usize, reading: &Reading) -> Batches<'_> {
    Batches { reading, first }
}

/// An event whose strings hold what a cut looks for, and brackets (the envelope tests').
pub(in crate::source::dump) fn event(k: usize) -> String {
    let tricky = [r#"},{\"id\":\"x\"},{"#, r#"]}"#, r#"\\"#, r#"},{"#, "plain"];
    format!(
        r#"{{"id":"e{k}","type":"client.join.failed","timestamp":"2026-11-18T08:00:{:02}Z","data":{{"room_id":"r{}","message":"{}"}}}}"#,
        k % 60,
        k % 7,
        tricky[k % tricky.len()]
    )
}

/// A file on a disk, unlinked, for a stream's pieces (the temporary folder may be a tmpfs, which
/// is not used).
fn on_disk() -> std::fs::File {
    tempfile::tempfile_in(env!("CARGO_MANIFEST_DIR")).unwrap()
}

/// A reader with nothing to give, that calls its function when read: what is so when a stream
/// read before it ends.
struct Watch<F>(F);

impl<F: FnMut()> std::io::Read for Watch<F> {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        (self.0)();
        Ok(0)
    }
}

/// Bytes that come `step` at a time, as from a pipe, each read first interrupted by a signal
/// when told to, and then fail when told to.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
    interrupt: bool,
    interrupted: bool,
    fail: bool,
}

impl<'a> Trickle<'a> {
    fn new(bytes: &'a [u8], fail: bool) -> Trickle<'a> {
        Trickle {
            bytes,
            step: 1000,
            interrupt: false,
            interrupted: false,
            fail,
        }
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.interrupt && !self.interrupted {
            self.interrupted = true;
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        self.interrupted = false;
        if self.bytes.is_empty() && self.fail {
            return Err(std::io::Error::other("the pipe broke"));
        }
        let n = out.len().min(self.bytes.len()).min(self.step);
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

use crate::generator::ndjson_lines as generated_lines;
use crate::store::Store;

mod damage;
mod file_fails;
mod head;
mod inputs;
mod pieces;
mod spill;
mod streaming;

const PUBLISH: &str = include_str!("../../../../tests/fixtures/publish.json");
const SUBSCRIBE: &str = include_str!("../../../../tests/fixtures/subscribe.json");
const PAGE1: &str = include_str!("../../../../tests/fixtures/page1.json");
const PAGE2: &str = include_str!("../../../../tests/fixtures/page2.json");
const QUIRKS: &str = include_str!("../../../../tests/fixtures/quirks.ndjson");

/// What reading `bytes` as a dump named `t.json` gives: the events' ids in order (duplicates
/// dropped as the store drops them) and the problems.
fn read(bytes: &[u8]) -> (Vec<String>, Vec<DumpProblem>) {
    read_named("t.json", bytes)
}

fn read_named(path: &str, bytes: &[u8]) -> (Vec<String>, Vec<DumpProblem>) {
    let (batch, problems) = read_file(DumpFile {
        path: path.to_string(),
        blob: Arc::new(Blob::Owned(bytes.to_vec())),
    });
    let mut store = Store::new();
    store.merge(batch);
    let ids = (0..store.len())
        .map(|i| store.event(i).id().unwrap_or("?").to_string())
        .collect();
    (ids, problems)
}

/// What reading the file at `path` gives, as every command reads one: how many events (before
/// de-duplication), and the problems.
fn read_path(path: &Path) -> (usize, Vec<DumpProblem>) {
    let mut events = 0;
    let reading = Reading::start();
    let holding = Holding::FirstPiece;
    let problems = read_path_in_batches(path, &reading, 2000, holding, &mut |batch| {
        events += batch.len()
    });
    (events, problems)
}

/// The events of a fixture as compact JSON lines, and their ids.
fn events_of(envelope: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(envelope).unwrap();
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.to_string())
        .collect()
}

const S1: &str = "8d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f";
const P2: &str = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
const S2: &str = "1f2a3b4c-5d6e-4f7a-9b0c-1d2e3f4a5b6c";
const J2: &str = "2a3b4c5d-6e7f-4a8b-8c9d-2e3f4a5b6c7d";
const Q1: &str = "4c5d6e7f-8a9b-4c0d-8e1f-4a5b6c7d8e9f";
const Q2: &str = "5d6e7f8a-9b0c-4d1e-9f2a-5b6c7d8e9f0a";

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// What reading a line-delimited blob gave: how many batches, the first one's size, the events
/// kept in order (merged into a store), the copies dropped, the problems.
struct Read {
    batches: usize,
    first_batch: usize,
    events: Vec<Vec<u8>>,
    duplicates: usize,
    errors: Vec<ScanError>,
}

impl Read {
    fn of(batches: Vec<Batch>, errors: Vec<ScanError>) -> Read {
        let (count, first_batch) = (batches.len(), batches.first().map_or(0, Batch::len));
        let mut store = Store::new();
        for b in batches {
            store.merge(b);
        }
        Read {
            batches: count,
            first_batch,
            events: (0..store.len()).map(|i| store.raw(i).to_vec()).collect(),
            duplicates: store.duplicates(),
            errors,
        }
    }
}

/// What reading the bytes of a file named `path`, whole, on one thread, gives, with its
/// problems (`problem` first, as decompressing it found).
fn read_whole(
    path: &str,
    blob: Arc<Blob>,
    problem: Option<DumpProblem>,
) -> (Read, Vec<DumpProblem>) {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let file = DumpFile {
        path: path.into(),
        blob,
    };
    let read = super::read(file, first_of(2000, &reading), false, &mut |b| {
        batches.push(b)
    });
    let problems = problem.into_iter().chain(read).collect();
    (Read::of(batches, Vec::new()), problems)
}
