//! What each fuzz target checks of one input, shared by the cargo-fuzz targets (`fuzz_targets/`)
//! and by `tests/fuzz_corpus.rs`, which runs every check over the seed corpora on the stable
//! toolchain in `cargo test`. A check panics when what it holds for is broken.

use std::sync::Arc;

use callscope::event::{Event, EventType, Field};
use callscope::filter::Filter;
use callscope::source::dump::{self, DumpFile};
use callscope::source::ndjson;
use callscope::store::{Blob, Store};

/// The dump reader: any bytes read without a panic; every problem is at a place in the input or
/// names none, and every event kept re-reads as an event.
pub fn dump_reader(data: &[u8]) {
    let (store, problems) = plain(data);
    for p in &problems {
        if let Some((line, column)) = p.position {
            assert!(line >= 1 && column >= 1, "{p}");
        }
    }
    for i in 0..store.len() {
        assert!(
            Event::parse(store.raw(i)).is_ok(),
            "a kept event does not read again: {:?}",
            String::from_utf8_lossy(store.raw(i))
        );
    }
}

/// The events of `data` read the full way, and its problems.
fn plain(data: &[u8]) -> (Store, Vec<callscope::source::DumpProblem>) {
    let (batch, problems) = dump::read_file(DumpFile {
        path: "fuzz.ndjson".into(),
        blob: Arc::new(Blob::Owned(data.to_vec())),
    });
    let mut store = Store::new();
    store.merge(batch);
    (store, problems)
}

/// The filters the differential target tries: none, and each kind the fast path prefilters by
/// bytes (types, the ids, the search), some with values the input holds.
fn filters(data: &[u8]) -> Vec<Filter> {
    let mut filters = vec![
        Filter::default(),
        Filter {
            types: vec![EventType::Join],
            ..Filter::default()
        },
        Filter::default().with(Field::Room, "r1"),
        Filter::default().with(Field::Peer, "p1"),
        Filter {
            search: Some("a".into()),
            ..Filter::default()
        },
        Filter {
            terminal: Some(true),
            ..Filter::default()
        },
    ];
    // A room, peer and type of an event of the input, when one reads.
    if let Some(event) = data
        .split(|&b| b == b'\n')
        .find_map(|line| Event::parse(line).ok())
    {
        let kind = event.event_type();
        filters.push(Filter {
            types: vec![kind],
            ..Filter::default()
        });
        for field in [Field::Room, Field::Peer, Field::User, Field::Session] {
            if let Some(v) = event.data_str(field.json_name()) {
                filters.push(Filter::default().with(field, v));
            }
        }
    }
    filters
}

/// The NDJSON fast path against the full path: whenever the fast path reads a dump (rather than
/// hand it over), the full path finds no problem in it, and both select the same events, the
/// same bytes in the same order, for every filter tried.
pub fn ndjson_differential(data: &[u8]) {
    if data.starts_with(&[0xEF, 0xBB, 0xBF]) || !ndjson::looks_line_delimited(data) {
        return;
    }
    let blob = Arc::new(Blob::Owned(data.to_vec()));
    let (full, problems) = plain(data);
    for filter in filters(data) {
        let fast = ndjson::select(vec![Arc::clone(&blob)], &filter);
        let spans = ndjson::select_spans(vec![Arc::clone(&blob)], &filter);
        let want: Vec<&[u8]> = full
            .filter(&filter)
            .iter()
            .map(|&i| full.raw(i as usize))
            .collect();
        if let Ok((store, rows, _)) = &fast {
            assert!(
                problems.is_empty(),
                "the fast path read a dump the full path finds damaged ({}): {problems:?}",
                filter.describe()
            );
            let got: Vec<&[u8]> = rows.iter().map(|&i| store.raw(i as usize)).collect();
            assert_eq!(got, want, "{}", filter.describe());
        }
        if let Ok(spans) = &spans {
            assert!(problems.is_empty(), "{problems:?}");
            let got: Vec<&[u8]> = spans.raws().collect();
            assert_eq!(got, want, "spans, {}", filter.describe());
        }
    }
}

/// The event model: an object that parses as an event reads its fields without a panic, and the
/// store reads the same id and type from it.
pub fn event_model(data: &[u8]) {
    let Ok(event) = Event::parse(data) else {
        return;
    };
    let _ = (event.version(), event.timestamp(), event.error_code());
    let _ = (event.is_terminal(), event.agent_pairs());
    let _ = (event.unknown_fields(), event.unknown_data_fields());
    let _ = event.unknown_agent_fields();
    let kind = event.event_type();
    assert_eq!(EventType::from_name(kind.name()), kind);
    let (store, problems) = plain(data);
    // (An envelope reads as an event too, with its events inside.)
    if problems.is_empty() && store.len() == 1 && store.raw(0) == data.trim_ascii() {
        let stored = store.event(0);
        assert_eq!(stored.id(), event.id());
        assert_eq!(stored.type_name(), event.type_name());
    }
}

/// The parsers of filter values: a type (name or alias), a time (RFC 3339, or a duration back
/// from now), and a live page. None panics; a type read gives its own name back; a time read as
/// text and as bytes is the same instant, and reads again from how it is written.
pub fn filter_parsers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(kind) = EventType::from_arg(&text) {
        assert_eq!(EventType::from_arg(kind.name()), Ok(kind));
    }
    let _ = callscope::time::parse_duration_nanos(&text);
    let _ = callscope::time::parse_time_bound(&text, 1_763_460_000_000_000_000);
    let nanos = callscope::time::parse_rfc3339_nanos_bytes(data);
    if let Ok(s) = std::str::from_utf8(data) {
        assert_eq!(callscope::time::parse_rfc3339_nanos(s), nanos);
    }
    if let Some(ns) = nanos {
        let written = callscope::time::format_nanos(ns);
        assert_eq!(
            callscope::time::parse_rfc3339_nanos(&written),
            Some(ns),
            "{written}"
        );
    }
    let _ = callscope::source::api::parse_page(data.to_vec());
}
