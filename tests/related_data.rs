//! A folder of events with the platform's related data beside them (rooms, sessions, quality
//! stats), written by hand with every outcome known: a peer that got in after retries, one that
//! never did, a disconnect that came back, a disconnect that left for good, and one whose room's
//! sessions are missing. The verdicts must be these through `callscope story` on the folder,
//! through `serve` and `story --live`, and through a folder `list --live --output DIR/` saved.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

mod common;
use common::Server;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");
const ROOM: &str = "6735e0b1c4a92f5d18e3b7a1";
/// A room with events and no session data.
const DARK_ROOM: &str = "6735e0b1c4a92f5d18e3b7a2";
const SESSION: &str = "63f73bf05223403c9671c5c9";
const TOKEN: &str = "related-token-0a9c";
/// The folder's peers, in the order of their known outcomes.
const EVERY_PEER: [&str; 5] = ["peer-in", "peer-out", "peer-back", "peer-gone", "peer-dark"];

fn event(
    id: u32,
    at: &str,
    kind: &str,
    peer: &str,
    user: &str,
    room: &str,
    terminal: bool,
) -> Value {
    let action = match kind {
        "client.join.failed" => "JOIN",
        "client.disconnected" => "RECONNECT_SIGNAL",
        "client.publish.failed" => "PUBLISH",
        _ => "",
    };
    json!({
        "version": "2.0",
        "id": format!("00000000-0000-4000-8000-{id:012}"),
        "timestamp": format!("2026-11-18T{at}Z"),
        "type": kind,
        "data": {
            "room_id": room,
            "room_name": if room == DARK_ROOM { "dark-room" } else { "standup" },
            "peer_id": peer, "user_id": user,
            "user_name": user, "error_code": 500, "error_name": "ServerErrors",
            "is_terminal": terminal, "action": action,
            "agent": {"sdk": "web", "sdk_version": "0.12.3", "os": "macOS"}
        }
    })
}

fn peer(id: &str, user: &str, joined: &str, left: Option<&str>) -> (String, Value) {
    let mut p = json!({"id": id, "session_id": SESSION, "name": user, "role": "guest",
        "user_id": user, "joined_at": format!("2026-11-18T{joined}Z")});
    if let Some(left) = left {
        p["left_at"] = format!("2026-11-18T{left}Z").into();
    }
    (id.to_string(), p)
}

/// The folder: events.ndjson, rooms.json, sessions.json, peer-stats.ndjson.
/// `callscope serve` of the folder at `dir`, on a port of its own.
fn serve(dir: &Path) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", dir.to_str().unwrap(), "--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::null());
    Server::spawn(cmd)
}

fn folder(dir: &Path) {
    let events = [
        // Got in after retries: joins at 10:02:07.
        event(
            1,
            "10:02:00",
            "client.join.failed",
            "peer-in",
            "ada",
            ROOM,
            false,
        ),
        event(
            2,
            "10:02:05",
            "client.join.failed",
            "peer-in",
            "ada",
            ROOM,
            false,
        ),
        // Never got in: gave up, and the session never lists him.
        event(
            3,
            "10:03:00",
            "client.join.failed",
            "peer-out",
            "bo",
            ROOM,
            false,
        ),
        event(
            4,
            "10:03:09",
            "client.join.failed",
            "peer-out",
            "bo",
            ROOM,
            true,
        ),
        // Disconnected and stayed (left at 10:40).
        event(
            5,
            "10:05:00",
            "client.disconnected",
            "peer-back",
            "cy",
            ROOM,
            false,
        ),
        // Disconnected and left for good at 10:06:02.
        event(
            6,
            "10:06:00",
            "client.disconnected",
            "peer-gone",
            "di",
            ROOM,
            false,
        ),
        // In a room with no session data.
        event(
            7,
            "10:07:00",
            "client.join.failed",
            "peer-dark",
            "ed",
            DARK_ROOM,
            false,
        ),
    ];
    let lines: Vec<String> = events.iter().map(Value::to_string).collect();
    std::fs::write(dir.join("events.ndjson"), lines.join("\n") + "\n").unwrap();
    let peers: serde_json::Map<String, Value> = [
        peer("peer-in", "ada", "10:02:07", Some("10:25:40")),
        peer("peer-back", "cy", "09:30:00", Some("10:40:00")),
        peer("peer-gone", "di", "09:35:00", Some("10:06:02")),
        peer("someone", "zo", "09:00:05", Some("10:59:00")),
    ]
    .into_iter()
    .collect();
    let sessions = json!({"limit": 10, "data": [{
        "id": SESSION, "room_id": ROOM, "customer_id": "c1", "active": false,
        "created_at": "2026-11-18T09:00:00Z", "updated_at": "2026-11-18T11:00:00Z",
        "peers": peers
    }], "last": SESSION});
    // Pretty-printed, as a saved response often is.
    std::fs::write(
        dir.join("sessions.json"),
        serde_json::to_string_pretty(&sessions).unwrap(),
    )
    .unwrap();
    let rooms = json!({"limit": 10, "data": [{"id": ROOM, "name": "standup", "enabled": true,
        "customer_id": "c1", "template_id": "t1", "region": "in",
        "created_at": "2026-01-05T10:00:00Z"}], "last": ROOM});
    std::fs::write(dir.join("rooms.json"), rooms.to_string()).unwrap();
    let ms = |t: &str| {
        callscope::time::parse_rfc3339_nanos(&format!("2026-11-18T{t}Z")).unwrap() / 1_000_000
    };
    let stats = json!({"peer_id": "peer-back", "session_id": SESSION, "room_id": ROOM,
        "publisher": {"video": [{"track_id": "v1", "type": "regular", "rid": "h",
            "time_series": {"timestamps": [ms("10:03:00"), ms("10:04:20"), ms("10:04:50")],
                "packet_loss_percent": [0.4, 9.0, 28.0], "rtt_ms": [40, 90, 140]}}],
            "audio": []},
        "subscriber": {"video": [], "audio": []}});
    std::fs::write(dir.join("peer-stats.ndjson"), format!("{stats}\n")).unwrap();
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::outcome(common::with_token(TOKEN).args(args))
}

/// Each story's (peer, outcome, evidence, session) from `callscope story PEER ARGS --format json`.
fn outcomes(peers: &[&str], args: &[&str]) -> Vec<(String, String, String, Option<String>)> {
    peers
        .iter()
        .map(|peer| {
            let mut all = vec!["story", peer];
            all.extend_from_slice(args);
            all.extend_from_slice(&["--format", "json"]);
            let (code, stdout, stderr) = run(&all);
            assert_eq!(code, 0, "{peer}: {stderr}");
            let v: Value = serde_json::from_str(&stdout).unwrap();
            let chain = &v["chains"][0];
            (
                peer.to_string(),
                chain["outcome"].as_str().unwrap().to_string(),
                chain["evidence"].as_str().unwrap().to_string(),
                chain["session_id"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn assert_known(found: &[(String, String, String, Option<String>)]) {
    let outcome: Vec<(&str, &str)> = found
        .iter()
        .map(|(p, o, ..)| (p.as_str(), o.as_str()))
        .collect();
    assert_eq!(
        outcome,
        [
            ("peer-in", "got_through"),
            ("peer-out", "never_got_in"),
            ("peer-back", "reconnected"),
            ("peer-gone", "left"),
            ("peer-dark", "unknown"),
        ]
    );
    let (_, _, evidence, session) = &found[0];
    assert!(
        evidence.contains("joined session 63f73bf0… at 10:02:07")
            && evidence.contains("left 10:25:40"),
        "{evidence}"
    );
    assert_eq!(session.as_deref(), Some(SESSION));
    assert!(
        found[3].2.contains("left session 63f73bf0… at 10:06:02"),
        "{}",
        found[3].2
    );
    assert!(
        found[4].2.contains("no session data for room"),
        "{}",
        found[4].2
    );
}

#[test]
fn a_folder_with_sessions_beside_the_events_gives_each_verdict_on_its_evidence() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let path = dir.path().to_str().unwrap();
    // The related files are not read as events.
    let (code, stdout, stderr) = run(&["list", path, "--format", "ndjson"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout.lines().count(), 7);
    assert_known(&outcomes(&EVERY_PEER, &[path]));
    // The network around the disconnect that came back, from its stats.
    let (_, text, _) = run(&["story", "peer-back", path]);
    assert!(
        text.contains("network: packet loss rose to 28% in the 10 s before the failure at 10:05:00, from 0.4% before (publish video h)"),
        "{text}"
    );
}

#[test]
fn serve_answers_the_related_endpoints_and_a_live_story_and_a_saved_folder_agree() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let server = serve(dir.path());
    let get = |path: &str| -> Value {
        serde_json::from_str(&common::http_get(&server.at(path), TOKEN)).unwrap()
    };
    // Past sessions only with active=false, as the hosted API lists them.
    assert_eq!(
        get(&format!("/v2/sessions?room_id={ROOM}"))["data"],
        json!([])
    );
    let sessions = get(&format!("/v2/sessions?room_id={ROOM}&active=false"));
    assert_eq!(sessions["data"][0]["id"], SESSION);
    assert_eq!(
        get(&format!("/v2/sessions/{SESSION}"))["peers"]["peer-in"]["joined_at"],
        "2026-11-18T10:02:07Z"
    );
    let stats = get(&format!(
        "/v2/analytics/peer-stats?peer_id=peer-back&session_id={SESSION}"
    ));
    assert_eq!(stats["publisher"]["video"][0]["rid"], "h");
    assert_eq!(
        get("/v2/analytics/peer-stats?peer_id=peer-back")["code"],
        400
    );
    assert_eq!(get("/v2/rooms?name=standup")["data"][0]["id"], ROOM);

    // Live: each story from serve, its room named by name, sessions fetched.
    let in_room = &EVERY_PEER[..4];
    let live = outcomes(
        in_room,
        &["--live", "--base-url", &server.url, "--room", "standup"],
    );
    let offline = outcomes(in_room, &[dir.path().to_str().unwrap()]);
    assert_eq!(live, offline);

    // Saved as a folder, and opened again: the same verdicts.
    let saved = tempfile::tempdir().unwrap();
    let into = format!("{}/", saved.path().display());
    let (code, _, stderr) = run(&[
        "list",
        "--live",
        "--base-url",
        &server.url,
        "--room",
        ROOM,
        "--output",
        &into,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("wrote 6 events, 1 room and 1 session into "),
        "{stderr}"
    );
    for file in ["events.ndjson", "rooms.json", "sessions.json"] {
        assert!(saved.path().join(file).is_file(), "{file}");
    }
    let reopened = outcomes(in_room, &[saved.path().to_str().unwrap()]);
    assert_eq!(reopened, offline);
}

#[test]
fn live_a_session_still_active_since_days_before_the_failure_tells_its_verdict() {
    // The room's one session began three days before the failures and is still going: `story
    // --live` asks for the active sessions without a start, where the ended ones are asked from
    // twelve hours before the events (the longest an ended session lasted).
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let path = dir.path().join("sessions.json");
    let mut sessions: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let session = &mut sessions["data"][0];
    session["active"] = json!(true);
    session["created_at"] = json!("2026-11-15T09:00:00Z");
    std::fs::write(&path, sessions.to_string()).unwrap();
    let server = serve(dir.path());
    let live = outcomes(
        &["peer-in", "peer-out"],
        &["--live", "--base-url", &server.url, "--room", ROOM],
    );
    let (outcome, evidence) = (&live[0].1, &live[0].2);
    assert_eq!(outcome, "got_through", "{evidence}");
    assert!(
        evidence.starts_with(&format!("joined session {}", &SESSION[..8])),
        "{evidence}"
    );
    // The session, known from its start to now, holds no join of the peer that gave up.
    assert_eq!(live[1].1, "never_got_in", "{}", live[1].2);
}

#[test]
fn live_an_empty_answer_for_a_room_the_service_does_not_know_says_so() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let server = serve(dir.path());
    let live = [
        "list",
        "--live",
        "--base-url",
        &server.url,
        "--format",
        "ndjson",
    ];
    // A mistyped id: no event, and the service has no such room.
    let mistyped = "6735e0b1c4a92f5d18e3b7a9";
    let (code, stdout, stderr) = run(&[&live[..], &["--room", mistyped]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(&format!(
            "the service has no room of id {mistyped}, so no event is in it"
        )),
        "{stderr}"
    );
    // A room that exists, with a filter no event matches: nothing said of the room.
    let (code, stdout, stderr) = run(&[&live[..], &["--room", ROOM, "--code", "9999"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert!(!stderr.contains("has no room"), "{stderr}");
}
