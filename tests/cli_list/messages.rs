//! What `list` says on stderr and how it exits: usage errors, refused guesses, a range that
//! misses, partial saved pages, neutralised escapes; and the demo dataset.

use super::*;

/// Whether text written to stderr could drive a terminal.
fn drives_a_terminal(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[test]
fn a_path_or_value_holding_escapes_reaches_stderr_neutralised() {
    let dir = tempfile::tempdir().unwrap();
    // A damaged dump whose name sets the terminal's title.
    let name = "evil\u{1b}]0;PWNED\u{7}\u{9b}31m\r.ndjson";
    let path = dir.path().join(name);
    std::fs::write(
        &path,
        "{\"id\":\"a\",\"type\":\"client.join.failed\",\"data\":{\"room_id\":\"r1\"}}\n{\"id\":\"b\",\n",
    )
    .unwrap();
    for args in [
        &["list"][..],
        &["list", "--room", "r1"],
        &["serve", "--addr", "127.0.0.1:0"],
    ] {
        let out = callscope().args(args).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("evil␛]0;PWNED␇"), "{args:?}: {stderr:?}");
        assert!(!drives_a_terminal(&stderr), "{args:?}: {stderr:?}");
    }
    // A value clap refuses is quoted in its message.
    for args in [
        &["list", "--format", "x\u{9b}31m\u{7}\r"][..],
        &["list", "--max", "\u{1b}]0;PWNED\u{7}"],
    ] {
        let out = callscope().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!drives_a_terminal(&stderr), "{args:?}: {stderr:?}");
        assert!(stderr.contains("--"), "{stderr}");
    }
}

fn usage_error(args: &[&str], says: &str) {
    callscope()
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(says))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn usage_errors_exit_2_and_say_what_is_wrong() {
    let dir = fixtures_dir();
    let dir = dir.to_str().unwrap();
    usage_error(
        &["list", dir, "--type", "bogus"],
        "unknown event type 'bogus'",
    );
    usage_error(&["list", dir, "--since", "yesterday"], "--since");
    usage_error(&["list", dir, "--until", "tomorrow"], "RFC 3339");
    usage_error(&["list", dir, "--terminal", "--retried"], "--retried");
    usage_error(&["list"], "name a source");
    usage_error(&["list", "--type", "join"], "name a source");
    usage_error(&["list", dir, "--format", "xml"], "xml");
    usage_error(&["list", dir, "--code", "four"], "four");
    usage_error(&["list", "--demo", dir], "--demo");
}

#[test]
fn demo_lists_the_bundled_dataset() {
    let out = list(&["--demo", "--format", "ndjson"]);
    let events = parse_lines(&out);
    assert_eq!(events.len(), 2400);
    assert!(
        events
            .iter()
            .all(|e| e["id"].is_string() && e["data"].is_object())
    );
    let joins = list(&[
        "--demo",
        "--type",
        "join",
        "--terminal",
        "--max",
        "5",
        "--format",
        "ndjson",
    ]);
    let joins = parse_lines(&joins);
    assert_eq!(joins.len(), 5);
    assert!(
        joins
            .iter()
            .all(|e| e["type"] == "client.join.failed" && e["data"]["is_terminal"] == true)
    );
}

#[test]
fn demo_data_is_deterministic_and_reopens_to_the_same_events() {
    let run = |seed: &str| {
        let out = callscope()
            .args(["demo-data", "--events", "300", "--seed", seed])
            .assert()
            .success()
            .stderr("");
        out.get_output().stdout.clone()
    };
    let first = run("5");
    assert_eq!(first, run("5"));
    assert_ne!(first, run("6"));
    let text = String::from_utf8(first.clone()).unwrap();
    assert_eq!(text.lines().count(), 300);
    let reopened = callscope()
        .args(["list", "-", "--format", "ndjson"])
        .write_stdin(first.clone())
        .assert()
        .success()
        .stderr("");
    assert_eq!(reopened.get_output().stdout, first);
    let count = callscope()
        .args(["list", "-", "--format", "csv"])
        .write_stdin(first)
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&count.get_output().stdout)
            .lines()
            .count(),
        301
    );
}

#[test]
fn an_empty_id_that_clears_no_profiles_filter_is_refused_rather_than_guessed() {
    // A script's `--room "$ROOM"` with the variable unset: neither no event nor every event.
    for flag in ["--room", "--session", "--peer", "--user"] {
        callscope()
            .args(["list", "--demo", flag, ""])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "{flag} is empty: give an id, or leave {flag} out"
            )));
    }
    for flag in ["--sdk", "--sdk-version", "--os", "--device", "--env"] {
        callscope()
            .args(["list", "--demo", flag, ""])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "{flag} is empty: give a value, or leave {flag} out"
            )));
    }
    // An empty search looks for nothing in particular: every event.
    assert_eq!(common::list_ndjson(["--demo", "--search", ""]).len(), 2400);
}

#[test]
fn a_time_range_that_misses_every_event_says_when_the_events_are() {
    for format in ["ndjson", "table"] {
        callscope()
            .args(["list", "--demo", "--since", "2h", "--format", format])
            .assert()
            .success()
            .stdout(predicate::function(|out: &str| {
                out.lines().filter(|l| l.contains("client.")).count() == 0
            }))
            .stderr(predicate::str::contains(
                "the events read span 2026-11-18T08:01:01",
            ));
    }
    // Within the events' span, nothing is said when nothing matches for another reason.
    callscope()
        .args([
            "list",
            "--demo",
            "--since",
            "2026-11-18T10:00:00Z",
            "--code",
            "1",
        ])
        .args(["--format", "ndjson"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

/// Only `--type` takes a list: another flag's value is matched whole, commas included (a device
/// model holds them), and the explorer's `(none)` is text here. When such a value matches
/// nothing, stderr says why, in every format and grouped; a value that matches says nothing.
#[test]
fn a_value_read_as_a_list_or_as_none_that_matches_nothing_says_why() {
    let fixtures = fixtures_dir();
    let fixtures = fixtures.to_str().unwrap();
    let said = |flag: &str, value: &str| {
        let field = flag.trim_start_matches("--");
        match value {
            "(none)" => format!(
                "callscope: nothing matched, and {field}=(none) is matched as written: (none), \
                 the explorer's word for an absent {field}, is not one here\n"
            ),
            _ => format!(
                "callscope: nothing matched, and {field}={value} is one value, matched whole, \
                 commas included (only the types are given as a list): ask for one {field} at a \
                 time\n"
            ),
        }
    };
    for (flag, value) in [
        ("--sdk", "web,android"),
        ("--os", "ios,Linux"),
        ("--session", "(none)"),
        ("--user", "(none)"),
    ] {
        let cases: [&[&str]; 5] = [
            &["--format", "ndjson"],
            &["--format", "csv"],
            &["--format", "table"],
            &["--format", "json", "--type", "join"],
            &["--group-by", "os", "--format", "json"],
        ];
        for args in cases {
            let out = callscope()
                .args(["list", fixtures, flag, value])
                .args(args)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{flag} {args:?}");
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(stderr, said(flag, value), "{flag} {value} {args:?}");
        }
    }
    // A value with a comma that an event holds is matched, and nothing is said.
    let out = callscope()
        .args([
            "list",
            fixtures,
            "--device",
            "Pixel 7, Pro",
            "--format",
            "ndjson",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("no event has"), "{stderr}");
    // Types are a list.
    assert_eq!(
        list(&[fixtures, "--type", "join,publish", "--format", "csv"])
            .lines()
            .count(),
        list(&[
            fixtures, "--type", "join", "--type", "publish", "--format", "csv"
        ])
        .lines()
        .count()
    );
}

#[test]
fn saved_pages_of_a_larger_answer_are_said_to_be_partial_on_stderr() {
    // page1.json says its query matched 3 events and gives a next cursor: it holds 2.
    callscope()
        .args(["list", "--format", "ndjson"])
        .arg(fixture("page1.json"))
        .assert()
        .success()
        .stdout(predicate::str::is_empty().not())
        .stderr(predicate::str::contains(
            "callscope: partial: the saved page holds 2 of the 3 events their query matched",
        ));
    // With its last page beside it, the answer is whole: nothing said of it (but the event the
    // second page repeats, dropped).
    callscope()
        .args(["list", "--format", "ndjson"])
        .arg(fixture("page1.json"))
        .arg(fixture("page2.json"))
        .assert()
        .success()
        .stderr(
            "callscope: note: 1 event dropped: its id was read before (the first copy is kept)\n",
        );
    // A dump of events says nothing of the kind.
    callscope()
        .args(["list", "--format", "ndjson"])
        .arg(fixture("quirks.ndjson"))
        .assert()
        .success()
        .stderr(predicate::str::contains("partial").not());
}

/// Events holding a field of another type than the API's are said on stderr after the answer,
/// however the dump is read; stdout and the exit status are what they are without the note.
#[test]
fn events_with_a_field_of_another_type_are_counted_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = callscope()
        .args(["demo-data", "--events", "12"])
        .output()
        .map(|o| String::from_utf8(o.stdout).unwrap())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let plain = lines.join("\n") + "\n";
    lines[2] = lines[2]
        .replacen("\"is_terminal\":false", "\"is_terminal\":\"true\"", 1)
        .replacen("\"is_terminal\":true", "\"is_terminal\":\"true\"", 1);
    assert!(
        lines[2].contains("\"is_terminal\":\"true\""),
        "{}",
        lines[2]
    );
    lines[5] = lines[5].replacen("\"timestamp\":\"", "\"timestamp\":1763460000,\"t\":\"", 1);
    // A later copy of an odd event: dropped, and not counted again.
    lines.push(lines[2].clone());
    let text = lines.join("\n") + "\n";
    let path = dir.path().join("odd.ndjson");
    std::fs::write(&path, &text).unwrap();
    let clean = dir.path().join("clean.ndjson");
    std::fs::write(&clean, &plain).unwrap();
    let note = "callscope: note: 2 events hold a field of another type than the API's, read as \
                absent (is_terminal: a string, 1 event; timestamp: a number, 1 event)";
    for format in ["table", "csv"] {
        let out = callscope()
            .args(["list", "--format", format])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.lines().any(|l| l == note), "{format}: {stderr}");
        let stdin = callscope()
            .args(["list", "-", "--format", format])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(stdin.status.code(), Some(0));
        assert_eq!(stdin.stdout, out.stdout, "{format}");
        let stderr = String::from_utf8(stdin.stderr).unwrap();
        assert!(
            stderr.lines().any(|l| l == note),
            "stdin, {format}: {stderr}"
        );
        // The same dump with every field of the API's type says nothing of it.
        let out = callscope()
            .args(["list", "--format", format])
            .arg(&clean)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!stderr.contains("another type"), "{format}: {stderr}");
    }
}

/// A folder written with pseudonyms says the same count of events with a field of another type
/// as one written without: that of the events read, not of those written again with pseudonyms.
#[test]
fn a_redacted_folder_counts_the_events_of_another_type_as_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.ndjson");
    std::fs::write(
        &path,
        "{\"id\":\"e1\",\"timestamp\":\"2026-11-18T10:00:00Z\",\"type\":\"client.join.failed\",\
         \"data\":{\"peer_id\":\"p1\",\"room_id\":\"r1\",\"is_terminal\":\"true\"}}\n\
         {\"id\":\"e2\",\"timestamp\":\"2026-11-18T10:00:01Z\",\"type\":\"client.join.failed\",\
         \"data\":{\"peer_id\":\"p2\",\"room_id\":\"r1\",\"is_terminal\":\"false\"}}\n",
    )
    .unwrap();
    let note = "callscope: note: 2 events hold a field of another type than the API's, read as \
                absent (is_terminal: a string)";
    for (name, redact) in [("plain/", false), ("redacted/", true)] {
        let mut cmd = callscope();
        cmd.arg("list")
            .arg(&path)
            .args(["--max", "1", "--output"])
            .arg(format!("{}/{name}", dir.path().display()));
        if redact {
            cmd.arg("--redact");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.lines().any(|l| l == note), "{name}: {stderr}");
    }
}

/// With a filter, a dump's events are counted among those the filter read: every event for
/// `--terminal` (whose `is_terminal: "true"` it leaves out), the events of the type asked for
/// with `--type`, and none of the others, in every format, from a file, an envelope, a gzip'd
/// stream and standard input alike.
#[test]
fn a_filter_says_the_events_of_another_type_among_those_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let event = |id: &str, kind: &str, terminal: &str| {
        format!(
            "{{\"id\":\"{id}\",\"timestamp\":\"2026-11-18T10:00:00Z\",\"type\":\"{kind}\",\
             \"data\":{{\"peer_id\":\"p1\",\"room_id\":\"r1\",\"is_terminal\":{terminal}}}}}\n"
        )
    };
    let text = [
        event("e1", "client.join.failed", "\"true\""),
        event("e2", "client.join.failed", "true"),
        event("e3", "client.publish.failed", "\"false\""),
        event("e4", "client.publish.failed", "\"true\""),
    ]
    .concat();
    let path = dir.path().join("odd.ndjson");
    std::fs::write(&path, &text).unwrap();
    let envelope = dir.path().join("odd.json");
    let events: Vec<&str> = text.lines().collect();
    std::fs::write(&envelope, format!("{{\"events\":[{}]}}", events.join(","))).unwrap();
    let note = |n: &str| {
        format!(
            "callscope: note: of the events the filter read, {n} a field of another type than \
             the API's, read as absent (is_terminal: a string)"
        )
    };
    let gz = dir.path().join("odd.ndjson.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
    encoder.finish().unwrap();
    // Read from a file mapped, an envelope, a gzip'd stream, and standard input.
    let stdin = std::path::PathBuf::from("-");
    for file in [&path, &envelope, &gz, &stdin] {
        for format in ["table", "csv", "ndjson", "json"] {
            for (filter, said, answer) in [
                (
                    &["--terminal"][..],
                    Some(note("3 events hold")),
                    &["e2"][..],
                ),
                (
                    &["--type", "join"],
                    Some(note("1 event holds")),
                    &["e1", "e2"],
                ),
                (
                    &["--type", "join", "--terminal"],
                    Some(note("1 event holds")),
                    &["e2"],
                ),
                (&["--room", "r2"], None, &[]),
            ] {
                let out = callscope()
                    .args(["list", "--format", format])
                    .args(filter)
                    .arg(file)
                    .write_stdin(text.clone())
                    .output()
                    .unwrap();
                let what = format!("{} {format} {filter:?}", file.display());
                assert_eq!(out.status.code(), Some(0), "{what}");
                let stdout = String::from_utf8(out.stdout).unwrap();
                // The table shows no ids.
                if format != "table" {
                    let ids: Vec<&str> = ["e1", "e2", "e3", "e4"]
                        .into_iter()
                        .filter(|id| {
                            stdout.contains(&format!("{id},"))
                                || stdout.contains(&format!("\"{id}\""))
                        })
                        .collect();
                    assert_eq!(ids, answer, "{what}: {stdout}");
                }
                let stderr = String::from_utf8(out.stderr).unwrap();
                let noted: Vec<&str> = stderr
                    .lines()
                    .filter(|l| l.contains("another type"))
                    .collect();
                assert_eq!(noted, said.as_slice(), "{what}: {stderr}");
            }
        }
    }
}
