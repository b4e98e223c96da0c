//! An envelope that comes as it is read (piped, gzip'd): its first events are read from its head
//! before the rest has come, and the rest once it has, without them. What is handed over in all
//! is what reading the whole file gives: the same events, in order, and the same problems.

use proptest::prelude::*;

use super::*;
use crate::source::dump::envelope::read_envelope_head;
use crate::source::dump::pieces::scan_blob_after_on;

/// What may be put among an envelope's events, or after them.
const ODD_ITEMS: &[&str] = &[
    r#"{"id":"e3","type":"client.join.failed"}"#,
    r#"{"x":1}"#,
    r#"{"id":"bad","data":{,"x":1}}"#,
    "{\"id\":\"c\",\"data\":{\"m\":\"a\u{1}b\"}}",
    "7",
];
const TAILS: &[&str] = &[
    "",
    r#","next":"","total":400"#,
    r#","other":[{"id":"o"}],"next":"""#,
    r#","next":nul"#,
];

/// What the events read give: each kept event's bytes, in order, and how many copies of an id
/// were dropped.
fn events_of(batches: Vec<Batch>) -> (Vec<Vec<u8>>, usize) {
    let read = Read::of(batches, Vec::new());
    (read.events, read.duplicates)
}

/// The head of `bytes` read as it came, then the whole, on from what the head handed over, as
/// [`scan_blob_after`] reads it: on `cores` (how many, in pieces of what size) as a large file
/// is, else on this thread.
fn read_after_head(
    bytes: &[u8],
    head: usize,
    cores: Option<(usize, usize)>,
) -> ((Vec<Vec<u8>>, usize), Vec<ScanError>, bool) {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let head = Arc::new(Blob::Owned(bytes[..head].to_vec()));
    let handed = read_envelope_head(&head, first_of(20, &reading), &mut |b| batches.push(b));
    let early = batches.iter().map(Batch::len).sum::<usize>() > 0;
    let whole = Arc::new(Blob::Owned(bytes.to_vec()));
    let later = first_of(20, &reading).later();
    let mut on_batch = |b| batches.push(b);
    let errors = match handed {
        Some(handed) => scan_blob_after_on(&whole, later, handed, cores, &mut on_batch),
        None => {
            assert!(!early);
            scan_blob(&whole, later, true, &mut on_batch)
        }
    };
    (events_of(batches), errors, early)
}

/// The whole file read at once, the full way.
fn read_whole_file(bytes: &[u8]) -> ((Vec<Vec<u8>>, usize), Vec<ScanError>) {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let whole = Arc::new(Blob::Owned(bytes.to_vec()));
    let errors = scan_blob(&whole, first_of(20, &reading), false, &mut |b| {
        batches.push(b)
    });
    (events_of(batches), errors)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn an_envelope_read_from_its_head_on_gives_what_reading_it_whole_gives(
        count in 0usize..400,
        odd in prop::option::of((0usize..ODD_ITEMS.len(), 0usize..400)),
        tail in 0usize..TAILS.len(),
        layout in prop_oneof![Just("\n"), Just(""), Just(" \r\n  ")],
        head in 0.0f64..1.0,
        cut_short in prop::option::of(0.5f64..1.0),
        cores in prop_oneof![
            Just(Some((2, 4096))),
            Just(Some((3, 1500))),
            Just(Some((1, 1 << 20))),
            Just(None),
        ],
    ) {
        let mut items: Vec<String> = (0..count).map(event).collect();
        if let Some((what, at)) = odd {
            items.insert(at.min(items.len()), ODD_ITEMS[what].to_string());
        }
        let text = format!(
            "{{\"limit\":{},\"events\":[{layout}{}{layout}]{}}}\n",
            items.len(),
            items.join(&format!(",{layout}")),
            TAILS[tail],
        );
        let mut bytes = text.into_bytes();
        if let Some(kept) = cut_short {
            bytes.truncate((bytes.len() as f64 * kept) as usize);
        }
        let head = ((bytes.len() as f64 * head) as usize).max(1);
        let (events, errors, _) = read_after_head(&bytes, head, cores);
        let (want_events, want_errors) = read_whole_file(&bytes);
        prop_assert!(events.0 == want_events.0, "{} events against {}", events.0.len(), want_events.0.len());
        prop_assert_eq!(events.1, want_events.1, "copies dropped");
        prop_assert_eq!(errors, want_errors);
    }
}

#[test]
fn the_first_events_of_a_large_envelope_are_read_from_its_head() {
    let items: Vec<String> = (0..400).map(event).collect();
    let text = format!("{{\"limit\":400,\"events\":[\n{}\n]}}\n", items.join(",\n"));
    let (events, errors, early) = read_after_head(text.as_bytes(), text.len() / 4, Some((2, 4096)));
    assert!(early, "nothing read from the head");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(events.0.len(), 400);
    assert_eq!(events.1, 0, "no event read twice");
}

/// The one envelope whose head's events are not what reading it whole gives: a `type` after its
/// events makes the whole object one event for the full way, which its head cannot tell. The
/// events read from the head stay, the object is read besides, and a problem says so, with how
/// many events were kept; the items the head refused (not events) are said as well.
#[test]
fn an_envelope_with_a_type_after_its_events_keeps_the_events_read_from_its_head() {
    let mut items: Vec<String> = (0..40).map(event).collect();
    items.insert(3, r#"{"x":1}"#.to_string());
    items.insert(6, r#"{"x":2}"#.to_string());
    let array = format!("{{\"limit\":40,\"events\":[\n{}\n]", items.join(",\n"));
    let text = format!("{array},\"type\":\"x\"}}\n");
    let (whole, _) = read_whole_file(text.as_bytes());
    let whole = whole.0;
    assert_eq!(whole.len(), 1, "the full way reads the object as one event");
    let ((events, _), errors, early) =
        read_after_head(text.as_bytes(), text.len() / 2, Some((2, 4096)));
    assert!(early);
    assert_eq!(events.last(), whole.last());
    assert!(events.len() > 6 && events.len() < 40, "{}", events.len());
    // Said, not hidden: the events kept beside the one the whole file reads, and the items
    // refused among them, as reading the envelope without its `type` refuses them.
    let [kept, refused @ ..] = errors.as_slice() else {
        panic!("problems expected: {errors:?}");
    };
    assert_eq!(kept.offset, 0, "{kept:?}");
    assert!(
        kept.message
            .contains(&format!("the {} events read", events.len() - 1)),
        "{kept:?}"
    );
    let (_, without_type) = read_whole_file(format!("{array}}}\n").as_bytes());
    assert_eq!(without_type.len(), 2, "{without_type:?}");
    assert_eq!(refused, without_type.as_slice());
}
