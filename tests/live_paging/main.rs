//! The live fetch task and `list --live` against small HTTP servers on 127.0.0.1: one serves
//! scripted pages and injects faults (429, 500, dropped connections, truncated bodies, a hanging
//! request, overlapping pages and a repeated cursor); the other pages a list of events by type as
//! the service does, each answer taking a while, for "load everything" with one cursor per type.
//! Time runs on tokio's paused clock: backoff and answer delays take no real time, and the
//! instants the servers log are exact.
//!
//! The scripted server is in `fault_server`, the catalog server in `catalog`, and the helpers the
//! tests share are here; each other module holds the tests of one theme.

use std::collections::HashSet;
use std::time::Duration;

use callscope::event::{EventType, Field};
use callscope::filter::Filter;
use callscope::source::api::Api;
use callscope::source::live;
use callscope::source::token::{Token, TokenSource};
use callscope::source::worker::{self, Command, Fanout, Report, Retry};
use callscope::store::Store;
use tokio::sync::mpsc;
use tokio::time::Instant;

mod catalog;
mod fault_server;
use catalog::{Catalog, Fault, Said, Setup};
use fault_server::{FaultServer, Reply, read_request_head};

mod failures_once;
mod flow;
mod load_everything;
mod paging_faults;
mod partial_answers;
mod refused_cursors;
mod requests;
mod room_refusals;
mod saved_parts;

const TOKEN: &str = "test-token-7f3a9c";

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
    let (commands, mut reports) = ask(&server.url, page_size, filter);
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
            Report::Restarted { message, .. } => log.push(message),
            Report::InFlight { .. } | Report::Tally { .. } => {}
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
const CONNECT: &str = "client.connect.failed";
const SUBSCRIBE: &str = "client.subscribe.failed";
const PUBLISH: &str = "client.publish.failed";
const DISCONNECTED: &str = "client.disconnected";

/// A 401 of the `nth` (0-based) request of the catalog's cursor `key`, as an expired token
/// gets, which no client asks again after.
fn refused(key: &'static str, nth: usize) -> catalog::Fault {
    catalog::Fault {
        key,
        nth,
        status: 401,
        retry_after: None,
    }
}

/// The time of the catalog's event `k` as callscope writes it.
fn at(k: u32) -> String {
    format!("2026-11-18T10:00:{k:02}.000000001Z")
}

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
        refuse_start: |_, _| false,
        most_requests: None,
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

/// A worker on the service at `url`, in pages of `page_size`, asked for query 1 of `filter`:
/// where it takes commands, and its reports.
fn ask(
    url: &str,
    page_size: u32,
    filter: Filter,
) -> (
    mpsc::UnboundedSender<Command>,
    mpsc::UnboundedReceiver<Report>,
) {
    let api = Api::new(url, page_size).unwrap();
    let (reports_tx, reports) = mpsc::unbounded_channel();
    let commands = worker::spawn(api, tokens(), reports_tx);
    commands.send(Command::Query { id: 1, filter }).unwrap();
    (commands, reports)
}

/// Starts a worker on `server` and asks it to load every event of a query without a type.
fn load_everything_without_a_type(
    server: &Catalog,
) -> (
    mpsc::UnboundedSender<Command>,
    mpsc::UnboundedReceiver<Report>,
) {
    let (commands, reports) = ask(&server.url, PAGE, in_room());
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

/// `callscope list --live` of `room` at `url` with `args`, run as a user runs it (no config or
/// profile of the machine's), its output once it ends.
async fn list_live_at(url: &str, room: &str, args: &[&str]) -> std::process::Output {
    let (url, room) = (url.to_string(), room.to_string());
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_callscope"));
        cmd.args(["list", "--live", "--base-url", &url])
            .args(["--room", &room])
            .args(args)
            .env("HMS_MANAGEMENT_TOKEN", TOKEN)
            .stdin(std::process::Stdio::null());
        for name in ["CALLSCOPE_CONFIG", "CALLSCOPE_PROFILE", "XDG_CONFIG_HOME"] {
            cmd.env_remove(name);
        }
        cmd.output().unwrap()
    })
    .await
    .unwrap()
}

/// `list --live` of the catalog's room at `server`, three events a page, as NDJSON, with `args`.
async fn list_ndjson(server: &Catalog, args: &[&str]) -> std::process::Output {
    let pages = ["--page-size", "3", "--format", "ndjson"];
    list_live_at(&server.url, catalog::ROOM, &[&pages[..], args].concat()).await
}

/// The number at the end of each event's id, in the order of the NDJSON lines.
fn numbers_of_lines(stdout: &[u8]) -> Vec<u32> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = v["id"].as_str().unwrap();
            id[24..].parse().unwrap()
        })
        .collect()
}
