//! The fast path for line-delimited dumps must select exactly what the full path selects: the
//! same events, the same bytes, in the same order, with the same de-duplication. Checked on
//! generated data and on variations the generator never writes (other field orders, escaped
//! values, duplicated ids with other content, blank lines, envelope lines).

use callscope::event::{EventType, Field};
use callscope::filter::Filter;
use callscope::source::Source;
use callscope::store::Store;
use serde_json::Value;

#[path = "fast_path/dumps.rs"]
mod dumps;
use dumps::*;

fn selected(store: &Store, rows: &[u32]) -> Vec<Vec<u8>> {
    rows.iter()
        .map(|&i| store.raw(i as usize).to_vec())
        .collect()
}

/// How many of `copies` (events a store dropped as later copies of an id) `filter` matches,
/// each asked of a store of its own: what every path must count as the matching copies dropped.
fn matching_by_store<'a>(copies: impl Iterator<Item = &'a [u8]>, filter: &Filter) -> usize {
    use callscope::source::dump::{DumpFile, read_file};
    copies
        .filter(|raw| {
            let (batch, problems) = read_file(DumpFile {
                path: "copy".into(),
                blob: std::sync::Arc::new(callscope::store::Blob::Owned(raw.to_vec())),
            });
            assert!(problems.is_empty(), "{problems:?}");
            let mut store = Store::new();
            store.merge(batch);
            !store.filter(filter).is_empty()
        })
        .count()
}

fn filters() -> Vec<Filter> {
    let room = "673a1f2c9e4b8d0a5c7e3f21".to_string();
    vec![
        Filter::default(),
        Filter {
            types: vec![EventType::Join],
            ..Filter::default()
        }
        .with(Field::Room, room.clone()),
        Filter {
            types: vec![EventType::Join, EventType::Publish],
            ..Filter::default()
        },
        Filter {
            terminal: Some(true),
            ..Filter::default()
        }
        .with(Field::Room, room.clone()),
        Filter {
            types: vec![EventType::Connect],
            ..Filter::default()
        }
        .with(Field::Code, (2003).to_string()),
        Filter {
            ..Filter::default()
        }
        .with(Field::Peer, "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863"),
        Filter {
            ..Filter::default()
        }
        .with(Field::Room, "no-such-room"),
        Filter {
            search: Some("galaxy a14".into()),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Disconnected],
            since: Some(bound("2026-11-18T09:30:00Z")),
            until: Some(bound("2026-11-18T11:00:00.5Z")),
            ..Filter::default()
        },
        Filter {
            types: vec![EventType::Other("track.add.success".into())],
            ..Filter::default()
        },
    ]
}

fn assert_same(files: Vec<String>) {
    let source = Source::Files(files);
    let (plain_store, problems) = source.load_offline();
    assert!(problems.is_empty(), "{problems:?}");
    for filter in filters() {
        let plain = selected(&plain_store, &plain_store.filter(&filter));
        let copies = matching_by_store(plain_store.dropped_raws(), &filter);
        let (store, problems, rows, dropped) = source.select_offline(&filter);
        assert!(problems.is_empty());
        assert_eq!(dropped, copies, "copies dropped for {}", filter.describe());
        let fast = selected(&store, &rows);
        assert_eq!(
            fast.len(),
            plain.len(),
            "count differs for {}",
            filter.describe()
        );
        assert!(
            fast == plain,
            "bytes or order differ for {}",
            filter.describe()
        );
        // The selection without a store, for the formats that copy each event's JSON (none when
        // a file is not line-delimited).
        let Some(spans) = source.select_offline_spans(&filter) else {
            continue;
        };
        let copied: Vec<Vec<u8>> = spans.raws().map(<[u8]>::to_vec).collect();
        assert_eq!(spans.dropped(), copies, "{}", filter.describe());
        assert!(
            copied == plain,
            "the span selection differs for {} ({} events against {})",
            filter.describe(),
            copied.len(),
            plain.len()
        );
    }
}

#[test]
fn the_fast_path_equals_the_full_path_on_generated_data() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(&dir, "a.ndjson", &generated(3000, 11));
    assert_same(vec![a]);
}

#[test]
fn the_fast_path_equals_the_full_path_on_other_field_orders_escapes_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(&dir, "a.ndjson", &varied(generated(2500, 3)));
    let b = write(&dir, "b.ndjson", &varied(generated(800, 3)));
    // These files do take the fast path (the comparison would prove nothing otherwise).
    let blobs = [&a, &b]
        .iter()
        .map(|p| {
            let blob = callscope::source::dump::map_plain_file(std::path::Path::new(p));
            std::sync::Arc::new(blob.expect("a plain file"))
        })
        .collect();
    assert!(callscope::source::ndjson::select(blobs, &Filter::default()).is_ok());
    let source = Source::Files(vec![a.clone(), b.clone()]);
    assert!(source.select_offline_spans(&Filter::default()).is_some());
    assert_same(vec![a, b]);
}

#[test]
fn an_envelope_takes_the_fast_path_and_selects_what_the_full_path_selects() {
    let dir = tempfile::tempdir().unwrap();
    let lines = varied(generated(2500, 4));
    for (name, layout) in [
        ("lines.json", "\n"),
        ("one.json", ""),
        ("spaced.json", " \r\n\t"),
    ] {
        let path = write_envelope(&dir, name, &lines, layout);
        let source = Source::Files(vec![path.clone()]);
        assert!(
            source.select_offline_spans(&Filter::default()).is_some(),
            "{name} takes the fast path"
        );
        assert_same(vec![path]);
    }
    // Beside an NDJSON file, in one source: the first copy of an id is the one kept across both.
    let a = write(&dir, "a.ndjson", &varied(generated(800, 4)));
    let b = write_envelope(&dir, "b.json", &lines, "\n");
    assert_same(vec![a.clone(), b.clone()]);
    assert_same(vec![b, a]);
}

/// Envelopes the full way reads otherwise than the fast path would, or reports: each is handed
/// to the full way, with the same events and problems.
#[test]
fn an_envelope_the_fast_path_cannot_read_alike_is_read_the_full_way() {
    let dir = tempfile::tempdir().unwrap();
    let event = |id: &str, room: &str| {
        format!(r#"{{"id":"{id}","type":"client.join.failed","data":{{"room_id":"{room}"}}}}"#)
    };
    let (a, b) = (event("a", "r1"), event("b", "r2"));
    let cut = &b[..b.len() - 3];
    let cases = [
        (
            "a type beside the events",
            format!(r#"{{"type":"x","events":[{a},{b}]}}"#),
            0,
        ),
        (
            "events twice",
            format!(r#"{{"events":[{a}],"events":[{b}]}}"#),
            0,
        ),
        (
            "an element not an object",
            format!(r#"{{"events":[{a},7,{b}]}}"#),
            1,
        ),
        (
            "an event cut short",
            format!("{{\"events\":[\n{a},\n{cut}\n]}}"),
            1,
        ),
        ("a comma too many", format!(r#"{{"events":[{a},{b},]}}"#), 1),
        (
            "a second value after it",
            format!(r#"{{"events":[{a}]}} {{"events":[{b}]}}"#),
            0,
        ),
        (
            "damage after the events",
            format!(r#"{{"events":[{a},{b}],"next":nope}}"#),
            1,
        ),
        (
            "an escaped key",
            format!(r#"{{"ev\u0065nts":[{a},{b}]}}"#),
            0,
        ),
        (
            "the array never closed",
            format!("{{\"events\":[\n{a},\n{b}\n"),
            1,
        ),
    ];
    for (what, text, problems) in cases {
        let path = dir.path().join("odd.json");
        std::fs::write(&path, &text).unwrap();
        let source = Source::Files(vec![path.display().to_string()]);
        let (plain, plain_problems) = source.load_offline();
        assert_eq!(plain_problems.len(), problems, "{what}: {plain_problems:?}");
        for filter in [Filter::default(), Filter::default().with(Field::Room, "r1")] {
            let (store, got_problems, rows, _) = source.select_offline(&filter);
            assert_eq!(got_problems, plain_problems, "{what}");
            assert_eq!(
                selected(&store, &rows),
                selected(&plain, &plain.filter(&filter)),
                "{what}, {}",
                filter.describe()
            );
            if let Some(spans) = source.select_offline_spans(&filter) {
                assert!(
                    plain_problems.is_empty(),
                    "{what}: the damage is left to the full way"
                );
                let got: Vec<Vec<u8>> = spans.raws().map(<[u8]>::to_vec).collect();
                assert_eq!(got, selected(&plain, &plain.filter(&filter)), "{what}");
            }
        }
    }
}

#[test]
fn a_file_with_an_envelope_line_is_read_the_full_way_with_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = generated(300, 5);
    let envelope: Vec<Value> = generated(20, 6)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.insert(
        100,
        serde_json::json!({"limit": 20, "total": 20, "next": "", "events": envelope}).to_string(),
    );
    let a = write(&dir, "a.ndjson", &lines);
    assert_same(vec![a]);
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 96,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Any filter, over every field, negated or not, selects the same events through the fast
    /// path, through the store it fills, through a stream and through the full path, and each
    /// counts the same copies dropped that match.
    #[test]
    fn any_filter_selects_the_same_events_by_every_path(
        picks in proptest::collection::vec((0u8..18, 0u16..1000, 0u8..8), 0..4),
        types in proptest::num::u8::ANY,
        terminal in 0u8..3,
        text in 0u16..1000,
    ) {
        let (dir, sources, pool) = &*PROPERTY_DUMP;
        let _ = dir;
        let filter = filter_of(pool, &picks, types, terminal, text);
        let (plain_store, _) = sources[0].load_offline();
        let plain = selected(&plain_store, &plain_store.filter(&filter));
        let copies = matching_by_store(plain_store.dropped_raws(), &filter);
        // The NDJSON file, and the same events as one envelope, one event a line or all on one.
        for source in sources {
            let (store, problems, rows, dropped) = source.select_offline(&filter);
            proptest::prop_assert!(problems.is_empty());
            proptest::prop_assert!(selected(&store, &rows) == plain, "store path: {}", filter.describe());
            proptest::prop_assert_eq!(dropped, copies, "store path: {}", filter.describe());
            let spans = source.select_offline_spans(&filter).expect("the fast path reads the dump");
            let copied: Vec<Vec<u8>> = spans.raws().map(<[u8]>::to_vec).collect();
            proptest::prop_assert!(copied == plain, "span path: {}", filter.describe());
            proptest::prop_assert_eq!(spans.dropped(), copies, "span path: {}", filter.describe());
            let Source::Files(files) = source else { unreachable!() };
            let bytes = std::fs::read(&files[0]).unwrap();
            let streamed = callscope::source::ndjson::select_stream(
                "d",
                std::io::Cursor::new(bytes),
                &filter,
            );
            proptest::prop_assert_eq!(streamed.3, copies, "stream: {}", filter.describe());
        }
    }
}

/// The dump the property runs on: generated events in the other shapes, written once.
static PROPERTY_DUMP: std::sync::LazyLock<(tempfile::TempDir, Vec<Source>, Pool)> =
    std::sync::LazyLock::new(|| {
        let dir = tempfile::tempdir().unwrap();
        let lines = varied(generated(1500, 21));
        let sources = vec![
            Source::Files(vec![write(&dir, "a.ndjson", &lines)]),
            Source::Files(vec![write_envelope(&dir, "lines.json", &lines, "\n")]),
            Source::Files(vec![write_envelope(&dir, "one.json", &lines, "")]),
        ];
        let pool = Pool::of(&lines);
        (dir, sources, pool)
    });

#[test]
fn a_damaged_line_the_filter_skips_is_reported_as_without_a_filter() {
    let dir = tempfile::tempdir().unwrap();
    let filters = [
        Filter::default().with(Field::Room, "r1"),
        Filter {
            types: vec![EventType::Publish],
            ..Filter::default()
        },
        Filter::default().with(Field::Peer, "p1"),
        Filter {
            search: Some("zzz".into()),
            ..Filter::default()
        },
    ];
    for (what, damage) in damaged_lines() {
        let path = damaged_dump(&dir, &damage);
        let source = Source::Files(vec![path]);
        let (plain, plain_problems) = source.load_offline();
        assert_eq!(plain_problems.len(), 1, "{what}: {plain_problems:?}");
        for filter in &filters {
            let (store, problems, rows, _) = source.select_offline(filter);
            assert_eq!(
                problems,
                plain_problems,
                "{what}, {}: the same problems as the full path",
                filter.describe()
            );
            assert_eq!(store.len(), plain.len(), "{what}: the same events read");
            assert_eq!(
                selected(&store, &rows),
                selected(&plain, &plain.filter(filter)),
                "{what}, {}",
                filter.describe()
            );
            assert!(
                source.select_offline_spans(filter).is_none(),
                "{what}: the copying formats read it the full way too"
            );
        }
    }
}

#[test]
fn list_exits_2_naming_a_damaged_line_that_its_filter_skips() {
    let dir = tempfile::tempdir().unwrap();
    for (what, damage) in damaged_lines() {
        let path = damaged_dump(&dir, &damage);
        let run = |args: &[&str]| {
            assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"))
                .args(["list", &path, "--format", "ndjson"])
                .args(args)
                .output()
                .unwrap()
        };
        let plain = run(&[]);
        assert_eq!(plain.status.code(), Some(2), "{what}");
        for args in [
            &["--room", "r1"][..],
            &["--type", "publish"],
            &["--search", "zzz"],
        ] {
            let filtered = run(args);
            assert_eq!(filtered.status.code(), Some(2), "{what} with {args:?}");
            assert_eq!(
                String::from_utf8_lossy(&filtered.stderr),
                String::from_utf8_lossy(&plain.stderr),
                "{what} with {args:?}: the same messages"
            );
        }
        let stderr = String::from_utf8_lossy(&plain.stderr);
        assert!(stderr.contains("damaged.ndjson:2:"), "{what}: {stderr}");
        let listed = String::from_utf8(run(&["--room", "r1"]).stdout).unwrap();
        let ids: Vec<Value> = listed
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone())
            .collect();
        assert_eq!(ids, ["a", "c"], "{what}: the sound events are still listed");
    }
}

#[test]
fn a_line_that_names_its_id_twice_is_deduplicated_as_the_full_path_does() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        r#"{"id":"b","id":"c","type":"client.join.failed","data":{"room_id":"r2"}}"#.to_string(),
        r#"{"id":"c","type":"client.join.failed","data":{"room_id":"r1"}}"#.to_string(),
        r#"{"id":"d","type":"client.join.failed","data":{"room_id":"r1"}}"#.to_string(),
        r#"{"id":"e","events":[],"type":"client.join.failed","data":{"room_id":"r1"}}"#.to_string(),
        r#"{"id":"f","events":[],"data":{"room_id":"r1"}}"#.to_string(),
    ];
    let path = write(&dir, "twice.ndjson", &lines);
    let source = Source::Files(vec![path]);
    let (plain, problems) = source.load_offline();
    assert!(problems.is_empty());
    for filter in [
        Filter::default(),
        Filter::default().with(Field::Room, "r1"),
        Filter::default().with(Field::Room, "r2"),
    ] {
        let want = selected(&plain, &plain.filter(&filter));
        let (store, _, rows, _) = source.select_offline(&filter);
        assert_eq!(selected(&store, &rows), want, "{}", filter.describe());
        if let Some(spans) = source.select_offline_spans(&filter) {
            let got: Vec<Vec<u8>> = spans.raws().map(<[u8]>::to_vec).collect();
            assert_eq!(got, want, "{}", filter.describe());
        }
    }
}

#[test]
fn a_damaged_later_copy_of_an_id_is_reported_as_without_a_filter() {
    let dir = tempfile::tempdir().unwrap();
    let good =
        r#"{"id":"a","type":"client.join.failed","data":{"room_id":"r1","is_terminal":true}}"#;
    // The same id again, its object cut short after its data: it still ends with a brace.
    let cut = &good[..good.len() - 1];
    let path = write(&dir, "copies.ndjson", &[good.to_string(), cut.to_string()]);
    let source = Source::Files(vec![path]);
    let (_, plain_problems) = source.load_offline();
    assert_eq!(plain_problems.len(), 1, "{plain_problems:?}");
    for filter in [Filter::default(), Filter::default().with(Field::Room, "r1")] {
        let (_, problems, _, _) = source.select_offline(&filter);
        assert_eq!(problems, plain_problems, "{}", filter.describe());
        assert!(source.select_offline_spans(&filter).is_none());
    }
}

/// `list` run on `path` (`-` for stdin, fed `stdin`) with `args`, as NDJSON: its status,
/// stdout and stderr.
fn list(path: &str, stdin: &[u8], args: &[&str]) -> (Option<i32>, String, String) {
    dumps::list(path, stdin, &[&["--format", "ndjson"], args].concat())
}

#[test]
fn list_on_stdin_and_on_a_gzip_file_selects_what_it_selects_on_the_file() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let lines = varied(generated(2000, 8));
    let path = write(&dir, "a.ndjson", &lines);
    let bytes = std::fs::read(&path).unwrap();
    let gz_path = dir.path().join("a.ndjson.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    std::fs::write(&gz_path, gz.finish().unwrap()).unwrap();
    let gz_path = gz_path.display().to_string();
    // A room given by its name, where its id is wanted: nothing is listed, and the note that
    // says the room's id is said of a stream as of the file.
    let name = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|e| Some(e["data"]["room_name"].as_str()?.to_string()))
        .unwrap();
    let shouted = name.to_ascii_uppercase();
    for args in [
        &[][..],
        &["--type", "join", "--room", "673a1f2c9e4b8d0a5c7e3f21"],
        &["--search", "TIMEOUT"],
        &["--peer", "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863"],
        &["--room", &name],
        &["--type", "join", "--room", &shouted],
        // Ranges of time, one that misses every event: the time they span is told.
        &["--type", "join", "--since", "2026-11-18T10:00:00Z"],
        &["--since", "2099-01-01T00:00:00Z"],
    ] {
        let on_file = list(&path, b"", args);
        assert_eq!(on_file.0, Some(0), "{args:?}: {}", on_file.2);
        if args.iter().any(|a| a.eq_ignore_ascii_case(&name)) {
            assert!(on_file.1.is_empty(), "{args:?}");
            assert!(on_file.2.contains("has the id"), "{args:?}: {}", on_file.2);
        }
        if args.contains(&"2099-01-01T00:00:00Z") {
            assert!(on_file.1.is_empty(), "{args:?}");
            assert!(
                on_file.2.contains("the events read span"),
                "{args:?}: {}",
                on_file.2
            );
        }
        assert_eq!(list("-", &bytes, args), on_file, "stdin, {args:?}");
        assert_eq!(list(&gz_path, b"", args), on_file, "gzip, {args:?}");
    }
}

#[test]
fn a_damaged_stdin_is_reported_as_the_full_way_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    for (what, damage) in damaged_lines() {
        let path = damaged_dump(&dir, &damage);
        let bytes = std::fs::read(&path).unwrap();
        // The events that are read count, whether they match or not.
        for filter in [&["--room", "r1"][..], &["--search", "zzz"]] {
            // The same file, damaged, is read the full way, holding every event; a bound in
            // time that every event is within changes nothing.
            let bounded = [filter, &["--since", "2000-01-01T00:00:00Z"]].concat();
            for args in [filter, &bounded] {
                let mut full = list(&path, b"", args);
                full.2 = full.2.replace(&path, "<stdin>");
                assert_eq!(full.0, Some(2), "{what}");
                assert!(full.2.contains("<stdin>:2:"), "{what}: {}", full.2);
                assert!(full.2.contains("readable event"), "{what}: {}", full.2);
                assert_eq!(list("-", &bytes, args), full, "{what}, {args:?}");
            }
        }
    }
}

/// Without a filter, stdin is written as it comes rather than held: the same events, the same
/// problems and the same count of readable events as the full way (which reads the same file,
/// damaged).
#[test]
fn every_event_of_a_damaged_stdin_is_written_as_the_full_way_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    for (what, damage) in damaged_lines() {
        let path = damaged_dump(&dir, &damage);
        let bytes = std::fs::read(&path).unwrap();
        for args in [&[][..], &["--max", "1"]] {
            let mut full = list(&path, b"", args);
            full.2 = full.2.replace(&path, "<stdin>");
            assert_eq!(full.0, Some(2), "{what}");
            assert!(full.2.contains("<stdin>:2:"), "{what}: {}", full.2);
            assert!(
                full.2.contains("readable events were used"),
                "{what}: {}",
                full.2
            );
            assert_eq!(list("-", &bytes, args), full, "{what}, {args:?}");
        }
    }
}

/// `line` with a field of the API's given a value of another type: `is_terminal` a string, the
/// timestamp a number, the code a string, the agent's sdk a number, the room id a list, or the
/// agent a string.
fn with_odd_field(line: &str, which: u8) -> String {
    let mut v: Value = serde_json::from_str(line).unwrap();
    let data = v["data"].as_object_mut().unwrap();
    match which % 6 {
        0 => drop(data.insert("is_terminal".into(), Value::from("true"))),
        1 => drop(
            v.as_object_mut()
                .unwrap()
                .insert("timestamp".into(), 1763460000.into()),
        ),
        2 => drop(data.insert("error_code".into(), Value::from("4005"))),
        3 => drop(data.insert("agent".into(), serde_json::json!({"sdk": 7}))),
        4 => drop(data.insert("room_id".into(), serde_json::json!(["r"]))),
        _ => drop(data.insert("agent".into(), Value::from("web"))),
    }
    serde_json::to_string(&v).unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 24,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Every way of reading the same events counts alike the events holding a field of another
    /// type than the API's: the first copy of each id only, as the store keeps it.
    #[test]
    fn every_reading_counts_the_same_fields_of_another_type(
        picks in proptest::collection::vec((0usize..120, 0u8..6, proptest::bool::ANY), 0..12),
    ) {
        let mut lines = generated(120, 5);
        let original = lines.clone();
        let mut odd = std::collections::BTreeSet::new();
        let mut later = Vec::new();
        for &(i, which, copy) in &picks {
            lines[i] = with_odd_field(&original[i], which);
            odd.insert(i);
            if copy {
                // A later copy of an odd event, as it was; and an odd later copy of another.
                later.push(original[i].clone());
                later.push(with_odd_field(&original[(i + 1) % 120], which));
            }
        }
        lines.extend(later);
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).unwrap();
        let half = lines.len() / 2;
        std::fs::write(folder.join("a.ndjson"), lines[..half].join("\n")).unwrap();
        std::fs::write(folder.join("b.ndjson"), lines[half..].join("\n")).unwrap();
        let gz = dir.path().join("events.ndjson.gz");
        let mut encoder = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::fast(),
        );
        std::io::Write::write_all(&mut encoder, lines.join("\n").as_bytes()).unwrap();
        encoder.finish().unwrap();
        let paths = [
            write(&dir, "events.ndjson", &lines),
            write_envelope(&dir, "lines.json", &lines, "\n"),
            write_envelope(&dir, "one.json", &lines, ""),
            gz.display().to_string(),
            folder.display().to_string(),
        ];
        for path in paths.clone() {
            let source = Source::Files(vec![path.clone()]);
            let (store, problems) = source.load_offline();
            proptest::prop_assert!(problems.is_empty(), "{problems:?}");
            proptest::prop_assert_eq!(store.odd_fields().events, odd.len(), "{}", path);
            let (store, _, _, _) = source.select_offline(&Filter::default());
            proptest::prop_assert_eq!(store.odd_fields().events, odd.len(), "selected: {}", path);
            // The events' JSON chosen without a store: every event read without a filter; with
            // one, the same candidates as the store of the selection holds.
            if let Some(spans) = source.select_offline_spans(&Filter::default()) {
                proptest::prop_assert_eq!(spans.odd().events, odd.len(), "spans: {}", path);
            }
            // Final joins: the candidates are every join, more than the answer.
            let joins = Filter {
                types: vec![EventType::Join],
                terminal: Some(true),
                ..Filter::default()
            };
            let (store, _, _, _) = source.select_offline(&joins);
            // The gzip'd stream, selected in pieces, reads the candidates the file does.
            if path.ends_with(".gz") {
                let file = Source::Files(vec![paths[0].clone()]);
                let (of_file, _, _, _) = file.select_offline(&joins);
                proptest::prop_assert_eq!(
                    store.odd_fields().events,
                    of_file.odd_fields().events,
                    "joins of the stream"
                );
            }
            if let Some(spans) = source.select_offline_spans(&joins) {
                proptest::prop_assert_eq!(
                    spans.odd().events,
                    store.odd_fields().events,
                    "spans of joins: {}",
                    path
                );
            }
        }
        // Pages of the live API come as objects, read into batches one page at a time.
        let mut store = Store::new();
        for page in lines.chunks(50) {
            store.merge(callscope::store::Batch::of_objects(page).unwrap());
        }
        proptest::prop_assert_eq!(store.odd_fields().events, odd.len(), "pages");
    }
}
