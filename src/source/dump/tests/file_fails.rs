//! A stream's temporary file that fails, and whose bytes cannot be read back: what is said of it
//! is true of what was kept, and hides nothing else that stopped the stream.

use super::*;
use crate::source::dump::keep::{Faults, Keep};
use crate::source::dump::stream::read_stream_keeping;

/// Bytes that come 1000 at a time; the file of `faults` breaks once `breaks_after` of them have
/// come, and then, when the bytes have all come, a read fails when `fails`.
struct Breaking<'a> {
    bytes: &'a [u8],
    came: usize,
    breaks_after: usize,
    faults: &'a Faults,
    fails: bool,
}

impl std::io::Read for Breaking<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.came >= self.breaks_after {
            self.faults
                .broken
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        if self.bytes.is_empty() && self.fails {
            return Err(std::io::Error::other("the pipe broke"));
        }
        let n = out.len().min(self.bytes.len()).min(1000);
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.came += n;
        Ok(n)
    }
}

/// What reading `bytes` as they come gives, in pieces of 8 KiB past none in memory, the file
/// breaking after `breaks_after` bytes, and a read failing at the end when `fails`: the events
/// kept, and the problems.
fn read_breaking(bytes: &[u8], breaks_after: usize, fails: bool) -> (Read, Vec<DumpProblem>) {
    let reading = Reading::start();
    let faults = Arc::new(Faults::default());
    let file = tempfile::tempfile_in(env!("CARGO_MANIFEST_DIR")).unwrap();
    let keep = Keep::in_file_beyond(Some(file), 0).with_faults(Arc::clone(&faults));
    let reader = Breaking {
        bytes,
        came: 0,
        breaks_after,
        faults: &faults,
        fails,
    };
    let mut batches = Vec::new();
    let problems = read_stream_keeping(
        "t",
        reader,
        keep,
        first_of(50, &reading),
        8 << 10,
        &mut |b| batches.push(b),
    );
    (Read::of(batches, Vec::new()), problems)
}

/// The number `message` holds between `before` and `after`.
fn number_in(message: &str, before: &str, after: &str) -> usize {
    let rest = message
        .strip_prefix(before)
        .unwrap_or_else(|| panic!("{message}"));
    let end = rest.find(after).unwrap_or_else(|| panic!("{message}"));
    rest[..end].parse().unwrap_or_else(|_| panic!("{message}"))
}

/// An envelope whose file fails once its head's events were handed over: those are kept, and
/// what is said of the file says so, with how many of the first bytes they were read from; the
/// items the head refused are said as reading the whole file says them.
#[test]
fn an_envelope_whose_file_fails_after_its_head_says_the_heads_events_were_kept() {
    let mut events = generated_lines(300, 17);
    events[3] = r#"{"x":1}"#.to_string();
    let text = format!(
        "{{\"limit\":300,\"events\":[\n{}\n]}}\n",
        events.join(",\n")
    );
    let (whole, whole_problems) =
        read_whole("t", Arc::new(Blob::Owned(text.as_bytes().to_vec())), None);
    assert_eq!(whole_problems.len(), 1, "{whole_problems:?}");
    let (read, problems) = read_breaking(text.as_bytes(), text.len() / 2, false);
    let [lost, refused] = problems.as_slice() else {
        panic!("two problems expected: {problems:?}");
    };
    assert_eq!(refused, &whole_problems[0]);
    let head = number_in(
        &lost.message,
        "the temporary file that held it failed (the disk broke): the events read from its first ",
        " bytes as they came were kept",
    );
    // The events kept are those the head's bytes hold whole (the item refused aside), the first
    // of the file's, in order.
    let ends = events.iter().scan(text.find("\n{").unwrap() + 1, |at, e| {
        let end = *at + e.len();
        *at = end + 2;
        Some(end)
    });
    let whole_in_head = ends.take_while(|&end| end <= head).count();
    assert!(whole_in_head > 4 && head < text.len() / 2, "{head} bytes");
    assert_eq!(read.events, whole.events[..whole_in_head - 1]);
}

/// A stream whose reading fails while its last piece is in the file, which then fails too: both
/// are said, the file's first (it held the bytes before the failure).
#[test]
fn a_file_that_fails_as_the_reading_stops_is_said_beside_what_stopped_it() {
    let lines = generated_lines(600, 13);
    let bytes = lines.join("\n").into_bytes();
    let (read, problems) = read_breaking(&bytes, bytes.len(), true);
    let [lost, stopped] = problems.as_slice() else {
        panic!("two problems expected: {problems:?}");
    };
    let kept = number_in(
        &lost.message,
        "the temporary file that held it failed (the disk broke): the events of its first ",
        " bytes were kept",
    );
    assert_eq!(
        stopped.message,
        format!(
            "reading stopped after {} bytes (the pipe broke); the events before it were kept",
            bytes.len()
        )
    );
    let (before, _) = read_whole("t", Arc::new(Blob::Owned(bytes[..kept].to_vec())), None);
    assert!(kept > 0 && kept < bytes.len(), "{kept} bytes");
    assert_eq!(read.events, before.events);
}
