//! The live fetch task and `list --live` against small HTTP servers on 127.0.0.1: one serves
//! scripted pages and injects faults (429, 500, dropped connections, truncated bodies, a hanging
//! request, overlapping pages and a repeated cursor); the other pages a list of events by type as
//! the service does, each answer taking a while, for "load everything" with one cursor per type.
//! Time runs on tokio's paused clock: backoff and answer delays take no real time, and the
//! instants the servers log are exact.

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

#[path = "live_paging/catalog.rs"]
mod catalog;
use catalog::{Catalog, Fault, Said, Setup};

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

fn assert_each_once(store: &Store, expected: std::ops::RangeInclusive<u32>) {
    let ids = ids_of(store);
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "an event arrived twice: {ids:?}");
    let want: Vec<String> = expected
        .map(|i| format!("00000000-0000-4000-8000-{i:012}"))
        .collect();
    assert_eq!(ids, want);
}

#[tokio::test(start_paused = true)]
async fn every_event_arrives_once_through_429_500_drops_truncation_and_a_hang() {
    let server = FaultServer::start(vec![
        Reply::Status {
            status: 429,
            body: r#"{"message":"slow down"}"#,
            retry_after: Some(7),
        },
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "c:1~a=",
            total: 9,
        },
        Reply::Status {
            status: 500,
            body: "oops",
            retry_after: None,
        },
        Reply::Drop,
        Reply::Page {
            ids: vec![4, 5, 6],
            next: "c:2~b_",
            total: 9,
        },
        Reply::Truncated,
        Reply::Hang,
        Reply::Page {
            ids: vec![7, 8, 9],
            next: "",
            total: 9,
        },
    ])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    assert_eq!(failure, None, "{log:#?}");
    assert_each_once(&store, 1..=9);
    let retries: Vec<&String> = log.iter().filter(|l| l.starts_with("retry")).collect();
    assert_eq!(retries.len(), 5, "{log:#?}");
    assert!(
        retries[0].contains("in 7s") && retries[0].contains("HTTP 429"),
        "Retry-After honoured: {}",
        retries[0]
    );
    assert!(retries[1].contains("HTTP 500"), "{}", retries[1]);
    assert_eq!(server.count(), 8);
}

#[tokio::test(start_paused = true)]
async fn an_overlapping_page_is_deduplicated_and_a_changing_total_is_tolerated() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "n1",
            total: 5,
        },
        Reply::Page {
            ids: vec![3, 4, 5],
            next: "",
            total: 6,
        },
    ])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    assert_eq!(failure, None, "{log:#?}");
    assert_each_once(&store, 1..=5);
    assert_eq!(store.duplicates(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_repeated_cursor_stops_paging_instead_of_looping() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2],
            next: "same",
            total: 9,
        },
        Reply::Page {
            ids: vec![3, 4],
            next: "same",
            total: 9,
        },
    ])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("already used"), "{message}");
    assert_each_once(&store, 1..=4);
    assert_eq!(server.count(), 2, "no request after the repeated cursor");
}

#[tokio::test(start_paused = true)]
async fn fresh_cursors_over_empty_pages_stop_after_a_run_and_say_why() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "n1",
            total: 1_000_000,
        },
        Reply::Endless {
            per_page: 0,
            total: 1_000_000,
        },
    ])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("10 pages in a row"), "{message}");
    assert_each_once(&store, 1..=3);
    assert_eq!(server.count(), 11, "the first page, then ten empty ones");
}

#[tokio::test(start_paused = true)]
async fn one_event_a_page_under_a_huge_total_stops_after_a_run_and_keeps_the_events() {
    let server = FaultServer::start(vec![Reply::Endless {
        per_page: 1,
        total: 10_000_000_000,
    }])
    .await;
    let (store, _, failure) = load_all_in_pages_of(&server, join_only(), 100).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("of the 100 events asked for"), "{message}");
    assert_eq!(store.len(), 10);
    assert_eq!(server.count(), 10);
}

#[tokio::test(start_paused = true)]
async fn pages_past_the_total_stop_and_say_why() {
    let server = FaultServer::start(vec![Reply::Endless {
        per_page: 3,
        total: 5,
    }])
    .await;
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("its total says 5"), "{message}");
    // Overlaps and events arriving while paging may pass the total by a page; not by more.
    assert_each_once(&store, 1..=9);
    assert_eq!(server.count(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_body_dripped_a_byte_a_second_is_abandoned_at_the_request_deadline() {
    let server = FaultServer::start(vec![
        Reply::Drip { len: 10_000 },
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "",
            total: 3,
        },
    ])
    .await;
    let started = Instant::now();
    let api = Api::new(&server.url, 3).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands
        .send(Command::Query {
            id: 1,
            filter: join_only(),
        })
        .unwrap();
    let mut store = Store::new();
    let (failure, retries) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    assert_each_once(&store, 1..=3);
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(
        retries[0].reason.contains("timed out"),
        "{}",
        retries[0].reason
    );
    let elapsed = started.elapsed() - retries[0].wait;
    assert!(
        elapsed >= callscope::source::api::REQUEST_DEADLINE
            && elapsed < callscope::source::api::REQUEST_DEADLINE + Duration::from_secs(1),
        "abandoned after {elapsed:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_larger_than_any_page_is_cut_off_and_not_asked_for_again() {
    let limit = callscope::source::api::MAX_ANSWER_BYTES;
    for announced in [false, true] {
        let server = FaultServer::start(vec![Reply::Huge {
            len: limit * 4,
            announced,
        }])
        .await;
        let (store, _, failure) = load_all(&server, join_only()).await;
        let message = failure.expect("the query fails");
        assert!(message.contains("larger than 16 MiB"), "{message}");
        assert!(store.is_empty());
        assert_eq!(server.count(), 1, "not retried");
        let written = server.written.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            written < limit * 2,
            "{written} bytes were sent before the client stopped"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_401_is_not_retried_and_says_to_check_the_token_without_showing_it() {
    let server = FaultServer::start(vec![Reply::Status {
        status: 401,
        body: r#"{"message":"token expired: test-token-7f3a9c"}"#,
        retry_after: None,
    }])
    .await;
    let (store, log, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("a 401 fails the query");
    assert!(
        message.contains("HTTP 401") && message.contains("check the token"),
        "{message}"
    );
    assert!(
        message.contains("token expired"),
        "the server's message is shown: {message}"
    );
    assert!(
        !message.contains(TOKEN),
        "the token never appears: {message}"
    );
    assert!(log.iter().all(|l| !l.starts_with("retry")));
    assert_eq!(server.count(), 1);
    assert!(store.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_page_that_is_not_json_fails_after_retries_and_keeps_what_was_loaded() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "n1",
            total: 6,
        },
        Reply::NotJson,
    ])
    .await;
    let started = Instant::now();
    let (store, _, failure) = load_all(&server, join_only()).await;
    let message = failure.expect("the bad page fails the query");
    assert!(message.contains("not valid"), "{message}");
    assert_each_once(&store, 1..=3);
    // Retried for as long as failures without a stated wait are, not for a count of tries.
    assert!(
        started.elapsed() >= worker::RETRY_FOR,
        "{:?}",
        started.elapsed()
    );
    assert!(
        started.elapsed() < worker::RETRY_FOR + Duration::from_secs(31),
        "{:?}",
        started.elapsed()
    );
    assert!(server.count() > 6, "{} requests", server.count());
}

#[tokio::test(start_paused = true)]
async fn the_request_carries_every_filter_the_token_and_the_encoded_cursor() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1],
            next: "a:b~c=d_e-f/g",
            total: 2,
        },
        Reply::Page {
            ids: vec![2],
            next: "",
            total: 2,
        },
    ])
    .await;
    let filter = Filter {
        types: vec![EventType::Publish, EventType::Join],
        terminal: Some(true),
        ..Filter::default()
    }
    .with(Field::Room, "room 1")
    .with(Field::Session, "s1")
    .with(Field::Peer, "p1")
    .with(Field::User, "u&1");
    let (_, _, failure) = load_all(&server, filter).await;
    assert_eq!(failure, None);
    let queries = server.queries();
    assert_eq!(
        queries[0],
        "/v2/analytics/events?type=client.publish.failed&type=client.join.failed&room_id=room+1&session_id=s1&peer_id=p1&user_id=u%261&limit=3"
    );
    assert!(
        queries[1].ends_with("&limit=3&start=a%3Ab%7Ec%3Dd_e-f%2Fg"),
        "{}",
        queries[1]
    );
    let auth = server.requests.lock().unwrap()[0].1.clone();
    assert_eq!(auth, format!("Bearer {TOKEN}"));
}

#[tokio::test(start_paused = true)]
async fn pages_are_fetched_only_when_asked_and_one_at_a_time() {
    let server = FaultServer::start(vec![
        Reply::Page {
            ids: vec![1, 2, 3],
            next: "n1",
            total: 9,
        },
        Reply::Page {
            ids: vec![4, 5, 6],
            next: "n2",
            total: 9,
        },
        Reply::Page {
            ids: vec![7, 8, 9],
            next: "",
            total: 9,
        },
    ])
    .await;
    let api = Api::new(&server.url, 3).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands
        .send(Command::Query {
            id: 1,
            filter: Filter::default(),
        })
        .unwrap();
    let mut pages = 0;
    while pages < 1 {
        if let Report::Page { .. } = reports.recv().await.unwrap() {
            pages += 1;
        }
    }
    // Nothing more is requested until the explorer asks.
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(server.count(), 1);
    // Asking twice while a request is in flight still makes one request.
    commands.send(Command::NextPage { id: 1 }).unwrap();
    commands.send(Command::NextPage { id: 1 }).unwrap();
    while pages < 2 {
        if let Report::Page { .. } = reports.recv().await.unwrap() {
            pages += 1;
        }
    }
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(server.count(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_new_query_drops_the_request_of_the_old_one() {
    let server = FaultServer::start(vec![
        Reply::Hang,
        Reply::Page {
            ids: vec![1],
            next: "",
            total: 1,
        },
    ])
    .await;
    let api = Api::new(&server.url, 3).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands
        .send(Command::Query {
            id: 1,
            filter: Filter::default(),
        })
        .unwrap();
    // Wait until the first request is on the wire.
    while server.count() < 1 {
        tokio::task::yield_now().await;
    }
    commands
        .send(Command::Query {
            id: 2,
            filter: Filter::default(),
        })
        .unwrap();
    loop {
        match reports.recv().await.unwrap() {
            Report::Page { query, .. } => {
                assert_eq!(query, 2, "only the new query's page arrives");
                break;
            }
            Report::Retrying { query, .. } => assert_eq!(query, 2),
            _ => {}
        }
    }
}

// "Load everything", one cursor per type.

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

/// Each request of a cursor arrived the very instant the previous one was answered.
fn assert_back_to_back(server: &Catalog, key: &str) {
    let requests = server.requests_of(key);
    for pair in requests.windows(2) {
        assert_eq!(
            Some(pair[1].arrived),
            pair[0].answered,
            "{key}: an idle gap between an answer and the next request: {requests:#?}"
        );
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

#[tokio::test(start_paused = true)]
async fn load_everything_asks_for_the_next_page_the_instant_one_arrives() {
    let server = Catalog::start(setup(vec![JOIN; 12])).await;
    let out = load(&server, join_only(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=12).collect::<Vec<_>>());
    assert_eq!(
        server.requests().len(),
        4,
        "one cursor: the type was asked for"
    );
    assert_back_to_back(&server, JOIN);
    assert_eq!(
        out.elapsed,
        4 * DELAY,
        "four pages take four answers' time, nothing more"
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_type_one_cursor_per_type_runs_at_once_and_the_events_come_in_order() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (out, ()) = tokio::join!(
        load(&server, in_room(), Fanout::PerType, tokens()),
        five_typed_at_once(&server)
    );
    assert_eq!(out.failure, None);
    assert_eq!(
        out.numbers,
        (1..=60).collect::<Vec<_>>(),
        "every event once, in the order of one cursor over every type"
    );
    assert_eq!(out.duplicates, 0);
    assert_one_request_at_a_time(&server);
    for key in KNOWN {
        assert_eq!(server.requests_of(key).len(), 4, "{key}");
        assert_back_to_back(&server, key);
    }
    assert_back_to_back(&server, "untyped");
    let untyped = server.requests_of("untyped").len();
    assert!(
        untyped < 20,
        "the untyped cursor stops once the typed ones are shown to cover the query: {untyped} requests"
    );
    assert_eq!(server.requests_of("census").len(), 1);
    // The first page, then four pages of each type side by side.
    assert_eq!(out.elapsed, 5 * DELAY);
}

#[tokio::test(start_paused = true)]
async fn list_live_gets_the_same_events_in_the_same_order_with_one_cursor_or_one_per_type() {
    let server = Catalog::start(setup(mixed(60))).await;
    let api = Api::new(&server.url, PAGE).unwrap();
    let mut timed = Vec::new();
    for fanout in [Fanout::Single, Fanout::PerType] {
        let started = Instant::now();
        let store = live::fetch_all_with(&api, tokens(), &in_room(), None, fanout, |_| {}, |_| {})
            .await
            .unwrap_or_else(|(_, e)| panic!("{fanout:?}: {e}"));
        timed.push((numbers(&store), started.elapsed()));
    }
    let (single, parallel) = (&timed[0], &timed[1]);
    assert_eq!(single.0, (1..=60).collect::<Vec<_>>());
    assert_eq!(parallel.0, single.0);
    assert_eq!(single.1, 20 * DELAY, "twenty pages one after the other");
    assert_eq!(parallel.1, 5 * DELAY, "four times sooner");
}

#[tokio::test(start_paused = true)]
async fn with_a_maximum_no_page_past_it_is_asked_for() {
    let server = Catalog::start(setup(mixed(60))).await;
    let api = Api::new(&server.url, PAGE).unwrap();
    let store = live::fetch_all(&api, tokens(), &in_room(), Some(7), |_| {}, |_| {})
        .await
        .unwrap_or_else(|(_, e)| panic!("{e}"));
    assert_eq!(numbers(&store), (1..=9).collect::<Vec<_>>());
    let keys: Vec<String> = server.requests().into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys, ["untyped"; 3],
        "the three pages that reach seven events"
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_type_only_error_events_are_asked_for_and_other_families_come_by_type() {
    let mut types = mixed(60);
    types[1] = "track.add.success";
    types[40] = "beam.recording.success";
    let server = Catalog::start(setup(types.clone())).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let errors: Vec<u32> = (1..=60).filter(|k| ![2, 41].contains(k)).collect();
    assert_eq!(out.numbers, errors);
    for r in server.requests() {
        assert!(!r.key.contains("track") && !r.key.contains("beam"), "{r:?}");
    }
    // The explorer's toggle for the other families asks for every type by name.
    let server = Catalog::start(setup(types)).await;
    let every = Filter {
        types: KNOWN
            .iter()
            .chain(&["track.add.success", "beam.recording.success"])
            .map(|t| EventType::from_name(t))
            .collect(),
        ..in_room()
    };
    let out = load(&server, every, Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
}

#[tokio::test(start_paused = true)]
async fn error_types_outside_the_five_are_not_lost() {
    let mut types = mixed(60);
    // One on the first page, one deep down: the untyped cursor finds it on the way.
    types[1] = "client.preview.failed";
    types[40] = "client.reconnect.failed";
    let server = Catalog::start(setup(types)).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
    assert_eq!(out.duplicates, 0);
    assert_one_request_at_a_time(&server);
    for key in ["client.preview.failed", "client.reconnect.failed"] {
        assert_eq!(server.requests_of(key).len(), 1, "{key} got a cursor");
    }
    // The first census finds one event more than the typed cursors hold; the second, after the
    // deep one was found, finds the sum.
    assert_eq!(server.requests_of("census").len(), 2);
    assert!(server.requests_of("untyped").len() < 20);
}

#[tokio::test(start_paused = true)]
async fn without_proof_of_coverage_the_untyped_cursor_loads_to_the_end() {
    let mut types = mixed(60);
    // On the untyped cursor's last page: found too late to matter.
    types[59] = "client.reconnect.failed";
    let server = Catalog::start(setup(types)).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>());
    assert_eq!(server.requests_of("untyped").len(), 20);
    assert_eq!(out.elapsed, 20 * DELAY);
}

#[tokio::test(start_paused = true)]
async fn a_service_that_does_not_order_by_time_is_paged_by_one_cursor_in_its_own_order() {
    let mut setup = setup(mixed(60));
    setup.time = |k| (k * 37) % 61;
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    assert_eq!(
        out.numbers,
        (1..=60).collect::<Vec<_>>(),
        "the service's order"
    );
    let keys: HashSet<String> = server.requests().into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys,
        HashSet::from(["untyped".to_string()]),
        "the first page showed the order is not by time: no typed cursor"
    );
}

#[tokio::test(start_paused = true)]
async fn when_later_pages_show_the_order_is_not_by_time_the_untyped_cursor_finishes_alone() {
    let mut setup = setup(mixed(60));
    // In time order for thirty events, then backwards.
    setup.time = |k| if k <= 30 { k } else { 91 - k };
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let mut got = out.numbers.clone();
    got.sort();
    assert_eq!(got, (1..=60).collect::<Vec<_>>(), "every event once");
    assert_eq!(out.duplicates, 0);
    assert_eq!(
        out.numbers[..20],
        (1..=20).collect::<Vec<_>>(),
        "in order while the order held"
    );
    let untyped = server.requests_of("untyped");
    assert_eq!(untyped.len(), 20, "the untyped cursor went to the end");
    for key in KNOWN {
        // Its third page, past the thirtieth event, showed time running backwards.
        assert_eq!(
            server.requests_of(key).len(),
            3,
            "{key}: the typed cursors were dropped"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_failing_cursor_is_reported_after_the_others_and_their_events_are_kept() {
    let mut setup = setup(mixed(60));
    setup.faults.push(Fault {
        key: JOIN,
        nth: 1,
        status: 400,
        retry_after: None,
    });
    let server = Catalog::start(setup).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    let message = failure.expect("the join cursor's failure is reported");
    assert!(
        message.contains("client.join.failed") && message.contains("HTTP 400"),
        "{message}"
    );
    let got: HashSet<u32> = numbers(&store).into_iter().collect();
    assert_eq!(got.len(), store.len(), "no event twice");
    let types = mixed(60);
    for k in 1..=60u32 {
        if types[k as usize - 1] != JOIN {
            assert!(got.contains(&k), "event {k} of another type is kept");
        }
    }
    assert!(
        got.len() < 60,
        "the join events after the failure are missing"
    );
    let last_join = server.requests_of(JOIN).last().unwrap().arrived;
    let last_other = server
        .requests()
        .iter()
        .filter(|r| r.key != JOIN)
        .map(|r| r.arrived)
        .max()
        .unwrap();
    assert!(last_other > last_join, "the other cursors went on");

    // Asking again retries the failed cursor from where it stopped.
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    let join = server.requests_of(JOIN);
    assert_eq!(join[1].status, 400);
    assert_eq!(
        join[2].start, join[1].start,
        "the failed page is asked again"
    );
    assert_eq!(join[2].start.as_deref(), Some("o:3"));
    let mut all = numbers(&store);
    all.sort();
    assert_eq!(all, (1..=60).collect::<Vec<_>>());
    assert_eq!(store.duplicates(), 0);
}

/// A rate limit of `secs` on the second request of the subscribe cursor, said as `said`.
async fn rate_limited(secs: u64, said: Said) -> (Catalog, Outcome) {
    let mut setup = setup(mixed(60));
    setup.faults.push(Fault {
        key: "client.subscribe.failed",
        nth: 1,
        status: 429,
        retry_after: Some((secs, said)),
    });
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    (server, out)
}

#[tokio::test(start_paused = true)]
async fn a_429_holds_back_every_cursor_for_the_wait_it_states_in_seconds_a_date_or_words() {
    for said in [Said::Seconds, Said::Date, Said::Words] {
        // Over a minute: loading everything goes on through it.
        let (server, out) = rate_limited(65, said).await;
        assert_eq!(out.failure, None, "{said:?}");
        assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>(), "{said:?}");
        assert_eq!(out.retries.len(), 1, "{said:?}: {:?}", out.retries);
        let asked = out.retries[0].wait;
        let expected = match said {
            // A date has whole seconds: the server rounds up.
            Said::Date => 65..=67,
            _ => 65..=65,
        };
        assert!(
            expected.contains(&asked.as_secs()),
            "{said:?}: waited {asked:?}"
        );
        assert!(out.retries[0].asked);
        assert_one_request_at_a_time(&server);
        let subscribe = server.requests_of("client.subscribe.failed");
        assert_eq!(subscribe[1].status, 429);
        let refused = subscribe[1].answered.unwrap();
        assert!(
            subscribe[2].arrived >= refused + asked,
            "{said:?}: the refused cursor waited"
        );
        // No cursor sent a request while the wait ran.
        for r in server.requests() {
            assert!(
                r.arrived <= refused || r.arrived >= refused + asked,
                "{said:?}: {} asked at {:?} during the wait ({:?} to {:?})",
                r.key,
                r.arrived,
                refused,
                refused + asked
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_refused_minted_token_is_minted_again_once_for_every_cursor() {
    for status in [401, 403] {
        let mut setup = setup(mixed(60));
        setup.expire_first_token = Some(status);
        let server = Catalog::start(setup).await;
        let minted = TokenSource::Minted {
            access_key: "access-key-1".into(),
            secret: Token::new("app-secret-1".into()),
            current: None,
        };
        let out = load(&server, in_room(), Fanout::PerType, minted).await;
        assert_eq!(out.failure, None, "{status}");
        assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>(), "{status}");
        assert!(out.retries.is_empty(), "a re-mint is not a retry");
        let requests = server.requests();
        let refused = requests.iter().filter(|r| r.status == status).count();
        assert_eq!(
            refused, 6,
            "{status}: the five typed cursors and the untyped one were refused"
        );
        let tokens: HashSet<&str> = requests.iter().map(|r| r.auth.as_str()).collect();
        assert_eq!(
            tokens.len(),
            2,
            "{status}: one new token, shared by every cursor"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn every_request_asks_for_a_gzipped_answer() {
    let server = Catalog::start(setup(mixed(30))).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let requests = server.requests();
    assert!(requests.len() > 5);
    assert!(requests.iter().all(|r| r.gzip), "{requests:?}");
}

#[tokio::test(start_paused = true)]
async fn a_query_without_a_room_is_refused_with_the_servers_details_shown() {
    let server = Catalog::start(setup(mixed(30))).await;
    let out = load(&server, Filter::default(), Fanout::PerType, tokens()).await;
    assert_eq!(
        out.failure.as_deref(),
        Some("HTTP 400: Bad Request (room_id is required)")
    );
    assert_eq!(server.requests().len(), 1, "a 400 is not retried");
}

#[tokio::test(start_paused = true)]
async fn stop_halts_every_cursor_once_what_is_in_flight_has_arrived() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    five_typed_at_once(&server).await;
    let stopped = Instant::now();
    commands.send(Command::Stop { id: 1 }).unwrap();
    // Long enough for anything still to come.
    tokio::time::sleep(Duration::from_secs(60)).await;
    let requests = server.requests();
    assert!(
        requests.iter().all(|r| r.arrived <= stopped + DELAY),
        "no request after those in flight at the stop were answered: {requests:#?}"
    );
    let mut pages = 0;
    let mut events = 0;
    while let Ok(report) = reports.try_recv() {
        match report {
            Report::Page { page, .. } => {
                pages += 1;
                events += page.batch.len();
            }
            Report::Finished { .. } | Report::Failed { .. } => panic!("the query was stopped"),
            _ => {}
        }
    }
    assert!(pages >= 2 && events > 3, "what was in flight was reported");
    // Asking for the next page brings the events that come next, and no more requests than the
    // cursors the merge waits on.
    let before = server.requests().len();
    commands.send(Command::NextPage { id: 1 }).unwrap();
    let next = loop {
        match reports.recv().await.unwrap() {
            Report::Page { page, .. } => break page.batch.len(),
            Report::Finished { .. } | Report::Failed { .. } => panic!("the query was stopped"),
            _ => {}
        }
    };
    assert!(next > 0);
    let asked = server.requests().len() - before;
    assert!(
        (1..=6).contains(&asked),
        "{asked} requests for the next page"
    );
    events += next;
    // Loading everything again picks up where it stopped.
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 1).await;
    assert_eq!(failure, None);
    assert_eq!(store.len() + events, 60, "every event once");
}

#[tokio::test(start_paused = true)]
async fn a_new_query_cancels_every_cursor_of_the_old_one() {
    let server = Catalog::start(setup(mixed(60))).await;
    let (commands, mut reports) = load_everything_without_a_type(&server);
    five_typed_at_once(&server).await;
    let switched = Instant::now();
    commands
        .send(Command::Query {
            id: 2,
            filter: join_only(),
        })
        .unwrap();
    commands.send(Command::LoadAll { id: 2 }).unwrap();
    let mut store = Store::new();
    let (failure, _) = drive(&mut reports, &mut store, 2).await;
    assert_eq!(failure, None);
    let joins: Vec<u32> = (1..=60u32)
        .filter(|&k| mixed(60)[k as usize - 1] == JOIN)
        .collect();
    assert_eq!(numbers(&store), joins, "only the new query's events");
    let late: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.arrived > switched && r.key != JOIN)
        .collect();
    assert!(
        late.is_empty(),
        "the old query's cursors asked for more: {late:#?}"
    );
}

/// The requests on their way as the worker reports them, one line per report: each request's
/// part, or "none".
async fn in_flight_reports(server: &FaultServer, filter: Filter) -> Vec<String> {
    let api = Api::new(&server.url, 3).unwrap();
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands.send(Command::Query { id: 1, filter }).unwrap();
    commands.send(Command::LoadAll { id: 1 }).unwrap();
    let mut seen = Vec::new();
    loop {
        match reports
            .recv()
            .await
            .expect("the worker reports until the end")
        {
            Report::InFlight { requests, .. } => {
                let parts: Vec<String> = requests.into_iter().map(|r| r.part).collect();
                seen.push(if parts.is_empty() {
                    "none".to_string()
                } else {
                    parts.join(" + ")
                });
            }
            Report::Finished { .. } | Report::Failed { .. } => {
                // The last report of the requests follows at once.
                if let Ok(Report::InFlight { requests, .. }) = reports.try_recv() {
                    assert!(requests.is_empty());
                    seen.push("none".into());
                }
                return seen;
            }
            _ => {}
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_worker_says_which_part_of_the_query_each_request_on_its_way_loads() {
    let one_page = || {
        vec![Reply::Page {
            ids: vec![1, 2],
            next: "",
            total: 2,
        }]
    };
    // No type: the one cursor asks for the error events.
    let server = FaultServer::start(one_page()).await;
    let seen = in_flight_reports(&server, in_room()).await;
    assert_eq!(seen, ["the error events (error=true)", "none"]);
    // A type: its events.
    let server = FaultServer::start(one_page()).await;
    let seen = in_flight_reports(&server, join_only()).await;
    assert_eq!(seen, ["the client.join.failed events", "none"]);
}
