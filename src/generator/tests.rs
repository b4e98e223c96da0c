use super::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

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
        if !line.contains("\"type\":\"client.") {
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
    assert!(types.iter().any(|t| t.starts_with("track.")));
    assert!(types.contains("recording.success"));
    let other = demo()
        .iter()
        .filter(|v| !ERROR_TYPES.contains(&s(v, "/type")))
        .count();
    assert_eq!(other, DEMO_EVENTS / 100);

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
    let chain: Vec<&Value> = demo()
        .iter()
        .filter(|v| v.pointer("/data/peer_id") == Some(&Value::from(PRIYA_PEER_ID)))
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
    assert_eq!(others, chain.len(), "the name is unique to her");
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

fn asset_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ndjson.gz")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
    encoder.write_all(bytes).expect("in memory");
    encoder.finish().expect("in memory")
}

/// The bundled demo must be exactly what the generator makes, or README examples drift from it.
#[test]
fn bundled_demo_matches_the_generator() {
    let packed = std::fs::read(asset_path()).expect("assets/demo.ndjson.gz exists");
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&packed[..]),
        &mut unpacked,
    )
    .expect("valid gzip");
    assert!(
        unpacked == generate(DEMO_EVENTS, DEMO_SEED),
        "run: cargo test --lib generator::tests::regenerate_demo_asset -- --ignored"
    );
}

#[test]
#[ignore = "rewrites assets/demo.ndjson.gz"]
fn regenerate_demo_asset() {
    std::fs::write(asset_path(), gzip(&generate(DEMO_EVENTS, DEMO_SEED))).expect("write the asset");
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
