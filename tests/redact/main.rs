//! `--redact`: `list` in every format and `serve` leave no IP address, user name or user id of
//! the input in what they write, give equal inputs equal pseudonyms, and keep the JSON valid with
//! the same keys. The input's addresses are found here by the `regex` crate and std's address
//! parsers, independently of the scanner that redacts. The rooms, sessions and quality stats
//! redacted beside the events, in a folder and in serve's endpoints: `related`.

use std::collections::{BTreeSet, HashMap};

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

#[path = "../common/mod.rs"]
mod common;
use common::{Server, list_ndjson};

mod related;
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Events written for this test: candidates with IPv4 and IPv6 addresses, a user named inside
/// another user's message, escapes, a JSON document inside a string, and numbers spelled oddly.
const CRAFTED: &str = r#"{"version":"2.0","id":"r-1","timestamp":"2026-03-02T10:00:00Z","type":"client.subscribe.failed","data":{"user_id":"usr_7b2c4d93","user_name":"Lucía Fernández","peer_id":"p-1","room_id":"room-1","error_code":4005,"error_name":"ICEFailure","error_description":"local candidate - candidate:842163049 1 udp 1677729535 203.0.113.7 61213 typ srflx raddr 10.0.0.5 rport 61213 generation 0; remote candidate:1 1 udp 2130706431 2001:db8:85a3::8a2e:370:7334 3478 typ host","is_terminal":false,"score":1.50,"big":12345678901234567890123,"agent":{"sdk":"web","os_version":"17.5","string":"sdk:web,sdk_version:1.9.12"}}}
{"version":"2.0","id":"r-2","timestamp":"2026-03-02T10:00:01Z","type":"client.join.failed","data":{"user_id":"usr_7b2c4d93","user_name":"Lucía Fernández","peer_id":"p-1","room_id":"room-1","error_code":500,"error_message":"join to https://192.168.1.20:8443/init failed from [fe80::1%eth0]:5000 and 203.0.113.7:443","is_terminal":true,"exp":1e3}}
{"version":"2.0","id":"r-3","timestamp":"2026-03-02T10:00:02Z","type":"client.disconnected","data":{"user_id":"usr_1a2b3c4d","user_name":"Chen Wei","peer_id":"p-2","room_id":"room-1","room_name":"Chen Wei's room","error_message":"kicked after lucía fernández (usr_7b2c4d93) left; candidate 198.51.100.25","metadata":"{\"uid\":\"usr_1a2b3c4d\",\"ip\":\"100.64.1.2\"}","note":"Zo\u00eb sent \"hi\"\n"}}
{"version":"2.0","id":"r-4","timestamp":"2026-03-02T10:00:03Z","type":"client.publish.failed","data":{"user_id":"usr_9f8e7d6c","user_name":"Zo\u00eb","peer_id":"p-3","room_id":"room-2","error_code":1003,"error_message":"Zoë's device ::ffff:192.0.2.1 refused","is_terminal":false}}
"#;

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let crafted = dir.join("crafted.ndjson");
    std::fs::write(&crafted, CRAFTED).unwrap();
    let demo = dir.join("demo.ndjson");
    let out = Command::new(BIN)
        .args(["demo-data", "--events", "600", "--seed", "11"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&demo, out.stdout).unwrap();
    let mut files = vec![crafted, demo];
    for f in [
        "connect.json",
        "join.json",
        "publish.json",
        "subscribe.json",
        "disconnected.json",
        "quirks.ndjson",
    ] {
        files.push(Path::new(FIXTURES).join(f));
    }
    files
}

/// The events of the inputs, by id, parsed the ordinary way.
fn input_events(files: &[PathBuf]) -> HashMap<String, Value> {
    list_ndjson(files)
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["id"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// Every IP address in a text, by a pattern for each family checked by std's parsers.
fn addresses(text: &str) -> Vec<IpAddr> {
    static PATTERNS: OnceLock<(regex::Regex, regex::Regex)> = OnceLock::new();
    let (v4, v6) = PATTERNS.get_or_init(|| {
        (
            regex::Regex::new(r"\b(?:\d{1,3}\.){3}\d{1,3}\b").unwrap(),
            regex::Regex::new(
                r"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::(?:\d{1,3}\.){3}\d{1,3})?",
            )
            .unwrap(),
        )
    });
    let mut found: Vec<IpAddr> = v4
        .find_iter(text)
        .filter_map(|m| m.as_str().parse().ok())
        .collect();
    found.extend(
        v6.find_iter(text)
            .filter(|m| m.as_str().bytes().any(|b| b.is_ascii_digit()))
            .filter_map(|m| m.as_str().parse::<IpAddr>().ok()),
    );
    found
}

/// What must not survive: the input's addresses, user names and user ids.
struct Secrets {
    ips: BTreeSet<IpAddr>,
    words: BTreeSet<String>,
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn secrets(events: &HashMap<String, Value>) -> Secrets {
    let mut ips = BTreeSet::new();
    let mut words = BTreeSet::new();
    for e in events.values() {
        let mut all = Vec::new();
        strings(e, &mut all);
        for s in &all {
            ips.extend(addresses(s));
        }
        for field in ["user_name", "user_id"] {
            if let Some(s) = e["data"][field].as_str().filter(|s| !s.trim().is_empty()) {
                words.insert(s.to_string());
            }
        }
    }
    assert!(
        ips.len() > 20,
        "the inputs hold many addresses: {}",
        ips.len()
    );
    assert!(words.len() > 20, "and many users: {}", words.len());
    Secrets { ips, words }
}

/// Whether `word` stands in `text` as a word of its own (a user named Sam does not make
/// "Samsung" identifying), whatever the case.
fn holds_word(text: &str, word: &str) -> bool {
    holds_lowercase_word(&text.to_lowercase(), word)
}

/// [`holds_word`] in a text already lowercased (a long text is lowercased once for many words).
fn holds_lowercase_word(text: &str, word: &str) -> bool {
    let word = word.to_lowercase();
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(&word).any(|(at, _)| {
        let starts_word = alnum(word.chars().next());
        let ends_word = alnum(word.chars().next_back());
        let glued_before = starts_word && alnum(text[..at].chars().next_back());
        let glued_after = ends_word && alnum(text[at + word.len()..].chars().next());
        !glued_before && !glued_after
    })
}

/// Asserts that a text (any format) holds none of the secrets.
fn assert_clean(what: &str, text: &str, secrets: &Secrets) {
    let lowercase = text.to_lowercase();
    for w in &secrets.words {
        assert!(
            !holds_lowercase_word(&lowercase, w),
            "{what}: {w:?} survived"
        );
    }
    for ip in addresses(text) {
        assert!(!secrets.ips.contains(&ip), "{what}: {ip} survived");
    }
}

fn list(files: &[PathBuf], args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("list")
        .args(files)
        .args(args)
        .env_remove("CALLSCOPE_CONFIG")
        .env("HOME", "/nonexistent")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The key paths of a JSON value, in order.
fn shape(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = format!("{path}/{k}");
                out.push(p.clone());
                shape(x, &p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                shape(x, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Pairs the scalars of two values of the same shape.
fn pairs<'a>(a: &'a Value, b: &'a Value, out: &mut Vec<(&'a Value, &'a Value)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for ((_, p), (_, q)) in x.iter().zip(y) {
                pairs(p, q, out);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                pairs(p, q, out);
            }
        }
        _ => out.push((a, b)),
    }
}

/// Records that `from` became `to`, checking each input has one pseudonym and no two inputs
/// share one.
fn record<K: Ord + Clone + std::fmt::Debug>(
    forward: &mut HashMap<String, K>,
    from: String,
    to: K,
    what: &str,
) {
    if let Some(earlier) = forward.get(&from) {
        assert_eq!(earlier, &to, "{what} {from:?} got two pseudonyms");
    }
    forward.insert(from, to);
}

#[test]
fn list_redact_leaves_nothing_identifying_and_keeps_the_shape() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let events = input_events(&files);
    let secrets = secrets(&events);
    let redacted = list(&files, &["--redact", "--format", "ndjson"]);
    assert_clean("ndjson", &redacted, &secrets);

    let mut users: HashMap<String, String> = HashMap::new();
    let mut names: HashMap<String, String> = HashMap::new();
    let mut ips: HashMap<String, IpAddr> = HashMap::new();
    let mut seen = 0;
    for line in redacted.lines() {
        let out: Value = serde_json::from_str(line).expect("valid JSON");
        let id = out["id"].as_str().unwrap();
        let input = &events[id];
        let (mut a, mut b) = (Vec::new(), Vec::new());
        shape(input, "", &mut a);
        shape(&out, "", &mut b);
        assert_eq!(a, b, "{id}: the same keys in the same order");
        let mut scalars = Vec::new();
        pairs(input, &out, &mut scalars);
        for (before, after) in scalars {
            match (before, after) {
                (Value::String(x), Value::String(y)) => {
                    let before_ips = addresses(x);
                    let after_ips = addresses(y);
                    let named = secrets.words.iter().any(|w| holds_word(x, w));
                    if before_ips.is_empty() && !named {
                        assert_eq!(x, y, "{id}: a string with nothing to hide changed");
                    }
                    if !named {
                        assert_eq!(before_ips.len(), after_ips.len(), "{id}: {x:?} -> {y:?}");
                        for (p, q) in before_ips.into_iter().zip(after_ips) {
                            record(&mut ips, p.to_string(), q, "address");
                        }
                    }
                }
                // Numbers keep their spelling (1.50, 1e3, 23 digits), and so every other scalar.
                _ => assert_eq!(before.to_string(), after.to_string(), "{id}"),
            }
        }
        for (field, map) in [("user_id", &mut users), ("user_name", &mut names)] {
            if let (Some(x), Some(y)) = (input["data"][field].as_str(), out["data"][field].as_str())
                && !x.trim().is_empty()
            {
                assert_ne!(x, y);
                record(map, x.to_lowercase(), y.to_string(), field);
            }
        }
        seen += 1;
    }
    assert_eq!(seen, events.len(), "every event is written");
    for (what, map) in [
        ("user_id", users.values().cloned().collect::<Vec<_>>()),
        ("user_name", names.values().cloned().collect()),
    ] {
        let distinct: BTreeSet<&String> = map.iter().collect();
        assert_eq!(distinct.len(), map.len(), "two {what}s share a pseudonym");
    }
    let distinct: BTreeSet<&IpAddr> = ips.values().collect();
    assert_eq!(distinct.len(), ips.len(), "two addresses share a pseudonym");

    // The crafted events: the same person and address read the same everywhere.
    let by_id: HashMap<String, Value> = redacted
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["id"].as_str().unwrap().to_string(), v))
        .collect();
    let lucia = by_id["r-1"]["data"]["user_name"].as_str().unwrap();
    let lucia_id = by_id["r-1"]["data"]["user_id"].as_str().unwrap();
    assert_eq!(by_id["r-2"]["data"]["user_name"], lucia);
    let kicked = by_id["r-3"]["data"]["error_message"].as_str().unwrap();
    assert!(
        kicked.contains(&format!("after {lucia} ({lucia_id}) left")),
        "{kicked}"
    );
    let chen = by_id["r-3"]["data"]["user_name"].as_str().unwrap();
    assert_eq!(by_id["r-3"]["data"]["room_name"], format!("{chen}'s room"));
    let srflx = &ips["203.0.113.7"];
    let joined = by_id["r-2"]["data"]["error_message"].as_str().unwrap();
    assert!(joined.contains(&format!("{srflx}:443")), "{joined}");
    assert!(line_of(&redacted, "r-1").contains(r#""score":1.50,"big":12345678901234567890123"#));
    assert!(line_of(&redacted, "r-2").contains(r#""exp":1e3"#));
}

fn line_of<'a>(ndjson: &'a str, id: &str) -> &'a str {
    ndjson
        .lines()
        .find(|l| l.contains(&format!(r#""id":"{id}""#)))
        .unwrap()
}

#[test]
fn every_format_and_grouping_is_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let secrets = secrets(&input_events(&files));
    for format in ["json", "csv", "table"] {
        let text = list(&files, &["--redact", "--format", format]);
        assert!(text.lines().count() > 100, "{format}");
        assert_clean(format, &text, &secrets);
    }
    let json: Value =
        serde_json::from_str(&list(&files, &["--redact", "--format", "json"])).unwrap();
    assert!(json["events"].as_array().unwrap().len() > 100);
    for key in ["peer", "room", "error", "sdk"] {
        for format in ["table", "csv", "json"] {
            let text = list(&files, &["--redact", "--group-by", key, "--format", format]);
            assert!(!text.is_empty());
            assert_clean(
                &format!("--group-by {key} --format {format}"),
                &text,
                &secrets,
            );
        }
    }
    // Without --redact the same outputs do hold them: the checks above can fail.
    let plain = list(&files, &["--format", "csv"]);
    assert!(secrets.words.iter().any(|w| holds_word(&plain, w)));
}

#[test]
fn serve_redact_serves_what_list_redact_writes() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let secrets = secrets(&input_events(&files));
    let token = dir.path().join("token");
    std::fs::write(&token, "serve-token-41c9\n").unwrap();
    let mut cmd = StdCommand::new(BIN);
    cmd.arg("serve")
        .args(&files)
        .args(["--redact", "--addr", "127.0.0.1:0", "--token-file"])
        .arg(&token)
        .stderr(Stdio::null());
    let server = Server::spawn(cmd);
    // The live API answers one room at a time: each room's events are asked for in turn, and
    // compared with that room's events of one redacted listing of everything (pseudonyms are
    // given in one pass over what is served, as over what list reads).
    let everything = list(&files, &["--redact", "--format", "ndjson"]);
    let room_of = |line: &str| {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["data"]["room_id"].as_str().map(str::to_string)
    };
    let mut rooms: Vec<String> = everything.lines().filter_map(room_of).collect();
    rooms.sort();
    rooms.dedup();
    assert!(rooms.len() > 3, "{rooms:?}");
    for room in rooms {
        let out = Command::new(BIN)
            .args(["list", "--live", "--base-url", &server.url, "--room", &room])
            .args(["--format", "ndjson", "--token-file"])
            .arg(&token)
            .env("HOME", "/nonexistent")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{room}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let served = String::from_utf8(out.stdout).unwrap();
        assert_clean("serve --redact", &served, &secrets);
        // With no type named, the live query asks for the error events only.
        let expected: Vec<&str> = everything
            .lines()
            .filter(|l| room_of(l).as_deref() == Some(room.as_str()))
            .filter(|l| l.contains(r#""type":"client."#))
            .collect();
        assert_eq!(served.lines().collect::<Vec<_>>(), expected, "{room}");
    }
}

#[test]
fn versions_that_read_like_addresses_are_left_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("versions.ndjson");
    let event = r#"{"id":"v-1","timestamp":"2026-03-02T10:00:00Z","type":"client.join.failed","data":{"user_name":"Ana","os_version":"10.0.1.2","error_message":"from 10.0.1.2, version:10.0.1.2, sdk_version:10.0.1.2","agent":{"os":"Windows","os_version":"10.0.1.2","string":"os:Windows,os_version:10.0.1.2,ip:10.0.1.2"}}}"#;
    std::fs::write(&path, format!("{event}\n")).unwrap();
    let out = list_ndjson([path.to_str().unwrap(), "--redact"]);
    let redacted: Value = serde_json::from_str(&out[0]).unwrap();
    let data = &redacted["data"];
    // Under a key that names a version, and after `version:` in the agent string: kept.
    assert_eq!(data["os_version"], "10.0.1.2");
    assert_eq!(data["agent"]["os_version"], "10.0.1.2");
    let string = data["agent"]["string"].as_str().unwrap();
    assert!(
        string.starts_with("os:Windows,os_version:10.0.1.2,ip:"),
        "{string}"
    );
    // Anywhere else the same text is an address, and is redacted.
    assert!(!string.ends_with("ip:10.0.1.2"), "{string}");
    // In a message, even after a version's name: an agent string's list is not a sentence.
    let message = data["error_message"].as_str().unwrap();
    assert!(!message.contains("10.0.1.2"), "{message}");
    assert_ne!(data["user_name"], "Ana");
}
