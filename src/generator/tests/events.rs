//! The generated events: reproducible by seed, the requested count, the spec's fields in the
//! service's key order, every kind there, a peer's user, room and agent kept; the bundled demo
//! is the generator's.

use super::*;
use crate::event::AGENT_FIELDS;

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
        assert_eq!(agent.len(), AGENT_FIELDS.len());
        let summary = s(v, "/data/agent/string");
        for key in AGENT_FIELDS.iter().filter(|k| **k != "string") {
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
        ]);
        // The agent's, in the spec's order.
        keys.extend(AGENT_FIELDS);
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
