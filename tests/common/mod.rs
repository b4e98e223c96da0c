//! What several test files share: a running `callscope serve`, `callscope list` as NDJSON, and
//! callscope isolated from the machine's own settings.

// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};

/// A running `callscope serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    /// Read a line at a time: what a read takes past a line waits for the next.
    stderr: Option<BufReader<ChildStderr>>,
    /// `http://127.0.0.1:PORT`, as serve printed it.
    pub url: String,
    pub port: u16,
}

impl Server {
    /// Spawns `cmd` (a `callscope serve ... --addr 127.0.0.1:0` command; its stderr is the
    /// caller's choice) and waits for the line that names the bound address.
    pub fn spawn(mut cmd: Command) -> Server {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn callscope serve");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut stderr = child.stderr.take().map(BufReader::new);
        // The first line is the wait: it is printed once the port is bound.
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        if line.is_empty() {
            let mut err = String::new();
            if let Some(stderr) = stderr.as_mut() {
                stderr.read_to_string(&mut err).unwrap();
            }
            panic!("serve printed nothing on stdout; stderr: {err}");
        }
        let line = line.strip_suffix('\n').expect("a whole line");
        let url = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let port: u16 = url
            .strip_prefix("http://127.0.0.1:")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no loopback port in {line:?}"));
        assert_ne!(port, 0, "the real port is printed, not 0");
        Server {
            child,
            stderr,
            url,
            port,
        }
    }

    /// The address of `path` on the server.
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// The next line serve wrote on stderr (which must have been piped).
    pub fn stderr_line(&mut self) -> String {
        let mut line = String::new();
        (self.stderr.as_mut().expect("stderr was piped"))
            .read_line(&mut line)
            .unwrap();
        line
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `callscope list ARGS --format ndjson`, one event per line; the command must succeed.
pub fn list_ndjson<A: AsRef<OsStr>>(args: impl IntoIterator<Item = A>) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .arg("list")
        .args(args)
        .args(["--format", "ndjson"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Variables that would let the machine's own settings leak into a test.
pub const CLEARED: &[&str] = &[
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "CALLSCOPE_CONFIG",
    "CALLSCOPE_PROFILE",
    "CALLSCOPE_BASE_URL",
    "CALLSCOPE_LOG",
    "HMS_MANAGEMENT_TOKEN",
    "HMS_ACCESS_KEY",
    "HMS_SECRET",
];

/// callscope with `home` as its HOME and nothing else configured.
pub fn callscope(home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"));
    cmd.env("HOME", home);
    for name in CLEARED {
        cmd.env_remove(name);
    }
    cmd
}

/// callscope holding the management token `token` and nothing else configured, with nothing on
/// its stdin: what a script on a machine set up for the API runs.
pub fn with_token(token: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_callscope"));
    for name in CLEARED {
        cmd.env_remove(name);
    }
    cmd.env("HMS_MANAGEMENT_TOKEN", token).stdin(Stdio::null());
    cmd
}

/// Runs `cmd` to its end: its exit status (-1 when a signal ended it), stdout and stderr.
pub fn outcome(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `callscope list ARGS` and returns its stdout, asserting exit 0 and a quiet stderr.
pub fn list(args: &[&str]) -> String {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_callscope"))
        .arg("list")
        .args(args)
        .assert()
        .success()
        .stderr("");
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The body of `GET url` (an `http://HOST:PORT/path` of a test server) with a bearer token, over
/// a plain connection: what a client without an HTTP library sends.
pub fn http_get(url: &str, token: &str) -> String {
    use std::io::Write;
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = std::net::TcpStream::connect(host).expect("the server listens");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a whole answer");
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    body.to_string()
}
