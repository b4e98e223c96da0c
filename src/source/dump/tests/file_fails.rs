//! A stream's temporary file that fails, and whose bytes cannot be read back: what is said of it
//! is true of what was kept, and hides nothing else that stopped the stream.

use std::io::Read as _;

use super::*;
use crate::source::dump::keep::{Faults, Keep};
use crate::source::dump::stream::read_stream_keeping;

/// What reading `bytes` as they come gives, in pieces of 8 KiB past none in memory, the file
/// breaking after `breaks_after` bytes, and a read failing at the end when `fails`: the events
/// kept, and the problems.
fn read_breaking(bytes: &[u8], breaks_after: usize, fails: bool) -> (Read, Vec<DumpProblem>) {
    let reading = Reading::start();
    let faults = Arc::new(Faults::default());
    let keep = Keep::in_file_beyond(Some(on_disk()), 0).with_faults(Arc::clone(&faults));
    // The file breaks once `breaks_after` bytes have come, before the next are read.
    let (before, after) = bytes.split_at(breaks_after);
    let breaks = Watch(|| {
        faults
            .broken
            .store(true, std::sync::atomic::Ordering::SeqCst)
    });
    let reader = Trickle::new(before, false)
        .chain(breaks)
        .chain(Trickle::new(after, fails));
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

/// An envelope of 300 events, one a line, `odd` items put in place of some; and where each item
/// ends in it.
fn envelope_with(odd: &[(usize, &str)]) -> (String, Vec<usize>) {
    let mut items = generated_lines(300, 17);
    for &(at, item) in odd {
        items[at] = item.to_string();
    }
    let text = format!("{{\"limit\":300,\"events\":[\n{}\n]}}\n", items.join(",\n"));
    let ends = items
        .iter()
        .scan(text.find("\n{").unwrap() + 1, |at, item| {
            let end = *at + item.len();
            *at = end + 2;
            Some(end)
        })
        .collect();
    (text, ends)
}

/// What is said of an envelope whose file failed once its head's first `events` were read, from
/// its first `through` bytes.
fn lost_after_the_head(events: usize, through: usize) -> String {
    format!(
        "the temporary file that held it failed (the disk broke): the {events} events read from \
         its first {through} bytes as they came were kept"
    )
}

/// What is said of the file of the envelope `text` (its items ending at `ends`, the fourth not an
/// event) when it fails after `breaks_after` bytes came, once its head was read: the events of
/// the head's items read whole are kept, and said so, with how many and from how many bytes; the
/// items the head refused are said as reading the whole file says them.
fn fails_after_the_head(text: &str, ends: &[usize], breaks_after: usize) {
    let (read, problems) = read_breaking(text.as_bytes(), breaks_after, false);
    kept_by_the_head(text, ends, &read, &problems, &[]);
}

/// Checks that `problems`, what reading the envelope `text` (its items ending at `ends`, the
/// fourth not an event) gave once its file failed after its head was read, are what is said of
/// the file (the events of the head's items read whole kept, with how many and from how many
/// bytes), then `stopped` (what stopped the reading besides), then the items the head refused, as
/// reading the whole file says them; and that the events `read` kept are the head's.
fn kept_by_the_head(
    text: &str,
    ends: &[usize],
    read: &Read,
    problems: &[DumpProblem],
    stopped: &[DumpProblem],
) {
    let (whole, whole_problems) =
        read_whole("t", Arc::new(Blob::Owned(text.as_bytes().to_vec())), None);
    assert_eq!(whole_problems.len(), 1, "{whole_problems:?}");
    let Some(lost) = problems.first() else {
        panic!("problems expected");
    };
    let events = number_in(
        &lost.message,
        "the temporary file that held it failed (the disk broke): the ",
        " events",
    );
    let through = number_in(
        &lost.message,
        &format!(
            "the temporary file that held it failed (the disk broke): the {events} events read \
             from its first "
        ),
        " bytes",
    );
    let lost = problem("t", None, lost_after_the_head(events, through));
    let want: Vec<_> = std::iter::once(lost)
        .chain(stopped.iter().cloned())
        .chain(whole_problems)
        .collect();
    assert_eq!(problems, want);
    // Read from the head: the first items of the file, whole, one of them refused.
    let items = ends.iter().position(|&end| end == through).map(|k| k + 1);
    assert_eq!(items, Some(events + 1), "{through} bytes");
    assert!(events > 4 && through < text.len() / 2, "{events} events");
    assert_eq!(read.events, whole.events[..events]);
}

/// An envelope whose file fails once its head's events were handed over, while the rest comes.
#[test]
fn an_envelope_whose_file_fails_after_its_head_says_the_heads_events_were_kept() {
    let (text, ends) = envelope_with(&[(3, r#"{"x":1}"#)]);
    fails_after_the_head(&text, &ends, text.len() / 2);
}

/// An envelope whose file fails once it has all come, as its whole is mapped: the same is said.
#[test]
fn an_envelope_whose_file_fails_at_its_end_says_the_heads_events_were_kept() {
    let (text, ends) = envelope_with(&[(3, r#"{"x":1}"#)]);
    fails_after_the_head(&text, &ends, text.len());
}

/// An envelope whose reading fails once it has all come (a pipe that breaks), whose file then
/// fails as its whole is mapped: both are said, and what stopped the reading claims no more kept
/// than the head's events, which what is said of the file counts.
#[test]
fn an_envelope_whose_file_fails_as_its_reading_stops_says_only_the_heads_events_were_kept() {
    let (text, ends) = envelope_with(&[(3, r#"{"x":1}"#)]);
    let (read, problems) = read_breaking(text.as_bytes(), text.len(), true);
    let stopped = format!(
        "reading stopped after {} bytes (the pipe broke)",
        text.len()
    );
    let stopped = problem("t", None, stopped);
    kept_by_the_head(&text, &ends, &read, &problems, &[stopped]);
}

/// A gzip'd envelope cut short in its last bytes (the check after its data), whose file fails
/// once every byte of it is decompressed: the damage is said beside the file, and claims no more
/// read than the head's events, which what is said of the file counts.
#[test]
fn a_cut_short_gzip_envelope_whose_file_fails_says_only_the_heads_events_were_kept() {
    let (text, ends) = envelope_with(&[(3, r#"{"x":1}"#)]);
    let whole = gzip(text.as_bytes());
    let gz = &whole[..whole.len() - 4];
    let mut decompressed = Vec::new();
    let cut = flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut decompressed);
    let e = cut.expect_err("a gzip stream cut short");
    assert_eq!(decompressed, text.as_bytes());
    let (read, problems) = read_breaking(gz, gz.len(), false);
    let damage = format!(
        "the gzip data is damaged or cut short ({e}) after {} bytes decompressed",
        text.len()
    );
    let damage = problem("t", None, damage);
    kept_by_the_head(&text, &ends, &read, &problems, &[damage]);
}

/// An envelope damaged within its head, whose file then fails: what is said of it counts only the
/// events read before the damage, which is said where reading the whole file says it.
#[test]
fn an_envelope_damaged_in_its_head_whose_file_fails_says_the_damage() {
    let (text, ends) = envelope_with(&[(3, r#"{"x":1}"#), (5, r#"{"id":"bad","data":{,"x":1}}"#)]);
    let (whole, whole_problems) =
        read_whole("t", Arc::new(Blob::Owned(text.as_bytes().to_vec())), None);
    let damage = problem(
        "t",
        Some((7, 21)),
        "invalid JSON: key must be a string".into(),
    );
    assert_eq!(whole_problems.get(1), Some(&damage), "{whole_problems:?}");
    assert_eq!(whole.events.len(), 4);
    let (read, problems) = read_breaking(text.as_bytes(), text.len() / 2, false);
    let lost = problem("t", None, lost_after_the_head(4, ends[4]));
    let want: Vec<_> = std::iter::once(lost).chain(whole_problems).collect();
    assert_eq!(problems, want);
    assert_eq!(read.events, whole.events);
}

/// An envelope whose head's reading stops at an item that is not an object, damaged further on,
/// whose file then fails: the events before that item are said kept, and the damage past it,
/// which did not stop that reading, is not said.
#[test]
fn an_envelope_whose_head_stops_at_an_item_not_an_object_says_no_damage_past_it() {
    let (text, ends) = envelope_with(&[(3, "7"), (6, r#"{"id":"bad","data":{,"x":1}}"#)]);
    let (whole, _) = read_whole("t", Arc::new(Blob::Owned(text.as_bytes().to_vec())), None);
    let (read, problems) = read_breaking(text.as_bytes(), text.len() / 2, false);
    let lost = problem("t", None, lost_after_the_head(3, ends[2]));
    assert_eq!(problems, [lost]);
    assert_eq!(read.events, whole.events[..3]);
}

/// An envelope whose head is not read early (it holds binary data), whose file then fails: none of
/// its events is said kept.
#[test]
fn an_envelope_whose_head_was_not_read_says_none_of_its_events_were_kept() {
    let (text, _) = envelope_with(&[(2, "{\"id\":\"n\",\"data\":{\"m\":\"a\u{0}b\"}}")]);
    let (read, problems) = read_breaking(text.as_bytes(), text.len() / 2, false);
    let none = "the temporary file that held it failed (the disk broke): none of its events could \
                be read";
    assert_eq!(problems, [problem("t", None, none.into())]);
    assert!(read.events.is_empty());
}

/// A stream whose reading fails while its last piece is in the file, which then fails too: both
/// are said, the file's first (it held the bytes before the failure), and what stopped the
/// reading claims no more kept than what is said of the file counts.
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
    // The events before it were not all kept: what is said of the file counts those that were.
    assert_eq!(
        stopped.message,
        format!(
            "reading stopped after {} bytes (the pipe broke)",
            bytes.len()
        )
    );
    let (before, _) = read_whole("t", Arc::new(Blob::Owned(bytes[..kept].to_vec())), None);
    assert!(kept > 0 && kept < bytes.len(), "{kept} bytes");
    assert_eq!(read.events, before.events);
}
