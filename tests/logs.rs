//! The log: `list --live` against `callscope serve`, both with `--log-file`, writes request
//! lines (method, path and query, status, time) and never a token; retries and failures are
//! logged; `CALLSCOPE_LOG` alone logs to the XDG state folder and never to the terminal.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::sync::{Arc, Mutex};

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

mod common;
use common::{Server, callscope};
const TOKEN: &str = "log-test-token-8c1f5e";

/// `callscope serve --demo` on a free port, logging to `log`, its token in a file under `dir`.
fn serve(dir: &Path, log: &Path) -> Server {
    let token_file = dir.join("serve.token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let mut cmd = StdCommand::new(BIN);
    cmd.args(["serve", "--demo", "--addr", "127.0.0.1:0", "--token-file"])
        .arg(&token_file)
        .arg("--log-file")
        .arg(log)
        .env_remove("CALLSCOPE_LOG")
        .stderr(Stdio::null());
    Server::spawn(cmd)
}

/// The demo's join storm room: live queries name a room.
const ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn list_live_and_serve_log_their_requests_and_never_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let serve_log = dir.path().join("serve.log");
    let list_log = dir.path().join("list.log");
    let server = serve(dir.path(), &serve_log);
    let token_file = dir.path().join("client.token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let out = callscope(dir.path())
        .args([
            "list",
            "--live",
            "--base-url",
            &server.url,
            "--room",
            ROOM,
            "--type",
            "join",
        ])
        .args(["--page-size", "40", "--max", "100", "--format", "ndjson"])
        .arg("--token-file")
        .arg(&token_file)
        .arg("--log-file")
        .arg(&list_log)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "nothing of the log on the terminal");
    drop(server);

    let log = read(&list_log);
    let requests: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(" request") && l.contains("status=200"))
        .collect();
    assert_eq!(
        requests.len(),
        3,
        "three pages of 40 for 100 events:\n{log}"
    );
    for line in &requests {
        assert!(line.contains("INFO"), "{line}");
        assert!(
            line.contains("method=\"GET\"") || line.contains("method=GET"),
            "{line}"
        );
        assert!(
            line.contains(&format!(
                "url=/v2/analytics/events?type=client.join.failed&room_id={ROOM}&limit=40"
            )),
            "{line}"
        );
        assert!(line.contains("elapsed_ms="), "{line}");
    }
    assert!(
        requests[1].contains("&start="),
        "later pages send the cursor: {}",
        requests[1]
    );

    let served = read(&serve_log);
    let answered: Vec<&str> = served
        .lines()
        .filter(|l| l.contains("served") && l.contains("status=200"))
        .collect();
    assert_eq!(answered.len(), 3, "{served}");
    assert!(
        answered[0].contains(&format!(
            "url=/v2/analytics/events?type=client.join.failed&room_id={ROOM}&limit=40"
        )),
        "{served}"
    );
    for text in [&log, &served] {
        assert!(!text.contains(TOKEN), "the token was logged:\n{text}");
        assert!(!text.to_lowercase().contains("bearer"), "{text}");
    }
}

#[test]
fn a_refused_token_is_logged_by_status_only() {
    let dir = tempfile::tempdir().unwrap();
    let serve_log = dir.path().join("serve.log");
    let list_log = dir.path().join("list.log");
    let server = serve(dir.path(), &serve_log);
    let wrong = "wrong-token-3b7a90";
    let out = callscope(dir.path())
        .args(["list", "--live", "--room", ROOM])
        .args(["--base-url", &server.url, "--log-file"])
        .arg(&list_log)
        .env("HMS_MANAGEMENT_TOKEN", wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    drop(server);
    let log = read(&list_log);
    assert!(log.contains("status=401"), "{log}");
    assert!(log.contains("invalid bearer token"), "{log}");
    assert!(read(&serve_log).contains("status=401"));
    for text in [log, read(&serve_log)] {
        assert!(!text.contains(wrong) && !text.contains(TOKEN), "{text}");
    }
}

/// A server that answers three requests with 503 and `Retry-After: 0` and every later one with
/// a 400 (which is not retried), and keeps what each request sent as its Authorization header.
fn busy_server() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let text = String::from_utf8_lossy(&request);
            if let Some(auth) = text.lines().find_map(|l| {
                l.strip_prefix("authorization: ")
                    .or_else(|| l.strip_prefix("Authorization: "))
            }) {
                record.lock().unwrap().push(auth.to_string());
            }
            let busy = record.lock().unwrap().len() <= 3;
            let (status, body) = if busy {
                ("503 Service Unavailable", r#"{"message":"busy"}"#)
            } else {
                (
                    "400 Bad Request",
                    r#"{"code":400,"message":"Bad Request","details":["busy for good"]}"#,
                )
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nRetry-After: 0\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, seen)
}

#[test]
fn retries_and_the_final_failure_are_logged_without_the_minted_token_or_secret() {
    let dir = tempfile::tempdir().unwrap();
    let (url, seen) = busy_server();
    let list_log = dir.path().join("list.log");
    let secret = "app-secret-f00d77";
    let out = callscope(dir.path())
        .args([
            "list",
            "--live",
            "--room",
            ROOM,
            "--base-url",
            &url,
            "--log-file",
        ])
        .arg(&list_log)
        .env("HMS_ACCESS_KEY", "access-key-1")
        .env("HMS_SECRET", secret)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = read(&list_log);
    let retries: Vec<&str> = log.lines().filter(|l| l.contains("retrying")).collect();
    assert_eq!(retries.len(), 3, "{log}");
    assert!(
        retries[0].contains("attempt=2") && retries[2].contains("attempt=4"),
        "{log}"
    );
    assert!(retries[0].contains("HTTP 503: busy"), "{log}");
    assert_eq!(log.matches("status=503").count(), 3, "{log}");
    assert!(log.contains("giving up"), "{log}");
    assert!(log.contains("busy for good"), "{log}");
    let sent = seen.lock().unwrap().clone();
    assert_eq!(sent.len(), 4);
    for auth in &sent {
        let jwt = auth
            .strip_prefix("Bearer ")
            .expect("a bearer token was sent");
        assert!(!log.contains(jwt), "the minted token was logged");
    }
    assert!(!log.contains(secret) && !log.contains("eyJ"), "{log}");
}

#[test]
fn callscope_log_alone_writes_to_the_state_folder_not_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let (url, _) = busy_server();
    let out = callscope(dir.path())
        .args(["list", "--live", "--room", ROOM, "--base-url", &url])
        .env("HMS_MANAGEMENT_TOKEN", TOKEN)
        .env("CALLSCOPE_LOG", "debug")
        .env("XDG_STATE_HOME", &state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("status=") && !stderr.contains("INFO"),
        "{stderr}"
    );
    let log = read(&state.join("callscope/callscope.log"));
    assert!(
        log.contains("status=503") && log.contains("callscope started"),
        "{log}"
    );
    assert!(!log.contains(TOKEN));

    // Without XDG_STATE_HOME: ~/.local/state.
    callscope(dir.path())
        .args(["list", "--demo", "--max", "1"])
        .env("CALLSCOPE_LOG", "info")
        .assert()
        .success();
    assert!(
        dir.path()
            .join(".local/state/callscope/callscope.log")
            .is_file()
    );

    // No log is asked for: none is written.
    let quiet = tempfile::tempdir().unwrap();
    callscope(quiet.path())
        .args(["list", "--demo", "--max", "1"])
        .assert()
        .success();
    assert!(!quiet.path().join(".local").exists());
}

#[test]
fn a_log_that_cannot_be_written_stops_callscope() {
    let dir = tempfile::tempdir().unwrap();
    callscope(dir.path())
        .args(["list", "--demo", "--log-file"])
        .arg(dir.path().join("no/such/folder/x.log"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("cannot open the log file"));
    callscope(dir.path())
        .args(["list", "--demo"])
        .env("CALLSCOPE_LOG", "callscope=[")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("CALLSCOPE_LOG"));
}
