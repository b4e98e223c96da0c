//! `callscope serve` driven over HTTP as a client of the service would drive it: the binary is
//! started on a free port, its first stdout line gives the URL, and every answer is checked
//! against `callscope list` over the same source.
//!
//! The client and the helpers the tests share are here; each module below holds the tests of one
//! theme.

use std::process::{Command, Stdio};
use std::sync::OnceLock;

use futures::StreamExt;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

#[path = "../common/mod.rs"]
mod common;
use common::{Server, list_ndjson};

mod contents;
mod live;
mod paging;
mod process;
mod refusals;

const TOKEN: &str = "test-token-5f2c";
const EVENTS: &str = "/v2/analytics/events";

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

/// The demo's join storm room.
const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";
