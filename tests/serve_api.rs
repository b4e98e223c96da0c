//! `callscope serve` driven over HTTP as a client of the service would drive it: the binary is
//! started on a free port, its first stdout line gives the URL, and every answer is checked
//! against `callscope list` over the same source.

use std::process::{Command, Stdio};
use std::sync::OnceLock;

use futures::StreamExt;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

mod common;
use common::{Server, list_ndjson};
const TOKEN: &str = "test-token-5f2c";
const EVENTS: &str = "/v2/analytics/events";
const LIMIT_MESSAGE: &str = "limit must be an integer from 1 to 100";
const CURSOR_MESSAGE: &str = "invalid or expired start cursor";
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/serve/incident.json"
);

/// `callscope serve ARGS`, its token from `CALLSCOPE_SERVE_TOKEN` when one is given, with
/// stderr kept for the checks that read it.
fn serve(args: &[&str], env_token: Option<&str>) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .args(args)
        .stderr(Stdio::piped())
        .env_remove("CALLSCOPE_SERVE_TOKEN");
    if let Some(t) = env_token {
        cmd.env("CALLSCOPE_SERVE_TOKEN", t);
    }
    Server::spawn(cmd)
}

/// The demo served leniently (no room needed, aliases taken), for the checks of paging,
/// cursors and filters, which the hosted API's rules do not change.
fn serve_demo() -> Server {
    serve(
        &["--demo", "--lenient", "--addr", "127.0.0.1:0"],
        Some(TOKEN),
    )
}

#[derive(Debug, Deserialize)]
struct Envelope<'a> {
    limit: usize,
    total: usize,
    next: String,
    #[serde(borrow)]
    events: Vec<&'a RawValue>,
}

#[derive(Debug)]
struct Answer {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

impl Answer {
    fn envelope(&self) -> Envelope<'_> {
        assert_eq!(self.status, 200, "{}", String::from_utf8_lossy(&self.body));
        assert_eq!(self.content_type, "application/json");
        serde_json::from_slice(&self.body).expect("an envelope")
    }

    /// What an error answer says: its first detail (where the hosted API puts the useful
    /// part), else its message. The body is checked to be in the hosted API's error shape.
    fn message(&self) -> String {
        assert_eq!(self.content_type, "application/json");
        let v: Value = serde_json::from_slice(&self.body).expect("a JSON error body");
        assert_eq!(v["code"].as_u64(), Some(u64::from(self.status)), "{v}");
        assert!(v["message"].is_string(), "{v}");
        let details = v["details"].as_array().expect("details");
        details
            .first()
            .and_then(Value::as_str)
            .or_else(|| v["message"].as_str())
            .expect("a message")
            .to_string()
    }
}

async fn get(
    client: &reqwest::Client,
    url: &str,
    params: &[(&str, &str)],
    auth: Option<&str>,
) -> Answer {
    let mut req = client.get(url).query(params);
    if let Some(a) = auth {
        req = req.header("Authorization", a);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    let content_type = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = resp.bytes().await.unwrap().to_vec();
    Answer {
        status,
        content_type,
        body,
    }
}

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

async fn events(client: &reqwest::Client, server: &Server, params: &[(&str, &str)]) -> Answer {
    get(client, &server.at(EVENTS), params, Some(&bearer())).await
}

/// Every demo event as `list` prints it, and parsed.
fn demo() -> &'static [(String, Value)] {
    static DEMO: OnceLock<Vec<(String, Value)>> = OnceLock::new();
    DEMO.get_or_init(|| {
        list_ndjson(["--demo"])
            .into_iter()
            .map(|line| {
                let v = serde_json::from_str(&line).unwrap();
                (line, v)
            })
            .collect()
    })
}

/// Pages through a query, checking every envelope; returns the events' JSON in order and the
/// total the server reported.
async fn page_through(
    client: &reqwest::Client,
    server: &Server,
    filters: &[(&str, &str)],
    limit: usize,
) -> (Vec<String>, usize) {
    let limit_text = limit.to_string();
    let mut seen = Vec::new();
    let mut start = String::new();
    let mut total = None;
    loop {
        let mut params = filters.to_vec();
        params.push(("limit", &limit_text));
        if !start.is_empty() {
            params.push(("start", &start));
        }
        let answer = events(client, server, &params).await;
        let env = answer.envelope();
        assert_eq!(
            env.limit,
            env.events.len(),
            "limit counts this page's events"
        );
        assert_eq!(
            *total.get_or_insert(env.total),
            env.total,
            "total stays the same while paging"
        );
        seen.extend(env.events.iter().map(|e| e.get().to_string()));
        if env.next.is_empty() {
            assert!(env.limit <= limit);
            break;
        }
        assert_eq!(env.limit, limit, "only the last page is short");
        assert!(
            seen.len() < env.total,
            "next is empty once everything was served"
        );
        assert!(
            env.next.contains(':') && env.next.contains('~'),
            "{}",
            env.next
        );
        start = env.next;
    }
    (seen, total.unwrap())
}

/// The filters of the paging test, as API parameters and as `list` flags.
#[derive(Debug, Clone, Default)]
struct Combo {
    types: Vec<&'static str>,
    room: Option<String>,
    session: Option<String>,
    peer: Option<String>,
    user: Option<String>,
}

impl Combo {
    fn params(&self) -> Vec<(&str, &str)> {
        let mut p: Vec<(&str, &str)> = self.types.iter().map(|t| ("type", *t)).collect();
        for (name, v) in self.ids() {
            if let Some(v) = v {
                p.push((name, v.as_str()));
            }
        }
        p
    }

    fn list_args(&self) -> Vec<String> {
        let mut a = vec!["--demo".to_string()];
        for t in &self.types {
            a.extend(["--type".to_string(), t.to_string()]);
        }
        for ((_, v), flag) in
            self.ids()
                .into_iter()
                .zip(["--room", "--session", "--peer", "--user"])
        {
            if let Some(v) = v {
                a.extend([flag.to_string(), v.clone()]);
            }
        }
        a
    }

    fn ids(&self) -> [(&'static str, &Option<String>); 4] {
        [
            ("room_id", &self.room),
            ("session_id", &self.session),
            ("peer_id", &self.peer),
            ("user_id", &self.user),
        ]
    }

    /// Decided from the event's JSON alone, independently of callscope's filter code.
    fn matches(&self, event: &Value) -> bool {
        let type_ok = self.types.is_empty() || self.types.iter().any(|t| event["type"] == *t);
        type_ok
            && self.ids().iter().all(|(field, want)| {
                want.as_ref()
                    .is_none_or(|w| event["data"][*field].as_str() == Some(w))
            })
    }
}

/// Every combination of: no type, one type, two types; and each of room, session, peer, user
/// present or not. The values come from one demo event whose user has many events, so that most
/// combinations match something and several need many pages.
fn combos() -> Vec<Combo> {
    let demo = demo();
    let count = |field: &str, value: &Value| {
        demo.iter()
            .filter(|(_, e)| e["data"][field] == *value)
            .count()
    };
    let (_, seed) = demo
        .iter()
        .filter(|(_, e)| e["data"]["session_id"].is_string())
        .max_by_key(|(_, e)| count("user_id", &e["data"]["user_id"]))
        .unwrap();
    let text = |field: &str| seed["data"][field].as_str().unwrap().to_string();
    let known = [
        "client.publish.failed",
        "client.subscribe.failed",
        "client.join.failed",
        "client.disconnected",
        "client.connect.failed",
    ];
    let first = *known.iter().find(|t| seed["type"] == **t).unwrap();
    let second = *known.iter().find(|t| **t != first).unwrap();
    let mut out = Vec::new();
    for types in [vec![], vec![first], vec![second, first]] {
        for mask in 0..16u8 {
            let pick = |bit: u8, field: &str| (mask & bit != 0).then(|| text(field));
            out.push(Combo {
                types: types.clone(),
                room: pick(1, "room_id"),
                session: pick(2, "session_id"),
                peer: pick(4, "peer_id"),
                user: pick(8, "user_id"),
            });
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_with_every_filter_combination_serves_each_match_once_in_order() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let combos = combos();

    // The same filters through `list` must give the same bytes: one combination per filter
    // kind, run while the paging below goes on.
    let picks: Vec<Combo> = [0usize, 16, 32, 1, 2, 4, 8, 47]
        .iter()
        .map(|&i| combos[i].clone())
        .collect();
    let listing: Vec<_> = picks
        .iter()
        .map(|c| {
            let args = c.list_args();
            std::thread::spawn(move || list_ndjson(&args))
        })
        .collect();

    let results: Vec<(usize, Vec<String>, usize)> =
        futures::stream::iter(combos.iter().enumerate())
            .map(|(i, combo)| {
                let (client, server) = (&client, &server);
                async move {
                    let (served, total) = page_through(client, server, &combo.params(), 7).await;
                    (i, served, total)
                }
            })
            .buffer_unordered(4)
            .collect()
            .await;
    let mut multi_page = 0;
    for (i, served, total) in results {
        let combo = &combos[i];
        let expected: Vec<&str> = demo()
            .iter()
            .filter(|(_, e)| combo.matches(e))
            .map(|(line, _)| line.as_str())
            .collect();
        assert_eq!(total, expected.len(), "{combo:?}");
        assert_eq!(
            served, expected,
            "{combo:?}: every match once, in order, byte for byte"
        );
        if expected.len() > 14 {
            multi_page += 1;
        }
    }
    assert_eq!(combos.len(), 48);
    assert!(
        multi_page >= 8,
        "the combinations exercise paging ({multi_page} span three pages or more)"
    );

    for (combo, listing) in picks.iter().zip(listing) {
        let lines = listing.join().unwrap();
        let (served, _) = page_through(&client, &server, &combo.params(), 100).await;
        assert_eq!(served, lines, "serve and list agree for {combo:?}");
    }
}

#[tokio::test]
async fn a_token_is_required_and_checked() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let url = server.at(EVENTS);
    for auth in [
        None,
        Some("Bearer wrong-token".to_string()),
        Some(format!("Bearer {TOKEN}x")),
        Some(format!("Basic {TOKEN}")),
        Some(TOKEN.to_string()),
        Some("Bearer ".to_string()),
    ] {
        let a = get(&client, &url, &[("limit", "5")], auth.as_deref()).await;
        assert_eq!(a.status, 401, "{auth:?}");
        let message = a.message();
        assert!(!message.is_empty() && !message.contains(TOKEN), "{message}");
    }
    // Bad parameters are not looked at before the token.
    let a = get(&client, &url, &[("limit", "0")], None).await;
    assert_eq!(a.status, 401);
    let a = get(&client, &url, &[], Some(&format!("bearer  {TOKEN}"))).await;
    assert_eq!(a.status, 200, "the scheme is case-insensitive");
}

#[tokio::test]
async fn bad_limits_and_cursors_are_400_with_a_message() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    for bad in ["0", "101", "abc", "", "-1", "7.0"] {
        let a = events(&client, &server, &[("limit", bad)]).await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, LIMIT_MESSAGE),
            "limit={bad:?}"
        );
    }
    let first = events(
        &client,
        &server,
        &[("type", "client.join.failed"), ("limit", "7")],
    )
    .await;
    let cursor = first.envelope().next;
    assert!(!cursor.is_empty());

    let mut flipped = cursor.clone().into_bytes();
    let i = flipped.len() - 6;
    flipped[i] = if flipped[i] == b'x' { b'y' } else { b'x' };
    let flipped = String::from_utf8(flipped).unwrap();
    let moved = cursor.replacen(":7:", ":14:", 1);
    for garbled in [
        "garbage",
        "c1:7:0~=",
        &flipped,
        &moved,
        &cursor[..cursor.len() - 2],
    ] {
        let a = events(
            &client,
            &server,
            &[("type", "client.join.failed"), ("start", garbled)],
        )
        .await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, CURSOR_MESSAGE),
            "start={garbled:?}"
        );
    }
    let room = demo()[0].1["data"]["room_id"].as_str().unwrap();
    for other in [
        vec![("type", "client.publish.failed")],
        vec![],
        vec![("type", "client.join.failed"), ("room_id", room)],
        vec![
            ("type", "client.join.failed"),
            ("type", "client.publish.failed"),
        ],
    ] {
        let mut params = other.clone();
        params.push(("start", &cursor));
        let a = events(&client, &server, &params).await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, CURSOR_MESSAGE),
            "cursor reused with {other:?}"
        );
    }

    // Another serve process (a restart, possibly over other data) does not honour it.
    let other_server = serve_demo();
    let a = events(
        &client,
        &other_server,
        &[("type", "client.join.failed"), ("start", &cursor)],
    )
    .await;
    assert_eq!((a.status, a.message().as_str()), (400, CURSOR_MESSAGE));
}

#[tokio::test]
async fn cursors_are_bound_to_the_filter_not_its_spelling_and_can_be_reused() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let joins: Vec<&str> = demo()
        .iter()
        .filter(|(_, e)| e["type"] == "client.join.failed")
        .map(|(l, _)| l.as_str())
        .collect();
    let first = events(
        &client,
        &server,
        &[("type", "join"), ("limit", "7"), ("colour", "blue")],
    )
    .await;
    let env = first.envelope();
    assert_eq!(
        env.total,
        joins.len(),
        "an alias is the full type name; unknown parameters are ignored"
    );
    let cursor = env.next.clone();

    let a = events(
        &client,
        &server,
        &[
            ("start", &cursor),
            ("type", "client.join.failed"),
            ("limit", "7"),
        ],
    )
    .await;
    let b = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &cursor),
            ("limit", "7"),
        ],
    )
    .await;
    assert_eq!(
        a.body, b.body,
        "the same cursor gives the same page, next included"
    );
    let page: Vec<&str> = a.envelope().events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[7..14]);

    // The page size may change from one page to the next.
    let c = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &cursor),
            ("limit", "3"),
        ],
    )
    .await;
    let env = c.envelope();
    let page: Vec<&str> = env.events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[7..10]);
    let d = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &env.next),
            ("limit", "3"),
        ],
    )
    .await;
    let page: Vec<&str> = d.envelope().events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[10..13]);

    // A cursor goes back unencoded too: its characters survive a query string as they are.
    let raw = format!(
        "{}?type=client.join.failed&limit=7&start={cursor}",
        server.at(EVENTS)
    );
    let e = get(&client, &raw, &[], Some(&bearer())).await;
    assert_eq!(e.body, a.body);
}

#[tokio::test]
async fn the_default_page_is_ten_events_and_errors_elsewhere_are_json() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let a = events(&client, &server, &[]).await;
    let env = a.envelope();
    assert_eq!((env.limit, env.total), (10, demo().len()));
    let page: Vec<&str> = env.events.iter().map(|e| e.get()).collect();
    let first_ten: Vec<&str> = demo()[..10].iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(page, first_ten);
    assert!(!env.next.is_empty());

    let nowhere = get(
        &client,
        &server.at("/v2/analytics/nope"),
        &[],
        Some(&bearer()),
    )
    .await;
    assert_eq!(nowhere.status, 404);
    assert!(nowhere.message().contains(EVENTS));
    let post = client
        .post(server.at(EVENTS))
        .header("Authorization", bearer())
        .send()
        .await
        .unwrap();
    assert_eq!(post.status().as_u16(), 405);
    let nothing = events(&client, &server, &[("type", "not-a-type")]).await;
    assert_eq!(nothing.status, 400);
    assert!(nothing.message().contains("not-a-type"));
}

#[tokio::test]
async fn a_dump_is_served_byte_for_byte_with_its_unknown_types_and_fields() {
    let mut server = serve(
        &[FIXTURE, "--lenient", "--addr", "127.0.0.1:0"],
        Some(TOKEN),
    );
    let client = reqwest::Client::new();
    let listed = list_ndjson([FIXTURE]);
    assert_eq!(listed.len(), 5, "the duplicate id is dropped");
    let (served, total) = page_through(&client, &server, &[], 2).await;
    assert_eq!((served.as_slice(), total), (listed.as_slice(), 5));
    let all = served.join("\n");
    for kept in [
        r#""retries_join":1.50"#,
        r#""big":12345678901234567890123"#,
        r#""exp":1E+3"#,
        r#"Zoë \u00e9\"quoted\""#,
        r#"line one\nline two"#,
        r#""type":"track.add.success""#,
    ] {
        assert!(all.contains(kept), "{kept} is served as written");
    }
    let (tracks, _) = page_through(&client, &server, &[("type", "track.add.success")], 10).await;
    assert_eq!(tracks, listed[2..3]);
    let (room_a_joins, _) = page_through(
        &client,
        &server,
        &[
            ("room_id", "room-a"),
            ("type", "join"),
            ("session_id", "sess-1"),
        ],
        1,
    )
    .await;
    assert_eq!(room_a_joins, [listed[0].clone(), listed[3].clone()]);

    // Nothing but errors goes to stderr: with the token from the environment, nothing at all.
    #[cfg(unix)]
    {
        let status = Command::new("kill")
            .args(["-TERM", &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = server.child.wait().unwrap();
        assert!(exit.success(), "SIGTERM shuts serve down cleanly: {exit:?}");
        assert_eq!(server.stderr_line(), "");
    }
}

#[test]
fn list_live_over_serve_demo_prints_what_list_demo_prints_loading_the_types_side_by_side() {
    // serve as the hosted API answers: room_id required, error=true understood.
    let server = serve(&["--demo", "--addr", "127.0.0.1:0"], Some(TOKEN));
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("list.log");
    let live = Command::new(BIN)
        .args([
            "list",
            "--live",
            "--base-url",
            &server.url,
            "--room",
            STORM_ROOM,
        ])
        .args(["--format", "ndjson", "--log-file"])
        .arg(&log)
        .env("HMS_MANAGEMENT_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert!(
        live.status.success(),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    // With no type named, the error events of the room: the five types.
    let demo = Command::new(BIN)
        .args(["list", "--demo", "--room", STORM_ROOM, "--format", "ndjson"])
        .args(["--type", "publish,subscribe,join,disconnected,connect"])
        .output()
        .unwrap();
    assert!(demo.status.success());
    assert!(
        demo.stdout.len() > 100_000,
        "the storm room holds many events"
    );
    // The demo is in time order, as the service orders events: merging the cursors by time gives
    // the events, their bytes and their order exactly.
    assert!(
        live.stdout == demo.stdout,
        "list --live printed {} lines, list --demo {}",
        live.stdout.split(|&b| b == b'\n').count(),
        demo.stdout.split(|&b| b == b'\n').count()
    );
    let log = std::fs::read_to_string(&log).unwrap();
    for kind in [
        "client.publish.failed",
        "client.subscribe.failed",
        "client.join.failed",
        "client.disconnected",
        "client.connect.failed",
    ] {
        assert!(
            log.contains(&format!(
                "url={EVENTS}?type={kind}&room_id={STORM_ROOM}&limit=100"
            )),
            "a cursor of its own for {kind}:\n{log}"
        );
    }
    assert!(
        log.contains(&format!(
            "url={EVENTS}?error=true&room_id={STORM_ROOM}&limit=100"
        )),
        "the query's own cursor asks for the error events:\n{log}"
    );
}

/// The demo's join storm room.
const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";

/// The token of the API that `serve --live` reads in these tests (serve's own is `TOKEN`).
const UPSTREAM_TOKEN: &str = "upstream-token-3e8a";

/// `callscope serve --live ARGS` over the API `upstream` serves (whose token is
/// `UPSTREAM_TOKEN`), with the API's token in the environment and serve's own token `TOKEN`.
fn serve_live(upstream: &Server, args: &[&str]) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--live", "--base-url", &upstream.url])
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .env("HMS_MANAGEMENT_TOKEN", UPSTREAM_TOKEN)
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::piped());
    Server::spawn(cmd)
}

#[tokio::test]
async fn serve_live_serves_what_the_api_holds_and_filters_narrow_it() {
    let upstream = serve(&["--demo", "--addr", "127.0.0.1:0"], Some(UPSTREAM_TOKEN));
    let client = reqwest::Client::new();

    // A room's error events (the room given by name, looked up in the rooms endpoint).
    let whole = serve_live(&upstream, &["--room", "weekly-allhands"]);
    let (served, total) = page_through(&client, &whole, &[("room_id", STORM_ROOM)], 100).await;
    let expected = list_ndjson([
        "--demo",
        "--room",
        STORM_ROOM,
        "--type",
        "publish,subscribe,join,disconnected,connect",
    ]);
    assert_eq!(total, expected.len());
    assert_eq!(served, expected, "every event, in order, byte for byte");

    // The type goes to the API; --terminal and --search are applied to what arrives. Only the
    // matches are served, and queried further as any others.
    let flags = [
        "--room",
        STORM_ROOM,
        "--type",
        "join",
        "--terminal",
        "--search",
        "sfu",
    ];
    let narrowed = serve_live(&upstream, &flags);
    let mut list_args = vec!["--demo"];
    list_args.extend(flags);
    let expected = list_ndjson(&list_args);
    assert!(expected.len() > 10, "the filters keep some events");
    assert!(expected.len() < demo().len() / 10, "and leave most out");
    let (served, total) = page_through(&client, &narrowed, &[("room_id", STORM_ROOM)], 7).await;
    assert_eq!(total, expected.len());
    assert_eq!(served, expected);
    let (_, some) = demo()
        .iter()
        .find(|(line, _)| *line == expected[0])
        .unwrap();
    let room = some["data"]["room_id"].as_str().unwrap();
    let (in_room, _) = page_through(
        &client,
        &narrowed,
        &[("room_id", room), ("type", "client.join.failed")],
        100,
    )
    .await;
    let expected_in_room: Vec<String> = expected
        .iter()
        .filter(|line| line.contains(room))
        .cloned()
        .collect();
    assert!(!in_room.is_empty());
    assert_eq!(in_room, expected_in_room);
}

#[tokio::test]
async fn serve_narrows_a_dump_or_the_demo_with_the_filters_too() {
    let client = reqwest::Client::new();
    let flags = ["--type", "disconnected", "--search", "0.11.4"];
    let mut args = vec!["--demo", "--lenient", "--addr", "127.0.0.1:0"];
    args.extend(flags);
    let server = serve(&args, Some(TOKEN));
    let mut list_args = vec!["--demo"];
    list_args.extend(flags);
    let expected = list_ndjson(&list_args);
    assert!(!expected.is_empty() && expected.len() < demo().len() / 4);
    let (served, total) = page_through(&client, &server, &[], 100).await;
    assert_eq!(total, expected.len());
    assert_eq!(served, expected);
}

/// The output of `cmd` run to its end. A serve that started serving instead of refusing would
/// never end: past a minute it is killed, and the test fails.
fn finished(mut cmd: Command) -> std::process::Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("still running after a minute: {cmd:?}");
        }
    }
}

#[test]
fn serve_live_serves_nothing_when_the_api_fails_or_no_token_is_known() {
    let upstream = serve_demo();
    let run = |token: Option<&str>, args: &[&str]| {
        let mut cmd = Command::new(BIN);
        cmd.args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
            .stdin(Stdio::null());
        for name in common::CLEARED {
            cmd.env_remove(name);
        }
        // The API's address as a shell profile would give it; a source other than --live
        // takes no notice of it.
        cmd.env("CALLSCOPE_BASE_URL", &upstream.url);
        if let Some(t) = token {
            cmd.env("HMS_MANAGEMENT_TOKEN", t);
        }
        let out = finished(cmd);
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };

    // A token the API refuses: a runtime failure, said with the API's status; nothing listens.
    let refused = "tok-refused-4c1d";
    let (code, stdout, stderr) = run(Some(refused), &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("not serving") && stderr.contains("401"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--live-token-file") && !stderr.contains(" --token-file"),
        "the hint names serve's flag for the API's token: {stderr}"
    );
    assert!(!stderr.contains(refused), "the token never shows: {stderr}");

    // The API's own token as the one serve hands to its clients: refused, and not shown.
    let (code, stdout, stderr) = run(Some(TOKEN), &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("a token of its own"), "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");

    // No token anywhere: a usage error that says where one is read from.
    let (code, stdout, stderr) = run(None, &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("no token") && stderr.contains("--live-token-file"),
        "{stderr}"
    );

    // No room: the hosted API would refuse every query, so serve refuses to start.
    let (code, stdout, stderr) = run(Some("tok-any"), &["--live"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("--room"), "{stderr}");

    // An option of the live API without --live, or a filter that cannot be read, without a
    // server started.
    for args in [
        &["--demo", "--live-token-file", "token"][..],
        &["--demo", "--insecure"][..],
        &["--demo", "--base-url", "http://127.0.0.1:9"][..],
        &["--demo", "--page-size", "10"][..],
        &["--live", "--demo"][..],
        &["--demo", "--since", "yesterday"][..],
    ] {
        let (code, stdout, stderr) = run(Some(TOKEN), args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(&args[1][2..]), "{args:?}: {stderr}");
        if args[1] != "--base-url" {
            assert!(!stderr.contains("--base-url"), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn serve_delay_ms_holds_each_answer_back() {
    let server = serve(
        &["--demo", "--addr", "127.0.0.1:0", "--delay-ms", "300"],
        Some(TOKEN),
    );
    let started = std::time::Instant::now();
    let out = Command::new(BIN)
        .args([
            "list",
            "--live",
            "--base-url",
            &server.url,
            "--room",
            STORM_ROOM,
        ])
        .args(["--type", "publish", "--max", "1", "--format", "ndjson"])
        .env("HMS_MANAGEMENT_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn the_token_comes_from_the_file_then_the_environment_then_is_made_up() {
    let client = reqwest::Client::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, "  file-token  \nsecond line\n").unwrap();
    let server = serve(
        &[
            "--demo",
            "--addr",
            "127.0.0.1:0",
            "--token-file",
            file.to_str().unwrap(),
        ],
        Some(TOKEN),
    );
    let url = server.at(EVENTS);
    let room = [("room_id", STORM_ROOM)];
    assert_eq!(
        get(&client, &url, &room, Some("Bearer file-token"))
            .await
            .status,
        200
    );
    assert_eq!(get(&client, &url, &room, Some(&bearer())).await.status, 401);

    let mut server = serve(&["--demo", "--addr", "127.0.0.1:0"], None);
    let line = server.stderr_line();
    let token = line
        .strip_prefix("token: ")
        .and_then(|t| t.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{line:?}"));
    assert!(
        token.len() >= 32
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-'),
        "{token}"
    );
    let url = server.at(EVENTS);
    assert_eq!(
        get(&client, &url, &room, Some(&format!("Bearer {token}")))
            .await
            .status,
        200
    );
    assert_eq!(get(&client, &url, &room, Some(&bearer())).await.status, 401);
}

#[test]
fn usage_errors_exit_2_and_a_taken_port_exits_1() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .arg("serve")
            .args(args)
            .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for (args, says) in [
        (&["--demo", "--addr", "not-an-address"][..], "--addr"),
        (&["--demo", "--addr", "127.0.0.1"][..], "HOST:PORT"),
        (&["--demo", "--addr", "127.0.0.1:70000"][..], "--addr"),
        (
            &[
                "tests/fixtures/serve/no-such-dump.json",
                "--addr",
                "127.0.0.1:0",
            ][..],
            "no-such-dump.json",
        ),
        (
            &[
                "--demo",
                "--addr",
                "127.0.0.1:0",
                "--token-file",
                "tests/fixtures/serve/no-such-token",
            ][..],
            "no-such-token",
        ),
        (&["--addr", "127.0.0.1:0"][..], "--demo"),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
    }

    let taken = serve_demo();
    let (code, stdout, stderr) = run(&["--demo", "--addr", &format!("127.0.0.1:{}", taken.port)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("already in use"), "{stderr}");
    assert_eq!(stdout, "");
    assert!(!stderr.contains(TOKEN));
}

/// `nohup callscope serve` must outlive the session it was started from: SIGHUP, ignored by
/// nohup, is not taken as a request to stop.
#[cfg(unix)]
#[tokio::test]
async fn serve_under_nohup_outlives_a_hangup_and_stops_on_sigterm() {
    let mut cmd = Command::new("nohup");
    cmd.args([BIN, "serve", "--demo", "--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::null());
    let mut server = Server::spawn(cmd);
    let pid = server.child.id().to_string();
    let signal = |name: &str| {
        let sent = Command::new("kill").args([name, &pid]).status().unwrap();
        assert!(sent.success(), "kill {name}");
    };
    signal("-HUP");
    let client = reqwest::Client::new();
    // Still answering after the hangup (a request queued behind its handling, if any).
    assert_eq!(
        events(&client, &server, &[("limit", "1"), ("room_id", STORM_ROOM)])
            .await
            .status,
        200
    );
    assert!(server.child.try_wait().unwrap().is_none(), "still running");
    signal("-TERM");
    let exit = server.child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
}

#[test]
fn list_live_max_counts_events_that_match_not_events_fetched() {
    let server = serve_demo();
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, TOKEN).unwrap();
    let token = token.to_str().unwrap();
    // Filters the API does not apply (a search, final errors only), with pages smaller than
    // the maximum: several pages are needed to find N matches.
    for filters in [
        &["--search", "Galaxy A14"][..],
        &["--terminal"][..],
        &["--type", "join", "--search", "sfu"][..],
    ] {
        // The room that holds the most matches.
        let mut all = vec!["--demo"];
        all.extend_from_slice(filters);
        let mut rooms: Vec<String> = list_ndjson(&all)
            .iter()
            .filter_map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["data"]["room_id"].as_str().map(str::to_string)
            })
            .collect();
        rooms.sort();
        let room = rooms
            .chunk_by(|a, b| a == b)
            .max_by_key(|run| run.len())
            .map(|run| run[0].clone())
            .unwrap();
        for max in ["3", "20"] {
            let mut live = vec!["--live", "--base-url", &server.url, "--token-file", token];
            live.extend_from_slice(&["--page-size", "10", "--max", max, "--room", &room]);
            live.extend_from_slice(filters);
            let mut demo = vec!["--demo", "--max", max, "--room", &room];
            demo.extend_from_slice(filters);
            let expected = list_ndjson(&demo);
            assert_eq!(
                expected.len(),
                max.parse::<usize>().unwrap(),
                "{filters:?}: the demo holds enough matches"
            );
            assert_eq!(list_ndjson(&live), expected, "{filters:?} --max {max}");
        }
    }
}
