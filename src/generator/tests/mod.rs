//! Tests of the generator. The spec's key lists and the helpers the themes share are here; each
//! module below holds the tests of one theme.

use super::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

mod events;
mod related;
mod related_scenarios;
mod scenarios;

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

/// The bundled demo's files and the writer each must equal.
type Writer = fn(&Dataset, &mut Vec<u8>) -> std::io::Result<()>;
const ASSETS: [(&str, Writer); 4] = [
    ("demo.ndjson.gz", |d, w| d.write_events(w)),
    ("demo-rooms.json.gz", |d, w| d.write_rooms(w)),
    ("demo-sessions.json.gz", |d, w| d.write_sessions(w)),
    ("demo-peer-stats.ndjson.gz", |d, w| d.write_peer_stats(w)),
];

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
