//! The live fetch task and `list --live` against a small HTTP server on 127.0.0.1 that serves
//! scripted pages and injects faults: 429, 500, dropped connections, truncated bodies, a hanging
//! request, overlapping pages and a repeated cursor. Backoff runs on tokio's paused clock.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use callscope::filter::Filter;
use callscope::source::api::Api;
use callscope::source::token::{Token, TokenSource};
use callscope::source::worker::{self, Command, Report};
use callscope::store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

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
}

impl FaultServer {
    async fn start(script: Vec<Reply>) -> FaultServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let script = Arc::new(script);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let log = Arc::clone(&log);
                let script = Arc::clone(&script);
                tokio::spawn(async move { serve_connection(stream, log, script).await });
            }
        });
        FaultServer { url, requests }
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

async fn serve_connection(
    mut stream: TcpStream,
    log: Arc<Mutex<Vec<(String, String)>>>,
    script: Arc<Vec<Reply>>,
) {
    loop {
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match stream.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => return,
            }
        }
        let text = String::from_utf8_lossy(&head).to_string();
        let target = text.split_whitespace().nth(1).unwrap_or("").to_string();
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
    let api = Api::new(&server.url, 3).unwrap();
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
                store.merge(page.batch);
            }
            Report::Retrying { retry, .. } => log.push(format!(
                "retry attempt {} of {} in {:?}: {}",
                retry.attempt, retry.of, retry.wait, retry.reason
            )),
            Report::Fetching { page, .. } => log.push(format!("fetching {page}")),
            Report::Finished { .. } => return (store, log, None),
            Report::Failed { message, .. } => return (store, log, Some(message)),
        }
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
    let (store, log, failure) = load_all(&server, Filter::default()).await;
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
    let (store, log, failure) = load_all(&server, Filter::default()).await;
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
    let (store, _, failure) = load_all(&server, Filter::default()).await;
    let message = failure.expect("paging stops with a message");
    assert!(message.contains("already used"), "{message}");
    assert_each_once(&store, 1..=4);
    assert_eq!(server.count(), 2, "no request after the repeated cursor");
}

#[tokio::test(start_paused = true)]
async fn a_401_is_not_retried_and_says_to_check_the_token_without_showing_it() {
    let server = FaultServer::start(vec![Reply::Status {
        status: 401,
        body: r#"{"message":"token expired: test-token-7f3a9c"}"#,
        retry_after: None,
    }])
    .await;
    let (store, log, failure) = load_all(&server, Filter::default()).await;
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
    let (store, _, failure) = load_all(&server, Filter::default()).await;
    let message = failure.expect("the bad page fails the query");
    assert!(message.contains("not valid JSON"), "{message}");
    assert_each_once(&store, 1..=3);
    assert_eq!(server.count(), 1 + worker::MAX_ATTEMPTS as usize);
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
        types: vec![
            callscope::event::EventType::Publish,
            callscope::event::EventType::Join,
        ],
        room: Some("room 1".into()),
        session: Some("s1".into()),
        peer: Some("p1".into()),
        user: Some("u&1".into()),
        terminal: Some(true),
        ..Filter::default()
    };
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
