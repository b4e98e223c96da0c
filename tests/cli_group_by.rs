//! `callscope list --group-by` as people and scripts use it: the demo's incidents show up in the
//! groups, and every number agrees with the same grouping done here over the events' JSON.

use std::collections::{BTreeMap, BTreeSet};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";

mod common;
use common::list;

fn callscope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callscope"))
}

/// The groups of `list --demo ARGS --format json`.
fn groups(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["--demo", "--format", "json"];
    all.extend_from_slice(args);
    match serde_json::from_str(&list(&all)).unwrap() {
        Value::Array(groups) => groups,
        other => panic!("not an array: {other}"),
    }
}

/// The demo's events, in load order, as `list --demo ARGS` prints them.
fn events(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["--demo", "--format", "ndjson"];
    all.extend_from_slice(args);
    list(&all)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn data<'a>(e: &'a Value, field: &str) -> &'a Value {
    &e["data"][field]
}

fn agent<'a>(e: &'a Value, field: &str) -> &'a Value {
    &e["data"]["agent"][field]
}

/// A string field, or null when it is absent or not a string (the store keeps strings only).
fn text(v: &Value) -> Value {
    if v.is_string() {
        v.clone()
    } else {
        Value::Null
    }
}

/// The agent string's `env`: `key:value` pairs separated by commas.
fn env(e: &Value) -> Value {
    agent(e, "string")
        .as_str()
        .and_then(|s| {
            s.split(',')
                .filter_map(|p| p.split_once(':'))
                .find(|(k, _)| k.trim() == "env")
                .map(|(_, v)| Value::from(v))
        })
        .unwrap_or(Value::Null)
}

/// What an event is grouped on under `key`, as the fields of the output's `key` object (the
/// name shown beside a room or peer id left out: it is not grouped on).
fn key_of(key: &str, e: &Value) -> Vec<(&'static str, Value)> {
    match key {
        "error" => vec![
            ("type", text(&e["type"])),
            (
                "error_code",
                data(e, "error_code")
                    .as_i64()
                    .map_or(Value::Null, Value::from),
            ),
            ("error_name", text(data(e, "error_name"))),
        ],
        "sdk" => vec![
            ("sdk", text(agent(e, "sdk"))),
            ("sdk_version", text(agent(e, "sdk_version"))),
        ],
        "os" => vec![
            ("os", text(agent(e, "os"))),
            ("os_version", text(agent(e, "os_version"))),
        ],
        "device" => vec![("device_model", text(agent(e, "device_model")))],
        "role" => vec![("role", text(data(e, "role")))],
        "room" => vec![("room_id", text(data(e, "room_id")))],
        "domain" => {
            let own = text(data(e, "domain"));
            let domain = if own.is_null() && data(e, "agent").is_object() {
                text(agent(e, "domain"))
            } else {
                own
            };
            vec![("domain", domain)]
        }
        "env" => vec![("env", env(e))],
        "peer" => vec![("peer_id", text(data(e, "peer_id")))],
        _ => unreachable!(),
    }
}

/// The field named beside the id: the first one met in load order.
fn display_field(key: &str) -> Option<&'static str> {
    match key {
        "room" => Some("room_name"),
        "peer" => Some("user_name"),
        _ => None,
    }
}

#[derive(Default)]
struct Expected {
    count: u64,
    finals: u64,
    peers: BTreeSet<String>,
    rooms: BTreeSet<String>,
    first: Option<i64>,
    last: Option<i64>,
    display: Option<String>,
}

fn nanos(t: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(t)
        .unwrap()
        .timestamp_nanos_opt()
        .unwrap()
}

fn rfc3339(ns: i64) -> Value {
    let t = chrono::DateTime::<chrono::Utc>::from_timestamp_nanos(ns);
    Value::from(t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true))
}

/// The groups computed here from the events' JSON, keyed by the output's `key` object.
fn expected(key: &str, events: &[Value]) -> BTreeMap<String, Expected> {
    let mut out: BTreeMap<String, Expected> = BTreeMap::new();
    for e in events {
        let k = key_of(key, e);
        let g = out.entry(Value::from_iter(k).to_string()).or_default();
        g.count += 1;
        g.finals += u64::from(data(e, "is_terminal") == &json!(true));
        if let Some(p) = data(e, "peer_id").as_str() {
            g.peers.insert(p.to_string());
        }
        if let Some(r) = data(e, "room_id").as_str() {
            g.rooms.insert(r.to_string());
        }
        if let Some(t) = e["timestamp"].as_str() {
            let t = nanos(t);
            g.first = Some(g.first.map_or(t, |f| f.min(t)));
            g.last = Some(g.last.map_or(t, |l| l.max(t)));
        }
        if let Some(field) = display_field(key)
            && g.display.is_none()
        {
            g.display = data(e, field).as_str().map(str::to_string);
        }
    }
    out
}

/// Every number of `--group-by KEY --format json` against [`expected`].
fn cross_check(key: &str, filters: &[&str]) {
    let events = events(filters);
    let want = expected(key, &events);
    let mut args = vec!["--group-by", key];
    args.extend_from_slice(filters);
    let got = groups(&args);
    assert_eq!(got.len(), want.len(), "{key}: how many groups");
    let mut total = 0;
    for g in &got {
        let mut k = g["key"].as_object().unwrap().clone();
        let display = display_field(key).map(|f| k.remove(f).unwrap());
        let w = want
            .get(&Value::Object(k.clone()).to_string())
            .unwrap_or_else(|| panic!("{key}: unexpected group {g}"));
        assert_eq!(g["count"], json!(w.count), "{key}: {g}");
        assert_eq!(g["final"], json!(w.finals), "{key}: {g}");
        assert_eq!(g["peers"], json!(w.peers.len()), "{key}: {g}");
        assert_eq!(g["rooms"], json!(w.rooms.len()), "{key}: {g}");
        assert_eq!(
            g["first_seen"],
            w.first.map_or(Value::Null, rfc3339),
            "{key}: {g}"
        );
        assert_eq!(
            g["last_seen"],
            w.last.map_or(Value::Null, rfc3339),
            "{key}: {g}"
        );
        if let Some(display) = display {
            assert_eq!(
                display,
                w.display.clone().map_or(Value::Null, Value::from),
                "{key}: {g}"
            );
        }
        total += w.count;
    }
    assert_eq!(total as usize, events.len());
    // Largest first.
    let counts: Vec<u64> = got.iter().map(|g| g["count"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{key}: {counts:?}");
}

#[test]
fn every_number_of_the_error_groups_matches_the_events() {
    cross_check("error", &[]);
}

#[test]
fn every_key_matches_the_events() {
    for key in [
        "sdk", "os", "device", "role", "room", "domain", "env", "peer",
    ] {
        cross_check(key, &[]);
    }
}

#[test]
fn filters_apply_before_grouping() {
    cross_check("error", &["--room", STORM_ROOM]);
    cross_check("sdk", &["--type", "disconnected", "--retried"]);
    cross_check("room", &["--terminal"]);
    for g in groups(&["--group-by", "room", "--terminal"]) {
        assert_eq!(g["count"], g["final"], "{g}");
    }
}

#[test]
fn the_join_storm_is_the_top_error_of_its_room() {
    let got = groups(&["--group-by", "error", "--room", STORM_ROOM]);
    let top = &got[0];
    assert_eq!(
        top["key"],
        json!({"type": "client.join.failed", "error_code": 500, "error_name": "ServerErrors"})
    );
    let storm: Vec<Value> = events(&["--room", STORM_ROOM, "--type", "join", "--code", "500"]);
    let finals = storm
        .iter()
        .filter(|e| data(e, "is_terminal") == &json!(true))
        .count();
    assert_eq!(top["count"], json!(storm.len()));
    assert_eq!(top["final"], json!(finals));
    // The storm is a sixth of the demo, most of it retried.
    assert!(storm.len() >= 400, "{top}");
    assert!(finals * 4 < storm.len(), "{top}");
    assert!(top["count"].as_u64().unwrap() > 4 * got[1]["count"].as_u64().unwrap());
}

#[test]
fn the_disconnects_cluster_on_one_web_release() {
    let got = groups(&["--group-by", "sdk", "--type", "disconnected"]);
    assert_eq!(
        got[0]["key"],
        json!({"sdk": "web", "sdk_version": "0.11.4"})
    );
    assert!(got[0]["count"].as_u64().unwrap() > 2 * got[1]["count"].as_u64().unwrap());
    assert!(
        got[0]["rooms"].as_u64().unwrap() > 3,
        "in every room: {}",
        got[0]
    );
}

#[test]
fn the_connect_failures_cluster_on_one_android_handset() {
    let got = groups(&["--group-by", "device", "--type", "connect"]);
    assert_eq!(got[0]["key"], json!({"device_model": "Galaxy A14"}));
    assert!(got[0]["count"].as_u64().unwrap() > 2 * got[1]["count"].as_u64().unwrap());
    let sdk = groups(&["--group-by", "sdk", "--type", "connect"]);
    assert_eq!(
        sdk[0]["key"],
        json!({"sdk": "android", "sdk_version": "2.9.54"})
    );
    assert_eq!(sdk[0]["count"], got[0]["count"]);
}

#[test]
fn sorting_by_last_seen_puts_the_latest_group_first() {
    let got = groups(&["--group-by", "room", "--sort", "last"]);
    let lasts: Vec<&str> = got
        .iter()
        .map(|g| g["last_seen"].as_str().unwrap())
        .collect();
    assert!(lasts.windows(2).all(|w| w[0] >= w[1]), "{lasts:?}");
}

#[test]
fn ndjson_and_csv_say_what_json_says() {
    let json = groups(&["--group-by", "os"]);
    let ndjson: Vec<Value> = list(&["--demo", "--group-by", "os", "--format", "ndjson"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ndjson, json);
    let csv = list(&["--demo", "--group-by", "os", "--format", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "os",
            "os_version",
            "count",
            "final",
            "peers",
            "rooms",
            "first_seen",
            "last_seen"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), json.len());
    for (row, g) in rows.iter().zip(&json) {
        let cell = |v: &Value| match v {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let want = [
            cell(&g["key"]["os"]),
            cell(&g["key"]["os_version"]),
            cell(&g["count"]),
            cell(&g["final"]),
            cell(&g["peers"]),
            cell(&g["rooms"]),
            cell(&g["first_seen"]),
            cell(&g["last_seen"]),
        ];
        assert_eq!(row.iter().collect::<Vec<_>>(), want);
    }
}

#[test]
fn the_table_is_for_people() {
    let table = list(&["--demo", "--group-by", "error", "--format", "table"]);
    let mut lines = table.lines();
    let header = lines.next().unwrap();
    for column in [
        "TYPE",
        "CODE",
        "ERROR",
        "COUNT",
        "FINAL",
        "FINAL %",
        "PEERS",
        "ROOMS",
        "FIRST SEEN",
        "LAST SEEN",
    ] {
        assert!(header.contains(column), "{header}");
    }
    let top = lines.next().unwrap();
    assert!(top.starts_with("join "), "{top}");
    assert!(top.contains("ServerErrors"), "{top}");
    assert!(top.contains('█'), "a sparkline: {top}");
    // The sparkline is for people only.
    let json = list(&["--demo", "--group-by", "error", "--format", "json"]);
    assert!(!json.contains('█'));
}

#[test]
fn groups_are_written_atomically_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("groups.json");
    callscope()
        .args([
            "list",
            "--demo",
            "--group-by",
            "role",
            "--format",
            "json",
            "--output",
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let written: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(written, Value::Array(groups(&["--group-by", "role"])));
}

#[test]
fn no_match_is_an_empty_result_and_success() {
    assert_eq!(
        groups(&["--group-by", "error", "--room", "no-such-room"]),
        Vec::<Value>::new()
    );
    let table = list(&[
        "--demo",
        "--group-by",
        "error",
        "--room",
        "no-such-room",
        "--format",
        "table",
    ]);
    assert_eq!(table.lines().count(), 1, "a bare header: {table}");
}

#[test]
fn usage_errors_exit_2_and_say_what_is_accepted() {
    callscope()
        .args(["list", "--demo", "--group-by", "browser"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error, sdk, os, device"));
    callscope()
        .args(["list", "--demo", "--sort", "last"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--group-by"));
    callscope()
        .args(["list", "--group-by", "error"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("name a source"));
}

#[test]
fn an_unreadable_dump_still_groups_what_was_read_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ndjson");
    let good = events(&["--room", STORM_ROOM, "--max", "3"]);
    let mut text: String = good.iter().map(|e| format!("{e}\n")).collect();
    text.push_str("{\"id\": oops\n");
    std::fs::write(&path, text).unwrap();
    let out = callscope()
        .args(["list", "--group-by", "room", "--format", "json"])
        .arg(&path)
        .assert()
        .code(2);
    let got: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(got[0]["count"], json!(3));
    assert_eq!(got[0]["key"]["room_id"], json!(STORM_ROOM));
}

/// A device the events do not have reads `(none)` in the table, as everywhere people read it;
/// the data formats keep it unambiguous: an empty csv cell, a JSON `null`.
#[test]
fn an_absent_value_reads_none_in_the_table_and_empty_or_null_in_the_data_formats() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("devices.ndjson");
    std::fs::write(
        &path,
        "{\"id\":\"a\",\"timestamp\":\"2026-11-18T10:00:00Z\",\"type\":\"client.join.failed\",\
         \"data\":{\"room_id\":\"r1\",\"peer_id\":\"p1\",\"agent\":{\"device_model\":\"Pixel 8\"}}}\n\
         {\"id\":\"b\",\"timestamp\":\"2026-11-18T10:00:01Z\",\"type\":\"client.join.failed\",\
         \"data\":{\"room_id\":\"r1\",\"peer_id\":\"p2\",\"agent\":{\"os\":\"ios\"}}}\n",
    )
    .unwrap();
    let run = |format: &str| {
        let out = callscope()
            .args(["list", "--group-by", "device", "--format", format])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}");
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run("table");
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(rows.iter().any(|r| r.starts_with("Pixel 8 ")), "{table}");
    assert!(rows.iter().any(|r| r.starts_with("(none) ")), "{table}");
    assert!(!rows.iter().any(|r| r.starts_with("- ")), "{table}");
    let csv = run("csv");
    assert!(csv.lines().any(|l| l.starts_with(",1,0,1,1,")), "{csv}");
    let json: Value = serde_json::from_str(&run("json")).unwrap();
    let keys: Vec<&Value> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["key"]["device_model"])
        .collect();
    assert!(keys.contains(&&Value::Null), "{json}");
    assert!(keys.contains(&&Value::from("Pixel 8")), "{json}");
}

/// An empty `peer_id` or `room_id` names no peer or room: PEERS and ROOMS leave it out, as they
/// leave out an absent one, on every way `list --group-by` counts (the mapped dump's fast path
/// in JSON, the full way behind the table, a stream on stdin).
#[test]
fn an_empty_peer_or_room_id_is_counted_as_no_peer_or_room() {
    let event = |n: u32, peer: Option<&str>, room: Option<&str>| {
        let mut data = json!({"error_code": 500, "error_name": "ServerErrors", "action": "JOIN"});
        if let Some(p) = peer {
            data["peer_id"] = p.into();
        }
        if let Some(r) = room {
            data["room_id"] = r.into();
        }
        json!({
            "version": "2.0",
            "id": format!("00000000-0000-4000-8000-{n:012}"),
            "timestamp": format!("2026-11-18T11:00:0{n}Z"),
            "type": "client.join.failed",
            "data": data,
        })
        .to_string()
    };
    let lines = [
        event(1, Some(""), Some("r1")),
        event(2, None, Some("r1")),
        event(3, Some("p1"), Some("")),
        event(4, Some("p1"), None),
    ]
    .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blank.ndjson");
    std::fs::write(&path, &lines).unwrap();
    let path = path.to_str().unwrap();
    // (peers, rooms) of the one group by error, and of the groups by room.
    let by = |args: &[&str], stdin: Option<&str>| -> Vec<(u64, u64)> {
        let mut cmd = callscope();
        cmd.arg("list").args(args);
        if let Some(input) = stdin {
            cmd.write_stdin(input.to_string());
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        let groups: Vec<Value> = serde_json::from_slice(&out).unwrap();
        groups
            .iter()
            .map(|g| (g["peers"].as_u64().unwrap(), g["rooms"].as_u64().unwrap()))
            .collect()
    };
    for (input, stdin) in [(path, None), ("-", Some(lines.as_str()))] {
        let error = by(&[input, "--group-by", "error", "--format", "json"], stdin);
        assert_eq!(error, [(1, 1)], "{input}");
        let room = by(&[input, "--group-by", "room", "--format", "json"], stdin);
        // r1's events name no peer; the groups of "" and of no room_id name no room.
        assert_eq!(room, [(0, 1), (1, 0), (1, 0)], "{input}");
    }
    // The table is counted the full way, from the explorer's store.
    let table = callscope()
        .args(["list", path, "--group-by", "error", "--format", "table"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let table = String::from_utf8(table).unwrap();
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(&row[3..8], ["4", "0", "0%", "1", "1"], "{table}");
}
