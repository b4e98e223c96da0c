//! The output formats: NDJSON keeps each event's bytes, JSON is an envelope that reopens, CSV
//! has the contract's header.

use super::*;

#[test]
fn ndjson_lines_are_the_input_events_unchanged() {
    let out = list_all(&[]);
    let expected = reference();
    assert_eq!(expected.len(), 12);
    assert_eq!(parse_lines(&out), expected);
}

#[test]
fn ndjson_is_the_default_when_stdout_is_not_a_terminal() {
    let dir = fixtures_dir();
    assert_eq!(list(&[dir.to_str().unwrap()]), list_all(&[]));
}

#[test]
fn ndjson_keeps_the_bytes_of_compact_events_numbers_included() {
    let quirks = std::fs::read_to_string(fixture("quirks.ndjson")).unwrap();
    let hostile = std::fs::read_to_string(fixture("hostile.ndjson")).unwrap();
    let out = list(&[
        fixture("quirks.ndjson").to_str().unwrap(),
        fixture("hostile.ndjson").to_str().unwrap(),
        "--format",
        "ndjson",
    ]);
    assert_eq!(out, format!("{quirks}{hostile}"));
    for number in [
        "\"volume\":1.50",
        "\"rtt_ms\":1.50",
        "\"sequence\":12345678901234567890",
        "\"bytes_sent\":12345678901234567890",
        "\"maxBitrate\":1e3",
        "\"lag_ms\":1e3",
        "\"timestamp\":\"2024-11-18T11:21:00.000000007Z\"",
        "\"session_id\":null",
        "\"gpu\":null",
    ] {
        assert!(out.contains(number), "{number}");
    }
    assert!(out.contains(r#""error_message":"\u001b[2J\u001b]0;pwned\u0007 \u202eevil"#));
}

#[test]
fn ndjson_puts_a_pretty_printed_event_on_one_line_with_its_strings_intact() {
    let out = list(&[
        fixture("publish.json").to_str().unwrap(),
        "--format",
        "ndjson",
    ]);
    assert_eq!(out.lines().count(), 1);
    assert!(out.ends_with("}\n"));
    assert_eq!(parse_lines(&out), events_in(&fixture("publish.json")));
    assert!(out.contains(r#""device_model":"Chrome 130""#));
    assert!(out.contains(r#""error_message":"[PUBLISH]: ICE Connection Disconnected""#));
    assert!(
        !out.contains("\": ") && !out.contains(", \""),
        "whitespace between tokens is dropped"
    );
}

#[test]
fn json_writes_an_envelope_that_reopens_to_the_same_events() {
    let dir = fixtures_dir();
    let out = list(&[dir.to_str().unwrap(), "--format", "json"]);
    let envelope: Value = serde_json::from_str(&out).unwrap();
    let expected = reference();
    let keys: Vec<&str> = envelope
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["limit", "total", "next", "events"]);
    assert_eq!(envelope["limit"], expected.len());
    assert_eq!(envelope["total"], expected.len());
    assert_eq!(envelope["next"], "");
    assert_eq!(envelope["events"].as_array().unwrap(), &expected);

    let saved = tempfile::tempdir().unwrap();
    let path = saved.path().join("saved.json");
    std::fs::write(&path, &out).unwrap();
    assert_eq!(
        list(&[path.to_str().unwrap(), "--format", "ndjson"]),
        list_all(&[])
    );
    let again = callscope()
        .args(["list", "-", "--format", "json"])
        .write_stdin(out.clone())
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&again.get_output().stdout), out);
}

#[test]
fn json_of_zero_events_is_an_empty_envelope() {
    let dir = fixtures_dir();
    let out = list(&[
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--room",
        "no-such-room",
    ]);
    let envelope: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        envelope,
        serde_json::json!({"limit":0,"total":0,"next":"","events":[]})
    );
}

const CSV_HEADER: &str = "id,timestamp,type,error_code,error_name,is_terminal,action,room_id,room_name,session_id,peer_id,user_id,user_name,role,sdk,sdk_version,os,os_version,device_model,error_message,error_description";

/// The csv row PRODUCT.md describes, built from the event's JSON as README says: each field as
/// callscope reads it (a string, a whole `error_code`, a boolean `is_terminal`), anything else
/// an empty cell.
fn csv_row(e: &Value) -> Vec<String> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut row = vec![text(&e["id"]), text(&e["timestamp"]), text(&e["type"])];
    let code = data(e, "error_code");
    row.push(match code.as_f64() {
        Some(c) if c.fract() == 0.0 => format!("{}", c as i64),
        _ => String::new(),
    });
    row.push(text(data(e, "error_name")));
    row.push(
        data(e, "is_terminal")
            .as_bool()
            .map(|t| t.to_string())
            .unwrap_or_default(),
    );
    for f in ["action", "room_id", "room_name", "session_id"] {
        row.push(text(data(e, f)));
    }
    for f in ["peer_id", "user_id", "user_name", "role"] {
        row.push(text(data(e, f)));
    }
    for f in ["sdk", "sdk_version", "os", "os_version", "device_model"] {
        row.push(text(&data(e, "agent")[f]));
    }
    row.push(text(data(e, "error_message")));
    row.push(text(data(e, "error_description")));
    row
}

/// A field holding a value of another JSON type than the API's reads as absent: its csv cell is
/// empty, as an absent field's is, in every column alike (a string `"true"` is not a final
/// event, a string `"4006"` no code), where a field of the API's type is written as read. The
/// note after the answer names each kind with its count.
#[test]
fn csv_writes_a_field_of_another_type_as_an_empty_cell_and_the_note_names_each_kind() {
    let dir = tempfile::tempdir().unwrap();
    let event = |id: &str, ts: &str, data: &str| {
        format!(
            "{{\"id\":\"{id}\",\"timestamp\":{ts},\"type\":\"client.join.failed\",\
             \"data\":{{\"room_id\":\"r1\",{data}}}}}\n"
        )
    };
    let t = "\"2026-11-18T10:00:00Z\"";
    let text = [
        event(
            "typed",
            t,
            r#""error_code":4006,"is_terminal":true,"role":"host""#,
        ),
        event(
            "code-float",
            t,
            r#""error_code":4006.0,"is_terminal":false"#,
        ),
        event("term-str", t, r#""is_terminal":"true""#),
        event("term-num", t, r#""is_terminal":1"#),
        event("code-str", t, r#""error_code":"4006""#),
        event("role-num", t, r#""role":7,"agent":{"sdk":true,"os":"ios"}"#),
        event("ts-num", "1763452861", r#""user_name":["a"]"#),
    ]
    .concat();
    let path = dir.path().join("odd.ndjson");
    std::fs::write(&path, &text).unwrap();
    let out = callscope()
        .args(["list", "--format", "csv"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let csv_text = String::from_utf8(out.stdout).unwrap();
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let cell = |id: &str, column: &str| {
        let at = CSV_HEADER.split(',').position(|c| c == column).unwrap();
        rows.iter().find(|r| r[0] == id).unwrap()[at].clone()
    };
    assert_eq!(cell("typed", "error_code"), "4006");
    assert_eq!(cell("typed", "is_terminal"), "true");
    assert_eq!(cell("typed", "role"), "host");
    assert_eq!(cell("code-float", "error_code"), "4006");
    assert_eq!(cell("code-float", "is_terminal"), "false");
    for (id, column) in [
        ("term-str", "is_terminal"),
        ("term-num", "is_terminal"),
        ("code-str", "error_code"),
        ("role-num", "role"),
        ("role-num", "sdk"),
        ("ts-num", "timestamp"),
        ("ts-num", "user_name"),
    ] {
        assert_eq!(cell(id, column), "", "{id} {column}");
    }
    assert_eq!(cell("role-num", "os"), "ios");
    assert_eq!(cell("ts-num", "room_id"), "r1");
    // The rule is the reference's, event by event.
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let expected: Vec<Vec<String>> = events.iter().map(csv_row).collect();
    assert_eq!(rows, expected);
    // `--terminal` agrees with the cells: the one row with `true` is the one final event.
    let terminal = callscope()
        .args(["list", "--terminal", "--format", "csv"])
        .arg(&path)
        .output()
        .unwrap();
    let terminal = String::from_utf8(terminal.stdout).unwrap();
    assert_eq!(terminal.lines().count(), 2, "{terminal}");
    assert!(terminal.lines().nth(1).unwrap().starts_with("typed,"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.lines().any(|l| l
            == "callscope: note: 5 events hold a field of another type than the API's, read \
                as absent (is_terminal: a string, 1 event; is_terminal: a number, 1 event; \
                error_code: a string, 1 event; and 2 more kinds, 2 events)"),
        "{stderr}"
    );
}

#[test]
fn csv_has_the_contract_header_and_one_quoted_row_per_event() {
    let dir = fixtures_dir();
    let out = list(&[dir.to_str().unwrap(), "--format", "csv"]);
    assert!(out.starts_with(&format!("{CSV_HEADER}\n")));
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    assert_eq!(
        reader
            .headers()
            .unwrap()
            .iter()
            .collect::<Vec<_>>()
            .join(","),
        CSV_HEADER
    );
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let expected: Vec<Vec<String>> = reference().iter().map(csv_row).collect();
    assert_eq!(rows.len(), expected.len());
    for (row, want) in rows.iter().zip(&expected) {
        assert_eq!(row, want);
    }

    // Commas, quotes and a newline inside a field are quoted, quotes doubled.
    assert!(out.contains(",\"Pixel 7, Pro\","));
    assert!(
        out.contains("\"\u{1b}[2J\u{1b}]0;pwned\u{7} \u{202e}evil, \"\"quoted\"\"\nsecond line\"")
    );
    // Absent fields are empty cells; the connect failure lacks four.
    let connect = rows
        .iter()
        .find(|r| r[2] == "client.connect.failed")
        .unwrap();
    assert_eq!(
        (&connect[8], &connect[9], &connect[13]),
        (&String::new(), &String::new(), &String::new())
    );
    assert_eq!(connect[1], "2024-11-18T10:02:03.000123456Z");
    // The id joins a row back to its event.
    assert!(rows.iter().all(|r| !r[0].is_empty()));
}

#[test]
fn csv_of_zero_events_is_the_header_alone() {
    let dir = fixtures_dir();
    let out = list(&[dir.to_str().unwrap(), "--format", "csv", "--code", "1"]);
    assert_eq!(out, format!("{CSV_HEADER}\n"));
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_list_quietly_in_every_format() {
    for format in ["ndjson", "json", "csv", "table"] {
        for group_by in [None, Some("error")] {
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
                .args(["list", "--demo", "--format", format])
                .args(group_by.iter().flat_map(|g| ["--group-by", g]))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // Closed before anything is written: every write meets a closed pipe (`| head -0`).
            drop(child.stdout.take());
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{format} {group_by:?}: {stderr}");
            assert_eq!(stderr, "", "{format} {group_by:?}");
        }
    }
}
