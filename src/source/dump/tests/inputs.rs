//! What a dump may be: envelopes, arrays and NDJSON of events, several values in a row, gzip
//! however named or cut, byte order marks, folders and missing files.

use super::*;

const P1: &str = "5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70";

#[test]
fn a_compact_envelope_gives_its_events() {
    assert_eq!(read(SUBSCRIBE.as_bytes()), (vec![S1.to_string()], vec![]));
}

#[test]
fn a_pretty_printed_envelope_gives_its_events_with_their_exact_bytes() {
    let (batch, problems) = read_file(DumpFile {
        path: "publish.json".into(),
        blob: Arc::new(Blob::Owned(PUBLISH.as_bytes().to_vec())),
    });
    assert!(problems.is_empty(), "{problems:?}");
    let mut store = Store::new();
    store.merge(batch);
    assert_eq!(store.len(), 1);
    let raw = std::str::from_utf8(store.raw(0)).unwrap();
    assert!(raw.starts_with("{\n      \"version\": \"2.0\""), "{raw}");
    assert!(raw.ends_with("}\n      }\n    }"), "{raw}");
    assert!(PUBLISH.contains(raw));
    let v: serde_json::Value = serde_json::from_str(PUBLISH).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(raw).unwrap(),
        v["events"][0]
    );
}

#[test]
fn an_envelope_with_unknown_fields_and_several_types_gives_every_event() {
    assert_eq!(
        read(PAGE1.as_bytes()),
        (vec![P2.to_string(), S2.to_string()], vec![])
    );
}

#[test]
fn an_array_of_envelopes_gives_every_event_deduplicated() {
    let text = format!("[{PAGE1},\n{PAGE2}]");
    let (ids, problems) = read(text.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(ids, [P2, S2, J2]);
}

#[test]
fn an_array_of_events_gives_every_event() {
    let events = events_of(PAGE1);
    let text = format!("[\n  {},\n  {}\n]\n", events[0], events[1]);
    assert_eq!(
        read(text.as_bytes()),
        (vec![P2.to_string(), S2.to_string()], vec![])
    );
    assert_eq!(read(b"[]"), (vec![], vec![]));
}

#[test]
fn ndjson_of_events_gives_every_line() {
    let (ids, problems) = read(QUIRKS.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(ids, [Q1, Q2]);
    let crlf = QUIRKS.replace('\n', "\r\n");
    assert_eq!(read(crlf.as_bytes()).0, [Q1, Q2]);
    let without_last_newline = QUIRKS.trim_end();
    assert_eq!(read(without_last_newline.as_bytes()).0, [Q1, Q2]);
    let blank_lines = QUIRKS.replace('\n', "\n\n  \n");
    assert_eq!(read(blank_lines.as_bytes()).0, [Q1, Q2]);
}

#[test]
fn ndjson_of_envelopes_gives_every_event() {
    let compact = |s: &str| {
        serde_json::from_str::<serde_json::Value>(s)
            .unwrap()
            .to_string()
    };
    let text = format!(
        "{}\n{}\n{}\n",
        compact(PAGE1),
        compact(PAGE2),
        compact(PUBLISH)
    );
    let (ids, problems) = read(text.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(ids, [P2, S2, J2, P1]);
}

#[test]
fn several_values_in_a_row_are_all_read() {
    let events = events_of(PAGE2);
    let text = format!(
        "{PAGE1}{}{}[{}]  {SUBSCRIBE}",
        events[1], events[0], events[1]
    );
    let (ids, problems) = read(text.as_bytes());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(ids, [P2, S2, J2, S1]);
}

#[test]
fn an_object_with_events_and_a_type_is_an_event() {
    let text = r#"{"id":"ev","type":"recording.success","events":[{"id":"inner"}]}"#;
    assert_eq!(read(text.as_bytes()).0, ["ev"]);
    // Neither an envelope (its events are no array) nor an event (no id, type, timestamp or
    // data): a problem, not an event made up.
    let not_an_array = r#"{"limit":0,"total":0,"next":"","events":{"id":"inner"}}"#;
    let (ids, problems) = read(not_an_array.as_bytes());
    assert!(ids.is_empty(), "{ids:?}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .message
            .starts_with("\"events\" is an object, not an array"),
        "{problems:?}"
    );
}

#[test]
fn an_envelope_whose_events_are_no_array_is_said_to_be_so() {
    for (text, found) in [
        (r#"{"events":"nope"}"#, "a string"),
        (r#"{"events":null}"#, "null"),
        (r#"{"events":3}"#, "a number"),
    ] {
        let (ids, problems) = read(text.as_bytes());
        assert!(ids.is_empty(), "{text}: {ids:?}");
        assert_eq!(problems.len(), 1, "{text}: {problems:?}");
        assert!(
            problems[0]
                .message
                .starts_with(&format!("\"events\" is {found}, not an array: an envelope")),
            "{text}: {problems:?}"
        );
        assert_eq!(problems[0].position, Some((1, 1)), "{text}");
    }
    // An event that happens to hold an "events" field of its own is still an event.
    let (ids, problems) = read(br#"{"id":"ev","events":"x"}"#);
    assert_eq!((ids, problems.len()), (vec!["ev".to_string()], 0));
}

#[test]
fn an_object_with_no_id_type_timestamp_or_data_is_a_problem_not_an_event() {
    for text in [
        "{\"code\":401,\"message\":\"Unauthorized\"}",
        "{}",
        "[{\"foo\":1},{\"id\":\"kept\"}]",
        "{\"foo\":1}\n{\"id\":\"kept\"}\n",
    ] {
        let (ids, problems) = read(text.as_bytes());
        assert_eq!(problems.len(), 1, "{text}: {problems:?}");
        assert!(
            problems[0].message.contains("not an event"),
            "{text}: {problems:?}"
        );
        assert_eq!(
            problems[0].position,
            Some((1, if text.starts_with('[') { 2 } else { 1 })),
            "{text}"
        );
        let expected: Vec<String> = if text.contains("kept") {
            vec!["kept".into()]
        } else {
            vec![]
        };
        assert_eq!(ids, expected, "{text}");
    }
    // Any one of the four makes an event, whatever else is missing.
    for text in [
        r#"{"id":"a"}"#,
        r#"{"type":"client.join.failed"}"#,
        r#"{"timestamp":"2026-11-18T10:00:00Z"}"#,
        r#"{"data":{"room_id":"r"}}"#,
    ] {
        let (ids, problems) = read(text.as_bytes());
        assert!(problems.is_empty(), "{text}: {problems:?}");
        assert_eq!(ids.len(), 1, "{text}");
    }
}

#[test]
fn an_empty_envelope_is_no_events_and_no_problem() {
    let text = r#"{"limit":0,"total":0,"next":"","events":[]}"#;
    assert_eq!(read(text.as_bytes()), (vec![], vec![]));
}

#[test]
fn gzip_is_recognised_by_content_whatever_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzip(QUIRKS.as_bytes());
    for name in ["plain.json", "events.ndjson", "no-extension", "x.gz"] {
        let path = dir.path().join(name);
        std::fs::write(&path, &gz).unwrap();
        let (events, problems) = read_path(&path);
        assert!(problems.is_empty(), "{name}: {problems:?}");
        assert_eq!(events, 2, "{name}");
    }
    let plain_named_gz = dir.path().join("plain.gz");
    std::fs::write(&plain_named_gz, QUIRKS).unwrap();
    let (events, problems) = read_path(&plain_named_gz);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(events, 2);
}

#[test]
fn concatenated_gzip_members_are_all_read() {
    let mut gz = gzip(PAGE1.as_bytes());
    gz.extend(gzip(PAGE2.as_bytes()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages.json.gz");
    std::fs::write(&path, gz).unwrap();
    let (events, problems) = read_path(&path);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(events, 4, "both pages, before de-duplication");
}

#[test]
fn a_cut_gzip_stream_keeps_what_was_decompressed_and_says_so() {
    let big: String = (0..400).map(|_| QUIRKS).collect();
    let gz = gzip(big.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.ndjson.gz");
    std::fs::write(&path, &gz[..gz.len() / 2]).unwrap();
    let (events, problems) = read_path(&path);
    assert!(events > 0, "lines decompressed before the cut are read");
    let p = problems
        .iter()
        .find(|p| p.message.contains("gzip"))
        .expect("a problem for the cut stream");
    assert!(
        p.to_string().starts_with(&path.display().to_string()),
        "{p}"
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice(SUBSCRIBE.as_bytes());
    assert_eq!(read(&bytes), (vec![S1.to_string()], vec![]));
    let mut gz_bom = vec![0xEF, 0xBB, 0xBF];
    gz_bom.extend_from_slice(QUIRKS.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.gz");
    std::fs::write(&path, gzip(&gz_bom)).unwrap();
    let (events, problems) = read_path(&path);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(events, 2);
}

#[test]
fn columns_after_a_byte_order_mark_count_from_the_first_character() {
    let (_, problems) = read("\u{feff}{\"id\": x}".as_bytes());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position, Some((1, 8)), "{}", problems[0]);
}

#[test]
fn a_folder_expands_to_its_dump_files_sorted() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "b.ndjson",
        "a.json",
        "c.jsonl",
        "d.gz",
        "E.JSON",
        "notes.txt",
        "README.md",
        "f.json.bak",
    ] {
        std::fs::write(dir.path().join(name), "{}").unwrap();
    }
    std::fs::create_dir(dir.path().join("sub.json")).unwrap();
    let files = expand(dir.path().to_str().unwrap()).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // The folder named as a dump is kept, for reading it to say it is no file.
    assert_eq!(
        names,
        [
            "E.JSON", "a.json", "b.ndjson", "c.jsonl", "d.gz", "sub.json"
        ]
    );
}

#[test]
fn expanding_names_the_path_when_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    let p = expand(empty).unwrap_err();
    assert_eq!(p.path, empty);
    assert!(p.message.contains(".json"), "{p}");

    let missing = dir.path().join("missing.json");
    let p = expand(missing.to_str().unwrap()).unwrap_err();
    assert_eq!(
        p.to_string(),
        format!("{}: no such file or folder", missing.display())
    );

    assert_eq!(expand("-").unwrap(), [PathBuf::from("-")]);
    let file = dir.path().join("one.txt");
    std::fs::write(&file, "{}").unwrap();
    assert_eq!(expand(file.to_str().unwrap()).unwrap(), [file]);
}

#[test]
fn opening_a_missing_file_names_it() {
    let (events, problems) = read_path(Path::new("/nonexistent/dir/events.json"));
    assert_eq!((events, problems.len()), (0, 1), "{problems:?}");
    let p = &problems[0];
    assert_eq!(p.path, "/nonexistent/dir/events.json");
    assert_eq!(p.position, None);
    assert!(p.message.contains("no such file"), "{p}");
}
