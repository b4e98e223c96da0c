//! The live fetch task and `list --live` against small HTTP servers on 127.0.0.1: one serves
//! scripted pages and injects faults (429, 500, dropped connections, truncated bodies, a hanging
//! request, overlapping pages and a repeated cursor); the other pages a list of events by type as
//! the service does, each answer taking a while, for "load everything" with one cursor per type.
//! Time runs on tokio's paused clock: backoff and answer delays take no real time, and the
//! instants the servers log are exact.
//!
//! The scripted server and the helpers the tests share are here, the catalog server in `catalog`;
//! each other module holds the tests of one theme.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use callscope::event::{EventType, Field};
use callscope::filter::Filter;
use callscope::source::api::Api;
use callscope::source::live;
use callscope::source::token::{Token, TokenSource};
use callscope::source::worker::{self, Command, Fanout, Report, Retry};
use callscope::store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

mod catalog;
use catalog::{Catalog, Fault, Said, Setup};

mod flow;
mod load_everything;
mod paging_faults;
mod requests;

const TOKEN: &str = "test-token-7f3a9c";

/// What the server does with one request.
#[derive(Clone, Debug)]
enum Reply {
    /// 200 with a page: events `ids`, `next`, `total`.
    Page {
        ids: Vec<u32>,
        next: &'static str,
        total: u64,
    },
    Status {
        status: u16,
        body: &'static str,
        retry_after: Option<u64>,
    },
    /// Close the connection without answering.
    Drop,
    /// Announce a longer body than is sent, then close.
    Truncated,
    /// Never answer.
    Hang,
    /// 200 with a body that is not JSON.
    NotJson,
    /// 200 with a page of `per_page` events numbered on from the last, a `next` cursor never
    /// sent before, and `total`: a server that pages on for ever.
    Endless { per_page: u32, total: u64 },
    /// 200 announcing a body of `len` bytes, then sent a byte a second.
    Drip { len: usize },
    /// 200 with a body of `len` bytes sent as fast as it is read, its length announced or not.
    Huge { len: usize, announced: bool },
}

fn event(id: u32) -> String {
    format!(
        r#"{{"version":"2.0","id":"00000000-0000-4000-8000-{id:012}","timestamp":"2026-11-18T10:00:{:02}.123456789Z","type":"client.join.failed","data":{{"room_id":"r1","peer_id":"p{id}","error_code":500,"error_name":"ServerErrors","is_terminal":false,"retries_join":{id}}}}}"#,
        id % 60
    )
}

fn page_body(ids: &[u32], next: &str, total: u64) -> String {
    let events: Vec<String> = ids.iter().map(|&i| event(i)).collect();
    format!(
        r#"{{"limit":{},"total":{total},"next":"{next}","events":[{}]}}"#,
        ids.len(),
        events.join(",")
    )
}

/// A scripted server: request k gets `script[k]` (the last reply repeats). Every request's path
/// and query, and its Authorization header, are recorded.
struct FaultServer {
    url: String,
    requests: Arc<Mutex<Vec<(String, String)>>>,
    /// Bytes of body written by the `Huge` replies.
    written: Arc<std::sync::atomic::AtomicUsize>,
}

impl FaultServer {
    async fn start(script: Vec<Reply>) -> FaultServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let script = Arc::new(script);
        let written = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = Arc::clone(&written);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let log = Arc::clone(&log);
                let script = Arc::clone(&script);
                let counted = Arc::clone(&counted);
                tokio::spawn(async move { serve_connection(stream, log, script, counted).await });
            }
        });
        FaultServer {
            url,
            requests,
            written,
        }
    }

    fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    fn queries(&self) -> Vec<String> {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .map(|(q, _)| q.clone())
            .collect()
    }
}

/// Reads one request's head: its text and its target (path and query); `None` when the
/// connection ends first.
async fn read_request_head(stream: &mut TcpStream) -> Option<(String, String)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte).await {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let text = String::from_utf8_lossy(&head).to_string();
    let target = text.split_whitespace().nth(1).unwrap_or("").to_string();
    Some((text, target))
}

async fn serve_connection(
    mut stream: TcpStream,
    log: Arc<Mutex<Vec<(String, String)>>>,
    script: Arc<Vec<Reply>>,
    written: Arc<std::sync::atomic::AtomicUsize>,
) {
    loop {
        let Some((text, target)) = read_request_head(&mut stream).await else {
            return;
        };
        let auth = text
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("authorization:"))
            .map(|l| l["authorization:".len()..].trim().to_string())
            .unwrap_or_default();
        let k = {
            let mut log = log.lock().unwrap();
            log.push((target, auth));
            log.len() - 1
        };
        let reply = script[k.min(script.len() - 1)].clone();
        let (status, body, extra) = match reply {
            Reply::Page { ids, next, total } => (200, page_body(&ids, next, total), String::new()),
            Reply::Status {
                status,
                body,
                retry_after,
            } => (
                status,
                body.to_string(),
                retry_after
                    .map(|s| format!("Retry-After: {s}\r\n"))
                    .unwrap_or_default(),
            ),
            Reply::NotJson => (200, "<html>gateway</html>".to_string(), String::new()),
            Reply::Drop => return,
            Reply::Truncated => {
                let body = page_body(&[1, 2, 3], "", 3);
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes()).await;
                let _ = stream.write_all(&body.as_bytes()[..body.len() / 2]).await;
                return;
            }
            Reply::Hang => {
                std::future::pending::<()>().await;
                return;
            }
            Reply::Endless { per_page, total } => {
                let first = k as u32 * per_page + 1;
                let ids: Vec<u32> = (first..first + per_page).collect();
                let next = format!("fresh-{k}");
                (200, page_body(&ids, &next, total), String::new())
            }
            Reply::Drip { len } => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
                );
                let _ = stream.write_all(head.as_bytes()).await;
                for _ in 0..len {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    if stream.write_all(b" ").await.is_err() {
                        return;
                    }
                }
                return;
            }
            Reply::Huge { len, announced } => {
                let length = if announced {
                    format!("Content-Length: {len}\r\n")
                } else {
                    "Connection: close\r\n".to_string()
                };
                let head =
                    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{length}\r\n");
                let _ = stream.write_all(head.as_bytes()).await;
                let chunk = vec![b' '; 64 * 1024];
                let mut sent = 0;
                while sent < len {
                    if stream.write_all(&chunk).await.is_err() {
                        return;
                    }
                    sent += chunk.len();
                    written.fetch_add(chunk.len(), std::sync::atomic::Ordering::Relaxed);
                }
                return;
            }
        };
        let response = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
            body.len()
        );
        if stream.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}

fn tokens() -> TokenSource {
    TokenSource::Fixed {
        token: Token::new(TOKEN.into()),
        origin: "test",
    }
}

/// Runs one query with "load everything" until it finishes or fails; returns the store of what
/// arrived and every report.
async fn load_all(server: &FaultServer, filter: Filter) -> (Store, Vec<String>, Option<String>) {
    load_all_in_pages_of(server, filter, 3).await
}

/// [`load_all`], asking for pages of `page_size` events.
async fn load_all_in_pages_of(
    server: &FaultServer,
    filter: Filter,
    page_size: u32,
) -> (Store, Vec<String>, Option<String>) {
    let api = Api::new(&server.url, page_size).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands.send(Command::Query { id: 1, filter }).unwrap();
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut store = Store::new();
    let mut log = Vec::new();
    loop {
        match reports
            .recv()
            .await
            .expect("the worker reports until the query ends")
        {
            Report::Page { page, .. } => {
                log.push(format!("page next={:?}", page.next));
                store.merge(*page.batch);
            }
            Report::Retrying { retry, .. } => log.push(format!(
                "retry attempt {} in {:?}: {}",
                retry.attempt, retry.wait, retry.reason
            )),
            Report::Fetching { page, .. } => log.push(format!("fetching {page}")),
            Report::InFlight { .. } => {}
            Report::Finished { .. } => return (store, log, None),
            Report::Failed { message, .. } => return (store, log, Some(message)),
        }
    }
}

/// The scripted pages hold join failures: asking for that type keeps "load everything" on one
/// cursor, whose requests the script answers in order.
/// Every event of the catalog's room: the hosted API takes no query without a room.
fn in_room() -> Filter {
    Filter::default().with(Field::Room, catalog::ROOM)
}

fn join_only() -> Filter {
    Filter {
        types: vec![EventType::Join],
        ..in_room()
    }
}

fn ids_of(store: &Store) -> Vec<String> {
    (0..store.len())
        .map(|i| store.event(i).id().unwrap().to_string())
        .collect()
}

const KNOWN: [&str; 5] = [
    "client.publish.failed",
    "client.subscribe.failed",
    "client.join.failed",
    "client.disconnected",
    "client.connect.failed",
];

const JOIN: &str = "client.join.failed";

/// How long the catalog takes to answer each request.
const DELAY: Duration = Duration::from_millis(100);

/// Events a page in these tests.
const PAGE: u32 = 3;

/// `n` events whose types take turns in a shifting order: every five events hold each known type
/// once, so sixty events are twelve of each, four pages of a typed cursor against twenty of the
/// untyped one.
fn mixed(n: usize) -> Vec<&'static str> {
    (0..n).map(|k| KNOWN[(k * 7 + k / 5) % 5]).collect()
}

fn setup(types: Vec<&'static str>) -> Setup {
    Setup {
        types,
        time: |k| k,
        delay: DELAY,
        faults: Vec::new(),
        expire_first_token: None,
    }
}

/// The number at the end of an event's id (its place in the catalog).
fn numbers(store: &Store) -> Vec<u32> {
    ids_of(store)
        .iter()
        .map(|id| id[24..].parse().unwrap())
        .collect()
}

#[derive(Debug)]
struct Outcome {
    numbers: Vec<u32>,
    duplicates: usize,
    failure: Option<String>,
    retries: Vec<Retry>,
    elapsed: Duration,
}

/// Takes the reports of query `query` into `store` until it finishes or fails.
async fn drive(
    reports: &mut mpsc::UnboundedReceiver<Report>,
    store: &mut Store,
    query: u64,
) -> (Option<String>, Vec<Retry>) {
    let mut retries = Vec::new();
    loop {
        match reports
            .recv()
            .await
            .expect("the worker reports until the query ends")
        {
            Report::Page { query: q, page } if q == query => {
                store.merge(*page.batch);
            }
            Report::Retrying { query: q, retry } if q == query => retries.push(retry),
            Report::Finished { query: q } if q == query => return (None, retries),
            Report::Failed { query: q, message } if q == query => return (Some(message), retries),
            _ => {}
        }
    }
}

/// Loads everything of one query, timing it on the paused clock.
async fn load(server: &Catalog, filter: Filter, fanout: Fanout, tokens: TokenSource) -> Outcome {
    let api = Api::new(&server.url, PAGE).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn_with(api, tokens, reports_tx, fanout);
    let started = Instant::now();
    commands.send(Command::Query { id: 1, filter }).unwrap();
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut store = Store::new();
    let (failure, retries) = drive(&mut reports, &mut store, 1).await;
    Outcome {
        numbers: numbers(&store),
        duplicates: store.duplicates(),
        failure,
        retries,
        elapsed: started.elapsed(),
    }
}

/// Starts a worker on `server` and asks it to load every event of a query without a type.
fn load_everything_without_a_type(
    server: &Catalog,
) -> (
    mpsc::UnboundedSender<Command>,
    mpsc::UnboundedReceiver<Report>,
) {
    let api = Api::new(&server.url, PAGE).unwrap();
    let (reports_tx, reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands
        .send(Command::Query {
            id: 1,
            filter: in_room(),
        })
        .unwrap();
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    (commands, reports)
}

/// Resolves once the five typed cursors have a request outstanding at the same time; fails if
/// that does not happen in ten minutes of the paused clock (which passes at once when nothing
/// else is going on).
async fn five_typed_at_once(server: &Catalog) {
    tokio::time::timeout(Duration::from_secs(600), server.typed_at_once(5))
        .await
        .expect("the five typed cursors had a request outstanding at the same time")
}

fn assert_one_request_at_a_time(server: &Catalog) {
    for (key, most) in server.most_at_once() {
        assert_eq!(most, 1, "{key} had {most} requests outstanding at once");
    }
}
