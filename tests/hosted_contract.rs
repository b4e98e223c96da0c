//! The hosted API's contract, from both sides: `callscope serve` answers as the hosted API does
//! (room_id required, full type names, error=true, beam_id, errors as {code, message, details},
//! gzip, management tokens minted from an app's key), and `callscope list --live` asks as the
//! hosted API requires (a room in every query, a room's name looked up). Each side is checked
//! with a plain HTTP client too, so that neither only agrees with the other.

use std::io::Read;
use std::process::{Command, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");
const TOKEN: &str = "contract-token-62d1";
const EVENTS: &str = "/v2/analytics/events";
/// The demo's join storm room and its name.
const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";
const STORM_NAME: &str = "weekly-allhands";

mod common;
use common::{Server, list_ndjson};

fn serve(args: &[&str]) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .args(args)
        .args(["--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::null());
    for name in common::CLEARED {
        cmd.env_remove(name);
    }
    Server::spawn(cmd)
}

/// `callscope list --live` against `server` with serve's token; (status, stdout, stderr).
fn list_live(server: &Server, args: &[&str]) -> (i32, String, String) {
    common::outcome(
        common::with_token(TOKEN)
            .args(["list", "--live", "--base-url", &server.url])
            .args(["--format", "ndjson"])
            .args(args),
    )
}

/// A GET with serve's token, answered as (status, headers, body as read off the wire).
async fn get(
    url: &str,
    params: &[(&str, &str)],
    gzip: bool,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    // A client that leaves the body as sent, to see what was sent.
    let client = reqwest::Client::builder().no_gzip().build().unwrap();
    let mut req = client
        .get(url)
        .query(params)
        .header("Authorization", format!("Bearer {TOKEN}"));
    if gzip {
        req = req.header("Accept-Encoding", "gzip");
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}

fn json(body: &[u8]) -> Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)))
}

#[tokio::test]
async fn serve_refuses_what_the_hosted_api_refuses_in_its_error_shape() {
    let server = serve(&["--demo"]);
    let url = server.at(EVENTS);
    for (params, says) in [
        (vec![], "room_id is required"),
        (vec![("type", "client.join.failed")], "room_id is required"),
        (
            vec![("room_id", STORM_ROOM), ("type", "join")],
            "the full name is client.join.failed",
        ),
        (
            vec![
                ("room_id", STORM_ROOM),
                ("type", "client.join.failed,client.connect.failed"),
            ],
            "one full type name per type parameter",
        ),
        (
            vec![("room_id", STORM_ROOM), ("error", "yes")],
            "error must be true or false",
        ),
        (
            vec![("room_id", STORM_ROOM), ("limit", "0")],
            "limit must be an integer from 1 to 100",
        ),
    ] {
        let (status, headers, body) = get(&url, &params, false).await;
        assert_eq!(status, 400, "{params:?}");
        assert_eq!(headers["content-type"], "application/json");
        let v = json(&body);
        assert_eq!(v["code"], 400, "{v}");
        assert_eq!(v["message"], "Bad Request", "{v}");
        let detail = v["details"][0].as_str().unwrap();
        assert!(detail.contains(says), "{params:?}: {detail}");
    }
    // A missing token: 401 in the same shape.
    let plain = reqwest::Client::new();
    let resp = plain
        .get(&url)
        .query(&[("room_id", STORM_ROOM)])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let v = json(&resp.bytes().await.unwrap());
    assert_eq!(
        (v["code"].clone(), v["message"].clone()),
        (401.into(), "Token validation error".into())
    );
    assert!(v["details"][0].as_str().unwrap().contains("Authorization"));
}

#[tokio::test]
async fn serve_answers_error_true_with_the_error_events_only_and_gzips_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    // A room's error events, track events and recordings of two recordings.
    let mut lines = Vec::new();
    for (k, (kind, beam)) in [
        ("client.join.failed", None),
        ("track.add.success", None),
        ("beam.recording.success", Some("beam-1")),
        ("client.publish.failed", None),
        ("beam.recording.success", Some("beam-2")),
        ("track.remove.success", None),
    ]
    .into_iter()
    .enumerate()
    {
        let mut data =
            serde_json::json!({"room_id": "6735e0b1c4a92f5d18e3b7a1", "room_name": "standup"});
        if let Some(beam) = beam {
            data["beam_id"] = beam.into();
        }
        lines.push(
            serde_json::json!({
                "version": "2.0",
                "id": format!("00000000-0000-4000-8000-{k:012}"),
                "timestamp": format!("2026-11-18T10:00:0{k}Z"),
                "type": kind,
                "data": data,
            })
            .to_string(),
        );
    }
    let dump = dir.path().join("room.ndjson");
    std::fs::write(&dump, lines.join("\n")).unwrap();
    let server = serve(&[dump.to_str().unwrap()]);
    let url = server.at(EVENTS);
    let room = ("room_id", "6735e0b1c4a92f5d18e3b7a1");
    let types = |body: &[u8]| -> Vec<String> {
        json(body)["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, _, body) = get(&url, &[room, ("error", "true")], false).await;
    assert_eq!(
        types(&body),
        ["client.join.failed", "client.publish.failed"]
    );
    let (_, _, body) = get(&url, &[room], false).await;
    assert_eq!(types(&body).len(), 6, "by default every family");
    let (_, _, body) = get(
        &url,
        &[
            room,
            ("type", "beam.recording.success"),
            ("beam_id", "beam-2"),
        ],
        false,
    )
    .await;
    assert_eq!(json(&body)["events"][0]["data"]["beam_id"], "beam-2");
    assert_eq!(json(&body)["total"], 1);
    // Gzip'd for a client that asks, and only then.
    let (status, headers, gzipped) = get(&url, &[room], true).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-encoding"], "gzip");
    let mut inflated = Vec::new();
    flate2::read::GzDecoder::new(gzipped.as_slice())
        .read_to_end(&mut inflated)
        .unwrap();
    assert_eq!(types(&inflated).len(), 6);
    let (_, headers, _) = get(&url, &[room], false).await;
    assert!(headers.get("content-encoding").is_none());
    // --lenient takes what the hosted API refuses.
    let lenient = serve(&[dump.to_str().unwrap(), "--lenient"]);
    let (status, _, body) = get(&lenient.at(EVENTS), &[("type", "join")], false).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(types(&body), ["client.join.failed"]);
}

#[tokio::test]
async fn the_rooms_endpoint_lists_the_rooms_the_events_name_and_pages_by_last() {
    let server = serve(&["--demo"]);
    let (status, _, body) = get(&server.at("/v2/rooms"), &[("name", STORM_NAME)], false).await;
    assert_eq!(status, 200);
    let v = json(&body);
    assert_eq!(v["data"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["data"][0]["id"], STORM_ROOM);
    assert_eq!(v["data"][0]["name"], STORM_NAME);
    // Every room, ten a page, each page's last room the next page's start.
    let mut ids = Vec::new();
    let mut start = String::new();
    for _ in 0..10 {
        let mut params = vec![("limit", "10")];
        if !start.is_empty() {
            params.push(("start", start.as_str()));
        }
        let (_, _, body) = get(&server.at("/v2/rooms"), &params, false).await;
        let v = json(&body);
        let data = v["data"].as_array().unwrap();
        ids.extend(data.iter().map(|r| r["id"].as_str().unwrap().to_string()));
        if data.len() < 10 {
            break;
        }
        start = v["last"].as_str().unwrap().to_string();
    }
    let mut from_events: Vec<String> = list_ndjson(["--demo"])
        .iter()
        .filter_map(|l| {
            json(l.as_bytes())["data"]["room_id"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    from_events.sort();
    from_events.dedup();
    let mut listed = ids.clone();
    listed.sort();
    assert_eq!(listed, from_events);
    assert_eq!(ids.len(), listed.len(), "no room twice");
    let (status, _, body) = get(&server.at(&format!("/v2/rooms/{STORM_ROOM}")), &[], false).await;
    assert_eq!(
        (status, json(&body)["name"].clone()),
        (200, STORM_NAME.into())
    );
    let (status, _, body) = get(&server.at("/v2/rooms/nope"), &[], false).await;
    assert_eq!(status, 404);
    assert_eq!(json(&body)["code"], 404);
}

#[test]
fn list_live_names_a_room_by_id_or_by_name_and_says_when_it_names_none() {
    let server = serve(&["--demo"]);
    let expected = list_ndjson([
        "--demo",
        "--room",
        STORM_ROOM,
        "--type",
        "publish,subscribe,join,disconnected,connect",
    ]);
    assert!(expected.len() > 400);
    for room in [STORM_ROOM, STORM_NAME] {
        let (code, stdout, stderr) = list_live(&server, &["--room", room]);
        assert_eq!(code, 0, "{room}: {stderr}");
        assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{room}");
    }
    let (code, stdout, stderr) = list_live(&server, &[]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("--room ID") && stderr.contains("--room NAME"),
        "{stderr}"
    );
    let (code, stdout, stderr) = list_live(&server, &["--room", "no-such-room"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("no room is named \"no-such-room\""),
        "{stderr}"
    );
}

#[test]
fn two_rooms_of_one_name_are_listed_for_the_user_to_choose() {
    let dir = tempfile::tempdir().unwrap();
    let event = |id: u32, room: &str| {
        serde_json::json!({
            "version": "2.0",
            "id": format!("00000000-0000-4000-8000-{id:012}"),
            "timestamp": "2026-11-18T10:00:00Z",
            "type": "client.join.failed",
            "data": {"room_id": room, "room_name": "standup"},
        })
        .to_string()
    };
    let dump = dir.path().join("twins.ndjson");
    std::fs::write(
        &dump,
        [
            event(1, "6735e0b1c4a92f5d18e3b7a1"),
            event(2, "6735e0b1c4a92f5d18e3b7a2"),
        ]
        .join("\n"),
    )
    .unwrap();
    let server = serve(&[dump.to_str().unwrap()]);
    let (code, stdout, stderr) = list_live(&server, &["--room", "standup"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("2 rooms are named \"standup\"")
            && stderr.contains("6735e0b1c4a92f5d18e3b7a1")
            && stderr.contains("6735e0b1c4a92f5d18e3b7a2"),
        "{stderr}"
    );
}

#[test]
fn serve_lets_in_management_tokens_minted_from_the_app_key_it_is_given() {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--demo", "--addr", "127.0.0.1:0"])
        .args(["--access-key-env", "APP_KEY", "--secret-env", "APP_SECRET"])
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .env("APP_KEY", "ak-contract")
        .env("APP_SECRET", "secret-contract-4e1f")
        .stderr(Stdio::null());
    let server = Server::spawn(cmd);
    let list = |key: &str, secret: &str| {
        let out = Command::new(BIN)
            .args([
                "list",
                "--live",
                "--base-url",
                &server.url,
                "--room",
                STORM_ROOM,
            ])
            .args(["--type", "connect", "--format", "ndjson"])
            .env_remove("HMS_MANAGEMENT_TOKEN")
            .env("HMS_ACCESS_KEY", key)
            .env("HMS_SECRET", secret)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    // callscope mints its token from the key and secret, as the official SDKs do.
    assert_eq!(list("ak-contract", "secret-contract-4e1f").0, Some(0));
    let (code, stderr) = list("ak-contract", "another-secret");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("HTTP 401"), "{stderr}");
    assert!(!stderr.contains("another-secret"), "{stderr}");
    let (code, stderr) = list("ak-other", "secret-contract-4e1f");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("access_key"), "{stderr}");
    // Naming a variable that is not set is a usage error.
    let out = Command::new(BIN)
        .args(["serve", "--demo", "--addr", "127.0.0.1:0"])
        .args([
            "--access-key-env",
            "NOT_SET_ANYWHERE",
            "--secret-env",
            "APP_SECRET",
        ])
        .env("APP_SECRET", "x")
        .env_remove("NOT_SET_ANYWHERE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NOT_SET_ANYWHERE is not set"));
}

/// A proxy that answers every request with 502 and counts the connections made to it.
fn counting_proxy() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            counted.fetch_add(1, Ordering::SeqCst);
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = stream.write_all(
                b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            );
        }
    });
    (url, count)
}

#[test]
fn a_token_for_this_machine_never_goes_through_the_proxy_the_environment_names() {
    // Over plain http the proxy would read the bearer token; callscope asks serve directly.
    let server = serve(&["--demo"]);
    let (proxy, connections) = counting_proxy();
    let mut cmd = common::with_token(TOKEN);
    for name in ["NO_PROXY", "no_proxy"] {
        cmd.env_remove(name);
    }
    for name in [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "ALL_PROXY",
    ] {
        cmd.env(name, &proxy);
    }
    let (code, stdout, stderr) = common::outcome(
        cmd.args(["list", "--live", "--base-url", &server.url])
            .args(["--room", STORM_ROOM, "--format", "ndjson"]),
    );
    assert_eq!(code, 0, "{stderr}");
    // The error types: what a live query without one asks for.
    let types = "publish,subscribe,join,disconnected,connect";
    let expected = list_ndjson(["--demo", "--room", STORM_ROOM, "--type", types]);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
    assert_eq!(
        connections.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "a request went to the proxy"
    );
}
