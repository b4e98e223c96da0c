//! `serve` against clients that hold connections: half-open ones that never finish a request,
//! kept-alive ones left idle, oversized heads and bodies. A normal client is still served.
//! Deadlines run on tokio's paused clock (the server in this process, its clients on
//! 127.0.0.1); the descriptor limit is tried on the real binary under `ulimit -n`.

use std::io::{Read, Write};
use std::time::Duration;

use callscope::related::Related;
use callscope::serve::{Limits, Options, Rules, Token};
use callscope::source::Source;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

mod common;

const TOKEN: &str = "serve-limits-token";
const ROOM: &str = "671f3c2a9e8d7b6a5c4d3e2f";

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn limits(max_connections: usize) -> Limits {
    Limits {
        max_connections,
        ..Limits::standard()
    }
}

/// serve in this process on 127.0.0.1, with `limits`; its address.
async fn start(limits: Limits) -> String {
    let (store, problems) = Source::Files(vec![fixture("join.json")]).load_offline();
    assert!(problems.is_empty());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let options = Options {
        rules: Rules::Hosted,
        app: None,
        delay: Duration::ZERO,
        limits,
    };
    let token = Token {
        value: TOKEN.into(),
        generated: false,
    };
    tokio::spawn(callscope::serve::serve_on(
        listener,
        token,
        store,
        Related::default(),
        options,
        std::future::pending(),
    ));
    addr
}

fn request() -> String {
    format!(
        "GET /v2/analytics/events?room_id={ROOM} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
    )
}

/// Sends a whole request and reads the answer's status line and head.
async fn ask(stream: &mut TcpStream, request: &str) -> String {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte).await {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// Waits until the server closes `stream` (reading and dropping anything it still sends).
async fn closed(stream: &mut TcpStream) {
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_connection_that_sends_no_whole_head_is_closed_at_the_header_deadline() {
    let limits = limits(64);
    let addr = start(limits).await;
    let started = Instant::now();
    let mut silent = TcpStream::connect(&addr).await.unwrap();
    let mut dripping = TcpStream::connect(&addr).await.unwrap();
    dripping
        .write_all(b"GET /v2/analytics/events HTTP/1.1\r\n")
        .await
        .unwrap();
    closed(&mut silent).await;
    closed(&mut dripping).await;
    let elapsed = started.elapsed();
    assert!(
        elapsed >= limits.header_read && elapsed < limits.header_read + Duration::from_secs(1),
        "{elapsed:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_kept_alive_connection_left_idle_is_closed_at_the_deadline() {
    let limits = limits(64);
    let addr = start(limits).await;
    let mut stream = TcpStream::connect(&addr).await.unwrap();
    let head = ask(&mut stream, &request()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let answered = Instant::now();
    closed(&mut stream).await;
    let idle = answered.elapsed();
    assert!(
        idle >= limits.header_read && idle < limits.header_read + Duration::from_secs(1),
        "{idle:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_normal_client_is_served_while_many_half_open_connections_are_held() {
    let limits = limits(16);
    let addr = start(limits).await;
    // Fewer than the cap: served at once.
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(TcpStream::connect(&addr).await.unwrap());
    }
    let started = Instant::now();
    let mut client = TcpStream::connect(&addr).await.unwrap();
    let head = ask(&mut client, &request()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(started.elapsed() < Duration::from_secs(1));
    // Three times the cap: the server takes the next ones as the deadline frees their places,
    // and the client's turn comes within a few deadlines, never never.
    for _ in 0..38 {
        held.push(TcpStream::connect(&addr).await.unwrap());
    }
    let started = Instant::now();
    let mut client = TcpStream::connect(&addr).await.unwrap();
    let head = ask(&mut client, &request()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let waited = started.elapsed();
    assert!(waited <= limits.header_read * 4, "{waited:?}");
}

/// The answer to `request` on a new connection: its head, and its body as its
/// `Content-Length` says.
async fn answer(addr: &str, request: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = ask(&mut stream, request).await;
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_string)
        })
        .map_or(0, |n| n.trim().parse().unwrap());
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await.unwrap();
    (head, String::from_utf8(body).unwrap())
}

#[tokio::test(start_paused = true)]
async fn an_oversized_head_gets_431_and_a_body_413_in_the_apis_error_shape() {
    let limits = limits(64);
    let addr = start(limits).await;
    // A head of `bytes` bytes, as sent, long by a header of its own (a request line over 64 KiB
    // is refused as too long a URI, 414, by the HTTP layer).
    let head_of = |bytes: usize| {
        let start = format!(
            "GET /v2/analytics/events?room_id={ROOM} HTTP/1.1\r\nHost: x\r\n\
             Authorization: Bearer {TOKEN}\r\nX-Pad: "
        );
        let end = "\r\n\r\n";
        format!(
            "{start}{}{end}",
            "p".repeat(bytes - start.len() - end.len())
        )
    };
    let shape = |body: &str, code: u16| {
        let v: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
        assert_eq!(v["code"], code, "{body}");
        assert!(
            v["message"].is_string() && v["details"][0].is_string(),
            "{body}"
        );
    };
    // At the bound, served; a byte over it, refused in the error shape; far over it, refused
    // by the HTTP layer itself.
    let (head, _) = answer(&addr, &head_of(limits.max_head_bytes)).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    for bytes in [limits.max_head_bytes + 1, limits.max_head_bytes * 3 / 2] {
        let (head, body) = answer(&addr, &head_of(bytes)).await;
        assert!(head.starts_with("HTTP/1.1 431"), "{bytes}: {head}");
        shape(&body, 431);
    }
    let (head, _) = answer(&addr, &head_of(limits.max_head_bytes * 4)).await;
    assert!(head.starts_with("HTTP/1.1 431"), "{head}");
    let with_body = format!(
        "GET /v2/analytics/events?room_id={ROOM} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: {}\r\n\r\n",
        limits.max_body_bytes * 4
    );
    let (head, body) = answer(&addr, &with_body).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    shape(&body, 413);
}

/// The real binary serving the fixture, started by a shell after `ulimit` (such as
/// `ulimit -n 64`).
#[cfg(unix)]
fn serve_under(ulimit: &str) -> common::Server {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "{ulimit} && exec \"$0\" serve \"$1\" --addr 127.0.0.1:0"
        ))
        .arg(env!("CARGO_BIN_EXE_callscope"))
        .arg(fixture("join.json"))
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(std::process::Stdio::null());
    common::Server::spawn(cmd)
}

/// The status line's first 12 bytes of the answer to a normal request on a new connection,
/// waiting at most `timeout` for it (past it, a panic saying `what` was expected).
#[cfg(unix)]
fn status_within(addr: &str, timeout: Duration, what: &str) -> [u8; 12] {
    let mut client = std::net::TcpStream::connect(addr).unwrap();
    client.set_read_timeout(Some(timeout)).unwrap();
    client.write_all(request().as_bytes()).unwrap();
    let mut answer = [0u8; 12];
    client.read_exact(&mut answer).expect(what);
    answer
}

/// The real binary under a limit of 64 open files: more half-open connections than it has
/// descriptors for. Without a cap it would accept until none is left and then nobody; with one,
/// each connection's deadline frees a place, and a normal client is served.
#[cfg(unix)]
#[test]
fn the_binary_under_a_low_descriptor_limit_still_serves_a_normal_client() {
    let server = serve_under("ulimit -n 64");
    let addr = format!("127.0.0.1:{}", server.port);
    let held: Vec<std::net::TcpStream> = (0..70)
        .map(|_| std::net::TcpStream::connect(&addr).unwrap())
        .collect();
    // The header deadline is 10 s: the client's turn comes after one or two of them.
    let answer = status_within(
        &addr,
        Duration::from_secs(40),
        "the client is answered while the other connections are held",
    );
    assert_eq!(&answer, b"HTTP/1.1 200");
    drop(held);
}

/// The common soft limit of 1,024 open files with a higher hard one: serve raises its soft
/// limit, as servers do, and serves a normal client at once while more connections are held
/// than the soft limit would have allowed (started here under a soft limit of 64).
#[cfg(unix)]
#[test]
fn the_binary_raises_a_low_soft_descriptor_limit_and_serves_at_once() {
    let hard = std::process::Command::new("sh")
        .args(["-c", "ulimit -Hn"])
        .output()
        .unwrap();
    let hard = String::from_utf8_lossy(&hard.stdout).trim().to_string();
    if hard != "unlimited" && hard.parse::<u64>().unwrap_or(0) < 1024 {
        eprintln!("the hard limit of open files is {hard}: nothing to raise the soft one to");
        return;
    }
    let server = serve_under("ulimit -Sn 64");
    let addr = format!("127.0.0.1:{}", server.port);
    let held: Vec<std::net::TcpStream> = (0..200)
        .map(|_| std::net::TcpStream::connect(&addr).unwrap())
        .collect();
    // Well within the 10 s header deadline: the client does not wait for held ones to end.
    let answer = status_within(
        &addr,
        Duration::from_secs(5),
        "the client is answered at once",
    );
    assert_eq!(&answer, b"HTTP/1.1 200");
    drop(held);
}
