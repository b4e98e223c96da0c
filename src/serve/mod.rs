//! `callscope serve`: the loaded events (a dump, the demo, or what the live API holds, fetched
//! once) over the service's HTTP API, so that any client of the API (callscope itself, curl,
//! scripts) can query a replayed incident. Filters narrow what is served.

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

use axum::serve::ListenerExt;

use crate::filter::Filter;
use crate::store::{Batch, Store};

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
}

/// Serves `store` at `addr` to the clients that send `token` (or a management token of
/// `options.app`), until Ctrl-C or SIGTERM.
pub fn run(
    addr: SocketAddr,
    token: Token,
    store: Store,
    related: crate::related::Related,
    options: Options,
) -> Result<(), String> {
    tracing::info!(events = store.len(), rules = ?options.rules, "serving");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(serve(addr, token, store, related, options))
}

/// The events to serve: those of `store` that match `filter`, redacted when asked, in the order
/// they were loaded.
pub fn served(store: Store, filter: &Filter, redact: bool) -> Result<Store, String> {
    let rows = store.filter(filter);
    if redact {
        return crate::redact::redacted_store(&store, &rows);
    }
    if rows.len() == store.len() {
        return Ok(store);
    }
    let batch = Batch::of_objects(rows.iter().map(|&i| store.raw(i as usize)))
        .map_err(|e| format!("cannot read an event again: {e}"))?;
    let mut only = Store::new();
    only.merge(batch);
    Ok(only)
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
    related: crate::related::Related,
    options: Options,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| bind_message(addr, &e))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address listened on: {e}"))?;
    if !local.ip().to_canonical().is_loopback() {
        eprintln!(
            "callscope: warning: listening on {local}, which is not a loopback address: anyone who can reach this machine can query the events with the token"
        );
    }
    if token.generated {
        eprintln!("token: {}", token.value);
    }
    // A server asked to stop shuts down cleanly, and says so with status 0, as servers do.
    let signal = crate::stop::requested(false);
    let shutdown = async move {
        signal.await;
    };
    let auth = auth::Auth::new(&token.value, options.app);
    let api =
        Arc::new(api::Api::new(store, related, auth, options.rules).with_delay(options.delay));
    drop(token);
    {
        // Scripts wait for this line to learn the port: it goes out at once, whole.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "listening on http://{local}");
        let _ = stdout.flush();
    }
    let listener = listener.tap_io(|tcp| {
        // Pages are single writes answered by the next request; Nagle would only add delay.
        let _ = tcp.set_nodelay(true);
    });
    // Answers are gzip'd for the clients that ask (a page of a hundred events shrinks about
    // eightfold); the log layer sits outside, to time the whole answer.
    let router = api::router(api)
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
        .layer(axum::middleware::from_fn(log_request));
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

/// Logs each request: method, path and query, status and time taken. Headers, where the token
/// travels, are never logged.
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
