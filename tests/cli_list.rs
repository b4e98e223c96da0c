//! `callscope list` as scripts use it: every format and filter, checked against the same
//! selection done independently over `serde_json::Value`s.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::list;

fn callscope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callscope"))
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fixture(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// `list ARGS` over every fixture, as NDJSON.
fn list_all(args: &[&str]) -> String {
    let dir = fixtures_dir();
    let mut all = vec![dir.to_str().unwrap(), "--format", "ndjson"];
    all.extend_from_slice(args);
    list(&all)
}

fn parse_lines(ndjson: &str) -> Vec<Value> {
    ndjson
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The events of a dump, found the way `jq '.events[]? // .'` would: envelopes give their events,
/// arrays their elements, anything else is an event.
fn events_in(path: &Path) -> Vec<Value> {
    fn flatten(v: Value, out: &mut Vec<Value>) {
        match v {
            Value::Object(ref o)
                if o.get("events").is_some_and(Value::is_array) && !o.contains_key("type") =>
            {
                let Value::Object(mut o) = v else {
                    unreachable!()
                };
                if let Some(Value::Array(events)) = o.remove("events") {
                    out.extend(events);
                }
            }
            Value::Array(items) => items.into_iter().for_each(|i| flatten(i, out)),
            other => out.push(other),
        }
    }
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for v in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
        flatten(v.unwrap(), &mut out);
    }
    out
}

/// Every fixture's events in folder order, de-duplicated by id with the first copy kept.
fn reference() -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "ndjson")
            )
        })
        .collect();
    files.sort();
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .flat_map(|f| events_in(f))
        .filter(|e| seen.insert(e["id"].as_str().unwrap().to_string()))
        .collect()
}

fn select(pred: impl Fn(&Value) -> bool) -> Vec<Value> {
    reference().into_iter().filter(|e| pred(e)).collect()
}

fn data<'a>(e: &'a Value, field: &str) -> &'a Value {
    &e["data"][field]
}

fn ts(e: &Value) -> &str {
    e["timestamp"].as_str().unwrap()
}

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

/// The csv row PRODUCT.md describes, built from the event's JSON.
fn csv_row(e: &Value) -> Vec<String> {
    let text = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut row = vec![text(&e["id"]), text(&e["timestamp"]), text(&e["type"])];
    for f in [
        "error_code",
        "error_name",
        "is_terminal",
        "action",
        "room_id",
        "room_name",
        "session_id",
    ] {
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

/// Where each header label starts, in display columns. The time column is headed by the day
/// when every row shares it (`2024-11-18 UTC`), else `TIME (UTC)`: either way it is first.
fn header_columns(header: &str) -> Vec<usize> {
    let labels = [
        "", "TYPE", "CODE", "ERROR", "STATUS", "USER", "ROOM", "SDK", "OS",
    ];
    labels
        .iter()
        .map(|l| {
            let byte = header.find(l).unwrap_or_else(|| panic!("{l} in {header}"));
            unicode_width::UnicodeWidthStr::width(&header[..byte])
        })
        .collect()
}

/// The text of a row from display column `from` on.
fn from_column(row: &str, from: usize) -> String {
    let mut width = 0;
    let mut out = String::new();
    for c in row.chars() {
        if width >= from {
            out.push(c);
        }
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
    }
    out
}

/// The text of a row between two display columns.
fn cell(row: &str, from: usize, to: usize) -> String {
    let all = from_column(row, from);
    let mut width = 0;
    all.chars()
        .take_while(|c| {
            width += unicode_width::UnicodeWidthChar::width(*c).unwrap_or(0);
            width <= to - from
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

#[test]
fn table_aligns_every_cell_under_its_header() {
    let dir = fixtures_dir();
    let out = list(&[dir.to_str().unwrap(), "--format", "table"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "a header and twelve rows");
    let cols = header_columns(lines[0]);
    assert_eq!(cols[0], 0);
    let expected = reference();
    for (row, e) in lines[1..].iter().zip(&expected) {
        let width = unicode_width::UnicodeWidthStr::width(*row);
        for (k, &col) in cols
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(_, &col)| col < width)
        {
            let before = from_column(row, col - 2);
            assert!(
                before.starts_with("  "),
                "two spaces before column {k} in {row:?}"
            );
        }
        let cells: Vec<String> = (0..cols.len())
            .map(|k| match cols.get(k + 1) {
                Some(&next) => cell(row, cols[k], next),
                None => from_column(row, cols[k]),
            })
            .collect();
        // Every row of the fixtures falls on one day: the header says it once, and each row
        // gives the time of day.
        let time = ts(e);
        assert!(
            lines[0].starts_with(&format!("{} UTC  ", &time[..10])),
            "{}",
            lines[0]
        );
        assert_eq!(cells[0], &time[11..23], "{row}");
        assert_eq!(
            cells[2],
            data(e, "error_code")
                .as_i64()
                .map(|c| c.to_string())
                .unwrap_or_default()
        );
        let status = match data(e, "is_terminal").as_bool() {
            Some(true) => "final",
            Some(false) => "retried",
            None => "-",
        };
        assert_eq!(cells[4], status, "{row}");
        if e["id"] == "5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70" {
            assert_eq!(
                cells,
                [
                    "10:15:42.123",
                    "publish",
                    "4006",
                    "ICEDisconnected",
                    "final",
                    "Amara Okafor",
                    "weekly-standup",
                    "web 0.12.3",
                    "macOS 14.6.1"
                ]
            );
        }
        if e["type"] == "client.connect.failed" {
            assert_eq!(
                cells[6], "671f3c2a9e8d7b6a5c4d3e2f",
                "no room name: the room id"
            );
        }
    }
}

#[test]
fn table_aligns_wide_characters_and_keeps_long_cells_whole_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.ndjson");
    let event = |id: &str, user: &str, error: &str| {
        serde_json::json!({
            "version": "2.0", "id": id, "timestamp": "2024-11-18T10:00:00.5Z", "type": "client.join.failed",
            "data": {"user_name": user, "error_name": error, "error_code": 500, "is_terminal": false,
                     "room_id": "r1", "agent": {"sdk": "web", "sdk_version": "0.12.3", "os": "macOS", "os_version": "14"}}
        })
        .to_string()
    };
    let lines = [
        event("w1", "佐藤 花子", "ServerErrors"),
        event("w2", "Zoë", "AVeryLongErrorNameThatDoesNotFitInTheColumn"),
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let out = list(&[path.to_str().unwrap(), "--format", "table"]);
    let rows: Vec<&str> = out.lines().collect();
    let cols = header_columns(rows[0]);
    let user = cols[5];
    let error = cols[3];
    assert_eq!(cell(rows[1], user, cols[6]), "佐藤 花子");
    assert_eq!(cell(rows[2], user, cols[6]), "Zoë");
    assert_eq!(from_column(rows[1], cols[6]), "r1    web 0.12.3  macOS 14");
    assert_eq!(from_column(rows[1], cols[6]), from_column(rows[2], cols[6]));
    // Written to a pipe, not a terminal: nothing is cut.
    assert_eq!(
        cell(rows[2], error, cols[4]),
        "AVeryLongErrorNameThatDoesNotFitInTheColumn"
    );
    assert!(!out.contains('…'), "{out}");
}

#[test]
fn table_neutralises_control_characters_and_bidi_overrides() {
    let out = callscope()
        .args(["list", "--format", "table"])
        .arg(fixture("hostile.ndjson"))
        .arg(fixture("publish.json"))
        .assert()
        .success();
    let bytes = &out.get_output().stdout;
    let text = String::from_utf8(bytes.clone()).unwrap();
    for bad in [
        '\u{1b}', '\u{7}', '\r', '\u{8}', '\u{9b}', '\u{202e}', '\u{2066}',
    ] {
        assert!(!text.contains(bad), "{bad:?} in {text}");
    }
    assert!(!bytes.contains(&0x1b));
    assert!(text.contains("Mallory␛[31m"), "{text}");
    assert!(text.contains("weekly␇-␍standup␈"), "{text}");
    assert_eq!(text.lines().count(), 3);
}

#[test]
fn output_writes_the_file_atomically_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.ndjson");
    std::fs::write(&path, "old content\n").unwrap();
    let fixtures = fixtures_dir();
    for format in ["ndjson", "json", "csv", "table"] {
        callscope()
            .args(["list", "--format", format, "--output"])
            .arg(&path)
            .arg(&fixtures)
            .assert()
            .success()
            .stdout("")
            .stderr("");
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            written,
            list(&[fixtures.to_str().unwrap(), "--format", format]),
            "{format}"
        );
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["incident.ndjson"], "{format}");
    }
    callscope()
        .args(["list", "-o"])
        .arg(&path)
        .arg(fixture("subscribe.json"))
        .assert()
        .success();
    assert_eq!(
        parse_lines(&std::fs::read_to_string(&path).unwrap()),
        events_in(&fixture("subscribe.json"))
    );
}

#[test]
fn output_may_replace_the_file_being_read_and_may_be_relative() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.ndjson");
    std::fs::copy(fixture("quirks.ndjson"), &path).unwrap();
    callscope()
        .args([
            "list",
            "incident.ndjson",
            "--type",
            "join",
            "--output",
            "incident.ndjson",
        ])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout("");
    let quirks = std::fs::read_to_string(fixture("quirks.ndjson")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n", quirks.lines().nth(1).unwrap())
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// `list -o FILE` run by a shell under `umask`, as a person's shell would run it.
#[cfg(unix)]
fn list_under_umask(umask: &str, path: &Path, format: &str) {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask {umask} && exec \"$0\" list \"$1\" --format {format} -o \"$2\""
        ))
        .arg(env!("CARGO_BIN_EXE_callscope"))
        .arg(fixture("subscribe.json"))
        .arg(path)
        .status()
        .map(|s| assert!(s.success(), "{umask}: {s}"))
        .unwrap();
}

#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn a_new_output_file_gets_0666_less_the_umask_and_a_replaced_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    for (umask, mode) in [
        ("077", 0o600),
        ("027", 0o640),
        ("002", 0o664),
        ("022", 0o644),
    ] {
        for format in ["ndjson", "csv"] {
            let path = dir.path().join(format!("new-{umask}.{format}"));
            list_under_umask(umask, &path, format);
            assert_eq!(mode_of(&path), mode, "umask {umask}, {format}");
        }
    }
    let kept = dir.path().join("kept.ndjson");
    std::fs::write(&kept, "").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    list_under_umask("077", &kept, "ndjson");
    assert_eq!(mode_of(&kept), 0o640, "the mode of the file replaced");
    assert!(!std::fs::read_to_string(&kept).unwrap().is_empty());
}

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

#[test]
fn output_into_a_missing_folder_fails_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-folder").join("out.ndjson");
    callscope()
        .args(["list", "--output"])
        .arg(&path)
        .arg(fixture("subscribe.json"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(path.to_str().unwrap()));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn max_keeps_the_first_n_matching_events() {
    let all = reference();
    assert_eq!(parse_lines(&list_all(&["--max", "3"])), all[..3]);
    assert_eq!(list_all(&["--max", "0"]), "");
    assert_eq!(parse_lines(&list_all(&["--max", "100"])), all);
    let joins: Vec<Value> = select(|e| e["type"] == "client.join.failed");
    assert_eq!(
        parse_lines(&list_all(&["--type", "join", "--max", "2"])),
        joins[..2]
    );
}

#[test]
fn type_filters_take_aliases_full_names_and_repeats() {
    let of = |types: &[&str]| select(|e| types.contains(&e["type"].as_str().unwrap()));
    for (alias, name) in [
        ("publish", "client.publish.failed"),
        ("subscribe", "client.subscribe.failed"),
        ("join", "client.join.failed"),
        ("disconnected", "client.disconnected"),
        ("connect", "client.connect.failed"),
    ] {
        let expected = of(&[name]);
        assert!(!expected.is_empty(), "{name}");
        assert_eq!(
            parse_lines(&list_all(&["--type", alias])),
            expected,
            "{alias}"
        );
        assert_eq!(
            parse_lines(&list_all(&["--type", name])),
            expected,
            "{name}"
        );
    }
    let both = of(&["client.join.failed", "client.connect.failed"]);
    assert_eq!(
        parse_lines(&list_all(&[
            "--type",
            "join",
            "--type",
            "client.connect.failed"
        ])),
        both
    );
    assert_eq!(parse_lines(&list_all(&["--type", "connect,join"])), both);
    assert_eq!(
        parse_lines(&list_all(&["--type", "track.add.success"])),
        of(&["track.add.success"])
    );
}

#[test]
fn id_filters_select_exact_ids() {
    for (flag, field, value) in [
        ("--room", "room_id", "6735e0b1c4a92f5d18e3b7a1"),
        ("--room", "room_id", "671f3c2a9e8d7b6a5c4d3e2f"),
        ("--session", "session_id", "673b20aa9c4d5a6b7c8d9e10"),
        ("--peer", "peer_id", "1c7dab63-8e4f-4a2b-9c3d-6f7a8b9c0d1e"),
        ("--user", "user_id", "usr_7b2c4d93"),
    ] {
        let expected = select(|e| data(e, field) == value);
        assert!(!expected.is_empty(), "{flag} {value}");
        assert_eq!(
            parse_lines(&list_all(&[flag, value])),
            expected,
            "{flag} {value}"
        );
    }
    let expected = select(|e| {
        data(e, "room_id") == "6735e0b1c4a92f5d18e3b7a1" && data(e, "user_id") == "usr_8c1f2a90"
    });
    assert_eq!(expected.len(), 3);
    assert_eq!(
        parse_lines(&list_all(&[
            "--room",
            "6735e0b1c4a92f5d18e3b7a1",
            "--user",
            "usr_8c1f2a90"
        ])),
        expected
    );
}

#[test]
fn terminal_retried_and_code_filters() {
    let terminal = select(|e| data(e, "is_terminal") == true);
    let retried = select(|e| data(e, "is_terminal") == false);
    assert_eq!(parse_lines(&list_all(&["--terminal"])), terminal);
    assert_eq!(parse_lines(&list_all(&["--retried"])), retried);
    assert_eq!(
        terminal.len() + retried.len(),
        11,
        "the track event says neither"
    );
    for code in ["4006", "500", "1003", "2003"] {
        let expected = select(|e| *data(e, "error_code") == code.parse::<i64>().unwrap());
        assert!(!expected.is_empty());
        assert_eq!(
            parse_lines(&list_all(&["--code", code])),
            expected,
            "{code}"
        );
    }
    let final_joins = select(|e| data(e, "is_terminal") == true && data(e, "error_code") == 500);
    assert_eq!(
        parse_lines(&list_all(&[
            "--terminal",
            "--code",
            "500",
            "--type",
            "join"
        ])),
        final_joins
    );
}

/// Whether any string value (not key) of `v`, or any number as written, contains `needle`,
/// ignoring case.
fn has_text(v: &Value, needle: &str) -> bool {
    match v {
        Value::String(s) => s.to_lowercase().contains(&needle.to_lowercase()),
        Value::Number(n) => n
            .to_string()
            .to_lowercase()
            .contains(&needle.to_lowercase()),
        Value::Array(items) => items.iter().any(|i| has_text(i, needle)),
        Value::Object(o) => o.values().any(|i| has_text(i, needle)),
        _ => false,
    }
}

#[test]
fn search_matches_string_values_ignoring_case() {
    for needle in [
        "ice connection",
        "PIXEL 7, pro",
        "lucía",
        "PWNED",
        "math-tutoring",
        "meet.example.com:443",
    ] {
        let expected = select(|e| has_text(e, needle));
        assert!(!expected.is_empty(), "{needle}");
        assert_eq!(
            parse_lines(&list_all(&["--search", needle])),
            expected,
            "{needle}"
        );
    }
    for absent in ["error_description", "second copy"] {
        assert_eq!(list_all(&["--search", absent]), "", "{absent}");
    }
}

#[test]
fn search_finds_numbers_as_written_so_a_code_finds_every_event_of_that_code() {
    let with_code = select(|e| *data(e, "error_code") == 4006);
    let found = parse_lines(&list_all(&["--search", "4006"]));
    assert_eq!(found, select(|e| has_text(e, "4006")));
    assert!(
        with_code.iter().all(|e| found.contains(e)),
        "every event of code 4006 is found"
    );
    assert!(!with_code.is_empty());
    // A part of a number, and numbers other than the code.
    for needle in ["00", "12345678901234567890"] {
        assert_eq!(
            parse_lines(&list_all(&[&format!("--search={needle}")])),
            select(|e| has_text(e, needle)),
            "{needle}"
        );
    }
}

#[test]
fn since_and_until_take_rfc3339_times() {
    let between = |a: &str, b: &str| select(|e| ts(e) >= a && ts(e) <= b);
    let expected = between(
        "2024-11-18T10:15:42.123456789Z",
        "2024-11-18T11:00:01.200000000Z",
    );
    assert_eq!(expected.len(), 6);
    assert_eq!(
        parse_lines(&list_all(&[
            "--since",
            "2024-11-18T10:15:42.123456789Z",
            "--until",
            "2024-11-18T11:00:01.2Z"
        ])),
        expected
    );
    assert_eq!(
        parse_lines(&list_all(&[
            "--since",
            "2024-11-18T12:15:42.123456789+02:00"
        ])),
        select(|e| ts(e) >= "2024-11-18T10:15:42.123456789Z")
    );
    assert_eq!(
        parse_lines(&list_all(&["--until", "2024-11-18T10:20:00Z"])),
        select(|e| ts(e) <= "2024-11-18T10:20:00Z")
    );
}

#[test]
fn since_and_until_take_durations_back_from_now() {
    let all = reference();
    // The fixtures are from November 2024.
    assert_eq!(parse_lines(&list_all(&["--since", "36500d"])), all);
    assert_eq!(parse_lines(&list_all(&["--until", "1h"])), all);
    // Nothing, and the time the events span said beside it.
    for range in [["--since", "90m"], ["--until", "36500d"]] {
        callscope()
            .arg("list")
            .arg(fixtures_dir())
            .args(range)
            .args(["--format", "ndjson"])
            .assert()
            .success()
            .stdout("")
            .stderr(predicate::str::contains("the events read span 2024-11-18"));
    }
    assert_eq!(
        parse_lines(&list_all(&["--since", "5200w", "--until", "2s"])),
        all
    );
}

#[test]
fn zero_matches_exit_0_with_empty_output() {
    for args in [
        &["--room", "no-such-room"][..],
        &["--type", "connect", "--retried"],
        &["--code", "9999"],
        &["--search", "nothing like this"],
    ] {
        assert_eq!(list_all(args), "", "{args:?}");
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
fn a_pasted_id_with_spaces_around_it_is_the_id() {
    let exact = common::list_ndjson(["--demo", "--room", "673a1f2c9e4b8d0a5c7e3f21"]);
    assert!(!exact.is_empty());
    let pasted = common::list_ndjson(["--demo", "--room", " 673a1f2c9e4b8d0a5c7e3f21\n"]);
    assert_eq!(pasted, exact);
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
    // With its last page beside it, the answer is whole: nothing said.
    callscope()
        .args(["list", "--format", "ndjson"])
        .arg(fixture("page1.json"))
        .arg(fixture("page2.json"))
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    // A dump of events says nothing of the kind.
    callscope()
        .args(["list", "--format", "ndjson"])
        .arg(fixture("quirks.ndjson"))
        .assert()
        .success()
        .stderr(predicate::str::contains("partial").not());
}
