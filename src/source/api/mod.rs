//! The live API over HTTP: one client for every endpoint the explorer reads (events, rooms,
//! sessions), with the same authentication, compression, timeouts and error reading for each.

mod error;
mod page;
pub mod rooms;
pub mod sessions;

pub use error::{FetchError, retry_after, server_words};
pub use page::{Fetched, Page, parse_fetched, parse_page};

use std::time::Duration;

use crate::event::Field;
use crate::filter::Filter;
use crate::text::for_terminal;

use super::token::Token;

pub const EVENTS_PATH: &str = "/v2/analytics/events";
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A request that sends nothing for this long is abandoned (and retried).
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// A request not answered in full this long after it started is abandoned (and retried), however
/// steadily its body trickles in: a page of a hundred events (about 150 KB) takes 15 s even at
/// 10 KB/s.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(120);
/// The most bytes read of one answer (after decompression, so that a small gzip'd body cannot
/// inflate past it). A page holds at most 100 events, of about 1.5 KB each in the hosted API's
/// examples and the demo data; 16 MiB is room for events a hundred times that size, and bounds
/// what a wrong or hostile server can make callscope hold per request (a dozen cursors at once
/// when loading everything).
pub const MAX_ANSWER_BYTES: usize = 16 << 20;

/// Whether `url` names this machine: a loopback address, or `localhost`.
pub fn is_this_machine(url: &reqwest::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
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
        let mut http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .timeout(REQUEST_DEADLINE)
            .user_agent(concat!("callscope/", env!("CARGO_PKG_VERSION")));
        // This machine is asked directly, never through a proxy the environment names
        // (`http_proxy`): over plain http the proxy would read the token, and its own loopback
        // is not this machine's.
        if reqwest::Url::parse(base_url).is_ok_and(|url| is_this_machine(&url)) {
            http = http.no_proxy();
        }
        let http = http
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

    /// Requests one page of events. `start` is the previous page's `next` (sent URL-encoded).
    pub async fn fetch(
        &self,
        token: &Token,
        filter: &Filter,
        start: Option<&str>,
    ) -> Result<Fetched, FetchError> {
        let (body, target) = self
            .get(EVENTS_PATH, &self.params(filter, start), token)
            .await?;
        parse_fetched(body)
            .inspect_err(|e| tracing::warn!(url = %target, error = %e.describe(), "bad page"))
    }

    /// A GET of `path` with `params`: the body of a 200 (inflated when the server compressed
    /// it), and the path and query for logs. Any other status is a [`FetchError::Status`] with
    /// the server's words and the wait it asked for.
    pub async fn get(
        &self,
        path: &str,
        params: &[(&str, String)],
        token: &Token,
    ) -> Result<(Vec<u8>, String), FetchError> {
        let url = format!("{}{path}", self.base_url);
        let request = self
            .http
            .get(&url)
            .query(params)
            .bearer_auth(token.expose())
            .header(reqwest::header::ACCEPT, "application/json")
            .build()
            .map_err(network_error)?;
        // The log names the path and query only: the header holds the token.
        let target = match request.url().query() {
            Some(q) => format!("{}?{q}", request.url().path()),
            None => request.url().path().to_string(),
        };
        let started = std::time::Instant::now();
        let elapsed_ms = || started.elapsed().as_millis() as u64;
        // On the runtime's clock, as the client's timeouts are.
        let began = tokio::time::Instant::now();
        let response = match self.http.execute(request).await {
            Ok(r) => r,
            Err(e) => {
                let error = network_error_since(e, began);
                tracing::warn!(method = %"GET", url = %target, elapsed_ms = elapsed_ms(), error = %error.describe(), "request failed");
                return Err(error);
            }
        };
        let status = response.status().as_u16();
        let retry_header = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = read_capped(response, MAX_ANSWER_BYTES, began).await?;
        tracing::info!(method = %"GET", url = %target, status, bytes = body.len(), elapsed_ms = elapsed_ms(), "request");
        if status != 200 {
            let (message, details) = server_words(&body, Some(token));
            let words = format!("{message} {}", details.join(" "));
            let error = FetchError::Status {
                status,
                retry_after: retry_after(
                    retry_header.as_deref(),
                    &words,
                    std::time::SystemTime::now(),
                ),
                message,
                details,
            };
            tracing::warn!(url = %target, error = %error.describe(), "request refused");
            return Err(error);
        }
        Ok((body, target))
    }

    /// The page size asked for.
    pub fn page_size(&self) -> u32 {
        self.page_size
    }
}

/// The body of `response`, refused as soon as it is known to pass `limit` bytes: from its
/// announced length, else as it arrives. `began`: when the request was sent.
async fn read_capped(
    mut response: reqwest::Response,
    limit: usize,
    began: tokio::time::Instant,
) -> Result<Vec<u8>, FetchError> {
    // The announced length is that of the compressed body when the server compressed it.
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(FetchError::TooLarge { limit });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| network_error_since(e, began))?
    {
        if body.len() + chunk.len() > limit {
            return Err(FetchError::TooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// [`network_error`] for a request sent at `began`, a timeout said by the limit it reached:
/// the connection's, the wait for data, or the whole request's.
fn network_error_since(e: reqwest::Error, began: tokio::time::Instant) -> FetchError {
    if !e.is_timeout() {
        return network_error(e);
    }
    let secs = |d: Duration| d.as_secs();
    FetchError::Network(if e.is_connect() {
        format!(
            "cannot connect (timed out after {} s)",
            secs(CONNECT_TIMEOUT)
        )
    } else if began.elapsed() + Duration::from_secs(1) >= REQUEST_DEADLINE {
        format!(
            "timed out ({} s in all, and the answer was not yet whole)",
            secs(REQUEST_DEADLINE)
        )
    } else {
        format!("timed out ({} s without data)", secs(READ_TIMEOUT))
    })
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
    // rustls's words for a TLS record that is not one: the server answered in plain text.
    if detail.contains("InvalidContentType") {
        return FetchError::NotTls;
    }
    if detail.is_empty() {
        FetchError::Network(kind.to_string())
    } else {
        FetchError::Network(format!("{kind} ({})", for_terminal(&detail)))
    }
}

/// The parts of a filter the API takes as query parameters: the types (`type` repeated; with
/// none, `error=true`: the error events, not the track and recording events the endpoint also
/// serves by default) and the wanted room, session, peer and user. The rest of the filter is
/// applied to what arrives.
pub fn api_params(filter: &Filter) -> Vec<(&'static str, String)> {
    let mut params: Vec<(&'static str, String)> = filter
        .types
        .iter()
        .map(|t| ("type", t.name().to_string()))
        .collect();
    if params.is_empty() {
        params.push(("error", "true".to_string()));
    }
    for field in [Field::Room, Field::Session, Field::Peer, Field::User] {
        if let Some(v) = filter.wanted(field) {
            params.push((field.json_name(), v.to_string()));
        }
    }
    params
}
