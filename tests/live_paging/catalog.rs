//! A small events API on 127.0.0.1 over a fixed list of events in time order, as the hosted
//! service pages them: `room_id` required (a 400 in its error shape otherwise), by `type` or
//! `error=true`, `limit` and `start`, with a `total`. Each answer waits a fixed delay on tokio's
//! clock, so that requests overlap as they would against a distant server; chosen requests fail,
//! a rate limit saying its wait in any of the three ways servers say it; chosen `start` cursors
//! are refused as expired ones are, and past a number of requests every one is refused, so that
//! a client that would ask on and on is stopped and seen to be. Every request is logged
//! with when it arrived and when it was answered, and how many requests of each cursor were
//! outstanding at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;

/// The cursor a request belongs to: its type, `untyped` for the query's own cursor, `census` for
/// an untyped request of one event (the worker's check of the query's total).
pub fn key_of(params: &[(String, String)]) -> String {
    let value = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let types: Vec<&str> = params
        .iter()
        .filter(|(k, _)| k == "type")
        .map(|(_, v)| v.as_str())
        .collect();
    match (types.is_empty(), value("limit")) {
        (false, _) => types.join(","),
        (true, Some("1")) => "census".into(),
        (true, _) => "untyped".into(),
    }
}

/// A request that fails: the `nth` (0-based) request of cursor `key` gets `status`.
#[derive(Clone, Debug)]
pub struct Fault {
    pub key: &'static str,
    pub nth: usize,
    pub status: u16,
    /// The wait asked for, in seconds, and how it is said.
    pub retry_after: Option<(u64, Said)>,
}

/// How a refusal says how long to wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// `Retry-After: 7`.
    Seconds,
    /// `Retry-After: <HTTP date>`, computed from the wall clock.
    Date,
    /// In the message: "rate limit exceeded, retry after 45 seconds", no header.
    Words,
}

/// Whether `error=true` returns events of this type: the client error types, the five known
/// ones and any the service adds.
pub fn is_error_type(kind: &str) -> bool {
    kind.starts_with("client.")
}

/// The room every event is in: an id as the service writes one (a `--room` value of another form
/// is a name, looked up first).
pub const ROOM: &str = "6571c0de2f3a9b0c1d2e3f40";

/// What the catalog answers a refused `start` cursor: a 400 in the hosted error shape.
pub const REFUSED_CURSOR: &str =
    r#"{"code":400,"message":"Bad Request","details":["invalid or expired start cursor"]}"#;

/// The status of every request past [`Setup::most_requests`].
pub const TOO_MANY: u16 = 401;

#[derive(Clone, Debug)]
pub struct Request {
    pub key: String,
    pub start: Option<String>,
    pub auth: String,
    /// Whether the request asked for a gzip'd answer.
    pub gzip: bool,
    pub arrived: Instant,
    pub answered: Option<Instant>,
    pub status: u16,
}

#[derive(Default)]
pub struct Log {
    pub requests: Vec<Request>,
    outstanding: HashMap<String, usize>,
    /// The most requests of one cursor outstanding at once, by cursor.
    pub most_at_once: HashMap<String, usize>,
    first_token: Option<String>,
}

pub struct Catalog {
    pub url: String,
    pub log: Arc<Mutex<Log>>,
    /// How many typed cursors have a request outstanding right now.
    typed_busy: watch::Receiver<usize>,
}

pub struct Setup {
    /// The events in the service's order: event `k` (1-based) has this type.
    pub types: Vec<&'static str>,
    /// The second (after the first event's minute) at which event `k` happened; the service
    /// orders by time when this grows with `k`.
    pub time: fn(u32) -> u32,
    pub delay: Duration,
    pub faults: Vec<Fault>,
    /// From the second request on, the first bearer token ever sent is refused with this status
    /// (401, or 403 as a sibling endpoint answers an invalid token), as an expired token would be.
    pub expire_first_token: Option<u16>,
    /// Whether the `n`th (0-based) request of a cursor (named by its key: its types,
    /// "untyped" or "census") that carries a `start` cursor is refused with [`REFUSED_CURSOR`].
    /// Counted a cursor at a time, so that the one refused does not hang on which cursor's
    /// request came first.
    pub refuse_start: fn(&str, usize) -> bool,
    /// Requests past this many are refused with [`TOO_MANY`], which no client asks again
    /// after: a client that keeps asking ends, and the count tells.
    pub most_requests: Option<usize>,
}

impl Catalog {
    pub async fn start(setup: Setup) -> Catalog {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let log = Arc::new(Mutex::new(Log::default()));
        let (typed_tx, typed_busy) = watch::channel(0);
        let shared = Arc::new(Shared {
            setup,
            log: Arc::clone(&log),
            typed_busy: typed_tx,
        });
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let shared = Arc::clone(&shared);
                tokio::spawn(async move { serve_connection(stream, shared).await });
            }
        });
        Catalog {
            url,
            log,
            typed_busy,
        }
    }

    /// Resolves once `n` typed cursors have a request outstanding at the same time.
    pub async fn typed_at_once(&self, n: usize) {
        let mut rx = self.typed_busy.clone();
        rx.wait_for(|&busy| busy >= n)
            .await
            .expect("the server keeps its state while the test runs");
    }

    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().requests.clone()
    }

    pub fn requests_of(&self, key: &str) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| r.key == key)
            .collect()
    }

    pub fn most_at_once(&self) -> HashMap<String, usize> {
        self.log.lock().unwrap().most_at_once.clone()
    }
}

struct Shared {
    setup: Setup,
    log: Arc<Mutex<Log>>,
    typed_busy: watch::Sender<usize>,
}

impl Shared {
    fn typed_outstanding(log: &Log) -> usize {
        log.outstanding
            .iter()
            .filter(|(k, n)| **n > 0 && k.contains('.'))
            .count()
    }

    fn body(&self, key: &str, params: &[(String, String)]) -> String {
        let value = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let errors_only = value("error").as_deref() == Some("true");
        let in_room = value("room_id").as_deref() == Some(ROOM);
        let matching: Vec<u32> = (1..=self.setup.types.len() as u32)
            .filter(|_| in_room)
            .filter(|&k| {
                let kind = self.setup.types[k as usize - 1];
                match key {
                    "untyped" | "census" => !errors_only || is_error_type(kind),
                    types => types.split(',').any(|t| t == kind),
                }
            })
            .collect();
        let limit: usize = value("limit").and_then(|l| l.parse().ok()).unwrap_or(10);
        let offset: usize = value("start")
            .and_then(|s| s.strip_prefix("o:").and_then(|n| n.parse().ok()))
            .unwrap_or(0);
        let end = (offset + limit).min(matching.len());
        let next = if end < matching.len() {
            format!("o:{end}")
        } else {
            String::new()
        };
        let events: Vec<String> = matching[offset.min(end)..end]
            .iter()
            .map(|&k| event(k, (self.setup.time)(k), self.setup.types[k as usize - 1]))
            .collect();
        format!(
            r#"{{"limit":{},"total":{},"next":"{next}","events":[{}]}}"#,
            events.len(),
            matching.len(),
            events.join(",")
        )
    }
}

/// Event `k`, at `second`: its id ends in `k`.
pub fn event(k: u32, second: u32, kind: &str) -> String {
    format!(
        r#"{{"version":"2.0","id":"00000000-0000-4000-8000-{k:012}","timestamp":"2026-11-18T10:{:02}:{:02}.000000001Z","type":"{kind}","data":{{"room_id":"{ROOM}","peer_id":"p{k}","error_code":500,"is_terminal":false}}}}"#,
        second / 60,
        second % 60
    )
}

async fn serve_connection(mut stream: TcpStream, shared: Arc<Shared>) {
    loop {
        let Some((text, target)) = super::read_request_head(&mut stream).await else {
            return;
        };
        let query = target.split_once('?').map_or("", |(_, q)| q);
        let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        let auth = text
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("authorization:"))
            .map(|l| l["authorization:".len()..].trim().to_string())
            .unwrap_or_default();
        let key = key_of(&params);
        let start = params
            .iter()
            .find(|(k, _)| k == "start")
            .map(|(_, v)| v.clone());
        let (index, nth, refused, cursor_refused, too_many) = {
            let mut log = shared.log.lock().unwrap();
            let nth = log.requests.iter().filter(|r| r.key == key).count();
            let starts = log
                .requests
                .iter()
                .filter(|r| r.key == key && r.start.is_some())
                .count();
            let cursor_refused = start.is_some() && (shared.setup.refuse_start)(&key, starts);
            let too_many = shared
                .setup
                .most_requests
                .is_some_and(|most| log.requests.len() >= most);
            let first = log.first_token.get_or_insert_with(|| auth.clone()).clone();
            let refused = shared
                .setup
                .expire_first_token
                .filter(|_| !log.requests.is_empty() && auth == first);
            log.requests.push(Request {
                key: key.clone(),
                start,
                auth: auth.clone(),
                gzip: text.lines().any(|l| {
                    let l = l.to_ascii_lowercase();
                    l.starts_with("accept-encoding:") && l.contains("gzip")
                }),
                arrived: Instant::now(),
                answered: None,
                status: 0,
            });
            let busy = log.outstanding.entry(key.clone()).or_default();
            *busy += 1;
            let busy = *busy;
            let most = log.most_at_once.entry(key.clone()).or_default();
            *most = (*most).max(busy);
            shared
                .typed_busy
                .send_replace(Shared::typed_outstanding(&log));
            (
                log.requests.len() - 1,
                nth,
                refused,
                cursor_refused,
                too_many,
            )
        };
        tokio::time::sleep(shared.setup.delay).await;
        let fault = shared
            .setup
            .faults
            .iter()
            .find(|f| f.key == key && f.nth == nth);
        let has_room = params.iter().any(|(k, v)| k == "room_id" && !v.is_empty());
        let (status, body, extra) = if too_many {
            (
                TOO_MANY,
                format!(
                    r#"{{"code":{TOO_MANY},"message":"more requests than the test allows","details":[]}}"#
                ),
                String::new(),
            )
        } else if !has_room {
            (
                400,
                r#"{"code":400,"message":"Bad Request","details":["room_id is required"]}"#
                    .to_string(),
                String::new(),
            )
        } else if let Some(status) = refused {
            (
                status,
                format!(
                    r#"{{"code":{status},"message":"Token validation error","details":["token expired"]}}"#
                ),
                String::new(),
            )
        } else if cursor_refused {
            (400, REFUSED_CURSOR.to_string(), String::new())
        } else if let Some(f) = fault {
            let message = match f.retry_after {
                Some((secs, Said::Words)) => {
                    format!("rate limit exceeded, retry after {secs} seconds")
                }
                _ => format!("fault {}", f.status),
            };
            let header = match f.retry_after {
                Some((secs, Said::Seconds)) => format!("Retry-After: {secs}\r\n"),
                Some((secs, Said::Date)) => {
                    // An HTTP date has whole seconds: the wait is rounded up to the next one,
                    // against the wall clock, which a paused tokio clock does not move.
                    let when = chrono::Utc::now() + chrono::Duration::seconds(secs as i64 + 1);
                    format!(
                        "Retry-After: {}\r\n",
                        when.format("%a, %d %b %Y %H:%M:%S GMT")
                    )
                }
                _ => String::new(),
            };
            (
                f.status,
                format!(
                    r#"{{"code":{},"message":"{message}","details":[]}}"#,
                    f.status
                ),
                header,
            )
        } else {
            (200, shared.body(&key, &params), String::new())
        };
        {
            let mut log = shared.log.lock().unwrap();
            log.requests[index].answered = Some(Instant::now());
            log.requests[index].status = status;
            *log.outstanding.get_mut(&key).unwrap() -= 1;
            shared
                .typed_busy
                .send_replace(Shared::typed_outstanding(&log));
        }
        let response = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
            body.len()
        );
        if stream.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}
