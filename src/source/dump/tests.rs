use std::io::Write;

use super::pieces::{Batcher, Batches, next_event_line, read_pieces};
use super::scan::scan_lines;
use super::*;

/// The batches of a test's read, on the spares of `reading`: the first of at most `first`
/// events.
fn first_of(first: usize, reading: &Reading) -> Batches<'_> {
    Batches { reading, first }
}
use crate::generator::ndjson_lines as generated_lines;
use crate::store::Store;

const PUBLISH: &str = include_str!("../../../tests/fixtures/publish.json");
const SUBSCRIBE: &str = include_str!("../../../tests/fixtures/subscribe.json");
const PAGE1: &str = include_str!("../../../tests/fixtures/page1.json");
const PAGE2: &str = include_str!("../../../tests/fixtures/page2.json");
const QUIRKS: &str = include_str!("../../../tests/fixtures/quirks.ndjson");

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

fn id_of(event: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(event).unwrap();
    v["id"].as_str().unwrap().to_string()
}

const P1: &str = "5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70";
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
fn damage_inside_a_pretty_envelope_is_reported_once() {
    let damaged = PAGE1.replacen("\"is_terminal\": true", "\"is_terminal\": tru", 1);
    let (ids, problems) = read(damaged.as_bytes());
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let line = PAGE1
        .lines()
        .position(|l| l.contains("\"is_terminal\": true"))
        .unwrap()
        + 1;
    assert_eq!(problems[0].position.unwrap().0, line, "{}", problems[0]);

    let damaged = PAGE2.replacen("\"is_terminal\":false", "\"is_terminal\":fals", 1);
    let (ids, problems) = read(damaged.as_bytes());
    assert_eq!(ids, [S2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position.unwrap().0, 3, "{}", problems[0]);
}

#[test]
fn an_empty_file_is_a_dump_of_no_events() {
    for bytes in [&b""[..], b"\n\n", b"  \r\n\t ", b"\xef\xbb\xbf\n"] {
        let (ids, problems) = read_named("empty.json", bytes);
        assert!(ids.is_empty());
        assert!(problems.is_empty(), "{bytes:?}: {problems:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.json");
    std::fs::write(&path, b"").unwrap();
    let (events, problems) = read_path(&path);
    assert_eq!(events, 0);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn a_binary_file_is_reported_as_not_a_dump() {
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10";
    let (ids, problems) = read_named("image.json", png);
    assert!(ids.is_empty());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("binary"), "{}", problems[0]);
    assert_eq!(
        problems[0].to_string(),
        format!("image.json:1:1: {}", problems[0].message)
    );
}

#[test]
fn a_truncated_envelope_keeps_the_complete_events_before_the_cut() {
    let cut_at = PAGE2.find(r#"{"version":"2.0","id":"2a3b"#).unwrap() + 40;
    let (ids, problems) = read_named("page2.json", &PAGE2.as_bytes()[..cut_at]);
    assert_eq!(ids, [S2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.message.contains("truncated"), "{p}");
    assert_eq!(p.position, Some((3, 41)), "{p}");
    assert!(p.to_string().starts_with("page2.json:3:41: "), "{p}");
}

#[test]
fn a_truncated_pretty_envelope_keeps_the_events_before_the_cut() {
    let cut_at = PAGE1.find("\"1f2a3b4c").unwrap();
    let (ids, problems) = read(&PAGE1.as_bytes()[..cut_at]);
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = problems[0].position.unwrap();
    let lines = PAGE1[..cut_at].lines().count();
    assert_eq!(p.0, lines);
}

#[test]
fn a_truncated_array_of_events_keeps_the_events_before_the_cut() {
    let events = events_of(PAGE1);
    let text = format!("[{},\n{}", events[0], &events[1][..100]);
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("truncated"));
}

#[test]
fn a_bad_ndjson_line_is_reported_at_its_line_and_column_and_the_other_lines_are_read() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!("{}\n{{\"id\":\"bad\", oops}}\n{}\n", lines[0], lines[1]);
    let (ids, problems) = read_named("events.ndjson", text.as_bytes());
    assert_eq!(ids, [Q1, Q2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position, Some((2, 14)), "{}", problems[0]);
    assert!(
        problems[0]
            .to_string()
            .starts_with("events.ndjson:2:14: invalid JSON"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_line_cut_short_in_ndjson_loses_only_that_line() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let events = events_of(PAGE2);
    for cut in [20, 200, 480, lines[0].len() - 1] {
        let text = format!("{}\n{}\n{}\n", &lines[0][..cut], lines[1], events[1]);
        let (ids, problems) = read(text.as_bytes());
        assert_eq!(ids, [Q2, J2], "cut at {cut}: {problems:?}");
        assert_eq!(problems.len(), 1, "cut at {cut}: {problems:?}");
        // At the end of the cut line (serde_json names the last character for a cut string).
        let end = lines[0][..cut].chars().count();
        let (line, column) = problems[0].position.unwrap();
        assert!(
            line == 1 && (end..=end + 1).contains(&column),
            "cut at {cut}: {}",
            problems[0]
        );
    }
}

#[test]
fn a_last_ndjson_line_cut_short_keeps_the_lines_before_it() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!("{}\r\n{}", lines[0], &lines[1][..300]);
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [Q1]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("truncated"), "{}", problems[0]);
    assert_eq!(
        problems[0].position,
        Some((2, lines[1][..300].chars().count() + 1))
    );

    let cut_middle = format!("{}\r\n{}\r\n", &lines[0][..lines[0].len() - 1], lines[1]);
    let (ids, problems) = read(cut_middle.as_bytes());
    assert_eq!(ids, [Q2]);
    assert_eq!(
        problems[0].position,
        Some((1, lines[0].chars().count())),
        "{}",
        problems[0]
    );
    assert!(problems[0].message.contains("cut short"), "{}", problems[0]);
}

#[test]
fn a_column_counts_characters_not_bytes() {
    let text = "{\"id\":\"a\",\"user_name\":\"Lucía Fernández\",}\n";
    let (_, problems) = read(text.as_bytes());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position, Some((1, 41)), "{}", problems[0]);
    assert_eq!(line_col("añb\nçd".as_bytes(), 7), (2, 2));
    assert_eq!(line_col(b"abc", 99), (1, 4));
}

#[test]
fn offsets_positioned_together_get_the_lines_and_columns_each_gets_alone() {
    // A mark, characters of two and three bytes, blank lines, a last line with no end.
    let bytes = "\u{feff}añb\n\nç€d\nxy\n\n\nlast".as_bytes();
    let alone: Vec<(usize, usize)> = (0..=bytes.len() + 2).map(|o| line_col(bytes, o)).collect();
    assert_eq!(alone[3], (1, 1), "the mark is no column");
    assert_eq!(alone[bytes.len()], (7, 5));
    let ascending: Vec<usize> = (0..=bytes.len() + 2).collect();
    assert_eq!(line_cols(bytes, ascending.iter().copied()), alone);
    // Offsets out of order, and repeated, are positioned as well.
    let mixed = [9, 2, 9, 20, 0, bytes.len() + 1, 5];
    let want: Vec<(usize, usize)> = mixed.iter().map(|&o| alone[o]).collect();
    assert_eq!(line_cols(bytes, mixed), want);
}

#[test]
fn values_that_are_not_objects_are_reported_and_the_events_around_them_read() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!(
        "42\n\"text\"\n{}\nnull\ntrue\n[1, {}]\n",
        lines[0], lines[1]
    );
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [Q1, Q2]);
    let found: Vec<(usize, usize, &str)> = problems
        .iter()
        .map(|p| {
            let (l, c) = p.position.unwrap();
            (l, c, p.message.rsplit("found ").next().unwrap())
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, 1, "a number"),
            (2, 1, "a string"),
            (4, 1, "null"),
            (5, 1, "a boolean"),
            (6, 2, "a number"),
        ]
    );
    let envelope = r#"{"limit":2,"total":2,"next":"","events":[{"id":"ok"},"no"]}"#;
    let (ids, problems) = read(envelope.as_bytes());
    assert_eq!(ids, ["ok"]);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].position, Some((1, 54)));
    assert!(problems[0].message.ends_with("found a string"));
}

#[test]
fn a_form_feed_before_damage_is_reported_not_a_crash() {
    for bytes in [
        &b"\x0c}"[..],
        b"\x0c\x0cx\n{\"id\":\"a\"}",
        b"{\"id\":\"a\"}\n\x0c]",
    ] {
        let (_, problems) = read(bytes);
        assert!(!problems.is_empty(), "{:?}", String::from_utf8_lossy(bytes));
    }
}

#[test]
fn problems_past_twenty_are_summed_up() {
    let text = "x\n".repeat(30) + "{\"id\":\"kept\"}\n";
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, ["kept"]);
    assert_eq!(problems.len(), 21);
    assert_eq!(problems[19].position, Some((20, 1)));
    assert_eq!(
        problems[20].to_string(),
        "t.json: 10 more problems not shown"
    );
}

#[test]
fn scan_reports_each_event_span_in_order() {
    let text = format!("{SUBSCRIBE}\n{QUIRKS}");
    let mut spans = Vec::new();
    let mut errors = Vec::new();
    scan(
        text.as_bytes(),
        &mut |s, e| {
            spans.push((s, e));
            Ok(())
        },
        &mut errors,
    );
    assert!(errors.is_empty());
    let got: Vec<String> = spans.iter().map(|&(s, e)| id_of(&text[s..e])).collect();
    assert_eq!(got, [S1, Q1, Q2]);
    let (s, e) = spans[1];
    assert_eq!(&text[s..e], QUIRKS.lines().next().unwrap());
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
    assert_eq!(names, ["E.JSON", "a.json", "b.ndjson", "c.jsonl", "d.gz"]);
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

/// xorshift64*: deterministic, so every run reads the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn damaged_input_never_crashes_and_every_span_read_is_an_object_inside_the_file() {
    let mut rng = Rng(0x0ddb_a11c_0ffe_e123);
    let sources = [PUBLISH, SUBSCRIBE, PAGE1, PAGE2, QUIRKS];
    let pieces: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b":",
        b",",
        b"\n",
        b"\r\n",
        b" ",
        b"\x0c",
        b"\\",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xff",
        b"{}",
        b"[]",
        b"1e3",
        b"null",
        b"\"events\":[",
        b"{\"id\":\"a\"}",
    ];
    for round in 0..3000 {
        let source = sources[rng.below(sources.len())].as_bytes();
        let mut bytes = source[..rng.below(source.len() + 1)].to_vec();
        for _ in 0..rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            bytes.splice(at..at, pieces[rng.below(pieces.len())].iter().copied());
        }
        if round % 5 == 0 {
            bytes.extend_from_slice(sources[rng.below(sources.len())].as_bytes());
        }
        let mut errors = Vec::new();
        let mut spans = Vec::new();
        scan(
            &bytes,
            &mut |s, e| {
                spans.push((s, e));
                Ok(())
            },
            &mut errors,
        );
        for (s, e) in spans {
            let parsed =
                serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&bytes[s..e]);
            assert!(
                parsed.is_ok(),
                "round {round}: span {s}..{e} of {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        for e in errors {
            assert!(e.offset <= bytes.len(), "round {round}: {e:?}");
            assert!(line_col(&bytes, e.offset).0 <= lines);
        }
    }
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

fn read_on_one_thread(blob: &Arc<Blob>) -> Read {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let mut errors = Vec::new();
    let mut batcher = Batcher::new(first_of(2000, &reading), Arc::clone(blob));
    scan_lines(
        blob,
        &mut |s, e| batcher.push(s, e, &mut |b| batches.push(b)),
        &mut errors,
    );
    batches.push(batcher.finish());
    Read::of(batches, errors)
}

fn read_in_pieces(blob: &Arc<Blob>, threads: usize, piece_bytes: usize) -> Read {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let mut errors = Vec::new();
    read_pieces(
        blob,
        first_of(2000, &reading),
        threads,
        piece_bytes,
        &mut |b| batches.push(b),
        &mut errors,
    );
    Read::of(batches, errors)
}

#[test]
fn reading_in_pieces_on_several_threads_gives_what_one_thread_gives() {
    let mut lines = generated_lines(3000, 5);
    // A later copy of an id with other content, far from the first: the first must win.
    let copy = lines[5].replacen("\"type\":\"client.", "\"type\":\"client.x", 1);
    lines.insert(2500, copy);
    lines[10] = "{\"id\": broken".to_string();
    lines[2900] = "not json at all".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(1200, envelope.to_string());
    lines.insert(700, String::new());
    let blob = Arc::new(Blob::Owned(lines.join("\n").into_bytes()));

    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 3, 8 << 10);
    assert!(many.batches > 100, "{} batches", many.batches);
    assert!(many.first_batch <= 2000);
    assert_eq!(
        one.events.len(),
        3000 - 2 + envelope["events"].as_array().unwrap().len()
    );
    assert_eq!(one.duplicates, 1);
    assert_eq!((many.events, many.duplicates), (one.events, one.duplicates));
    assert_eq!(many.errors, one.errors);
    assert_eq!(one.errors.len(), 2);
}

#[test]
fn pieces_never_cut_a_value_written_over_several_lines() {
    let mut lines = generated_lines(300, 9);
    // Pretty-printed envelopes among the lines: cut inside, neither half could be read.
    let envelope: serde_json::Value = serde_json::from_str(PAGE2).unwrap();
    lines.insert(250, serde_json::to_string_pretty(&envelope).unwrap());
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(150, serde_json::to_string_pretty(&envelope).unwrap());
    let blob = Arc::new(Blob::Owned(lines.join("\n").into_bytes()));

    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 2, 512);
    assert!(one.errors.is_empty(), "{:?}", one.errors);
    assert!(one.events.len() > 300);
    assert_eq!(many.errors, one.errors);
    assert_eq!(many.events, one.events);
}

/// What reading a gzip'd file while it decompresses gives, in pieces of about `piece_bytes`, with
/// its problems.
fn read_gzip_streamed(gz: &[u8], piece_bytes: usize) -> (Read, Vec<DumpProblem>) {
    let reading = Reading::start();
    let mut batches = Vec::new();
    let problems = read_stream_in_batches(
        "t.gz",
        gz,
        Holding::WhileItFits,
        first_of(2000, &reading),
        piece_bytes,
        &mut |b| batches.push(b),
    );
    (Read::of(batches, Vec::new()), problems)
}

/// What reading the same file decompressed whole, on one thread, gives.
fn read_gzip_whole(gz: &[u8]) -> (Read, Vec<DumpProblem>) {
    let (bytes, problem) = gunzip(gz, "t.gz");
    read_whole("t.gz", Arc::new(Blob::Owned(bytes)), problem)
}

/// Decompresses every gzip member at once; a damaged or cut stream keeps what came out before
/// the damage, and says so as reading it while it decompresses does.
fn gunzip(compressed: &[u8], name: &str) -> (Vec<u8>, Option<DumpProblem>) {
    let mut out = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(compressed);
    // Read as the stream is, 64 KiB at a time: what a failing read would have given is lost
    // the same way.
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match std::io::Read::read(&mut decoder, &mut chunk) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            Err(e) => {
                let damaged = gzip_damage(name, &e, out.len() as u64);
                return (out, Some(damaged));
            }
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

#[test]
fn a_gzip_file_read_while_it_decompresses_gives_what_reading_it_whole_gives() {
    let reading = Reading::start();
    let mut lines = generated_lines(3000, 7);
    let copy = lines[5].replacen("\"type\":\"client.", "\"type\":\"client.x", 1);
    lines.insert(2500, copy);
    lines[100] = "{\"id\": broken".to_string();
    lines[2900] = "not json at all".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE1).unwrap();
    lines.insert(1200, envelope.to_string());
    // Values written over many lines, which no piece may cut.
    let pretty = |n: usize| {
        let mut e: serde_json::Value =
            serde_json::from_str(&generated_lines(1, 100 + n as u64)[0]).unwrap();
        e["id"] = format!("00000000-0000-4000-8000-{n:012}").into();
        serde_json::to_string_pretty(&e).unwrap()
    };
    for n in 0..20 {
        lines.insert(300 + n * 130, pretty(n));
    }
    lines.insert(700, String::new());
    let ndjson = lines.join("\n");
    // More damage than a file's problems show.
    let mut damaged = generated_lines(400, 8);
    for k in 0..25 {
        damaged[10 + k * 15] = format!("{{\"id\": broken {k}");
    }
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(QUIRKS.as_bytes());
    let mut members = gzip(PAGE1.as_bytes());
    members.extend(gzip(PAGE2.as_bytes()));
    let whole_ndjson = gzip(ndjson.as_bytes());
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("generated lines", whole_ndjson.clone()),
        (
            "cut short",
            whole_ndjson[..whole_ndjson.len() * 2 / 3].to_vec(),
        ),
        ("much damage", gzip(damaged.join("\n").as_bytes())),
        ("envelopes, not line-delimited", members),
        ("a byte order mark", gzip(&bom)),
        ("empty", gzip(b"")),
        ("blank", gzip(b"\n  \n")),
    ];
    for (what, gz) in &files {
        let (whole, whole_problems) = read_gzip_whole(gz);
        for piece_bytes in [512, 8 << 10, 1 << 30] {
            let (streamed, problems) = read_gzip_streamed(gz, piece_bytes);
            let case = format!("{what}, pieces of {piece_bytes}");
            assert_eq!(problems, whole_problems, "{case}");
            assert_eq!(streamed.events, whole.events, "{case}");
            assert_eq!(streamed.duplicates, whole.duplicates, "{case}");
            assert!(streamed.first_batch <= 2000, "{case}");
        }
    }
    // The cases hold what they are meant to.
    let (generated, problems) = read_gzip_whole(&files[0].1);
    assert_eq!(generated.events.len(), 3000 - 2 + 2 + 20);
    assert_eq!(generated.duplicates, 1);
    assert_eq!(problems.len(), 2, "{problems:?}");
    let (_, problems) = read_gzip_whole(&files[1].1);
    assert!(problems[0].message.contains("gzip"), "{problems:?}");
    let (_, problems) = read_gzip_whole(&files[2].1);
    assert_eq!(problems[20].message, "5 more problems not shown");
    let (blank, problems) = read_gzip_streamed(&files[5].1, 512);
    assert!(
        blank.events.is_empty() && problems.is_empty(),
        "{problems:?}"
    );
    // Small pieces are many.
    let mut batches = 0;
    read_stream_in_batches(
        "t.gz",
        &files[0].1[..],
        Holding::WhileItFits,
        first_of(2000, &reading),
        8 << 10,
        &mut |_| batches += 1,
    );
    assert!(batches > 50, "{batches} batches");
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

#[test]
fn a_streamed_dump_past_what_stays_in_memory_is_kept_in_a_temporary_file_with_the_same_events() {
    let reading = Reading::start();
    let mut lines = generated_lines(600, 13);
    lines[250] = "{\"id\": broken".to_string();
    let bytes = lines.join("\n").into_bytes();
    let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(bytes.clone())), None);
    let kept = |keep: keep::Keep| {
        let mut batches = Vec::new();
        let problems = stream::read_stream_keeping(
            "t",
            &bytes[..],
            keep,
            first_of(50, &reading),
            8 << 10,
            &mut |b| batches.push(b),
        );
        let mapped: Vec<bool> = batches
            .iter()
            .map(|b| matches!(b.blob(), Blob::Mapped(_)))
            .collect();
        (Read::of(batches, Vec::new()), problems, mapped)
    };
    // Files on a disk (the temporary folder may be a tmpfs, which is not used).
    let on_disk = || tempfile::tempfile_in(env!("CARGO_MANIFEST_DIR")).unwrap();
    // A file that cannot be written to, as on a full disk: every piece stays in memory.
    let unwritable = std::fs::File::open(tempfile::NamedTempFile::new().unwrap().path()).unwrap();
    let half = bytes.len() as u64 / 2;
    let mut firsts_in_memory = Vec::new();
    for (keep, in_file) in [
        (keep::Keep::in_file_beyond(Some(on_disk()), 0), true),
        (keep::Keep::in_file_beyond(Some(on_disk()), half), true),
        (keep::Keep::in_a_temporary_file_beyond(u64::MAX), false),
        (keep::Keep::in_file_beyond(Some(unwritable), 0), false),
        (keep::Keep::in_file_beyond(None, 0), false),
    ] {
        let (streamed, problems, mapped) = kept(keep);
        assert!(mapped.len() > 5, "{} batches", mapped.len());
        // The first piece, and those within the bytes kept in memory, stay in memory; with a
        // file, every later one is read from it.
        let in_memory = mapped.iter().take_while(|&&m| !m).count();
        assert!(in_memory >= 1, "{mapped:?}");
        assert!(mapped[in_memory..].iter().all(|&m| m), "{mapped:?}");
        assert_eq!(in_memory < mapped.len(), in_file, "{mapped:?}");
        firsts_in_memory.push(in_memory);
        assert_eq!(problems, whole_problems, "in a file: {in_file}");
        assert_eq!(streamed.events, whole.events, "in a file: {in_file}");
    }
    // Half the bytes in memory keeps more batches there than none.
    assert!(
        firsts_in_memory[1] > firsts_in_memory[0],
        "{firsts_in_memory:?}"
    );
}

/// A stream that is not line-delimited (an envelope) comes as one piece, read once it has all
/// come: past what stays in memory, its bytes go to the file as they come, and the whole is
/// read from the file, with the events and the problems (at their lines and columns) that
/// reading it whole in memory gives. When the file cannot be written, it stays in memory.
#[test]
fn an_envelope_streamed_past_what_stays_in_memory_goes_to_the_file_as_it_comes() {
    let reading = Reading::start();
    let on_disk = || tempfile::tempfile_in(env!("CARGO_MANIFEST_DIR")).unwrap();
    let unwritable = || {
        let named = tempfile::NamedTempFile::new().unwrap();
        std::fs::File::open(named.path()).unwrap()
    };
    // Several pages, one event a line, with a damaged event near the end.
    let pages: Vec<serde_json::Value> = [PAGE1, PAGE2]
        .iter()
        .map(|p| serde_json::from_str(p).unwrap())
        .collect();
    let mut events: Vec<String> = (0..40)
        .flat_map(|_| {
            pages
                .iter()
                .flat_map(|p| p["events"].as_array().unwrap().clone())
        })
        .map(|e| e.to_string())
        .collect();
    let damaged = events.len() - 3;
    events[damaged] = r#"{"id":"bad","data":{,"x":1}}"#.to_string();
    let envelope = format!(
        "{{\"limit\":100,\"events\":[\n{}\n]}}\n",
        events.join(",\n")
    );
    let envelope = envelope.as_bytes();
    let (whole, whole_problems) = read_whole("t", Arc::new(Blob::Owned(envelope.to_vec())), None);
    assert!(!whole.events.is_empty());
    assert_eq!(whole_problems.len(), 1, "{whole_problems:?}");
    // The file's length when the stream ends: what went to it as the bytes came.
    let file = on_disk();
    let watched = file.try_clone().unwrap();
    let mut written_before_the_end = None;
    let stream = std::io::Read::chain(
        Trickle::new(envelope, false),
        Watch(|| written_before_the_end = Some(watched.metadata().unwrap().len())),
    );
    let mut batches = Vec::new();
    let keep = keep::Keep::in_file_beyond(Some(file), 0);
    let problems = stream::read_stream_keeping(
        "t",
        stream,
        keep,
        first_of(50, &reading),
        8 << 10,
        &mut |b| batches.push(b),
    );
    assert_eq!(problems, whole_problems);
    assert_eq!(written_before_the_end, Some(envelope.len() as u64));
    let half = envelope.len() as u64 / 2;
    for (keep, in_file) in [
        (keep::Keep::in_file_beyond(Some(on_disk()), 0), true),
        (keep::Keep::in_file_beyond(Some(on_disk()), half), true),
        (keep::Keep::in_file_beyond(Some(unwritable()), 0), false),
        (keep::Keep::in_file_beyond(None, 0), false),
        (keep::Keep::in_a_temporary_file_beyond(u64::MAX), false),
    ] {
        let mut batches = Vec::new();
        let problems = stream::read_stream_keeping(
            "t",
            Trickle::new(envelope, false),
            keep,
            first_of(50, &reading),
            8 << 10,
            &mut |b| batches.push(b),
        );
        assert!(!batches.is_empty());
        let mapped = batches.iter().all(|b| matches!(b.blob(), Blob::Mapped(_)));
        assert_eq!(mapped, in_file, "in a file: {in_file}");
        assert_eq!(problems, whole_problems, "in a file: {in_file}");
        assert_eq!(Read::of(batches, Vec::new()).events, whole.events);
    }
}

#[test]
fn a_dump_read_as_it_comes_through_a_pipe_gives_what_reading_it_whole_gives() {
    let reading = Reading::start();
    let mut lines = generated_lines(2000, 11);
    lines[300] = "{\"id\": broken".to_string();
    let envelope: serde_json::Value = serde_json::from_str(PAGE2).unwrap();
    lines.insert(900, serde_json::to_string_pretty(&envelope).unwrap());
    let ndjson = lines.join("\n").into_bytes();
    let whole = |bytes: &[u8]| read_whole("<stdin>", Arc::new(Blob::Owned(bytes.to_vec())), None);
    let read_pipe = |pipe: Trickle, piece_bytes: usize| {
        let mut batches = Vec::new();
        let problems = read_stream_in_batches(
            "<stdin>",
            pipe,
            Holding::WhileItFits,
            first_of(2000, &reading),
            piece_bytes,
            &mut |b| batches.push(b),
        );
        (Read::of(batches, Vec::new()), problems)
    };
    let piped = |bytes: &[u8], fail: bool, piece_bytes: usize| {
        read_pipe(Trickle::new(bytes, fail), piece_bytes)
    };
    for bytes in [&ndjson[..], PAGE1.as_bytes(), b"", b"x"] {
        let (one, one_problems) = whole(bytes);
        for piece_bytes in [700, 64 << 10] {
            let (streamed, problems) = piped(bytes, false, piece_bytes);
            assert_eq!(problems, one_problems, "pieces of {piece_bytes}");
            assert_eq!(streamed.events, one.events, "pieces of {piece_bytes}");
        }
        // A byte at a time, each read interrupted once first.
        let pipe = Trickle {
            step: 1,
            interrupt: true,
            ..Trickle::new(bytes, false)
        };
        let (streamed, problems) = read_pipe(pipe, 700);
        assert_eq!((streamed.events, problems), (one.events, one_problems));
    }
    // Small pieces are many.
    let (streamed, _) = piped(&ndjson, false, 700);
    assert!(streamed.batches > 100, "{} batches", streamed.batches);
    // A gzip'd dump through the pipe is decompressed, whatever size its reads come in.
    let (streamed, problems) = piped(&gzip(&ndjson), false, 700);
    assert_eq!((streamed.events, problems), {
        let (one, p) = whole(&ndjson);
        (one.events, p)
    });
    // A pipe that breaks keeps what came before, and says so first.
    let cut = ndjson.len() / 2;
    let (streamed, problems) = piped(&ndjson[..cut], true, 700);
    let (before, _) = whole(&ndjson[..cut]);
    assert_eq!(streamed.events, before.events);
    assert!(streamed.events.len() > 500);
    assert_eq!(
        problems[0].message,
        format!(
            "reading stopped after {cut} bytes (the pipe broke); the events before it were kept"
        )
    );
    // A pipe that fails at once.
    let (streamed, problems) = piped(b"", true, 700);
    assert!(streamed.events.is_empty());
    assert_eq!(
        problems[0].message,
        "reading stopped after 0 bytes (the pipe broke); the events before it were kept"
    );
    // A gzip'd stream whose pipe fails is not said to be damaged gzip.
    let gz = gzip(&ndjson);
    let (_, problems) = piped(&gz[..gz.len() / 2], true, 700);
    assert!(
        problems[0].message.starts_with("reading stopped after "),
        "{problems:?}"
    );
}

#[test]
fn no_piece_ends_on_a_damaged_line_that_ends_like_an_event() {
    let reading = Reading::start();
    // Read whole, the damage is found where the parser reads on into the next line.
    let mut lines = generated_lines(60, 12);
    lines[30] = "{\"id\":\"a\",\"p\":{\"q\":1}".to_string();
    let bytes = lines.join("\n").into_bytes();
    let blob = Arc::new(Blob::Owned(bytes.clone()));
    let one = read_on_one_thread(&blob);
    assert_eq!(one.errors.len(), 1, "{:?}", one.errors);
    let (whole, whole_problems) = read_whole("t", Arc::clone(&blob), None);
    // Every piece size from a line to a tenth of the file: some cut would fall right after it.
    let damaged_end = lines[..31].iter().map(|l| l.len() + 1).sum::<usize>();
    for piece_bytes in (200..bytes.len() / 10).step_by(97) {
        let many = read_in_pieces(&blob, 3, piece_bytes);
        assert_eq!(many.errors, one.errors, "mapped, pieces of {piece_bytes}");
        assert_eq!(many.events, one.events, "mapped, pieces of {piece_bytes}");
        let mut batches = Vec::new();
        let problems = read_stream_in_batches(
            "t",
            &bytes[..],
            Holding::WhileItFits,
            first_of(2000, &reading),
            piece_bytes,
            &mut |b| batches.push(b),
        );
        let streamed = Read::of(batches, Vec::new());
        assert_eq!(
            problems, whole_problems,
            "streamed, pieces of {piece_bytes}"
        );
        assert_eq!(
            streamed.events, whole.events,
            "streamed, pieces of {piece_bytes}"
        );
    }
    // A cut right after the damaged line was open to the rule that only asked for a `}` before
    // the line: it ends in one, and the line after it is a whole event.
    let damaged_start = damaged_end - lines[30].len() - 1;
    assert_eq!(bytes[damaged_end - 2], b'}');
    assert!(serde_json::from_str::<serde_json::Value>(&lines[31]).is_ok());
    assert!(next_event_line(&bytes, damaged_start).is_some_and(|cut| cut > damaged_end));
}

#[test]
fn a_file_that_starts_with_a_byte_order_mark_is_read_in_pieces_as_without_it() {
    let mut lines = generated_lines(2000, 13);
    lines[700] = "{\"id\": broken".to_string();
    let plain = lines.join("\n").into_bytes();
    let mut marked = vec![0xEF, 0xBB, 0xBF];
    marked.extend_from_slice(&plain);
    assert!(super::super::ndjson::looks_line_delimited(&marked));
    let plain = read_on_one_thread(&Arc::new(Blob::Owned(plain)));
    let blob = Arc::new(Blob::Owned(marked));
    let one = read_on_one_thread(&blob);
    let many = read_in_pieces(&blob, 3, 8 << 10);
    assert!(many.batches > 50, "{} batches", many.batches);
    assert_eq!(one.events, plain.events);
    assert_eq!(many.events, one.events);
    // The mark moves the damage three bytes on, on the same line and column.
    let at = |r: &Read| -> Vec<(usize, usize)> {
        r.errors.iter().map(|e| line_col(&blob, e.offset)).collect()
    };
    assert_eq!(one.errors.len(), 1);
    assert_eq!(one.errors[0].offset, plain.errors[0].offset + 3);
    assert_eq!(at(&many), at(&one));
}

#[test]
fn every_batch_of_a_load_of_several_files_comes_while_spares_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = events_of(PAGE1)
        .into_iter()
        .chain(events_of(PAGE2))
        .collect();
    for (k, half) in lines.chunks(lines.len().div_ceil(2)).enumerate() {
        std::fs::write(dir.path().join(format!("{k}.ndjson")), half.join("\n")).unwrap();
    }
    let mut reads = Vec::new();
    let args = [dir.path().to_string_lossy().into_owned()];
    let problems = crate::source::load_files(&args, |_, batch| {
        reads.push(batch.reading());
    });
    assert!(problems.is_empty(), "{problems:?}");
    assert!(reads.len() >= 2);
    // One reading for every file, under way as each batch is handed over.
    assert!(reads[0].is_some(), "{reads:?}");
    assert!(reads.iter().all(|&r| r == reads[0]), "{reads:?}");
}
