//! What `list` says of the events it drops as later copies of an id read before (the first copy
//! is kept): a line on stderr after the answer, on every way it reads its input, counting those
//! the filter matches; stdout and the exit status as without it.

use std::io::Write;

use super::*;

/// The kept copy of `a` is a join; its later copy, edited, a leave (as a dump and a re-save of
/// it where one copy changed). `b` is read once.
const EVENTS: [&str; 3] = [
    r#"{"id":"a","type":"client.join","timestamp":"2026-01-01T00:00:00Z","data":{"room_id":"r1"}}"#,
    r#"{"id":"a","type":"client.leave","timestamp":"2026-01-02T00:00:00Z","data":{"room_id":"r1"}}"#,
    r#"{"id":"b","type":"client.leave","timestamp":"2026-01-03T00:00:00Z","data":{"room_id":"r2"}}"#,
];

const ONE: &str =
    "callscope: note: 1 event dropped: its id was read before (the first copy is kept)\n";
const ONE_MATCHING: &str = "callscope: note: 1 matching event dropped: its id was read before \
                            (the first copy is kept)\n";

fn ndjson(events: &[&str]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

fn envelope(events: &[&str]) -> String {
    format!(
        r#"{{"limit":{n},"total":{n},"next":"","events":[{}]}}"#,
        events.join(","),
        n = events.len()
    )
}

fn gzipped(text: &str) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap()
}

/// `callscope list ARGS` with `stdin`: its stdout and stderr; it must succeed.
fn run(args: &[&str], stdin: &[u8]) -> (String, String) {
    let out = callscope()
        .arg("list")
        .args(args)
        .write_stdin(stdin.to_vec())
        .assert()
        .success();
    let out = out.get_output();
    (
        String::from_utf8(out.stdout.clone()).unwrap(),
        String::from_utf8(out.stderr.clone()).unwrap(),
    )
}

/// The ids of NDJSON events, in order.
fn ids(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Each way `list` reads a file (mapped NDJSON, an envelope, gzip'd, a JSON array, which the
/// full way reads), without a filter and with one: the answer is the first copy's, and the
/// copy dropped is said once, counted when the filter matches it.
#[test]
fn every_way_of_reading_a_file_says_the_copy_it_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let array = format!("[{}]", EVENTS.join(","));
    let files: [(&str, Vec<u8>); 4] = [
        ("d.ndjson", ndjson(&EVENTS).into_bytes()),
        ("d.json", envelope(&EVENTS).into_bytes()),
        ("d.ndjson.gz", gzipped(&ndjson(&EVENTS))),
        ("array.json", array.into_bytes()),
    ];
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        for format in ["ndjson", "json", "csv"] {
            let (stdout, stderr) = run(&[path, "--format", format], b"");
            assert_eq!(stderr, ONE, "{name} {format}");
            if format == "ndjson" {
                assert_eq!(ids(&stdout), ["a", "b"], "{name}");
                assert!(
                    stdout.contains("client.join"),
                    "{name}: the first copy is kept"
                );
            }
        }
        // The copy dropped is a leave: a filter for leaves loses it, and says so.
        let (stdout, stderr) = run(&[path, "--type", "client.leave", "--format", "ndjson"], b"");
        assert_eq!(ids(&stdout), ["b"], "{name}");
        assert_eq!(stderr, ONE_MATCHING, "{name}");
        let (_, stderr) = run(&[path, "--type", "client.leave", "--format", "csv"], b"");
        assert_eq!(stderr, ONE_MATCHING, "{name} csv");
        // Nor the copy nor the first matches: nothing is lost to the filter's answer.
        let (stdout, stderr) = run(&[path, "--room", "r2", "--format", "ndjson"], b"");
        assert_eq!(
            (ids(&stdout), stderr.as_str()),
            (vec!["b".to_string()], ""),
            "{name}"
        );
        // Grouped, the copy counts in no group.
        let (stdout, stderr) = run(&[path, "--group-by", "room", "--format", "csv"], b"");
        assert_eq!(stderr, ONE, "{name} grouped");
        assert!(stdout.contains("\nr1,,1,"), "{name}: {stdout}");
        let filtered = [path, "--group-by", "room", "--type", "client.leave"];
        let (_, stderr) = run(&[&filtered[..], &["--format", "csv"]].concat(), b"");
        assert_eq!(stderr, ONE_MATCHING, "{name} grouped and filtered");
    }
}

/// Standard input, read as it comes (NDJSON, gzip'd, and a JSON array, which the full way reads
/// a piece at a time): every event, a filter's choice and the groups.
#[test]
fn standard_input_says_the_copy_it_dropped() {
    let input = ndjson(&EVENTS);
    let array = format!("[{}]", EVENTS.join(","));
    for bytes in [
        input.clone().into_bytes(),
        gzipped(&input),
        array.into_bytes(),
    ] {
        let (stdout, stderr) = run(&["-", "--format", "ndjson"], &bytes);
        assert_eq!(
            (ids(&stdout), stderr.as_str()),
            (vec!["a".into(), "b".into()], ONE)
        );
        let (stdout, stderr) = run(
            &["-", "--type", "client.leave", "--format", "ndjson"],
            &bytes,
        );
        assert_eq!(
            (ids(&stdout), stderr.as_str()),
            (vec!["b".into()], ONE_MATCHING)
        );
        let (_, stderr) = run(&["-", "--group-by", "room", "--format", "csv"], &bytes);
        assert_eq!(stderr, ONE, "grouped");
        let (_, stderr) = run(&["-", "--max", "1", "--format", "ndjson"], &bytes);
        assert_eq!(stderr, ONE, "the first one");
    }
}

/// Two files whose events overlap, given one by one or as a folder, and a folder written with
/// `--output DIR/`: the copies of the second are dropped, and counted.
#[test]
fn files_that_overlap_say_how_many_copies_were_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("pages");
    std::fs::create_dir(&folder).unwrap();
    // Page one holds a and b; page two b again and c, then a again.
    let c = r#"{"id":"c","type":"client.join","timestamp":"2026-01-04T00:00:00Z","data":{}}"#;
    std::fs::write(folder.join("1.ndjson"), ndjson(&[EVENTS[0], EVENTS[2]])).unwrap();
    std::fs::write(folder.join("2.json"), envelope(&[EVENTS[2], c, EVENTS[1]])).unwrap();
    let one = folder.join("1.ndjson");
    let two = folder.join("2.json");
    let two_dropped = "callscope: note: 2 events dropped: their ids were read before (the first \
                       copy of each is kept)\n";
    for args in [
        vec![one.to_str().unwrap(), two.to_str().unwrap()],
        vec![folder.to_str().unwrap()],
    ] {
        let (stdout, stderr) = run(&[&args[..], &["--format", "ndjson"]].concat(), b"");
        assert_eq!(ids(&stdout), ["a", "b", "c"]);
        assert_eq!(stderr, two_dropped, "{args:?}");
        let (_, stderr) = run(&[&args[..], &["--format", "table"]].concat(), b"");
        assert_eq!(stderr, two_dropped, "{args:?} table");
    }
    let out = dir.path().join("out");
    let target = format!("{}/", out.display());
    let (_, stderr) = run(&[folder.to_str().unwrap(), "--output", &target], b"");
    assert!(stderr.ends_with(two_dropped), "{stderr}");
    assert_eq!(stderr.matches("dropped").count(), 1, "{stderr}");
}

/// Without a copy, nothing is said: stderr stays empty on every way of reading.
#[test]
fn without_a_copy_nothing_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let events = [EVENTS[0], EVENTS[2]];
    let path = dir.path().join("d.ndjson");
    std::fs::write(&path, ndjson(&events)).unwrap();
    let path = path.to_str().unwrap();
    for args in [
        &[path, "--format", "ndjson"][..],
        &[path, "--type", "client.leave", "--format", "csv"],
        &[path, "--group-by", "room", "--format", "csv"],
        &["-", "--format", "ndjson"],
        &["-", "--type", "client.leave", "--format", "ndjson"],
    ] {
        let (_, stderr) = run(args, ndjson(&events).as_bytes());
        assert_eq!(stderr, "", "{args:?}");
    }
}
