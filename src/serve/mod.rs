//! `callscope serve`: the loaded events (a dump, the demo, or what the live API holds, fetched
//! once) over the service's HTTP API, so that any client of the API (callscope itself, curl,
//! scripts) can query a replayed incident. Filters narrow what is served.
//!
//! Connections are accepted by a loop of its own rather than `axum::serve`, which sets no timer
//! and no cap: hyper's connection builder takes the header deadline and the head's size limit,
//! tower-http the body's and the request's, tokio-io-timeout the write stall, and a semaphore
//! holds the count of connections (see [`Limits`]).

mod api;
mod auth;
mod cursor;
mod events;
mod problem;
mod related;
mod rooms;

pub use auth::AppKey;
pub use cursor::CURSOR_LIFETIME_SECS;
pub use events::{
    CURSOR_MESSAGE, DEFAULT_LIMIT, EVENTS_PATH, LIMIT_MESSAGE, MAX_LIMIT, ROOM_MESSAGE, Rules,
};
pub use rooms::ROOMS_PATH;

use std::io::{ErrorKind, Write};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use hyper_util::rt::{TokioIo, TokioTimer};

use crate::filter::Filter;
use crate::related::Related;
use crate::store::{Batch, Store};
use problem::Problem;

/// The environment variable read for the token when no `--token-file` is given.
pub const TOKEN_ENV: &str = "CALLSCOPE_SERVE_TOKEN";

/// How serve answers, besides what it serves.
#[derive(Debug, Clone)]
pub struct Options {
    /// How closely requests are held to the hosted API's rules.
    pub rules: Rules,
    /// An app's key and secret, whose management tokens are let in beside serve's own token.
    pub app: Option<AppKey>,
    /// How long each request waits before it is answered, as a distant server's would.
    pub delay: std::time::Duration,
    /// What keeps clients from holding the server.
    pub limits: Limits,
}

/// What keeps a client, slow or hostile, from holding the server: deadlines on each connection,
/// a cap on how many are served at once, and bounded requests. All of them are hyper's and
/// tower-http's own settings; the cap is a semaphore whose permit each connection holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A request's head (its line and headers) must have arrived whole this long after the
    /// server began waiting for it: on a new connection, and on a kept-alive one between two
    /// requests, so this also closes connections left idle.
    pub header_read: Duration,
    /// A connection whose client stops reading an answer is closed once a write has waited
    /// this long.
    pub write_stall: Duration,
    /// A request is answered within this (or gets 408), however long its handling takes.
    pub request: Duration,
    /// Connections served at once; further ones wait in the listen backlog until one ends.
    pub max_connections: usize,
    /// The largest request head read (request line, query and headers); a larger one gets 431.
    pub max_head_bytes: usize,
    /// The largest request body accepted (the API's requests have none); a larger one gets 413.
    pub max_body_bytes: usize,
}

impl Limits {
    /// The limits serve runs with: `max_connections` from the process's descriptor limit.
    pub fn standard() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            write_stall: Duration::from_secs(30),
            request: Duration::from_secs(30),
            max_connections: connections_for(descriptor_limit()),
            max_head_bytes: 64 * 1024,
            max_body_bytes: 16 * 1024,
        }
    }
}

/// The most connections served at once under a limit of `descriptors` open files: half of
/// them, so that the listener, the dump and the log always find one (a server out of
/// descriptors accepts nobody, however short its deadlines), and at most 4,096: a connection
/// held open costs serve a few KiB, so that many cost tens of MiB at most.
pub fn connections_for(descriptors: u64) -> usize {
    (descriptors / 2).clamp(8, 4096) as usize
}

/// The soft limit of open files of this process (1,024, the common default, where it cannot
/// be read).
fn descriptor_limit() -> u64 {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives here.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            return limit.rlim_cur;
        }
    }
    1024
}

/// Raises this process's soft limit of open files to its hard limit (at most 65,536), as
/// servers do at start (Go's runtime does it for every program): the common soft default of
/// 1,024 is a limit for interactive programs, and it is what a thousand held connections
/// exhaust. Under a hard limit as low as the soft one, nothing changes, and the cap on
/// connections follows the limit in force.
pub fn raise_descriptor_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write one rlimit, which lives here.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                let wanted = limit.rlim_max.min(65_536);
                if wanted > limit.rlim_cur {
                    limit.rlim_cur = wanted;
                    libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
                }
            }
        }
    }
}

/// Serves `store` at `addr` to the clients that send `token` (or a management token of
/// `options.app`), until Ctrl-C or SIGTERM.
pub fn run(
    addr: SocketAddr,
    token: Token,
    store: Store,
    related: Related,
    options: Options,
) -> Result<(), String> {
    tracing::info!(events = store.len(), rules = ?options.rules, "serving");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(serve(addr, token, store, related, options))
}

/// The events to serve: those of `store` that match `filter`, in the order they were loaded,
/// and the related data beside them; both redacted when asked, with one set of pseudonyms (a
/// session's peers are named as their events are).
pub fn served(
    store: Store,
    related: Related,
    filter: &Filter,
    redact: bool,
) -> Result<(Store, Related), String> {
    let rows = store.filter(filter);
    if redact {
        return crate::redact::redacted_with_related(&store, &rows, &related);
    }
    if rows.len() == store.len() {
        return Ok((store, related));
    }
    let batch = Batch::of_objects(rows.iter().map(|&i| store.raw(i as usize)))
        .map_err(|e| format!("cannot read an event again: {e}"))?;
    let mut only = Store::new();
    only.merge(batch);
    Ok((only, related))
}

/// The token clients must send, and whether serve made it up (then it is printed, once, for the
/// person who started serve: nobody else can know it).
#[derive(Debug, PartialEq, Eq)]
pub struct Token {
    pub value: String,
    pub generated: bool,
}

/// The token: the first line of `--token-file`, else the environment's, else a random one.
pub fn resolve_token(file: Option<&Path>, env: Option<String>) -> Result<Token, String> {
    if let Some(path) = file {
        return Ok(Token {
            value: crate::source::token::read_token_file(path)?,
            generated: false,
        });
    }
    if let Some(value) = env.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        return Ok(Token {
            value: value.to_string(),
            generated: false,
        });
    }
    Ok(Token {
        value: uuid::Uuid::new_v4().simple().to_string(),
        generated: true,
    })
}

/// Reads `--addr`: `IP:PORT`, `[IPv6]:PORT` or `HOST:PORT` (resolved; the first address is used).
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let hint = "expected HOST:PORT such as 127.0.0.1:8080 (port 0 picks a free port)";
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!("--addr {text}: {hint}"));
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(format!("--addr {text}: {hint}"));
    }
    match text.to_socket_addrs() {
        Ok(mut addrs) => addrs
            .next()
            .ok_or_else(|| format!("--addr {text}: {host} has no address")),
        Err(e) => Err(format!("--addr {text}: cannot resolve {host}: {e}")),
    }
}

fn bind_message(addr: SocketAddr, e: &std::io::Error) -> String {
    let why = match e.kind() {
        ErrorKind::AddrInUse => {
            "the address is already in use (another program listens there); choose another port with --addr, or port 0 for a free one".to_string()
        }
        ErrorKind::PermissionDenied => {
            "permission denied (ports below 1024 usually need privileges); choose another port with --addr".to_string()
        }
        ErrorKind::AddrNotAvailable => {
            "this machine has no such address; use 127.0.0.1 or one of its own addresses".to_string()
        }
        _ => e.to_string(),
    };
    format!("cannot listen on {addr}: {why}")
}

async fn serve(
    addr: SocketAddr,
    token: Token,
    store: Store,
    related: Related,
    options: Options,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| bind_message(addr, &e))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address listened on: {e}"))?;
    if !local.ip().to_canonical().is_loopback() {
        crate::text::say!(
            "callscope: warning: listening on {local}, which is not a loopback address: anyone who can reach this machine can query the events with the token"
        );
    }
    if token.generated {
        crate::text::say!("token: {}", token.value);
    }
    // A server asked to stop shuts down cleanly, and says so with status 0, as servers do.
    let signal = crate::stop::requested(false);
    let shutdown = async move {
        signal.await;
    };
    {
        // Scripts wait for this line to learn the port: it goes out at once, whole.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "listening on http://{local}");
        let _ = stdout.flush();
    }
    serve_on(listener, token, store, related, options, shutdown).await
}

/// Serves on `listener` until `shutdown` completes, then lets the requests under way finish
/// (for at most the time one request may take).
pub async fn serve_on(
    mut listener: tokio::net::TcpListener,
    token: Token,
    store: Store,
    related: Related,
    options: Options,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let limits = options.limits;
    let auth = auth::Auth::new(&token.value, options.app);
    let api =
        Arc::new(api::Api::new(store, related, auth, options.rules).with_delay(options.delay));
    drop(token);
    // Answers are gzip'd for the clients that ask (a page of a hundred events shrinks about
    // eightfold); the log layer sits outside, to time the whole answer. A request is answered
    // within its deadline (a stated delay added), and a body is refused past its bound.
    let router = api::router(api)
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            limits.max_body_bytes,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            limits.request + options.delay,
        ))
        .layer(axum::middleware::from_fn(move |request, next| {
            in_bounds(limits, request, next)
        }))
        .layer(axum::middleware::from_fn(log_request));
    // The HTTP layer reads a head in growing parts and stops somewhere past its bound: twice
    // the bound, so that every head over it up to there is refused by `in_bounds`, in the
    // API's error shape.
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .max_buf_size((limits.max_head_bytes * 2).max(8192));
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        // A connection is accepted only with a permit: at the cap, the next one waits in the
        // backlog until a connection ends (by its deadline, at the latest).
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        // axum's listener retries failed accepts itself (out of descriptors included).
        let (tcp, _) = tokio::select! {
            accepted = Listener::accept(&mut listener) => accepted,
            () = &mut shutdown => break,
        };
        // Pages are single writes answered by the next request; Nagle would only add delay.
        let _ = tcp.set_nodelay(true);
        let mut io = tokio_io_timeout::TimeoutStream::new(tcp);
        io.set_write_timeout(Some(limits.write_stall));
        let io = TokioIo::new(Box::pin(io));
        let router = router.clone();
        let service = hyper::service::service_fn(
            move |request: axum::extract::Request<hyper::body::Incoming>| {
                tower::ServiceExt::oneshot(router.clone(), request.map(axum::body::Body::new))
            },
        );
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a connection ended on an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    let deadline = limits.request + options.delay;
    if tokio::time::timeout(deadline, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!("stopped with requests still under way");
    }
    Ok(())
}

/// Logs each request: method, path and query, status and time taken. Headers, where the token
/// travels, are never logged.
/// Refuses a request whose head is over `limits.max_head_bytes` with 431, and answers the
/// refusals the layers make themselves (413 for a body past its bound, 408 past the deadline)
/// in the API's error shape, as every other refusal is.
async fn in_bounds(
    limits: Limits,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    let head = head_len(&request);
    if head > limits.max_head_bytes {
        let problem = Problem {
            status: StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            message: "Request Header Fields Too Large".into(),
            details: vec![format!(
                "the request line and headers are {head} bytes; at most {} are read",
                limits.max_head_bytes
            )],
        };
        return problem.into_response();
    }
    let response = next.run(request).await;
    let shaped = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let detail = match response.status() {
        _ if shaped => return response,
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "a request body is at most {} bytes (the API's requests have none)",
            limits.max_body_bytes
        ),
        StatusCode::REQUEST_TIMEOUT => "the request was not answered in time".to_string(),
        _ => return response,
    };
    let status = response.status();
    Problem {
        status,
        message: status.canonical_reason().unwrap_or("Error").into(),
        details: vec![detail],
    }
    .into_response()
}

/// The bytes of a request's head as HTTP/1.1 writes it: its request line, each header and the
/// blank line that ends them.
fn head_len(request: &axum::extract::Request) -> usize {
    let line = request.method().as_str().len() + 1 + request.uri().to_string().len() + 11;
    let headers: usize = (request.headers().iter())
        .map(|(name, value)| name.as_str().len() + 2 + value.len() + 2)
        .sum();
    line + headers + 2
}

async fn log_request(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    tracing::info!(
        method = %method,
        url = %uri,
        status = response.status().as_u16(),
        elapsed_ms = started.elapsed().as_millis() as u64,
        "served"
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_file_wins_and_only_its_first_line_counts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "  s3cret \nsecond line\n").unwrap();
        let t = resolve_token(Some(&path), Some("from-env".into())).unwrap();
        assert_eq!(
            t,
            Token {
                value: "s3cret".into(),
                generated: false
            }
        );
    }

    #[test]
    fn a_missing_or_empty_token_file_is_an_error_that_does_not_quote_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        assert!(
            resolve_token(Some(&missing), None)
                .unwrap_err()
                .contains("nope")
        );
        let empty = dir.path().join("empty");
        std::fs::write(&empty, "\n   \nnot-the-first-line\n").unwrap();
        let e = resolve_token(Some(&empty), None).unwrap_err();
        assert!(
            e.contains("first line") && !e.contains("not-the-first-line"),
            "{e}"
        );
    }

    #[test]
    fn the_environment_comes_next_then_a_random_token() {
        let t = resolve_token(None, Some(" env-token\n".into())).unwrap();
        assert_eq!(
            t,
            Token {
                value: "env-token".into(),
                generated: false
            }
        );
        let a = resolve_token(None, Some("  ".into())).unwrap();
        let b = resolve_token(None, None).unwrap();
        assert!(a.generated && b.generated);
        assert_ne!(a.value, b.value);
        assert!(a.value.len() == 32 && a.value.bytes().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn addresses() {
        assert_eq!(
            parse_addr("127.0.0.1:0").unwrap(),
            "127.0.0.1:0".parse().unwrap()
        );
        assert_eq!(
            parse_addr("[::1]:8080").unwrap(),
            "[::1]:8080".parse().unwrap()
        );
        assert!(parse_addr("localhost:0").unwrap().ip().is_loopback());
        for bad in [
            "",
            "8080",
            "127.0.0.1",
            "127.0.0.1:99999",
            ":8080",
            "127.0.0.1:http",
            "nohost.invalid:x",
        ] {
            let e = parse_addr(bad).unwrap_err();
            assert!(e.starts_with("--addr "), "{bad:?}: {e}");
        }
    }
}
