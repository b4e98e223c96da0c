use super::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

/// The keys of the service's samples (track-events, recording-events, rooms, sessions and
/// peer-stats pages of its API reference), in their order.
const TRACK_KEYS: &[&str] = &[
    "room_id",
    "session_id",
    "room_name",
    "peer_id",
    "user_id",
    "user_name",
    "joined_at",
    "role",
    "track_id",
    "stream_id",
    "type",
    "source",
    "mute",
    "started_at",
];
const BEAM_KEYS: &[&str] = &[
    "beam_id",
    "room_id",
    "session_id",
    "peer_id",
    "template_id",
    "created_at",
    "duration",
    "started_at",
    "stopped_at",
    "max_width",
    "max_height",
    "recording_path",
    "recording_presigned_url",
    "meeting_url",
    "rtmp",
    "session_started_at",
    "size",
];
const ROOM_KEYS: &[&str] = &[
    "id",
    "name",
    "enabled",
    "description",
    "customer_id",
    "recording_source_template",
    "template_id",
    "template",
    "region",
    "created_at",
    "key",
    "updated_at",
    "large_room",
    "max_duration_seconds",
];
const SESSION_KEYS: &[&str] = &[
    "id",
    "room_id",
    "customer_id",
    "active",
    "peers",
    "created_at",
    "updated_at",
];
const SESSION_PEER_KEYS: &[&str] = &[
    "id",
    "session_id",
    "name",
    "role",
    "user_id",
    "joined_at",
    "left_at",
];

const ERROR_TYPES: [&str; 5] = [
    "client.publish.failed",
    "client.subscribe.failed",
    "client.join.failed",
    "client.disconnected",
    "client.connect.failed",
];

fn generate(events: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::new();
    write_ndjson(&mut out, events, seed).expect("writing to a Vec cannot fail");
    out
}

fn parse(bytes: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(bytes).expect("output is UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "every line ends with a newline"
    );
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}: {line}", i + 1))
        })
        .collect()
}

fn demo() -> &'static [Value] {
    static DEMO: OnceLock<Vec<Value>> = OnceLock::new();
    DEMO.get_or_init(|| parse(&generate(DEMO_EVENTS, DEMO_SEED)))
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path} is not a string in {v}"))
}

fn nanos(v: &Value) -> i64 {
    chrono::DateTime::parse_from_rfc3339(s(v, "/timestamp"))
        .expect("RFC 3339")
        .timestamp_nanos_opt()
        .expect("in range")
}

fn is_terminal(v: &Value) -> bool {
    v["data"]["is_terminal"]
        .as_bool()
        .expect("is_terminal is a boolean")
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let a = generate(DEMO_EVENTS, DEMO_SEED);
    assert_eq!(a, generate(DEMO_EVENTS, DEMO_SEED));
    assert_ne!(a, generate(DEMO_EVENTS, DEMO_SEED + 1));
    assert_eq!(generate(500, 3), generate(500, 3));
}

#[test]
fn writes_exactly_the_requested_count() {
    for n in [0, 1, 2, 5, 23, 99, 240, 1001] {
        let events = parse(&generate(n, 11));
        assert_eq!(events.len(), n, "for {n} events");
    }
    assert_eq!(demo().len(), DEMO_EVENTS);
}

#[test]
fn envelope_fields_ids_and_timestamps() {
    let mut ids = HashSet::new();
    let mut last = i64::MIN;
    for v in demo() {
        assert_eq!(v["version"], "2.0");
        let id = uuid::Uuid::parse_str(s(v, "/id")).expect("uuid");
        assert_eq!(id.get_version_num(), 4);
        assert!(ids.insert(id), "duplicate id {id}");
        let ts = s(v, "/timestamp");
        assert!(ts.starts_with("2026-11-18T") && ts.ends_with('Z'), "{ts}");
        let fraction = ts.split('.').nth(1).expect("fraction");
        assert_eq!(fraction.len(), 10, "nine digits then Z: {ts}");
        assert!(fraction[..9].bytes().all(|b| b.is_ascii_digit()), "{ts}");
        let t = nanos(v);
        assert!(t >= last, "sorted by time at {ts}");
        last = t;
        assert!(v["data"].is_object());
    }
}

#[test]
fn error_events_carry_the_spec_fields() {
    const AGENT_KEYS: [&str; 11] = [
        "sdk",
        "sdk_version",
        "device_model",
        "os",
        "os_version",
        "is_prebuilt",
        "framework",
        "framework_version",
        "framework_sdk_version",
        "domain",
        "string",
    ];
    for v in demo()
        .iter()
        .filter(|v| ERROR_TYPES.contains(&s(v, "/type")))
    {
        let ty = s(v, "/type");
        let data = v["data"].as_object().expect("data object");
        for key in [
            "user_id",
            "user_name",
            "peer_id",
            "account_id",
            "room_id",
            "error_name",
            "error_message",
            "error_description",
            "action",
        ] {
            assert!(data.get(key).is_some_and(Value::is_string), "{key} in {v}");
        }
        assert!(data["error_code"].is_u64());
        assert!(data["is_terminal"].is_boolean());
        uuid::Uuid::parse_str(s(v, "/data/peer_id")).expect("peer id is a uuid");
        for key in ["account_id", "room_id"] {
            let id = data[key].as_str().expect("string");
            assert!(
                id.len() == 24 && id.bytes().all(|b| b.is_ascii_hexdigit()),
                "{key} {id}"
            );
        }
        let agent = data["agent"].as_object().expect("agent");
        assert_eq!(agent.len(), AGENT_KEYS.len());
        let summary = s(v, "/data/agent/string");
        for key in AGENT_KEYS.iter().filter(|k| **k != "string") {
            let value = match &agent[*key] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            assert!(
                summary.contains(&format!("{key}:{value}")),
                "{key} in {summary}"
            );
        }
        assert!(
            ["env:prod", "env:qa", "env:dev"]
                .iter()
                .any(|e| summary.ends_with(e)),
            "{summary}"
        );

        let expected_action = match ty {
            "client.publish.failed" => "PUBLISH",
            "client.subscribe.failed" => "SUBSCRIBE",
            "client.join.failed" => "JOIN",
            "client.disconnected" => "RECONNECT_SIGNAL",
            _ => "INIT",
        };
        assert_eq!(s(v, "/data/action"), expected_action);
        let room_fields = ["room_name", "template_id", "role"];
        match ty {
            "client.connect.failed" => {
                for key in room_fields.iter().chain(&["session_id"]) {
                    assert!(
                        !data.contains_key(*key),
                        "connect failure without {key}: {v}"
                    );
                }
                assert_eq!(s(v, "/data/transport_state"), "Connecting");
                assert!(data["endpoint"].is_string());
            }
            _ => {
                for key in room_fields {
                    assert!(data[key].is_string(), "{key} in {v}");
                }
            }
        }
        match ty {
            "client.disconnected" => {
                assert!(!data.contains_key("session_id"));
                assert!(data["transport_state"].is_string());
            }
            "client.publish.failed" => {
                assert!(data["domain"].is_string());
                for key in ["maxBitrate", "volume"] {
                    assert!(data["audio"][key].is_number(), "audio.{key}");
                }
                for key in ["maxFramerate", "maxBitrate", "height", "width"] {
                    assert!(data["video"][key].is_number(), "video.{key}");
                }
                for key in ["videoInput", "audioInput", "audioOutput"] {
                    assert!(data["devices"][key].is_array(), "devices.{key}");
                }
            }
            "client.join.failed" => {
                assert!(data["domain"].is_string());
                assert!(data["retries_join"].as_u64().is_some_and(|n| n >= 1));
            }
            _ => {}
        }
    }
}

/// Keys must come in the service's order; checked on the text, as serde_json maps may reorder them.
#[test]
fn keys_follow_the_order_of_the_service() {
    let bytes = generate(DEMO_EVENTS, DEMO_SEED);
    let text = std::str::from_utf8(&bytes).expect("UTF-8");
    let in_order = |line: &str, keys: &[&str]| {
        let mut from = 0;
        for key in keys {
            let quoted = format!("\"{key}\":");
            let at = line[from..]
                .find(&quoted)
                .unwrap_or_else(|| panic!("{key} missing or out of order in {line}"));
            from += at + quoted.len();
        }
    };
    for line in text.lines() {
        assert!(line.starts_with("{\"version\":\"2.0\",\"id\":\""), "{line}");
        in_order(line, &["version", "id", "timestamp", "type", "data"]);
        if line.contains("\"type\":\"track.") {
            in_order(line, TRACK_KEYS);
            assert_eq!(
                line.contains("\"stopped_at\":"),
                line.contains("\"type\":\"track.remove.success\""),
                "{line}"
            );
            continue;
        }
        if line.contains("\"type\":\"beam.recording.success\"") {
            in_order(line, BEAM_KEYS);
            continue;
        }
        let mut keys = vec!["user_id", "user_name", "peer_id", "account_id", "room_id"];
        if line.contains("\"session_id\":") {
            keys.push("session_id");
        }
        if !line.contains("\"type\":\"client.connect.failed\"") {
            keys.extend(["room_name", "template_id", "role"]);
        }
        keys.extend([
            "error_code",
            "error_name",
            "error_message",
            "error_description",
            "is_terminal",
            "action",
            "agent",
            "sdk",
            "sdk_version",
            "device_model",
            "os",
            "os_version",
            "is_prebuilt",
            "framework",
            "framework_version",
            "framework_sdk_version",
            "domain",
            "string",
        ]);
        in_order(line, &keys);
    }
}

#[test]
fn some_optional_session_ids_are_missing() {
    let with = |ty: &str, present: bool| {
        demo()
            .iter()
            .filter(|v| s(v, "/type") == ty && v["data"].get("session_id").is_some() == present)
            .count()
    };
    for ty in ["client.join.failed", "client.publish.failed"] {
        assert!(with(ty, true) > 0 && with(ty, false) > 0, "{ty}");
    }
}

#[test]
fn every_kind_of_event_rooms_and_sdks_are_there() {
    let types: BTreeSet<&str> = demo().iter().map(|v| s(v, "/type")).collect();
    for ty in ERROR_TYPES {
        assert!(types.contains(ty), "{ty}");
    }
    for ty in [
        "track.add.success",
        "track.update.success",
        "track.remove.success",
        "beam.recording.success",
    ] {
        assert!(types.contains(ty), "{ty}");
    }
    assert_eq!(types.len(), 9, "{types:?}");
    let other = demo()
        .iter()
        .filter(|v| !ERROR_TYPES.contains(&s(v, "/type")))
        .count();
    assert_eq!(other, DEMO_EVENTS / 20);

    let rooms: BTreeSet<&str> = demo().iter().map(|v| s(v, "/data/room_id")).collect();
    assert!((8..=12).contains(&rooms.len()), "{} rooms", rooms.len());
    let sdks: BTreeSet<&str> = demo()
        .iter()
        .filter_map(|v| v.pointer("/data/agent/sdk").and_then(Value::as_str))
        .collect();
    assert_eq!(sdks, BTreeSet::from(["android", "flutter", "ios", "web"]));
    let names: BTreeSet<&str> = demo()
        .iter()
        .filter_map(|v| v.pointer("/data/user_name")?.as_str())
        .collect();
    assert!(
        names.iter().any(|n| !n.is_ascii()),
        "some names are not ASCII"
    );
}

#[test]
fn a_peer_keeps_its_user_room_and_agent() {
    let mut seen: HashMap<&str, (&str, &str, &str, &Value)> = HashMap::new();
    let mut repeating = 0;
    for v in demo()
        .iter()
        .filter(|v| ERROR_TYPES.contains(&s(v, "/type")))
    {
        let key = (
            s(v, "/data/user_id"),
            s(v, "/data/user_name"),
            s(v, "/data/room_id"),
            &v["data"]["agent"],
        );
        match seen.get(s(v, "/data/peer_id")) {
            Some(first) => {
                assert_eq!(*first, key, "peer {}", s(v, "/data/peer_id"));
                repeating += 1;
            }
            None => {
                seen.insert(s(v, "/data/peer_id"), key);
            }
        }
    }
    assert!(repeating > DEMO_EVENTS / 2, "peers come back: {repeating}");
}

#[test]
fn join_storm_in_the_allhands_room() {
    let storm: Vec<&Value> = demo()
        .iter()
        .filter(|v| {
            s(v, "/type") == "client.join.failed"
                && v["data"]["error_code"] == 500
                && s(v, "/data/room_id") == STORM_ROOM_ID
        })
        .collect();
    assert!(
        storm
            .iter()
            .all(|v| s(v, "/data/room_name") == STORM_ROOM_NAME)
    );
    let times: Vec<i64> = storm.iter().map(|v| nanos(v)).collect();
    let window = 600 * 1_000_000_000;
    let busiest = (0..times.len())
        .map(|i| {
            times[i..]
                .iter()
                .take_while(|t| **t - times[i] <= window)
                .count()
        })
        .max();
    assert!(
        busiest.unwrap_or(0) >= 300,
        "busiest 10 minutes: {busiest:?}"
    );

    let mut chains: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for v in storm
        .iter()
        .filter(|v| s(v, "/data/error_description").contains(STORM_SFU_NODE))
    {
        chains.entry(s(v, "/data/peer_id")).or_default().push(v);
    }
    assert!(chains.len() >= 80, "{} peers", chains.len());
    let mut gave_up = 0;
    for chain in chains.values() {
        let retries: Vec<u64> = chain
            .iter()
            .map(|v| v["data"]["retries_join"].as_u64().expect("number"))
            .collect();
        assert_eq!(retries, (1..=chain.len() as u64).collect::<Vec<_>>());
        let terminal: Vec<bool> = chain.iter().map(|v| is_terminal(v)).collect();
        assert!(
            !terminal[..terminal.len() - 1].contains(&true),
            "only the last attempt can be final"
        );
        gave_up += usize::from(terminal[terminal.len() - 1]);
    }
    let share = gave_up * 100 / chains.len();
    assert!(
        (10..=30).contains(&share),
        "{share}% of storm peers gave up"
    );
    assert!(
        chains.values().any(|c| c.len() >= 4),
        "long retry chains exist"
    );
    let node_elsewhere = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/error_description")
                .is_some_and(|d| d.as_str().is_some_and(|d| d.contains(STORM_SFU_NODE)))
        })
        .count();
    assert_eq!(node_elsewhere, chains.values().map(Vec::len).sum::<usize>());
}

#[test]
fn priya_retries_publishing_until_a_final_failure() {
    let hers = || {
        demo()
            .iter()
            .filter(|v| v.pointer("/data/peer_id") == Some(&Value::from(PRIYA_PEER_ID)))
    };
    let chain: Vec<&Value> = hers()
        .filter(|v| ERROR_TYPES.contains(&s(v, "/type")))
        .collect();
    assert!((8..=12).contains(&chain.len()), "{} events", chain.len());
    for v in &chain {
        assert_eq!(s(v, "/type"), "client.publish.failed");
        assert_eq!(v["data"]["error_code"], 4006);
        assert_eq!(s(v, "/data/error_name"), "ICEDisconnected");
        assert_eq!(s(v, "/data/user_name"), PRIYA_USER_NAME);
        assert_eq!(s(v, "/data/user_id"), PRIYA_USER_ID);
        assert_eq!(s(v, "/data/room_id"), PRIYA_ROOM_ID);
        assert_eq!(s(v, "/data/room_name"), PRIYA_ROOM_NAME);
        assert!(s(v, "/data/error_description").contains("typ relay"));
    }
    let terminal: Vec<bool> = chain.iter().map(|v| is_terminal(v)).collect();
    assert_eq!(terminal.iter().filter(|t| **t).count(), 1);
    assert!(terminal[terminal.len() - 1], "the final failure comes last");
    let span = nanos(chain[chain.len() - 1]) - nanos(chain[0]);
    assert!((60..=240).contains(&(span / 1_000_000_000)), "{span} ns");
    let others = demo()
        .iter()
        .filter(|v| v.pointer("/data/user_name") == Some(&Value::from(PRIYA_USER_NAME)))
        .count();
    assert_eq!(others, hers().count(), "the name is unique to her");
}

#[test]
fn connect_failures_cluster_on_one_handset() {
    let cluster: Vec<&Value> = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/sdk_version") == Some(&Value::from(CONNECT_CLUSTER_SDK_VERSION))
        })
        .collect();
    assert!(cluster.len() >= 100, "{}", cluster.len());
    let start = nanos(&serde_json::json!({"timestamp": "2026-11-18T12:15:00.000000000Z"}));
    for v in &cluster {
        assert_eq!(s(v, "/type"), "client.connect.failed");
        assert_eq!(v["data"]["error_code"], 2003);
        assert_eq!(s(v, "/data/agent/sdk"), "android");
        assert_eq!(s(v, "/data/agent/device_model"), CONNECT_CLUSTER_DEVICE);
        assert!(s(v, "/data/error_description").contains(CONNECT_CLUSTER_DNS));
        let offset = nanos(v) - start;
        assert!((0..=1800 * 1_000_000_000).contains(&offset));
    }
    let devices = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/device_model") == Some(&Value::from(CONNECT_CLUSTER_DEVICE))
        })
        .count();
    assert_eq!(devices, cluster.len());
    let peers: BTreeSet<&str> = cluster.iter().map(|v| s(v, "/data/peer_id")).collect();
    assert!(peers.len() >= 25);
}

#[test]
fn disconnects_cluster_on_one_web_sdk_version() {
    let mut per_version: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for v in demo()
        .iter()
        .filter(|v| s(v, "/type") == "client.disconnected" && v["data"]["error_code"] == 1003)
    {
        *per_version
            .entry((s(v, "/data/agent/sdk"), s(v, "/data/agent/sdk_version")))
            .or_default() += 1;
    }
    let cluster = per_version
        .remove(&("web", DISCONNECT_CLUSTER_SDK_VERSION))
        .unwrap_or(0);
    assert!(cluster >= 200, "{cluster}");
    let runner_up = per_version.values().max().copied().unwrap_or(0);
    assert!(
        cluster >= 4 * runner_up,
        "{cluster} vs {runner_up}: {per_version:?}"
    );
}

#[test]
fn large_datasets_keep_the_shares_and_grow_the_population() {
    let n = 24_000;
    let events = parse(&generate(n, 5));
    assert_eq!(events.len(), n);
    let rooms: BTreeSet<&str> = events.iter().map(|v| s(v, "/data/room_id")).collect();
    assert!(rooms.len() >= 90, "{} rooms", rooms.len());
    let storm = events
        .iter()
        .filter(|v| {
            v.pointer("/data/error_description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains(STORM_SFU_NODE))
        })
        .count();
    assert_eq!(storm, n / 6);
    let peers: BTreeSet<&str> = events
        .iter()
        .filter_map(|v| v.pointer("/data/peer_id")?.as_str())
        .collect();
    assert!(peers.len() > 3000, "{} peers", peers.len());
}

/// The bundled demo's files and the writer each must equal.
type Writer = fn(&Dataset, &mut Vec<u8>) -> std::io::Result<()>;
const ASSETS: [(&str, Writer); 4] = [
    ("demo.ndjson.gz", |d, w| d.write_events(w)),
    ("demo-rooms.json.gz", |d, w| d.write_rooms(w)),
    ("demo-sessions.json.gz", |d, w| d.write_sessions(w)),
    ("demo-peer-stats.ndjson.gz", |d, w| d.write_peer_stats(w)),
];

/// The bundled demo must be exactly what the generator makes, or README examples drift from it.
#[test]
fn bundled_demo_matches_the_generator() {
    let dataset = Dataset::new(DEMO_EVENTS, DEMO_SEED);
    for (name, write) in ASSETS {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets")
            .join(name);
        let packed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut unpacked = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(&packed[..]),
            &mut unpacked,
        )
        .expect("valid gzip");
        let mut generated = Vec::new();
        write(&dataset, &mut generated).expect("in memory");
        assert!(
            unpacked == generated,
            "assets/{name} is not what the generator makes; regenerate the bundled demo with \
             `callscope demo-data --out DIR` and `gzip -9 -n` of each file: events.ndjson to \
             assets/demo.ndjson.gz, rooms.json to assets/demo-rooms.json.gz, sessions.json to \
             assets/demo-sessions.json.gz, peer-stats.ndjson to assets/demo-peer-stats.ndjson.gz"
        );
    }
}

/// A dataset's files, parsed: what a reader of `demo-data --out` would see.
struct Related {
    events: Vec<Value>,
    rooms: Value,
    sessions: Value,
    stats: Vec<Value>,
}

impl Related {
    fn of(events: usize, seed: u64) -> Self {
        let dataset = Dataset::new(events, seed);
        let text = |write: Writer| {
            let mut out = Vec::new();
            write(&dataset, &mut out).expect("in memory");
            String::from_utf8(out).expect("UTF-8")
        };
        let [events, rooms, sessions, stats] = ASSETS.map(|(_, write)| text(write));
        let one = |text: &str| -> Value {
            assert!(
                text.ends_with('\n') && text.lines().count() == 1,
                "one line"
            );
            serde_json::from_str(text).expect("one JSON value")
        };
        Related {
            events: parse(events.as_bytes()),
            rooms: one(&rooms),
            sessions: one(&sessions),
            stats: parse(stats.as_bytes()),
        }
    }

    fn sessions(&self) -> &[Value] {
        self.sessions["data"].as_array().expect("data is an array")
    }

    /// Every stay in a session, by peer id.
    fn stays(&self) -> HashMap<String, Vec<Stay>> {
        let mut out: HashMap<String, Vec<Stay>> = HashMap::new();
        for session in self.sessions() {
            for (id, p) in session["peers"].as_object().expect("peers is an object") {
                out.entry(id.clone()).or_default().push(Stay {
                    session: s(session, "/id").to_string(),
                    room: s(session, "/room_id").to_string(),
                    user: s(p, "/user_id").to_string(),
                    joined: at(s(p, "/joined_at")),
                    left: p.get("left_at").map(|l| at(l.as_str().expect("a time"))),
                });
            }
        }
        out
    }
}

struct Stay {
    session: String,
    room: String,
    user: String,
    joined: i64,
    left: Option<i64>,
}

impl Stay {
    fn holds(&self, t: i64) -> bool {
        self.joined <= t && self.left.is_none_or(|l| t <= l)
    }
}

fn at(text: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .timestamp_nanos_opt()
        .expect("in range")
}

fn related() -> &'static Related {
    static RELATED: OnceLock<Related> = OnceLock::new();
    RELATED.get_or_init(|| Related::of(DEMO_EVENTS, DEMO_SEED))
}

const SEC_NS: i64 = 1_000_000_000;

/// The ordered keys of an object, as the text has them (`preserve_order`).
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// `keys` holds `expected` in that order, and nothing else but `extra`.
fn assert_keys(v: &Value, expected: &[&str], extra: &[&str]) {
    let got = keys(v);
    let known: Vec<&str> = got
        .iter()
        .copied()
        .filter(|k| expected.contains(k))
        .collect();
    assert_eq!(known, expected, "in {v}");
    for k in got {
        assert!(expected.contains(&k) || extra.contains(&k), "{k} in {v}");
    }
}

fn check_rooms_and_sessions_named_by_events(r: &Related) {
    let rooms: HashMap<&str, &Value> = r.rooms["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|room| (s(room, "/id"), room))
        .collect();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    for v in &r.events {
        let room = s(v, "/data/room_id");
        let listed = rooms
            .get(room)
            .unwrap_or_else(|| panic!("room {room} of {v} is not listed"));
        if let Some(name) = v.pointer("/data/room_name") {
            assert_eq!(listed["name"], *name, "{v}");
        }
        if let Some(customer) = v.pointer("/data/account_id") {
            assert_eq!(listed["customer_id"], *customer, "{v}");
        }
        if let Some(id) = v.pointer("/data/session_id").and_then(Value::as_str) {
            let session = sessions
                .get(id)
                .unwrap_or_else(|| panic!("session {id} of {v} is not listed"));
            assert_eq!(s(session, "/room_id"), room, "{v}");
            assert!(at(s(session, "/created_at")) <= nanos(v), "{v}");
        }
    }
    for session in r.sessions() {
        assert!(rooms.contains_key(s(session, "/room_id")));
    }
}

fn check_sessions(r: &Related) {
    let data = r.sessions();
    assert_eq!(r.sessions["limit"].as_u64(), Some(data.len() as u64));
    assert_eq!(
        r.sessions["last"].as_str(),
        data.last().map(|x| s(x, "/id")).or(Some(""))
    );
    let mut by_room: BTreeMap<&str, Vec<(i64, Option<i64>)>> = BTreeMap::new();
    let mut last_start = i64::MAX;
    for session in data {
        assert_keys(session, SESSION_KEYS, &[]);
        let created = at(s(session, "/created_at"));
        let updated = at(s(session, "/updated_at"));
        assert!(created <= last_start, "newest first");
        last_start = created;
        let active = session["active"].as_bool().expect("a boolean");
        let peers = session["peers"].as_object().expect("an object");
        assert!(!peers.is_empty());
        let mut end = Some(created);
        for (id, p) in peers {
            assert_keys(p, &SESSION_PEER_KEYS[..6], &["left_at"]);
            assert_eq!(s(p, "/id"), id);
            assert_eq!(s(p, "/session_id"), s(session, "/id"));
            uuid::Uuid::parse_str(id).expect("a peer id is a uuid");
            let joined = at(s(p, "/joined_at"));
            assert!(created <= joined && joined <= updated, "{p}");
            match p.get("left_at") {
                Some(left) => {
                    let left = at(left.as_str().unwrap());
                    assert!(joined < left && left <= updated, "{p}");
                    end = end.map(|e| e.max(left));
                }
                None => {
                    assert!(active, "{p} has not left an ended session");
                    end = None;
                }
            }
        }
        assert_eq!(active, end.is_none(), "{}", s(session, "/id"));
        by_room
            .entry(s(session, "/room_id"))
            .or_default()
            .push((created, end));
    }
    for (room, mut sessions) in by_room {
        sessions.sort();
        for pair in sessions.windows(2) {
            let ended = pair[0]
                .1
                .unwrap_or_else(|| panic!("{room}: only the last is active"));
            assert!(ended < pair[1].0, "{room}: sessions overlap");
        }
    }
}

fn check_final_join_failures(r: &Related) {
    let stays = r.stays();
    let mut finals = 0;
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type") == "client.join.failed" && is_terminal(v))
    {
        finals += 1;
        for stay in stays.get(s(v, "/data/peer_id")).into_iter().flatten() {
            assert!(
                stay.left.is_some_and(|l| l < nanos(v)),
                "{} in session {} after its final join failure",
                s(v, "/data/peer_id"),
                stay.session
            );
        }
    }
    assert!(finals > 0 || r.events.len() < 100);
}

fn check_track_events(r: &Related) {
    let stays = r.stays();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        let t = nanos(v);
        let stay = stays
            .get(s(v, "/data/peer_id"))
            .into_iter()
            .flatten()
            .find(|stay| stay.session == s(v, "/data/session_id"))
            .unwrap_or_else(|| panic!("the peer of {v} is not in its session"));
        assert!(stay.holds(t), "{v} outside the stay");
        assert_eq!(stay.room, s(v, "/data/room_id"));
        assert_eq!(stay.user, s(v, "/data/user_id"));
        // The sessions endpoint writes milliseconds, events nanoseconds.
        let joined = at(s(v, "/data/joined_at"));
        assert!((0..1_000_000).contains(&(joined - stay.joined)), "{v}");
        let started = at(s(v, "/data/started_at"));
        assert!(stay.joined < started && started <= t, "{v}");
        assert!(["audio", "video"].contains(&s(v, "/data/type")));
        assert!(["regular", "screen"].contains(&s(v, "/data/source")));
        assert!(v["data"]["mute"].is_boolean());
        if s(v, "/type") == "track.remove.success" {
            let stopped = at(s(v, "/data/stopped_at"));
            assert!(started < stopped && stopped <= t, "{v}");
        }
    }
}

fn check_recordings(r: &Related) {
    let stays = r.stays();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type") == "beam.recording.success")
    {
        assert_keys(&v["data"], BEAM_KEYS, &[]);
        let session = sessions[s(v, "/data/session_id")];
        assert_eq!(s(session, "/room_id"), s(v, "/data/room_id"));
        assert_eq!(
            at(s(v, "/data/session_started_at")),
            at(s(session, "/created_at"))
        );
        let (started, stopped) = (at(s(v, "/data/started_at")), at(s(v, "/data/stopped_at")));
        assert_eq!(
            v["data"]["duration"].as_i64(),
            Some((stopped - started) / SEC_NS)
        );
        assert!(stopped < at(s(v, "/data/created_at")) && at(s(v, "/data/created_at")) < nanos(v));
        let recorder = &stays[s(v, "/data/peer_id")];
        assert!(
            recorder
                .iter()
                .any(|stay| stay.holds(started) && stay.holds(stopped)),
            "the recorder of {v} is in its session while it records"
        );
    }
}

fn check_stats(r: &Related) {
    let stays = r.stays();
    let sessions: HashMap<&str, &Value> = r.sessions().iter().map(|x| (s(x, "/id"), x)).collect();
    let mut published: HashMap<&str, HashSet<&str>> = HashMap::new();
    for v in r
        .events
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        published
            .entry(s(v, "/data/peer_id"))
            .or_default()
            .insert(s(v, "/data/track_id"));
    }
    for response in &r.stats {
        assert_keys(
            response,
            &[
                "peer_id",
                "session_id",
                "room_id",
                "publisher",
                "subscriber",
            ],
            &[],
        );
        let session = sessions[s(response, "/session_id")];
        assert_eq!(
            session["active"], false,
            "stats come after the session ended"
        );
        assert_eq!(s(session, "/room_id"), s(response, "/room_id"));
        let stay = stays[s(response, "/peer_id")]
            .iter()
            .find(|stay| stay.session == s(response, "/session_id"))
            .expect("the peer was in the session");
        let left = stay.left.expect("ended");
        let mut own = HashSet::new();
        for (side, kind) in [
            ("publisher", "video"),
            ("publisher", "audio"),
            ("subscriber", "video"),
            ("subscriber", "audio"),
        ] {
            assert_keys(&response[side], &["video", "audio"], &[]);
            for entry in response[side][kind].as_array().expect("a list") {
                let series: &[&str] = match (side, kind) {
                    ("publisher", "video") => &["bitrate", "fps", "packet_loss_percent", "rtt_ms"],
                    ("publisher", _) => &["bitrate", "packet_loss_percent", "rtt_ms", "jitter_ms"],
                    (_, "video") => &["bitrate", "fps", "freeze_count"],
                    _ => &["bitrate", "concealed_samples", "packet_loss_percent"],
                };
                let head: &[&str] = match (side, kind) {
                    ("publisher", "video") => &["track_id", "type", "rid", "time_series"],
                    (_, "video") => &["track_id", "type", "time_series"],
                    _ => &["track_id", "time_series"],
                };
                assert_keys(entry, head, &[]);
                if kind == "video" {
                    assert!(["regular", "screen"].contains(&s(entry, "/type")));
                }
                if side == "publisher" {
                    own.insert(s(entry, "/track_id"));
                    if kind == "video" {
                        assert!(
                            [json!("h"), json!("m"), json!("l"), Value::Null]
                                .contains(&entry["rid"])
                        );
                    }
                }
                let ts = &entry["time_series"];
                assert_keys(ts, &[&["timestamps"], series].concat(), &[]);
                let stamps: Vec<i64> = ts["timestamps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_i64().expect("unix ms"))
                    .collect();
                for name in series {
                    let values = ts[*name].as_array().unwrap();
                    assert_eq!(values.len(), stamps.len(), "{name} parallel to timestamps");
                    let nulls_allowed = side == "subscriber" && *name == "bitrate";
                    assert!(
                        values
                            .iter()
                            .all(|x| x.is_number() || (nulls_allowed && x.is_null())),
                        "{name}"
                    );
                }
                for pair in stamps.windows(2) {
                    assert_eq!(pair[1] - pair[0], 10_000);
                }
                for t in stamps {
                    let t = t * 1_000_000;
                    assert!(stay.joined <= t && t <= left, "a sample outside the stay");
                }
            }
        }
        if let Some(tracks) = published.get(s(response, "/peer_id")) {
            assert!(
                tracks.is_subset(&own),
                "the stats name the tracks of the track events"
            );
        }
    }
}

fn check_all(r: &Related) {
    check_rooms_and_sessions_named_by_events(r);
    check_sessions(r);
    check_final_join_failures(r);
    check_track_events(r);
    check_recordings(r);
    check_stats(r);
}

#[test]
fn every_session_and_room_an_event_names_is_listed_with_its_room() {
    check_rooms_and_sessions_named_by_events(related());
    let rooms = related().rooms["data"].as_array().unwrap();
    assert_eq!(rooms.len(), 10);
    for room in rooms {
        assert_keys(room, ROOM_KEYS, &["recording_info", "size"]);
        assert_eq!(room["enabled"], true);
    }
    assert_eq!(
        related().rooms["last"],
        rooms.last().unwrap()["id"],
        "last is the id of the last room"
    );
    assert_eq!(related().rooms["limit"], rooms.len());
}

#[test]
fn session_peers_join_before_they_leave_and_sessions_do_not_overlap() {
    check_sessions(related());
    let active = related()
        .sessions()
        .iter()
        .filter(|x| x["active"] == true)
        .count();
    assert!(
        active >= 1,
        "a meeting is still running when the data is read"
    );
}

#[test]
fn no_peer_is_in_a_session_after_its_final_join_failure() {
    check_final_join_failures(related());
}

#[test]
fn track_events_fall_inside_their_peers_stay() {
    check_track_events(related());
    check_recordings(related());
}

#[test]
fn quality_stats_follow_the_peers_stay_and_tracks() {
    check_stats(related());
    let stats = &related().stats;
    assert!(stats.len() >= 10, "{}", stats.len());
    let empty = |v: &Value, path: &str| v.pointer(path).unwrap().as_array().unwrap().is_empty();
    assert!(
        stats
            .iter()
            .any(|v| empty(v, "/publisher/video") && empty(v, "/publisher/audio")),
        "someone only watched"
    );
    assert!(
        stats.iter().any(|v| ["video", "audio"].iter().any(|k| {
            v["subscriber"][k].as_array().unwrap().iter().any(|e| {
                e["time_series"]["timestamps"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            })
        })),
        "some series are empty"
    );
    assert!(
        stats
            .iter()
            .any(|v| v.to_string().contains("\"rid\":\"m\"")),
        "simulcast layers"
    );
    let storm_peers: HashSet<&str> = demo()
        .iter()
        .filter(|v| s(v, "/type") == "client.join.failed" && s(v, "/data/room_id") == STORM_ROOM_ID)
        .map(|v| s(v, "/data/peer_id"))
        .collect();
    let cluster_peers: HashSet<&str> = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/sdk_version") == Some(&json!(DISCONNECT_CLUSTER_SDK_VERSION))
        })
        .map(|v| s(v, "/data/peer_id"))
        .collect();
    let with_stats = |peers: &HashSet<&str>| {
        stats
            .iter()
            .filter(|v| peers.contains(s(v, "/peer_id")))
            .count()
    };
    assert!(with_stats(&storm_peers) >= 3);
    assert!(with_stats(&cluster_peers) >= 3);
}

#[test]
fn other_seeds_and_sizes_are_as_consistent() {
    for (events, seed) in [(0, 1), (1, 2), (23, 3), (240, 4), (1001, 11), (4000, 5)] {
        let r = Related::of(events, seed);
        assert_eq!(r.events.len(), events);
        check_all(&r);
    }
}

#[test]
fn related_files_are_reproducible() {
    let a = Dataset::new(600, 9);
    let b = Dataset::new(600, 9);
    for (_, write) in ASSETS {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        write(&a, &mut x).unwrap();
        write(&b, &mut y).unwrap();
        assert_eq!(x, y);
        let mut again = Vec::new();
        write(&a, &mut again).unwrap();
        assert_eq!(x, again, "writing twice gives the same bytes");
    }
    let mut events = Vec::new();
    a.write_events(&mut events).unwrap();
    assert_eq!(
        events,
        generate(600, 9),
        "the dataset's events are write_ndjson's"
    );
}

/// The storm told by the sessions: the peers' last error is no verdict, the session is.
#[test]
fn storm_peers_mostly_get_in_within_a_minute_and_some_never() {
    let stays = related().stays();
    let mut chains: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for v in demo().iter().filter(|v| {
        v.pointer("/data/error_description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains(STORM_SFU_NODE))
    }) {
        chains.entry(s(v, "/data/peer_id")).or_default().push(v);
    }
    let (mut retried, mut within_a_minute, mut later, mut never, mut gave_up) = (0, 0, 0, 0, 0);
    let mut in_after_retries = 0;
    for (peer, chain) in &chains {
        let last = chain.last().unwrap();
        let got_in = stays
            .get(*peer)
            .into_iter()
            .flatten()
            .filter(|stay| stay.room == STORM_ROOM_ID)
            .map(|stay| stay.joined)
            .min();
        if is_terminal(last) {
            gave_up += 1;
            assert_eq!(got_in, None, "{peer} gave up, yet is in the session");
            continue;
        }
        retried += 1;
        match got_in {
            None => never += 1,
            Some(joined) => {
                let after = joined - nanos(last);
                assert!(after > 0, "{peer} joined before its last failure");
                if after <= 60 * SEC_NS {
                    within_a_minute += 1;
                } else {
                    later += 1;
                }
                if chain.len() >= 2 {
                    in_after_retries += 1;
                }
            }
        }
    }
    assert_eq!(
        (chains.len(), gave_up),
        (157, 38),
        "the figures README gives"
    );
    assert!(
        within_a_minute * 10 >= retried * 8,
        "{within_a_minute} of {retried}"
    );
    assert!(later >= 1 && never >= 1, "later {later}, never {never}");
    assert!(in_after_retries >= 10);
}

#[test]
fn priya_was_in_the_call_and_her_loss_climbs_before_each_failure() {
    let failures: Vec<i64> = demo()
        .iter()
        .filter(|v| v.pointer("/data/peer_id") == Some(&json!(PRIYA_PEER_ID)))
        .filter(|v| s(v, "/type") == "client.publish.failed")
        .map(nanos)
        .collect();
    assert_eq!(failures.len(), 10);
    let stays = &related().stays()[PRIYA_PEER_ID];
    assert_eq!(stays.len(), 1);
    let stay = &stays[0];
    assert_eq!(stay.room, PRIYA_ROOM_ID);
    assert!(stay.joined < failures[0] && stay.left.unwrap() > failures[9]);

    let stats = related()
        .stats
        .iter()
        .find(|v| s(v, "/peer_id") == PRIYA_PEER_ID)
        .expect("her quality stats");
    let camera = stats["publisher"]["video"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["rid"] == "h" && e["type"] == "regular")
        .expect("her camera's top layer");
    let series = |name: &str| -> Vec<(i64, f64)> {
        let ts = &camera["time_series"];
        ts["timestamps"]
            .as_array()
            .unwrap()
            .iter()
            .zip(ts[name].as_array().unwrap())
            .map(|(t, x)| (t.as_i64().unwrap() * 1_000_000, x.as_f64().unwrap()))
            .collect()
    };
    for name in ["packet_loss_percent", "rtt_ms"] {
        let samples = series(name);
        let mut calm: Vec<f64> = samples
            .iter()
            .filter(|(t, _)| *t < failures[0] - 60 * SEC_NS)
            .map(|(_, x)| *x)
            .collect();
        calm.sort_by(f64::total_cmp);
        assert!(calm.len() >= 6, "a calm stretch before the trouble");
        let baseline = calm[calm.len() / 2];
        for &failure in &failures {
            let before: Vec<f64> = samples
                .iter()
                .filter(|(t, _)| (failure - 40 * SEC_NS..failure).contains(t))
                .map(|(_, x)| *x)
                .collect();
            let (first, last) = (before[0], *before.last().unwrap());
            assert!(
                last > first,
                "{name} rises in the 40 s before {failure}: {before:?}"
            );
            assert!(last >= 3.0 * baseline, "{name} {last} against {baseline}");
        }
    }
}

#[test]
fn disconnect_cluster_peers_come_back_or_leave_for_good() {
    let stays = related().stays();
    let mut drops: BTreeMap<&str, (i64, i64, &str, &str)> = BTreeMap::new();
    for v in demo().iter().filter(|v| {
        s(v, "/type") == "client.disconnected"
            && v["data"]["error_code"] == 1003
            && v.pointer("/data/agent/sdk_version") == Some(&json!(DISCONNECT_CLUSTER_SDK_VERSION))
    }) {
        let e = drops.entry(s(v, "/data/peer_id")).or_insert((
            i64::MAX,
            0,
            s(v, "/data/user_id"),
            s(v, "/data/room_id"),
        ));
        e.0 = e.0.min(nanos(v));
        e.1 = e.1.max(nanos(v));
    }
    assert_eq!(drops.len(), 56, "the figure README gives");
    let mut tracks_after: HashMap<&str, i64> = HashMap::new();
    for v in demo()
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        let t = tracks_after.entry(s(v, "/data/peer_id")).or_default();
        *t = (*t).max(nanos(v));
    }
    let (mut rejoined, mut tracked, mut gone) = (0, 0, 0);
    for (peer, (first, last, user, room)) in &drops {
        let own = &stays[*peer];
        assert!(
            own.iter()
                .any(|stay| stay.room == *room && stay.holds(*first)),
            "{peer} was in the call when it first dropped"
        );
        let new_peer = stays.iter().any(|(other, list)| {
            other != peer
                && list
                    .iter()
                    .any(|stay| stay.user == *user && stay.room == *room && stay.joined > *last)
        });
        let track = tracks_after.get(peer).is_some_and(|t| t > last);
        let stayed = own
            .iter()
            .any(|stay| stay.left.is_none_or(|l| l > last + 120 * SEC_NS));
        rejoined += usize::from(new_peer);
        tracked += usize::from(track);
        if !new_peer && !track && !stayed {
            gone += 1;
            assert!(
                own.iter()
                    .all(|stay| stay.left.is_some_and(|l| l < last + 60 * SEC_NS))
            );
        }
    }
    assert!(
        rejoined >= 3 && tracked >= 2 && gone >= 3,
        "{rejoined} {tracked} {gone}"
    );
}

#[test]
#[ignore = "timing; run with --release"]
fn million_events_speed() {
    let start = std::time::Instant::now();
    let mut counter = Counter(0);
    write_ndjson(&mut counter, 1_000_000, 1).expect("sink");
    eprintln!(
        "1,000,000 events, {} bytes, in {:?}",
        counter.0,
        start.elapsed()
    );
}

struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
