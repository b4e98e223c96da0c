//! The scripted server: each request gets the next reply of a script, the faults included, and
//! every request's path, query and Authorization header are recorded.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server does with one request.
#[derive(Clone, Debug)]
pub enum Reply {
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
    /// 200 with this body: valid JSON of another shape than a page.
    Json(&'static str),
    /// 200 with a page of `per_page` events numbered on from the last, a `next` cursor never
    /// sent before, and `total`: a server that pages on for ever.
    Endless { per_page: u32, total: u64 },
    /// 200 announcing a body of `len` bytes, then sent a byte a second.
    Drip { len: usize },
    /// 200 with a body of `len` bytes sent as fast as it is read, its length announced or not.
    Huge { len: usize, announced: bool },
}

impl Reply {
    /// 200 with a page: events `ids`, `next`, `total`.
    pub fn page(ids: &[u32], next: &'static str, total: u64) -> Reply {
        Reply::Page {
            ids: ids.to_vec(),
            next,
            total,
        }
    }
}

/// The room of the scripted events: an id as the service writes one (a `--room` value of
/// another form is a name, looked up first).
pub const ROOM_ID: &str = "5f1e0c3a9b2d4e6f8a0b1c2d";

pub fn event(id: u32) -> String {
    format!(
        r#"{{"version":"2.0","id":"00000000-0000-4000-8000-{id:012}","timestamp":"2026-11-18T10:00:{:02}.123456789Z","type":"client.join.failed","data":{{"room_id":"{ROOM_ID}","peer_id":"p{id}","error_code":500,"error_name":"ServerErrors","is_terminal":false,"retries_join":{id}}}}}"#,
        id % 60
    )
}

pub fn page_body(ids: &[u32], next: &str, total: u64) -> String {
    let events: Vec<String> = ids.iter().map(|&i| event(i)).collect();
    format!(
        r#"{{"limit":{},"total":{total},"next":"{next}","events":[{}]}}"#,
        ids.len(),
        events.join(",")
    )
}

/// A scripted server: request k gets `script[k]` (the last reply repeats). Every request's path
/// and query, and its Authorization header, are recorded.
pub struct FaultServer {
    pub url: String,
    pub requests: Arc<Mutex<Vec<(String, String)>>>,
    /// Bytes of body written by the `Huge` replies.
    pub written: Arc<std::sync::atomic::AtomicUsize>,
}

impl FaultServer {
    pub async fn start(script: Vec<Reply>) -> FaultServer {
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

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    pub fn queries(&self) -> Vec<String> {
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
pub async fn read_request_head(stream: &mut TcpStream) -> Option<(String, String)> {
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
            Reply::Json(body) => (200, body.to_string(), String::new()),
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
