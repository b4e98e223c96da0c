//! One page of the live API over HTTP: the request, and what its answer means.

use std::sync::Arc;
use std::time::Duration;

use crate::event::Field;
use crate::filter::Filter;
use crate::store::{Batch, BatchBuilder, Blob};
use crate::text::for_terminal;

use super::dump;
use super::merge::Entry;
use super::token::Token;

pub const EVENTS_PATH: &str = "/v2/analytics/events";
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A request that sends nothing for this long is abandoned (and retried).
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A page that arrived.
#[derive(Debug)]
pub struct Page {
    /// Boxed: a batch is large to move through the channels that carry a page.
    pub batch: Box<Batch>,
    pub next: String,
    pub total: Option<u64>,
}

/// A page as it arrived: its body and each event's place in it. Every event has been read once,
/// so [`Fetched::into_page`] cannot meet a bad one; the pages of several cursors are merged from
/// the entries without it.
pub struct Fetched {
    pub blob: Arc<Blob>,
    pub entries: Vec<Entry>,
    pub next: String,
    pub total: Option<u64>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("events", &self.entries.len())
            .field("next", &self.next)
            .field("total", &self.total)
            .finish()
    }
}

impl Fetched {
    /// The page, its events in a batch over the body.
    pub fn into_page(self) -> Page {
        let mut builder = BatchBuilder::new(Arc::clone(&self.blob));
        for e in &self.entries {
            if let Err(error) = builder.push(e.start, e.end) {
                tracing::error!(%error, "an event that was read once could not be read again");
            }
        }
        Page {
            batch: Box::new(builder.finish()),
            next: self.next,
            total: self.total,
        }
    }
}

/// Why a page did not arrive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// No answer: connection refused or dropped, DNS, a timeout.
    Network(String),
    /// An HTTP error status, with the server's message (sanitised) and, for 429, `Retry-After`.
    Status {
        status: u16,
        message: String,
        retry_after: Option<Duration>,
    },
    /// A 200 whose body is not a page of events.
    BadPage(String),
}

impl FetchError {
    /// Connection errors, timeouts, 429 and 5xx may pass; 4xx will not.
    pub fn is_retryable(&self) -> bool {
        match self {
            FetchError::Network(_) => true,
            FetchError::Status { status, .. } => *status == 429 || *status >= 500,
            // A cut body is the connection's fault as often as the server's.
            FetchError::BadPage(_) => true,
        }
    }

    /// What to tell a person, with a hint of what to try.
    pub fn describe(&self) -> String {
        match self {
            FetchError::Network(m) => format!("network error: {m}"),
            FetchError::BadPage(m) => format!("the server sent a page that is not valid JSON: {m}"),
            FetchError::Status {
                status, message, ..
            } => {
                let hint = match status {
                    401 => {
                        " (check the token: HMS_MANAGEMENT_TOKEN, --token-file, or HMS_ACCESS_KEY + HMS_SECRET; it may have expired)"
                    }
                    403 => " (the token is valid but not allowed to read these events)",
                    404 => " (check --base-url)",
                    400 => " (the server refused the query's parameters)",
                    429 => " (rate limited)",
                    _ => "",
                };
                if message.is_empty() {
                    format!("HTTP {status}{hint}")
                } else {
                    format!("HTTP {status}: {message}{hint}")
                }
            }
        }
    }
}

/// The HTTP client for one base URL.
#[derive(Debug, Clone)]
pub struct Api {
    http: reqwest::Client,
    base_url: String,
    page_size: u32,
}

impl Api {
    pub fn new(base_url: &str, page_size: u32) -> Result<Api, String> {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .user_agent(concat!("callscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot set up HTTP: {e}"))?;
        Ok(Api {
            http,
            base_url: base_url.trim_end_matches('/').to_string(),
            page_size: page_size.clamp(1, 100),
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The same client asking for pages of `page_size` events.
    pub fn with_page_size(&self, page_size: u32) -> Api {
        Api {
            page_size: page_size.clamp(1, 100),
            ..self.clone()
        }
    }

    /// The query parameters of one request.
    pub fn params(&self, filter: &Filter, start: Option<&str>) -> Vec<(&'static str, String)> {
        let mut params = api_params(filter);
        params.push(("limit", self.page_size.to_string()));
        if let Some(start) = start.filter(|s| !s.is_empty()) {
            params.push(("start", start.to_string()));
        }
        params
    }

    /// Requests one page. `start` is the previous page's `next` (sent URL-encoded).
    pub async fn fetch(
        &self,
        token: &Token,
        filter: &Filter,
        start: Option<&str>,
    ) -> Result<Fetched, FetchError> {
        let url = format!("{}{}", self.base_url, EVENTS_PATH);
        let request = self
            .http
            .get(&url)
            .query(&self.params(filter, start))
            .bearer_auth(token.expose())
            .build()
            .map_err(network_error)?;
        // The log names the path and query only: the header holds the token.
        let target = match request.url().query() {
            Some(q) => format!("{}?{q}", request.url().path()),
            None => request.url().path().to_string(),
        };
        let started = std::time::Instant::now();
        let elapsed_ms = || started.elapsed().as_millis() as u64;
        let response = match self.http.execute(request).await {
            Ok(r) => r,
            Err(e) => {
                let error = network_error(e);
                tracing::warn!(method = %"GET", url = %target, elapsed_ms = elapsed_ms(), error = %error.describe(), "request failed");
                return Err(error);
            }
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = response.bytes().await.map_err(network_error)?;
        tracing::info!(method = %"GET", url = %target, status, bytes = body.len(), elapsed_ms = elapsed_ms(), "request");
        if status != 200 {
            let error = FetchError::Status {
                status,
                message: server_message(&body, token),
                retry_after,
            };
            tracing::warn!(url = %target, error = %error.describe(), "request refused");
            return Err(error);
        }
        parse_fetched(body.to_vec())
            .inspect_err(|e| tracing::warn!(url = %target, error = %e.describe(), "bad page"))
    }
}

fn network_error(e: reqwest::Error) -> FetchError {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else if e.is_body() || e.is_decode() {
        "the answer was cut off"
    } else {
        "request failed"
    };
    // reqwest's messages carry the URL, never headers; the source chain says what broke.
    let mut detail = String::new();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    if detail.is_empty() {
        FetchError::Network(kind.to_string())
    } else {
        FetchError::Network(format!("{kind} ({})", for_terminal(&detail)))
    }
}

/// The server's message of an error answer: a JSON `message` (or `error`, `msg`), else the text,
/// shortened and sanitised; never the token, should a server echo it.
fn server_message(body: &[u8], token: &Token) -> String {
    let text = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(v) => ["message", "error", "msg", "detail"]
            .iter()
            .find_map(|k| v.get(*k).and_then(|m| m.as_str()).map(str::to_string))
            .unwrap_or_else(|| v.to_string()),
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    let text = text.replace(token.expose(), "<redacted>");
    let text = for_terminal(text.trim()).into_owned();
    crate::text::cut(&text, 300)
}

/// Reads a 200 body: an envelope whose events go into a batch. Anything else is a bad page, so
/// that what was loaded before is kept and the user is told.
pub fn parse_page(body: Vec<u8>) -> Result<Page, FetchError> {
    parse_fetched(body).map(Fetched::into_page)
}

/// Reads a 200 body as [`parse_page`] does, keeping where each event is.
pub fn parse_fetched(body: Vec<u8>) -> Result<Fetched, FetchError> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(default)]
        next: Option<String>,
        #[serde(default)]
        total: Option<serde_json::Value>,
        #[serde(borrow)]
        events: &'a serde_json::value::RawValue,
    }
    let (next, total) = {
        let head: Head = serde_json::from_slice(&body).map_err(|e| {
            let what = if e.is_eof() {
                "it ends too early"
            } else {
                "invalid JSON"
            };
            FetchError::BadPage(format!("{what} at line {} column {}", e.line(), e.column()))
        })?;
        if !head.events.get().starts_with('[') {
            return Err(FetchError::BadPage(
                "its events field is not an array".into(),
            ));
        }
        (
            head.next.unwrap_or_default(),
            head.total.and_then(|t| t.as_u64()),
        )
    };
    let blob = Arc::new(Blob::Owned(body));
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    dump::scan(
        &blob,
        &mut |s, e| {
            entries.push(Entry::read(&blob, s, e)?);
            Ok(())
        },
        &mut errors,
    );
    if let Some(e) = errors.first() {
        return Err(FetchError::BadPage(e.message.clone()));
    }
    Ok(Fetched {
        blob,
        entries,
        next,
        total,
    })
}

/// The parts of a filter the API takes as query parameters: the types (`type` repeated) and the
/// wanted room, session, peer and user. The rest of the filter is applied to what arrives.
pub fn api_params(filter: &Filter) -> Vec<(&'static str, String)> {
    let mut params: Vec<(&'static str, String)> = filter
        .types
        .iter()
        .map(|t| ("type", t.name().to_string()))
        .collect();
    for field in [Field::Room, Field::Session, Field::Peer, Field::User] {
        if let Some(v) = filter.wanted(field) {
            params.push((field.json_name(), v.to_string()));
        }
    }
    params
}
